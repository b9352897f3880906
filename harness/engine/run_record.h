// What one run measured: one message size, one run of N timed round trips.
//
// Promised: every figure here comes from round trips whose echo came back whole and in
// order (a faulty trip's interval is cut out; see timed_trips), in nanoseconds unless the
// name says otherwise; a run with valid() false has no figure (its averages stay 0 and
// reports print none). Not promised: that `completed` trips were all timed, nor that
// clock_marks are kept (a chunked run folds them).
#ifndef HARNESS_ENGINE_RUN_RECORD_H_
#define HARNESS_ENGINE_RUN_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {

// Echoes that came back wrong. None of them is folded into the timing silently: each is
// counted here and reported.
struct IntegrityCounts {
  int64_t lost = 0;       // no echo within the receive timeout (datagrams only: on a
                          // byte stream a missing echo ends the run with an error)
  int64_t late = 0;       // an echo of an earlier round trip, discarded (duplicate or late)
  int64_t reordered = 0;  // an echo of a later round trip than expected
  int64_t corrupted = 0;  // the right sequence, but the bytes were not what was sent
  int64_t total() const { return lost + late + reordered + corrupted; }
  // Not faults: clean round trips that came right after a faulty one (after a loss, the
  // timeout's wait leaves caches and the peer cold: 90-250 us against 16 us on loopback).
  // Each is left out of every figure, as a warm-up's round trips are (its interval cut
  // out), and counted here.
  int64_t after_fault = 0;
  // Whether the next round trip follows a fault: carried from one loop (or chunk, or the
  // warm-up) to the next.
  bool next_follows_fault = false;
};

struct RunRecord {
  std::string transport;
  std::string clock;            // the clock's spec
  std::string reference_clock;  // "" when there is none
  size_t size_bytes = 0;
  int run = 0;             // 1-based
  int64_t iterations = 0;  // planned timed round trips
  int64_t completed = 0;   // timed round trips that finished, with or without a fault
  int64_t batch = 1;       // round trips per per-iteration reading
  int attempt = 1;         // 1, or 1 + the runs of this size and run number retried

  // Faults are not data. A round trip that was lost, late, reordered or corrupted is
  // never timed: the interval (of `batch` round trips) that holds it is cut out of every
  // figure, and the figures are over the remaining `timed_trips`. A run left with no
  // clean interval (or whose warm-up got no echo) has no figure at all: valid() is false.
  int64_t timed_trips = 0;     // round trips in intervals without a fault
  int64_t excluded_trips = 0;  // round trips in intervals cut out for a fault
  int64_t fault_segments = 0;  // stretches of clean intervals the faults left (1: none cut)
  int64_t warmup_lost = 0;     // warm-up datagrams that got no echo
  int64_t warmup_trips = 0;    // the warm-up's round trips (EngineOptions::WarmupRule)
  int64_t warmup_ns = 0;       // how long the warm-up took, by the reference (else the clock)
  // Why the warm-up ended: "steady" (a window no faster than the one before), "out of time"
  // (WarmupRule::max_time), "count" (a forced --warmup=N), "" where it did not end.
  std::string warmup_end;
  int64_t receive_timeout_ns = 0;  // the timeout in force for the timed round trips
  std::string invalid_reason;      // why a run that ended without an error has no figure
  // On a size's last record, why the sweep measured no more runs of it (SweepOptions::
  // until_known): "precise", "groups", "out of time", "run limit", or "" (a fixed count).
  std::string size_stop;
  bool valid() const { return timed_trips > 0; }

  // Averaged: (last reading - first reading) / timed round trips. Where faults cut
  // intervals out, or the run was timed in chunks (EngineOptions::max_kept_intervals),
  // the sum of (last - first) over the clean stretches: its quantisation bound grows
  // from T/N to fault_segments * T/N (per chunk).
  int64_t elapsed_ticks = 0;
  double averaged_rtt_ns = 0;
  double throughput_bytes_per_s = 0;  // 2n bytes per round trip / averaged RTT; inf at 0

  // Resolution of the averaged figure. resolution_ns is the clock's claimed resolution T;
  // quantum_ns = fault_segments * T / timed_trips bounds the averaged figure's
  // quantization error (|error| < quantum_ns for any phase). The figure is unresolved where
  // the quantum exceeds 10% of the RTT (the reference's where there is one, else the
  // clock's own figure; unresolved too when that reads 0); N >= 100 T / d round trips
  // (round_trips_to_resolve, 0 when d is unknown) would resolve it to 1%.
  double resolution_ns = 0;
  double quantum_ns = 0;
  bool averaged_unresolved = false;
  int64_t round_trips_to_resolve = 0;
  // Why throughput_bytes_per_s is not a figure ("" when it is): the clock read the whole
  // loop as 0, so the averaged RTT is 0 and 2n bytes / 0 is infinite.
  std::string throughput_note;

  // Per-iteration: each batch's reading divided by the batch size, in ns.
  timing::Summary per_iteration_ns;
  // 95% intervals of the per-iteration figures (timing/stats/confidence.h), each invalid where
  // there is nothing to estimate from. The mean's by batch means over the run's clean
  // readings in time order (timing::kDefaultBatches contiguous batches; in a run timed in
  // chunks, one batch per chunk, so invalid for a single chunk), with the SD of one reading
  // floored at QuantizedSdFloor(T / batch, readings). p50's and p99's from order
  // statistics over the kept readings; invalid for a run timed in chunks, whose readings
  // are folded and not kept. Not promised: independence of neighbouring readings, which
  // the order-statistic intervals assume.
  timing::ConfidenceInterval per_iteration_mean_ci95;
  // The SD of one reading: timing::QuantizedSdInterval over the run's readings (the
  // chi-square interval on effective degrees of freedom from batch means of the squared
  // deviations, with the quantization T / batch folded in); in a run timed in chunks, the
  // chi-square interval on chunks - 1 degrees of freedom, floored likewise. Lower end >= 0.
  timing::ConfidenceInterval per_iteration_sd_ci95;
  timing::ConfidenceInterval per_iteration_p50_ci95;
  timing::ConfidenceInterval per_iteration_p99_ci95;
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
  // With the marks: one flag per interval (1: cut out for a fault), and each clock's ns per
  // tick, so that every per-iteration reading can be had after the run
  // (harness/report/readings/run_readings.h). Empty when the marks are.
  std::vector<uint8_t> faulty_intervals;
  double nanos_per_tick = 1;
  double reference_nanos_per_tick = 1;
};

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_RUN_RECORD_H_
