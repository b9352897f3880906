#include "timing/clocks/os_clocks.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tickbench::timing {
namespace {

absl::Duration GetRes(clockid_t id) {
  timespec resolution{};
  if (clock_getres(id, &resolution) != 0) return absl::ZeroDuration();
  return absl::DurationFromTimespec(resolution);
}

ClockInfo GettimeofdayInfo() {
  ClockInfo info;
  info.spec = "gettimeofday";
  info.name = "gettimeofday()";
  info.ticks_per_second = 1e6;
  // gettimeofday has no getres of its own: it is CLOCK_REALTIME truncated to 1 us.
  info.claimed_resolution = std::max(absl::Microseconds(1), GetRes(CLOCK_REALTIME));
  info.monotonic = false;
  info.notes = "wall time (CLOCK_REALTIME) in microseconds; can step with NTP or settimeofday";
  return info;
}

ClockInfo ClockGettimeInfo(const ClockIdName& id) {
  ClockInfo info;
  info.spec = absl::StrCat("clock_gettime:", id.flag_name);
  info.name = absl::StrCat("clock_gettime(", id.id_name, ")");
  info.ticks_per_second = 1e9;
  info.claimed_resolution = GetRes(id.id);
  info.monotonic = id.monotonic;
  return info;
}

}  // namespace

const std::vector<ClockIdName>& ClockIdNames() {
  static const auto* const kNames = new std::vector<ClockIdName>{
      {"monotonic", CLOCK_MONOTONIC, "CLOCK_MONOTONIC", true,
       "time since boot, NTP-slewed, never steps; stops in suspend"},
      {"monotonic_raw", CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW", true,
       "the hardware rate, not slewed by NTP"},
      {"realtime", CLOCK_REALTIME, "CLOCK_REALTIME", false,
       "wall time; can step with NTP or settimeofday"},
      {"boottime", CLOCK_BOOTTIME, "CLOCK_BOOTTIME", true, "monotonic, counting suspend too"},
      {"monotonic_coarse", CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE", true,
       "monotonic at the last kernel tick (1/HZ)"},
      {"realtime_coarse", CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE", false,
       "wall time at the last kernel tick (1/HZ)"},
      {"tai", CLOCK_TAI, "CLOCK_TAI", false,
       "International Atomic Time: wall time plus the leap seconds the kernel was told"},
  };
  return *kNames;
}

absl::StatusOr<ClockIdName> ParseClockId(absl::string_view flag_name) {
  std::vector<std::string> allowed;
  for (const ClockIdName& id : ClockIdNames()) {
    if (flag_name == id.flag_name) return id;
    allowed.push_back(id.flag_name);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown clock id '", absl::CHexEscape(flag_name),
                                                 "'; allowed: ", absl::StrJoin(allowed, ", ")));
}

GettimeofdayClock::GettimeofdayClock() : Clock(GettimeofdayInfo()) {}

ClockGettimeClock::ClockGettimeClock(const ClockIdName& id)
    : Clock(ClockGettimeInfo(id)), id_(id.id) {}

}  // namespace tickbench::timing
