// Over 400 lines because it holds every interval method the reports use, over the t, beta,
// chi-square and binomial distributions they share.
#include "timing/stats/confidence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "timing/stats/statistics.h"

namespace tickbench::timing {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

// Continued fraction of the incomplete beta (Numerical Recipes' betacf, modified Lentz).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-15) break;
  }
  return h;
}

double StudentTDensity(double t, double df) {
  const double log_norm =
      std::lgamma((df + 1) / 2) - std::lgamma(df / 2) - 0.5 * std::log(df * kPi);
  return std::exp(log_norm - (df + 1) / 2 * std::log1p(t * t / df));
}

// P(B <= k) for B ~ Binomial(n, q).
double BinomialCdf(int64_t k, int64_t n, double q) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  return RegularizedIncompleteBeta(static_cast<double>(n - k), static_cast<double>(k + 1), 1 - q);
}

ConfidenceInterval Invalid() { return ConfidenceInterval(); }

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry
  // I_x(a, b) = 1 - I_{1-x}(b, a) otherwise.
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double NormalQuantile(double p) {
  if (!(p >= 0) || !(p <= 1)) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  // Acklam's rational approximation (relative error 1.15e-9), then one Halley step on
  // erfc, which brings it to machine precision.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  double x;
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - kLow) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * kPi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

double StudentTCdf(double t, double df) {
  if (!(df > 0) || std::isnan(t)) return kNaN;
  if (std::isinf(df)) return 0.5 * std::erfc(-t / std::sqrt(2.0));
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double tail = 0.5 * RegularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double StudentTQuantile(double p, double df) {
  if (!(p > 0) || !(p < 1) || !(df > 0)) return kNaN;
  if (std::isinf(df) || df > 1e8) return NormalQuantile(p);
  if (p == 0.5) return 0;
  // Closed forms for 1 and 2 degrees of freedom.
  if (df == 1) return std::tan(kPi * (p - 0.5));
  if (df == 2) return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
  // Solve in the upper half (symmetry), starting from the Cornish-Fisher expansion, by
  // Newton's method kept inside a bracket that bisection narrows whenever Newton leaves it.
  const bool lower = p < 0.5;
  const double upper_p = lower ? 1 - p : p;
  const double z = NormalQuantile(upper_p);
  const double z2 = z * z;
  double x = z + (z2 * z + z) / (4 * df) + (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / (96 * df * df);
  double low = 0, high = std::max(2 * x, 1.0);
  while (StudentTCdf(high, df) < upper_p) high *= 2;
  for (int i = 0; i < 200; ++i) {
    const double cdf = StudentTCdf(x, df);
    const double error = cdf - upper_p;
    if (error > 0)
      high = x;
    else
      low = x;
    const double step = error / StudentTDensity(x, df);
    double next = x - step;
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (std::abs(next - x) <= 1e-13 * std::max(1.0, std::abs(x))) {
      x = next;
      break;
    }
    x = next;
  }
  return lower ? -x : x;
}

ConfidenceInterval TInterval(double mean, double sd, int64_t count, double sd_floor,
                             double confidence) {
  ConfidenceInterval ci;
  ci.estimate = mean;
  if (count <= 0 || !std::isfinite(mean) || !(confidence > 0 && confidence < 1)) return Invalid();
  const double used_sd = std::max(std::isfinite(sd) ? sd : 0.0, sd_floor);
  ci.floored = sd_floor > 0 && sd_floor >= sd;
  if (count == 1) {
    if (!(sd_floor > 0)) return Invalid();
    ci.degrees_of_freedom = kInf;
  } else {
    ci.degrees_of_freedom = static_cast<double>(count - 1);
  }
  ci.standard_error = used_sd / std::sqrt(static_cast<double>(count));
  const double t = StudentTQuantile((1 + confidence) / 2, ci.degrees_of_freedom);
  ci.low = mean - t * ci.standard_error;
  ci.high = mean + t * ci.standard_error;
  ci.valid = true;
  return ci;
}

ConfidenceInterval AcrossRunsInterval(absl::Span<const double> values, double sd_floor,
                                      double confidence) {
  RunningStats stats;
  for (double v : values) stats.Add(v);
  return TInterval(stats.mean(), stats.sd(), stats.count(), sd_floor, confidence);
}

ConfidenceInterval BatchMeansInterval(absl::Span<const double> series, double sd_floor, int batches,
                                      double confidence) {
  const int64_t n = static_cast<int64_t>(series.size());
  if (n < 2 || batches < 2) return Invalid();
  const int64_t b = std::min<int64_t>(batches, n);
  RunningStats all, batch_means;
  for (double v : series) all.Add(v);
  for (int64_t j = 0; j < b; ++j) {
    const int64_t begin = j * n / b, end = (j + 1) * n / b;
    double sum = 0;
    for (int64_t i = begin; i < end; ++i) sum += series[i];
    batch_means.Add(sum / static_cast<double>(end - begin));
  }
  // SD of one value implied by the batch means: SD(batch mean) * sqrt(n / b), so that the
  // floor on one value's SD compares like with like.
  const double implied_sd = batch_means.sd() * std::sqrt(static_cast<double>(n) / b);
  ConfidenceInterval ci;
  ci.estimate = all.mean();
  ci.degrees_of_freedom = static_cast<double>(b - 1);
  const double se_batches = batch_means.sd() / std::sqrt(static_cast<double>(b));
  const double se_floor = sd_floor / std::sqrt(static_cast<double>(n));
  ci.floored = sd_floor > 0 && sd_floor >= implied_sd;
  ci.standard_error = std::max(se_batches, se_floor);
  const double t = StudentTQuantile((1 + confidence) / 2, ci.degrees_of_freedom);
  ci.low = ci.estimate - t * ci.standard_error;
  ci.high = ci.estimate + t * ci.standard_error;
  ci.valid = std::isfinite(ci.estimate);
  return ci;
}

double QuantizedSdFloor(double quantum, int64_t count, double confidence) {
  if (!(quantum > 0) || count <= 0) return 0;
  const double f = std::min(0.5, 1 - std::pow(1 - confidence, 1.0 / static_cast<double>(count)));
  return quantum * std::sqrt(f * (1 - f));
}

namespace {
// The x in [0, 1] with I_x(a, b) = p, by bisection (I_x is increasing in x).
double BetaQuantile(double p, double a, double b) {
  double low = 0, high = 1;
  for (int i = 0; i < 200 && high - low > 1e-12; ++i) {
    const double mid = (low + high) / 2;
    (RegularizedIncompleteBeta(a, b, mid) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}
}  // namespace

ConfidenceInterval SdInterval(double sd, double degrees_of_freedom, double confidence) {
  if (!(degrees_of_freedom > 0) || !std::isfinite(degrees_of_freedom) || !(sd >= 0) ||
      !std::isfinite(sd) || !(confidence > 0 && confidence < 1)) {
    return Invalid();
  }
  const double df = degrees_of_freedom;
  auto chi_square_quantile = [df](double p) {  // Wilson-Hilferty
    const double h = 2 / (9 * df);
    const double cube = 1 - h + NormalQuantile(p) * std::sqrt(h);
    return df * std::max(cube, 0.0) * std::max(cube, 0.0) * std::max(cube, 0.0);
  };
  const double alpha = (1 - confidence) / 2;
  const double lower_quantile = chi_square_quantile(alpha);
  ConfidenceInterval ci;
  ci.estimate = sd;
  ci.low = sd * std::sqrt(df / chi_square_quantile(1 - alpha));
  ci.high = lower_quantile > 0 ? sd * std::sqrt(df / lower_quantile) : kInf;
  ci.degrees_of_freedom = df;
  ci.valid = true;
  return ci;
}

ConfidenceInterval SdIntervalWithFloor(double sd, double degrees_of_freedom, double sd_floor,
                                       double confidence) {
  ConfidenceInterval ci = SdInterval(sd, degrees_of_freedom, confidence);
  if (!ci.valid) return ci;
  ci.low = std::max(0.0, ci.low);
  if (std::isfinite(sd_floor) && sd_floor > ci.high) {
    ci.high = sd_floor;
    ci.floored = true;
  }
  return ci;
}

ConfidenceInterval BatchSdInterval(absl::Span<const double> series, double sd_floor, int batches,
                                   double confidence) {
  const int64_t n = static_cast<int64_t>(series.size());
  if (n < 2) return Invalid();
  RunningStats all;
  for (double v : series) all.Add(v);
  const double mean = all.mean(), sd = all.sd();
  const double scale = static_cast<double>(n) / static_cast<double>(n - 1);  // unbiased s^2
  std::vector<double> squares(series.size());
  for (size_t i = 0; i < series.size(); ++i) {
    squares[i] = scale * (series[i] - mean) * (series[i] - mean);
  }
  const ConfidenceInterval variance = BatchMeansInterval(squares, 0, batches, confidence);
  const double most = static_cast<double>(n - 1);
  double df = most;
  if (variance.valid && variance.standard_error > 0) {
    df = std::clamp(2 * sd * sd * sd * sd / (variance.standard_error * variance.standard_error),
                    1.0, most);
  }
  return SdIntervalWithFloor(sd, df, sd_floor, confidence);
}

ConfidenceInterval QuantizedSdInterval(absl::Span<const double> readings, double quantum,
                                       double confidence) {
  const int64_t count = static_cast<int64_t>(readings.size());
  ConfidenceInterval ci =
      BatchSdInterval(readings, QuantizedSdFloor(quantum, count), kDefaultBatches, confidence);
  if (!ci.valid || !(quantum > 0)) return ci;
  // Readings on two neighbouring ticks: SD = T sqrt(p (1 - p)) exactly, p the share on the
  // upper tick. The exact interval of p carried through it (T/2 where it holds p = 1/2)
  // joins the interval above, so that a handful of rare readings is not left to a
  // normal approximation.
  const double base = std::round(*std::min_element(readings.begin(), readings.end()) / quantum);
  int64_t upper = 0;
  for (double r : readings) {
    const double ticks = r / quantum - base;
    if (std::abs(ticks - std::round(ticks)) > 1e-9 || std::round(ticks) > 1) return ci;
    upper += std::round(ticks) == 1;
  }
  const ConfidenceInterval p = ProportionInterval(upper, count, confidence);
  auto sd = [quantum](double share) { return quantum * std::sqrt(share * (1 - share)); };
  const double top = p.low <= 0.5 && 0.5 <= p.high ? quantum / 2 : std::max(sd(p.low), sd(p.high));
  ci.low = std::min(ci.low, std::min(sd(p.low), sd(p.high)));
  ci.high = std::max(ci.high, top);
  return ci;
}

ConfidenceInterval ProportionInterval(int64_t successes, int64_t trials, double confidence) {
  if (trials <= 0 || successes < 0 || successes > trials || !(confidence > 0 && confidence < 1)) {
    return Invalid();
  }
  const double k = static_cast<double>(successes), n = static_cast<double>(trials);
  const double alpha = (1 - confidence) / 2;
  ConfidenceInterval ci;
  ci.estimate = k / n;
  ci.low = successes == 0 ? 0 : BetaQuantile(alpha, k, n - k + 1);
  ci.high = successes == trials ? 1 : BetaQuantile(1 - alpha, k + 1, n - k);
  ci.degrees_of_freedom = kInf;
  ci.valid = true;
  return ci;
}

ConfidenceInterval QuantileInterval(absl::Span<const double> values, double q, double confidence) {
  const int64_t n = static_cast<int64_t>(values.size());
  if (n == 0 || !(q >= 0 && q <= 1)) return Invalid();
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  ConfidenceInterval ci;
  ci.estimate = QuantileOfSorted(sorted, q);
  ci.valid = true;
  ci.degrees_of_freedom = kInf;
  const double alpha = (1 - confidence) / 2;
  // Lower rank l (1-based): the largest with P(B <= l - 1) <= alpha; upper rank u: the
  // smallest with P(B >= u) <= alpha, i.e. P(B <= u - 1) >= 1 - alpha. Start from the
  // normal approximation and step.
  const double center = n * q, spread = std::sqrt(n * q * (1 - q));
  const double z = NormalQuantile(1 - alpha);
  int64_t l = std::clamp<int64_t>(static_cast<int64_t>(std::floor(center - z * spread)), 0, n);
  while (l > 0 && BinomialCdf(l - 1, n, q) > alpha) --l;
  while (l < n && BinomialCdf(l, n, q) <= alpha) ++l;
  int64_t u = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(center + z * spread)), 1, n + 1);
  while (u <= n && BinomialCdf(u - 1, n, q) < 1 - alpha) ++u;
  while (u > 1 && BinomialCdf(u - 2, n, q) >= 1 - alpha) --u;
  ci.low = l >= 1 ? sorted[l - 1] : sorted.front();
  ci.high = u <= n ? sorted[u - 1] : sorted.back();
  ci.low = std::min(ci.low, ci.estimate);
  ci.high = std::max(ci.high, ci.estimate);
  return ci;
}

ConfidenceInterval DifferenceInterval(const ConfidenceInterval& a, const ConfidenceInterval& b,
                                      double confidence) {
  if (!a.valid || !b.valid) return Invalid();
  ConfidenceInterval ci;
  ci.estimate = a.estimate - b.estimate;
  const double va = a.standard_error * a.standard_error, vb = b.standard_error * b.standard_error;
  ci.standard_error = std::sqrt(va + vb);
  const double denominator =
      (va > 0 ? va * va / a.degrees_of_freedom : 0) + (vb > 0 ? vb * vb / b.degrees_of_freedom : 0);
  ci.degrees_of_freedom = denominator > 0 ? (va + vb) * (va + vb) / denominator : kInf;
  ci.floored = a.floored || b.floored;
  const double t = StudentTQuantile((1 + confidence) / 2, ci.degrees_of_freedom);
  ci.low = ci.estimate - t * ci.standard_error;
  ci.high = ci.estimate + t * ci.standard_error;
  ci.valid = true;
  return ci;
}

double TwoSidedPValue(const ConfidenceInterval& difference) {
  if (!difference.valid) return std::numeric_limits<double>::quiet_NaN();
  if (!(difference.standard_error > 0)) return difference.estimate == 0 ? 1 : 0;
  return 2 * (1 - StudentTCdf(std::fabs(difference.estimate) / difference.standard_error,
                              difference.degrees_of_freedom));
}

std::string FormatPValue(double p) { return p < 1e-4 ? "<0.0001" : absl::StrFormat("%.2g", p); }

std::string PValueWords(double p) {
  const std::string text = FormatPValue(p);
  return text[0] == '<' ? "p < " + text.substr(1) : "p = " + text;
}

int DecimalsForHalfWidth(double half_width, double value) {
  int decimals;
  if (half_width > 0 && std::isfinite(half_width)) {
    decimals = 1 - static_cast<int>(std::floor(std::log10(half_width)));
  } else if (value != 0 && std::isfinite(value)) {
    decimals = 5 - static_cast<int>(std::floor(std::log10(std::abs(value))));
  } else {
    decimals = 0;
  }
  return std::clamp(decimals, -15, 15);
}

double RoundToInterval(double value, double half_width) {
  if (!std::isfinite(value)) return value;
  const int decimals = DecimalsForHalfWidth(half_width, value);
  const double scale = std::pow(10.0, decimals);
  const double rounded = std::round(value * scale) / scale;
  return rounded == 0 ? 0 : rounded;  // no "-0"
}

std::string FormatRounded(double value, double half_width) {
  if (!std::isfinite(value)) return absl::StrFormat("%g", value);
  const int decimals = DecimalsForHalfWidth(half_width, value);
  const double rounded = RoundToInterval(value, half_width);
  return absl::StrFormat("%.*f", std::max(0, decimals), rounded);
}

std::string FormatWithHalfWidth(double value, double half_width) {
  if (!(half_width >= 0) || !std::isfinite(half_width)) return FormatRounded(value, half_width);
  return absl::StrFormat("%s ± %s", FormatRounded(value, half_width),
                         FormatRounded(half_width, half_width));
}

int FigureDecimals(double value, double half_width, double resolution) {
  const bool has_half = half_width > 0 && std::isfinite(half_width);
  const bool has_grid = resolution > 0 && std::isfinite(resolution);
  if (!has_half && !has_grid) return DecimalsForHalfWidth(0, value);
  int decimals = has_half ? DecimalsForHalfWidth(half_width) : 15;
  if (has_grid) {
    // The leading digit of the grid: 4 -> 0 decimals, 0.005 -> 3. The small epsilon keeps
    // a grid of exactly 1e-3 from reading as 0.000999... below it.
    decimals = std::min(decimals, -static_cast<int>(std::floor(std::log10(resolution) + 1e-9)));
  }
  return std::clamp(decimals, -15, 15);
}

std::string FormatDecimals(double value, int decimals) {
  if (!std::isfinite(value)) return absl::StrFormat("%g", value);
  const double scale = std::pow(10.0, decimals);
  double rounded = std::round(value * scale) / scale;
  if (rounded == 0) rounded = 0;  // no "-0"
  return absl::StrFormat("%.*f", std::max(0, decimals), rounded);
}

std::string FormatExact(double value) {
  for (int digits = 6; digits < 17; ++digits) {
    const std::string text = absl::StrFormat("%.*g", digits, value);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == value) return text;
  }
  return absl::StrFormat("%.17g", value);
}

std::string FormatFigure(double value, double half_width, double resolution) {
  return FormatDecimals(value, FigureDecimals(value, half_width, resolution));
}

int ColumnDecimals(absl::Span<const int> decimals) {
  int most = 0;
  bool any = false;
  for (const int d : decimals) {
    most = any ? std::max(most, d) : d;
    any = true;
  }
  return most;
}

ConfidenceInterval ClippedAtZero(ConfidenceInterval ci) {
  if (ci.valid && ci.low < 0) ci.low = 0;
  return ci;
}

ConfidenceInterval OnLogScale(ConfidenceInterval ci) {
  if (!ci.valid || !(ci.estimate > 0) || !std::isfinite(ci.half_width())) return ci;
  const double factor = std::exp(ci.half_width() / ci.estimate);
  ci.low = ci.estimate / factor;
  ci.high = ci.estimate * factor;
  return ci;
}

}  // namespace tickbench::timing
