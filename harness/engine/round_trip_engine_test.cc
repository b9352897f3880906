// The engine's figures, exact: a simulated transport in virtual time, read by virtual and
// simulated tick clocks, leaves no room for noise.
#include "harness/engine/round_trip_engine.h"

#include <cmath>
#include <functional>

#include "gtest/gtest.h"
#include "timing/clocks/tick_clock.h"
#include "timing/clocks/virtual_clock.h"
#include "timing/stats/confidence.h"
#include "timing/stats/log_histogram.h"
#include "transport/sim/sim_transport.h"

namespace tickbench::harness {
namespace {

struct Simulation {
  explicit Simulation(transport::SimRttModel model, transport::SimFaults faults = {})
      : transport(
            model, [this](int64_t ns) { time.AdvanceNanos(ns); }, faults) {
    auto made = transport.Connect();
    EXPECT_TRUE(made.ok());
    pair = std::move(*made);
    EXPECT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  }
  timing::VirtualClock time;
  transport::SimTransport transport;
  transport::EndpointPair pair;
};

transport::SimRttModel FixedRtt(absl::Duration fixed, double per_byte_ns = 0) {
  transport::SimRttModel model;
  model.fixed = fixed;
  model.per_byte_ns = per_byte_ns;
  return model;
}

TEST(RoundTripEngineTest, VirtualClockFiguresAreExact) {
  Simulation sim(FixedRtt(absl::Microseconds(10), 1.0));
  timing::VirtualClock& clock = sim.time;
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 10;
  RoundTripEngine engine(*sim.pair.client, clock, &clock, 4096, options);
  const RunRecord r = engine.MeasureRun(100, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.completed, 1000);
  EXPECT_EQ(r.elapsed_ticks, 1000 * 10'100);
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'100);
  EXPECT_DOUBLE_EQ(r.throughput_bytes_per_s, 200 / 10.1e-6);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.mean, 10'100);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.sd, 0);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.min, 10'100);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 10'100);
  EXPECT_EQ(r.per_iteration_ns.zero_fraction, 0);
  EXPECT_EQ(r.per_iteration_ns.count, 1000);
  EXPECT_DOUBLE_EQ(r.reference_averaged_rtt_ns, 10'100);
  EXPECT_EQ(r.integrity.total(), 0);
  // Virtual time moved by exactly the warm-up and the timed trips.
  EXPECT_EQ(sim.time.now_ns(), 1010 * 10'100);
}

TEST(RoundTripEngineTest, TickClockReadsWholeTicksAndAveragesToTheTruth) {
  // d = 1.3 ms, T = 10 ms, phase 0. Warm-up ends at 13 ticks exactly; 1000 trips end at
  // 143: the averaged figure is exact, and 130 of the 1000 readings are one tick.
  Simulation sim(FixedRtt(absl::Microseconds(1300)));
  timing::TickClockOptions tick_options;
  tick_options.random_phase = false;
  auto tick = timing::TickClock::Create(tick_options, &sim.time);
  ASSERT_TRUE(tick.ok());
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 100;
  RoundTripEngine engine(*sim.pair.client, **tick, &sim.time, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 1.3e6);
  EXPECT_DOUBLE_EQ(r.reference_averaged_rtt_ns, 1.3e6);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.zero_fraction, 0.87);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.mean, 1.3e6);  // telescoping: equals the averaged
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.p50, 0);       // the median lands on 0: biased
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 1e7);
  EXPECT_NEAR(r.per_iteration_ns.sd, 1e7 * std::sqrt(0.13 * 0.87), 1e7 * 0.001);
  EXPECT_GT(r.per_iteration_ns.sd, r.per_iteration_ns.mean);  // d < T/2: SD above the mean
  ASSERT_GE(r.resolution_histogram.size(), 2u);
  EXPECT_EQ(r.resolution_histogram[0], 870);
  EXPECT_EQ(r.resolution_histogram[1], 130);
  EXPECT_DOUBLE_EQ(r.reference_per_iteration_ns.sd, 0);
  // T/N = 10 us is 0.77% of the RTT: resolved; 100 T/d = 769.2 -> 770 round trips.
  EXPECT_DOUBLE_EQ(r.resolution_ns, 1e7);
  EXPECT_DOUBLE_EQ(r.quantum_ns, 1e4);
  EXPECT_FALSE(r.averaged_unresolved);
  EXPECT_EQ(r.round_trips_to_resolve, 770);
  EXPECT_TRUE(r.throughput_note.empty());
}

TEST(RoundTripEngineTest, AnUnresolvedRunSaysHowManyRoundTripsAndWhyThereIsNoThroughput) {
  // d = 10 us, T = 10 ms, N = 100 from phase 0 (after a warm-up of 1 trip): the loop
  // reads 0 ticks. T/N = 100 us is 1000% of the RTT; throughput cannot be computed.
  Simulation sim(FixedRtt(absl::Microseconds(10)));
  timing::TickClockOptions tick_options;
  tick_options.random_phase = false;
  auto tick = timing::TickClock::Create(tick_options, &sim.time);
  ASSERT_TRUE(tick.ok());
  EngineOptions options;
  options.iterations = 100;
  options.warmup = 1;
  RoundTripEngine engine(*sim.pair.client, **tick, &sim.time, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_EQ(r.averaged_rtt_ns, 0);
  EXPECT_TRUE(std::isinf(r.throughput_bytes_per_s));
  EXPECT_TRUE(r.averaged_unresolved);
  EXPECT_DOUBLE_EQ(r.quantum_ns, 1e5);
  EXPECT_EQ(r.round_trips_to_resolve, 100000);  // from the reference's 10 us
  EXPECT_NE(r.throughput_note.find("read the whole loop as 0"), std::string::npos)
      << r.throughput_note;
}

TEST(RoundTripEngineTest, BatchesDivideEachReadingByTheirSize) {
  Simulation sim(FixedRtt(absl::Microseconds(5)));
  EngineOptions options;
  options.iterations = 1005;
  options.warmup = 0;
  options.batch = 10;  // 100 full batches and a last one of 5
  RoundTripEngine engine(*sim.pair.client, sim.time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(32, 1);
  EXPECT_EQ(r.per_iteration_ns.count, 101);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.mean, 5000);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.sd, 0);
  EXPECT_EQ(r.clock_marks.size(), 102u);
  EXPECT_FALSE(r.has_reference);
}

TEST(RoundTripEngineTest, LostEchoesAreCountedAndNeverTimed) {
  // Every 100th echo is lost, and a loss costs the 50 ms receive timeout in virtual time:
  // none of that may reach a figure. The 10 lost trips' intervals are cut out.
  transport::SimFaults faults;
  faults.drop_every_kth = 100;
  Simulation sim(FixedRtt(absl::Microseconds(10)), faults);
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 0;
  options.receive_timeout = absl::Milliseconds(50);
  RoundTripEngine engine(*sim.pair.client, sim.time, &sim.time, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.integrity.lost, 10);
  EXPECT_EQ(r.completed, 1000);
  EXPECT_TRUE(r.valid());
  // The trip after each loss (9: the last loss is the last trip) is left out too.
  EXPECT_EQ(r.integrity.after_fault, 9);
  EXPECT_EQ(r.timed_trips, 981);
  EXPECT_EQ(r.excluded_trips, 19);
  EXPECT_EQ(r.fault_segments, 10);  // trips 1-99, 102-199, ..., 902-999
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000);
  EXPECT_DOUBLE_EQ(r.reference_averaged_rtt_ns, 10'000);
  EXPECT_EQ(r.per_iteration_ns.count, 981);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 10'000);
  int64_t histogram_total = 0;
  for (int64_t count : r.resolution_histogram) histogram_total += count;
  EXPECT_EQ(histogram_total, 981);
}

// A datagram endpoint whose first round trip after a lost echo is slow, as a real one's
// is (caches and the peer's wake-up gone cold during the timeout): its echo arrives
// `extra` later in virtual time.
class ColdAfterLossEndpoint final : public transport::Endpoint {
 public:
  ColdAfterLossEndpoint(transport::Endpoint& inner, timing::VirtualClock& time,
                        absl::Duration extra)
      : inner_(inner), time_(time), extra_(extra) {}
  absl::Status Send(absl::Span<const char> message) override { return inner_.Send(message); }
  absl::Status Receive(absl::Span<char> buffer) override {
    absl::Status status = inner_.Receive(buffer);
    if (absl::IsDeadlineExceeded(status)) {
      cold_ = true;
    } else if (status.ok() && cold_) {
      time_.AdvanceNanos(absl::ToInt64Nanoseconds(extra_));
      cold_ = false;
    }
    return status;
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override {
    return inner_.SetReceiveTimeout(timeout);
  }
  bool keeps_boundaries() const override { return inner_.keeps_boundaries(); }
  bool may_lose() const override { return inner_.may_lose(); }
  size_t max_message_size() const override { return inner_.max_message_size(); }

 private:
  transport::Endpoint& inner_;
  timing::VirtualClock& time_;
  absl::Duration extra_;
  bool cold_ = false;
};

TEST(RoundTripEngineTest, TheRoundTripAfterALossIsLeftOutAndCounted) {
  // Every 100th echo is lost (10 of 1000) and the round trip after each takes 200 us more:
  // the 9 of them (the last loss is the last trip) are left out as a warm-up's would be,
  // counted, and no figure holds their 200 us.
  for (const int64_t batch : {int64_t{1}, int64_t{10}}) {
    transport::SimFaults faults;
    faults.drop_every_kth = 100;
    Simulation sim(FixedRtt(absl::Microseconds(10)), faults);
    ColdAfterLossEndpoint endpoint(*sim.pair.client, sim.time, absl::Microseconds(200));
    EngineOptions options;
    options.iterations = 1000;
    options.warmup = 0;
    options.batch = batch;
    options.receive_timeout = absl::Milliseconds(50);
    RoundTripEngine engine(endpoint, sim.time, &sim.time, 64, options);
    const RunRecord r = engine.MeasureRun(64, 1);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.integrity.lost, 10) << batch;
    EXPECT_EQ(r.integrity.after_fault, 9) << batch;
    EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000) << batch;
    EXPECT_DOUBLE_EQ(r.reference_averaged_rtt_ns, 10'000) << batch;
    EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 10'000) << batch;
    EXPECT_EQ(r.timed_trips + r.excluded_trips, 1000) << batch;
    if (batch == 1) {
      EXPECT_EQ(r.timed_trips, 981);
      EXPECT_EQ(r.per_iteration_ns.count, 981);
    }
  }
}

TEST(RoundTripEngineTest, ALossInTheOnlyIntervalLeavesNoFigure) {
  // --batch equal to --iterations: one interval, the averaged case alone. A loss in it
  // leaves nothing to time: the run is invalid, and its averaged figure is not made up.
  transport::SimFaults faults;
  faults.drop_every_kth = 500;
  Simulation sim(FixedRtt(absl::Microseconds(10)), faults);
  EngineOptions options;
  options.iterations = 1000;
  options.batch = 1000;
  options.warmup = 0;
  RoundTripEngine engine(*sim.pair.client, sim.time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.integrity.lost, 2);
  EXPECT_EQ(r.timed_trips, 0);
  EXPECT_EQ(r.excluded_trips, 1000);
  // No figure: NaN, never 0 (harness/engine/no_figure.h).
  EXPECT_TRUE(std::isnan(r.averaged_rtt_ns)) << r.averaged_rtt_ns;
  EXPECT_TRUE(std::isnan(r.per_iteration_ns.mean)) << r.per_iteration_ns.mean;
  EXPECT_TRUE(std::isnan(r.per_iteration_ns.p50)) << r.per_iteration_ns.p50;
  EXPECT_EQ(r.per_iteration_ns.count, 0);
}

TEST(RoundTripEngineTest, ASilentPeerEndsTheWarmUpAfterThreeLosses) {
  transport::SimFaults faults;
  faults.drop_every_kth = 1;  // no echo ever
  Simulation sim(FixedRtt(absl::Microseconds(10)), faults);
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 100;
  RoundTripEngine engine(*sim.pair.client, sim.time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.warmup_lost, kWarmupSilentLimit);
  EXPECT_EQ(r.completed, 0);
  EXPECT_NE(r.invalid_reason.find("does not answer"), std::string::npos) << r.invalid_reason;
}

TEST(RoundTripEngineTest, TheTimeoutComesFromTheWarmUpsMedianNotItsMean) {
  // 1 ms round trips; two warm-up datagrams lost at the 1 s warm-up timeout. The mean of
  // the warm-up would be 21 ms (a 10 s timeout after the clamp); the median is 1 ms.
  transport::SimFaults faults;
  faults.drop_every_kth = 50;
  Simulation sim(FixedRtt(absl::Milliseconds(1)), faults);
  EngineOptions options;
  options.iterations = 10;
  options.warmup = 100;
  options.receive_timeout = absl::Seconds(1);
  options.auto_receive_timeout = true;
  RoundTripEngine engine(*sim.pair.client, sim.time, &sim.time, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_TRUE(r.valid());
  EXPECT_EQ(r.warmup_lost, 2);
  EXPECT_EQ(r.receive_timeout_ns, 1'000'000'000);  // 1000 x 1 ms
}

// A byte-stream endpoint whose echo stops coming after `answered` trips: the timeout.
class SilentStreamEndpoint final : public transport::Endpoint {
 public:
  explicit SilentStreamEndpoint(int answered) : answered_(answered) {}
  absl::Status Send(absl::Span<const char> message) override {
    last_.assign(message.begin(), message.end());
    return absl::OkStatus();
  }
  absl::Status Receive(absl::Span<char> buffer) override {
    if (received_++ >= answered_) return absl::DeadlineExceededError("receive timeout expired");
    std::copy(last_.begin(), last_.end(), buffer.begin());
    return absl::OkStatus();
  }
  absl::Status SetReceiveTimeout(absl::Duration) override { return absl::OkStatus(); }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return 1 << 20; }

 private:
  int answered_;
  int received_ = 0;
  std::vector<char> last_;
};

TEST(RoundTripEngineTest, OnAByteStreamAMissingEchoEndsTheRun) {
  SilentStreamEndpoint endpoint(/*answered=*/10 + 5);  // the warm-up, then 5 timed trips
  timing::VirtualClock time;
  EngineOptions options;
  options.iterations = 100;
  options.warmup = 10;
  RoundTripEngine engine(endpoint, time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_NE(r.error.find("round trip 6 of 100"), std::string::npos) << r.error;
  EXPECT_EQ(r.integrity.lost, 0);  // a fault, not a loss
  EXPECT_EQ(r.completed, 5);
}

TEST(RoundTripEngineTest, APeerGoneEndsTheRunKeepingWhatWasMeasured) {
  transport::SimFaults faults;
  faults.stop_after = 510;  // 10 warm-up trips, then 500 timed ones
  Simulation sim(FixedRtt(absl::Microseconds(10)), faults);
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 10;
  RoundTripEngine engine(*sim.pair.client, sim.time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 3);
  EXPECT_EQ(r.completed, 500);
  EXPECT_NE(r.error.find("round trip 501 of 1000"), std::string::npos) << r.error;
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000);
  EXPECT_EQ(r.per_iteration_ns.count, 500);
}

// A datagram endpoint whose echo stops coming after `answered` trips, as a peer stopped
// by SIGSTOP: every later receive times out. Counts the receives.
class SilentDatagramEndpoint final : public transport::Endpoint {
 public:
  explicit SilentDatagramEndpoint(int64_t answered) : answered_(answered) {}
  absl::Status Send(absl::Span<const char> message) override {
    last_.assign(message.begin(), message.end());
    return absl::OkStatus();
  }
  absl::Status Receive(absl::Span<char> buffer) override {
    if (receives_++ >= answered_) return absl::DeadlineExceededError("receive timeout expired");
    std::copy(last_.begin(), last_.end(), buffer.begin());
    return absl::OkStatus();
  }
  absl::Status SetReceiveTimeout(absl::Duration) override { return absl::OkStatus(); }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  size_t max_message_size() const override { return 1 << 20; }
  int64_t receives() const { return receives_; }

 private:
  int64_t answered_;
  int64_t receives_ = 0;
  std::vector<char> last_;
};

TEST(RoundTripEngineTest, ADatagramPeerSilentAfterTheWarmUpEndsTheRunAfterEightLosses) {
  // The warm-up and 50 timed trips answered, then silence: without a bound the run would
  // wait out 99'950 receive timeouts (7 hours at 250 ms).
  SilentDatagramEndpoint endpoint(/*answered=*/10 + 50);
  timing::VirtualClock time;
  EngineOptions options;
  options.iterations = 100'000;
  options.warmup = 10;
  RoundTripEngine engine(endpoint, time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_NE(r.error.find("at timed round trip 58 of 100000"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("8 round trips in a row"), std::string::npos) << r.error;
  EXPECT_EQ(kMaxConsecutiveLosses, 8);
  EXPECT_EQ(endpoint.receives(), 10 + 50 + kMaxConsecutiveLosses);
  EXPECT_EQ(r.integrity.lost, kMaxConsecutiveLosses);
  EXPECT_EQ(r.completed, 57);  // the 50 answered and 7 lost; the 8th ended the run
  EXPECT_EQ(r.timed_trips, 50);
  EXPECT_TRUE(r.valid()) << "what was measured before the silence is kept";
}

TEST(RoundTripEngineTest, SilenceInsideABatchIsGivenUpOnToo) {
  // Batches of 1000: the losses fall inside one interval, finished outside the loop.
  SilentDatagramEndpoint endpoint(/*answered=*/2500);
  timing::VirtualClock time;
  EngineOptions options;
  options.iterations = 100'000;
  options.warmup = 0;
  options.batch = 1000;
  options.max_consecutive_losses = 3;
  RoundTripEngine engine(endpoint, time, nullptr, 64, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_NE(r.error.find("at timed round trip 2503 of 100000"), std::string::npos) << r.error;
  EXPECT_EQ(endpoint.receives(), 2503);
  EXPECT_EQ(r.integrity.lost, 3);
  EXPECT_EQ(r.timed_trips, 2000);
  EXPECT_EQ(r.clock_marks.size(), 3u);
}

TEST(RoundTripEngineTest, LossesInsideBatchesCutOutWholeBatchesOnly) {
  // Every 95th echo lost, each inside a batch of 10 (95, 190, ...): 10 batches cut out,
  // and 5 more, after the losses that ended their batch (190, 380, ...): the first trip
  // after a loss is left out with its batch. The readings stay on the batch boundaries,
  // the last batch of 5 included.
  transport::SimFaults faults;
  faults.drop_every_kth = 95;
  Simulation sim(FixedRtt(absl::Microseconds(5)), faults);
  EngineOptions options;
  options.iterations = 1005;
  options.warmup = 0;
  options.batch = 10;
  RoundTripEngine engine(*sim.pair.client, sim.time, &sim.time, 64, options);
  const RunRecord r = engine.MeasureRun(32, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.integrity.lost, 10);
  EXPECT_EQ(r.completed, 1005);
  EXPECT_EQ(r.clock_marks.size(), 102u);
  EXPECT_EQ(r.integrity.after_fault, 10);
  EXPECT_EQ(r.excluded_trips, 150);
  EXPECT_EQ(r.timed_trips, 855);
  EXPECT_EQ(r.per_iteration_ns.count, 86);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 5000);
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 5000);
  EXPECT_DOUBLE_EQ(r.reference_averaged_rtt_ns, 5000);
}

// Chunked runs (more intervals than max_kept_intervals) against the same run kept whole.

// One run of `size_bytes` in a fresh simulation, timed by virtual time, or by a 10 ms
// tick over it with `tick`; the reference is virtual time.
RunRecord SimulatedRun(transport::SimRttModel model, const EngineOptions& options,
                       size_t size_bytes, bool tick = false, transport::SimFaults faults = {}) {
  Simulation sim(model, faults);
  timing::TickClockOptions tick_options;
  tick_options.random_phase = false;
  auto tick_clock = timing::TickClock::Create(tick_options, &sim.time);
  EXPECT_TRUE(tick_clock.ok());
  timing::Clock& clock = tick ? static_cast<timing::Clock&>(**tick_clock) : sim.time;
  RoundTripEngine engine(*sim.pair.client, clock, &sim.time, size_bytes, options);
  EXPECT_EQ(engine.chunked(), options.max_kept_intervals < options.iterations / options.batch);
  return engine.MeasureRun(size_bytes, 1);
}

void ExpectWithinHistogramPrecision(double folded, double exact) {
  EXPECT_LE(std::abs(folded - exact), timing::LogHistogram::kRelativePrecision * std::abs(exact))
      << folded << " vs " << exact;
}

// Equal moments, count, extremes and zero share; percentiles within the histogram's
// precision.
void ExpectSameSummary(const timing::Summary& folded, const timing::Summary& exact) {
  EXPECT_EQ(folded.count, exact.count);
  EXPECT_EQ(folded.mean, exact.mean);
  EXPECT_EQ(folded.sd, exact.sd);
  EXPECT_EQ(folded.min, exact.min);
  EXPECT_EQ(folded.max, exact.max);
  EXPECT_EQ(folded.zero_fraction, exact.zero_fraction);
  ExpectWithinHistogramPrecision(folded.p50, exact.p50);
  ExpectWithinHistogramPrecision(folded.p90, exact.p90);
  ExpectWithinHistogramPrecision(folded.p99, exact.p99);
}

transport::SimRttModel JitteredRtt() {
  transport::SimRttModel model = FixedRtt(absl::Microseconds(10), 1.0);
  model.jitter = transport::JitterKind::kExponential;  // a tail, for p99 to differ from p50
  model.jitter_scale = absl::Microseconds(3);
  model.seed = 11;
  return model;
}

TEST(RoundTripEngineChunkTest, ChunkedRunGivesTheKeptRunsFigures) {
  EngineOptions options;
  options.iterations = 10'000;
  options.warmup = 10;
  const RunRecord kept = SimulatedRun(JitteredRtt(), options, 100);
  options.max_kept_intervals = 1000;  // 10 chunks
  const RunRecord chunked = SimulatedRun(JitteredRtt(), options, 100);
  ASSERT_TRUE(chunked.error.empty()) << chunked.error;
  EXPECT_EQ(chunked.completed, 10'000);
  EXPECT_EQ(chunked.elapsed_ticks, kept.elapsed_ticks);
  EXPECT_EQ(chunked.averaged_rtt_ns, kept.averaged_rtt_ns);
  EXPECT_EQ(chunked.reference_averaged_rtt_ns, kept.reference_averaged_rtt_ns);
  EXPECT_GT(kept.per_iteration_ns.p99, 1.5 * kept.per_iteration_ns.p50);
  ExpectSameSummary(chunked.per_iteration_ns, kept.per_iteration_ns);
  ExpectSameSummary(chunked.reference_per_iteration_ns, kept.reference_per_iteration_ns);
  EXPECT_EQ(chunked.resolution_histogram, kept.resolution_histogram);
  // Only the kept run holds its readings.
  EXPECT_EQ(kept.clock_marks.size(), 10'001u);
  EXPECT_TRUE(chunked.clock_marks.empty());
  EXPECT_TRUE(chunked.reference_marks.empty());
}

// Per-iteration intervals: the jittered RTT is 10.1 us + Exp(3 us), so the mean is 13.1 us,
// the median 10.1 + 3 ln 2 = 12.18 us and p99 10.1 + 3 ln 100 = 23.92 us. A kept run's
// intervals hold them (a fixed seed: the same values every time); a chunked run has the
// mean's, one batch per chunk, and no quantile's (its readings are not kept).
TEST(RoundTripEngineChunkTest, PerIterationIntervalsHoldTheTruth) {
  EngineOptions options;
  options.iterations = 10'000;
  options.warmup = 10;
  const RunRecord kept = SimulatedRun(JitteredRtt(), options, 100);
  ASSERT_TRUE(kept.per_iteration_mean_ci95.valid);
  EXPECT_EQ(kept.per_iteration_mean_ci95.estimate, kept.per_iteration_ns.mean);
  EXPECT_EQ(kept.per_iteration_mean_ci95.degrees_of_freedom, timing::kDefaultBatches - 1);
  EXPECT_TRUE(kept.per_iteration_mean_ci95.Contains(13'100)) << kept.per_iteration_mean_ci95.low;
  EXPECT_LT(kept.per_iteration_mean_ci95.half_width(), 200);  // 3 us / sqrt(10^4) x ~2
  EXPECT_TRUE(kept.per_iteration_p50_ci95.Contains(10'100 + 3'000 * std::log(2.0)));
  EXPECT_EQ(kept.per_iteration_p50_ci95.estimate, kept.per_iteration_ns.p50);
  EXPECT_TRUE(kept.per_iteration_p99_ci95.Contains(10'100 + 3'000 * std::log(100.0)));
  EXPECT_GT(kept.per_iteration_p99_ci95.half_width(), kept.per_iteration_p50_ci95.half_width());
  // The SD of Exp(3 us) is 3 us; an exponential's heavy tail leaves fewer degrees of
  // freedom than the 9999 of normal readings.
  EXPECT_NEAR(kept.per_iteration_sd_ci95.estimate, kept.per_iteration_ns.sd, 1e-6);
  EXPECT_TRUE(kept.per_iteration_sd_ci95.Contains(3'000)) << kept.per_iteration_sd_ci95.low;
  EXPECT_LT(kept.per_iteration_sd_ci95.degrees_of_freedom, 9'999);
  EXPECT_LT(kept.per_iteration_sd_ci95.half_width(), 0.1 * kept.per_iteration_ns.sd);

  options.max_kept_intervals = 1000;  // 10 chunks
  const RunRecord chunked = SimulatedRun(JitteredRtt(), options, 100);
  ASSERT_TRUE(chunked.per_iteration_mean_ci95.valid);
  EXPECT_EQ(chunked.per_iteration_mean_ci95.degrees_of_freedom, 9);
  EXPECT_EQ(chunked.per_iteration_mean_ci95.estimate, kept.per_iteration_ns.mean);
  EXPECT_TRUE(chunked.per_iteration_mean_ci95.Contains(13'100));
  EXPECT_EQ(chunked.per_iteration_sd_ci95.degrees_of_freedom, 9);
  EXPECT_TRUE(chunked.per_iteration_sd_ci95.Contains(3'000));
  EXPECT_FALSE(chunked.per_iteration_p50_ci95.valid);
  EXPECT_FALSE(chunked.per_iteration_p99_ci95.valid);
}

// Every reading the same 10.1 us on a 1 ns clock: the sample SD is 0, but the mean's
// interval keeps the width the clock's grid allows (QuantizedSdFloor), never a point.
TEST(RoundTripEngineTest, AConstantReadingsMeanIntervalKeepsTheQuantizationFloor) {
  Simulation sim(FixedRtt(absl::Microseconds(10), 1.0));
  EngineOptions options;
  options.iterations = 1000;
  options.warmup = 10;
  RoundTripEngine engine(*sim.pair.client, sim.time, nullptr, 4096, options);
  const RunRecord r = engine.MeasureRun(100, 1);
  ASSERT_TRUE(r.per_iteration_mean_ci95.valid);
  EXPECT_TRUE(r.per_iteration_mean_ci95.floored);
  EXPECT_GT(r.per_iteration_mean_ci95.half_width(), 0);
  EXPECT_LT(r.per_iteration_mean_ci95.half_width(), 1);
  EXPECT_TRUE(r.per_iteration_mean_ci95.Contains(10'100));
  // The SD's interval: [0, the floor], never the point 0.
  EXPECT_EQ(r.per_iteration_sd_ci95.low, 0);
  EXPECT_TRUE(r.per_iteration_sd_ci95.floored);
  EXPECT_GT(r.per_iteration_sd_ci95.high, 0);
  EXPECT_LT(r.per_iteration_sd_ci95.high, 1);
  EXPECT_EQ(r.per_iteration_p50_ci95.low, 10'100);
  EXPECT_EQ(r.per_iteration_p50_ci95.high, 10'100);
}

TEST(RoundTripEngineChunkTest, ChunkedTickReadingsKeepTheirZeroShareAndTruth) {
  // As TickClockReadsWholeTicksAndAveragesToTheTruth, over 10 chunks: d = 1.3 ms, T = 10 ms.
  EngineOptions options;
  options.iterations = 10'000;
  options.warmup = 100;
  const RunRecord kept = SimulatedRun(FixedRtt(absl::Microseconds(1300)), options, 64, true);
  options.max_kept_intervals = 1000;
  const RunRecord chunked = SimulatedRun(FixedRtt(absl::Microseconds(1300)), options, 64, true);
  EXPECT_DOUBLE_EQ(chunked.averaged_rtt_ns, 1.3e6);
  EXPECT_EQ(chunked.averaged_rtt_ns, kept.averaged_rtt_ns);
  EXPECT_DOUBLE_EQ(chunked.per_iteration_ns.zero_fraction, 0.87);
  EXPECT_EQ(chunked.per_iteration_ns.p50, 0);  // still exactly 0, not a bucket's midpoint
  ExpectSameSummary(chunked.per_iteration_ns, kept.per_iteration_ns);
  EXPECT_EQ(chunked.resolution_histogram, kept.resolution_histogram);
}

TEST(RoundTripEngineChunkTest, ChunksAreWholeBatchesAndTheLastBatchMayBePartial) {
  EngineOptions options;
  options.iterations = 10'005;
  options.warmup = 0;
  options.batch = 10;  // 1000 full batches and a last one of 5
  const RunRecord kept = SimulatedRun(JitteredRtt(), options, 32);
  options.max_kept_intervals = 100;  // chunks of 1000 trips, then one of 5
  const RunRecord chunked = SimulatedRun(JitteredRtt(), options, 32);
  EXPECT_EQ(chunked.per_iteration_ns.count, 1001);
  EXPECT_EQ(chunked.averaged_rtt_ns, kept.averaged_rtt_ns);
  ExpectSameSummary(chunked.per_iteration_ns, kept.per_iteration_ns);
}

TEST(RoundTripEngineChunkTest, APeerGoneInALaterChunkKeepsWhatWasMeasured) {
  transport::SimFaults faults;
  faults.stop_after = 10 + 2500;  // in the third chunk
  EngineOptions options;
  options.iterations = 10'000;
  options.warmup = 10;
  options.max_kept_intervals = 1000;
  const RunRecord r = SimulatedRun(FixedRtt(absl::Microseconds(10)), options, 64, false, faults);
  EXPECT_EQ(r.completed, 2500);
  EXPECT_NE(r.error.find("round trip 2501 of 10000"), std::string::npos) << r.error;
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000);
  EXPECT_EQ(r.per_iteration_ns.count, 2500);
  EXPECT_EQ(r.per_iteration_ns.mean, 10'000);
}

TEST(RoundTripEngineChunkTest, LostEchoesAcrossChunksAreAllCountedAndCutOut) {
  transport::SimFaults faults;
  faults.drop_every_kth = 100;
  EngineOptions options;
  options.iterations = 10'000;
  options.warmup = 0;
  options.max_kept_intervals = 1000;
  const RunRecord r = SimulatedRun(FixedRtt(absl::Microseconds(10)), options, 64, false, faults);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.integrity.lost, 100);
  EXPECT_EQ(r.integrity.total(), 100);  // sequence numbers run on across chunks
  EXPECT_EQ(r.completed, 10'000);
  // The trip after each loss is left out too, also where the loss ended a chunk (1000,
  // 2000, ...) and the trip after it opens the next: 99 of them (the last loss is the last
  // trip).
  EXPECT_EQ(r.integrity.after_fault, 99);
  EXPECT_EQ(r.timed_trips, 9'801);
  EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000);
  EXPECT_EQ(r.per_iteration_ns.count, 9'801);
  EXPECT_DOUBLE_EQ(r.per_iteration_ns.max, 10'000);
}

// A transport whose round trips start slow and settle: the i-th echo arrives
// extra(i) later in virtual time (a cold cache, a vCPU waking, a governor ramping up).
class TransientEndpoint final : public transport::Endpoint {
 public:
  TransientEndpoint(transport::Endpoint& inner, timing::VirtualClock& time,
                    std::function<double(int64_t)> extra_ns)
      : inner_(inner), time_(time), extra_ns_(std::move(extra_ns)) {}
  absl::Status Send(absl::Span<const char> message) override { return inner_.Send(message); }
  absl::Status Receive(absl::Span<char> buffer) override {
    absl::Status status = inner_.Receive(buffer);
    if (status.ok()) {
      time_.AdvanceNanos(std::llround(extra_ns_(trips_++)));
    }
    return status;
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override {
    return inner_.SetReceiveTimeout(timeout);
  }
  bool keeps_boundaries() const override { return inner_.keeps_boundaries(); }
  bool may_lose() const override { return inner_.may_lose(); }
  size_t max_message_size() const override { return inner_.max_message_size(); }

 private:
  transport::Endpoint& inner_;
  timing::VirtualClock& time_;
  std::function<double(int64_t)> extra_ns_;
  int64_t trips_ = 0;
};

TEST(RoundTripEngineWarmupTest, UntilSteadyEndsAfterADecayingTransientWithinItsBounds) {
  // 10 us round trips, the first ones up to 30 us slower, decaying with a time constant of
  // 300 trips. The fixed 100-trip warm-up of before left it in the mean; the rule waits
  // until a window is no faster than the one before.
  Simulation sim(FixedRtt(absl::Microseconds(10)));
  TransientEndpoint endpoint(*sim.pair.client, sim.time,
                             [](int64_t i) { return 30'000 * std::exp(-i / 300.0); });
  EngineOptions options;  // the default: until steady
  ASSERT_EQ(options.warmup, kWarmupUntilSteady);
  options.iterations = 1000;
  RoundTripEngine engine(endpoint, sim.time, &sim.time, 4096, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.warmup_end, "steady");
  const WarmupRule& rule = options.warmup_rule;
  EXPECT_GE(r.warmup_trips, rule.min_trips);
  EXPECT_GE(r.warmup_ns, absl::ToInt64Nanoseconds(rule.min_time));
  EXPECT_LE(r.warmup_ns, absl::ToInt64Nanoseconds(rule.max_time));
  EXPECT_EQ((r.warmup_trips - kFirstWarmupWindow) % rule.window, 0);
  // What is left of the transient in the timed mean is under 1% of the round trip ...
  EXPECT_LT(r.averaged_rtt_ns, 10'000 * 1.01);
  // ... where a warm-up of 100 trips leaves several percent.
  Simulation again(FixedRtt(absl::Microseconds(10)));
  TransientEndpoint cold(*again.pair.client, again.time,
                         [](int64_t i) { return 30'000 * std::exp(-i / 300.0); });
  options.warmup = 100;
  RoundTripEngine fixed(cold, again.time, &again.time, 4096, options);
  const RunRecord f = fixed.MeasureRun(64, 1);
  EXPECT_EQ(f.warmup_end, "count");
  EXPECT_EQ(f.warmup_trips, 100);
  EXPECT_GT(f.averaged_rtt_ns, 10'000 * 1.04);
}

TEST(RoundTripEngineWarmupTest, ARoundTripThatNeverSettlesEndsOutOfTime) {
  // Every trip 0.02% faster than the one before, for ever (in a warm-up's reach): no window
  // is within 1% of the one before, so the warm-up ends at max_time.
  Simulation sim(FixedRtt(absl::Microseconds(10)));
  TransientEndpoint endpoint(*sim.pair.client, sim.time,
                             [](int64_t i) { return 1e6 * std::pow(0.9998, i); });
  EngineOptions options;
  options.iterations = 10;
  options.warmup_rule.max_time = absl::Milliseconds(50);
  RoundTripEngine engine(endpoint, sim.time, &sim.time, 4096, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.warmup_end, "out of time");
  EXPECT_GE(r.warmup_ns, 50'000'000);
  // At most one window past max_time (a window is not cut short).
  EXPECT_LE(r.warmup_trips, MaxWarmupTrips(options, 10'000));
}

TEST(RoundTripEngineWarmupTest, ASteadyRoundTripEndsAtTheMinimum) {
  Simulation sim(FixedRtt(absl::Microseconds(10)));
  EngineOptions options;
  options.iterations = 10;
  RoundTripEngine engine(*sim.pair.client, sim.time, &sim.time, 4096, options);
  const RunRecord r = engine.MeasureRun(64, 1);
  EXPECT_EQ(r.warmup_end, "steady");
  // 10 ms of 10 us trips is 1000 trips (the short first window and 5 more) to compare.
  EXPECT_EQ(r.warmup_trips, 1025);
  EXPECT_EQ(r.warmup_ns, 1025 * 10'000);
}

}  // namespace
}  // namespace tickbench::harness
