// Writing results to a file the user named: whole or not at all, and only ever a regular
// file (a symbolic link, a FIFO, a device node or a directory at the target is refused,
// never replaced or written through).
#ifndef HARNESS_OUTPUT_OUTPUT_FILE_H_
#define HARNESS_OUTPUT_OUTPUT_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tickbench::harness {

// A path as the user meant it: relative paths resolve against the directory `bazel run`
// was started from (BUILD_WORKING_DIRECTORY), not the runfiles tree Bazel runs us in.
std::string ResolveUserPath(absl::string_view path);

// Checks, before any measurement, that `path` (already resolved) can take the results
// of the flag `flag` ("--output" or "output": either spelling names the flag once), so that
// a long sweep does not end with nowhere to put them. OK when:
//   - `path` is "-" (what "-" means, standard output or otherwise, is the caller's);
//   - `path` is a regular file (not followed if it is a symbolic link: lstat) that we may
//     write and that is not read-only (some write permission bit set: a 0444 file is kept
//     even for root), in a directory we may write (the new file is made beside it, then
//     renamed);
//   - `path` does not exist, and its directory exists, is a directory, and is writable.
// Anything else is InvalidArgument, "--FLAG: <what> <escaped path>: <reason>": an empty
// path; a symbolic link, FIFO, device, socket or directory at `path`; a missing directory;
// no permission; a name too long for the temporary file beside it (`path` plus
// ".tmp.XXXXXX" past the directory's NAME_MAX, or past PATH_MAX), refused here rather than
// after a measurement. Nothing is created or changed. The answer holds at the moment of the
// call only: WriteFileAtomically checks the target's type again when it writes.
absl::Status CheckOutputTarget(absl::string_view flag, absl::string_view path);

// Writes `contents` to a temporary file beside `path`, syncs it, and renames it over
// `path`: a reader sees the old file or the whole new one, never a part. A new file has
// mode 0666 less the umask; a rewritten one keeps its mode (0600 stays 0600).
//
// Only a writable regular file is replaced (a read-only one, 0444, is kept, as
// CheckOutputTarget says): when something else is at `path` (a symbolic link, a
// FIFO, a device node, a directory, ...), it is left untouched, and so is what a link
// points to, and the result is FailedPrecondition. The type is checked (lstat) before
// the temporary file is made and again just before the rename; something put at `path`
// between that last check and the rename is still replaced (rename(2) offers no "only if
// a regular file"), a race this function does not close. Errors name the escaped path.
absl::Status WriteFileAtomically(absl::string_view path, absl::string_view contents);

// Files that belong together (a plot and its data): each is written as WriteFileAtomically
// writes one, all or none. Every file is written to its temporary and synced first; only
// when all of them are are they renamed over their paths, in order. A failure before the
// renames (a full file system, a write error, something other than a regular file at a
// path) leaves every path as it was and no temporary behind. Not promised: a rename that
// fails after an earlier one succeeded (a target replaced by a directory in between)
// leaves the earlier file new; the error says which path failed.
struct FileContents {
  absl::string_view path;
  absl::string_view contents;
};
absl::Status WriteFilesAtomically(absl::Span<const FileContents> files);

// Whether two output paths (already resolved) name the same file, however spelt:
// "./a.csv", "a.csv" and "dir/../a.csv" are one file (the directory's real path and the
// name are compared), and so are two hard links, or a path and a symbolic link to it, when
// the file exists (the same device and inode). An empty path or "-" names no file.
bool SameOutputFile(absl::string_view a, absl::string_view b);

// Checks that `path`'s directory exists and is writable. The message, "directory <escaped
// directory>: <reason>", names no flag. CheckOutputTarget checks more and is preferred.
absl::Status CheckWritable(absl::string_view path);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_OUTPUT_FILE_H_
