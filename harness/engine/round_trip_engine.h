// Measures runs of round trips over one connected endpoint: warm-up, then N timed round
// trips read by the chosen clock and the reference clock at the same instants, then the
// figures of the run. Buffers are allocated once, before any loop, and bounded by
// EngineOptions::max_kept_intervals, not by N.
//
// Promised:
//   * The timed loop (harness/engine/round_trip_loop.h) allocates nothing, logs nothing, reads
//     only the two clocks asked for, and makes no system call but the transport's
//     (round_trip_loop_allocation_test, tests/syscall_count_test).
//   * A lost, late, reordered or corrupted round trip is never timed: its interval is cut
//     out of every figure (RunRecord::timed_trips); a run with nothing left has no figure.
//     Nor is the first clean round trip after one (slow: caches and the peer gone cold):
//     its interval is cut out too, and it is counted (IntegrityCounts::after_fault).
//   * On a byte stream an echo out of step (corrupted, late or reordered: a stray or
//     missing byte shifts every later message) ends the run with a DataLoss error, keeping
//     what was measured before it: no later echo is read as one.
//   * On a byte stream a missing echo ends the run with an error; on a datagram transport
//     it is counted as lost and the run goes on (unless continue_on_loss is false), until
//     kMaxConsecutiveLosses round trips in a row are lost: the peer has stopped answering,
//     and the run ends with an error, keeping what was measured before.
//   * SIGINT or SIGTERM ends a run within one round trip or one receive timeout's EINTR.
//   * The warm-up ends on a stated rule (WarmupRule): by default when the round trip has
//     settled — at least min_trips and min_time, then windows of `window` trips until one
//     window's median is no more than `tolerance` below the window's before it (a
//     transient is a decay from slow to fast: a window no faster than the last means it
//     has ended) — or when max_time is up; `warmup >= 0` forces that many trips instead.
//     The record says how many trips it took, how long and why it ended (WarmupEnd).
// Not promised:
//   * The warm-up's round trips are not reported; its losses only count in warmup_lost.
//   * That a settled median means a settled mean: a transient in the tail alone passes.
//   * A chunked run (more intervals than max_kept_intervals) has percentiles within the
//     histogram's precision (0.39%), not exact ones, and no raw marks.
#ifndef HARNESS_ENGINE_ROUND_TRIP_ENGINE_H_
#define HARNESS_ENGINE_ROUND_TRIP_ENGINE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "harness/engine/loop_selection.h"
#include "harness/engine/round_trip_loop.h"
#include "harness/engine/run_record.h"
#include "timing/clock.h"
#include "timing/stats/statistics.h"
#include "transport/io/message_buffer.h"
#include "transport/transport.h"

namespace tickbench::harness {

// On a datagram transport, this many lost round trips in a row end the run with an error:
// the peer has stopped answering (stopped, hung, gone without a reset). Each loss costs a
// receive timeout (at least 250 ms), so a silent peer is given up on after 8 x 250 ms = 2 s
// at the auto timeout's floor (80 s at its 10 s ceiling), not after iterations x timeout.
// Independent losses at a rate p end a healthy run with probability about N p^8: 2e-10
// for N = 2'000'000 round trips at a 1% loss rate.
inline constexpr int64_t kMaxConsecutiveLosses = 8;

// When the warm-up of a run ends, unless a count is forced (EngineOptions::warmup >= 0). Each
// window is one block of the echo protocol; its round trips are read one by one by the
// finest clock at hand (the reference, else the measured clock).
struct WarmupRule {
  int64_t min_trips = 400;
  absl::Duration min_time = absl::Milliseconds(10);
  int64_t window = 200;     // round trips whose median is compared with the window's before
  double tolerance = 0.01;  // steady: median >= (1 - tolerance) x the previous window's
  absl::Duration max_time = absl::Seconds(1);  // out of time: the warm-up ends here anyway
};
inline constexpr int64_t kWarmupUntilSteady = -1;
// The warm-up's first window (of a rule or a count): its median sets the auto receive timeout.
inline constexpr int64_t kFirstWarmupWindow = 25;

struct EngineOptions {
  int64_t iterations = 1000;  // timed round trips per run
  // Untimed round trips before them: kWarmupUntilSteady (by `warmup_rule`), or a count.
  int64_t warmup = kWarmupUntilSteady;
  WarmupRule warmup_rule;
  int64_t batch = 1;  // round trips per per-iteration reading (iterations: averaged only)
  // On a datagram transport, a lost datagram is counted, its interval cut out of the
  // figures, and the run goes on; false ends the run at the first loss. On a byte stream
  // a missing echo always ends the run: the stream is out of step after it.
  bool continue_on_loss = true;
  // Lost round trips in a row that end a datagram run with an error (at least 1).
  int64_t max_consecutive_losses = kMaxConsecutiveLosses;
  // The receive timeout of the warm-up, and of the timed trips unless derived.
  absl::Duration receive_timeout = absl::Seconds(1);
  // Derive each run's receive timeout from its warm-up: 1000 times the median of the
  // warm-up's round trips that got their echo, within [kMinAutoTimeout,
  // kMaxAutoTimeout]. A lost datagram then costs a bounded wait proportionate to the
  // round trip, and a loss in the warm-up (a median, not a mean) cannot inflate it.
  bool auto_receive_timeout = false;
  // Histogram buckets of readings in units of the clock's resolution; the last bucket
  // holds everything above.
  int histogram_buckets = 16;
  // Most per-iteration readings kept in memory at once, per clock (8 bytes each: 8 MB at
  // the default, 16 MB with a reference clock), so that memory stays bounded whatever
  // `iterations` is. A run with more intervals than this is timed in chunks of at most
  // this many, each a loop of its own that starts with its own reading; between chunks
  // the readings are folded into a timing::StreamingSummary: mean, sd, min, max and zero
  // fraction as exact as for a kept run, p50/p90/p99 within 0.39% (timing/stats/log_histogram.h).
  // Such a run's record has no clock_marks / reference_marks.
  int64_t max_kept_intervals = 1'000'000;
};

// The most round trips a run's warm-up may make when each takes `trip_ns`: the forced count,
// or, until steady, what max_time holds plus the window that may be under way and the
// minimum (a bound for budgets and plans, not an estimate).
int64_t MaxWarmupTrips(const EngineOptions& options, double trip_ns);

inline constexpr absl::Duration kMinAutoTimeout = absl::Milliseconds(250);
inline constexpr absl::Duration kMaxAutoTimeout = absl::Seconds(10);
// A warm-up whose first this many datagrams all get no echo gives up: the peer does not
// answer, and waiting out the rest of the warm-up would only cost time.
inline constexpr int64_t kWarmupSilentLimit = 3;

class RoundTripEngine {
 public:
  // `reference` may be null. `max_size_bytes` bounds every later MeasureRun. The loop is
  // chosen here, once, for the concrete types of the endpoint and the two clocks.
  RoundTripEngine(transport::Endpoint& endpoint, timing::Clock& clock, timing::Clock* reference,
                  size_t max_size_bytes, const EngineOptions& options);

  // One run of `size_bytes`: tells the peer the block (warm-up + timed trips), runs the
  // warm-up, then the timed loop. A failure ends the run early; what was measured until
  // then is in the record, with `error` saying what happened. Faulty round trips are
  // cut out of the figures (RunRecord::timed_trips); a run with none left is !valid().
  RunRecord MeasureRun(size_t size_bytes, int run);

  // Whether a run is timed in more than one chunk (more intervals than
  // EngineOptions::max_kept_intervals), with percentiles from a histogram.
  bool chunked() const { return chunked_; }

  using LoopFunction = harness::LoopFunction;  // harness/engine/loop_selection.h

 private:
  // A record of this run's identity, clocks and settings, with no figures yet.
  RunRecord NewRecord(size_t size_bytes, int run) const;
  // The warm-up: untimed trips in windows (WarmupRule, or the forced count), then (with
  // auto_receive_timeout) the timed trips' receive timeout from the last window's median.
  // Fills record.warmup_lost, warmup_trips, warmup_ns, warmup_end and receive_timeout_ns.
  absl::Status WarmUp(const LoopBuffers& buffers, RunRecord& record);
  // One window of `trips` warm-up round trips (one echo block); their readings that got a
  // clean echo in warmup_rtt_ns_, in ns of `warmup_clock`.
  absl::Status WarmUpWindow(const LoopBuffers& buffers, int64_t trips, timing::Clock& warmup_clock,
                            bool continue_on_loss, int64_t& echoed, RunRecord& record);
  // Adds one chunk's clean trips, elapsed ticks and resolution histogram to the record,
  // and, when chunked, its per-trip readings to the streaming summaries.
  void FoldChunk(const LoopOutcome& chunk, RunRecord& record, int64_t& reference_elapsed_ticks);
  // One chunk's timed trips: the loop over `buffers`. On a datagram transport with
  // continue_on_loss the loop stops at each loss; the loss is counted, its interval
  // flagged and finished, and the loop started again, whose first reading closes that
  // interval, so the marks are what one loop's would be. kMaxConsecutiveLosses losses in
  // a row end it with Unavailable.
  LoopOutcome TimeChunk(const LoopBuffers& buffers, int64_t trips, int64_t batch,
                        uint64_t first_sequence, bool continue_on_loss, IntegrityCounts& integrity);
  // Counts a lost round trip; an error when it is one loss in a row too many or a stop
  // was requested.
  absl::Status CountLoss(IntegrityCounts& integrity);
  // The `trips` untimed round trips that finish an interval a loss made faulty (its
  // figure is cut out anyway), from `sequence` on; adds those finished to `done`.
  absl::Status FinishFaultyInterval(const LoopBuffers& buffers, int64_t trips, uint64_t sequence,
                                    IntegrityCounts& integrity, int64_t& done);
  // The run's figures; `last_chunk` holds the marks when the run was one chunk.
  void Summarize(const LoopOutcome& last_chunk, int64_t reference_elapsed_ticks, RunRecord& record);

  transport::Endpoint& endpoint_;
  timing::Clock& clock_;
  timing::Clock* reference_;
  EngineOptions options_;
  LoopFunction loop_;
  transport::MessageBuffer send_buffer_;  // page-aligned (transport/io/message_buffer.h)
  transport::MessageBuffer receive_buffer_;
  int64_t intervals_per_chunk_;
  bool chunked_;
  std::vector<int64_t> marks_;            // intervals_per_chunk_ + 1
  std::vector<int64_t> reference_marks_;  // same, or empty without a reference
  std::vector<uint8_t> faulty_;           // one flag per interval of a chunk
  std::vector<int64_t> warmup_rtt_ns_;    // a warm-up window's round trips that got an echo
  timing::StreamingSummary clock_summary_;
  timing::StreamingSummary reference_summary_;
  std::vector<double> chunk_means_;  // a chunked run's per-chunk mean per-iteration reading
  uint64_t next_sequence_ = 1;
  absl::Duration timed_receive_timeout_;  // the timeout of this run's timed trips
  int64_t consecutive_lost_ = 0;          // lost round trips in a row, in this run
};

// The loop instantiation for this endpoint and these two clocks (exposed for tests and
// benchmarks). The endpoint's type is one of the transports' `final` endpoint classes the
// loop is specialised for (see LoopEndpointKind), or else transport::Endpoint. The loop
// returned must be called with this endpoint (or one of the same class) and these clocks.
RoundTripEngine::LoopFunction SelectLoop(transport::Endpoint& endpoint, timing::Clock& clock,
                                         timing::Clock* reference);

// Which endpoint type SelectLoop specialises the loop for, by the same choice:
//   "stream_socket"    transport::StreamSocketEndpoint (unix_stream, tcp, tcp6): direct calls
//   "datagram_socket"  transport::DatagramSocketEndpoint (unix_dgram, udp, udp6): direct calls
//   "pipe"             transport::PipeEndpoint (pipe): direct calls
//   "mpi"              transport::MpiEndpoint (mpi): direct calls
//   "endpoint"         any other (sim, remote, ...): transport::Endpoint, virtual calls
// The simulated transport's endpoint is `final` too, but its class is private to
// sim_transport.cc, so it takes the generic loop.
absl::string_view LoopEndpointKind(const transport::Endpoint& endpoint);

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_ROUND_TRIP_ENGINE_H_
