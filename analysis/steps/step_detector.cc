#include "analysis/steps/step_detector.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "absl/strings/str_format.h"
#include "analysis/steps/line_partition.h"
#include "platform/stop_signal.h"

namespace tickbench::analysis {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The bend (two lines meeting at x = knot) through the points summarized by `left` (up to and
// including the knot) and `right` (after it). Each side's residual sum about any line splits
// exactly as χ²_free + W·(line at x̄ − ȳ)² + Sxx·(slope − slope_free)², so the constrained fit
// is a 3×3 problem in (η = value at the knot, left slope, right slope) on centred sums: O(1)
// per knot and no loss of precision to cancellation.
struct Bend {
  double chi_square = kInfinity;
  int index_after = 0;  // first size past the knot
  double slope_before = 0, slope_after = 0, slope_change_variance = 0;
};

Bend FitBend(const LineAccumulator& left, const LineAccumulator& right, double knot) {
  const double wl = left.weight(), wr = right.weight();
  const double sl = left.sxx(), sr = right.sxx();
  const double dl = left.mean_x() - knot, dr = right.mean_x() - knot;
  const double yl = left.mean_y(), yr = right.mean_y();
  // Normal equations H·θ = g of the three quadratic terms above.
  const double h[3][3] = {{wl + wr, wl * dl, wr * dr},
                          {wl * dl, wl * dl * dl + sl, 0},
                          {wr * dr, 0, wr * dr * dr + sr}};
  const double g[3] = {wl * yl + wr * yr, wl * dl * yl + sl * left.slope(),
                       wr * dr * yr + sr * right.slope()};
  // Inverse by cofactors: H is symmetric positive definite whenever each side has two sizes.
  const double c00 = h[1][1] * h[2][2], c01 = -h[0][1] * h[2][2], c02 = -h[0][2] * h[1][1];
  const double det = h[0][0] * c00 + h[0][1] * c01 + h[0][2] * c02;
  Bend bend;
  if (!(det > 0)) return bend;
  const double inv[3][3] = {
      {c00 / det, c01 / det, c02 / det},
      {c01 / det, (h[0][0] * h[2][2] - h[0][2] * h[0][2]) / det, h[0][1] * h[0][2] / det},
      {c02 / det, h[0][1] * h[0][2] / det, (h[0][0] * h[1][1] - h[0][1] * h[0][1]) / det}};
  double theta[3];
  for (int i = 0; i < 3; ++i) theta[i] = inv[i][0] * g[0] + inv[i][1] * g[1] + inv[i][2] * g[2];
  const double off_left = theta[0] + theta[1] * dl - yl;
  const double off_right = theta[0] + theta[2] * dr - yr;
  bend.chi_square = left.ChiSquare() + right.ChiSquare() + wl * off_left * off_left +
                    sl * (theta[1] - left.slope()) * (theta[1] - left.slope()) +
                    wr * off_right * off_right +
                    sr * (theta[2] - right.slope()) * (theta[2] - right.slope());
  bend.slope_before = theta[1];
  bend.slope_after = theta[2];
  bend.slope_change_variance = inv[1][1] + inv[2][2] - 2 * inv[1][2];
  return bend;
}

// The best continuous bend over points [first, last]: knots at every size with min_points on
// each side counting the knot, and knots between two sizes wherever the free two-line fit cut
// there meets inside the gap (the free fit is then itself a bend). O(last − first).
Bend BestBend(const WeightedPoints& data, int first, int last, int min_points) {
  // left[i]: points first..first+i; right[i]: points first+i..last.
  const int span = last - first + 1;
  std::vector<LineAccumulator> left(span), right(span);
  for (int i = 0; i < span; ++i) {
    if (i > 0) left[i] = left[i - 1];
    left[i].Add(data.x[first + i], data.y[first + i], data.w[first + i]);
  }
  for (int i = span - 1; i >= 0; --i) {
    if (i < span - 1) right[i] = right[i + 1];
    right[i].Add(data.x[first + i], data.y[first + i], data.w[first + i]);
  }
  Bend best;
  for (int knot = min_points - 1; knot <= span - min_points; ++knot) {
    Bend bend = FitBend(left[knot], right[knot + 1], data.x[first + knot]);
    if (!(bend.chi_square < best.chi_square)) continue;
    best = bend;
    best.index_after = first + knot + 1;
  }
  for (int cut = min_points; cut + min_points <= span; ++cut) {
    const LineAccumulator& a = left[cut - 1];
    const LineAccumulator& b = right[cut];
    const double x_before = data.x[first + cut - 1], x_after = data.x[first + cut];
    const double gap_left = b.At(x_before) - a.At(x_before);
    const double gap_right = b.At(x_after) - a.At(x_after);
    const double chi2 = a.ChiSquare() + b.ChiSquare();
    // A knot on a size wins ties: a noiseless bend at a size also "meets in the gap" at
    // its end, and the size itself is the better report.
    if (gap_left * gap_right > 0 || !(chi2 < best.chi_square - 1e-9 * (1 + best.chi_square))) {
      continue;
    }
    best.chi_square = chi2;
    best.index_after = first + cut;
    best.slope_before = a.slope();
    best.slope_after = b.slope();
    best.slope_change_variance = a.SlopeVariance() + b.SlopeVariance();
  }
  return best;
}

// Describes the cut between two neighbouring segments of the chosen segmentation: a jump
// when the free two-line fit beats the best continuous bend over the same points by
// jump_z_threshold² in χ² (a likelihood-ratio test of one parameter, the discontinuity),
// else a slope change at the bend's knot.
Step DescribeCut(const WeightedPoints& data, const Segment& before, const Segment& after,
                 int min_points, double variance_scale, double jump_z_threshold) {
  const LineAccumulator a = FitLine(data, before.first, before.last);
  const LineAccumulator b = FitLine(data, after.first, after.last);
  const Bend bend = BestBend(data, before.first, after.last, min_points);
  const double likelihood_ratio =
      std::max(0.0, (bend.chi_square - a.ChiSquare() - b.ChiSquare()) / variance_scale);
  Step step;
  if (likelihood_ratio >= jump_z_threshold * jump_z_threshold) {
    step.kind = StepKind::kJump;
    step.index_after = after.first;
    step.slope_before = a.slope();
    step.slope_after = b.slope();
    step.slope_change_stderr = std::sqrt(variance_scale * (a.SlopeVariance() + b.SlopeVariance()));
    const double size_before = data.x[before.last];
    const double size_after = data.x[after.first];
    // The smallest discontinuity the two lines allow anywhere between the two sizes (the
    // test above ensures they do not meet in between).
    const double gap_left = b.At(size_before) - a.At(size_before);
    const double gap_right = b.At(size_after) - a.At(size_after);
    const double where = std::fabs(gap_left) <= std::fabs(gap_right) ? size_before : size_after;
    step.jump = where == size_before ? gap_left : gap_right;
    step.jump_stderr = std::sqrt(variance_scale * (a.AtVariance(where) + b.AtVariance(where)));
    step.magnitude = step.jump;
    step.significance = std::sqrt(likelihood_ratio);
  } else {
    step.kind = StepKind::kSlopeChange;
    step.index_after = bend.index_after;
    step.slope_before = bend.slope_before;
    step.slope_after = bend.slope_after;
    step.slope_change_stderr = std::sqrt(variance_scale * bend.slope_change_variance);
    step.magnitude = step.slope_after - step.slope_before;
    step.significance =
        step.slope_change_stderr > 0 ? std::fabs(step.magnitude) / step.slope_change_stderr : 0;
  }
  step.size_before = data.x[step.index_after - 1];
  step.size_after = data.x[step.index_after];
  step.direction = step.magnitude >= 0 ? StepDirection::kUp : StepDirection::kDown;
  return step;
}

// The options and the sweep's size within what DetectSteps takes.
absl::Status CheckInputs(const Sweep& sweep, const StepDetectorOptions& options) {
  if (options.min_segment_points < 2) {
    return absl::InvalidArgumentError("min_segment_points must be at least 2");
  }
  if (options.max_steps < 0 || !(options.penalty_multiplier > 0)) {
    return absl::InvalidArgumentError("max_steps must be >= 0 and penalty_multiplier > 0");
  }
  if (sweep.points.size() > kMaxStepDetectorSizes) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%d sizes: step detection takes at most %d (its time grows with the "
                        "square of the sizes)",
                        sweep.points.size(), kMaxStepDetectorSizes));
  }
  return absl::OkStatus();
}

// Two ways to choose the number of segments m (see the header):
//  * the run spread fixes the scale: χ²(m) + (m−1)·β_ν;
//  * otherwise the scale is the residual variance of the m-segment fit itself, with
//    n − 2m degrees of freedom. Then n·ln χ²(m) + Σ_{l=2..m} β·n/(n − 2l) is minimized:
//    between m−1 and m segments it is exactly the F(2, n − 2m) test with the tail
//    probability β has on the χ²(2) scale, and it does not depend on the unit of χ².
// These are the penalties of each.
struct Penalties {
  int n;              // points
  double bic;         // β
  double known;       // per segment when the run spread fixes the scale
  double chi2_floor;  // χ² below this is round-off
  // Per segment when the fit sets the scale: β·n/(n − 2m).
  double Fit(int segments) const { return bic * n / (n - 2.0 * segments); }
};

// The number of segments, up to `max_segments`, minimizing the criterion: χ²(m) plus the
// known penalties when `scale_known`, else n·ln χ²(m) plus the fit penalties. 0 when not
// even one segment fits.
int SelectSegments(const Partitions& p, int max_segments, bool scale_known,
                   const Penalties& penalties) {
  const int n = penalties.n;
  int best_segments = 0;
  double best_criterion = kInfinity;
  double cumulative_penalty = 0;
  for (int m = 1; m <= max_segments; ++m) {
    const double chi2 = p.chi2[m][n];
    if (!std::isfinite(chi2)) break;
    if (m > 1) cumulative_penalty += scale_known ? penalties.known : penalties.Fit(m);
    const double criterion =
        (scale_known ? chi2 : n * std::log(std::max(chi2, penalties.chi2_floor))) +
        cumulative_penalty;
    if (criterion < best_criterion) {
      best_criterion = criterion;
      best_segments = m;
    }
  }
  return best_segments;
}

// The cuts (sizes where a segment starts) of each segmentation into 2..max_segments.
std::vector<std::vector<double>> Segmentations(const WeightedPoints& data, const Partitions& p,
                                               int max_segments) {
  const int n = static_cast<int>(data.x.size());
  std::vector<std::vector<double>> segmentations;
  for (int m = 2; m <= max_segments; ++m) {
    if (!std::isfinite(p.chi2[m][n])) break;
    std::vector<double> cuts;
    for (int k = m, end = n; k >= 2; --k) {
      const int first = p.start[k][end];
      cuts.push_back(data.x[first]);
      end = first;
    }
    std::reverse(cuts.begin(), cuts.end());
    segmentations.push_back(std::move(cuts));
  }
  return segmentations;
}

// The smallest jump the detector finds at some allowed cut: the power from the weighted
// RSS off the line of a unit jump at each cut, against the penalty of the first cut.
// 0 when there is none.
double SmallestDetectableJump(const WeightedPoints& data, int min_points, double first_cut) {
  const int n = static_cast<int>(data.x.size());
  double weight = 0, mean_x = 0;
  for (int i = 0; i < n; ++i) weight += data.w[i];
  for (int i = 0; i < n; ++i) mean_x += data.w[i] * data.x[i] / weight;
  double sxx = 0;
  for (int i = 0; i < n; ++i) sxx += data.w[i] * (data.x[i] - mean_x) * (data.x[i] - mean_x);
  double tail_w = 0, tail_wx = 0, best_r = 0;
  for (int j = n - 1; j >= min_points; --j) {
    tail_w += data.w[j];
    tail_wx += data.w[j] * (data.x[j] - mean_x);
    if (n - j < min_points) continue;
    const double r = tail_w - tail_w * tail_w / weight - (sxx > 0 ? tail_wx * tail_wx / sxx : 0);
    best_r = std::max(best_r, r);
  }
  if (best_r > 0 && std::isfinite(first_cut)) return std::sqrt(first_cut / best_r);
  return 0;
}

// The chosen `best_segments` segments' lines into `result`, and their χ².
void AddSegments(const WeightedPoints& data, const Partitions& p, int best_segments,
                 StepDetection& result) {
  const int n = static_cast<int>(data.x.size());
  // Fewer sizes than one segment needs: the whole sweep is one segment.
  std::vector<int> starts;
  if (best_segments == 0) starts.push_back(0);
  for (int m = best_segments, end = n; m >= 1; --m) {
    const int first = p.start[m][end];
    starts.push_back(first);
    end = first;
  }
  std::reverse(starts.begin(), starts.end());
  for (size_t s = 0; s < starts.size(); ++s) {
    Segment segment;
    segment.first = starts[s];
    segment.last = s + 1 < starts.size() ? starts[s + 1] - 1 : n - 1;
    const LineAccumulator line = FitLine(data, segment.first, segment.last);
    segment.slope = line.slope();
    segment.intercept = line.At(0);
    result.chi_square += line.ChiSquare();
    result.segments.push_back(segment);
  }
}

// The step at each cut between `result`'s segments, with its ΔBIC against merging the two.
void AddSteps(const WeightedPoints& data, int min_points, double variance_scale,
              double jump_z_threshold, double chi2_floor, StepDetection& result) {
  const int n = static_cast<int>(data.x.size());
  for (size_t s = 0; s + 1 < result.segments.size(); ++s) {
    const Segment& before = result.segments[s];
    const Segment& after = result.segments[s + 1];
    Step step = DescribeCut(data, before, after, min_points, variance_scale, jump_z_threshold);
    const double merged_gain = FitLine(data, before.first, after.last).ChiSquare() -
                               FitLine(data, before.first, before.last).ChiSquare() -
                               FitLine(data, after.first, after.last).ChiSquare();
    if (result.variance_from_runs) {
      step.delta_bic = merged_gain - result.penalty;
    } else {
      const double chi2 = std::max(result.chi_square, chi2_floor);
      step.delta_bic = n * std::log((chi2 + merged_gain) / chi2) - result.penalty;
    }
    result.steps.push_back(step);
  }
}

}  // namespace

const char* StepKindName(StepKind kind) {
  return kind == StepKind::kJump ? "jump" : "slope change";
}

const char* StepDirectionName(StepDirection direction) {
  return direction == StepDirection::kUp ? "up" : "down";
}

absl::StatusOr<StepDetection> DetectSteps(const Sweep& sweep, const StepDetectorOptions& options) {
  if (absl::Status s = CheckInputs(sweep, options); !s.ok()) return s;
  absl::StatusOr<NoiseModel> noise = EstimateNoise(sweep);
  if (!noise.ok()) return noise.status();

  StepDetection result;
  result.noise = *std::move(noise);
  const int n = static_cast<int>(sweep.points.size());
  WeightedPoints data{Sizes(sweep), Means(sweep), {}};
  for (double variance : result.noise.mean_variance) data.w.push_back(1 / variance);

  const int min_points = options.min_segment_points;
  const int max_segments = std::max(1, std::min(options.max_steps + 1, n / min_points));
  const Partitions p = Partition(data, min_points, max_segments);
  TICKBENCH_RETURN_IF_STOPPED("detecting steps");  // p is unfinished
  const double bic_penalty = options.penalty_multiplier * 3 * std::log(static_cast<double>(n));

  // Two ways to choose the number of segments: see Penalties.
  const double nu = result.noise.degrees_of_freedom;
  const double known_penalty = nu > 0 ? nu * std::expm1(bic_penalty / nu) : kInfinity;
  // χ² below 1e-6 per point (in units of the noise model's variance) is round-off in a
  // noiseless sweep; the floor keeps ln χ² finite and such sweeps free of invented cuts.
  const double chi2_floor = 1e-6 * n;
  const Penalties penalties{n, bic_penalty, known_penalty, chi2_floor};
  result.variance_from_runs = result.noise.source == NoiseModel::Source::kRunSpread;
  int best_segments = SelectSegments(p, max_segments, result.variance_from_runs, penalties);
  if (result.variance_from_runs && best_segments > 0) {
    // Lack of fit against pure error: if the means scatter about the chosen segments by
    // more than the run spread allows, the runs understate the noise, and the residuals
    // must set the scale instead.
    const double df = n - 2.0 * best_segments;
    if (ScatterExceedsRunSpread(p.chi2[best_segments][n], df, nu)) {
      result.variance_from_runs = false;
      best_segments = SelectSegments(p, max_segments, false, penalties);
    }
  }

  result.segmentations = Segmentations(data, p, max_segments);
  if (n >= 2 * min_points) {
    const double first_cut = result.noise.source == NoiseModel::Source::kRunSpread
                                 ? known_penalty
                                 : (n - 4.0) * std::expm1(penalties.Fit(2) / n);
    result.smallest_detectable_jump = SmallestDetectableJump(data, min_points, first_cut);
  }
  AddSegments(data, p, best_segments, result);

  // Standard errors: the weights are exact variances when the run spread fixes the scale,
  // relative ones otherwise, scaled by the residual variance of the chosen fit.
  const double fit_df = n - 2.0 * result.segments.size();
  const double variance_scale =
      result.variance_from_runs ? 1
                                : std::max(result.chi_square, chi2_floor) / std::max(fit_df, 1.0);
  result.penalty =
      result.variance_from_runs ? known_penalty : penalties.Fit(std::max(best_segments, 2));
  AddSteps(data, min_points, variance_scale, options.jump_z_threshold, chi2_floor, result);
  // A bend's knot may move into the neighbouring segment; keep the steps in size order.
  std::stable_sort(result.steps.begin(), result.steps.end(),
                   [](const Step& a, const Step& b) { return a.index_after < b.index_after; });
  return result;
}

}  // namespace tickbench::analysis
