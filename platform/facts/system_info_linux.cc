// Linux: uname, /proc/cpuinfo and the clocksource and cpufreq files in /sys.
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/facts/system_info.h"

namespace tickbench::platform {
namespace {

std::string FileOrEmpty(absl::string_view path) {
  absl::StatusOr<std::string> text = ReadSmallTextFile(path);
  return text.ok() ? *text : std::string();
}

// x86 names the CPU in "model name"; arm64 kernels often give only "CPU implementer" and
// "CPU part", so those are kept as a fallback.
std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, implementer, part;
  while (std::getline(cpuinfo, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key(absl::StripAsciiWhitespace(line.substr(0, colon)));
    const std::string value(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    if (key == "model name" || key == "Model" || key == "cpu model") return value;
    if (key == "CPU implementer" && implementer.empty()) implementer = value;
    if (key == "CPU part" && part.empty()) part = value;
  }
  if (!implementer.empty()) return absl::StrCat("implementer ", implementer, " part ", part);
  return "unknown";
}

}  // namespace

absl::StatusOr<LoadAverage> ReadLoadAverage() {
  absl::StatusOr<std::string> text = ReadSmallTextFile("/proc/loadavg");
  if (!text.ok()) return text.status();
  return ParseLoadAverage(*text);
}

SystemInfo GetSystemInfo() {
  SystemInfo info;
  utsname names{};
  if (uname(&names) == 0) {
    info.os = names.sysname;
    info.kernel = absl::StrCat(names.release, " ", names.version);
    info.machine = names.machine;
    info.hostname = names.nodename;
  }
  info.cpu_model = CpuModel();
  info.cpu_count = OnlineCpuCount();
  info.page_size_bytes = sysconf(_SC_PAGESIZE);
  constexpr absl::string_view kClocksource = "/sys/devices/system/clocksource/clocksource0/";
  info.clocksource = FileOrEmpty(absl::StrCat(kClocksource, "current_clocksource"));
  info.available_clocksources = FileOrEmpty(absl::StrCat(kClocksource, "available_clocksource"));
  info.cpu_governor = FileOrEmpty("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::ostringstream text;
    text << cpuinfo.rdbuf();
    info.virtual_machine = CpuinfoSaysHypervisor(text.str());
  }
  info.build_mode = BuildMode();
  return info;
}

}  // namespace tickbench::platform
