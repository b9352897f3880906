#include "fuzz/size_list_fuzz.h"

#include <algorithm>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "harness/cli/size_list.h"

namespace tickbench::fuzz {

void FuzzSizeList(const uint8_t* data, size_t size) {
  constexpr size_t kLimitBytes = 8;
  if (size < kLimitBytes) return;
  uint64_t max_size_bytes = 0;
  for (size_t i = 0; i < kLimitBytes; ++i) max_size_bytes |= uint64_t{data[i]} << (8 * i);
  const absl::string_view text(reinterpret_cast<const char*>(data + kLimitBytes),
                               size - kLimitBytes);

  const absl::StatusOr<std::vector<size_t>> sizes =
      harness::ParseSizeList(text, static_cast<size_t>(max_size_bytes));
  if (!sizes.ok()) {
    FuzzCheck(absl::IsInvalidArgument(sizes.status()), "a rejected list is InvalidArgument");
    FuzzCheck(absl::StartsWith(sizes.status().message(), "--sizes:"),
              "a rejection names the --sizes flag");
    return;
  }
  FuzzCheck(sizes->size() <= harness::kMaxSweepSizes, "at most kMaxSweepSizes sizes");
  // Every comma-separated item gives at least one size (a range has start <= stop).
  const size_t items = static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  FuzzCheck(sizes->size() >= items, "each item gives at least one size");
  for (const size_t s : *sizes) {
    FuzzCheck(s >= 1, "no size of 0 is accepted");
    FuzzCheck(s <= max_size_bytes, "no size over the limit is accepted");
  }
}

}  // namespace tickbench::fuzz
