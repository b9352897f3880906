// Ownership of one file descriptor: it is closed exactly once, when its owner goes.
#ifndef TRANSPORT_UNIQUE_FD_H_
#define TRANSPORT_UNIQUE_FD_H_

namespace tickbench::transport {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

  // Gives up ownership without closing; the caller closes what it gets.
  int release();

  // Closes the descriptor held (if any), then owns `fd`.
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_UNIQUE_FD_H_
