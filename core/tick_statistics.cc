#include "core/tick_statistics.h"

#include <cmath>

namespace tickbench::core {

TickReading PredictTickReading(double d_ns, double period_ns) {
  TickReading reading;
  if (d_ns < 0) d_ns = 0;
  const double ticks = d_ns / period_ns;
  const double whole = std::floor(ticks);
  reading.n = static_cast<int64_t>(whole);
  reading.f = ticks - whole;
  reading.mean_ns = d_ns;
  reading.sd_ns = period_ns * std::sqrt(reading.f * (1 - reading.f));
  return reading;
}

double TickZeroShare(double d_ns, double period_ns) {
  if (d_ns <= 0) return 1;
  if (d_ns >= period_ns) return 0;
  return 1 - d_ns / period_ns;
}

double TickReadingSd(double d_ns, double period_ns) {
  return PredictTickReading(d_ns, period_ns).sd_ns;
}

double AveragedBound(double period_ns, int64_t round_trips) {
  return period_ns / static_cast<double>(round_trips);
}

TickMixture PredictTickMixture(const double* d_ns, int64_t count, double period_ns) {
  TickMixture mixture;
  mixture.period_ns = period_ns;
  mixture.count = count;
  if (count <= 0) return mixture;
  double sum = 0;
  for (int64_t i = 0; i < count; ++i) sum += d_ns[i] < 0 ? 0 : d_ns[i];
  const double count_d = static_cast<double>(count);
  mixture.mean_ns = sum / count_d;
  mixture.n = static_cast<int64_t>(std::floor(mixture.mean_ns / period_ns));
  // Per interval: P(reading > n), P(reading = 0), E[reading^2] = Var + d^2.
  double above = 0, above_variance = 0, zero = 0, zero_variance = 0;
  double second_moment = 0, reading_variance = 0;
  for (int64_t i = 0; i < count; ++i) {
    const TickReading r = PredictTickReading(d_ns[i], period_ns);
    const double p_above = r.n > mixture.n ? 1.0 : (r.n == mixture.n ? r.f : 0.0);
    above += p_above;
    above_variance += p_above * (1 - p_above);
    const double p_zero = r.n == 0 ? 1 - r.f : 0.0;
    zero += p_zero;
    zero_variance += p_zero * (1 - p_zero);
    const double variance = r.sd_ns * r.sd_ns;
    reading_variance += variance;
    second_moment += variance + r.mean_ns * r.mean_ns;
  }
  mixture.f = above / count_d;
  mixture.zero_share = zero / count_d;
  const double mixture_variance = second_moment / count_d - mixture.mean_ns * mixture.mean_ns;
  mixture.sd_ns = std::sqrt(mixture_variance > 0 ? mixture_variance : 0);
  mixture.share_standard_error = std::sqrt(above_variance) / count_d;
  mixture.zero_share_standard_error = std::sqrt(zero_variance) / count_d;
  mixture.mean_standard_error_ns = std::sqrt(reading_variance) / count_d;
  return mixture;
}

}  // namespace tickbench::core
