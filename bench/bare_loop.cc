// The least a round trip can cost: n bytes each way over one transport between this
// process and a forked peer, with the system calls a round trip needs and nothing else.
// It is the reference tickbench's own loop is held to (bench/bare_compare.sh,
// docs/overhead.md, tests/syscall_count_test.cc).
//
//   bare_loop --transport=unix_stream|unix_dgram|udp|tcp|pipe --size=N
//             [--iterations=20000] [--warmup=1000] [--busy_poll] [--pin=CLIENT[,PEER]]
//
// A round trip, client side: one send and one receive; peer side: one receive and one
// send. The calls are those tickbench's endpoints make, so that their counts compare
// name by name: sockets send with send(MSG_NOSIGNAL) and receive with recv(2) (with
// MSG_DONTWAIT when busy polling); a pipe with write(2) and read(2), its read ends
// O_NONBLOCK when busy polling. A stream receive reads until it has n bytes. Nothing
// else is called per round trip: no timeout, no poll, no signal mask; SIGPIPE is ignored
// once, at start-up. Busy polling repeats the non-blocking receive until it returns data.
// Its buffers start a page, as tickbench's do (transport/io/message_buffer.h): where a
// buffer starts changes what the kernel's copy of a message costs.
//
// The client reads CLOCK_MONOTONIC (vDSO, no system call) once per round trip, as
// tickbench does with --batch=1, and prints one line:
//   transport size mode iterations median_us mean_us p90_us p99_us
// where mode is "blocking" or "busy_poll" and the figures are per round trip
// (bench/loop_line.h, the line //bench:mpi_bare_loop prints too). The peer
// ends at end of file (streams) or on an empty datagram, and dies with the client
// (PR_SET_PDEATHSIG). Exit code 0, or 1 with a message on standard error.
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/loop_line.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/monotonic.h"
#include "transport/io/message_buffer.h"

ABSL_FLAG(std::string, transport, "unix_stream", "unix_stream, unix_dgram, udp, tcp or pipe");
ABSL_FLAG(int64_t, size, 1, "Bytes each way per round trip (1..65536)");
ABSL_FLAG(int64_t, iterations, 20000, "Timed round trips");
ABSL_FLAG(int64_t, warmup, 1000, "Untimed round trips before the timed ones");
ABSL_FLAG(bool, busy_poll, false, "Spin on non-blocking receives (client and peer)");
ABSL_FLAG(std::string, pin, "", "CLIENT or CLIENT,PEER: CPUs to pin to (default: not pinned)");

namespace {

constexpr char kUsage[] =
    "The least a round trip can cost: n bytes each way between a client and a forked peer,\n"
    "the system calls tickbench's endpoints make and nothing else. Prints one line:\n"
    "  transport size mode iterations median_us mean_us p90_us p99_us\n"
    "  bare_loop [--transport=unix_stream] [--size=1] [--iterations=20000] [--warmup=1000]\n"
    "            [--pin=CLIENT[,PEER]] [--busy_poll]";

// A failure exits 1; a bad flag exits 2 (Usage), as the harness does.
[[noreturn]] void Die(const std::string& what, int exit_code = 1) {
  std::fprintf(stderr, "bare_loop: %s\n", what.c_str());
  std::exit(exit_code);
}

[[noreturn]] void Usage(const std::string& what) { Die(what, 2); }

[[noreturn]] void DieErrno(const std::string& what) {
  Die(absl::StrFormat("%s: %s", what, std::strerror(errno)));
}

enum class Kind { kStreamSocket, kDatagramSocket, kPipe };

// One side's descriptors: `in` is read, `out` written (the same socket, or two pipes).
struct Side {
  int in = -1;
  int out = -1;
};

struct Pair {
  Kind kind = Kind::kStreamSocket;
  Side client;
  Side peer;
};

int LoopbackSocket(int type) {
  const int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
  if (fd < 0) DieErrno("socket");
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) DieErrno("bind");
  return fd;
}

sockaddr_in BoundAddress(int fd) {
  sockaddr_in address = {};
  socklen_t length = sizeof(address);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    DieErrno("getsockname");
  }
  return address;
}

void Connect(int fd, const sockaddr_in& to) {
  if (connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) != 0) DieErrno("connect");
}

Pair MakePair(const std::string& transport) {
  Pair pair;
  int fds[2];
  if (transport == "unix_stream" || transport == "unix_dgram") {
    const bool stream = transport == "unix_stream";
    if (socketpair(AF_UNIX, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0, fds) != 0) {
      DieErrno("socketpair");
    }
    pair.kind = stream ? Kind::kStreamSocket : Kind::kDatagramSocket;
    pair.client = {fds[0], fds[0]};
    pair.peer = {fds[1], fds[1]};
  } else if (transport == "udp") {
    const int a = LoopbackSocket(SOCK_DGRAM), b = LoopbackSocket(SOCK_DGRAM);
    Connect(a, BoundAddress(b));
    Connect(b, BoundAddress(a));
    pair.kind = Kind::kDatagramSocket;
    pair.client = {a, a};
    pair.peer = {b, b};
  } else if (transport == "tcp") {
    const int listener = LoopbackSocket(SOCK_STREAM);
    if (listen(listener, 1) != 0) DieErrno("listen");
    const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (client < 0) DieErrno("socket");
    Connect(client, BoundAddress(listener));
    const int server = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (server < 0) DieErrno("accept");
    close(listener);
    const int on = 1;
    for (int fd : {client, server}) {
      if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0) {
        DieErrno("setsockopt(TCP_NODELAY)");
      }
    }
    pair.kind = Kind::kStreamSocket;
    pair.client = {client, client};
    pair.peer = {server, server};
  } else if (transport == "pipe") {
    int to_peer[2], to_client[2];
    if (pipe2(to_peer, O_CLOEXEC) != 0 || pipe2(to_client, O_CLOEXEC) != 0) DieErrno("pipe2");
    pair.kind = Kind::kPipe;
    pair.client = {to_client[0], to_peer[1]};
    pair.peer = {to_peer[0], to_client[1]};
  } else {
    Usage(absl::StrFormat(
        "unknown --transport '%s' (allowed: unix_stream, unix_dgram, udp, tcp, pipe)", transport));
  }
  return pair;
}

void CloseSide(const Side& side) {
  close(side.in);
  if (side.out != side.in) close(side.out);
}

// The round trip's calls. Each returns what the system call returned, retrying only
// EINTR (and, busy polling, EAGAIN): a failure or end of file ends the program.
class Io {
 public:
  Io(Kind kind, bool busy_poll, Side side) : kind_(kind), busy_poll_(busy_poll), side_(side) {
    if (busy_poll_ && kind_ == Kind::kPipe) {
      const int flags = fcntl(side_.in, F_GETFL);
      if (flags < 0 || fcntl(side_.in, F_SETFL, flags | O_NONBLOCK) != 0) DieErrno("fcntl");
    }
  }

  void Send(const char* data, size_t n) {
    size_t done = 0;
    while (done < n) {
      const ssize_t sent = kind_ == Kind::kPipe
                               ? write(side_.out, data + done, n - done)
                               : send(side_.out, data + done, n - done, MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0) DieErrno("send");
      done += static_cast<size_t>(sent);
    }
  }

  // Fills `buffer` (one datagram of n bytes on a datagram socket). False at end of file
  // or on an empty datagram: the other side is done.
  bool Receive(char* buffer, size_t n) {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ReceiveOnce(buffer + done, n - done);
      if (got < 0) {
        if (errno == EINTR || (busy_poll_ && (errno == EAGAIN || errno == EWOULDBLOCK))) {
          continue;
        }
        DieErrno("receive");
      }
      if (got == 0) return false;
      if (kind_ == Kind::kDatagramSocket) {
        if (static_cast<size_t>(got) != n) Die("a datagram of the wrong size");
        return true;
      }
      done += static_cast<size_t>(got);
    }
    return true;
  }

 private:
  ssize_t ReceiveOnce(char* to, size_t n) {
    if (kind_ == Kind::kPipe) return read(side_.in, to, n);
    return recv(side_.in, to, n, busy_poll_ ? MSG_DONTWAIT : 0);  // either kind of socket
  }

  Kind kind_;
  bool busy_poll_;
  Side side_;
};

[[noreturn]] void RunPeer(const Pair& pair, size_t n, bool busy_poll, int cpu, pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(1);
  CloseSide(pair.client);
  if (cpu >= 0 && !tickbench::platform::PinCurrentThreadToCpu(cpu).ok()) _exit(1);
  Io io(pair.kind, busy_poll, pair.peer);
  tickbench::transport::MessageBuffer buffer(n);  // page-aligned, as tickbench's
  while (io.Receive(buffer.data(), n)) io.Send(buffer.data(), n);
  _exit(0);
}

void ParsePin(const std::string& pin, int* client, int* peer) {
  *client = *peer = -1;
  if (pin.empty()) return;
  std::vector<std::string> parts = absl::StrSplit(pin, ',');
  if (parts.size() > 2 || !absl::SimpleAtoi(parts[0], client) ||
      (parts.size() == 2 && !absl::SimpleAtoi(parts[1], peer)) || *client < 0 ||
      (parts.size() == 2 && *peer < 0)) {
    Usage(absl::StrFormat("--pin takes CLIENT or CLIENT,PEER (CPU numbers), not '%s'", pin));
  }
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  absl::ParseCommandLine(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  const std::string transport = absl::GetFlag(FLAGS_transport);
  const int64_t size = absl::GetFlag(FLAGS_size);
  const int64_t iterations = absl::GetFlag(FLAGS_iterations);
  const int64_t warmup = absl::GetFlag(FLAGS_warmup);
  const bool busy_poll = absl::GetFlag(FLAGS_busy_poll);
  if (size < 1 || size > 65536) Usage(absl::StrFormat("--size=%d: allowed 1..65536", size));
  if (iterations < 1) Usage(absl::StrFormat("--iterations=%d: must be at least 1", iterations));
  if (warmup < 0) Usage(absl::StrFormat("--warmup=%d: must be 0 or more", warmup));
  int client_cpu, peer_cpu;
  ParsePin(absl::GetFlag(FLAGS_pin), &client_cpu, &peer_cpu);
  const size_t n = static_cast<size_t>(size);

  const Pair pair = MakePair(transport);
  const pid_t parent = getpid();
  const pid_t peer = fork();
  if (peer < 0) DieErrno("fork");
  if (peer == 0) RunPeer(pair, n, busy_poll, peer_cpu, parent);
  CloseSide(pair.peer);
  if (client_cpu >= 0) {
    const absl::Status pinned = tickbench::platform::PinCurrentThreadToCpu(client_cpu);
    if (!pinned.ok()) Die(std::string(pinned.message()));
  }

  Io io(pair.kind, busy_poll, pair.client);
  tickbench::transport::MessageBuffer message(n), echo(n);  // page-aligned, as tickbench's
  std::memset(message.data(), 'x', n);
  std::vector<int64_t> marks(static_cast<size_t>(iterations) + 1);
  for (int64_t i = 0; i < warmup; ++i) {
    io.Send(message.data(), n);
    if (!io.Receive(echo.data(), n)) Die("the peer went away");
  }
  marks[0] = tickbench::platform::MonotonicNanos();
  for (int64_t i = 0; i < iterations; ++i) {
    io.Send(message.data(), n);
    if (!io.Receive(echo.data(), n)) Die("the peer went away");
    marks[static_cast<size_t>(i) + 1] = tickbench::platform::MonotonicNanos();
  }

  // Tell the peer to end: end of file on a stream, an empty datagram otherwise.
  if (pair.kind == Kind::kDatagramSocket) send(pair.client.out, "", 0, MSG_NOSIGNAL);
  CloseSide(pair.client);
  int status = 0;
  while (waitpid(peer, &status, 0) < 0 && errno == EINTR) {
  }

  std::printf("%s\n", tickbench::bench::LoopLine(transport, size, busy_poll, marks).c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
