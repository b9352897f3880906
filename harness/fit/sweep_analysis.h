// After a sweep (or on a CSV file): where the curve steps, which system sizes may explain
// each step, and, with --explain, which buffer layout explains the whole curve.
//
// Steps and layouts agree: the layouts (analysis/fits/model_fit.h) are fitted on every sweep of
// at least 7 sizes, ranked with the step detector's segmentations and the excursions (one
// or two sizes off the line) under one criterion. The detector's steps are listed as found
// only when its segmentation beats the straight line by the verdict's margin (ΔBIC 6) in
// that criterion, else as not established; when the winner beats the line, the steps it
// implies (ImpliedSteps: its fitted curve jumps by at least 3 standard errors between two
// neighbouring sizes) are listed with them, and a winning excursion as one (a one-size dip
// the detector's segments of 3 sizes cannot isolate). The detector's power on these sizes
// is stated: the smallest lone jump it can tell from the noise, and where nothing can be
// found (steps among the first or last 3 sizes, excursions at the ends).
#ifndef HARNESS_FIT_SWEEP_ANALYSIS_H_
#define HARNESS_FIT_SWEEP_ANALYSIS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/fits/cross_validation.h"
#include "analysis/fits/model_fit.h"
#include "analysis/steps/step_detector.h"
#include "analysis/steps/system_facts.h"
#include "analysis/sweep.h"
#include "harness/engine/run_record.h"
#include "harness/fit/simulation_fit.h"  // FitSimulation, for the callers of the analysis
#include "transport/sim/sim_rtt_model.h"
#include "transport/transport.h"

namespace tickbench::harness {

// "per_byte 0.139 ± 0.081": cost i of a fitted family with the half-width of its 95%
// interval, t_{0.975, cost_degrees_of_freedom} x its standard error, both rounded to two
// significant digits of the half-width (timing::FormatWithHalfWidth); the bare cost (%.4g)
// where the half-width is 0 (a cost fixed at 0) or not finite.
std::string FormatFittedCost(const analysis::FamilyFit& family, size_t i);

// The averaged RTT (ns) of every run, by size: what the step detector reads. Each point's
// quantum is the largest quantum_ns of its runs (0 when none states one), the floor the
// noise model puts under a run's variance, as for a CSV read back.
analysis::Sweep RttSweepFromRecords(const std::vector<RunRecord>& records);

// The address whose path MTU matters to a sweep over the transport named
// `transport_name`, asked of its registry row (transport/registry/transport_registry.h), not its
// name: `remote_host` for a sweep against a server on another host (non-empty), else
// the loopback of the transport's IP version ("127.0.0.1" or "::1"); "" for a transport
// that never touches an IP interface (AF_UNIX, pipes, the simulation) or a name the
// registry lacks.
std::string MtuPeerAddress(absl::string_view transport_name, absl::string_view remote_host);

// The sizes a step may sit at on this host: the page size, the socket buffers as set
// (and for an AF_UNIX stream transport its largest skb, SO_SNDBUF/2 - 64), the path MTU
// to `peer_address` and its largest unfragmented UDP payload (MTU - 28 for IPv4, - 48 for
// IPv6), net.core.wmem_default and rmem_default, net.unix.max_dgram_qlen.
analysis::SizeFacts CollectSizeFacts(
    const std::string& transport_name,
    const std::optional<transport::Endpoint::BufferSizes>& socket_buffers,
    const std::string& peer_address);

struct SweepAnalysis {
  absl::StatusOr<analysis::StepDetection> steps;
  std::vector<std::vector<std::string>> causes;  // per step: candidate facts
  // Whether the detector's steps are found under the explanation's criterion too: its
  // segmentation beats the straight line by the verdict's margin (ΔBIC 6) in the ranking
  // below. True when there is no ranking (< 7 sizes: the detector's test alone) or no step.
  // Steps not established are listed as below the margin, never as found.
  bool steps_established = true;
  double steps_delta_bic = 0;  // BIC(line) − BIC(the detector's segmentation), when ranked
  // The ranking of layouts and segmentations (NotFound-free: an error for < 7 sizes).
  absl::StatusOr<analysis::ModelComparison> fits = absl::UnknownError("not fitted");
  // The winner's steps (when it beats the line) at sizes the detector did not report, with
  // their candidate facts.
  std::vector<analysis::ImpliedStep> implied_steps;
  std::vector<std::vector<std::string>> implied_causes;
  bool explained = false;
  absl::StatusOr<std::string> explanation = std::string();  // --explain's report
  // The options the ranking was fitted with (the detector's segmentations, the extra
  // sizes), for refits of the same ranking without some sizes.
  analysis::ModelFitOptions fit_options;
  // --explain: the winner's out-of-sample check (analysis/fits/cross_validation.h); an error
  // for fewer than 8 sizes. The winner is called the explanation only when it beats the
  // line by the verdict's margin and predicts left-out sizes better than both the line and
  // the neighbours' interpolation (`explanation_holds`).
  absl::StatusOr<analysis::CrossValidation> cross_validation =
      absl::UnknownError("not cross-validated");
  bool explanation_holds = false;
};

SweepAnalysis AnalyzeSweep(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                           bool explain);

// The analysis as text, after a sweep's table. Empty `facts` are reported as a file's
// sizes that are not compared with this machine's.
std::string FormatSweepAnalysis(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                                const SweepAnalysis& result);

}  // namespace tickbench::harness

#endif  // HARNESS_FIT_SWEEP_ANALYSIS_H_
