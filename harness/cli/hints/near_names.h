// "Did you mean ...?": the names near one typed, for a mistyped flag (--iteratons) and a
// mistyped value (--clock=tsc, --experiment=studdy, --transport=unix) alike, by one rule.
#ifndef HARNESS_CLI_HINTS_NEAR_NAMES_H_
#define HARNESS_CLI_HINTS_NEAR_NAMES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

// Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts 1,
// as typing them in the wrong order is one slip).
int EditDistance(absl::string_view a, absl::string_view b);

// The names in `names` that `typed` may have meant, in `names`' order: the nearest by edit
// distance when near enough (at most 1 edit for names up to 4 characters, 2 up to 8, 3
// beyond; ties all kept); else, for `typed` of 3 characters or more, every name it begins
// (--transport=unix: unix_stream and unix_dgram), else every name it is part of
// (--clock=tsc: rdtsc). Empty when none is that near, or `typed` is one of `names`.
std::vector<std::string> NearNames(absl::string_view typed, const std::vector<std::string>& names);

// The first of NearNames, or "" (a flag's hint names one flag: --iter is --iterations).
// Among names `typed` begins, the shortest.
std::string NearestName(absl::string_view typed, const std::vector<std::string>& names);

// "did you mean rdtsc?", "did you mean unix_stream or unix_dgram?" (at most 3 names), or ""
// when NearNames has none.
std::string DidYouMean(absl::string_view typed, const std::vector<std::string>& names);

// `status` with "; did you mean X?" after its message where `typed` is near names;
// `status` as it is otherwise (and when OK).
absl::Status WithDidYouMean(absl::Status status, absl::string_view typed,
                            const std::vector<std::string>& names);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_HINTS_NEAR_NAMES_H_
