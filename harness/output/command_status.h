// Exit codes and the messages that go with them, shared by the commands (one per mode).
// Exit codes: 0 success; 1 a fault during the measurement (what was measured is still
// printed and written); 2 bad input (a flag, a file); 128 + the signal when SIGINT or
// SIGTERM stopped it.
#ifndef HARNESS_OUTPUT_COMMAND_STATUS_H_
#define HARNESS_OUTPUT_COMMAND_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFault = 1;
inline constexpr int kExitUsage = 2;

// Prints "tickbench: MESSAGE" to stderr; returns kExitUsage.
int Usage(const absl::Status& status);

// `status` with "--flag: " in front of its message, unless the message already starts by
// naming the flag.
absl::Status WithFlag(absl::string_view flag, const absl::Status& status);

// 128 + the signal when SIGINT or SIGTERM asked to stop, after saying so on stderr
// ("stopped by signal N <what>"); else -1.
int ExitIfStopped(absl::string_view what);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_COMMAND_STATUS_H_
