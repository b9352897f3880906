#include "harness/cli/hints/near_names.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tickbench::harness {

int EditDistance(absl::string_view a, absl::string_view b) {
  // Optimal string alignment: Levenshtein plus transpositions of neighbours.
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

namespace {

// The most edits a slip makes in a name typed this long.
int EditsAllowed(absl::string_view typed) {
  return typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
}

}  // namespace

std::vector<std::string> NearNames(absl::string_view typed, const std::vector<std::string>& names) {
  if (typed.empty() || std::find(names.begin(), names.end(), typed) != names.end()) return {};
  const int allowed = EditsAllowed(typed);
  int best = allowed + 1;
  for (const std::string& name : names) best = std::min(best, EditDistance(typed, name));
  std::vector<std::string> near;
  for (const std::string& name : names) {
    if (best <= allowed && EditDistance(typed, name) == best) near.push_back(name);
  }
  if (!near.empty() || typed.size() < 3) return near;
  for (const std::string& name : names) {
    if (absl::StartsWith(name, typed)) near.push_back(name);
  }
  if (!near.empty()) return near;
  for (const std::string& name : names) {
    if (absl::StrContains(name, typed)) near.push_back(name);
  }
  return near;
}

std::string NearestName(absl::string_view typed, const std::vector<std::string>& names) {
  std::vector<std::string> near = NearNames(typed, names);
  if (near.empty()) return "";
  // Names `typed` begins: the shortest (--iter is --iterations, not --iterations_max).
  if (EditDistance(typed, near.front()) > EditsAllowed(typed) &&
      absl::StartsWith(near.front(), typed)) {
    return *std::min_element(near.begin(), near.end(),
                             [](const auto& a, const auto& b) { return a.size() < b.size(); });
  }
  return near.front();
}

std::string DidYouMean(absl::string_view typed, const std::vector<std::string>& names) {
  std::vector<std::string> near = NearNames(typed, names);
  if (near.empty()) return "";
  if (near.size() > 3) near.resize(3);
  const std::string last = near.back();
  near.pop_back();
  return absl::StrCat("did you mean ", absl::StrJoin(near, ", "), near.empty() ? "" : " or ", last,
                      "?");
}

absl::Status WithDidYouMean(absl::Status status, absl::string_view typed,
                            const std::vector<std::string>& names) {
  const std::string hint = DidYouMean(typed, names);
  if (status.ok() || hint.empty()) return status;
  return absl::Status(status.code(), absl::StrCat(status.message(), "; ", hint));
}

}  // namespace tickbench::harness
