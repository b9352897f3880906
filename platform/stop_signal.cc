#include "platform/stop_signal.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"

namespace tickbench::platform {
namespace stop_internal {
std::atomic<int> g_stop_signal{0};
}  // namespace stop_internal

namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores to this atomic");

void OnStopSignal(int signal_number) {
  int expected = 0;
  if (!stop_internal::g_stop_signal.compare_exchange_strong(expected, signal_number)) {
    _exit(128 + signal_number);  // a second signal: the user does not want to wait
  }
}

}  // namespace

absl::Status InstallStopHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: blocked calls return EINTR
  for (int signal_number : {SIGINT, SIGTERM}) {
    if (sigaction(signal_number, &action, nullptr) != 0) {
      return ErrnoToStatus(errno, absl::StrCat("sigaction(", signal_number, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CancelledIfStopRequested(absl::string_view what) {
  const int signal_number = StopSignal();
  if (signal_number == 0) return absl::OkStatus();
  return absl::CancelledError(
      absl::StrCat("stopped by signal ", signal_number, " (while ", what, ")"));
}

void ResetStopForTesting() { stop_internal::g_stop_signal.store(0); }

}  // namespace tickbench::platform
