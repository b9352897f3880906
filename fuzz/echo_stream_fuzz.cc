#include "fuzz/echo_stream_fuzz.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"
#include "fuzz/fuzz_check.h"
#include "harness/engine/round_trip_engine.h"
#include "timing/clocks/os_clocks.h"
#include "transport/io/message_pattern.h"
#include "transport/registry/transport_factory.h"
#include "transport/transport.h"

namespace tickbench::fuzz {
namespace {

// Longest script: what the socket buffers hold without the peer ever reading.
constexpr size_t kMaxScriptBytes = 2048;

struct Script {
  std::vector<std::string> sends;  // one Send() each: one datagram on udp
  size_t bytes = 0;                // in all the sends
};

// The peer's sends for `ops`, with messages of `size` bytes.
Script PeerSends(absl::Span<const uint8_t> ops, size_t size) {
  Script script;
  std::string message(size, '\0');
  transport::FillPattern(absl::MakeSpan(message));
  uint64_t sequence = 1;  // the engine's first message
  bool corrupt_next = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    switch (ops[i]) {
      case 'E':
        transport::StampSequence(absl::MakeSpan(message), sequence);
        if (corrupt_next) message.back() = static_cast<char>(message.back() ^ 1);
        script.sends.push_back(message);
        if (corrupt_next) message.back() = static_cast<char>(message.back() ^ 1);
        corrupt_next = false;
        ++sequence;
        break;
      case 'S':
        ++sequence;
        break;
      case 'B':
        if (sequence > 1) --sequence;
        break;
      case 'C':
        corrupt_next = true;
        break;
      case 'R': {
        const size_t length = i + 1 < ops.size() ? ops[++i] : 0;
        const size_t taken = std::min(length, ops.size() - i - 1);
        script.sends.emplace_back(reinterpret_cast<const char*>(ops.data() + i + 1), taken);
        i += taken;
        break;
      }
      default:
        script.sends.emplace_back(1, static_cast<char>(ops[i]));
    }
  }
  for (const std::string& send : script.sends) script.bytes += send.size();
  return script;
}

// `whole_echoes`: how many messages' worth of bytes the peer sent; each timed trip read one.
void CheckRecord(const harness::RunRecord& r, const harness::EngineOptions& options, bool stream,
                 int64_t whole_echoes) {
  FuzzCheck(r.completed <= options.iterations, "completed <= iterations");
  FuzzCheck(r.timed_trips + r.excluded_trips <= r.completed, "timed + excluded <= completed");
  FuzzCheck(r.timed_trips <= whole_echoes, "no more trips timed than echoes' bytes sent");
  const int64_t faults = r.integrity.total() - r.integrity.lost;
  if (stream) {
    FuzzCheck(faults <= 1, "on a stream the first faulty echo ends the run");
    FuzzCheck(faults == 0 || !r.error.empty(), "a stream out of step is an error");
  } else {
    FuzzCheck(!r.error.empty() || !r.invalid_reason.empty() || r.completed == options.iterations,
              "a datagram run without an error or a silent warm-up completes");
  }
  if (r.valid()) {
    FuzzCheck(std::isfinite(r.averaged_rtt_ns) && r.averaged_rtt_ns >= 0,
              "a valid run's averaged RTT is finite and not negative");
  }
}

}  // namespace

void FuzzEchoStream(const uint8_t* data, size_t size) {
  if (size < 4 || size - 4 > kMaxScriptBytes) return;
  const bool stream = data[0] % 2 == 0;
  const size_t message_size = 1 + data[1] % 64;
  harness::EngineOptions options;
  options.warmup = data[2] % 4;
  options.batch = 1 + (data[2] / 4) % 3;
  options.iterations = 1 + data[3] % 16;
  options.receive_timeout = absl::Milliseconds(5);
  const Script script = PeerSends(absl::MakeConstSpan(data + 4, size - 4), message_size);

  auto transport = transport::MakeTransport(stream ? "tcp" : "udp");
  if (!transport.ok()) return;  // no loopback here: nothing to fuzz
  auto pair = (*transport)->Connect();
  if (!pair.ok()) return;
  for (const std::string& send : script.sends) {
    if (!pair->server->Send(absl::MakeConstSpan(send)).ok()) break;
  }
  // The peer ends after its script, before the client has sent anything: a stream reads
  // the script, then end of file; udp sees the port closed, or its receives time out.
  pair->server.reset();
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  harness::RoundTripEngine engine(*pair->client, monotonic, nullptr, message_size, options);
  const harness::RunRecord record = engine.MeasureRun(message_size, 1);
  CheckRecord(record, options, stream, static_cast<int64_t>(script.bytes / message_size));
}

}  // namespace tickbench::fuzz
