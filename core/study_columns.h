// The study's CSV columns, one meaning each, for every target: the board writes exactly
// these, in this order (core/study_report.cc), and the host's study CSV
// (harness/report/study_report.cc) writes every one marked `host` under the same name with
// the same meaning, among its own further columns. tests/study_columns_test holds both
// outputs to this table and to the relations between the bound's terms.
//
// Freestanding (core/README.md): plain constants.
#ifndef CORE_STUDY_COLUMNS_H_
#define CORE_STUDY_COLUMNS_H_

namespace tickbench::core {

struct StudyColumn {
  const char* name;
  const char* meaning;
  bool host;  // the host's study CSV has it too (same name, same meaning)
};

// N: round trips per pass; T: the clock's claimed resolution; r: the reference's.
inline constexpr StudyColumn kStudyColumns[] = {
    {"clock", "the spec of the clock read, as asked for", true},
    {"size_bytes", "message size, bytes each way", true},
    {"runs", "runs that completed (each an averaged and a per-iteration pass)", true},
    {"iterations", "N: round trips per pass", true},
    {"resolution_ns", "T: the clock's claimed resolution", true},
    {"truth_ns", "the reference's averaged round trip over the averaged pass, mean over runs",
     true},
    {"truth_sd_ns", "the SD across runs of each run's truth_ns", true},
    {"averaged_ns", "the clock's averaged round trip (whole pass / N), mean over runs", true},
    {"averaged_error_ns", "averaged_ns - truth_ns, signed", true},
    {"worst_run_error_ns", "the largest |averaged - truth| of one run", true},
    {"averaged_bound_ns", "T / N: the clock's quantization, the bound's first term", true},
    {"pairing_bound_ns", "pair_skew_ns / N: the bound's pairing term", true},
    {"reference_bound_ns", "r / N: the bound's reference term", true},
    {"rate_bound_ns", "the rate difference the data show x the truth: the bound's rate term", true},
    {"total_bound_ns", "the bound on one run's |error|: the sum of the four terms", true},
    {"averaged_within_bound", "1 when every run's |error| kept total_bound_ns", true},
    {"per_iteration_mean_ns", "mean of the single round trips' readings, all runs pooled", true},
    {"per_iteration_sd_ns", "their SD", true},
    {"per_iteration_p50_ns", "their median", true},
    {"per_iteration_min_ns", "their minimum", true},
    {"zero_fraction", "share of single readings that were 0", true},
    {"per_iteration_truth_ns", "the reference's mean over the same intervals", true},
    {"predicted_f", "the theory's share of readings above n = floor(d/T) ticks", true},
    {"observed_f", "the measured share of readings above n ticks", true},
    {"predicted_sd_ns", "the theory's SD of one reading", true},
    {"theory_agrees", "1 when the measured share and mean agree with the theory", true},
    {"predicted_zero_share", "the theory's share of readings of 0 (1 - d/T where d < T)", true},
    {"zero_bound", "(1 + (2r + w)/T)/N: how far the tiled zero share may be from 1 - d/T", false},
    {"worst_run_zero_error", "the largest |zero share - (1 - d/T)| of one run", false},
    {"zero_within_bound", "1 within zero_bound in every run, 0 not, -1 some trip >= T", false},
    {"reference_clock", "the spec of the reference clock", false},
    {"reference_resolution_ns", "r: the reference's claimed resolution", false},
    {"pair_skew_ns",
     "the most the pairing of clock and reference reads can move one pass's whole-loop "
     "reading, largest over the runs (ns, whole loop)",
     true},
    {"faults", "echoes with a wrong sequence number or a broken stamp", false},
    {"histogram", "readings of 0, 1, ... ticks, ';'-separated", true},
};

inline constexpr int kStudyColumnCount =
    static_cast<int>(sizeof(kStudyColumns) / sizeof(kStudyColumns[0]));

}  // namespace tickbench::core

#endif  // CORE_STUDY_COLUMNS_H_
