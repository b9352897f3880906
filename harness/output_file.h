// Writing results to a file the user named: whole or not at all.
#ifndef HARNESS_OUTPUT_FILE_H_
#define HARNESS_OUTPUT_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

// A path as the user meant it: relative paths resolve against the directory `bazel run`
// was started from (BUILD_WORKING_DIRECTORY), not the runfiles tree Bazel runs us in.
std::string ResolveUserPath(absl::string_view path);

// Writes `contents` to a temporary file beside `path`, syncs it, and renames it over
// `path`: a reader sees the old file or the whole new one, never a part.
absl::Status WriteFileAtomically(absl::string_view path, absl::string_view contents);

// Checks, before any measurement, that `path`'s directory exists and is writable, so
// that a long sweep does not end with nowhere to put its results.
absl::Status CheckWritable(absl::string_view path);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_FILE_H_
