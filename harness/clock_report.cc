#include "harness/clock_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {
namespace {

std::string FormatNanos(absl::Duration duration) {
  if (duration == absl::ZeroDuration()) return "-";
  const double ns = absl::ToDoubleNanoseconds(duration);
  if (ns < 1e3) return absl::StrFormat("%.3g ns", ns);
  if (ns < 1e6) return absl::StrFormat("%.4g us", ns / 1e3);
  return absl::StrFormat("%.4g ms", ns / 1e6);
}

}  // namespace

std::string FormatClockList(const std::vector<timing::ClockSpec>& specs,
                            const timing::ClockEnvironment& environment) {
  std::string text = "Clocks on this machine (--clock=SPEC):\n";
  for (const timing::ClockSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> clock = timing::MakeClock(spec, environment);
    absl::StrAppendFormat(&text, "  %-32s %s\n", timing::ClockSpecToString(spec),
                          clock.ok() ? (*clock)->info().name
                                     : absl::StrCat("unavailable: ", clock.status().message()));
  }
  absl::StrAppend(&text,
                  "tick takes any period (tick:10ms = 100 Hz, tick:20ms = 50 Hz) and ':uniqtime' "
                  "for SunOS-style unique readings.\n");
  return text;
}

std::string FormatClockInfo(const std::vector<ClockDescription>& clocks) {
  std::string text = absl::StrFormat("%-32s %12s %12s %12s %9s  %s\n", "clock", "claimed res",
                                     "observed res", "read cost", "backward", "notes");
  for (const ClockDescription& clock : clocks) {
    absl::StrAppendFormat(&text, "%-32s %12s %12s %9.1f ns %9d  %s\n", clock.info.spec,
                          FormatNanos(clock.info.claimed_resolution),
                          FormatNanos(clock.probe.observed_resolution), clock.probe.read_cost_ns,
                          clock.probe.backward_steps, clock.info.notes);
  }
  absl::StrAppend(&text,
                  "claimed: clock_getres(), 1/frequency or the tick period; observed: the smallest "
                  "non-zero step between successive reads; read cost: median over batches of 1000 "
                  "reads; backward: reads below the one before.\n");
  return text;
}

}  // namespace tickbench::harness
