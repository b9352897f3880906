#include "harness/engine/sweep_runner.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "harness/engine/echo_session.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/stop_signal.h"
#include "timing/clocks/tick_clock.h"

namespace tickbench::harness {

absl::Status CheckEverySizeMeasured(const std::vector<RunRecord>& records,
                                    const SweepOptions& options) {
  std::vector<std::string> unmeasured;
  for (size_t size : options.sizes) {
    int64_t attempts = 0, lost = 0, faults = 0;
    bool any_valid = false;
    std::string reason;
    for (const RunRecord& r : records) {
      if (r.size_bytes != size) continue;
      ++attempts;
      lost += r.integrity.lost + r.warmup_lost;
      faults += r.integrity.total() - r.integrity.lost;
      any_valid = any_valid || r.valid();
      if (!r.invalid_reason.empty()) reason = r.invalid_reason;
    }
    if (any_valid || attempts == 0) continue;
    unmeasured.push_back(
        absl::StrFormat("%d bytes (%d attempts, %d datagrams lost, %d other faulty echoes%s)", size,
                        attempts, lost, faults, reason.empty() ? "" : absl::StrCat("; ", reason)));
  }
  if (unmeasured.empty()) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(
      "no valid run (every attempt had a fault in every interval, so nothing could be timed) "
      "for ",
      absl::StrJoin(unmeasured, ", ")));
}

namespace {

// Measures one run of `size`; a run that faults left without a clean interval is measured
// again, up to `retries` times; every attempt is appended, so the report can say what was
// lost.
void MeasureWithRetries(RoundTripEngine& engine, absl::string_view transport_name,
                        timing::TickClock* tick, const SweepOptions& options, size_t size, int run,
                        std::vector<RunRecord>& records) {
  for (int attempt = 1;; ++attempt) {
    if (tick != nullptr && options.rephase_tick_clock) {
      tick->set_phase_ns(
          timing::RandomPhaseNanos(tick->period_ns(), options.seed * 1'000'003 + records.size()));
    }
    RunRecord record = engine.MeasureRun(size, run);
    record.transport = std::string(transport_name);
    record.attempt = attempt;
    records.push_back(std::move(record));
    const RunRecord& last = records.back();
    if (last.valid() || !last.error.empty() || attempt > options.retries) break;
    if (platform::StopRequested()) break;
  }
}

bool SizeHasValidRun(const std::vector<RunRecord>& records, size_t size) {
  return std::any_of(records.begin(), records.end(),
                     [size](const RunRecord& r) { return r.size_bytes == size && r.valid(); });
}

// Whether the run just measured (the last record) used up its retries with nothing timed
// while no run of its size has a figure: later runs of the size would fare no better, and
// each would cost 1 + retries attempts of waits. Says so in the record when they are
// skipped.
bool GiveUpOnSize(const SweepOptions& options, int run, std::vector<RunRecord>& records) {
  RunRecord& last = records.back();
  if (last.valid() || !last.error.empty() || last.attempt <= options.retries) return false;
  if (run >= options.runs || SizeHasValidRun(records, last.size_bytes)) return false;
  if (platform::StopRequested()) return false;
  absl::StrAppend(&last.invalid_reason, last.invalid_reason.empty() ? "" : "; ",
                  absl::StrFormat("runs %d-%d of this size not measured: run %d's %d attempts "
                                  "timed nothing",
                                  run + 1, options.runs, run, last.attempt));
  return true;
}

}  // namespace

namespace {

// Which sizes are still measured, why each stopped, and the in-order reporting of the
// closed ones (SweepOptions::until_known, size_done).
class SizeSchedule {
 public:
  SizeSchedule(const SweepOptions& options, const SizeDoneFunction& size_done)
      : options_(options),
        size_done_(size_done),
        closed_(options.sizes.size(), false),
        run_time_(options.sizes.size()),
        start_(absl::Now()) {}

  bool closed(size_t i) const { return closed_[i]; }
  bool all_closed() const {
    return std::find(closed_.begin(), closed_.end(), false) == closed_.end();
  }

  // Before measuring size i in round `run`: whether to measure it (else it is closed now,
  // out of time).
  bool ShouldMeasure(size_t i, int run, std::vector<RunRecord>& records) {
    if (closed_[i]) return false;
    if (run <= options_.runs || !options_.until_known) return true;
    if (absl::Now() - start_ + run_time_[i] <= options_.until_known->max_time) return true;
    Close(i, kStopOutOfTime, records);
    return false;
  }

  // After measuring size i in round `run` (its records last), `seconds` long.
  void Measured(size_t i, int run, absl::Duration took, std::vector<RunRecord>& records) {
    run_time_[i] = took;
    if (run < options_.runs) return;
    if (!options_.until_known) {
      Close(i, "", records);
      return;
    }
    std::vector<const RunRecord*> mine;
    int valid = 0;
    for (const RunRecord& r : records) {
      if (r.size_bytes != options_.sizes[i]) continue;
      mine.push_back(&r);
      valid += r.valid() ? 1 : 0;
    }
    std::string reason = options_.until_known->judge(mine);
    if (reason.empty() && valid >= options_.until_known->max_runs) reason = kStopRunLimit;
    if (reason.empty() && run >= 4 * options_.until_known->max_runs) reason = kStopRunLimit;
    if (!reason.empty()) Close(i, reason, records);
  }

  // Closes size i with `reason` on its last record, and reports the closed sizes in order.
  void Close(size_t i, const std::string& reason, std::vector<RunRecord>& records) {
    closed_[i] = true;
    for (auto r = records.rbegin(); r != records.rend(); ++r) {
      if (r->size_bytes != options_.sizes[i]) continue;
      r->size_stop = reason;
      break;
    }
    while (reported_ < closed_.size() && closed_[reported_]) {
      if (size_done_) size_done_(options_.sizes[reported_], records);
      ++reported_;
    }
  }

 private:
  const SweepOptions& options_;
  const SizeDoneFunction& size_done_;
  std::vector<bool> closed_;
  std::vector<absl::Duration> run_time_;  // each size's last run, for the budget
  absl::Time start_;
  size_t reported_ = 0;
};

}  // namespace

SweepOutcome RunSweep(transport::Transport& transport, timing::Clock& clock,
                      timing::Clock* reference, const SweepOptions& options,
                      const ProgressFunction& progress, const SizeDoneFunction& size_done) {
  SweepOutcome outcome;
  if (options.sizes.empty()) {
    outcome.status = absl::InvalidArgumentError("no sizes to measure");
    return outcome;
  }
  if (options.pin_client_cpu >= 0) {
    if (absl::Status s = platform::PinCurrentThreadToCpu(options.pin_client_cpu); !s.ok()) {
      outcome.status = s;
      return outcome;
    }
  }
  absl::StatusOr<EchoSession> session =
      EchoSession::Open(transport, options.peer, options.pin_peer_cpu, options.receive_timeout);
  if (!session.ok()) {
    outcome.status = session.status();
    return outcome;
  }
  transport::Endpoint& client = session->client();
  if (auto buffers = client.SocketBufferSizes(); buffers.ok()) outcome.socket_buffers = *buffers;

  const size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
  EngineOptions engine_options = options.engine;
  engine_options.receive_timeout = options.receive_timeout;
  RoundTripEngine engine(client, clock, reference, largest, engine_options);
  auto* tick = dynamic_cast<timing::TickClock*>(&clock);
  const int planned = options.runs * static_cast<int>(options.sizes.size());
  SizeSchedule schedule(options, size_done);
  for (int run = 1; outcome.status.ok() && !schedule.all_closed(); ++run) {
    for (size_t i = 0; i < options.sizes.size(); ++i) {
      if (absl::Status stop = platform::CancelledIfStopRequested("between runs"); !stop.ok()) {
        outcome.status = stop;
        break;
      }
      if (!schedule.ShouldMeasure(i, run, outcome.records)) continue;
      const absl::Time started = absl::Now();
      const size_t size = options.sizes[i];
      MeasureWithRetries(engine, transport.name(), tick, options, size, run, outcome.records);
      const int done = static_cast<int>(outcome.records.size());
      if (progress) progress(done, std::max(planned, done), outcome.records.back());
      if (!outcome.records.back().error.empty()) {
        outcome.status = absl::UnavailableError(absl::StrFormat("%s, size %d bytes, run %d: %s",
                                                                transport.name(), size, run,
                                                                outcome.records.back().error));
        break;
      }
      if (GiveUpOnSize(options, run, outcome.records)) {
        schedule.Close(i, "", outcome.records);
        continue;
      }
      schedule.Measured(i, run, absl::Now() - started, outcome.records);
    }
  }
  absl::Status closed = session->Close();
  if (outcome.status.ok() && !closed.ok()) outcome.status = closed;
  if (outcome.status.ok()) outcome.status = CheckEverySizeMeasured(outcome.records, options);
  return outcome;
}

}  // namespace tickbench::harness
