#include "harness/output/command_status.h"

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

}  // namespace tickbench::harness
