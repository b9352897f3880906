// What one run measured: one message size, one run of N timed round trips.
#ifndef HARNESS_RUN_RECORD_H_
#define HARNESS_RUN_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "timing/statistics.h"

namespace tickbench::harness {

// Echoes that came back wrong. None of them is folded into the timing silently: each is
// counted here and reported.
struct IntegrityCounts {
  int64_t lost = 0;        // no echo within the receive timeout (datagrams)
  int64_t late = 0;        // an echo of an earlier round trip, discarded (duplicate or late)
  int64_t reordered = 0;   // an echo of a later round trip than expected
  int64_t corrupted = 0;   // the right sequence, but the bytes were not what was sent
  int64_t total() const { return lost + late + reordered + corrupted; }
};

struct RunRecord {
  std::string transport;
  std::string clock;            // the clock's spec
  std::string reference_clock;  // "" when there is none
  size_t size_bytes = 0;
  int run = 0;                  // 1-based
  int64_t iterations = 0;       // planned timed round trips
  int64_t completed = 0;        // timed round trips that finished
  int64_t batch = 1;            // round trips per per-iteration reading

  // Averaged: (last reading - first reading) / completed round trips. A run timed in
  // chunks (EngineOptions::max_kept_intervals) sums each chunk's (last - first).
  int64_t elapsed_ticks = 0;
  double averaged_rtt_ns = 0;
  double throughput_bytes_per_s = 0;  // 2n bytes per round trip / averaged RTT; inf at 0

  // Per-iteration: each batch's reading divided by the batch size, in ns.
  timing::Summary per_iteration_ns;
  // Readings per interval in ticks of the clock's claimed resolution (0, 1, 2, ...),
  // up to the last bucket, which holds everything larger.
  std::vector<int64_t> resolution_histogram;

  bool has_reference = false;
  double reference_averaged_rtt_ns = 0;
  timing::Summary reference_per_iteration_ns;

  IntegrityCounts integrity;
  std::string error;  // why the run ended early; "" when it completed

  // Raw interval boundaries (intervals + 1 readings of each clock), kept for the study.
  // Empty for a run timed in chunks: its readings were folded into the summaries above,
  // so that memory does not grow with the number of round trips.
  std::vector<int64_t> clock_marks;
  std::vector<int64_t> reference_marks;
};

}  // namespace tickbench::harness

#endif  // HARNESS_RUN_RECORD_H_
