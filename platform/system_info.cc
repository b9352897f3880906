// The platform-independent parts of system_info.h.
#include <cerrno>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "platform/errno_status.h"
#include "platform/system_info.h"

namespace tickbench::platform {

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
