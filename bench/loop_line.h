// The one line a bare round-trip loop prints (//bench:bare_loop, //bench:mpi_bare_loop),
// which bench/bare_compare.sh and bench/mpi_compare.sh read:
//   transport size mode iterations median_us mean_us p90_us p99_us
//
// What is promised:
//   * the figures are per round trip, in µs with three decimals (ns resolution): the mean
//     is the whole loop's time over its round trips (tickbench's averaged figure,
//     averaged_rtt_ns), the quantiles are of the round trips' own times, by the
//     nearest-rank rule;
//   * mode is "busy_poll" when the loop busy polled, "blocking" otherwise.
// What is NOT promised: anything for fewer than two readings (the caller times at least
// one round trip).
#ifndef BENCH_LOOP_LINE_H_
#define BENCH_LOOP_LINE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tickbench::bench {

// The q-quantile of sorted, non-empty `values` by the nearest-rank rule: the smallest
// value with at least q of them at or below it.
double NearestRank(const std::vector<double>& values, double q);

// The line for the readings `marks` (ns, one before the first round trip and one after
// each), without its newline.
std::string LoopLine(const std::string& transport, int64_t size, bool busy_poll,
                     const std::vector<int64_t>& marks);

}  // namespace tickbench::bench

#endif  // BENCH_LOOP_LINE_H_
