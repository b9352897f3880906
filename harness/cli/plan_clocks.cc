#include "harness/cli/plan_clocks.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/cli/hints/near_names.h"
#include "platform/cpu/cycle_counter.h"
#include "timing/clocks/clock_registry.h"
#include "timing/clocks/os_clocks.h"

namespace tickbench::harness {

namespace {

std::vector<std::string> ClockIdFlagNames() {
  std::vector<std::string> names;
  for (const timing::ClockIdName& id : timing::ClockIdNames()) names.push_back(id.flag_name);
  return names;
}

}  // namespace

absl::Status WithClockHint(absl::Status refused, absl::string_view text) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  refused = WithDidYouMean(refused, parts[0], timing::ClockKindNames());
  if (parts[0] == "clock_gettime" && parts.size() > 1) {
    refused = WithDidYouMean(refused, parts[1], ClockIdFlagNames());
  }
  return refused;
}

absl::StatusOr<timing::ClockSpec> ParseClockFlag(absl::string_view flag, absl::string_view text) {
  absl::StatusOr<timing::ClockSpec> spec = timing::ParseClockSpec(text);
  if (spec.ok()) return spec;
  return absl::Status(spec.status().code(),
                      WithClockHint(BadFlag(flag, spec.status().message()), text).message());
}

absl::StatusOr<std::vector<timing::ClockSpec>> ParseClockListFlag(absl::string_view flag,
                                                                  absl::string_view text) {
  absl::StatusOr<std::vector<timing::ClockSpec>> specs = timing::ParseClockSpecList(text);
  if (specs.ok()) return specs;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    if (absl::StatusOr<timing::ClockSpec> one = ParseClockFlag(flag, item); !one.ok()) {
      return one.status();
    }
  }
  return absl::Status(specs.status().code(), BadFlag(flag, specs.status().message()).message());
}

absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& c) {
  absl::StatusOr<timing::ClockSpec> spec;
  if (absl::StrContains(c.clock, ':')) {
    if (Given(c, "clock_id") || Given(c, "tick_period")) {
      return BadFlag("clock",
                     "give the clock either as one spec (tick:20ms) or with "
                     "--clock_id/--tick_period, not both");
    }
    spec = ParseClockFlag("clock", c.clock);
    if (!spec.ok()) return spec.status();
  } else {
    spec = ParseClockFlag("clock", c.clock);
    if (!spec.ok()) return spec.status();
    if (Given(c, "clock_id")) {
      if (spec->kind != timing::ClockKind::kClockGettime) {
        return BadFlag("clock_id", "applies only to --clock=clock_gettime");
      }
      absl::StatusOr<timing::ClockSpec> with_id =
          timing::ParseClockSpec(absl::StrCat("clock_gettime:", c.clock_id));
      if (!with_id.ok()) {
        return WithDidYouMean(BadFlag("clock_id", with_id.status().message()), c.clock_id,
                              ClockIdFlagNames());
      }
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

bool ReadsSimulatedTime(const timing::ClockSpec& spec) {
  return spec.kind == timing::ClockKind::kTick || spec.kind == timing::ClockKind::kVirtual;
}

}  // namespace tickbench::harness
