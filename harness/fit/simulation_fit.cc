#include "harness/fit/simulation_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "analysis/fits/cross_validation.h"
#include "analysis/models/buffer_models.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// The layout the simulation replays that fits best by BIC; one that contains another must
// beat it by ΔBIC 6, as in the ranking. Null when none fitted.
const analysis::FamilyFit* BestReplayableFit(const analysis::ModelComparison& fits) {
  using analysis::ModelFamily;
  const ModelFamily replayable[] = {ModelFamily::kLinear, ModelFamily::kBsdSocket,
                                    ModelFamily::kIpv4Fragments, ModelFamily::kBsdFragments};
  const analysis::FamilyFit* best = nullptr;
  for (ModelFamily family : replayable) {
    const analysis::FamilyFit& f = fits.families[static_cast<int>(family)];
    if (f.fitted && (best == nullptr || f.bic < best->bic)) best = &f;
  }
  if (best == nullptr) return nullptr;
  for (bool changed = true; changed;) {
    changed = false;
    for (ModelFamily family : replayable) {
      const analysis::FamilyFit& f = fits.families[static_cast<int>(family)];
      if (!f.fitted || &f == best || !analysis::FamilyContains(best->model.family, family))
        continue;
      if (f.bic - best->bic < 6) {
        best = &f;
        changed = true;
        break;
      }
    }
  }
  return best;
}

// `d` as a flag's text ("1500000.25ns"), and `d` set to what that text parses back to, so
// that the replayed model is the printed one.
std::string FlagNanos(absl::Duration& d) {
  // %.2f: the durations are whole quarter nanoseconds, exact in two decimals.
  const std::string text = absl::StrFormat("%.2fns", absl::ToDoubleNanoseconds(d));
  absl::Duration back;
  if (absl::ParseDuration(text, &back)) d = back;
  return text;
}

// The flags that replay `m`, with every value of `m` set to what its printed text parses
// back to (SetReplayResiduals then measures the printed model, not an unrounded one).
std::string SimFlags(transport::SimRttModel& m, const std::string& per_byte) {
  if (double back = 0; absl::SimpleAtod(per_byte, &back)) m.per_byte_ns = back;
  std::string flags = absl::StrFormat("--transport=sim --sim_fixed=%s --sim_per_byte_ns=%s",
                                      FlagNanos(m.fixed), per_byte);
  if (m.bsd_buffers) {
    absl::StrAppendFormat(&flags,
                          " --sim_bsd --sim_cluster=%d --sim_threshold=%d --sim_small=%d "
                          "--sim_per_cluster=%s --sim_per_small=%s",
                          m.cluster_bytes, m.threshold_bytes, m.small_bytes,
                          FlagNanos(m.per_cluster), FlagNanos(m.per_small));
  }
  if (m.mtu_bytes > 0) {
    absl::StrAppendFormat(&flags, " --sim_mtu=%d --sim_per_packet=%s", m.mtu_bytes,
                          FlagNanos(m.per_packet));
  }
  return flags;
}

// `x` ≥ 0 rounded up to 4 significant digits: a bound that stays a bound when printed.
double RoundUp4(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 3);
  return std::ceil(x / scale - 1e-9) * scale;
}

// How far `out.model` replayed is from the sweep's means: the largest and the RMS residual.
void SetReplayResiduals(const analysis::Sweep& rtt_sweep, SimulationFit& out) {
  double sum = 0;
  for (const analysis::SweepPoint& point : rtt_sweep.points) {
    const double replay = static_cast<double>(
        transport::ModelRttNanos(out.model, static_cast<int64_t>(std::llround(point.size_bytes))));
    const double residual = replay - analysis::PointMean(point);
    sum += residual * residual;
    out.max_residual = std::max(out.max_residual, std::fabs(residual));
  }
  out.rms_residual = std::sqrt(sum / static_cast<double>(rtt_sweep.points.size()));
}

// The per-byte cost's text: the fewest significant digits (6 at least) whose parsed-back
// value replays the sweep with residuals no larger than the exact value's (the replay is in
// whole ns, so 250.00000000000074 and 250 replay alike), else the exact round trip.
std::string PerByteText(const analysis::Sweep& rtt_sweep, const SimulationFit& exact) {
  for (int digits = 6; digits < 17; ++digits) {
    const std::string text = absl::StrFormat("%.*g", digits, exact.model.per_byte_ns);
    SimulationFit trial;
    trial.model = exact.model;
    if (!absl::SimpleAtod(text, &trial.model.per_byte_ns)) continue;
    SetReplayResiduals(rtt_sweep, trial);
    if (trial.max_residual <= exact.max_residual && trial.rms_residual <= exact.rms_residual) {
      return text;
    }
  }
  return timing::FormatExact(exact.model.per_byte_ns);
}

// A note when the ranking's winner is not the replayed layout (a segmentation, an
// excursion, fixed chunks): what is replayed instead, and why.
void AddWinnerNote(const analysis::ModelComparison& fits, const analysis::FamilyFit& replayed,
                   SimulationFit& out) {
  if (!fits.beats_line || &fits.best_fit() == &replayed) return;
  out.notes.push_back(absl::StrFormat(
      "the ranking's winner, %s, is not a layout the simulation replays (it replays the "
      "line, BSD socket buffers, IPv4 fragments and both): the best of those, %s, is "
      "replayed instead, and misses what the winner explains by the residual above",
      analysis::DescribeModel(fits.best_fit().model), out.layout));
}

// The replayed family refitted without each size, predicting it.
std::string OutOfSample(const analysis::Sweep& sweep, analysis::ModelFamily family,
                        const analysis::ModelFitOptions& options) {
  const absl::StatusOr<analysis::CrossValidation> cv =
      analysis::CrossValidate(sweep, family, options);
  return cv.ok() ? analysis::FormatCrossValidation(*cv)
                 : absl::StrCat("not checked: ", cv.status().message());
}

}  // namespace

absl::StatusOr<SimulationFit> FitSimulation(const analysis::Sweep& rtt_sweep,
                                            const analysis::ModelComparison& fits,
                                            const analysis::ModelFitOptions* options) {
  if (rtt_sweep.unit != "ns") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the simulation is fitted to round-trip times in ns, not %s",
        rtt_sweep.unit.empty() ? "values without a unit" : absl::CHexEscape(rtt_sweep.unit)));
  }
  using analysis::ModelFamily;
  const analysis::FamilyFit* best = BestReplayableFit(fits);
  if (best == nullptr) return absl::InvalidArgumentError("no layout the simulation replays fits");
  SimulationFit out;
  out.layout = analysis::DescribeModel(best->model);
  AddWinnerNote(fits, *best, out);
  transport::SimRttModel& m = out.model;
  m.per_packet = absl::ZeroDuration();
  auto cost = [&](const char* name) {
    for (size_t i = 0; i < best->cost_names.size(); ++i) {
      if (best->cost_names[i] == name) return best->costs[i];
    }
    return 0.0;
  };
  auto non_negative = [&](const char* what, double value) {
    if (value >= 0) return value;
    out.notes.push_back(
        absl::StrFormat("the fitted %s cost %.4g is negative: 0 replayed", what, value));
    return 0.0;
  };
  // Durations to a quarter nanosecond, absl::Duration's resolution.
  auto nanos = [](double ns) { return absl::Nanoseconds(std::round(ns * 4) / 4); };
  m.fixed = nanos(non_negative("fixed", cost("fixed")));
  m.per_byte_ns = non_negative("per-byte", cost("per_byte"));
  m.bsd_buffers = best->model.family == ModelFamily::kBsdSocket ||
                  best->model.family == ModelFamily::kBsdFragments;
  if (m.bsd_buffers) {
    m.cluster_bytes = best->model.cluster_bytes;
    m.threshold_bytes = best->model.threshold_bytes;
    m.small_bytes = best->model.small_bytes;
    // The simulation lays a message out twice per round trip (send and echo).
    m.per_cluster = nanos(cost("per_cluster") / 2);
    m.per_small = nanos(cost("per_small_buffer") / 2);
  }
  if (best->model.family == ModelFamily::kIpv4Fragments ||
      best->model.family == ModelFamily::kBsdFragments) {
    m.mtu_bytes = best->model.mtu_bytes;
    m.per_packet = nanos(cost("per_packet") / 2);  // each direction
  }
  if (absl::Status valid = transport::ValidateSimRttModel(m); !valid.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the fitted simulation is out of its ranges: ", valid.message()));
  }
  SimulationFit exact = out;
  SetReplayResiduals(rtt_sweep, exact);
  out.flags = SimFlags(m, PerByteText(rtt_sweep, exact));
  SetReplayResiduals(rtt_sweep, out);  // of the model the flags parse back to
  if (options != nullptr) out.out_of_sample = OutOfSample(rtt_sweep, best->model.family, *options);
  return out;
}

std::string FormatSimulationFit(const SimulationFit& fit) {
  std::string text = absl::StrFormat(
      "\nSimulation fitted to the curve (%s): replayed without jitter it differs from the "
      "means by %.4g ns RMS, %.4g ns at most\n",
      fit.layout, fit.rms_residual, RoundUp4(fit.max_residual));
  if (!fit.out_of_sample.empty()) {
    absl::StrAppend(&text, "  out of sample: ", fit.out_of_sample, "\n");
  }
  for (const std::string& note : fit.notes) absl::StrAppend(&text, "  note: ", note, "\n");
  absl::StrAppend(&text, "sim flags: ", fit.flags, "\n");
  return text;
}

}  // namespace tickbench::harness
