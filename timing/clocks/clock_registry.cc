#include "timing/clocks/clock_registry.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/cpu/cycle_counter.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/mpi_wtime_clock.h"
#include "timing/clocks/tick_clock.h"
#include "timing/clocks/virtual_clock.h"

namespace tickbench::timing {
namespace {

// InvalidArgument when a spec has more than `allowed` arguments after its name.
absl::Status AtMost(size_t allowed, absl::Span<const absl::string_view> args,
                    absl::string_view text) {
  if (args.size() <= allowed) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("clock '", absl::CHexEscape(text),
                   "' has too many ':' parts; allowed clocks: ", ClockKindsForHelp()));
}

absl::Status NoArgs(absl::string_view, absl::Span<const absl::string_view> args,
                    absl::string_view text, ClockSpec&) {
  return AtMost(0, args, text);
}

// Reads another clock: how "virtual" is offered over a simulation's shared time.
class ForwardingClock final : public Clock {
 public:
  explicit ForwardingClock(Clock* target) : Clock(target->info()), target_(target) {}
  int64_t NowTicks() override { return target_->NowTicks(); }

 private:
  Clock* target_;
};

// gettimeofday

std::string GettimeofdayText(const ClockSpec&) { return "gettimeofday"; }
std::vector<ClockSpec> GettimeofdayOffered() { return {ClockSpec{ClockKind::kGettimeofday}}; }
absl::StatusOr<std::unique_ptr<Clock>> MakeGettimeofday(const ClockSpec&, const ClockEnvironment&) {
  return std::make_unique<GettimeofdayClock>();
}

// clock_gettime[:ID]

absl::Status ParseClockGettime(absl::string_view, absl::Span<const absl::string_view> args,
                               absl::string_view text, ClockSpec& spec) {
  if (absl::Status s = AtMost(1, args, text); !s.ok()) return s;
  if (args.size() == 1) {
    absl::StatusOr<ClockIdName> id = ParseClockId(args[0]);
    if (!id.ok()) return id.status();
    spec.clock_id = id->flag_name;
  }
  return absl::OkStatus();
}
std::string ClockGettimeText(const ClockSpec& spec) {
  return absl::StrCat("clock_gettime:", spec.clock_id);
}
std::vector<ClockSpec> ClockGettimeOffered() {
  std::vector<ClockSpec> specs;
  for (const ClockIdName& id : ClockIdNames()) {
    if (!ClockIdAvailable(id)) continue;
    ClockSpec spec;
    spec.kind = ClockKind::kClockGettime;
    spec.clock_id = id.flag_name;
    specs.push_back(spec);
  }
  return specs;
}
absl::StatusOr<std::unique_ptr<Clock>> MakeClockGettime(const ClockSpec& spec,
                                                        const ClockEnvironment&) {
  absl::StatusOr<ClockIdName> id = ParseClockId(spec.clock_id);
  if (!id.ok()) return id.status();
  return std::make_unique<ClockGettimeClock>(*id);
}

// rdtsc | cntvct | cycles

// "gettimeofday, clock_gettime, tick, virtual": the names of every other row.
std::string OtherThanCycleCounter() {
  std::string text;
  for (const std::string& name : ClockKindNames()) {
    const ClockKindInfo* row = FindClockKind(name);
    if (row != nullptr && row->kind == ClockKind::kCycleCounter) continue;
    absl::StrAppend(&text, text.empty() ? "" : ", ", name);
  }
  return text;
}

absl::Status ParseCycleCounter(absl::string_view name, absl::Span<const absl::string_view> args,
                               absl::string_view text, ClockSpec&) {
  if (absl::Status s = AtMost(0, args, text); !s.ok()) return s;
  if (name != "cycles" && name != CycleClockName()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "clock '%s' is not this CPU's counter; this CPU's is '%s' (allowed clocks: %s)",
        absl::CHexEscape(name), CycleClockName(), ClockKindsForHelp()));
  }
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  if (!counter.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(counter.status().message(), "; other clocks: ", OtherThanCycleCounter()));
  }
  return absl::OkStatus();
}
std::string CycleCounterText(const ClockSpec&) { return CycleClockName(); }
std::vector<ClockSpec> CycleCounterOffered() {
  if (!platform::GetCycleCounterInfo().ok()) return {};
  return {ClockSpec{ClockKind::kCycleCounter}};
}
absl::StatusOr<std::unique_ptr<Clock>> MakeCycleCounter(const ClockSpec&,
                                                        const ClockEnvironment& environment) {
  absl::StatusOr<std::unique_ptr<CycleClock>> clock =
      CycleClock::Create(environment.allow_variable_cycle_counter);
  if (!clock.ok()) return clock.status();
  return std::unique_ptr<Clock>(std::move(*clock));
}

// tick[:PERIOD][:uniqtime]

absl::Status ParseTick(absl::string_view, absl::Span<const absl::string_view> args,
                       absl::string_view text, ClockSpec& spec) {
  if (absl::Status s = AtMost(2, args, text); !s.ok()) return s;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "uniqtime") {
      spec.uniqtime = true;
    } else if (i == 0) {
      if (!absl::ParseDuration(args[i], &spec.tick_period)) {
        return absl::InvalidArgumentError(
            absl::StrCat("tick period '", absl::CHexEscape(args[i]),
                         "' is not a duration with a unit (write e.g. 10ms or 20ms; units ns, "
                         "us, ms, s, m, h)"));
      }
      if (absl::Status s = ValidateTickPeriod(spec.tick_period); !s.ok()) return s;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("clock '", absl::CHexEscape(text),
                                                     "': expected 'uniqtime' after the period"));
    }
  }
  return absl::OkStatus();
}
std::string TickText(const ClockSpec& spec) {
  return absl::StrCat("tick:", absl::FormatDuration(spec.tick_period),
                      spec.uniqtime ? ":uniqtime" : "");
}
std::vector<ClockSpec> TickOffered() {
  std::vector<ClockSpec> specs;
  for (absl::Duration period : {absl::Milliseconds(10), absl::Milliseconds(20)}) {
    ClockSpec spec;
    spec.kind = ClockKind::kTick;
    spec.tick_period = period;
    specs.push_back(spec);
  }
  return specs;
}
absl::StatusOr<std::unique_ptr<Clock>> MakeTick(const ClockSpec& spec,
                                                const ClockEnvironment& environment) {
  TickClockOptions options;
  options.period = spec.tick_period;
  options.random_phase = !environment.fixed_phase;
  options.phase = environment.tick_phase;
  options.seed = environment.seed;
  options.uniqtime = spec.uniqtime;
  absl::StatusOr<std::unique_ptr<TickClock>> clock =
      environment.simulated_time != nullptr
          ? TickClock::Create(options, environment.simulated_time)
          : TickClock::Create(options, std::make_unique<ClockGettimeClock>(ClockIdNames()[0]));
  if (!clock.ok()) return clock.status();
  return std::unique_ptr<Clock>(std::move(*clock));
}

// virtual

std::string VirtualText(const ClockSpec&) { return "virtual"; }
std::vector<ClockSpec> VirtualOffered() { return {ClockSpec{ClockKind::kVirtual}}; }
absl::StatusOr<std::unique_ptr<Clock>> MakeVirtual(const ClockSpec&,
                                                   const ClockEnvironment& environment) {
  if (environment.simulated_time != nullptr) {
    return std::make_unique<ForwardingClock>(environment.simulated_time);
  }
  return std::make_unique<VirtualClock>();
}

// mpi_wtime (timing/clocks/mpi_wtime_clock.h)

std::string MpiWtimeText(const ClockSpec&) { return kMpiWtimeName; }

// One row per clock kind, in the order of --help and --list_clocks.
const ClockKindInfo kClockKinds[] = {
    {ClockKind::kGettimeofday,
     {"gettimeofday", nullptr},
     nullptr,
     "gettimeofday",
     "wall time in microseconds; can step (NTP)",
     &NoArgs,
     &GettimeofdayText,
     &GettimeofdayOffered,
     &MakeGettimeofday},
    {ClockKind::kClockGettime,
     {"clock_gettime", nullptr},
     nullptr,
     "clock_gettime[:ID]",
     "clock_gettime() with an id (--clock_id; default monotonic)",
     &ParseClockGettime,
     &ClockGettimeText,
     &ClockGettimeOffered,
     &MakeClockGettime},
    {ClockKind::kCycleCounter,
     {"rdtsc", "cntvct"},
     "cycles",
     "rdtsc (x86-64) or cntvct (arm64)",
     "the CPU's cycle counter, its rate calibrated at start-up",
     &ParseCycleCounter,
     &CycleCounterText,
     &CycleCounterOffered,
     &MakeCycleCounter},
    {ClockKind::kTick,
     {"tick", nullptr},
     nullptr,
     "tick[:PERIOD][:uniqtime]",
     "a simulated coarse tick (--tick_period; default 10ms)",
     &ParseTick,
     &TickText,
     &TickOffered,
     &MakeTick},
    {ClockKind::kVirtual,
     {"virtual", nullptr},
     nullptr,
     "virtual",
     "simulated time, for --transport=sim",
     &NoArgs,
     &VirtualText,
     &VirtualOffered,
     &MakeVirtual},
    {ClockKind::kMpiWtime,
     {kMpiWtimeName, nullptr},
     nullptr,
     "mpi_wtime",
     "MPI_Wtime() of an MPI job (a build with --config=mpi; run under mpirun)",
     &ParseMpiWtime,
     &MpiWtimeText,
     &MpiWtimeOffered,
     &MakeMpiWtime},
};

}  // namespace

absl::Span<const ClockKindInfo> RegisteredClockKinds() { return kClockKinds; }

const ClockKindInfo* FindClockKind(absl::string_view name) {
  for (const ClockKindInfo& row : kClockKinds) {
    for (const char* row_name : row.names) {
      if (row_name != nullptr && name == row_name) return &row;
    }
    if (row.alias != nullptr && name == row.alias) return &row;
  }
  return nullptr;
}

const ClockKindInfo& ClockKindRow(ClockKind kind) {
  for (const ClockKindInfo& row : kClockKinds) {
    if (row.kind == kind) return row;
  }
  // Every kind has a row (clock_registry_test checks it); never reached.
  return kClockKinds[0];
}

std::string ClockKindsForHelp() {
  std::string text;
  for (const ClockKindInfo& row : kClockKinds) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", row.syntax);
  }
  return text;
}

std::vector<std::string> ClockKindNames() {
  std::vector<std::string> names;
  for (const ClockKindInfo& row : kClockKinds) {
    for (const char* name : row.names) {
      if (name != nullptr) names.emplace_back(name);
    }
  }
  return names;
}

std::string ClockKindTableForHelp() {
  size_t width = 0;
  for (const ClockKindInfo& row : kClockKinds) width = std::max(width, strlen(row.syntax));
  std::string table;
  for (const ClockKindInfo& row : kClockKinds) {
    absl::StrAppendFormat(&table, "  %-*s  %s\n", static_cast<int>(width), row.syntax,
                          row.description);
  }
  return table;
}

std::string ClockIdNamesForHelp() {
  std::string text;
  for (const ClockIdName& id : ClockIdNames()) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", id.flag_name);
  }
  return text;
}

bool ClockIdAvailable(const ClockIdName& id) {
  timespec resolution{};
  return clock_getres(id.id, &resolution) == 0;
}

}  // namespace tickbench::timing
