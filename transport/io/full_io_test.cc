#include "transport/io/full_io.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "platform/stop_signal.h"
#include "transport/io/unique_fd.h"

namespace tickbench::transport {
namespace {

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

Pipe MakePipe() {
  int fds[2];
  EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

std::vector<char> Bytes(size_t size) {
  std::vector<char> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7 + i / 251);
  return bytes;
}

bool SigpipePending() {
  sigset_t pending;
  sigpending(&pending);
  return sigismember(&pending, SIGPIPE) == 1;
}

TEST(IoErrnoToStatusTest, MapsPeerGoneAndTimeout) {
  for (int error_number : {ECONNRESET, EPIPE, ECONNREFUSED}) {
    absl::Status status = IoErrnoToStatus(error_number, "send");
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << error_number;
    EXPECT_NE(status.message().find("peer closed the connection"), absl::string_view::npos);
  }
  EXPECT_EQ(IoErrnoToStatus(EAGAIN, "recv").code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(IoErrnoToStatus(EWOULDBLOCK, "recv").code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(IoErrnoToStatus(EBADF, "recv").code(), absl::StatusCode::kFailedPrecondition);
}

// 4 MiB is 64 times the default pipe buffer (64 KiB), so both sides see short I/O.
TEST(FullIoTest, MovesMoreThanThePipeHolds) {
  Pipe p = MakePipe();
  const std::vector<char> sent = Bytes(4 << 20);
  std::vector<char> received(sent.size());
  absl::Status read_status;
  std::thread reader([&] {
    read_status = ReadFull(p.read_end.get(), absl::MakeSpan(received), ReadMode::kDescriptor);
  });
  EXPECT_TRUE(WriteFull(p.write_end.get(), sent, WriteMode::kPipe).ok());
  reader.join();
  EXPECT_TRUE(read_status.ok()) << read_status;
  EXPECT_EQ(sent, received);
}

TEST(FullIoTest, EndOfFileIsUnavailable) {
  Pipe p = MakePipe();
  ASSERT_TRUE(WriteFull(p.write_end.get(), Bytes(3), WriteMode::kPipe).ok());
  p.write_end.reset();
  std::vector<char> buffer(10);
  absl::Status status = ReadFull(p.read_end.get(), absl::MakeSpan(buffer), ReadMode::kDescriptor);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(status.message().find("read 3 of 10 bytes"), absl::string_view::npos) << status;
}

TEST(FullIoTest, PipeWithoutReaderGivesUnavailableAndNoSignal) {
  Pipe p = MakePipe();
  p.read_end.reset();
  // Were SIGPIPE delivered, its default action would end this test binary.
  absl::Status status = WriteFull(p.write_end.get(), Bytes(100), WriteMode::kPipe);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_FALSE(SigpipePending());
}

TEST(FullIoTest, CallerWhoBlocksSigpipeKeepsTheMaskAndGetsNoStrayPendingSignal) {
  sigset_t sigpipe, old_mask;
  sigemptyset(&sigpipe);
  sigaddset(&sigpipe, SIGPIPE);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &sigpipe, &old_mask), 0);
  Pipe p = MakePipe();
  p.read_end.reset();
  EXPECT_EQ(WriteFull(p.write_end.get(), Bytes(10), WriteMode::kPipe).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_FALSE(SigpipePending());
  sigset_t mask_now;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &mask_now), 0);
  EXPECT_EQ(sigismember(&mask_now, SIGPIPE), 1);
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &old_mask, nullptr), 0);
}

TEST(FullIoTest, SocketWithoutPeerGivesUnavailable) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd mine(fds[0]);
  close(fds[1]);
  EXPECT_EQ(WriteFull(mine.get(), Bytes(10), WriteMode::kSocket).code(),
            absl::StatusCode::kUnavailable);
}

TEST(FullIoTest, PollTimeoutIsDeadlineExceededAndBounded) {
  Pipe p = MakePipe();
  std::vector<char> buffer(4);
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = ReadFull(p.read_end.get(), absl::MakeSpan(buffer), ReadMode::kDescriptor,
                                 absl::Milliseconds(50));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(FullIoTest, PollTimeoutStillReadsWhatIsThere) {
  Pipe p = MakePipe();
  const std::vector<char> sent = Bytes(8);
  ASSERT_TRUE(WriteFull(p.write_end.get(), sent, WriteMode::kPipe).ok());
  std::vector<char> received(8);
  EXPECT_TRUE(
      ReadFull(p.read_end.get(), absl::MakeSpan(received), ReadMode::kDescriptor, absl::Seconds(2))
          .ok());
  EXPECT_EQ(sent, received);
}

Pipe MakeNonBlockingPipe() {
  int fds[2];
  EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
  EXPECT_EQ(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK), 0);
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

TEST(ReadFullWaitingOnEagainTest, BytesAlreadyThereAreReadAndSilenceIsBounded) {
  Pipe p = MakeNonBlockingPipe();
  const std::vector<char> sent = Bytes(8);
  ASSERT_TRUE(WriteFull(p.write_end.get(), sent, WriteMode::kPipe).ok());
  std::vector<char> received(8);
  EXPECT_TRUE(
      ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(received), absl::Seconds(2)).ok());
  EXPECT_EQ(sent, received);

  const auto start = std::chrono::steady_clock::now();
  const absl::Status status =
      ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(received), absl::Milliseconds(50));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_NE(status.message().find("read 0 of 8 bytes"), absl::string_view::npos) << status;
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

// An empty O_NONBLOCK pipe is waited on, not reported as a timeout at once (EAGAIN is
// not "receive timeout expired" here), and bytes that come in two parts are put together.
TEST(ReadFullWaitingOnEagainTest, WaitsForBytesThatComeLater) {
  Pipe p = MakeNonBlockingPipe();
  const std::vector<char> sent = Bytes(64);
  std::vector<char> received(sent.size());
  absl::Status read_status;
  std::thread reader([&] {
    read_status =
        ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(received), absl::Seconds(20));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(
      WriteFull(p.write_end.get(), absl::MakeConstSpan(sent).subspan(0, 10), WriteMode::kPipe)
          .ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(
      WriteFull(p.write_end.get(), absl::MakeConstSpan(sent).subspan(10), WriteMode::kPipe).ok());
  reader.join();
  EXPECT_TRUE(read_status.ok()) << read_status;
  EXPECT_EQ(sent, received);
}

// Runs `read` (a 20 s wait on an empty pipe) while another thread records a stop request
// after 100 ms, as the signal handler would; expects it to end Cancelled within a quarter
// of its timeout, for a loaded machine: the stop, not the timeout, ended it.
template <typename Read>
void ExpectAStopRequestEnds(Read read) {
  std::thread other([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    platform::stop_internal::g_stop_signal.store(SIGTERM);
  });
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status = read();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  other.join();
  platform::ResetStopForTesting();
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

// A stop request whose signal went to another thread does not interrupt the wait's
// ppoll: the wait looks for it between slices of at most 250 ms.
TEST(ReadFullWaitingOnEagainTest, AStopRequestFromAnotherThreadEndsTheWaitLongBeforeItsEnd) {
  Pipe p = MakeNonBlockingPipe();
  std::vector<char> buffer(4);
  ExpectAStopRequestEnds([&] {
    return ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(buffer), absl::Seconds(20));
  });
}

TEST(ReadFullWaitingOnEagainTest, EndOfFileIsUnavailable) {
  Pipe p = MakeNonBlockingPipe();
  p.write_end.reset();
  std::vector<char> buffer(4);
  EXPECT_EQ(
      ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(buffer), absl::Seconds(2)).code(),
      absl::StatusCode::kUnavailable);
}

TEST(SpinReadFullTest, SilenceIsDeadlineExceededAndBounded) {
  Pipe p = MakeNonBlockingPipe();
  std::vector<char> buffer(4);
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = SpinReadFull(p.read_end.get(), absl::MakeSpan(buffer),
                                     absl::Milliseconds(50), SpinRead::kNonBlockingRead);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

// The timeout bounds the whole message, not the wait for the next byte (transport.h):
// bytes trickling in 100 ms apart, each well within a 500 ms timeout, end the spin in
// DeadlineExceeded before the eighth, as a whole message would be due after 800 ms; the
// bytes that did come fill the buffer's start. Bytes that come as a whole in time do fill
// it (SpinReadFullTest above).
TEST(SpinReadFullTest, TimeoutIsForTheWholeMessageNotTheNextByte) {
  Pipe p = MakeNonBlockingPipe();
  const std::vector<char> sent = Bytes(8);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (char byte : sent) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (done.load() || write(p.write_end.get(), &byte, 1) != 1) return;
    }
  });
  std::vector<char> received(8);
  const absl::Time start = absl::Now();
  const absl::Status status = SpinReadFull(p.read_end.get(), absl::MakeSpan(received),
                                           absl::Milliseconds(500), SpinRead::kNonBlockingRead);
  const absl::Duration took = absl::Now() - start;
  done = true;
  writer.join();
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_LT(took, absl::Milliseconds(790));
  EXPECT_EQ(received[0], sent[0]);
}

// The inline attempts do not look for a stop request; the ones after them do.
TEST(SpinReadFullTest, AStopRequestEndsTheSpinLongBeforeItsTimeout) {
  Pipe p = MakeNonBlockingPipe();
  std::vector<char> buffer(4);
  ExpectAStopRequestEnds([&] {
    return SpinReadFull(p.read_end.get(), absl::MakeSpan(buffer), absl::Seconds(20),
                        SpinRead::kNonBlockingRead);
  });
}

// A message already there is read whole by the first attempt; an empty buffer asks for
// nothing, so even a pipe whose writer has gone gives OK, not end of file.
TEST(SpinReadFullTest, WhatIsThereIsReadAndAnEmptyBufferReadsNothing) {
  Pipe p = MakeNonBlockingPipe();
  const std::vector<char> sent = Bytes(100);
  ASSERT_EQ(write(p.write_end.get(), sent.data(), sent.size()), 100);
  std::vector<char> received(100);
  EXPECT_TRUE(SpinReadFull(p.read_end.get(), absl::MakeSpan(received), absl::Seconds(5),
                           SpinRead::kNonBlockingRead)
                  .ok());
  EXPECT_EQ(sent, received);
  p.write_end.reset();
  EXPECT_TRUE(SpinReadFull(p.read_end.get(), absl::Span<char>(), absl::Seconds(5),
                           SpinRead::kNonBlockingRead)
                  .ok());
  EXPECT_EQ(SpinReadFull(p.read_end.get(), absl::MakeSpan(received), absl::Seconds(5),
                         SpinRead::kNonBlockingRead)
                .code(),
            absl::StatusCode::kUnavailable);
}

TEST(SpinReadFullTest, SocketEndOfFileIsUnavailable) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd mine(fds[0]), theirs(fds[1]);
  const std::vector<char> sent = Bytes(3);
  ASSERT_EQ(write(theirs.get(), sent.data(), sent.size()), 3);
  theirs.reset();
  std::vector<char> buffer(8);
  const absl::Status status =
      SpinReadFull(mine.get(), absl::MakeSpan(buffer), absl::Seconds(5), SpinRead::kRecvDontWait);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
}

// ReadMode picks the call: recv(2) for a socket (on a pipe it fails, ENOTSOCK), read(2)
// for a descriptor; a stream socket's message written in two parts reads whole either way.
TEST(FullIoTest, ReadModeSocketReceivesAndIsNoReadOfAPipe) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd a(fds[0]), b(fds[1]);
  std::thread writer([&] {
    ASSERT_EQ(write(b.get(), "ab", 2), 2);
    absl::SleepFor(absl::Milliseconds(20));
    ASSERT_EQ(write(b.get(), "cd", 2), 2);
  });
  std::vector<char> buffer(4);
  EXPECT_TRUE(ReadFull(a.get(), absl::MakeSpan(buffer), ReadMode::kSocket).ok());
  writer.join();
  EXPECT_EQ(std::string(buffer.begin(), buffer.end()), "abcd");

  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "x", 1), 1);
  std::vector<char> one(1);
  EXPECT_FALSE(ReadFull(p.read_end.get(), absl::MakeSpan(one), ReadMode::kSocket).ok());
  EXPECT_TRUE(ReadFull(p.read_end.get(), absl::MakeSpan(one), ReadMode::kDescriptor).ok());
  EXPECT_EQ(one[0], 'x');
}

TEST(FullIoTest, SocketReceiveTimeoutIsDeadlineExceeded) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd a(fds[0]), b(fds[1]);
  const timeval timeout = {0, 50000};  // 50 ms
  ASSERT_EQ(setsockopt(a.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)), 0);
  std::vector<char> buffer(4);
  EXPECT_EQ(ReadFull(a.get(), absl::MakeSpan(buffer), ReadMode::kSocket).code(),
            absl::StatusCode::kDeadlineExceeded);
}

std::atomic<int> signals_caught{0};
void CountSignal(int) { signals_caught.fetch_add(1, std::memory_order_relaxed); }

// A handler installed without SA_RESTART makes a blocked read() fail with EINTR.
TEST(FullIoTest, RetriesAfterEintr) {
  struct sigaction action = {}, old_action;
  action.sa_handler = CountSignal;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &old_action), 0);
  Pipe p = MakePipe();
  const std::vector<char> sent = Bytes(64);
  std::vector<char> received(sent.size());
  std::atomic<bool> done{false};
  absl::Status read_status;
  std::thread reader([&] {
    read_status = ReadFull(p.read_end.get(), absl::MakeSpan(received), ReadMode::kDescriptor);
    done = true;
  });
  // Interrupt the reader several times while it waits (10 x 5 ms), then feed it.
  for (int i = 0; i < 10 && !done; ++i) {
    pthread_kill(reader.native_handle(), SIGUSR1);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(WriteFull(p.write_end.get(), sent, WriteMode::kPipe).ok());
  reader.join();
  ASSERT_EQ(sigaction(SIGUSR1, &old_action, nullptr), 0);
  EXPECT_TRUE(read_status.ok()) << read_status;
  EXPECT_EQ(sent, received);
  EXPECT_GT(signals_caught.load(), 0);
}

// A signal (installed without SA_RESTART) that lands in a blocking write which has moved
// some bytes ends it short; with none moved, in EINTR. Either way WriteFull() goes on
// from where the call stopped: the first call is WriteFull()'s inline part, the rest
// its out-of-line continuation. Each write mode, the reader slower than the writer so
// that the writer keeps blocking on a full buffer.
TEST(FullIoTest, WritesWholeThroughShortWritesAndEintr) {
  struct sigaction action = {}, old_action;
  action.sa_handler = CountSignal;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &old_action), 0);
  for (const WriteMode mode : {WriteMode::kSocket, WriteMode::kPipeSigpipeIgnored}) {
    int fds[2];
    if (mode == WriteMode::kSocket) {
      ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    } else {
      ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
    }
    UniqueFd read_end(fds[0]), write_end(fds[1]);
    const std::vector<char> sent = Bytes(8 << 20);
    std::atomic<bool> written{false};
    absl::Status write_status;
    const int caught_before = signals_caught.load();
    std::thread writer([&] {
      write_status = WriteFull(write_end.get(), sent, mode);
      write_end.reset();  // a short WriteFull() then ends the read at end of file
      written = true;
    });
    for (int i = 0; i < 20 && !written; ++i) {  // interrupt it while it blocks
      pthread_kill(writer.native_handle(), SIGUSR1);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::vector<char> received(sent.size());
    const absl::Status read_status =
        ReadFull(read_end.get(), absl::MakeSpan(received), ReadMode::kDescriptor);
    writer.join();
    EXPECT_TRUE(write_status.ok()) << write_status;
    EXPECT_TRUE(read_status.ok()) << read_status;
    EXPECT_TRUE(sent == received) << "the bytes arrived whole and in order";
    EXPECT_GT(signals_caught.load(), caught_before) << "no signal landed in the write";
  }
  ASSERT_EQ(sigaction(SIGUSR1, &old_action, nullptr), 0);
}

// Signals that keep interrupting a bounded wait do not stretch it: each restart waits
// only for what is left (counted by the kernel). A wait that restarted with the whole
// timeout after each 10 ms interruption would run until the interruptions stop (3 s).
TEST(FullIoTest, InterruptedWaitsKeepTheirDeadline) {
  struct sigaction action = {}, old_action;
  action.sa_handler = CountSignal;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &old_action), 0);
  for (const bool waiting_on_eagain : {false, true}) {
    Pipe p = waiting_on_eagain ? MakeNonBlockingPipe() : MakePipe();
    std::vector<char> buffer(4);
    std::atomic<bool> done{false};
    absl::Status read_status;
    const int caught_before = signals_caught.load();
    const auto start = std::chrono::steady_clock::now();
    std::thread reader([&] {
      const absl::Duration timeout = absl::Milliseconds(300);
      read_status =
          waiting_on_eagain
              ? ReadFullWaitingOnEagain(p.read_end.get(), absl::MakeSpan(buffer), timeout)
              : ReadFull(p.read_end.get(), absl::MakeSpan(buffer), ReadMode::kDescriptor, timeout);
      done = true;
    });
    while (!done && std::chrono::steady_clock::now() - start < std::chrono::seconds(3)) {
      pthread_kill(reader.native_handle(), SIGUSR1);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const auto ended_after = std::chrono::steady_clock::now() - start;
    reader.join();
    EXPECT_EQ(read_status.code(), absl::StatusCode::kDeadlineExceeded) << read_status;
    EXPECT_GT(signals_caught.load(), caught_before);
    EXPECT_GE(ended_after, std::chrono::milliseconds(300));
    EXPECT_LT(ended_after, std::chrono::milliseconds(2500))
        << "waiting_on_eagain " << waiting_on_eagain;
  }
  ASSERT_EQ(sigaction(SIGUSR1, &old_action, nullptr), 0);
}

TEST(FullIoTest, ProcessIgnoresSigpipeReadsTheDisposition) {
  struct sigaction ignore = {}, old_action;
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &ignore, &old_action), 0);
  EXPECT_TRUE(ProcessIgnoresSigpipe());
  Pipe p = MakePipe();
  p.read_end.reset();
  EXPECT_EQ(WriteFull(p.write_end.get(), Bytes(10), WriteMode::kPipeSigpipeIgnored).code(),
            absl::StatusCode::kUnavailable);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &default_action, nullptr), 0);
  EXPECT_FALSE(ProcessIgnoresSigpipe());
  ASSERT_EQ(sigaction(SIGPIPE, &old_action, nullptr), 0);
}

}  // namespace
}  // namespace tickbench::transport
