// --compare's input: one sweep's JSON results (--format=json), read and checked by what its
// values mean, per size the figures of its valid runs. The one place --compare checks what
// it reads.
//
// Refused with InvalidArgument "NAME: <problem>": text that is not JSON; the results of
// another mode (a study, a comparison); a schema_version missing or other than
// kSchemaVersion; no "results" array or no result in it; results of more than one
// transport; and, naming the result ("results[3]") and the member: a size_bytes that is not
// a whole number from 1 to analysis::kMaxSweepSizeBytes (the transports' largest message,
// as --analyze takes); a "valid" that is not true or false; in a valid run,
// averaged.rtt_ns or per_iteration.mean_ns missing, or either (or averaged.quantum_ns,
// averaged.resolution_ns, where given) not a number that is 0 or a magnitude from 1e-20 to
// 1e20 ns (analysis::InSweepRange: never negative, infinite, or so large that a mean or a
// ratio of two of them overflows); per_iteration.intervals, where given, not a whole
// number >= 0; more than kMaxCompareSizes sizes, or more than kMaxJsonValues JSON values
// (harness/json/json_reader.h: the parse's memory bound). A member that is null counts as
// not given. A SIGINT or SIGTERM while the text is parsed ends the read with Cancelled.
#ifndef HARNESS_JSON_COMPARE_INPUT_H_
#define HARNESS_JSON_COMPARE_INPUT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

// One size's valid runs.
struct SizeRuns {
  std::vector<double> averaged;       // averaged RTT of each valid run, ns
  std::vector<double> per_iteration;  // per-iteration mean of each valid run, ns
  double averaged_quantum = 0;        // the largest T/N of the runs
  double per_iteration_quantum = 0;   // the largest T/intervals of the runs
  // Every valid run's per-iteration mean is its averaged figure (within 1e-9 of it): the
  // same readings summed the same way, as they are in a sweep without chunked runs (with
  // batch 1 or any other), so that a comparison of the two would only repeat itself.
  bool per_iteration_is_averaged = true;
};

// The most sizes a file may hold: a sweep's (harness/cli/size_list.h, kMaxSweepSizes).
inline constexpr size_t kMaxCompareSizes = 10'000;

struct SweepFile {
  std::string transport;
  std::string clock;
  std::map<int64_t, SizeRuns> sizes;  // every size with a result, valid runs or not
};

// The sweep in `text`; `name` (already escaped) opens every message.
absl::StatusOr<SweepFile> ReadSweepFile(absl::string_view text, absl::string_view name);

}  // namespace tickbench::harness

#endif  // HARNESS_JSON_COMPARE_INPUT_H_
