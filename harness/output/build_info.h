// What this binary is: tickbench, its version (stamped at build time from `git describe`
// through Bazel's workspace status) and the build mode, and the version of the JSON
// schema its reports follow (docs/tickbench.schema.json).
#ifndef HARNESS_OUTPUT_BUILD_INFO_H_
#define HARNESS_OUTPUT_BUILD_INFO_H_

#include <string>

namespace tickbench::harness {

// The version of the JSON reports' layout: raised when a key is renamed or removed or its
// meaning changes; a key added keeps it.
inline constexpr int kSchemaVersion = 2;

// `git describe --tags --always --dirty` of the checkout it was built from, e.g.
// "4d22e02" or "v1.2-3-g4d22e02-dirty"; "unknown" when built outside a git checkout or
// without the workspace status command. Only [A-Za-z0-9._+~-] characters.
std::string TickbenchVersion();

// "tickbench VERSION (BUILD MODE)", e.g. "tickbench 4d22e02 (opt)": what --version prints.
std::string VersionLine();

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_BUILD_INFO_H_
