// A fresh private directory for the socket files of one UNIX-socket connection.
//
// Each Connect() of a UNIX transport binds real paths (not the abstract namespace, and
// not socketpair()), so it measures what two unrelated processes would use. The
// directory is made with mkdtemp() (mode 0700: no other user can connect or swap the
// socket) under $TMPDIR, or /tmp when TMPDIR is unset or empty. Remove() unlinks every
// socket file handed out and the directory; the transports call it as soon as the
// sockets are connected, and the destructor calls it in any case, so nothing is left
// behind even on an error path.
#ifndef TRANSPORT_UNIX_SOCKET_DIR_H_
#define TRANSPORT_UNIX_SOCKET_DIR_H_

#include <sys/socket.h>
#include <sys/un.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/io/unique_fd.h"

namespace tickbench::transport {

struct UnixAddress {
  sockaddr_un address = {};
  socklen_t length = 0;

  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&address); }
};

class UnixSocketDir {
 public:
  // Makes the directory.
  static absl::StatusOr<UnixSocketDir> Create();

  UnixSocketDir(UnixSocketDir&& other) noexcept;
  UnixSocketDir& operator=(UnixSocketDir&& other) noexcept;
  UnixSocketDir(const UnixSocketDir&) = delete;
  UnixSocketDir& operator=(const UnixSocketDir&) = delete;
  ~UnixSocketDir();

  // The address of the socket file `name` in this directory, remembered for Remove().
  // sun_path holds 107 characters; a longer path (a deep $TMPDIR) is reached as
  // "/proc/self/fd/<n>/<name>", <n> being an O_PATH descriptor of the directory.
  absl::StatusOr<UnixAddress> AddressFor(absl::string_view name);

  // Unlinks the socket files and removes the directory. Idempotent.
  absl::Status Remove();

  const std::string& path() const { return path_; }

 private:
  UnixSocketDir(std::string path, UniqueFd dir_fd)
      : path_(std::move(path)), dir_fd_(std::move(dir_fd)) {}

  std::string path_;  // empty once removed
  UniqueFd dir_fd_;   // O_PATH: used for unlinkat() and for over-long paths
  std::vector<std::string> names_;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_UNIX_SOCKET_DIR_H_
