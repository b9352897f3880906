// The sweep table's footer (sweep_report.h): the unresolved sizes' note, the words on
// what the figures are, the receive timeout and the clock's rate against the reference.
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "harness/output/text_wrap.h"
#include "harness/report/size_summary.h"
#include "harness/report/sweep_report.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// The receive timeouts in force over `records`, in one line (empty without records).
std::string ReceiveTimeoutLine(const std::vector<RunRecord>& records) {
  int64_t low = 0, high = 0;
  for (const RunRecord& r : records) {
    if (r.receive_timeout_ns <= 0) continue;
    low = low == 0 ? r.receive_timeout_ns : std::min(low, r.receive_timeout_ns);
    high = std::max(high, r.receive_timeout_ns);
  }
  if (high == 0) return "";
  const std::string range = low == high
                                ? absl::FormatDuration(absl::Nanoseconds(low))
                                : absl::StrCat(absl::FormatDuration(absl::Nanoseconds(low)), " to ",
                                               absl::FormatDuration(absl::Nanoseconds(high)));
  return absl::StrCat("Receive timeout in force for the timed round trips: ", range, ".\n");
}

// The clock's rate against the reference over the runs, with its interval and bound, in
// one wrapped line (empty without a reference).
std::string RateLine(const std::vector<RunRecord>& records) {
  const RateSummary rate = SummarizeRate(records);
  if (rate.runs == 0) return "";
  const std::string figure =
      rate.ppm.valid ? timing::FormatWithHalfWidth(rate.ppm.estimate, rate.ppm.half_width())
                     : timing::FormatRounded(rate.ppm.estimate, rate.bound_ppm);
  return WrapText(
      absl::StrFormat(
          "Clock rate against the reference over the %d runs: %s ppm (%s; the clock's "
          "quantization allows up to ± %s ppm a run; the reference's resolution and the skew "
          "between a pair's two reads are not measured by a sweep, the study measures them).\n",
          rate.runs, figure,
          rate.ppm.valid ? "95% interval across runs, Student t" : "one run: no interval",
          timing::FormatRounded(rate.bound_ppm, rate.bound_ppm)),
      kTableColumns, 0);
}

// The note on the sizes marked '?': one line each for one or two of them, else one line for
// all (a 40-size sweep read by a 20 ms tick gave 40 lines that differed by one number).
std::string UnresolvedNote(const std::vector<RunRecord>& records) {
  std::map<size_t, int64_t> unresolved;  // size: round trips to resolve (0: unknown)
  for (const RunRecord& r : records) {
    if (!r.valid() || !r.averaged_unresolved) continue;
    int64_t& trips = unresolved[r.size_bytes];
    trips = std::max(trips, r.round_trips_to_resolve);
  }
  if (unresolved.empty()) return "";
  auto trips_text = [](int64_t trips) {
    return trips > 0 ? absl::StrCat(trips) : std::string("(unknown)");
  };
  if (unresolved.size() <= 2) {
    std::string text;
    for (const auto& [size, trips] : unresolved) {
      absl::StrAppendFormat(&text,
                            "  %d B: ? unresolved: T/N is over 10%% of the RTT; N >= 100 T/d = %s "
                            "round trips would resolve it to 1%%\n",
                            size, trips_text(trips));
    }
    return text;
  }
  std::set<size_t> sizes;
  int64_t fewest = 0, most = 0;
  for (const auto& [size, trips] : unresolved) {
    sizes.insert(size);
    if (trips > 0) fewest = fewest == 0 ? trips : std::min(fewest, trips);
    most = std::max(most, trips);
  }
  std::set<size_t> all;
  for (const RunRecord& r : records) all.insert(r.size_bytes);
  return absl::StrFormat(
      "  ? unresolved at %d of %d sizes (%d to %d B): T/N is over 10%% of the RTT; N >= 100 "
      "T/d = %s round trips would resolve them to 1%%\n",
      unresolved.size(), all.size(), *sizes.begin(), *sizes.rbegin(),
      most == 0        ? trips_text(0)
      : fewest == most ? trips_text(most)
                       : absl::StrCat(fewest, " to ", most));
}

}  // namespace

std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes,
                              TableWidth width) {
  std::string text = WrapText(UnresolvedNote(records) + notes, kTableColumns, 4);
  absl::StrAppend(
      &text,
      WrapText(absl::StrCat(
          "Averaged figures time the whole loop: (last reading - first) / round trips, with the "
          "half-width of their 95% interval across runs (Student t; the SD floored at what runs "
          "that all read the same quantum T/N allow); throughput counts 2n bytes per round trip "
          "(1 KB = 1000 bytes). Per-iteration figures are the mean over runs of each run's "
          "statistic; zero% is the share of readings that were 0. A lost, late, reordered or "
          "corrupted round trip is never timed: its interval is cut out of every figure; lost% "
          "is the share of timed round trips whose datagram got no echo, ",
          width == TableWidth::kWide
              ? "retried the runs measured again because faults left them nothing to time, "
                "faults every fault counted.\n"
              : "faults every fault counted (--wide adds the SDs and the runs retried).\n")));
  absl::StrAppend(&text, ReceiveTimeoutLine(records), RateLine(records));
  return text;
}

}  // namespace tickbench::harness
