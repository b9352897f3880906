#include "harness/build_info.h"

#include "absl/strings/str_cat.h"
#include "harness/build_version.inc"  // TICKBENCH_BUILD_VERSION, written by //harness:build_version
#include "platform/system_info.h"

namespace tickbench::harness {

std::string TickbenchVersion() { return TICKBENCH_BUILD_VERSION; }

std::string VersionLine() {
  return absl::StrCat("tickbench ", TickbenchVersion(), " (", platform::BuildMode(), ")");
}

}  // namespace tickbench::harness
