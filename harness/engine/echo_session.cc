#include "harness/engine/echo_session.h"

#include <algorithm>

#include "platform/stop_signal.h"

namespace tickbench::harness {

absl::StatusOr<EchoSession> EchoSession::Open(transport::Transport& transport,
                                              const transport::EchoPeerOptions& peer_options,
                                              int pin_peer_cpu, absl::Duration receive_timeout) {
  absl::StatusOr<transport::EndpointPair> pair = transport.Connect();
  if (!pair.ok()) return pair.status();
  EchoSession session;
  if (transport.needs_local_peer()) {
    absl::StatusOr<transport::PeerProcess> peer =
        transport::StartEchoPeerProcess(std::move(*pair), peer_options, pin_peer_cpu);
    if (!peer.ok()) return peer.status();
    session.peer_.emplace(std::move(*peer));
  } else {
    session.direct_client_ = std::move(pair->client);
  }
  if (absl::Status s = session.client().SetReceiveTimeout(receive_timeout); !s.ok()) return s;
  if (absl::Status s = session.client().SetBusyPoll(peer_options.busy_poll); !s.ok()) return s;
  return session;
}

absl::Status EchoSession::Close(absl::Duration grace) {
  if (closed_) return absl::OkStatus();
  closed_ = true;
  // After SIGINT or SIGTERM the peer may be mid-block, reading the quit frame as part of
  // a message: it gets a short grace, then is killed, so that the stop is answered
  // within a second.
  if (platform::StopRequested()) grace = std::min(grace, kGraceAfterStop);
  if (peer_) return peer_->Stop(grace);
  if (direct_client_) transport::SendQuit(*direct_client_).IgnoreError();  // may be gone
  return absl::OkStatus();
}

EchoSession::~EchoSession() {
  // A moved-from session has neither; PeerProcess's own destructor reaps in any case.
  if (peer_ || direct_client_) Close().IgnoreError();
}

}  // namespace tickbench::harness
