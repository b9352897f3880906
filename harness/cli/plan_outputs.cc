#include "harness/cli/plan_outputs.h"

#include <algorithm>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/cli/presets.h"
#include "harness/output/output_file.h"
#include "harness/page/gnuplot.h"
#include "harness/report/readings/run_readings.h"
#include "transport/registry/transport_registry.h"

namespace tickbench::harness {

namespace {

// --report's target, resolved and checked, after --output's and --plot's.
absl::Status ResolveReport(const CommandLine& c, Plan& plan) {
  if (!Given(c, "report") && c.report.empty()) return absl::OkStatus();
  if (c.report.empty()) return BadFlag("report", "takes an HTML file, e.g. report.html");
  if (c.report == "-") {
    return BadFlag("report", "a report page is a file: name an HTML file, e.g. report.html");
  }
  plan.report_path = ResolveUserPath(c.report);
  if (absl::Status s = CheckOutputTarget("report", plan.report_path); !s.ok()) {
    return BadFlag("report", s.message());
  }
  if (SameOutputFile(plan.report_path, plan.output_path) ||
      (!plan.plot_path.empty() &&
       (SameOutputFile(plan.report_path, plan.plot_path) ||
        SameOutputFile(plan.report_path, PlotDataPath(plan.plot_path))))) {
    return BadFlag("report", "names the same file as --output, --plot or the plot's data file");
  }
  return absl::OkStatus();
}

// --percentiles and --raw (a sweep's), --raw's target checked before anything is measured.
absl::Status ResolveTails(const CommandLine& c, Plan& plan) {
  for (const char* flag : {"percentiles", "raw"}) {
    if (plan.study && Given(c, flag)) {
      return BadFlag(flag, "applies to a sweep; --experiment=study reports its own figures");
    }
  }
  absl::StatusOr<std::vector<double>> percentiles = ParsePercentiles(c.percentiles);
  if (!percentiles.ok()) return BadFlag("percentiles", percentiles.status().message());
  plan.percentiles = *std::move(percentiles);
  if (Given(c, "raw") && (c.raw.empty() || c.raw == "-")) {
    return BadFlag("raw", "takes a file (not standard output), e.g. --raw=readings.csv");
  }
  if (c.raw.empty()) return absl::OkStatus();
  plan.raw_path = ResolveUserPath(c.raw);
  if (absl::Status s = CheckOutputTarget("raw", plan.raw_path); !s.ok()) {
    return BadFlag("raw", s.message());
  }
  for (const std::string& other : {plan.output_path, plan.plot_path, plan.report_path}) {
    if (SameOutputFile(plan.raw_path, other)) {
      return BadFlag("raw", "names the same file as --output, --plot or --report");
    }
  }
  if (!plan.plot_path.empty() && SameOutputFile(plan.raw_path, PlotDataPath(plan.plot_path))) {
    return BadFlag("raw", "names the same file as the plot's data file");
  }
  return absl::OkStatus();
}

// The matrix writes its table, CSV or JSON (--output) and its page (--report): a sweep's
// other outputs, and the table's wide form, do nothing there.
absl::Status CheckMatrixOutputs(const CommandLine& c, const Plan& plan) {
  if (plan.preset.name != kMatrixExperiment) return absl::OkStatus();
  for (const char* flag : {"plot", "raw", "percentiles", "wide"}) {
    if (Given(c, flag)) {
      return BadFlag(flag,
                     "does nothing with --experiment=matrix, which writes its table, CSV or "
                     "JSON (--format, --output) and its page (--report); it applies to a sweep");
    }
  }
  return absl::OkStatus();
}

// Whether any clock the plan reads (the measured one, the reference, the study's) is of
// `kind`.
bool ReadsClockOfKind(const Plan& plan, timing::ClockKind kind) {
  if (plan.clock.kind == kind || plan.reference.kind == kind) return true;
  return plan.study && std::any_of(plan.study_clocks.begin(), plan.study_clocks.end(),
                                   [kind](const timing::ClockSpec& s) { return s.kind == kind; });
}

// Flags that a measurement accepts but that do nothing in this one (the mode-level check
// is ChooseMode's): refused, saying where they apply. Needs the whole plan: the format,
// the transport and the clocks.
absl::Status CheckFlagsThatDoNothing(const CommandLine& c, const Plan& plan) {
  if (Given(c, "csv_context") && plan.format != OutputFormat::kCsv) {
    return BadFlag("csv_context", absl::StrCat("does nothing with --format=", c.format,
                                               "; it applies to --format=csv"));
  }
  // --output=FILE keeps the table on the console whatever the file's format.
  const bool console_table =
      plan.format == OutputFormat::kTable || (!c.output.empty() && c.output != "-");
  if (Given(c, "wide") && !console_table) {
    return BadFlag("wide", absl::StrCat("does nothing with --format=", c.format,
                                        " on standard output; it applies to the table (--format="
                                        "table, or the console beside --output=FILE)"));
  }
  if (Given(c, "percentiles") && plan.format == OutputFormat::kTable) {
    return BadFlag("percentiles",
                   "does nothing with --format=table (its columns are fixed: p50, p99); it "
                   "applies to --format=csv or json");
  }
  if (Given(c, "stop_on_loss") && !plan.simulate) {
    absl::StatusOr<const transport::TransportInfo*> row = transport::FindTransport(plan.transport);
    if (row.ok() && !(*row)->may_lose) {
      const std::string datagrams = transport::TransportNamesWhere(
          [](const transport::TransportInfo& r) { return r.may_lose; }, " or ");
      return BadFlag("stop_on_loss",
                     absl::StrCat("does nothing with --transport=", plan.transport,
                                  ", a byte stream, where a missing echo always ends the run; "
                                  "it applies to a datagram transport: ",
                                  datagrams));
    }
  }
  if (Given(c, "allow_variable_cycle_counter") &&
      !ReadsClockOfKind(plan, timing::ClockKind::kCycleCounter)) {
    return BadFlag("allow_variable_cycle_counter",
                   "does nothing: no clock of this measurement is the cycle counter; it applies "
                   "when --clock, --reference_clock or --clocks names it, or to --clock_info");
  }
  // --seed draws tick phases, the simulation's jitter and the study's gaps.
  if (Given(c, "seed") && !plan.simulate && !plan.study &&
      !ReadsClockOfKind(plan, timing::ClockKind::kTick)) {
    return BadFlag("seed",
                   "does nothing here: it seeds tick clocks' phases, --transport=sim and "
                   "--experiment=study, and this sweep has none of them");
  }
  return absl::OkStatus();
}

}  // namespace

// --format, --output, --plot and --report, the targets checked before anything is measured.
absl::Status ResolveOutputs(const CommandLine& c, Plan& plan) {
  absl::StatusOr<OutputFormat> format = ParseOutputFormat(c.format);
  if (!format.ok()) return format.status();
  plan.format = *format;
  if (Given(c, "output") && c.output.empty()) {
    return BadFlag("output", "takes a file, or - for standard output");
  }
  if (!c.output.empty() && c.output != "-") {
    plan.output_path = ResolveUserPath(c.output);
    if (absl::Status s = CheckOutputTarget("output", plan.output_path); !s.ok()) {
      return BadFlag("output", s.message());
    }
  }
  if (Given(c, "plot") || !c.plot.empty()) {
    absl::StatusOr<std::string> plot = CheckPlotTarget(c.plot);
    if (!plot.ok()) return plot.status();
    plan.plot_path = *plot;
    // Compared as files, not strings: --output=./same.dat --plot=same.svg is one file.
    if (SameOutputFile(plan.output_path, plan.plot_path) ||
        SameOutputFile(plan.output_path, PlotDataPath(plan.plot_path))) {
      return BadFlag("output", "names the same file as --plot or its data file");
    }
  }
  if (absl::Status s = ResolveReport(c, plan); !s.ok()) return s;
  if (absl::Status s = ResolveTails(c, plan); !s.ok()) return s;
  if (absl::Status s = CheckMatrixOutputs(c, plan); !s.ok()) return s;
  // The last step of MakePlan: the flags that do nothing in this plan can now be told.
  return CheckFlagsThatDoNothing(c, plan);
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

}  // namespace tickbench::harness
