// The echo peer in a child process, as the classic IPC latency tests run it.
//
// StartEchoPeerProcess() forks. The child closes the client end, pins itself to a CPU
// when asked, runs RunEchoPeer() on the server end, and leaves with _exit(): 0 when the
// loop returned OK, 1 otherwise. It never returns into the caller's code and runs no
// atexit handlers or static destructors. Before a failing exit it writes its status
// (code and message) into a pipe, so that Stop() can report why. The parent closes the
// server end, so the child holds the only copy: when the child dies its end closes, and
// a stream client sees end of file. The child also asks the kernel for SIGKILL when its
// parent dies (PR_SET_PDEATHSIG), so that a harness killed outright leaves no peer
// behind, even a datagram one, which never sees end of file.
//
// Fork from a process with one thread (or before starting others): the child runs
// ordinary code, which allocates memory, and a lock another thread held at fork time
// would stay held in the child. The child inherits every descriptor the parent had open,
// including the client ends of other live PeerProcess objects: while it lives, those
// clients' closing is not seen as end of file by their own peers.
#ifndef TRANSPORT_PEER_PROCESS_H_
#define TRANSPORT_PEER_PROCESS_H_

#include <sys/types.h>

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/unique_fd.h"
#include "transport/transport.h"

namespace tickbench::transport {

class PeerProcess {
 public:
  PeerProcess(PeerProcess&& other) noexcept;
  PeerProcess& operator=(PeerProcess&& other) noexcept;
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;
  // Kills the child (SIGKILL) if it is still running, and reaps it: never leaves a
  // zombie, never waits on a child that will not end.
  ~PeerProcess();

  Endpoint& client() { return *client_; }
  pid_t pid() const { return pid_; }

  // True while the child runs. Reaps a child that has ended (waitpid WNOHANG).
  bool alive();

  // Sends kQuit, waits up to `grace` (at most 24 hours) for the child to end (polling
  // waitpid WNOHANG every millisecond), then SIGKILLs and reaps it. Returns how it ended: OK for
  // exit code 0; the child's own status (prefixed "echo peer: ") for exit code 1; Internal for
  // another code; Aborted for death by a signal someone else sent; DeadlineExceeded when the grace
  // ran out and Stop() killed it; Unknown when something else reaped the child (SIGCHLD set to
  // SIG_IGN). Calling it again returns the same answer.
  absl::Status Stop(absl::Duration grace);

 private:
  friend absl::StatusOr<PeerProcess> StartEchoPeerProcess(EndpointPair pair,
                                                          const EchoPeerOptions& options,
                                                          int pin_cpu);
  PeerProcess(pid_t pid, std::unique_ptr<Endpoint> client, UniqueFd report_fd);

  // waitpid(WNOHANG) once; true when the child has been reaped (now or before).
  bool TryReap();
  void KillAndReap();
  absl::Status EndStatus();

  pid_t pid_ = -1;
  bool reaped_ = false;
  bool reaped_elsewhere_ = false;  // waitpid said ECHILD: the end is unknown
  bool killed_after_grace_ = false;
  int wait_status_ = 0;
  absl::Duration grace_ = absl::ZeroDuration();
  std::unique_ptr<Endpoint> client_;
  UniqueFd report_fd_;          // read end of the pipe the child reports its failure into
  absl::Status report_status_;  // what the child reported, once read
};

// Forks the echo peer onto `pair.server`; see the top of this file. `pin_cpu` >= 0 pins
// the child to that CPU (platform::PinCurrentThreadToCpu); -1 leaves it unpinned.
absl::StatusOr<PeerProcess> StartEchoPeerProcess(EndpointPair pair, const EchoPeerOptions& options,
                                                 int pin_cpu);

}  // namespace tickbench::transport

#endif  // TRANSPORT_PEER_PROCESS_H_
