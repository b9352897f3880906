#include "harness/report/study_report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/engine/no_figure.h"
#include "harness/json/interval_fields.h"
#include "harness/json/json_writer.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// A figure's CSV cell: fixed decimals, or significant digits (negative `digits`); empty
// where there is no figure (harness/engine/no_figure.h).
std::string Fig(double value, int digits) {
  return digits >= 0 ? FigureText(value, digits, kNoFigureCsv)
                     : FigureTextSignificant(value, -digits, kNoFigureCsv);
}
constexpr int kG6 = -6;                                       // %.6g
constexpr CsvDigits kStudyDigits = CsvDigits::kSignificant6;  // as its other figures

// The CSV's columns from per_iteration_sd_ns_ci95_low on: the SD's interval and the
// theory's intervals, observed and predicted.
std::string TheoryCsv(const StudyCell& c) {
  return absl::StrJoin(
      {CsvInterval(timing::ClippedAtZero(c.sd_ci), kStudyDigits),
       CsvInterval(c.predicted.f, kStudyDigits),
       CsvInterval(c.observed_intervals.share, kStudyDigits), Fig(c.prediction.zero_share, kG6),
       CsvInterval(c.predicted.zero_share, kStudyDigits),
       Fig(c.observed_zero_share_ci.estimate, kG6),
       CsvInterval(c.observed_zero_share_ci, kStudyDigits),
       CsvInterval(c.predicted.mean_ns, kStudyDigits), CsvInterval(c.predicted.sd_ns, kStudyDigits),
       Fig(c.observed.sd_ns, kG6), CsvInterval(c.observed_intervals.sd_ns, kStudyDigits),
       Fig(c.predicted_bound_percent, kG6),
       CsvInterval(c.predicted_bound_percent_ci, kStudyDigits)},
      ",");
}

// One cell's CSV row (without its newline), in the header's order.
std::string StudyCsvRow(const StudyCell& c) {
  const std::vector<std::string> cells = {
      c.clock, absl::StrCat(c.size_bytes), absl::StrCat(c.runs), absl::StrCat(c.iterations),
      Fig(c.resolution_ns, 1), Fig(c.truth_ns, 3), Fig(c.truth_spread_ns, 3), Fig(c.averaged_ns, 3),
      Fig(c.averaged_error_ns, 3), Fig(c.worst_run_error_ns, 3), Fig(c.averaged_bound_ns, 3),
      absl::StrCat(c.averaged_within_bound ? 1 : 0), Fig(c.per_iteration.mean, 3),
      Fig(c.per_iteration.sd, 3), Fig(c.per_iteration.p50, 3), Fig(c.per_iteration.min, 3),
      Fig(c.per_iteration.zero_fraction, 6), Fig(c.per_iteration_truth_ns, 3),
      Fig(c.worst_run_bias_ns, 3), Fig(c.prediction.f, 6), Fig(c.observed.share_above_n, 6),
      Fig(c.prediction.sd_ns, 3),
      // 1 "agrees", 0 "DISAGREES", -1 not judged or not applicable: as the words say.
      absl::StrCat(c.theory_verdict() == StudyCell::TheoryVerdict::kAgrees      ? 1
                   : c.theory_verdict() == StudyCell::TheoryVerdict::kDisagrees ? 0
                                                                                : -1),
      Fig(c.phase_test.chi_square, 3), Fig(c.phase_test.p_value, kG6),
      absl::StrCat(c.phase_locked ? 1 : 0), Fig(c.probe_effect_ns_per_read, 3),
      Fig(c.read_cost_ns, 3), absl::StrJoin(c.histogram, ";"),
      CsvInterval(timing::ClippedAtZero(c.truth_ci), kStudyDigits),
      CsvInterval(timing::ClippedAtZero(c.averaged_ci), kStudyDigits),
      CsvInterval(c.averaged_error_ci, kStudyDigits), Fig(c.pairing_bound_ns, kG6),
      Fig(c.reference_bound_ns, kG6), Fig(c.rate_bound_ns, kG6), Fig(c.total_bound_ns(), kG6),
      Fig(c.pair_skew_ns, kG6), Fig(c.rate_ppm, kG6), Fig(c.rate_bound_ppm, kG6),
      absl::StrCat(c.averaged_unresolved ? 1 : 0), absl::StrCat(c.round_trips_to_resolve),
      absl::StrCat(c.single_reading_unresolved ? 1 : 0),
      CsvInterval(timing::ClippedAtZero(c.per_iteration_mean_ci), kStudyDigits),
      CsvInterval(timing::ClippedAtZero(c.median_ci), kStudyDigits), Fig(c.per_iteration.p99, kG6),
      CsvInterval(timing::ClippedAtZero(c.p99_ci), kStudyDigits),
      CsvInterval(c.zero_share_ci, kStudyDigits), Fig(c.bias_ci.estimate, kG6),
      CsvInterval(c.bias_ci, kStudyDigits), absl::StrCat(c.biased ? 1 : 0),
      absl::StrCat(c.runs_biased), CsvInterval(c.probe_effect_ci, kStudyDigits), TheoryCsv(c)};
  return absl::StrJoin(cells, ",");
}

}  // namespace

std::string FormatStudyCsv(const std::vector<StudyCell>& cells) {
  std::string text =
      "clock,size_bytes,runs,iterations,resolution_ns,truth_ns,truth_sd_ns,averaged_ns,"
      "averaged_error_ns,worst_run_error_ns,averaged_bound_ns,averaged_within_bound,"
      "per_iteration_mean_ns,per_iteration_sd_ns,per_iteration_p50_ns,per_iteration_min_ns,"
      "zero_fraction,per_iteration_truth_ns,worst_run_bias_ns,predicted_f,observed_f,predicted_sd_"
      "ns,"
      "theory_agrees,phase_chi_square,phase_p_value,phase_locked,probe_effect_ns_per_read,"
      "read_cost_ns,histogram,truth_ns_ci95_low,truth_ns_ci95_high,averaged_ns_ci95_low,"
      "averaged_ns_ci95_high,averaged_error_ns_ci95_low,averaged_error_ns_ci95_high,"
      "pairing_bound_ns,reference_bound_ns,rate_bound_ns,total_bound_ns,pair_skew_ns,rate_ppm,"
      "rate_bound_ppm,averaged_unresolved,round_trips_to_resolve,single_reading_unresolved,"
      "per_iteration_mean_ns_ci95_low,per_iteration_mean_ns_ci95_high,per_iteration_p50_ns_ci95_"
      "low,"
      "per_iteration_p50_ns_ci95_high,per_iteration_p99_ns,per_iteration_p99_ns_ci95_low,"
      "per_iteration_p99_ns_ci95_high,zero_fraction_ci95_low,zero_fraction_ci95_high,mean_bias_ns,"
      "mean_bias_ns_ci95_low,mean_bias_ns_ci95_high,biased,runs_biased,"
      "probe_effect_ns_per_read_ci95_low,probe_effect_ns_per_read_ci95_high,"
      "per_iteration_sd_ns_ci95_low,per_iteration_sd_ns_ci95_high,predicted_f_ci95_low,"
      "predicted_f_ci95_high,observed_f_ci95_low,observed_f_ci95_high,predicted_zero_share,"
      "predicted_zero_share_ci95_low,predicted_zero_share_ci95_high,observed_zero_share,"
      "observed_zero_share_ci95_low,observed_zero_share_ci95_high,predicted_mean_ns_ci95_low,"
      "predicted_mean_ns_ci95_high,predicted_sd_ns_ci95_low,predicted_sd_ns_ci95_high,"
      "observed_sd_ns,observed_sd_ns_ci95_low,observed_sd_ns_ci95_high,predicted_bound_percent,"
      "predicted_bound_percent_ci95_low,predicted_bound_percent_ci95_high\n";
  for (const StudyCell& c : cells) absl::StrAppend(&text, StudyCsvRow(c), "\n");
  return text;
}

namespace {

// The cell's "averaged" figure with its bound term by term, and the clock's "rate".
void WriteAveragedJson(JsonWriter& json, const StudyCell& c) {
  json.Key("averaged");
  json.BeginObject();
  json.NumberField("rtt_ns", c.averaged_ns);
  WriteIntervalJson(json, "rtt_ns", timing::ClippedAtZero(c.averaged_ci));
  json.NumberField("error_ns", c.averaged_error_ns);
  WriteIntervalJson(json, "error_ns", c.averaged_error_ci);
  json.NumberField("worst_run_error_ns", c.worst_run_error_ns);
  json.NumberField("bound_ns", c.averaged_bound_ns);
  json.Key("bound_terms_ns");
  json.BeginObject();
  json.NumberField("quantization", c.averaged_bound_ns);
  json.NumberField("pairing", c.pairing_bound_ns);
  json.NumberField("reference", c.reference_bound_ns);
  json.NumberField("rate", c.rate_bound_ns);
  json.NumberField("total", c.total_bound_ns());
  json.EndObject();
  json.BoolField("within_bound", c.averaged_within_bound);
  json.NumberField("worst_run_bound_ratio", c.worst_run_bound_ratio);
  json.NumberField("pair_skew_ns", c.pair_skew_ns);
  json.BoolField("unresolved", c.averaged_unresolved);
  json.IntegerField("round_trips_to_resolve", c.round_trips_to_resolve);
  json.EndObject();
  json.Key("rate");
  json.BeginObject();
  json.NumberField("ppm", c.rate_ppm);
  json.NumberField("bound_ppm", c.rate_bound_ppm);
  json.NumberField("shown_ppm", c.rate_shown_ppm);
  json.EndObject();
}

// The cell's "per_iteration" figures, their intervals and the histogram in ticks.
void WritePerIterationJson(JsonWriter& json, const StudyCell& c) {
  json.Key("per_iteration");
  json.BeginObject();
  json.NumberField("mean_ns", c.per_iteration.mean);
  WriteIntervalJson(json, "mean_ns", timing::ClippedAtZero(c.per_iteration_mean_ci));
  json.NumberField("sd_ns", c.per_iteration.sd);
  WriteIntervalJson(json, "sd_ns", timing::ClippedAtZero(c.sd_ci));
  json.NumberField("p50_ns", c.per_iteration.p50);
  WriteIntervalJson(json, "p50_ns", timing::ClippedAtZero(c.median_ci));
  json.NumberField("p99_ns", c.per_iteration.p99);
  WriteIntervalJson(json, "p99_ns", timing::ClippedAtZero(c.p99_ci));
  json.BoolField("single_reading_unresolved", c.single_reading_unresolved);
  json.NumberField("min_ns", c.per_iteration.min);
  json.NumberField("zero_fraction", c.per_iteration.zero_fraction);
  WriteIntervalJson(json, "zero_fraction", c.zero_share_ci);
  json.NumberField("truth_ns", c.per_iteration_truth_ns);
  WriteIntervalJson(json, "truth_ns", timing::ClippedAtZero(c.reference_mean_ci));
  json.NumberField("mean_bias_ns", c.bias_ci.estimate);
  WriteIntervalJson(json, "mean_bias_ns", c.bias_ci);
  json.BoolField("biased", c.biased);
  json.IntegerField("runs_biased", c.runs_biased);
  json.NumberField("mean_error_ns", c.per_iteration.mean - c.per_iteration_truth_ns);
  json.NumberField("p50_error_ns", c.per_iteration.p50 - c.reference_per_iteration.p50);
  json.NumberField("min_error_ns", c.per_iteration.min - c.reference_per_iteration.min);
  json.NumberField("reference_p50_ns", c.reference_per_iteration.p50);
  json.NumberField("reference_min_ns", c.reference_per_iteration.min);
  json.NumberField("worst_run_bias_ns", c.worst_run_bias_ns);
  json.Key("histogram_ticks");
  json.BeginArray();
  for (int64_t count : c.histogram) json.Integer(count);
  json.EndArray();
  json.EndObject();
}

// The cell's "theory" (the coarse-tick prediction) and "phase" (the uniformity test).
void WriteTheoryAndPhaseJson(JsonWriter& json, const StudyCell& c) {
  json.Key("theory");
  json.BeginObject();
  json.BoolField("applies", c.prediction_applies);
  json.IntegerField("n", c.prediction.n);
  json.NumberField("predicted_f", c.prediction.f);
  WriteIntervalJson(json, "predicted_f", c.predicted.f);
  json.NumberField("observed_f", c.observed.share_above_n);
  WriteIntervalJson(json, "observed_f", c.observed_intervals.share);
  json.NumberField("predicted_zero_share", c.prediction.zero_share);
  WriteIntervalJson(json, "predicted_zero_share", c.predicted.zero_share);
  json.NumberField("observed_zero_share", c.observed_zero_share_ci.estimate);
  WriteIntervalJson(json, "observed_zero_share", c.observed_zero_share_ci);
  json.NumberField("predicted_mean_ns", c.prediction.mean_ns);
  WriteIntervalJson(json, "predicted_mean_ns", c.predicted.mean_ns);
  json.NumberField("observed_mean_ns", c.observed.mean_ns);
  WriteIntervalJson(json, "observed_mean_ns", c.observed_intervals.mean_ns);
  json.NumberField("predicted_sd_ns", c.prediction.sd_ns);
  WriteIntervalJson(json, "predicted_sd_ns", c.predicted.sd_ns);
  json.NumberField("observed_sd_ns", c.observed.sd_ns);
  WriteIntervalJson(json, "observed_sd_ns", c.observed_intervals.sd_ns);
  json.NumberField("predicted_bound_percent", c.predicted_bound_percent);
  WriteIntervalJson(json, "predicted_bound_percent", c.predicted_bound_percent_ci);
  json.NumberField("check_confidence", timing::kTheoryCheckConfidence);
  json.Key("agrees_by_check");
  json.BeginObject();
  json.BoolField("share", c.verdict.share_agrees);
  json.BoolField("mean", c.verdict.mean_agrees);
  json.BoolField("sd", c.verdict.sd_agrees);
  json.EndObject();
  // The verdict the words print, and "agrees" true only where they say "agrees".
  json.StringField("verdict", StudyCell::TheoryVerdictName(c.theory_verdict()));
  json.BoolField("agrees", c.theory_verdict() == StudyCell::TheoryVerdict::kAgrees);
  json.IntegerField("disturbed_intervals_left_out", c.disturbed_intervals);
  json.EndObject();
  json.Key("phase");
  json.BeginObject();
  json.NumberField("chi_square", c.phase_test.chi_square);
  json.IntegerField("degrees_of_freedom", c.phase_test.degrees_of_freedom);
  json.NumberField("p_value", c.phase_test.p_value);
  json.BoolField("tested", c.phase_tested);
  json.NumberField("loop_period_ns", c.loop_period_ns);
  json.BoolField("locked", c.phase_locked);
  json.EndObject();
}

}  // namespace

std::string FormatStudyJson(const RunContext& context, const std::vector<StudyCell>& cells) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "study");
  json.Key("context");
  WriteContextJson(json, context, "study");
  json.Key("results");
  json.BeginArray();
  for (const StudyCell& c : cells) {
    json.BeginObject();
    json.StringField("clock", c.clock);
    json.IntegerField("size_bytes", c.size_bytes);
    json.IntegerField("runs", c.runs);
    json.IntegerField("iterations", c.iterations);
    json.StringField("iterations_note", c.count_note);
    json.NumberField("resolution_ns", c.resolution_ns);
    json.Key("reference");
    json.BeginObject();
    json.NumberField("rtt_ns", c.truth_ns);
    json.NumberField("sd_across_runs_ns", c.truth_spread_ns);
    WriteIntervalJson(json, "rtt_ns", timing::ClippedAtZero(c.truth_ci));
    json.EndObject();
    WriteAveragedJson(json, c);
    WritePerIterationJson(json, c);
    WriteTheoryAndPhaseJson(json, c);
    json.NumberField("probe_effect_ns_per_read", c.probe_effect_ns_per_read);
    WriteIntervalJson(json, "probe_effect_ns_per_read", c.probe_effect_ci);
    json.NumberField("read_cost_ns", c.read_cost_ns);
    json.StringField("summary", c.summary);
    json.StringField("error", c.error);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
