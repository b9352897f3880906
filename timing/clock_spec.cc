#include "timing/clock_spec.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "platform/cycle_counter.h"
#include "timing/cycle_clock.h"
#include "timing/os_clocks.h"
#include "timing/tick_clock.h"
#include "timing/virtual_clock.h"

namespace tickbench::timing {
namespace {

constexpr absl::string_view kAllowedClocks =
    "gettimeofday, clock_gettime[:ID], rdtsc (x86-64) or cntvct (arm64), tick[:PERIOD][:uniqtime], "
    "virtual";

bool IsCycleCounterName(absl::string_view name) {
  return name == "rdtsc" || name == "cntvct" || name == "cycles";
}

// Reads another clock: how "virtual" is offered over a simulation's shared time.
class ForwardingClock final : public Clock {
 public:
  explicit ForwardingClock(Clock* target) : Clock(target->info()), target_(target) {}
  int64_t NowTicks() override { return target_->NowTicks(); }

 private:
  Clock* target_;
};

}  // namespace

absl::Status ValidateTickPeriod(absl::Duration period) {
  if (period < kMinTickPeriod || period > kMaxTickPeriod ||
      period % absl::Nanoseconds(1) != absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tick period must be a whole number of nanoseconds in [",
        absl::FormatDuration(kMinTickPeriod), ", ", absl::FormatDuration(kMaxTickPeriod),
        "] (10ms = 100 Hz, 20ms = 50 Hz); got ", absl::FormatDuration(period)));
  }
  return absl::OkStatus();
}

absl::StatusOr<ClockSpec> ParseClockSpec(absl::string_view text) {
  for (const char c : text) {
    if (absl::ascii_iscntrl(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          absl::StrCat("clock '", absl::CHexEscape(text), "' contains a control character"));
    }
  }
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ':');
  const absl::string_view name = parts[0];
  ClockSpec spec;
  auto too_many = [&](size_t allowed) -> absl::Status {
    if (parts.size() <= allowed) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("clock '", absl::CHexEscape(text),
                     "' has too many ':' parts; allowed clocks: ", kAllowedClocks));
  };
  if (name == "gettimeofday") {
    spec.kind = ClockKind::kGettimeofday;
    if (absl::Status s = too_many(1); !s.ok()) return s;
  } else if (name == "clock_gettime") {
    spec.kind = ClockKind::kClockGettime;
    if (absl::Status s = too_many(2); !s.ok()) return s;
    if (parts.size() == 2) {
      absl::StatusOr<ClockIdName> id = ParseClockId(parts[1]);
      if (!id.ok()) return id.status();
      spec.clock_id = id->flag_name;
    }
  } else if (IsCycleCounterName(name)) {
    spec.kind = ClockKind::kCycleCounter;
    if (absl::Status s = too_many(1); !s.ok()) return s;
    if (name != "cycles" && name != CycleClockName()) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "clock '%s' is not this CPU's counter; this CPU's is '%s' (allowed clocks: %s)",
          absl::CHexEscape(name), CycleClockName(), kAllowedClocks));
    }
    absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
    if (!counter.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat(counter.status().message(), "; other clocks: gettimeofday, clock_gettime, tick"));
    }
  } else if (name == "tick") {
    spec.kind = ClockKind::kTick;
    if (absl::Status s = too_many(3); !s.ok()) return s;
    for (size_t i = 1; i < parts.size(); ++i) {
      if (parts[i] == "uniqtime") {
        spec.uniqtime = true;
      } else if (i == 1) {
        if (!absl::ParseDuration(parts[i], &spec.tick_period)) {
          return absl::InvalidArgumentError(
              absl::StrCat("tick period '", absl::CHexEscape(parts[i]),
                           "' is not a duration with a unit (write e.g. 10ms or 20ms; units ns, "
                           "us, ms, s, m, h)"));
        }
        if (absl::Status s = ValidateTickPeriod(spec.tick_period); !s.ok()) return s;
      } else {
        return absl::InvalidArgumentError(absl::StrCat("clock '", absl::CHexEscape(text),
                                                       "': expected 'uniqtime' after the period"));
      }
    }
  } else if (name == "virtual") {
    spec.kind = ClockKind::kVirtual;
    if (absl::Status s = too_many(1); !s.ok()) return s;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown clock '", absl::CHexEscape(name),
                                                   "'; allowed clocks: ", kAllowedClocks));
  }
  return spec;
}

absl::StatusOr<std::vector<ClockSpec>> ParseClockSpecList(absl::string_view text) {
  std::vector<ClockSpec> specs;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    absl::StatusOr<ClockSpec> spec = ParseClockSpec(item);
    if (!spec.ok()) return spec.status();
    specs.push_back(*spec);
  }
  if (specs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no clock given; allowed clocks: ", kAllowedClocks));
  }
  return specs;
}

std::string ClockSpecToString(const ClockSpec& spec) {
  switch (spec.kind) {
    case ClockKind::kGettimeofday:
      return "gettimeofday";
    case ClockKind::kClockGettime:
      return absl::StrCat("clock_gettime:", spec.clock_id);
    case ClockKind::kCycleCounter:
      return CycleClockName();
    case ClockKind::kTick:
      return absl::StrCat("tick:", absl::FormatDuration(spec.tick_period),
                          spec.uniqtime ? ":uniqtime" : "");
    case ClockKind::kVirtual:
      return "virtual";
  }
  return "unknown";
}

std::vector<ClockSpec> AvailableClockSpecs() {
  std::vector<ClockSpec> specs;
  specs.push_back(ClockSpec{ClockKind::kGettimeofday});
  for (const ClockIdName& id : ClockIdNames()) {
    ClockSpec spec;
    spec.kind = ClockKind::kClockGettime;
    spec.clock_id = id.flag_name;
    specs.push_back(spec);
  }
  if (platform::GetCycleCounterInfo().ok()) specs.push_back(ClockSpec{ClockKind::kCycleCounter});
  for (absl::Duration period : {absl::Milliseconds(10), absl::Milliseconds(20)}) {
    ClockSpec spec;
    spec.kind = ClockKind::kTick;
    spec.tick_period = period;
    specs.push_back(spec);
  }
  specs.push_back(ClockSpec{ClockKind::kVirtual});
  return specs;
}

absl::StatusOr<std::unique_ptr<Clock>> MakeClock(const ClockSpec& spec,
                                                 const ClockEnvironment& environment) {
  switch (spec.kind) {
    case ClockKind::kGettimeofday:
      return std::make_unique<GettimeofdayClock>();
    case ClockKind::kClockGettime: {
      absl::StatusOr<ClockIdName> id = ParseClockId(spec.clock_id);
      if (!id.ok()) return id.status();
      return std::make_unique<ClockGettimeClock>(*id);
    }
    case ClockKind::kCycleCounter: {
      absl::StatusOr<std::unique_ptr<CycleClock>> clock =
          CycleClock::Create(environment.allow_variable_cycle_counter);
      if (!clock.ok()) return clock.status();
      return std::unique_ptr<Clock>(std::move(*clock));
    }
    case ClockKind::kTick: {
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
    case ClockKind::kVirtual:
      if (environment.simulated_time != nullptr) {
        return std::make_unique<ForwardingClock>(environment.simulated_time);
      }
      return std::make_unique<VirtualClock>();
  }
  return absl::InternalError("unhandled clock kind");
}

}  // namespace tickbench::timing
