// --fit_sim: the simulated transport's costs (transport/sim/sim_rtt_model.h) fitted to an RTT
// sweep, from the buffer layouts the analysis fitted (analysis/fits/model_fit.h), and the flags
// that replay them.
//
// Promised: only layouts the simulation can replay are used, with a note naming the
// ranking's winner when it is another (a segmentation, an excursion, fixed chunks); a fitted
// negative cost is replayed as 0 with a note; the model is within the simulation's ranges,
// or an error. The flags print every value so that it parses back exactly, and the stated
// residuals are those of the model the flags give (the largest rounded up to 4 digits).
// Not promised: that the replay reproduces the sweep's noise (jitter is not fitted).
#ifndef HARNESS_FIT_SIMULATION_FIT_H_
#define HARNESS_FIT_SIMULATION_FIT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/fits/model_fit.h"
#include "analysis/sweep.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench::harness {

// --fit_sim: the simulated transport's costs fitted to an RTT sweep (ns), among the layouts
// the simulation can replay (the line, BSD socket buffers, IPv4 fragments, both), the best
// by the ranking's criterion, and the flags that replay it.
struct SimulationFit {
  transport::SimRttModel model;  // the fitted costs, each as the simulation charges it
  std::string flags;             // "--transport=sim --sim_fixed=... ..."
  std::string layout;            // DescribeModel of the layout used
  // The replay (ModelRttNanos of `model`, jitter off; `model` is what `flags` parse back
  // to) against the sweep's means: RMS and largest absolute difference, value units (ns).
  double rms_residual = 0;
  double max_residual = 0;
  std::vector<std::string> notes;  // e.g. a negative fitted cost clamped at 0
  // The replayed layout's family refitted without each size in turn, predicting it
  // (analysis/fits/cross_validation.h), when the caller gave the ranking's options; "" otherwise.
  std::string out_of_sample;
};

// InvalidArgument when the sweep is not in ns or the fits failed. With `options` (those
// `fits` was fitted with), the replayed family is cross-validated too (out_of_sample).
absl::StatusOr<SimulationFit> FitSimulation(const analysis::Sweep& rtt_sweep,
                                            const analysis::ModelComparison& fits,
                                            const analysis::ModelFitOptions* options = nullptr);

// The fit as text: the layout, the residuals, and the line "sim flags: ...".
std::string FormatSimulationFit(const SimulationFit& fit);

}  // namespace tickbench::harness

#endif  // HARNESS_FIT_SIMULATION_FIT_H_
