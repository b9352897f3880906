#include "transport/echo/peer_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/errno_status.h"

namespace tickbench::transport {
namespace {

// One write of at most PIPE_BUF (4096) bytes to a pipe is atomic, so the report arrives
// whole or not at all.
constexpr size_t kMaxReportBytes = PIPE_BUF;

// The child's report: "<absl::StatusCode as int> <message>".
void WriteReport(int fd, const absl::Status& status) {
  std::string report = absl::StrCat(static_cast<int>(status.code()), " ", status.message());
  if (report.size() > kMaxReportBytes) report.resize(kMaxReportBytes);
  while (write(fd, report.data(), report.size()) < 0 && errno == EINTR) {
  }
}

absl::Status ReadReport(int fd) {
  char buffer[kMaxReportBytes];
  ssize_t n;
  do {
    n = read(fd, buffer, sizeof(buffer));
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return absl::OkStatus();
  const std::string report(buffer, static_cast<size_t>(n));
  const size_t space = report.find(' ');
  int code = 0;
  if (space == std::string::npos || !absl::SimpleAtoi(report.substr(0, space), &code) ||
      code <= 0 || code > static_cast<int>(absl::StatusCode::kUnauthenticated)) {
    return absl::InternalError(absl::StrCat("echo peer: ", report));
  }
  return absl::Status(static_cast<absl::StatusCode>(code),
                      absl::StrCat("echo peer: ", report.substr(space + 1)));
}

[[noreturn]] void RunChild(EndpointPair pair, UniqueFd report_fd, const EchoPeerOptions& options,
                           int pin_cpu, pid_t parent) {
  // Die with the harness, however it ends: a datagram peer never sees end of file, and
  // a busy-polling one would spin on for ever. getppid() closes the race with a parent
  // that died before prctl().
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(1);
  pair.client.reset();
  absl::Status status = absl::OkStatus();
  if (pin_cpu >= 0) status = platform::PinCurrentThreadToCpu(pin_cpu);
  if (status.ok()) status = RunEchoPeer(*pair.server, options);
  if (!status.ok()) WriteReport(report_fd.get(), status);
  // _exit: no atexit handlers, no static destructors, no flushing of stdio buffers the
  // parent also holds copies of.
  _exit(status.ok() ? 0 : 1);
}

}  // namespace

absl::StatusOr<PeerProcess> StartEchoPeerProcess(EndpointPair pair, const EchoPeerOptions& options,
                                                 int pin_cpu) {
  if (pair.client == nullptr || pair.server == nullptr) {
    return absl::InvalidArgumentError("StartEchoPeerProcess needs both ends of a pair");
  }
  // Non-blocking: reading the report after the child is reaped must never wait, and the
  // child's single short write into an empty pipe always fits.
  int report[2];
  if (pipe2(report, O_CLOEXEC | O_NONBLOCK) != 0) {
    return platform::ErrnoToStatus(errno, "pipe2");
  }
  UniqueFd report_read(report[0]), report_write(report[1]);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return platform::ErrnoToStatus(errno, "fork");
  if (pid == 0) {
    report_read.reset();
    RunChild(std::move(pair), std::move(report_write), options, pin_cpu, parent);
  }
  pair.server.reset();
  report_write.reset();
  return PeerProcess(pid, std::move(pair.client), std::move(report_read));
}

PeerProcess::PeerProcess(pid_t pid, std::unique_ptr<Endpoint> client, UniqueFd report_fd)
    : pid_(pid), client_(std::move(client)), report_fd_(std::move(report_fd)) {}

PeerProcess::PeerProcess(PeerProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      reaped_(other.reaped_),
      reaped_elsewhere_(other.reaped_elsewhere_),
      killed_after_grace_(other.killed_after_grace_),
      wait_status_(other.wait_status_),
      grace_(other.grace_),
      client_(std::move(other.client_)),
      report_fd_(std::move(other.report_fd_)),
      report_status_(std::move(other.report_status_)) {}

PeerProcess& PeerProcess::operator=(PeerProcess&& other) noexcept {
  if (this != &other) {
    KillAndReap();
    pid_ = std::exchange(other.pid_, -1);
    reaped_ = other.reaped_;
    reaped_elsewhere_ = other.reaped_elsewhere_;
    killed_after_grace_ = other.killed_after_grace_;
    wait_status_ = other.wait_status_;
    grace_ = other.grace_;
    client_ = std::move(other.client_);
    report_fd_ = std::move(other.report_fd_);
    report_status_ = std::move(other.report_status_);
  }
  return *this;
}

PeerProcess::~PeerProcess() { KillAndReap(); }

bool PeerProcess::TryReap() {
  if (pid_ <= 0 || reaped_) return true;
  int status = 0;
  pid_t result;
  do {
    result = waitpid(pid_, &status, WNOHANG);
  } while (result < 0 && errno == EINTR);
  if (result == 0) return false;
  reaped_ = true;
  // ECHILD: someone else reaped it (SIGCHLD ignored, or a stray waitpid(-1)).
  reaped_elsewhere_ = result != pid_;
  wait_status_ = status;
  return true;
}

void PeerProcess::KillAndReap() {
  if (pid_ <= 0 || TryReap()) return;
  kill(pid_, SIGKILL);
  int status = 0;
  pid_t result;
  // SIGKILL cannot be caught or ignored, so this wait is bounded by the kernel
  // tearing the child down.
  do {
    result = waitpid(pid_, &status, 0);
  } while (result < 0 && errno == EINTR);
  reaped_ = true;
  reaped_elsewhere_ = result != pid_;
  wait_status_ = status;
}

bool PeerProcess::alive() { return !TryReap(); }

absl::Status PeerProcess::Stop(absl::Duration grace) {
  if (pid_ <= 0) return absl::FailedPreconditionError("no echo peer process");
  if (!reaped_) {
    // 24 hours stands for "for ever" and keeps the deadline arithmetic from overflowing.
    grace_ = std::clamp(grace, absl::ZeroDuration(), absl::Hours(24));
    // The quit frame goes from another thread: a peer that is alive but not reading
    // (blocked writing echoes nobody reads) could block this send for ever, and the
    // grace period must still end. Killing the child below unblocks it (EPIPE).
    std::thread quit([this] { SendQuit(*client_).IgnoreError(); });
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::nanoseconds(absl::ToInt64Nanoseconds(grace_));
    while (!TryReap() && std::chrono::steady_clock::now() < deadline) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    if (!reaped_) {
      killed_after_grace_ = true;
      KillAndReap();
    }
    quit.join();
  }
  return EndStatus();
}

absl::Status PeerProcess::EndStatus() {
  if (reaped_elsewhere_) {
    return absl::UnknownError(
        absl::StrCat("echo peer (pid ", pid_, ") was reaped elsewhere; how it ended is unknown"));
  }
  if (killed_after_grace_) {
    return absl::DeadlineExceededError(
        absl::StrCat("echo peer (pid ", pid_, ") did not end within ", absl::FormatDuration(grace_),
                     " of the quit frame; killed it"));
  }
  if (WIFSIGNALED(wait_status_)) {
    const int signal_number = WTERMSIG(wait_status_);
    return absl::AbortedError(absl::StrFormat("echo peer (pid %d) killed by signal %d (%s)", pid_,
                                              signal_number, strsignal(signal_number)));
  }
  const int code = WIFEXITED(wait_status_) ? WEXITSTATUS(wait_status_) : -1;
  if (code == 0) return absl::OkStatus();
  if (report_fd_.valid()) {
    report_status_ = ReadReport(report_fd_.get());
    report_fd_.reset();
  }
  if (!report_status_.ok()) return report_status_;
  return absl::InternalError(absl::StrFormat("echo peer (pid %d) exited with code %d", pid_, code));
}

}  // namespace tickbench::transport
