// The last steps of MakePlan (make_plan.cc): what a plan would take (memory for its
// results and, in simulation, virtual time) and where its results go (--format, --output,
// --plot, --report), the targets checked before anything is measured.
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/cli_options.h"
#include "harness/output_file.h"
#include "harness/plan_checks.h"
#include "harness/plot.h"
#include "harness/run_readings.h"

namespace tickbench::harness {

// Bounds on what the plan would take: memory for its results, and in simulation the
// virtual time its nanosecond clock must hold.
absl::Status CheckPlanBounds(const Plan& plan) {
  const double bytes = EstimatePlanBytes(plan);
  if (bytes > kMaxPlanBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--sizes, --runs, --iterations: the results would take up to %s of memory (%d sizes x %d "
        "runs x %d round trips%s), more than the %s allowed; measure fewer sizes, runs or round "
        "trips%s",
        FormatBytes(bytes), plan.sweep.sizes.size(), plan.sweep.runs, plan.sweep.engine.iterations,
        plan.study ? absl::StrFormat(" x %d clocks", plan.study_clocks.size())
                   : absl::StrFormat(", %d retries", plan.sweep.retries),
        FormatBytes(kMaxPlanBytes), plan.study ? "" : " (or raise --batch)"));
  }
  if (plan.simulate) {
    const double nanos = WorstSimulatedNanos(plan);
    if (!(nanos <= kMaxSimulatedNanos)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--transport=sim: the run could span up to %.3g years of virtual time, more than the "
          "%.0f years its nanosecond clock holds; lower --iterations, --runs, --sizes or the "
          "simulated costs (--sim_fixed, --sim_per_byte_ns, --peer_reply_delay, --receive_timeout)",
          nanos / 3.15576e16, kMaxSimulatedNanos / 3.15576e16));
    }
  }
  return absl::OkStatus();
}

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
  if (plan.report_path == plan.output_path ||
      (!plan.plot_path.empty() &&
       (plan.report_path == plan.plot_path || plan.report_path == PlotDataPath(plan.plot_path)))) {
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
    if (!other.empty() && plan.raw_path == other) {
      return BadFlag("raw", "names the same file as --output, --plot or --report");
    }
  }
  if (!plan.plot_path.empty() && plan.raw_path == PlotDataPath(plan.plot_path)) {
    return BadFlag("raw", "names the same file as the plot's data file");
  }
  return absl::OkStatus();
}

}  // namespace

// --format, --output, --plot and --report, the targets checked before anything is measured.
absl::Status ResolveOutputs(const CommandLine& c, Plan& plan) {
  if (c.format == "table") {
    plan.format = OutputFormat::kTable;
  } else if (c.format == "csv") {
    plan.format = OutputFormat::kCsv;
  } else if (c.format == "json") {
    plan.format = OutputFormat::kJson;
  } else {
    return BadFlag(
        "format", absl::StrCat("unknown format ", Quoted(c.format), "; allowed: table, csv, json"));
  }
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
    if (!plan.output_path.empty() &&
        (plan.output_path == plan.plot_path || plan.output_path == PlotDataPath(plan.plot_path))) {
      return BadFlag("output", "names the same file as --plot or its data file");
    }
  }
  if (absl::Status s = ResolveReport(c, plan); !s.ok()) return s;
  return ResolveTails(c, plan);
}

}  // namespace tickbench::harness
