#include "harness/output/command_status.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {

int Usage(const absl::Status& status) {
  absl::FPrintF(stderr, "tickbench: %s\n", status.message());
  return kExitUsage;
}

absl::Status WithFlag(absl::string_view flag, const absl::Status& status) {
  const std::string prefix = absl::StrCat("--", flag);
  if (absl::StartsWith(status.message(), absl::StrCat(prefix, ":")) ||
      absl::StartsWith(status.message(), absl::StrCat(prefix, " "))) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(prefix, ": ", status.message()));
}

int ExitIfStopped(absl::string_view what) {
  if (!platform::StopRequested()) return -1;
  absl::FPrintF(stderr, "tickbench: stopped by signal %d %s\n", platform::StopSignal(), what);
  return 128 + platform::StopSignal();
}

namespace {
// The first errno of a failed write to fd 1 and fd 2 (index), 0 while none failed, -1 for a
// failure whose errno is not known (stdio's error indicator alone).
int g_stream_error[3] = {0, 0, 0};
}  // namespace

void NoteStandardStreamError(int fd, int error) {
  if (fd < 1 || fd > 2 || g_stream_error[fd] != 0) return;
  g_stream_error[fd] = error != 0 ? error : -1;
}

int ExitAfterStandardStreams(int exit_code) {
  for (const int fd : {1, 2}) {
    std::FILE* const stream = fd == 1 ? stdout : stderr;
    errno = 0;
    if (std::fflush(stream) != 0 || std::ferror(stream)) NoteStandardStreamError(fd, errno);
  }
  if (g_stream_error[1] == 0 && g_stream_error[2] == 0) return exit_code;
  if (g_stream_error[1] != 0 && g_stream_error[2] == 0) {
    absl::FPrintF(stderr, "tickbench: cannot write standard output: %s\n",
                  g_stream_error[1] > 0 ? std::strerror(g_stream_error[1]) : "a write failed");
  }
  return exit_code == kExitOk ? kExitFault : exit_code;
}

}  // namespace tickbench::harness
