// --flagfile under the command line's rules: tickbench reads the files itself, before
// Abseil's parser (whose reader follows any file, FIFOs and devices included, without a
// bound, and reads files that name themselves for ever).
//
// Promised:
//   * Each file of --flagfile=A[,B...] (also "--flagfile A") is read only if it is a
//     regular file of at most kMaxFlagFileBytes (platform::ReadUserFile: a FIFO, a device,
//     a directory or /dev/urandom is refused without blocking or reading it), relative to
//     where `bazel run` was started.
//   * Its lines are Abseil's flag file format: white space around a line is dropped, an
//     empty line or one starting with '#' is skipped, every other line is one flag
//     ("--name=value") put where the --flagfile argument was. A line that is not a flag
//     (no leading '-', or "--"), a --flagfile in a flag file (no recursion), or a control
//     byte in a line (a terminal escape) is refused.
//   * Every refusal is one InvalidArgument line naming --flagfile, the escaped file name
//     and the line number where there is one; the caller prints it and exits 2.
// Not promised: --fromenv and --tryfromenv are Abseil's (the environment is bounded).
#ifndef HARNESS_CLI_FLAGFILE_FLAG_FILE_H_
#define HARNESS_CLI_FLAGFILE_FLAG_FILE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tickbench::harness {

// The largest flag file read: 64 KiB, hundreds of flags.
inline constexpr size_t kMaxFlagFileBytes = size_t{64} << 10;

// `args` (without the program name) with every --flagfile replaced by its files' flags; the
// arguments after "--" are kept as they are.
absl::StatusOr<std::vector<std::string>> ExpandFlagFiles(const std::vector<std::string>& args);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_FLAGFILE_FLAG_FILE_H_
