#include "harness/output/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "platform/errno_status.h"

namespace tickbench::harness {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// `path` with its directory made real (realpath: no ".", "..", repeated slashes or
// symbolic links in it); `path` as it is when the directory cannot be resolved.
std::string NormalOutputPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  char* real = realpath(DirectoryOf(path).c_str(), nullptr);
  if (real == nullptr) return path;
  std::string normal = real;
  free(real);
  if (name.empty() || name == "." || name == "..") return path;  // a directory: refused later
  return normal == "/" ? "/" + name : normal + "/" + name;
}

// "a symbolic link", ... for what lstat found; nullptr for a regular file.
const char* NotARegularFile(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

std::string Reason(int error_number) {
  switch (error_number) {
    case EACCES:
    case EPERM:
      return "permission denied";
    case EROFS:
      return "read-only file system";
    default:
      return absl::AsciiStrToLower(std::strerror(error_number));
  }
}

// The reason `directory` cannot take a new file, or "" when it can.
std::string DirectoryProblem(const std::string& directory) {
  struct stat st;
  if (stat(directory.c_str(), &st) != 0) {
    const int error_number = errno;
    if (error_number == ENOENT || error_number == ENOTDIR) {
      return absl::StrCat("no such directory ", absl::CHexEscape(directory));
    }
    return absl::StrCat("directory ", absl::CHexEscape(directory), ": ", Reason(error_number));
  }
  if (!S_ISDIR(st.st_mode)) return absl::StrCat(absl::CHexEscape(directory), " is not a directory");
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    const int error_number = errno;
    return absl::StrCat("directory ", absl::CHexEscape(directory), ": ", Reason(error_number));
  }
  return "";
}

// The suffix of the temporary file made beside a target (mkostemp's six X included).
constexpr absl::string_view kTemporarySuffix = ".tmp.XXXXXX";

// Whether a regular file of mode `mode` at `target` is read-only: no write permission for
// anyone (0444), which even root, whom access(2) lets write anything, does not replace.
bool ReadOnly(const std::string& target, mode_t mode) {
  return (mode & 0222) == 0 || access(target.c_str(), W_OK) != 0;
}

// Why `target`'s temporary name (target + kTemporarySuffix) could not be made, or "": the
// last component past the directory's longest name (NAME_MAX) or the whole past PATH_MAX.
std::string TemporaryNameProblem(const std::string& target) {
  const size_t slash = target.rfind('/');
  const size_t name = target.size() - (slash == std::string::npos ? 0 : slash + 1);
  long name_max = pathconf(DirectoryOf(target).c_str(), _PC_NAME_MAX);
  if (name_max <= 0) name_max = NAME_MAX;
  const size_t longest = static_cast<size_t>(name_max) - kTemporarySuffix.size();
  if (name > longest) {
    return absl::StrCat("the name is ", name, " bytes; at most ", longest,
                        " fit (the temporary file written beside it adds ", kTemporarySuffix.size(),
                        ")");
  }
  if (target.size() + kTemporarySuffix.size() >= PATH_MAX) {
    return absl::StrCat("the path is ", target.size(), " bytes; at most ",
                        PATH_MAX - 1 - kTemporarySuffix.size(), " fit");
  }
  return "";
}

// The mode for the file that replaces `target`: the existing file's (a 0600 output stays
// 0600), or 0666 less the umask for a new one. FailedPrecondition when something other
// than a writable regular file is at `target`.
absl::StatusOr<mode_t> ReplacementMode(const std::string& target) {
  struct stat st;
  if (lstat(target.c_str(), &st) != 0) {  // absent, or rename will say
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
  }
  const auto refuse = [&](absl::string_view what, absl::string_view rule) {
    return absl::FailedPreconditionError(
        absl::StrCat("refusing ", absl::CHexEscape(target), ": it is ", what, "; ", rule));
  };
  if (const char* what = NotARegularFile(st.st_mode); what != nullptr) {
    return refuse(what, "only a regular file is replaced");
  }
  if (ReadOnly(target, st.st_mode)) return refuse("read-only", "a read-only file is kept");
  return st.st_mode & 07777;
}

// Writes all of `contents` to `fd`, retrying on EINTR; `name` is for the error.
absl::Status WriteAll(int fd, absl::string_view contents, const std::string& name) {
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return platform::ErrnoToStatus(n < 0 ? errno : EIO,
                                     absl::StrCat("write ", absl::CHexEscape(name)));
    }
    written += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

std::string ResolveUserPath(absl::string_view path) {
  if (path.empty() || absl::StartsWith(path, "/")) return std::string(path);
  const char* working_directory = std::getenv("BUILD_WORKING_DIRECTORY");
  if (working_directory == nullptr || *working_directory == '\0') return std::string(path);
  return absl::StrCat(working_directory, "/", path);
}

absl::Status CheckOutputTarget(absl::string_view flag, absl::string_view path) {
  while (absl::ConsumePrefix(&flag, "-")) {
  }
  const std::string prefix = absl::StrCat("--", flag, ": ");
  if (path.empty()) return absl::InvalidArgumentError(absl::StrCat(prefix, "no path given"));
  if (path == "-") return absl::OkStatus();
  const std::string target(path);
  const std::string escaped = absl::CHexEscape(target);
  const auto cannot = [&](absl::string_view reason) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "cannot write ", escaped, ": ", reason));
  };
  if (std::string problem = TemporaryNameProblem(target); !problem.empty()) return cannot(problem);
  struct stat st;
  if (lstat(target.c_str(), &st) == 0) {
    if (const char* what = NotARegularFile(st.st_mode); what != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(prefix, "refusing ", escaped, ": it is ", what,
                       "; tickbench writes regular files only (or - for standard output)"));
    }
    if (access(target.c_str(), W_OK) != 0) {
      const int error_number = errno;
      return cannot(Reason(error_number));
    }
    if (ReadOnly(target, st.st_mode)) return cannot("it is read-only; a read-only file is kept");
    if (std::string problem = DirectoryProblem(DirectoryOf(target)); !problem.empty()) {
      return cannot(problem);
    }
    return absl::OkStatus();
  }
  if (const int error_number = errno; error_number != ENOENT) {
    if (error_number == ENOTDIR) return cannot("no such directory");
    return cannot(Reason(error_number));
  }
  if (std::string problem = DirectoryProblem(DirectoryOf(target)); !problem.empty()) {
    return cannot(problem);
  }
  return absl::OkStatus();
}

bool SameOutputFile(absl::string_view a, absl::string_view b) {
  if (a.empty() || b.empty() || a == "-" || b == "-") return false;
  const std::string first(a), second(b);
  if (first == second || NormalOutputPath(first) == NormalOutputPath(second)) return true;
  struct stat one, other;
  return stat(first.c_str(), &one) == 0 && stat(second.c_str(), &other) == 0 &&
         one.st_dev == other.st_dev && one.st_ino == other.st_ino;
}

absl::Status CheckWritable(absl::string_view path) {
  const std::string directory = DirectoryOf(std::string(path));
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("directory ", absl::CHexEscape(directory)));
  }
  return absl::OkStatus();
}

namespace {

// Writes `contents` to a new temporary file beside `target`, synced, with the mode of the
// file it replaces (ReplacementMode); its path, or an error (nothing left behind).
absl::StatusOr<std::string> StageFile(const std::string& target, absl::string_view contents) {
  const absl::StatusOr<mode_t> mode = ReplacementMode(target);
  if (!mode.ok()) return mode.status();
  std::string temporary = absl::StrCat(target, kTemporarySuffix);
  std::vector<char> name(temporary.begin(), temporary.end());
  name.push_back('\0');
  // O_CLOEXEC: a child started meanwhile (gnuplot) must not hold the file open.
  const int fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    return platform::ErrnoToStatus(
        errno, absl::StrCat("create a temporary file for ", absl::CHexEscape(target)));
  }
  temporary = name.data();
  absl::Status status = WriteAll(fd, contents, temporary);
  if (status.ok()) {
    // mkstemp makes the file 0600: a new one gets the usual 0666 less umask, a rewritten
    // one keeps its own.
    if (fchmod(fd, *mode) != 0) {
      status = platform::ErrnoToStatus(errno, absl::StrCat("chmod ", absl::CHexEscape(temporary)));
    } else if (fsync(fd) != 0) {
      status = platform::ErrnoToStatus(errno, absl::StrCat("sync ", absl::CHexEscape(temporary)));
    }
  }
  if (close(fd) != 0 && status.ok()) {
    status = platform::ErrnoToStatus(errno, absl::StrCat("close ", absl::CHexEscape(temporary)));
  }
  if (!status.ok()) {
    unlink(temporary.c_str());
    return status;
  }
  return temporary;
}

// Renames a staged temporary over `target` (checked again as late as can be: the target
// may have changed while we wrote), then syncs the directory; removes the temporary on
// failure.
absl::Status CommitFile(const std::string& temporary, const std::string& target) {
  if (absl::StatusOr<mode_t> mode = ReplacementMode(target); !mode.ok()) {
    unlink(temporary.c_str());
    return mode.status();
  }
  if (rename(temporary.c_str(), target.c_str()) != 0) {
    const int error_number = errno;
    unlink(temporary.c_str());
    return platform::ErrnoToStatus(error_number,
                                   absl::StrCat("rename to ", absl::CHexEscape(target)));
  }
  // The rename itself to disk; best effort (some file systems refuse fsync on a directory).
  const int directory_fd = open(DirectoryOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd >= 0) {
    fsync(directory_fd);
    close(directory_fd);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteFilesAtomically(absl::Span<const FileContents> files) {
  std::vector<std::string> staged;
  absl::Status status;
  for (const FileContents& file : files) {
    absl::StatusOr<std::string> temporary = StageFile(std::string(file.path), file.contents);
    if (!temporary.ok()) {
      status = temporary.status();
      break;
    }
    staged.push_back(*std::move(temporary));
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    if (status.ok()) {
      status = CommitFile(staged[i], std::string(files[i].path));
    } else {
      unlink(staged[i].c_str());  // one failed: none is renamed
    }
  }
  return status;
}

absl::Status WriteFileAtomically(absl::string_view path, absl::string_view contents) {
  const FileContents file{path, contents};
  return WriteFilesAtomically(absl::MakeConstSpan(&file, 1));
}

}  // namespace tickbench::harness
