#include "harness/cli/cli_options.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/cli/plan_checks.h"
#include "harness/cli/size_list.h"
#include "harness/output/output_file.h"
#include "harness/page/gnuplot.h"
#include "platform/cpu_affinity.h"
#include "platform/cycle_counter.h"
#include "timing/cycle_clock.h"
#include "transport/sim_transport.h"
#include "transport/transport_factory.h"
#include "transport/transport_registry.h"

namespace tickbench::harness {

bool Given(const CommandLine& c, const std::string& flag) { return c.specified.count(flag) > 0; }

// "--flag: message", unless the message already names the flag first.
absl::Status BadFlag(absl::string_view flag, absl::string_view message) {
  const std::string prefix = absl::StrCat("--", flag);
  if (absl::StartsWith(message, absl::StrCat(prefix, ":")) ||
      absl::StartsWith(message, absl::StrCat(prefix, " "))) {
    return absl::InvalidArgumentError(message);
  }
  return absl::InvalidArgumentError(absl::StrCat(prefix, ": ", message));
}

std::string Quoted(absl::string_view user_text) {
  return absl::StrCat("'", absl::CHexEscape(user_text), "'");
}

absl::Status DurationInRange(absl::string_view flag, absl::Duration value, absl::Duration min,
                             absl::Duration max, bool min_open) {
  const bool low = min_open ? value <= min : value < min;
  if (low || value > max) {
    return BadFlag(flag, absl::StrCat("must be a duration in ", min_open ? "(" : "[",
                                      absl::FormatDuration(min), ", ", absl::FormatDuration(max),
                                      "]; got ", absl::FormatDuration(value)));
  }
  return absl::OkStatus();
}

absl::Status IntegerInRange(absl::string_view flag, int64_t value, int64_t min, int64_t max,
                            absl::string_view note) {
  if (value < min || value > max) {
    return BadFlag(flag, absl::StrFormat("must be %d..%d%s; got %d", min, max, note, value));
  }
  return absl::OkStatus();
}

// The flags that hold no path: control bytes in them can only be a mistake (or an
// attack on the terminal that shows the message).
absl::Status CheckNoControlBytes(const CommandLine& c) {
  const std::pair<const char*, const std::string*> texts[] = {
      {"experiment", &c.experiment},
      {"transport", &c.transport},
      {"clock", &c.clock},
      {"clock_id", &c.clock_id},
      {"tick_phase", &c.tick_phase},
      {"reference_clock", &c.reference_clock},
      {"sizes", &c.sizes},
      {"format", &c.format},
      {"pin", &c.pin},
      {"clocks", &c.clocks},
      {"sim_jitter", &c.sim_jitter},
      {"role", &c.role},
      {"listen", &c.listen},
      {"peer", &c.peer},
      {"analyze_column", &c.analyze_column},
      {"clock_info", &c.clock_info},
  };
  for (const auto& [flag, text] : texts) {
    for (const char ch : *text) {
      if (absl::ascii_iscntrl(static_cast<unsigned char>(ch))) {
        return BadFlag(flag, absl::StrCat(Quoted(*text), " contains a control character"));
      }
    }
  }
  return absl::OkStatus();
}

// The default reference: the cycle counter where it is invariant (finest and cheapest to
// read), else CLOCK_MONOTONIC.
timing::ClockSpec DefaultReference() {
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  timing::ClockSpec spec;
  if (counter.ok() && counter->invariant) {
    spec.kind = timing::ClockKind::kCycleCounter;
  } else {
    spec.kind = timing::ClockKind::kClockGettime;
    spec.clock_id = "monotonic";
  }
  return spec;
}

absl::Status ParsePin(absl::string_view text, SweepOptions& sweep) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  if (parts.size() > 2) return BadFlag("pin", "takes CLIENT_CPU or CLIENT_CPU,PEER_CPU");
  int cpus[2] = {-1, -1};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!absl::SimpleAtoi(parts[i], &cpus[i]) || cpus[i] < 0 ||
        cpus[i] >= platform::OnlineCpuCount()) {
      return BadFlag("pin", absl::StrFormat("%s is not a CPU of this machine (0..%d)",
                                            Quoted(parts[i]), platform::OnlineCpuCount() - 1));
    }
  }
  sweep.pin_client_cpu = cpus[0];
  sweep.pin_peer_cpu = cpus[1];
  return absl::OkStatus();
}

namespace {

// Where a flag does something: the modes (a bit per Mode) and, for the message, in words.
struct FlagUse {
  unsigned modes;
  const char* applies_to;
};

constexpr unsigned Bit(Mode mode) { return 1u << static_cast<unsigned>(mode); }

FlagUse UseOf(const std::string& flag) {
  if (flag == "flagfile" || flag == "fromenv" || flag == "tryfromenv" || flag == "undefok") {
    return {~0u, "any mode"};
  }
  if (flag == "list_clocks") return {Bit(Mode::kListClocks), "--list_clocks, a mode of its own"};
  if (flag == "clock_info") return {Bit(Mode::kClockInfo), "--clock_info, a mode of its own"};
  if (flag == "analyze") return {Bit(Mode::kAnalyze), "--analyze, a mode of its own"};
  if (flag == "analyze_column") return {Bit(Mode::kAnalyze), "--analyze"};
  if (flag == "allow_variable_cycle_counter") {
    return {Bit(Mode::kMeasure) | Bit(Mode::kClockInfo), "a measurement or --clock_info"};
  }
  if (flag == "explain") return {Bit(Mode::kMeasure) | Bit(Mode::kAnalyze), "a sweep or --analyze"};
  if (flag == "fit_sim") return {Bit(Mode::kAnalyze), "--analyze"};
  if (flag == "format") {
    return {
        Bit(Mode::kMeasure) | Bit(Mode::kListClocks) | Bit(Mode::kClockInfo) | Bit(Mode::kAnalyze),
        "a measurement, --list_clocks, --clock_info or --analyze"};
  }
  if (flag == "plot")
    return {Bit(Mode::kMeasure) | Bit(Mode::kAnalyze), "a measurement or --analyze"};
  if (flag == "role")
    return {Bit(Mode::kMeasure) | Bit(Mode::kServer), "a measurement or a server"};
  if (flag == "listen") return {Bit(Mode::kServer), "--role=server"};
  if (flag == "peer") return {Bit(Mode::kMeasure), "--role=client"};
  return {Bit(Mode::kMeasure), "a measurement"};
}

const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::kMeasure:
      return "a measurement";
    case Mode::kListClocks:
      return "--list_clocks";
    case Mode::kClockInfo:
      return "--clock_info";
    case Mode::kAnalyze:
      return "--analyze";
    case Mode::kServer:
      return "--role=server";
  }
  return "?";
}

}  // namespace

absl::StatusOr<Mode> ChooseMode(const CommandLine& c) {
  if (absl::Status s = CheckNoControlBytes(c); !s.ok()) return s;
  if (Given(c, "analyze") && c.analyze.empty()) return BadFlag("analyze", "takes a CSV file");
  if (Given(c, "clock_info") && c.clock_info.empty()) {
    return BadFlag("clock_info", "takes 'all' or a comma-separated list of clock specs");
  }
  Mode mode = Mode::kMeasure;
  if (c.list_clocks) {
    mode = Mode::kListClocks;
  } else if (!c.clock_info.empty()) {
    mode = Mode::kClockInfo;
  } else if (!c.analyze.empty()) {
    mode = Mode::kAnalyze;
  } else if (c.role == "server") {
    mode = Mode::kServer;
  }
  for (const std::string& flag : c.specified) {
    const FlagUse use = UseOf(flag);
    if ((use.modes & Bit(mode)) == 0) {
      return BadFlag(flag, absl::StrCat("does nothing with ", ModeName(mode), "; it applies to ",
                                        use.applies_to));
    }
  }
  if (mode == Mode::kMeasure && Given(c, "peer") && c.role != "client") {
    return BadFlag("peer", "applies only to --role=client");
  }
  return mode;
}

absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& c) {
  absl::StatusOr<timing::ClockSpec> spec;
  if (absl::StrContains(c.clock, ':')) {
    if (Given(c, "clock_id") || Given(c, "tick_period")) {
      return BadFlag("clock",
                     "give the clock either as one spec (tick:20ms) or with "
                     "--clock_id/--tick_period, not both");
    }
    spec = timing::ParseClockSpec(c.clock);
    if (!spec.ok())
      return absl::Status(spec.status().code(),
                          BadFlag("clock", spec.status().message()).message());
  } else {
    spec = timing::ParseClockSpec(c.clock);
    if (!spec.ok())
      return absl::Status(spec.status().code(),
                          BadFlag("clock", spec.status().message()).message());
    if (Given(c, "clock_id")) {
      if (spec->kind != timing::ClockKind::kClockGettime) {
        return BadFlag("clock_id", "applies only to --clock=clock_gettime");
      }
      absl::StatusOr<timing::ClockSpec> with_id =
          timing::ParseClockSpec(absl::StrCat("clock_gettime:", c.clock_id));
      if (!with_id.ok()) return BadFlag("clock_id", with_id.status().message());
      spec = with_id;
    }
    if (Given(c, "tick_period") && spec->kind != timing::ClockKind::kTick) {
      return BadFlag("tick_period", "applies only to --clock=tick");
    }
    if (spec->kind == timing::ClockKind::kTick && Given(c, "tick_period")) {
      if (absl::Status s = timing::ValidateTickPeriod(c.tick_period); !s.ok()) {
        return BadFlag("tick_period", s.message());
      }
      spec->tick_period = c.tick_period;
    }
  }
  // --uniqtime in either form of --clock, and only for a tick.
  if (Given(c, "uniqtime") || c.uniqtime) {
    if (spec->kind != timing::ClockKind::kTick) {
      return BadFlag("uniqtime", "applies only to a tick clock (--clock=tick or tick:PERIOD)");
    }
    spec->uniqtime = spec->uniqtime || c.uniqtime;
  }
  return spec;
}

std::vector<timing::ClockSpec> DefaultStudyClocks(bool simulate) {
  const char* const text = simulate ? "virtual,tick:10ms,tick:20ms"
                                    : "gettimeofday,clock_gettime:monotonic,"
                                      "clock_gettime:monotonic_coarse,tick:10ms,tick:20ms";
  std::vector<timing::ClockSpec> specs = *timing::ParseClockSpecList(text);
  if (!simulate && platform::GetCycleCounterInfo().ok()) {
    timing::ClockSpec cycles;
    cycles.kind = timing::ClockKind::kCycleCounter;
    specs.insert(specs.begin() + 3, cycles);
  }
  return specs;
}

absl::StatusOr<std::string> CheckPlotTarget(absl::string_view plot) {
  if (plot == "-") return BadFlag("plot", "a plot is a file: name an SVG file, e.g. sweep.svg");
  const std::string path = ResolveUserPath(plot);
  if (absl::Status s = CheckOutputTarget("plot", path); !s.ok())
    return BadFlag("plot", s.message());
  const std::string data = PlotDataPath(path);
  if (SameOutputFile(data, path)) {
    return BadFlag("plot",
                   absl::StrCat(Quoted(plot), " would be its own data file; name an .svg file"));
  }
  if (absl::Status s = CheckOutputTarget("plot", data); !s.ok()) {
    return BadFlag("plot",
                   absl::StrCat("its data file: ", absl::StripPrefix(s.message(), "--plot: ")));
  }
  return path;
}

namespace {

enum class NumberKind { kInteger, kUnsigned, kDuration };
// A whole-number or duration flag and its range as MakePlan's check says it: "must be ...".
struct NumberFlag {
  const char* name;
  NumberKind kind;
  std::string allowed;
};

const std::vector<NumberFlag>& NumberFlags() {
  auto whole = [](int64_t min, int64_t max, absl::string_view note = "") {
    return absl::StrFormat("must be %d..%d%s", min, max, note);
  };
  auto duration = [](absl::Duration min, absl::Duration max) {
    return absl::StrCat("must be a duration in [", absl::FormatDuration(min), ", ",
                        absl::FormatDuration(max), "]");
  };
  using K = NumberKind;
  const absl::Duration zero = absl::ZeroDuration();
  const int64_t most = std::numeric_limits<int64_t>::max();  // peer_*: no limit but int64's
  static const std::vector<NumberFlag>* const flags = new std::vector<NumberFlag>{
      {"iterations", K::kInteger, whole(1, kMaxIterations)},
      {"runs", K::kInteger, whole(1, kMaxRuns)},
      {"warmup", K::kInteger, whole(0, kMaxIterations)},
      {"batch", K::kInteger, "must be 1..--iterations"},
      {"retries", K::kInteger, whole(0, kMaxRetries)},
      {"peer_drop_every", K::kInteger, whole(0, most, " (0 = off)")},
      {"peer_stop_after", K::kInteger, whole(0, most, " (0 = off)")},
      {"seed", K::kUnsigned, "must be 0..18446744073709551615"},  // all of uint64
      {"sim_cluster", K::kInteger, whole(1, transport::kMaxSimBufferBytes, " bytes")},
      {"sim_small", K::kInteger, whole(1, transport::kMaxSimBufferBytes, " bytes")},
      {"sim_threshold", K::kInteger, "must be 1..--sim_cluster bytes"},
      {"sim_mtu", K::kInteger,
       whole(transport::kMinSimMtuBytes, transport::kMaxSimBufferBytes, " bytes (0: no link)")},
      {"tick_period", K::kDuration,
       absl::StrCat("tick period must be a whole number of nanoseconds in [",
                    absl::FormatDuration(timing::kMinTickPeriod), ", ",
                    absl::FormatDuration(timing::kMaxTickPeriod),
                    "] (10ms = 100 Hz, 20ms = 50 Hz)")},
      {"receive_timeout", K::kDuration, duration(kMinReceiveTimeout, kMaxReceiveTimeout)},
      {"peer_reply_delay", K::kDuration, duration(zero, kMaxPeerReplyDelay)},
      {"gap", K::kDuration, duration(zero, kMaxGap)},
      {"sim_fixed", K::kDuration, duration(zero, transport::kMaxSimFixed)},
      {"sim_per_cluster", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_per_small", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_per_packet", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_jitter_scale", K::kDuration, duration(zero, transport::kMaxSimJitterScale)},
  };
  return *flags;
}

// Why `text` is no value of a flag of `kind`, or "" when it is one (or is hex, which
// Abseil's parser reads and this does not).
std::string NumberProblem(NumberKind kind, absl::string_view text) {
  const absl::string_view stripped = absl::StripAsciiWhitespace(text);
  DurationFlag duration;
  std::string error;
  int64_t integer = 0;
  uint64_t whole = 0;
  if (kind == NumberKind::kDuration) {
    return AbslParseFlag(text, &duration, &error) ? "" : "not a duration with its unit";
  }
  if (absl::StrContains(absl::AsciiStrToLower(stripped), "0x") ||
      (kind == NumberKind::kInteger ? absl::SimpleAtoi(stripped, &integer)
                                    : absl::SimpleAtoi(stripped, &whole))) {
    return "";
  }
  const absl::string_view digits = absl::StripPrefix(absl::StripPrefix(stripped, "-"), "+");
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit)) {
    return "not a whole number";
  }
  return kind == NumberKind::kInteger ? "past what a 64-bit whole number holds"
                                      : "not a whole number from 0 to 2^64 - 1";
}

}  // namespace

std::vector<std::string> NumberValueHints(const std::vector<std::string>& args) {
  std::vector<std::string> hints;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) continue;
    const size_t equals = arg.find('=');
    const absl::string_view name = arg.substr(0, equals);
    for (const NumberFlag& flag : NumberFlags()) {  // the flag named, if a number flag
      if (name != flag.name) continue;
      if (equals == absl::string_view::npos && i + 1 >= args.size()) break;
      const std::string value =
          equals == absl::string_view::npos ? args[++i] : std::string(arg.substr(equals + 1));
      if (const std::string problem = NumberProblem(flag.kind, value); !problem.empty()) {
        hints.push_back(absl::StrCat("tickbench: --", flag.name, ": ", flag.allowed, "; got ",
                                     Quoted(value), ", ", problem));
      }
    }
  }
  return hints;
}

}  // namespace tickbench::harness
