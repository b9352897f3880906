#include "harness/round_trip_engine.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "timing/os_clocks.h"
#include "transport/echo_peer.h"
#include "transport/message_pattern.h"
#include "transport/pipe_transport.h"
#include "transport/socket_endpoint.h"

namespace tickbench::harness {
namespace {

// The endpoint types the loop is specialised for, and their names for LoopEndpointKind.
// Calls `visit` with a value of EndpointType<E> for the concrete type E of `endpoint`, or
// EndpointType<transport::Endpoint> when it is none of them. SelectLoop and
// LoopEndpointKind both choose through here, so that a test of the one tests the other.
template <typename E>
struct EndpointType {
  using type = E;
  absl::string_view kind;
};

template <typename AnyEndpoint, typename Visit>
auto VisitEndpointType(AnyEndpoint& endpoint, Visit visit) {
  using transport::DatagramSocketEndpoint;
  using transport::StreamSocketEndpoint;
  if (dynamic_cast<const DatagramSocketEndpoint*>(&endpoint)) {
    return visit(EndpointType<DatagramSocketEndpoint>{"datagram_socket"});
  }
  if (dynamic_cast<const StreamSocketEndpoint*>(&endpoint)) {
    return visit(EndpointType<StreamSocketEndpoint>{"stream_socket"});
  }
  if (dynamic_cast<const transport::PipeEndpoint*>(&endpoint)) {
    return visit(EndpointType<transport::PipeEndpoint>{"pipe"});
  }
  // The simulation's endpoint (a class private to its .cc file), remote endpoints and any
  // other: a virtual call per Send() and Receive().
  return visit(EndpointType<transport::Endpoint>{"endpoint"});
}

// Calls `add` with each interval's reading per round trip, in ns, for one loop's `marks`.
// Interval j holds `batch` trips, except the last, which holds what remained.
template <typename Add>
void ForEachPerTrip(const timing::Clock& clock, const int64_t* marks, int64_t marks_written,
                    int64_t completed, int64_t batch, Add add) {
  const int64_t intervals = marks_written - 1;
  for (int64_t j = 0; j < intervals; ++j) {
    const int64_t trips = j + 1 < intervals ? batch : completed - (intervals - 1) * batch;
    add(clock.TicksToNanos(marks[j + 1] - marks[j]) / static_cast<double>(trips));
  }
}

int64_t IntervalsPerRun(const EngineOptions& options) {
  const int64_t batch = std::max<int64_t>(1, options.batch);
  return (options.iterations + batch - 1) / batch;
}

}  // namespace

RoundTripEngine::LoopFunction SelectLoop(transport::Endpoint& endpoint, timing::Clock& clock,
                                         timing::Clock* reference) {
  return VisitEndpointType(endpoint, [&](auto type) {
    return SelectLoopForEndpointType<typename decltype(type)::type>(clock, reference);
  });
}

absl::string_view LoopEndpointKind(const transport::Endpoint& endpoint) {
  return VisitEndpointType(endpoint, [](auto type) { return type.kind; });
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
      intervals_per_chunk_(std::min(IntervalsPerRun(options),
                                    std::max<int64_t>(1, options.max_kept_intervals))),
      chunked_(IntervalsPerRun(options) > intervals_per_chunk_),
      marks_(intervals_per_chunk_ + 1),
      reference_marks_(reference != nullptr ? marks_.size() : 0) {
  transport::FillPattern(absl::MakeSpan(send_buffer_));
}

RunRecord RoundTripEngine::MeasureRun(size_t size_bytes, int run) {
  RunRecord record;
  record.clock = clock_.info().spec;
  record.reference_clock = reference_ != nullptr ? reference_->info().spec : "";
  record.size_bytes = size_bytes;
  record.run = run;
  record.iterations = options_.iterations;
  record.batch = std::max<int64_t>(1, options_.batch);
  record.has_reference = reference_ != nullptr;

  // The pattern is laid once for the largest size; a smaller message is its prefix, and
  // only the sequence stamp changes from trip to trip.
  transport::FillPattern(absl::MakeSpan(send_buffer_.data(), size_bytes));
  LoopBuffers buffers{absl::MakeSpan(send_buffer_.data(), size_bytes),
                      absl::MakeSpan(receive_buffer_.data(), size_bytes), absl::MakeSpan(marks_),
                      absl::MakeSpan(reference_marks_)};

  absl::Status status = transport::SendBlockHeader(
      endpoint_, static_cast<uint32_t>(size_bytes),
      static_cast<uint32_t>(options_.warmup + options_.iterations));
  // Warm-up: not counted. The first trips after a size change fault in buffers and
  // wake the peer from a different state; they say little about the steady round trip.
  const int64_t warmup_start_ns = timing::MonotonicNanos();
  for (int64_t i = 0; status.ok() && i < options_.warmup; ++i) {
    status = RoundTrip(endpoint_, buffers, next_sequence_++, record.integrity);
    if (status.code() == absl::StatusCode::kDeadlineExceeded && options_.continue_on_loss) {
      status = absl::OkStatus();  // a lost warm-up trip costs nothing but its time
    }
  }
  record.integrity = IntegrityCounts{};  // only the timed trips' faults are reported
  if (status.ok() && options_.auto_receive_timeout && options_.warmup > 0) {
    const absl::Duration mean_rtt =
        absl::Nanoseconds((timing::MonotonicNanos() - warmup_start_ns) / options_.warmup);
    status = endpoint_.SetReceiveTimeout(std::clamp(1000 * mean_rtt, kMinAutoTimeout, kMaxAutoTimeout));
  }
  if (!status.ok()) {
    record.error = absl::StrFormat("during warm-up: %s", status.ToString());
    return record;
  }

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
  record.resolution_histogram.assign(std::max(1, options_.histogram_buckets), 0);
  int64_t reference_elapsed_ticks = 0;
  LoopOutcome chunk;
  do {
    const int64_t trips = std::min(trips_per_chunk, options_.iterations - record.completed);
    chunk = loop_(endpoint_, clock_, reference_, buffers, trips, record.batch,
                  next_sequence_ + record.completed, options_.continue_on_loss, record.integrity);
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
  const int64_t last = chunk.marks - 1;
  record.elapsed_ticks += marks_[last] - marks_[0];
  if (reference_ != nullptr) reference_elapsed_ticks += reference_marks_[last] - reference_marks_[0];

  const double resolution_ns = absl::ToDoubleNanoseconds(clock_.info().claimed_resolution);
  for (int64_t j = 0; j < last; ++j) {
    const double ticks = clock_.TicksToNanos(marks_[j + 1] - marks_[j]) / resolution_ns;
    const int64_t bucket = std::min<int64_t>(std::llround(std::max(0.0, ticks)),
                                             record.resolution_histogram.size() - 1);
    ++record.resolution_histogram[bucket];
  }

  if (!chunked_) return;  // one chunk: Summarize reads its kept marks exactly
  ForEachPerTrip(clock_, marks_.data(), chunk.marks, chunk.completed, record.batch,
                 [this](double ns) { clock_summary_.Add(ns); });
  if (reference_ != nullptr) {
    ForEachPerTrip(*reference_, reference_marks_.data(), chunk.marks, chunk.completed,
                   record.batch, [this](double ns) { reference_summary_.Add(ns); });
  }
}

void RoundTripEngine::Summarize(const LoopOutcome& last_chunk, int64_t reference_elapsed_ticks,
                                RunRecord& record) {
  if (!chunked_) {
    record.clock_marks.assign(marks_.begin(), marks_.begin() + last_chunk.marks);
    if (reference_ != nullptr) {
      record.reference_marks.assign(reference_marks_.begin(),
                                    reference_marks_.begin() + last_chunk.marks);
    }
  }
  if (record.completed == 0) return;

  const double trips = static_cast<double>(record.completed);
  record.averaged_rtt_ns = clock_.TicksToNanos(record.elapsed_ticks) / trips;
  record.throughput_bytes_per_s =
      record.averaged_rtt_ns > 0 ? 2.0 * record.size_bytes * 1e9 / record.averaged_rtt_ns
                                 : std::numeric_limits<double>::infinity();
  if (reference_ != nullptr) {
    record.reference_averaged_rtt_ns = reference_->TicksToNanos(reference_elapsed_ticks) / trips;
  }

  if (chunked_) {
    record.per_iteration_ns = clock_summary_.ToSummary();
    if (reference_ != nullptr) record.reference_per_iteration_ns = reference_summary_.ToSummary();
    return;
  }
  // One chunk: at most max_kept_intervals values, sorted for exact percentiles.
  auto exact = [&](const timing::Clock& clock, const std::vector<int64_t>& marks) {
    std::vector<double> values;
    values.reserve(last_chunk.marks - 1);
    ForEachPerTrip(clock, marks.data(), last_chunk.marks, last_chunk.completed, record.batch,
                   [&values](double ns) { values.push_back(ns); });
    return timing::Summarize(values);
  };
  record.per_iteration_ns = exact(clock_, marks_);
  if (reference_ != nullptr) record.reference_per_iteration_ns = exact(*reference_, reference_marks_);
}

}  // namespace tickbench::harness
