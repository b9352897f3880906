// Message sizes as given on the command line: "32,512,1024", ranges "start:stop:step"
// ("50:2000:50" is 50, 100, ..., 2000), or both mixed ("1,64,1k:64k:1k"). A "k" suffix
// means 1024 bytes.
#ifndef HARNESS_CLI_SIZE_LIST_H_
#define HARNESS_CLI_SIZE_LIST_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

// At most this many sizes in one sweep: a bound on the run time and the memory of the
// results, far above any useful sweep (32..65536 step 32 is 2048 sizes).
inline constexpr size_t kMaxSweepSizes = 10'000;

// Parses the list. InvalidArgument (naming --sizes and the bad item, its control bytes
// escaped) for: an empty list or item, a size of 0, a non-number, a number too large to
// parse (the message gives `max_size_bytes` as the largest allowed), a malformed range
// (not three parts, step <= 0, start > stop), more than kMaxSweepSizes sizes, or a size
// over `max_size_bytes`.
absl::StatusOr<std::vector<size_t>> ParseSizeList(absl::string_view text, size_t max_size_bytes);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_SIZE_LIST_H_
