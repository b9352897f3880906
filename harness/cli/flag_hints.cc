#include "harness/cli/flag_hints.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

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

std::string NearestName(absl::string_view typed, const std::vector<std::string>& names) {
  const int allowed = typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
  std::string best;
  int best_distance = allowed + 1;
  for (const std::string& name : names) {
    const int distance = EditDistance(typed, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  if (!best.empty() || typed.size() < 3) return best;
  for (const std::string& name : names) {
    if (absl::StartsWith(name, typed) && (best.empty() || name.size() < best.size())) best = name;
  }
  return best;
}

std::vector<std::string> UnknownFlagHints(const std::vector<std::string>& args,
                                          const std::vector<std::string>& names,
                                          bool (*takes_value)(absl::string_view name)) {
  auto known = [&names](absl::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string> hints;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) continue;
    const size_t equals = arg.find('=');
    const absl::string_view name = arg.substr(0, equals);
    if (known(name)) {
      if (equals == absl::string_view::npos && takes_value(name)) ++i;
      continue;
    }
    if (absl::StartsWith(name, "no") && known(name.substr(2))) continue;
    const std::string nearest = NearestName(name, names);
    if (nearest.empty()) continue;
    hints.push_back(absl::StrCat("tickbench: unknown flag --", absl::CHexEscape(name),
                                 "; did you mean --", nearest, "?"));
  }
  return hints;
}

}  // namespace tickbench::harness
