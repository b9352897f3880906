// The platform-independent parts of system_info.h.
#include <cerrno>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "platform/errno_status.h"
#include "platform/system_info.h"

namespace tickbench::platform {

bool CpuinfoSaysHypervisor(absl::string_view cpuinfo) {
  for (absl::string_view line : absl::StrSplit(cpuinfo, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    if (absl::StripAsciiWhitespace(line.substr(0, colon)) != "flags") continue;
    for (absl::string_view flag :
         absl::StrSplit(line.substr(colon + 1), ' ', absl::SkipEmpty())) {
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
