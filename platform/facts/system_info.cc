// The platform-independent parts of system_info.h.
#include "platform/facts/system_info.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"

namespace tickbench::platform {

bool CpuinfoSaysHypervisor(absl::string_view cpuinfo) {
  for (absl::string_view line : absl::StrSplit(cpuinfo, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    if (absl::StripAsciiWhitespace(line.substr(0, colon)) != "flags") continue;
    for (absl::string_view flag : absl::StrSplit(line.substr(colon + 1), ' ', absl::SkipEmpty())) {
      if (flag == "hypervisor") return true;
    }
    return false;  // every CPU lists the same flags: the first line decides
  }
  return false;
}

std::string BuildMode() {
#if defined(NDEBUG) && defined(__OPTIMIZE__)
  std::string mode = "opt";
#elif defined(__OPTIMIZE__)
  std::string mode = "opt+assertions";
#elif defined(NDEBUG)
  std::string mode = "fastbuild";
#else
  std::string mode = "dbg";
#endif
#if defined(__SANITIZE_ADDRESS__)
  mode += "+asan";
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(__SANITIZE_ADDRESS__)
  mode += "+asan";
#endif
#endif
#if defined(TICKBENCH_UBSAN)
  mode += "+ubsan";
#endif
  return mode;
}

absl::StatusOr<LoadAverage> ParseLoadAverage(absl::string_view proc_loadavg) {
  const std::vector<absl::string_view> fields =
      absl::StrSplit(proc_loadavg, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  double values[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    if (static_cast<size_t>(i) >= fields.size() || !absl::SimpleAtod(fields[i], &values[i]) ||
        !(values[i] >= 0)) {
      return absl::InvalidArgumentError("not a load average: three numbers expected");
    }
  }
  return LoadAverage{values[0], values[1], values[2]};
}

bool IsOptimizedBuild() {
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && !defined(TICKBENCH_UBSAN)
  return true;
#else
  return false;
#endif
}

absl::StatusOr<std::string> ReadSmallTextFile(absl::string_view path) {
  std::ifstream in{std::string(path)};
  if (!in) return ErrnoToStatus(errno, absl::StrCat("open ", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string result = text.str();
  while (!result.empty() && (result.back() == '\n' || result.back() == '\r')) result.pop_back();
  return result;
}

namespace {

// What a file that is not regular is, for the refusal.
const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string DescribeLimit(size_t max_bytes) {
  if (max_bytes >= (size_t{1} << 20) && max_bytes % (size_t{1} << 20) == 0) {
    return absl::StrFormat("%d MiB", max_bytes >> 20);
  }
  return absl::StrFormat("%d bytes", max_bytes);
}

// Closes the descriptor on every return path.
class ScopedFd {
 public:
  explicit ScopedFd(int fd) : fd_(fd) {}
  ScopedFd(const ScopedFd&) = delete;
  ScopedFd& operator=(const ScopedFd&) = delete;
  ~ScopedFd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<std::string> ReadUserFile(absl::string_view path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. O_NOCTTY: a
  // terminal named by mistake does not become this process's controlling terminal.
  ScopedFd fd(open(std::string(path).c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoToStatus(errno, "open");
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) return ErrnoToStatus(errno, "fstat");
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("it is ", FileTypeName(info.st_mode), "; only regular files are read"));
  }
  const std::string limit = DescribeLimit(max_bytes);
  if (info.st_size < 0 || static_cast<uint64_t>(info.st_size) > max_bytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "it is %d bytes, over the limit of %s for a file to read", info.st_size, limit));
  }
  std::string text;
  // One byte past the limit tells a file that grew while it was read.
  text.resize(std::min(static_cast<size_t>(info.st_size), max_bytes) + 1);
  size_t filled = 0;
  while (true) {
    if (filled == text.size()) {
      if (filled > max_bytes) {
        return absl::InvalidArgumentError(
            absl::StrFormat("it holds more than the limit of %s for a file to read (its size "
                            "said %d bytes)",
                            limit, info.st_size));
      }
      text.resize(std::min(max_bytes + 1, std::max<size_t>(2 * text.size(), 4096)));
    }
    const ssize_t got = read(fd.get(), text.data() + filled, text.size() - filled);
    if (got < 0) {
      if (errno == EINTR) {
        TICKBENCH_RETURN_IF_STOPPED("reading a file");
        continue;
      }
      return ErrnoToStatus(errno, "read");
    }
    if (got == 0) break;
    filled += static_cast<size_t>(got);
    TICKBENCH_RETURN_IF_STOPPED("reading a file");  // a file read whole never blocks
  }
  text.resize(filled);
  return text;
}

absl::StatusOr<int64_t> ReadSysctlInt(absl::string_view name) {
  const std::string path = absl::StrCat("/proc/sys/", absl::StrReplaceAll(name, {{".", "/"}}));
  absl::StatusOr<std::string> text = ReadSmallTextFile(path);
  if (!text.ok()) return text.status();
  int64_t value = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &value)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not an integer: '", *text, "'"));
  }
  return value;
}

}  // namespace tickbench::platform
