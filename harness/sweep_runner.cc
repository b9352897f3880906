#include "harness/sweep_runner.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "platform/cpu_affinity.h"
#include "platform/stop_signal.h"
#include "timing/tick_clock.h"
#include "harness/echo_session.h"

namespace tickbench::harness {

SweepOutcome RunSweep(transport::Transport& transport, timing::Clock& clock,
                      timing::Clock* reference, const SweepOptions& options,
                      const ProgressFunction& progress) {
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
  absl::StatusOr<EchoSession> session = EchoSession::Open(
      transport, options.peer, options.pin_peer_cpu, options.receive_timeout);
  if (!session.ok()) {
    outcome.status = session.status();
    return outcome;
  }
  transport::Endpoint& client = session->client();
  if (auto buffers = client.SocketBufferSizes(); buffers.ok()) outcome.socket_buffers = *buffers;

  const size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
  RoundTripEngine engine(client, clock, reference, largest, options.engine);
  auto* tick = dynamic_cast<timing::TickClock*>(&clock);
  const int total = options.runs * static_cast<int>(options.sizes.size());
  outcome.records.reserve(total);
  for (int run = 1; run <= options.runs && outcome.status.ok(); ++run) {
    for (size_t size : options.sizes) {
      if (absl::Status stop = platform::CancelledIfStopRequested("between runs"); !stop.ok()) {
        outcome.status = stop;
        break;
      }
      if (tick != nullptr && options.rephase_tick_clock) {
        tick->set_phase_ns(timing::RandomPhaseNanos(
            tick->period_ns(), options.seed * 1'000'003 + outcome.records.size()));
      }
      RunRecord record = engine.MeasureRun(size, run);
      record.transport = std::string(transport.name());
      outcome.records.push_back(std::move(record));
      if (progress) progress(static_cast<int>(outcome.records.size()), total, outcome.records.back());
      if (!outcome.records.back().error.empty()) {
        outcome.status = absl::UnavailableError(absl::StrFormat(
            "%s, size %d bytes, run %d: %s", transport.name(), size, run, outcome.records.back().error));
        break;
      }
    }
  }
  absl::Status closed = session->Close();
  if (outcome.status.ok() && !closed.ok()) outcome.status = closed;
  return outcome;
}

}  // namespace tickbench::harness
