#include "transport/sockets/unix_socket_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"

namespace tickbench::transport {
namespace {

std::string TempRoot() {
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir == nullptr || tmpdir[0] == '\0') return "/tmp";
  std::string root = tmpdir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

}  // namespace

absl::StatusOr<UnixSocketDir> UnixSocketDir::Create() {
  std::string path = absl::StrCat(TempRoot(), "/tickbench-XXXXXX");
  if (mkdtemp(path.data()) == nullptr) {
    return platform::ErrnoToStatus(errno, absl::StrCat("mkdtemp ", path));
  }
  const int fd = open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const int error_number = errno;
    rmdir(path.c_str());
    return platform::ErrnoToStatus(error_number, absl::StrCat("open ", path));
  }
  return UnixSocketDir(std::move(path), UniqueFd(fd));
}

UnixSocketDir::UnixSocketDir(UnixSocketDir&& other) noexcept
    : path_(std::move(other.path_)),
      dir_fd_(std::move(other.dir_fd_)),
      names_(std::move(other.names_)) {
  other.path_.clear();  // a moved-from std::string is not promised to be empty
  other.names_.clear();
}

UnixSocketDir& UnixSocketDir::operator=(UnixSocketDir&& other) noexcept {
  if (this != &other) {
    Remove().IgnoreError();
    path_ = std::move(other.path_);
    other.path_.clear();
    dir_fd_ = std::move(other.dir_fd_);
    names_ = std::move(other.names_);
    other.names_.clear();
  }
  return *this;
}

UnixSocketDir::~UnixSocketDir() { Remove().IgnoreError(); }

absl::StatusOr<UnixAddress> UnixSocketDir::AddressFor(absl::string_view name) {
  if (path_.empty()) return absl::FailedPreconditionError("socket directory already removed");
  if (name.empty() || name.find('/') != absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("bad socket file name '", name, "'"));
  }
  UnixAddress result;
  result.address.sun_family = AF_UNIX;
  std::string path = absl::StrCat(path_, "/", name);
  // sun_path is 108 bytes including the terminating NUL.
  if (path.size() >= sizeof(result.address.sun_path)) {
    path = absl::StrCat("/proc/self/fd/", dir_fd_.get(), "/", name);
    if (path.size() >= sizeof(result.address.sun_path)) {
      return absl::InvalidArgumentError(absl::StrCat("socket file name too long: ", name));
    }
  }
  std::memcpy(result.address.sun_path, path.c_str(), path.size() + 1);
  result.length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size() + 1);
  names_.emplace_back(name);
  return result;
}

absl::Status UnixSocketDir::Remove() {
  if (path_.empty()) return absl::OkStatus();
  absl::Status result = absl::OkStatus();
  for (const std::string& name : names_) {
    // ENOENT: the socket was never bound (an error path), which is fine.
    if (unlinkat(dir_fd_.get(), name.c_str(), 0) != 0 && errno != ENOENT && result.ok()) {
      result = platform::ErrnoToStatus(errno, absl::StrCat("unlink ", path_, "/", name));
    }
  }
  names_.clear();
  if (rmdir(path_.c_str()) != 0 && result.ok()) {
    result = platform::ErrnoToStatus(errno, absl::StrCat("rmdir ", path_));
  }
  path_.clear();
  dir_fd_.reset();
  return result;
}

}  // namespace tickbench::transport
