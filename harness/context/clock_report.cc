#include "harness/context/clock_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/json/json_writer.h"

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

std::string FormatClockListJson(const std::vector<timing::ClockSpec>& specs,
                                const timing::ClockEnvironment& environment) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "list_clocks");
  json.Key("clocks");
  json.BeginArray();
  for (const timing::ClockSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> clock = timing::MakeClock(spec, environment);
    json.BeginObject();
    json.StringField("spec", timing::ClockSpecToString(spec));
    json.BoolField("available", clock.ok());
    json.StringField("name", clock.ok() ? (*clock)->info().name : "");
    json.StringField("unavailable_reason", clock.ok() ? "" : clock.status().message());
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

std::string FormatClockInfoJson(const std::vector<ClockDescription>& clocks) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "clock_info");
  json.Key("clocks");
  json.BeginArray();
  for (const ClockDescription& clock : clocks) WriteClockJson(json, clock);
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

absl::StatusOr<OutputFormat> ParseModeFormat(absl::string_view mode_flag,
                                             absl::string_view format) {
  return ParseOutputFormat(format, {OutputFormat::kTable, OutputFormat::kJson}, mode_flag);
}

}  // namespace tickbench::harness
