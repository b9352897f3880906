#include "harness/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "platform/errno_status.h"

namespace tickbench::harness {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

std::string ResolveUserPath(absl::string_view path) {
  if (path.empty() || absl::StartsWith(path, "/")) return std::string(path);
  const char* working_directory = std::getenv("BUILD_WORKING_DIRECTORY");
  if (working_directory == nullptr || *working_directory == '\0') return std::string(path);
  return absl::StrCat(working_directory, "/", path);
}

absl::Status CheckWritable(absl::string_view path) {
  const std::string directory = DirectoryOf(std::string(path));
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("--output: directory ", directory));
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(absl::string_view path, absl::string_view contents) {
  const std::string target(path);
  std::string temporary = absl::StrCat(target, ".tmp.XXXXXX");
  std::vector<char> name(temporary.begin(), temporary.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return platform::ErrnoToStatus(errno, absl::StrCat("create a temporary file for ", target));
  temporary = name.data();
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error_number = errno;
      close(fd);
      unlink(temporary.c_str());
      return platform::ErrnoToStatus(error_number, absl::StrCat("write ", temporary));
    }
    written += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; results are for sharing, so use the usual 0644 less umask.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  if (fsync(fd) != 0 || close(fd) != 0) {
    const int error_number = errno;
    unlink(temporary.c_str());
    return platform::ErrnoToStatus(error_number, absl::StrCat("sync ", temporary));
  }
  if (rename(temporary.c_str(), target.c_str()) != 0) {
    const int error_number = errno;
    unlink(temporary.c_str());
    return platform::ErrnoToStatus(error_number, absl::StrCat("rename to ", target));
  }
  return absl::OkStatus();
}

}  // namespace tickbench::harness
