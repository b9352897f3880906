#include "transport/pipes/pipe_transport.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "platform/stop_signal.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/read_watchdog.h"

namespace tickbench::transport {
namespace {

EndpointPair Connect() {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakePipeTransport();
  EXPECT_TRUE(transport.ok()) << transport.status();
  EXPECT_EQ((*transport)->name(), "pipe");
  EXPECT_FALSE((*transport)->keeps_boundaries());
  EXPECT_FALSE((*transport)->may_lose());
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  EXPECT_TRUE(pair.ok()) << pair.status();
  return std::move(*pair);
}

TEST(PipeTransportTest, BytesBothWays) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->Send(absl::MakeConstSpan("ping", 4)).ok());
  char buffer[4];
  ASSERT_TRUE(pair.server->Receive(absl::MakeSpan(buffer)).ok());
  ASSERT_TRUE(pair.server->Send(absl::MakeConstSpan("pong", 4)).ok());
  ASSERT_TRUE(pair.client->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "pong");
}

// 1 MiB is 16 default pipe buffers: the writer must wait for the reader many times.
TEST(PipeTransportTest, LargeMessageWithAReaderThread) {
  EndpointPair pair = Connect();
  std::vector<char> message(1 << 20);
  for (size_t i = 0; i < message.size(); ++i) message[i] = static_cast<char>(i % 253);
  std::vector<char> received(message.size());
  absl::Status read_status;
  std::thread reader([&] { read_status = pair.server->Receive(absl::MakeSpan(received)); });
  EXPECT_TRUE(pair.client->Send(message).ok());
  reader.join();
  EXPECT_TRUE(read_status.ok()) << read_status;
  EXPECT_EQ(message, received);
}

TEST(PipeTransportTest, TimeoutIsBounded) {
  EndpointPair pair = Connect();
  EXPECT_EQ(pair.client->SetReceiveTimeout(absl::ZeroDuration()).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  char buffer[4];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// With a timeout the read end is O_NONBLOCK, and a receive waits only when nothing is
// there; without one (set, then cleared) it blocks again: either way an echo that comes
// later is received, never taken for a timeout.
TEST(PipeTransportTest, ReceivesWhatComesLaterWithAndWithoutATimeout) {
  EndpointPair pair = Connect();
  for (const absl::Duration timeout : {absl::Seconds(20), absl::InfiniteDuration()}) {
    ASSERT_TRUE(pair.client->SetReceiveTimeout(timeout).ok());
    std::thread sender([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      EXPECT_TRUE(pair.server->Send(absl::MakeConstSpan("late", 4)).ok());
    });
    char buffer[4];
    const absl::Status received = pair.client->Receive(absl::MakeSpan(buffer));
    sender.join();
    EXPECT_TRUE(received.ok()) << received << " (timeout " << timeout << ")";
    EXPECT_EQ(std::string(buffer, 4), "late");
  }
}

// Busy polling switched off again leaves the timeout in force: the wait stays bounded.
TEST(PipeTransportTest, TimeoutStaysBoundedAfterBusyPolling) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  ASSERT_TRUE(pair.client->SetBusyPoll(true).ok());
  ASSERT_TRUE(pair.client->SetBusyPoll(false).ok());
  // Should the receive block for good, this ends it after 10 s (and the test fails).
  std::atomic<bool> done{false};
  std::thread rescue([&] {
    for (int i = 0; i < 1000 && !done; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!done) pair.server->Send(absl::MakeConstSpan("late", 4)).IgnoreError();
  });
  char buffer[4];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  done = true;
  rescue.join();
}

TEST(PipeTransportTest, GonePeerIsUnavailableAndRaisesNoSignal) {
  EndpointPair pair = Connect();
  pair.server.reset();
  // With SIGPIPE at its default action this process would die here.
  EXPECT_EQ(pair.client->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
  char buffer[1];
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
}

TEST(PipeTransportTest, IgnoredSigpipeTakesTheBarePath) {
  struct sigaction ignore = {}, old_action;
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &ignore, &old_action), 0);
  EndpointPair pair = Connect();
  pair.server.reset();
  EXPECT_EQ(pair.client->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
  ASSERT_EQ(sigaction(SIGPIPE, &old_action, nullptr), 0);
}

TEST(PipeTransportTest, OversizeIsRefused) {
  EndpointPair pair = Connect();
  const std::vector<char> too_big(kMaxStreamMessageBytes + 1);
  EXPECT_EQ(pair.client->Send(too_big).code(), absl::StatusCode::kInvalidArgument);
}

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Returns once thread `tid` of this process has slept (state S in its /proc stat: blocked
// in a system call) at three looks 5 ms apart, or after about 10 s.
void AwaitSleeping(pid_t tid) {
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/stat";
  int asleep = 0;
  for (int i = 0; i < 2000 && asleep < 3; ++i) {
    std::ifstream in(path);
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t paren = stat.rfind(')');  // the name may hold spaces; the state follows it
    const bool sleeping =
        paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'S';
    asleep = sleeping ? asleep + 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Nothing arrives: the wait ends in DeadlineExceeded no sooner than the timeout, and
// not long after it (the watchdog: within a tick period of it; ppoll below 20 ms).
TEST(PipeTransportTest, ASilentPeerEndsTheWaitNoSoonerThanTheTimeout) {
  for (const absl::Duration timeout : {absl::Milliseconds(5), absl::Milliseconds(200)}) {
    EndpointPair pair = Connect();
    ASSERT_TRUE(pair.client->SetReceiveTimeout(timeout).ok());
    char buffer[4];
    for (int i = 0; i < 2; ++i) {  // the second wait runs on the timer armed by the first
      const auto start = Clock::now();
      EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
                absl::StatusCode::kDeadlineExceeded)
          << timeout;
      const double waited = SecondsSince(start);
      EXPECT_GE(waited, absl::ToDoubleSeconds(timeout)) << timeout;
      EXPECT_LT(waited, 5.0) << timeout;
    }
  }
}

// Ticks while the echo is on its way (100 ms timeout: a tick every 25 ms, the echo after
// 60 ms) do not end the wait, and leave the read end blocking for the next receive.
TEST(PipeTransportTest, TicksDuringAWaitDoNotEndIt) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(100)).ok());
  for (int i = 0; i < 3; ++i) {
    std::thread sender([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
      EXPECT_TRUE(pair.server->Send(absl::MakeConstSpan("late", 4)).ok());
    });
    char buffer[4];
    const absl::Status received = pair.client->Receive(absl::MakeSpan(buffer));
    sender.join();
    ASSERT_TRUE(received.ok()) << received;
    EXPECT_EQ(std::string(buffer, 4), "late");
  }
}

// A tick that lands outside a receive does not fail the thread's other blocking calls:
// the watchdog's handler is installed with SA_RESTART.
TEST(PipeTransportTest, TicksOutsideAReceiveLeaveOtherReadsAlone) {
  if (!ReadWatchdogsAvailable()) {
    GTEST_SKIP() << "no per-thread timer signal here (an emulator): pipes wait with ppoll";
  }
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(40)).ok());  // a tick / 10 ms
  char buffer[4];
  ASSERT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);  // arms the timer on this thread
  int other[2];
  ASSERT_EQ(pipe(other), 0);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(write(other[1], "x", 1), 1);
  });
  char byte = 0;
  const ssize_t n = read(other[0], &byte, 1);  // about 20 ticks while it blocks
  const int error_number = errno;
  writer.join();
  EXPECT_EQ(n, 1) << "errno " << error_number;
  close(other[0]);
  close(other[1]);
}

// A peer process that is stopped (SIGSTOP) keeps its write end open and silent: the
// receive ends after the timeout. Killed, it closes the pipe: the next receive ends at
// once, Unavailable, not DeadlineExceeded at its 30 s timeout (the bound, a third of it,
// is for a loaded machine).
TEST(PipeTransportTest, AStoppedPeerEndsTheWaitAndADeadOneEndsItAtOnce) {
  EndpointPair pair = Connect();
  const pid_t peer = fork();
  ASSERT_GE(peer, 0);
  if (peer == 0) {
    while (true) pause();  // holds the server's ends, never writes
  }
  pair.server.reset();  // only the peer process holds the write end now
  ASSERT_EQ(kill(peer, SIGSTOP), 0);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(300)).ok());
  char buffer[4];
  auto start = Clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_GE(SecondsSince(start), 0.3);
  EXPECT_LT(SecondsSince(start), 5.0);
  ASSERT_EQ(kill(peer, SIGKILL), 0);
  ASSERT_EQ(waitpid(peer, nullptr, 0), peer);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Seconds(30)).ok());
  start = Clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
  EXPECT_LT(SecondsSince(start), 10.0);  // end of file, not the timeout
}

// A stop request is seen within a tick (at most 250 ms) even when the signal reached
// another thread and the reading thread's read was never interrupted by it: a watchdog
// tick sees it ("waiting for data"), long before the 30 s timeout (the bound, a third of
// it, is for a loaded machine).
TEST(PipeTransportTest, AStopRequestIsSeenWithinATickWhereverTheSignalWent) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Seconds(30)).ok());
  std::thread other([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    platform::stop_internal::g_stop_signal.store(SIGTERM);  // as the handler would
  });
  char buffer[4];
  const auto start = Clock::now();
  const absl::Status status = pair.client->Receive(absl::MakeSpan(buffer));
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  EXPECT_NE(status.message().find("waiting for data"), absl::string_view::npos) << status;
  EXPECT_LT(SecondsSince(start), 10.0);
  other.join();
  platform::ResetStopForTesting();
}

// SIGINT to the reading thread interrupts its read at once (no SA_RESTART): the read
// itself ends ("while reading"), not a later watchdog tick ("while waiting for data").
// The signal goes once the reader sleeps in its read(2), so that it lands there. Without
// per-thread timer signals (an emulator) the reader sleeps in ppoll after an empty read,
// and it is that wait the signal ends ("while waiting for data"), as soon.
TEST(PipeTransportTest, AStopSignalToTheReadingThreadEndsTheReadAtOnce) {
  ASSERT_TRUE(platform::InstallStopHandlers().ok());
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Seconds(30)).ok());
  const pthread_t reader = pthread_self();
  const pid_t reader_tid = static_cast<pid_t>(syscall(SYS_gettid));
  std::thread other([reader, reader_tid] {
    AwaitSleeping(reader_tid);
    pthread_kill(reader, SIGINT);
  });
  char buffer[4];
  const auto start = Clock::now();
  const absl::Status status = pair.client->Receive(absl::MakeSpan(buffer));
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  const char* where = ReadWatchdogsAvailable() ? "while reading" : "while waiting for data";
  EXPECT_NE(status.message().find(where), absl::string_view::npos) << status;
  EXPECT_LT(SecondsSince(start), 10.0);  // not the 30 s timeout (slack for a loaded machine)
  other.join();
  platform::ResetStopForTesting();
}

// The watchdog refuses what it cannot bound well, and disarms on an unbounded timeout.
TEST(ReadWatchdogTest, PeriodIsAQuarterOfTheTimeoutAtMost250ms) {
  if (!ReadWatchdogsAvailable()) {
    GTEST_SKIP() << "no per-thread timer signal here (an emulator): pipes wait with ppoll";
  }
  ReadWatchdog watchdog;
  EXPECT_EQ(watchdog.SetTimeout(absl::Milliseconds(5)).code(), absl::StatusCode::kInvalidArgument);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "abcd", 4), 4);
  char buffer[2];
  ASSERT_TRUE(watchdog.SetTimeout(absl::Milliseconds(100)).ok());
  ASSERT_TRUE(watchdog.Read(fds[0], absl::MakeSpan(buffer), ReadMode::kDescriptor).ok());
  EXPECT_EQ(watchdog.period(), absl::Milliseconds(25));
  ASSERT_TRUE(watchdog.SetTimeout(absl::Seconds(10)).ok());
  ASSERT_TRUE(watchdog.Read(fds[0], absl::MakeSpan(buffer), ReadMode::kDescriptor).ok());
  EXPECT_EQ(watchdog.period(), absl::Milliseconds(250));
  EXPECT_EQ(std::string(buffer, 2), "cd");
  ASSERT_TRUE(watchdog.SetTimeout(absl::InfiniteDuration()).ok());
  EXPECT_EQ(watchdog.period(), absl::ZeroDuration());
  EXPECT_EQ(fcntl(fds[0], F_GETFL) & O_NONBLOCK, 0);
  close(fds[0]);
  close(fds[1]);
}

// One reading thread at a time: a Read() on a thread the timer does not tick for re-arms
// it there, so that thread's wait is bounded too, and so is the first thread's after it.
TEST(ReadWatchdogTest, AReadOnAnotherThreadMovesTheTimerThere) {
  if (!ReadWatchdogsAvailable()) {
    GTEST_SKIP() << "no per-thread timer signal here (an emulator): pipes wait with ppoll";
  }
  ReadWatchdog watchdog;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(watchdog.SetTimeout(absl::Milliseconds(40)).ok());
  ASSERT_EQ(write(fds[1], "a", 1), 1);
  char byte;
  ASSERT_TRUE(watchdog.Read(fds[0], absl::MakeSpan(&byte, 1), ReadMode::kDescriptor)
                  .ok());  // armed on this thread
  // Nothing comes: without the re-arm, the other thread's read would wait for ever (the
  // ticks go here); the byte written after 5 s ends it then, and the test fails.
  absl::Status other_status;
  std::thread other([&] {
    other_status = watchdog.Read(fds[0], absl::MakeSpan(&byte, 1), ReadMode::kDescriptor);
  });
  absl::Notification other_ended;
  std::thread rescue([&other_ended, fd = fds[1]] {
    other_ended.WaitForNotificationWithTimeout(absl::Seconds(5));
    (void)!write(fd, "r", 1);
  });
  other.join();
  other_ended.Notify();
  EXPECT_EQ(other_status.code(), absl::StatusCode::kDeadlineExceeded) << other_status;
  rescue.join();
  ASSERT_TRUE(watchdog.Read(fds[0], absl::MakeSpan(&byte, 1), ReadMode::kDescriptor)
                  .ok());  // the rescue's byte
  const absl::Time start = absl::Now();
  EXPECT_EQ(watchdog.Read(fds[0], absl::MakeSpan(&byte, 1), ReadMode::kDescriptor).code(),
            absl::StatusCode::kDeadlineExceeded);  // back here: bounded again
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  close(fds[0]);
  close(fds[1]);
}

TEST(PipeTransportTest, APipeSizeIsSetOnBothPipesAndReadBack) {
  for (const auto& [asked, granted] :
       {std::pair<int64_t, int>{4096, 4096}, {16385, 32768}, {65536, 65536}}) {
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakePipeTransport(asked);
    ASSERT_TRUE(transport.ok()) << transport.status();
    absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
    ASSERT_TRUE(pair.ok()) << pair.status();
    for (Endpoint* end : {pair->client.get(), pair->server.get()}) {
      absl::StatusOr<Endpoint::BufferSizes> sizes = end->SocketBufferSizes();
      ASSERT_TRUE(sizes.ok()) << sizes.status();
      EXPECT_TRUE(sizes->pipe);
      // The kernel rounds up to a power of two pages.
      EXPECT_EQ(sizes->send_bytes, granted) << asked;
      EXPECT_EQ(sizes->receive_bytes, granted) << asked;
    }
  }
  // The default pipe is the kernel's (64 KiB on Linux), also read back.
  EndpointPair pair = Connect();
  absl::StatusOr<Endpoint::BufferSizes> sizes = pair.client->SocketBufferSizes();
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  EXPECT_GT(sizes->send_bytes, 0);
}

TEST(PipeTransportTest, APipeSizeTheKernelRefusesNamesItsLimit) {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakePipeTransport(int64_t{1} << 40);
  ASSERT_TRUE(transport.ok()) << transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  ASSERT_FALSE(pair.ok());
  EXPECT_EQ(pair.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(pair.status().message().find("/proc/sys/fs/pipe-max-size is "), absl::string_view::npos)
      << pair.status();
  EXPECT_FALSE(MakePipeTransport(-1).ok());
}

}  // namespace
}  // namespace tickbench::transport
