#include "harness/engine/sweep_runner.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
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
  const int total = options.runs * static_cast<int>(options.sizes.size());
  outcome.records.reserve(total);
  std::vector<size_t> given_up;  // sizes whose later runs are skipped (GiveUpOnSize)
  for (int run = 1; run <= options.runs && outcome.status.ok(); ++run) {
    for (size_t size : options.sizes) {
      if (absl::Status stop = platform::CancelledIfStopRequested("between runs"); !stop.ok()) {
        outcome.status = stop;
        break;
      }
      if (std::find(given_up.begin(), given_up.end(), size) != given_up.end()) {
        if (size_done && run == options.runs) size_done(size, outcome.records);
        continue;
      }
      MeasureWithRetries(engine, transport.name(), tick, options, size, run, outcome.records);
      if (progress)
        progress(static_cast<int>(outcome.records.size()), total, outcome.records.back());
      if (!outcome.records.back().error.empty()) {
        outcome.status = absl::UnavailableError(absl::StrFormat("%s, size %d bytes, run %d: %s",
                                                                transport.name(), size, run,
                                                                outcome.records.back().error));
        break;
      }
      if (GiveUpOnSize(options, run, outcome.records)) given_up.push_back(size);
      if (size_done && run == options.runs) size_done(size, outcome.records);
    }
  }
  absl::Status closed = session->Close();
  if (outcome.status.ok() && !closed.ok()) outcome.status = closed;
  if (outcome.status.ok()) outcome.status = CheckEverySizeMeasured(outcome.records, options);
  return outcome;
}

}  // namespace tickbench::harness
