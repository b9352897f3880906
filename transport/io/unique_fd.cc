#include "transport/io/unique_fd.h"

#include <unistd.h>

namespace tickbench::transport {

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) reset(other.release());
  return *this;
}

int UniqueFd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void UniqueFd::reset(int fd) {
  if (fd_ >= 0 && fd_ != fd) {
    // No retry on EINTR: Linux frees the descriptor before it can fail, and a second
    // close() might close a descriptor another thread has just been given.
    close(fd_);
  }
  fd_ = fd;
}

}  // namespace tickbench::transport
