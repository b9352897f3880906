#include "harness/study_report.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/json_writer.h"

namespace tickbench::harness {
namespace {

std::string Micros(double ns) { return absl::StrFormat("%.2f", ns / 1e3); }

std::string Histogram(const std::vector<int64_t>& counts) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    parts.push_back(absl::StrFormat("%s%d:%d", i + 1 == counts.size() ? ">=" : "", i, counts[i]));
  }
  return absl::StrJoin(parts, " ");
}

std::string Verdict(const StudyCell& c) {
  if (!c.prediction_applies) return "n/a";
  return c.verdict.agrees() ? "agrees" : "DISAGREES";
}

}  // namespace

std::string FormatStudyTable(const std::vector<StudyCell>& cells) {
  std::string text;
  std::string current;
  for (const StudyCell& c : cells) {
    if (c.clock != current) {
      current = c.clock;
      absl::StrAppendFormat(
          &text, "\n%s: %s, resolution T = %s, %d round trips x %d runs\n", c.clock, c.clock_name,
          absl::FormatDuration(absl::Nanoseconds(c.resolution_ns)), c.iterations, c.runs);
      absl::StrAppendFormat(&text, "%7s | %18s | %26s | %-39s | %-22s | %8s | %s\n", "size B",
                            "truth us (sd runs)", "averaged us  err%  bound%",
                            "per-iteration us: mean    sd   p50   min zero%",
                            "theory: f pred/obs", "phase p", "probe ns/read (read)");
    }
    absl::StrAppendFormat(
        &text, "%7d | %9s (%6s) | %9s %7.3f %7.3f | %18s %5s %5s %5s %4.0f%% | %5.3f/%5.3f %-9s | %8s | %6.1f (%.1f)\n",
        c.size_bytes, Micros(c.truth_ns), Micros(c.truth_spread_ns), Micros(c.averaged_ns),
        c.truth_ns > 0 ? 100 * c.averaged_error_ns / c.truth_ns : 0,
        c.truth_ns > 0 ? 100 * c.averaged_bound_ns / c.truth_ns : 0, Micros(c.per_iteration.mean),
        Micros(c.per_iteration.sd), Micros(c.per_iteration.p50), Micros(c.per_iteration.min),
        100 * c.per_iteration.zero_fraction, c.prediction.f, c.observed.share_above_n, Verdict(c),
        c.phase_tested ? absl::StrFormat("%.2g", c.phase_test.p_value) : "-",
        c.probe_effect_ns_per_read, c.read_cost_ns);
  }
  absl::StrAppend(&text, "\nReadings in ticks of T (count per number of ticks):\n");
  for (const StudyCell& c : cells) {
    absl::StrAppendFormat(&text, "  %-28s %6d B: %s\n", c.clock, c.size_bytes, Histogram(c.histogram));
  }
  absl::StrAppend(&text, "\nIn plain words:\n");
  for (const StudyCell& c : cells) {
    absl::StrAppend(&text, "  ", c.summary.empty() ? absl::StrCat(c.clock, ": ", c.error) : c.summary, "\n");
  }
  absl::StrAppend(&text,
                  "\ntruth: the reference clock over the averaged pass. averaged: the clock over "
                  "the same pass, whose error must stay below the bound T/N. per-iteration: each "
                  "round trip read alone. theory: share of readings above n = floor(d/T) ticks, "
                  "predicted f from the reference's durations, 'agrees' within 3 standard errors "
                  "(share, mean and SD). phase p: chi-square test that round trips start at "
                  "uniform phases within T (small p: locked). probe: extra time per round trip "
                  "when the clock is read once per round trip.\n");
  return text;
}

std::string FormatStudyCsv(const std::vector<StudyCell>& cells) {
  std::string text =
      "clock,size_bytes,runs,iterations,resolution_ns,truth_ns,truth_sd_ns,averaged_ns,"
      "averaged_error_ns,worst_run_error_ns,averaged_bound_ns,averaged_within_bound,"
      "per_iteration_mean_ns,per_iteration_sd_ns,per_iteration_p50_ns,per_iteration_min_ns,"
      "zero_fraction,per_iteration_truth_ns,worst_run_bias_ns,predicted_f,observed_f,predicted_sd_ns,"
      "theory_agrees,phase_chi_square,phase_p_value,phase_locked,probe_effect_ns_per_read,"
      "read_cost_ns,histogram\n";
  for (const StudyCell& c : cells) {
    absl::StrAppendFormat(
        &text, "%s,%d,%d,%d,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%.3f,%.3f,%.3f,%.3f,%.6f,%.3f,%.3f,%.6f,%.6f,%.3f,%d,%.3f,%.6g,%d,%.3f,%.3f,%s\n",
        c.clock, c.size_bytes, c.runs, c.iterations, c.resolution_ns, c.truth_ns, c.truth_spread_ns,
        c.averaged_ns, c.averaged_error_ns, c.worst_run_error_ns, c.averaged_bound_ns,
        c.averaged_within_bound, c.per_iteration.mean, c.per_iteration.sd, c.per_iteration.p50,
        c.per_iteration.min, c.per_iteration.zero_fraction, c.per_iteration_truth_ns,
        c.worst_run_bias_ns, c.prediction.f, c.observed.share_above_n, c.prediction.sd_ns,
        c.prediction_applies ? static_cast<int>(c.verdict.agrees()) : -1, c.phase_test.chi_square,
        c.phase_test.p_value, c.phase_locked, c.probe_effect_ns_per_read, c.read_cost_ns,
        absl::StrJoin(c.histogram, ";"));
  }
  return text;
}

std::string FormatStudyJson(const RunContext& context, const std::vector<StudyCell>& cells) {
  JsonWriter json;
  json.BeginObject();
  json.Key("context");
  WriteContextJson(json, context, "study");
  json.Key("cells");
  json.BeginArray();
  for (const StudyCell& c : cells) {
    json.BeginObject();
    json.Key("clock"); json.String(c.clock);
    json.Key("size_bytes"); json.Integer(c.size_bytes);
    json.Key("runs"); json.Integer(c.runs);
    json.Key("iterations"); json.Integer(c.iterations);
    json.Key("resolution_ns"); json.Number(c.resolution_ns);
    json.Key("truth"); json.BeginObject();
    json.Key("rtt_ns"); json.Number(c.truth_ns);
    json.Key("sd_across_runs_ns"); json.Number(c.truth_spread_ns);
    json.EndObject();
    json.Key("averaged"); json.BeginObject();
    json.Key("rtt_ns"); json.Number(c.averaged_ns);
    json.Key("error_ns"); json.Number(c.averaged_error_ns);
    json.Key("worst_run_error_ns"); json.Number(c.worst_run_error_ns);
    json.Key("bound_ns"); json.Number(c.averaged_bound_ns);
    json.Key("within_bound"); json.Bool(c.averaged_within_bound);
    json.EndObject();
    json.Key("per_iteration"); json.BeginObject();
    json.Key("mean_ns"); json.Number(c.per_iteration.mean);
    json.Key("sd_ns"); json.Number(c.per_iteration.sd);
    json.Key("p50_ns"); json.Number(c.per_iteration.p50);
    json.Key("min_ns"); json.Number(c.per_iteration.min);
    json.Key("zero_fraction"); json.Number(c.per_iteration.zero_fraction);
    json.Key("truth_ns"); json.Number(c.per_iteration_truth_ns);
    json.Key("mean_error_ns"); json.Number(c.per_iteration.mean - c.per_iteration_truth_ns);
    json.Key("p50_error_ns"); json.Number(c.per_iteration.p50 - c.reference_per_iteration.p50);
    json.Key("min_error_ns"); json.Number(c.per_iteration.min - c.reference_per_iteration.min);
    json.Key("reference_p50_ns"); json.Number(c.reference_per_iteration.p50);
    json.Key("reference_min_ns"); json.Number(c.reference_per_iteration.min);
    json.Key("worst_run_bias_ns"); json.Number(c.worst_run_bias_ns);
    json.Key("histogram_ticks"); json.BeginArray();
    for (int64_t count : c.histogram) json.Integer(count);
    json.EndArray();
    json.EndObject();
    json.Key("theory"); json.BeginObject();
    json.Key("applies"); json.Bool(c.prediction_applies);
    json.Key("n"); json.Integer(c.prediction.n);
    json.Key("predicted_f"); json.Number(c.prediction.f);
    json.Key("observed_f"); json.Number(c.observed.share_above_n);
    json.Key("predicted_mean_ns"); json.Number(c.prediction.mean_ns);
    json.Key("predicted_sd_ns"); json.Number(c.prediction.sd_ns);
    json.Key("agrees"); json.Bool(c.verdict.agrees());
    json.Key("disturbed_intervals_left_out"); json.Integer(c.disturbed_intervals);
    json.EndObject();
    json.Key("phase"); json.BeginObject();
    json.Key("chi_square"); json.Number(c.phase_test.chi_square);
    json.Key("degrees_of_freedom"); json.Integer(c.phase_test.degrees_of_freedom);
    json.Key("p_value"); json.Number(c.phase_test.p_value);
    json.Key("tested"); json.Bool(c.phase_tested);
    json.Key("loop_period_ns"); json.Number(c.loop_period_ns);
    json.Key("locked"); json.Bool(c.phase_locked);
    json.EndObject();
    json.Key("probe_effect_ns_per_read"); json.Number(c.probe_effect_ns_per_read);
    json.Key("read_cost_ns"); json.Number(c.read_cost_ns);
    json.Key("summary"); json.String(c.summary);
    json.Key("error"); json.String(c.error);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
