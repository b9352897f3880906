#include "harness/round_trip_engine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/strings/str_format.h"
#include "timing/cycle_clock.h"
#include "timing/os_clocks.h"
#include "timing/tick_clock.h"
#include "timing/virtual_clock.h"
#include "transport/echo_peer.h"
#include "transport/message_pattern.h"

namespace tickbench::harness {
namespace {

template <typename C, typename R>
LoopOutcome LoopFor(transport::Endpoint& endpoint, timing::Clock& clock, timing::Clock* reference,
                    const LoopBuffers& buffers, int64_t iterations, int64_t batch,
                    uint64_t first_sequence, bool continue_on_loss, IntegrityCounts& integrity) {
  C& concrete = static_cast<C&>(clock);
  if constexpr (std::is_void_v<R>) {
    return TimedLoop(endpoint, concrete, NoReferenceClock{}, buffers, iterations, batch,
                     first_sequence, continue_on_loss, integrity);
  } else {
    return TimedLoop(endpoint, concrete, ReferenceClock<R>{static_cast<R*>(reference)}, buffers,
                     iterations, batch, first_sequence, continue_on_loss, integrity);
  }
}

template <typename C>
RoundTripEngine::LoopFunction ForReference(timing::Clock* reference) {
  if (reference == nullptr) return &LoopFor<C, void>;
  if (dynamic_cast<timing::CycleClock*>(reference)) return &LoopFor<C, timing::CycleClock>;
  if (dynamic_cast<timing::ClockGettimeClock*>(reference)) {
    return &LoopFor<C, timing::ClockGettimeClock>;
  }
  return &LoopFor<C, timing::Clock>;
}

}  // namespace

RoundTripEngine::LoopFunction SelectLoop(timing::Clock& clock, timing::Clock* reference) {
  if (dynamic_cast<timing::CycleClock*>(&clock)) return ForReference<timing::CycleClock>(reference);
  if (dynamic_cast<timing::ClockGettimeClock*>(&clock)) {
    return ForReference<timing::ClockGettimeClock>(reference);
  }
  if (dynamic_cast<timing::GettimeofdayClock*>(&clock)) {
    return ForReference<timing::GettimeofdayClock>(reference);
  }
  if (dynamic_cast<timing::VirtualClock*>(&clock)) return ForReference<timing::VirtualClock>(reference);
  // Tick clocks and any other: a virtual call per read, which only simulated clocks take.
  return ForReference<timing::Clock>(reference);
}

RoundTripEngine::RoundTripEngine(transport::Endpoint& endpoint, timing::Clock& clock,
                                 timing::Clock* reference, size_t max_size_bytes,
                                 const EngineOptions& options)
    : endpoint_(endpoint),
      clock_(clock),
      reference_(reference),
      options_(options),
      loop_(SelectLoop(clock, reference)),
      send_buffer_(max_size_bytes),
      receive_buffer_(max_size_bytes),
      marks_(options.iterations / std::max<int64_t>(1, options.batch) + 2),
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
  const LoopOutcome outcome = loop_(endpoint_, clock_, reference_, buffers, options_.iterations,
                                    record.batch, next_sequence_, options_.continue_on_loss,
                                    record.integrity);
  next_sequence_ += options_.iterations;
  if (!outcome.status.ok()) {
    record.error = absl::StrFormat("at timed round trip %d of %d: %s", outcome.completed + 1,
                                   options_.iterations, outcome.status.ToString());
  }
  Summarize(outcome, record);
  return record;
}

void RoundTripEngine::Summarize(const LoopOutcome& outcome, RunRecord& record) const {
  record.completed = outcome.completed;
  record.clock_marks.assign(marks_.begin(), marks_.begin() + outcome.marks);
  if (reference_ != nullptr) {
    record.reference_marks.assign(reference_marks_.begin(), reference_marks_.begin() + outcome.marks);
  }
  if (outcome.marks < 2 || outcome.completed == 0) return;

  // Interval j holds `batch` trips, except the last, which holds what remained.
  const int64_t intervals = outcome.marks - 1;
  auto trips_in = [&](int64_t j) {
    return j + 1 < intervals ? record.batch : outcome.completed - (intervals - 1) * record.batch;
  };
  auto per_trip_ns = [&](const timing::Clock& clock, const std::vector<int64_t>& marks) {
    std::vector<double> values(intervals);
    for (int64_t j = 0; j < intervals; ++j) {
      values[j] = clock.TicksToNanos(marks[j + 1] - marks[j]) / static_cast<double>(trips_in(j));
    }
    return values;
  };

  const double trips = static_cast<double>(outcome.completed);
  record.elapsed_ticks = record.clock_marks.back() - record.clock_marks.front();
  record.averaged_rtt_ns = clock_.TicksToNanos(record.elapsed_ticks) / trips;
  record.throughput_bytes_per_s =
      record.averaged_rtt_ns > 0 ? 2.0 * record.size_bytes * 1e9 / record.averaged_rtt_ns
                                 : std::numeric_limits<double>::infinity();
  record.per_iteration_ns = timing::Summarize(per_trip_ns(clock_, record.clock_marks));

  const double resolution_ns = absl::ToDoubleNanoseconds(clock_.info().claimed_resolution);
  record.resolution_histogram.assign(std::max(1, options_.histogram_buckets), 0);
  for (int64_t j = 0; j < intervals; ++j) {
    const double ticks =
        clock_.TicksToNanos(record.clock_marks[j + 1] - record.clock_marks[j]) / resolution_ns;
    const int64_t bucket = std::min<int64_t>(std::llround(std::max(0.0, ticks)),
                                             record.resolution_histogram.size() - 1);
    ++record.resolution_histogram[bucket];
  }

  if (reference_ != nullptr) {
    record.reference_averaged_rtt_ns =
        reference_->TicksToNanos(record.reference_marks.back() - record.reference_marks.front()) / trips;
    record.reference_per_iteration_ns = timing::Summarize(per_trip_ns(*reference_, record.reference_marks));
  }
}

}  // namespace tickbench::harness
