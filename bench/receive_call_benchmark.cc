// What a stream socket's receive costs by the call that makes it: read(2), which goes
// through the file layer (its permission and access hooks) before the socket's, against
// recv(2), the socket layer's own call. Each iteration sends one byte and receives it on a
// connected pair in this thread (no peer, no wake-up: the calls alone), over a UNIX stream
// socket pair and a TCP loopback connection. The reason tickbench's stream sockets (and
// the bare loop's) receive with recv(2): docs/overhead.md.
//
//   bazel run -c opt //bench:receive_call_benchmark -- --benchmark_repetitions=21
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "benchmark/benchmark.h"

namespace {

struct Pair {
  int send_fd = -1;
  int receive_fd = -1;
};

// A connected pair: a UNIX stream socket pair (tcp false) or a TCP loopback connection
// with TCP_NODELAY, as tickbench's tcp transport sets.
Pair Connect(bool tcp) {
  Pair pair;
  if (!tcp) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) std::abort();
    pair.send_fd = fds[0];
    pair.receive_fd = fds[1];
    return pair;
  }
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (listener < 0 || bind(listener, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      listen(listener, 1) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    std::abort();
  }
  pair.send_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (connect(pair.send_fd, reinterpret_cast<sockaddr*>(&address), length) != 0) std::abort();
  pair.receive_fd = accept(listener, nullptr, nullptr);
  close(listener);
  const int one = 1;
  setsockopt(pair.send_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return pair;
}

template <bool kRecv>
void BM_SendAndReceiveOneByte(benchmark::State& state) {
  const Pair pair = Connect(state.range(0) != 0);
  char byte = 'x';
  for (auto _ : state) {
    if (send(pair.send_fd, &byte, 1, MSG_NOSIGNAL) != 1) std::abort();
    const ssize_t got =
        kRecv ? recv(pair.receive_fd, &byte, 1, 0) : read(pair.receive_fd, &byte, 1);
    if (got != 1) std::abort();
  }
  state.SetLabel(state.range(0) != 0 ? "tcp loopback" : "unix stream pair");
  close(pair.send_fd);
  close(pair.receive_fd);
}

void BM_SendThenRead(benchmark::State& state) { BM_SendAndReceiveOneByte<false>(state); }
void BM_SendThenRecv(benchmark::State& state) { BM_SendAndReceiveOneByte<true>(state); }

BENCHMARK(BM_SendThenRead)->Arg(0)->Arg(1);
BENCHMARK(BM_SendThenRecv)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
