#include "harness/engine/round_trip_engine.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "harness/engine/no_figure.h"
#include "timing/stats/confidence.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"
#include "transport/registry/fast_path_endpoints.h"

namespace tickbench::harness {
namespace {

// The endpoint types the loop is specialised for (transport::FastPathEndpoints), and their
// names for LoopEndpointKind. Calls `visit` with a core::TypeTag<E> for the concrete type E
// of `endpoint`, or core::TypeTag<transport::Endpoint> when it is none of them (the
// simulation's endpoint, remote endpoints: a virtual call per Send() and Receive()).
// SelectLoop and LoopEndpointKind both choose through here, so that a test of the one tests
// the other.
template <typename AnyEndpoint, typename Visit>
auto VisitEndpointType(AnyEndpoint& endpoint, Visit visit) {
  return core::VisitAmong<transport::Endpoint>(transport::FastPathEndpoints{}, endpoint, visit);
}

// Calls `add` with each clean interval's reading per round trip, in ns, for one loop's
// `marks`. Interval j holds `batch` trips, except the last, which holds what remained of
// the `closed` trips; intervals flagged in `faulty` are left out.
template <typename Add>
void ForEachPerTrip(const timing::Clock& clock, const int64_t* marks, const uint8_t* faulty,
                    int64_t marks_written, int64_t closed, int64_t batch, Add add) {
  const int64_t intervals = marks_written - 1;
  for (int64_t j = 0; j < intervals; ++j) {
    if (faulty[j]) continue;
    const int64_t trips = j + 1 < intervals ? batch : closed - (intervals - 1) * batch;
    add(clock.TicksToNanos(marks[j + 1] - marks[j]) / static_cast<double>(trips));
  }
}

// Trips in interval j of a loop with `intervals` closed intervals.
int64_t TripsIn(int64_t j, int64_t intervals, int64_t closed, int64_t batch) {
  return j + 1 < intervals ? batch : closed - (intervals - 1) * batch;
}

// Sum over the stretches of clean intervals of (last reading - first reading): the
// elapsed ticks of the trips no fault touched. Adds the number of stretches to `segments`.
int64_t CleanElapsed(const int64_t* marks, const uint8_t* faulty, int64_t intervals,
                     int64_t& segments) {
  int64_t elapsed = 0;
  int64_t j = 0;
  while (j < intervals) {
    if (faulty[j]) {
      ++j;
      continue;
    }
    const int64_t start = j;
    while (j < intervals && !faulty[j]) ++j;
    elapsed += marks[j] - marks[start];
    ++segments;
  }
  return elapsed;
}

int64_t IntervalsPerRun(const EngineOptions& options) {
  const int64_t batch = std::max<int64_t>(1, options.batch);
  return (options.iterations + batch - 1) / batch;
}

// Records a warm-up that failed: a silent datagram peer leaves the run without figures (the
// sweep may retry it); any other failure is an error.
void NoteWarmupFailure(const absl::Status& status, RunRecord& record) {
  if (record.warmup_lost >= kWarmupSilentLimit &&
      status.code() == absl::StatusCode::kDeadlineExceeded) {
    record.invalid_reason = std::string(status.message());
  } else {
    record.error = absl::StrFormat("during warm-up: %s", status.ToString());
  }
}

// The averaged figures of a valid run: the RTT from the clean elapsed ticks, the throughput,
// the quantisation bound and whether the averaged figure resolves the RTT.
void SummarizeAveraged(const timing::Clock& clock, const timing::Clock* reference,
                       int64_t reference_elapsed_ticks, RunRecord& record) {
  const double trips = static_cast<double>(record.timed_trips);
  record.averaged_rtt_ns = clock.TicksToNanos(record.elapsed_ticks) / trips;
  record.throughput_bytes_per_s = record.averaged_rtt_ns > 0
                                      ? 2.0 * record.size_bytes * 1e9 / record.averaged_rtt_ns
                                      : std::numeric_limits<double>::infinity();
  if (reference != nullptr) {
    record.reference_averaged_rtt_ns = reference->TicksToNanos(reference_elapsed_ticks) / trips;
  }
  record.resolution_ns = absl::ToDoubleNanoseconds(clock.info().claimed_resolution);
  record.quantum_ns = static_cast<double>(std::max<int64_t>(1, record.fault_segments)) *
                      record.resolution_ns / trips;
  const double rtt = reference != nullptr && record.reference_averaged_rtt_ns > 0
                         ? record.reference_averaged_rtt_ns
                         : record.averaged_rtt_ns;
  record.averaged_unresolved = rtt <= 0 || record.quantum_ns > 0.1 * rtt;
  if (rtt > 0) {
    record.round_trips_to_resolve =
        static_cast<int64_t>(std::ceil(100 * record.resolution_ns / rtt));
  }
  if (record.averaged_rtt_ns <= 0) {
    record.throughput_note = absl::StrFormat(
        "not computable: the clock read the whole loop as 0 (quantum T/N = %.3g ns)",
        record.quantum_ns);
  }
}

// The SD one per-iteration reading (T / batch per tick) is compatible with at least.
double SdFloor(const RunRecord& record, int64_t readings) {
  return timing::QuantizedSdFloor(record.resolution_ns / static_cast<double>(record.batch),
                                  readings);
}

// The interval of the mean per-iteration reading of a chunked run: one batch per chunk, the
// chunks' means, centred on `mean`, the mean of all `readings` readings.
timing::ConfidenceInterval ChunkedMeanInterval(const std::vector<double>& chunk_means, double mean,
                                               int64_t readings, double floor) {
  timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
      chunk_means, readings > 0 ? floor * std::sqrt(static_cast<double>(chunk_means.size()) /
                                                    static_cast<double>(readings))
                                : 0);
  if (ci.valid) {
    const double half = ci.half_width();
    ci.estimate = mean;
    ci.low = ci.estimate - half;
    ci.high = ci.estimate + half;
  }
  return ci;
}

}  // namespace

RoundTripEngine::LoopFunction SelectLoop(transport::Endpoint& endpoint, timing::Clock& clock,
                                         timing::Clock* reference) {
  return VisitEndpointType(endpoint, [&](auto type) {
    return SelectLoopForEndpointType<typename decltype(type)::type>(clock, reference);
  });
}

absl::string_view LoopEndpointKind(const transport::Endpoint& endpoint) {
  return VisitEndpointType(endpoint, [](auto type) -> absl::string_view {
    return transport::kFastPathName<typename decltype(type)::type>;
  });
}

RoundTripEngine::RoundTripEngine(transport::Endpoint& endpoint, timing::Clock& clock,
                                 timing::Clock* reference, size_t max_size_bytes,
                                 const EngineOptions& options)
    : endpoint_(endpoint),
      clock_(clock),
      reference_(reference),
      options_(options),
      loop_(SelectLoop(endpoint, clock, reference)),
      send_buffer_(max_size_bytes),
      receive_buffer_(max_size_bytes),
      intervals_per_chunk_(
          std::min(IntervalsPerRun(options), std::max<int64_t>(1, options.max_kept_intervals))),
      chunked_(IntervalsPerRun(options) > intervals_per_chunk_),
      marks_(intervals_per_chunk_ + 1),
      reference_marks_(reference != nullptr ? marks_.size() : 0),
      faulty_(intervals_per_chunk_ + 1) {
  transport::FillPattern(send_buffer_.span());
  warmup_rtt_ns_.reserve(std::max<int64_t>(1, options.warmup_rule.window));
}

RunRecord RoundTripEngine::NewRecord(size_t size_bytes, int run) const {
  RunRecord record;
  record.clock = clock_.info().spec;
  record.reference_clock = reference_ != nullptr ? reference_->info().spec : "";
  record.size_bytes = size_bytes;
  record.run = run;
  record.iterations = options_.iterations;
  record.batch = std::max<int64_t>(1, options_.batch);
  record.has_reference = reference_ != nullptr;
  record.nanos_per_tick = clock_.nanos_per_tick();
  if (reference_ != nullptr) record.reference_nanos_per_tick = reference_->nanos_per_tick();
  return record;
}

RunRecord RoundTripEngine::MeasureRun(size_t size_bytes, int run) {
  RunRecord record = NewRecord(size_bytes, run);

  // The pattern is laid once for the largest size; a smaller message is its prefix, and
  // only the sequence stamp changes from trip to trip.
  transport::FillPattern(absl::MakeSpan(send_buffer_.data(), size_bytes));
  LoopBuffers buffers{absl::MakeSpan(send_buffer_.data(), size_bytes),
                      absl::MakeSpan(receive_buffer_.data(), size_bytes), absl::MakeSpan(marks_),
                      absl::MakeSpan(reference_marks_), absl::MakeSpan(faulty_)};

  // The warm-up's windows are blocks of their own, then one block of the timed trips.
  absl::Status status = WarmUp(buffers, record);
  if (status.ok()) {
    status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size_bytes),
                                        static_cast<uint32_t>(options_.iterations));
  }
  if (!status.ok()) {
    NoteWarmupFailure(status, record);
    next_sequence_ += options_.iterations;
    MarkUnmeasured(record);
    return record;
  }
  const bool continue_on_loss = options_.continue_on_loss && endpoint_.may_lose();

  // The timed trips, in chunks of at most intervals_per_chunk_ intervals: one chunk unless
  // the run has more intervals than max_kept_intervals. Each chunk is a loop of its own
  // that opens with its own reading, so the folding between chunks (7-16 ms per million
  // intervals, bench/loop_memory_benchmark) is in neither figure: the averaged
  // figure is the sum of the chunks' elapsed readings over N, and every per-iteration
  // reading lies inside one chunk. The peer waits out the fold; the first trip after it
  // may be slower, one trip in a chunk. The price is in the averaged figure's
  // quantisation bound, which grows from T/N (one pair of readings of a clock of
  // resolution T) to chunks * T/N: for 10 chunks of 1'000'000 trips read by a 20 ms
  // tick, 20 ns per trip instead of 2 ns.
  const int64_t trips_per_chunk = intervals_per_chunk_ * record.batch;
  clock_summary_.Clear();
  reference_summary_.Clear();
  chunk_means_.clear();
  record.resolution_histogram.assign(std::max(1, options_.histogram_buckets), 0);
  int64_t reference_elapsed_ticks = 0;
  consecutive_lost_ = 0;
  LoopOutcome chunk;
  do {
    const int64_t trips = std::min(trips_per_chunk, options_.iterations - record.completed);
    std::fill(faulty_.begin(), faulty_.end(), 0);
    chunk = TimeChunk(buffers, trips, record.batch, next_sequence_ + record.completed,
                      continue_on_loss, record.integrity);
    FoldChunk(chunk, record, reference_elapsed_ticks);
  } while (chunk.status.ok() && record.completed < options_.iterations);
  next_sequence_ += options_.iterations;
  if (!chunk.status.ok()) {
    record.error = absl::StrFormat("at timed round trip %d of %d: %s", record.completed + 1,
                                   options_.iterations, chunk.status.ToString());
  }
  Summarize(chunk, reference_elapsed_ticks, record);
  return record;
}

void RoundTripEngine::FoldChunk(const LoopOutcome& chunk, RunRecord& record,
                                int64_t& reference_elapsed_ticks) {
  record.completed += chunk.completed;
  if (chunk.marks < 2) return;
  const int64_t intervals = chunk.marks - 1;
  for (int64_t j = 0; j < intervals; ++j) {
    const int64_t trips = TripsIn(j, intervals, chunk.closed, record.batch);
    (faulty_[j] ? record.excluded_trips : record.timed_trips) += trips;
  }
  int64_t segments = 0;
  record.elapsed_ticks += CleanElapsed(marks_.data(), faulty_.data(), intervals, segments);
  record.fault_segments += segments;
  if (reference_ != nullptr) {
    int64_t ignored = 0;
    reference_elapsed_ticks +=
        CleanElapsed(reference_marks_.data(), faulty_.data(), intervals, ignored);
  }

  const double resolution_ns = absl::ToDoubleNanoseconds(clock_.info().claimed_resolution);
  for (int64_t j = 0; j < intervals; ++j) {
    if (faulty_[j]) continue;
    const double ticks = clock_.TicksToNanos(marks_[j + 1] - marks_[j]) / resolution_ns;
    const int64_t bucket = std::min<int64_t>(std::llround(std::max(0.0, ticks)),
                                             record.resolution_histogram.size() - 1);
    ++record.resolution_histogram[bucket];
  }

  if (!chunked_) return;  // one chunk: Summarize reads its kept marks exactly
  double chunk_sum = 0;
  int64_t chunk_count = 0;
  ForEachPerTrip(clock_, marks_.data(), faulty_.data(), chunk.marks, chunk.closed, record.batch,
                 [&](double ns) {
                   clock_summary_.Add(ns);
                   chunk_sum += ns;
                   ++chunk_count;
                 });
  if (chunk_count > 0) chunk_means_.push_back(chunk_sum / static_cast<double>(chunk_count));
  if (reference_ != nullptr) {
    ForEachPerTrip(*reference_, reference_marks_.data(), faulty_.data(), chunk.marks, chunk.closed,
                   record.batch, [this](double ns) { reference_summary_.Add(ns); });
  }
}

void RoundTripEngine::Summarize(const LoopOutcome& last_chunk, int64_t reference_elapsed_ticks,
                                RunRecord& record) {
  if (!chunked_) {
    record.clock_marks.assign(marks_.begin(), marks_.begin() + last_chunk.marks);
    record.faulty_intervals.assign(faulty_.begin(),
                                   faulty_.begin() + std::max<int64_t>(0, last_chunk.marks - 1));
    if (reference_ != nullptr) {
      record.reference_marks.assign(reference_marks_.begin(),
                                    reference_marks_.begin() + last_chunk.marks);
    }
  }
  if (!record.valid()) {  // no clean interval: no figure, never a made-up one
    MarkUnmeasured(record);
    return;
  }

  SummarizeAveraged(clock_, reference_, reference_elapsed_ticks, record);

  if (chunked_) {
    record.per_iteration_ns = clock_summary_.ToSummary();
    if (reference_ != nullptr) record.reference_per_iteration_ns = reference_summary_.ToSummary();
    const int64_t readings = record.per_iteration_ns.count;
    record.per_iteration_mean_ci95 = ChunkedMeanInterval(chunk_means_, record.per_iteration_ns.mean,
                                                         readings, SdFloor(record, readings));
    record.per_iteration_sd_ci95 = timing::SdIntervalWithFloor(
        record.per_iteration_ns.sd, static_cast<double>(chunk_means_.size()) - 1,
        SdFloor(record, readings));
    return;
  }
  // One chunk: at most max_kept_intervals values, sorted for exact percentiles.
  auto per_trip = [&](const timing::Clock& clock, const std::vector<int64_t>& marks) {
    std::vector<double> values;
    values.reserve(last_chunk.marks - 1);
    ForEachPerTrip(clock, marks.data(), faulty_.data(), last_chunk.marks, last_chunk.closed,
                   record.batch, [&values](double ns) { values.push_back(ns); });
    return values;
  };
  auto exact = [&](const timing::Clock& clock, const std::vector<int64_t>& marks) {
    return timing::Summarize(per_trip(clock, marks));
  };
  const std::vector<double> values = per_trip(clock_, marks_);  // in time order
  record.per_iteration_ns = timing::Summarize(values);
  const int64_t readings = static_cast<int64_t>(values.size());
  record.per_iteration_mean_ci95 = timing::BatchMeansInterval(values, SdFloor(record, readings));
  record.per_iteration_sd_ci95 =
      timing::QuantizedSdInterval(values, record.resolution_ns / static_cast<double>(record.batch));
  record.per_iteration_p50_ci95 = timing::QuantileInterval(values, 0.5);
  record.per_iteration_p99_ci95 = timing::QuantileInterval(values, 0.99);
  if (reference_ != nullptr)
    record.reference_per_iteration_ns = exact(*reference_, reference_marks_);
}

}  // namespace tickbench::harness
