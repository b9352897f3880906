// The sweep table's footer (sweep_report.h): the unresolved sizes' note, the words on
// what the figures are, the receive timeout and the clock's rate against the reference.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "harness/engine/round_trip_engine.h"
#include "harness/engine/sweep_runner.h"
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

// The warm-up's line: how many round trips and how long the runs' warm-ups took, and why
// they ended (RunRecord::warmup_end), in one wrapped line (empty without records).
std::string WarmupLine(const std::vector<RunRecord>& records) {
  std::map<std::string, int> ends;
  int64_t fewest = -1, most = 0, shortest = -1, longest = 0;
  for (const RunRecord& r : records) {
    if (r.warmup_end.empty()) continue;
    ++ends[r.warmup_end];
    fewest = fewest < 0 ? r.warmup_trips : std::min(fewest, r.warmup_trips);
    most = std::max(most, r.warmup_trips);
    shortest = shortest < 0 ? r.warmup_ns : std::min(shortest, r.warmup_ns);
    longest = std::max(longest, r.warmup_ns);
  }
  if (ends.empty()) return "";
  std::vector<std::string> why;
  for (const auto& [end, count] : ends) why.push_back(absl::StrFormat("%d %s", count, end));
  auto range = [](int64_t low, int64_t high, auto text) {
    return low == high ? text(low) : absl::StrCat(text(low), " to ", text(high));
  };
  auto time = [](int64_t ns) {
    return absl::FormatDuration(absl::Trunc(absl::Nanoseconds(ns), absl::Microseconds(100)));
  };
  auto count = [](int64_t n) { return absl::StrCat(n); };
  return WrapText(
      absl::StrFormat("Warm-up of each run: %s round trips, %s (%s; steady: at least %d round "
                      "trips and %s, then until a window of %d is no faster than the one "
                      "before, within 1%%; --warmup=N forces a count).\n",
                      range(fewest, most, count), range(shortest, longest, time),
                      absl::StrJoin(why, ", "), WarmupRule{}.min_trips,
                      absl::FormatDuration(WarmupRule{}.min_time), WarmupRule{}.window),
      kTableColumns, 0);
}

// The sizes whose runs fall into two groups (marked ‡), one line each with the groups'
// figures and what to do about them; and why runs stopped being added, or, for fixed
// counts, what precision they reached and what would reach +-2%.
std::string GroupsAndPrecisionNote(const std::vector<RunRecord>& records) {
  std::string text;
  const std::vector<SizeSummary> sizes = SummarizeSizes(records);
  for (const SizeSummary& s : sizes) {
    if (!s.groups.grouped) continue;
    const timing::RunGroups& g = s.groups;
    auto group = [](const timing::RunGroups::Group& x) {
      return absl::StrFormat("%d at %s to %s us", x.runs,
                             timing::FormatRounded(x.min / 1e3, x.min / 1e4),
                             timing::FormatRounded(x.max / 1e3, x.max / 1e4));
    };
    absl::StrAppendFormat(
        &text,
        "  %d B: ‡ its runs fall in two groups (p = %.2g, a test at %g%% that runs from one "
        "normal distribution pass 99%% of the time): %s, %s. The figure averages two states "
        "of the machine: another load that came and went during the sweep (the runs of a "
        "size are spread over it), or on a virtual machine a vCPU that halted between round "
        "trips and was woken through the hypervisor, which --busy_poll --pin keeps awake.\n",
        s.size_bytes, g.p_value, 100 * timing::kGroupsLevel, group(g.low), group(g.high));
  }
  std::map<std::string, std::vector<size_t>> stops;
  double widest = 0;
  int64_t runs_for_2 = 0;
  bool exact = false;
  for (const SizeSummary& s : sizes) {
    if (!s.stop.empty()) stops[s.stop].push_back(s.size_bytes);
    if (s.stop.empty() && s.valid_runs > 0) {
      exact = true;
      if (std::isfinite(s.relative_half_width)) widest = std::max(widest, s.relative_half_width);
      runs_for_2 = std::max(runs_for_2, RunsForPrecision(s, 0.02));
    }
  }
  if (!stops.empty()) {
    std::vector<std::string> parts;
    for (const auto& [stop, list] : stops) {
      parts.push_back(
          absl::StrFormat("%s at %d size%s", stop, list.size(), list.size() == 1 ? "" : "s"));
    }
    absl::StrAppendFormat(&text,
                          "  Runs were added to each size until its figure was within --precision "
                          "(precise), its runs fell in two groups (groups), it had %d valid runs "
                          "(run limit) or --max_time was up (out of time): %s.\n",
                          SweepOptions::UntilKnown{}.max_runs, absl::StrJoin(parts, ", "));
  } else if (exact && widest > 0) {
    const std::string reached =
        widest <= kPlusMinusLimit
            ? absl::StrCat("±", timing::FormatRounded(100 * widest, 10 * widest), "%")
            : absl::StrCat("×÷ ", FactorText(1 + widest));
    absl::StrAppendFormat(&text,
                          "  The counts given reached %s at worst (95%%); about %d runs of a "
                          "size would reach ±2%% (or --precision=2%%).\n",
                          reached, runs_for_2);
  }
  return text;
}

}  // namespace

std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes,
                              TableWidth width) {
  std::string text =
      WrapText(UnresolvedNote(records) + GroupsAndPrecisionNote(records) + notes, kTableColumns, 4);
  absl::StrAppend(
      &text,
      WrapText(absl::StrCat(
          "Averaged figures time the whole loop: the runs' timed time over their round trips, "
          "with their 95% interval across runs (Student t on the log scale, so never below 0; "
          "the SD floored at what runs that all read the same quantum T/N allow; one run: its "
          "batch means), as ± its longer side, or as ×÷ f (the figure divided to multiplied by "
          "f) where wider than ±20%; throughput is 2n bytes per round trip over that RTT, its "
          "interval the RTT's (1 KB = 1000 bytes). Per-iteration: the mean (and --wide's SD) "
          "over runs of each run's; p50 and p99 over every reading of the runs pooled (the "
          "JSON's pooled_percentiles), at the digits of their own intervals; zero% is the share "
          "of readings that were 0. A lost, late, reordered or "
          "corrupted round trip is never timed: its interval is cut out of every figure; lost% "
          "is the share of timed round trips whose datagram got no echo, ",
          width == TableWidth::kWide
              ? "retried the runs measured again because faults left them nothing to time, "
                "faults every fault counted.\n"
              : "faults every fault counted (--wide adds the SDs and the runs retried).\n")));
  absl::StrAppend(&text, WarmupLine(records), ReceiveTimeoutLine(records), RateLine(records));
  return text;
}

}  // namespace tickbench::harness
