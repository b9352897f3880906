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

// Records a failed write to standard output (fd 1) or standard error (fd 2) and its errno;
// the first failure of each stream is kept. StandardStreams (harness/report) calls it.
void NoteStandardStreamError(int fd, int error);

// The exit code of a mode whose writes to the standard streams may have failed: both
// streams are flushed and their error indicators read (stdio's and NoteStandardStreamError's).
// Promised: a failed write to standard output (a full file system, /dev/full, a pipe whose
// reader has gone) prints one line, "tickbench: cannot write standard output: <reason>",
// and turns an exit code of 0 into 1 (another code, a usage error or a stop, is kept); a
// failed write to standard error does the same without a line (there is nowhere to print it).
// Not promised: which of several failures the reason names (the first one recorded), nor a
// reason at all where stdio kept only its error indicator ("a write failed").
int ExitAfterStandardStreams(int exit_code);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_COMMAND_STATUS_H_
