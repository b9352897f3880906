#include "harness/output/build_info.h"

#include "absl/strings/str_cat.h"
// TICKBENCH_BUILD_VERSION, written by //harness/output:build_version.
#include "harness/output/build_version.inc"
#include "platform/facts/system_info.h"

namespace tickbench::harness {

std::string TickbenchVersion() { return TICKBENCH_BUILD_VERSION; }

std::string VersionLine() {
  return absl::StrCat("tickbench ", TickbenchVersion(), " (", platform::BuildMode(), ")");
}

}  // namespace tickbench::harness
