#include "harness/context/run_context.h"

#include <limits>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "harness/json/json_writer.h"
#include "harness/output/build_info.h"
#include "harness/output/terminal_text.h"
#include "transport/io/read_watchdog.h"

namespace tickbench::harness {

ClockDescription DescribeClock(timing::Clock& clock, const std::string& role, bool in_simulation) {
  if (in_simulation) {
    timing::ClockProbeResult probe;
    probe.claimed_resolution = probe.observed_resolution = clock.info().claimed_resolution;
    return ClockDescription{role, clock.info(), probe};
  }
  timing::ClockProbeOptions options;
  // A shorter probe than --clock_info's: this runs before every measurement.
  options.min_reads = 20'000;
  options.cost_batches = 21;
  return ClockDescription{role, clock.info(), timing::ProbeClock(clock, options)};
}

namespace {

// The lower end of what a clock read costs through a system call (the warning's 0.5-2 us):
// a measured read this slow did not take the vDSO's path.
constexpr double kSystemCallReadNs = 500;

// The first clock whose read was measured (probed on this host, not a simulation's) that
// reads the kernel's time (clock_gettime, gettimeofday, or a tick over CLOCK_MONOTONIC)
// at a system call's cost; nullptr for none.
const ClockDescription* SystemCallClock(const std::vector<ClockDescription>& clocks) {
  for (const ClockDescription& clock : clocks) {
    const bool kernel_time = absl::StartsWith(clock.info.spec, "clock_gettime") ||
                             absl::StartsWith(clock.info.spec, "gettimeofday") ||
                             absl::StartsWith(clock.info.spec, "tick");
    if (kernel_time && clock.probe.reads > 0 && clock.probe.read_cost_ns >= kSystemCallReadNs) {
      return &clock;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> ContextWarnings(const platform::SystemInfo& system,
                                         const std::vector<ClockDescription>& clocks) {
  std::vector<std::string> warnings;
  if (!platform::IsOptimizedBuild()) {
    warnings.push_back(absl::StrFormat(
        "this is a %s build, not an optimised one: the harness's own code is slower than it "
        "should be (bazel run uses -c opt unless told otherwise)",
        system.build_mode));
  }
  if (const ClockDescription* slow = SystemCallClock(clocks);
      slow != nullptr && !system.clocksource.empty() && system.clocksource != "tsc" &&
      system.clocksource != "arch_sys_counter") {
    warnings.push_back(absl::StrFormat(
        "the kernel's clocksource is '%s' and a read of %s costs %.0f ns: clock_gettime and "
        "gettimeofday fall back to a system call (about 0.5-2 us a read instead of ~20 ns), "
        "which every per-iteration reading carries",
        system.clocksource, slow->info.name, slow->probe.read_cost_ns));
  }
  if (!system.cpu_governor.empty() && system.cpu_governor != "performance") {
    warnings.push_back(absl::StrFormat(
        "CPU frequency scaling is on (governor '%s'): round trips may change speed during a run; "
        "set the 'performance' governor for steadier numbers",
        system.cpu_governor));
  }
  for (const ClockDescription& clock : clocks) {
    if (clock.probe.backward_steps > 0) {
      warnings.push_back(absl::StrFormat("%s went backwards %d times while probed", clock.info.name,
                                         clock.probe.backward_steps));
    }
    const absl::Duration resolution =
        std::max(clock.probe.observed_resolution, clock.info.claimed_resolution);
    if (resolution >= absl::Microseconds(100)) {
      warnings.push_back(absl::StrFormat(
          "%s resolves only %s: a single round trip shorter than that mostly reads 0, so "
          "per-iteration figures mean little; the averaged figure is good to %s / N",
          clock.info.name, absl::FormatDuration(resolution), absl::FormatDuration(resolution)));
    }
  }
  return warnings;
}

std::optional<std::string> BusyPollWarning(bool busy_poll, bool local_peer, int client_cpu,
                                           int peer_cpu, int online_cpus) {
  if (!busy_poll) return std::nullopt;
  if (!local_peer) {
    if (client_cpu >= 0) return std::nullopt;
    return "busy polling without --pin: the spinning client may share its CPU with other "
           "work, and then waits out time slices instead of echoes";
  }
  if (online_cpus < 2) {
    return absl::StrFormat(
        "busy polling on %d CPU: the client and its peer take turns spinning out their time "
        "slices, so each round trip measures the scheduler, not the transport",
        online_cpus);
  }
  if (client_cpu < 0 || peer_cpu < 0 || client_cpu == peer_cpu) {
    return "busy polling without --pin=CLIENT,PEER on two different CPUs: when the scheduler "
           "puts client and peer on one CPU, each spins out its time slice while the other "
           "waits, and round trips measure the scheduler";
  }
  return std::nullopt;
}

std::optional<std::string> BlockingOnVirtualMachineWarning(bool busy_poll, bool simulated,
                                                           bool virtual_machine) {
  if (busy_poll || simulated || !virtual_machine) return std::nullopt;
  return "this is a virtual machine (the CPU reports a hypervisor) and receives block: when "
         "a vCPU has halted, waking it for an echo goes through the hypervisor and can add "
         "tens of microseconds to each round trip, more on an idle machine than a busy one; "
         "--busy_poll with --pin=CLIENT,PEER takes the wake-up out";
}

RunContext MakeRunContext(std::vector<ClockDescription> clocks,
                          std::vector<std::pair<std::string, std::string>> flags) {
  RunContext context;
  context.system = platform::GetSystemInfo();
  context.started_at = absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone());
  context.warnings = ContextWarnings(context.system, clocks);
  context.clocks = std::move(clocks);
  context.flags = std::move(flags);
  context.load_average_start = LoadAverageNow();
  return context;
}

std::optional<platform::LoadAverage> LoadAverageNow() {
  absl::StatusOr<platform::LoadAverage> load = platform::ReadLoadAverage();
  if (!load.ok()) return std::nullopt;
  return *load;
}

std::string FormatContextComment(const RunContext& context) {
  // Every string from the system or a peer goes through TerminalText: the lines may reach a
  // terminal as they are.
  const platform::SystemInfo& s = context.system;
  const auto t = [](absl::string_view text) { return TerminalText(text); };
  std::string text = absl::StrFormat(
      "# tickbench %s on %s, %s\n# CPU: %s (%d CPUs); kernel: %s %s\n"
      "# clocksource: %s; governor: %s; page size: %d bytes; build: %s%s\n",
      t(TickbenchVersion()), t(s.hostname), context.started_at, t(s.cpu_model), s.cpu_count,
      t(s.os), t(s.kernel), s.clocksource.empty() ? "unknown" : t(s.clocksource),
      s.cpu_governor.empty() ? "none" : t(s.cpu_governor), s.page_size_bytes, t(s.build_mode),
      s.virtual_machine ? "; virtual machine" : "");
  for (const ClockDescription& clock : context.clocks) {
    absl::StrAppendFormat(
        &text, "# %s: %s; claimed resolution %s, observed %s, read cost %.1f ns\n", clock.role,
        t(clock.info.name), absl::FormatDuration(clock.info.claimed_resolution),
        clock.probe.observed_resolution == absl::ZeroDuration()
            ? "none (never changed)"
            : absl::FormatDuration(clock.probe.observed_resolution),
        clock.probe.read_cost_ns);
  }
  if (context.load_average_start) {
    const platform::LoadAverage& load = *context.load_average_start;
    absl::StrAppendFormat(&text, "# load average at start: %.2f %.2f %.2f\n", load.one_minute,
                          load.five_minutes, load.fifteen_minutes);
  }
  if (!context.peer.empty()) absl::StrAppend(&text, "# peer: ", t(context.peer), "\n");
  if (!context.loop.empty()) absl::StrAppend(&text, "# loop: ", t(context.loop), "\n");
  for (const std::string& warning : context.warnings) {
    absl::StrAppend(&text, "# WARNING: ", t(warning), "\n");
  }
  return text;
}

std::string ReceiveBoundText(ReceiveKind kind, bool busy_poll, absl::Duration timeout,
                             bool automatic) {
  if (timeout == absl::InfiniteDuration()) {
    return "sends and receives only: receives wait without a bound (--receive_timeout=none), "
           "as the bare loop's";
  }
  const std::string length =
      automatic ? "1000 x the warm-up's median round trip, within [250ms, 10s]"
                : absl::StrCat("--receive_timeout=", absl::FormatDuration(timeout));
  if (busy_poll) {
    return absl::StrCat(
        "a spinning receive reads the clock after every 64 empty attempts, "
        "to end at its timeout (",
        length, "); --receive_timeout=none leaves that out");
  }
  constexpr char kSoRcvtimeo[] =
      "SO_RCVTIMEO on the socket (the kernel arms a timer in each receive that waits)";
  std::string how;
  if (kind == ReceiveKind::kDatagramSocket) {
    how = absl::StrCat(kSoRcvtimeo, ", which tells a lost datagram from a late one");
  } else if (transport::WatchdogBounds(timeout)) {
    how =
        "a read watchdog: a timer signal to the measuring thread every min(timeout / 4, "
        "250ms), a handler and a few system calls when it lands in a read";
  } else {
    how = kind == ReceiveKind::kPipe ? "ppoll() after a read that found nothing" : kSoRcvtimeo;
  }
  return absl::StrCat("each receive is bounded by ", how, "; timeout ", length,
                      "; --receive_timeout=none leaves that out");
}

std::string FormatSettingsComment(const std::vector<Setting>& settings) {
  std::string text;
  for (const Setting& s : settings) {
    absl::StrAppendFormat(&text, "# setting %s = %s (%s%s)\n", s.name, absl::CHexEscape(s.text),
                          s.type, s.given ? ", given" : "");
  }
  return text;
}

namespace {

// [1 min, 5 min, 15 min], or null.
void WriteLoadAverage(JsonWriter& json, const std::optional<platform::LoadAverage>& load) {
  if (!load) {
    json.Number(std::numeric_limits<double>::quiet_NaN());  // null
    return;
  }
  json.BeginArray();
  json.Number(load->one_minute);
  json.Number(load->five_minutes);
  json.Number(load->fifteen_minutes);
  json.EndArray();
}

// A setting's value as its type: a duration in ns, a number that does not parse as text.
void WriteSettingValue(JsonWriter& json, const Setting& s) {
  double number = 0;
  int64_t integer = 0;
  absl::Duration duration;
  if (s.type == "bool") {
    json.Bool(s.text == "true");
  } else if (s.type == "integer" && absl::SimpleAtoi(s.text, &integer)) {
    json.Integer(integer);
  } else if (s.type == "number" && absl::SimpleAtod(s.text, &number)) {
    json.Number(number);
  } else if (s.type == "duration" && absl::ParseDuration(s.text, &duration)) {
    json.Integer(absl::ToInt64Nanoseconds(duration));
  } else {
    json.String(s.text);
  }
}

void WriteSettingsJson(JsonWriter& json, const std::vector<Setting>& settings) {
  json.Key("settings");
  json.BeginArray();
  for (const Setting& s : settings) {
    json.BeginObject();
    json.StringField("name", s.name);
    json.Key("value");
    WriteSettingValue(json, s);
    json.StringField("type", s.type);
    json.StringField("text", s.text);
    json.BoolField("given", s.given);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

void WriteProvenanceJson(JsonWriter& json, absl::string_view mode) {
  json.IntegerField("schema_version", kSchemaVersion);
  json.StringField("tickbench_version", TickbenchVersion());
  json.StringField("mode", mode);
}

void WriteClockJson(JsonWriter& json, const ClockDescription& clock) {
  json.BeginObject();
  if (!clock.role.empty()) json.StringField("role", clock.role);
  json.StringField("spec", clock.info.spec);
  json.StringField("name", clock.info.name);
  json.NumberField("ticks_per_second", clock.info.ticks_per_second);
  json.NumberField("claimed_resolution_ns",
                   absl::ToDoubleNanoseconds(clock.info.claimed_resolution));
  json.NumberField("observed_resolution_ns",
                   absl::ToDoubleNanoseconds(clock.probe.observed_resolution));
  json.NumberField("read_cost_ns", clock.probe.read_cost_ns);
  json.IntegerField("backward_steps", clock.probe.backward_steps);
  json.StringField("notes", clock.info.notes);
  json.EndObject();
}

void WriteContextJson(JsonWriter& json, const RunContext& context, absl::string_view experiment) {
  json.BeginObject();
  const platform::SystemInfo& s = context.system;
  json.StringField("experiment", experiment);
  json.StringField("started_at", context.started_at);
  json.StringField("host", s.hostname);
  json.StringField("os", s.os);
  json.StringField("kernel", s.kernel);
  json.StringField("machine", s.machine);
  json.StringField("cpu", s.cpu_model);
  json.IntegerField("cpu_count", s.cpu_count);
  json.IntegerField("page_size_bytes", s.page_size_bytes);
  json.StringField("clocksource", s.clocksource);
  json.StringField("cpu_governor", s.cpu_governor);
  json.BoolField("virtual_machine", s.virtual_machine);
  json.StringField("build_mode", s.build_mode);
  json.Key("clocks");
  json.BeginArray();
  for (const ClockDescription& clock : context.clocks) WriteClockJson(json, clock);
  json.EndArray();
  json.Key("flags");
  json.BeginObject();
  for (const auto& [name, value] : context.flags) {
    json.Key(name);
    json.String(value);
  }
  json.EndObject();
  WriteSettingsJson(json, context.settings);
  json.Key("load_average_start");
  WriteLoadAverage(json, context.load_average_start);
  json.Key("load_average_end");
  WriteLoadAverage(json, context.load_average_end);
  json.StringField("peer", context.peer);
  if (!context.loop.empty()) json.StringField("loop", context.loop);
  json.Key("warnings");
  json.BeginArray();
  for (const std::string& warning : context.warnings) json.String(warning);
  json.EndArray();
  json.EndObject();
}

}  // namespace tickbench::harness
