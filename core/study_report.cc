#include "core/study_report.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/study_columns.h"

namespace tickbench::core {
namespace {

double Percent(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

const char* Verdict(const StudyCell& c) { return c.theory_agrees ? "agrees" : "DISAGREES"; }

void WriteHistogram(const StudyCell& c, const char* separator, bool labels, TextSink& out) {
  bool first = true;
  for (int i = 0; i < kHistogramBins; ++i) {
    if (labels && c.histogram[i] == 0) continue;
    if (!first) out.Print(separator);
    first = false;
    if (labels) {
      out.Printf("%s%d:%lld", i + 1 == kHistogramBins ? ">=" : "", i,
                 static_cast<long long>(c.histogram[i]));
    } else {
      out.Printf("%lld", static_cast<long long>(c.histogram[i]));
    }
  }
}

void WritePlainWords(const StudyCell& c, TextSink& out) {
  char t[24];
  FormatDurationNs(c.resolution_ns, t, sizeof(t));
  if (c.error != nullptr) {
    out.Printf("  %s %lld B: %s\n", c.clock, static_cast<long long>(c.size_bytes), c.error);
    return;
  }
  out.Printf(
      "  %s, %lld B: a round trip takes %.2f us (%s); the averaged figure %.2f us is "
      "%.3f us off, %s the bound (T + r + w)/N = %.3f us, ",
      c.clock, static_cast<long long>(c.size_bytes), c.truth_ns / 1e3, c.reference,
      c.averaged_ns / 1e3, c.averaged_error_ns / 1e3,
      c.averaged_within_bound ? "within" : "NOT within", c.total_bound_ns() / 1e3);
  if (c.zero_bound_applies) {
    out.Printf(
        "and %.2f%% of single round trips read 0 against 1 - d/T = %.2f%% (%s the "
        "bound (1 + (2r + w)/T)/N = %.2f%%).\n",
        100 * c.zero_fraction, 100 * c.prediction.zero_share,
        c.zero_within_bound ? "within" : "NOT within", 100 * c.zero_bound);
  } else {
    out.Printf(
        "and single round trips read %.2f us on average (theory %.2f us), some "
        "round trips being longer than T = %s.\n",
        c.per_iteration_mean_ns / 1e3, c.prediction.mean_ns / 1e3, t);
  }
}

}  // namespace

const char* FormatDurationNs(double ns, char* buffer, int size) {
  struct Unit {
    const char* name;
    double ns;
  };
  static constexpr Unit kUnits[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}};
  for (const Unit& unit : kUnits) {
    if (std::fabs(ns) >= unit.ns) {
      std::snprintf(buffer, static_cast<size_t>(size), "%g%s", ns / unit.ns, unit.name);
      return buffer;
    }
  }
  std::snprintf(buffer, static_cast<size_t>(size), "%gns", ns);
  return buffer;
}

void WriteStudyTable(const StudyCell* cells, int count, TextSink& out) {
  const char* current = nullptr;
  for (int i = 0; i < count; ++i) {
    const StudyCell& c = cells[i];
    if (current == nullptr || std::strcmp(current, c.clock) != 0) {
      current = c.clock;
      char t[24];
      out.Printf("\n%s: %s, resolution T = %s, %lld round trips x %lld runs\n", c.clock,
                 c.clock_name, FormatDurationNs(c.resolution_ns, t, sizeof(t)),
                 static_cast<long long>(c.iterations), static_cast<long long>(c.runs));
      out.Printf("%7s | %18s | %26s | %-39s | %-22s | %s\n", "size B", "truth us (sd runs)",
                 "averaged us  err%  bound%", "per-iteration us: mean    sd   p50   min zero%",
                 "theory: f pred/obs", "zero% 1-d/T / obs (bound)");
    }
    if (c.error != nullptr) {
      out.Printf("%7lld | %s\n", static_cast<long long>(c.size_bytes), c.error);
      continue;
    }
    out.Printf("%7lld | %9.2f (%6.2f) | %9.2f %7.3f %7.3f | ", static_cast<long long>(c.size_bytes),
               c.truth_ns / 1e3, c.truth_sd_ns / 1e3, c.averaged_ns / 1e3,
               Percent(c.averaged_error_ns, c.truth_ns), Percent(c.total_bound_ns(), c.truth_ns));
    out.Printf("%18.2f %5.2f %5.2f %5.2f %4.0f%% | ", c.per_iteration_mean_ns / 1e3,
               c.per_iteration_sd_ns / 1e3, c.per_iteration_p50_ns / 1e3,
               c.per_iteration_min_ns / 1e3, 100 * c.zero_fraction);
    out.Printf("%5.3f/%5.3f %-9s | ", c.prediction.f, c.observed_f, Verdict(c));
    if (c.zero_bound_applies) {
      out.Printf("%.2f / %.2f (%.2f) %s\n", 100 * c.prediction.zero_share, 100 * c.zero_fraction,
                 100 * c.zero_bound, c.zero_within_bound ? "within" : "OUTSIDE");
    } else {
      out.Print("- (round trips longer than T)\n");
    }
  }
  out.Print("\nReadings in ticks of T (count per number of ticks):\n");
  for (int i = 0; i < count; ++i) {
    out.Printf("  %-28s %6lld B: ", cells[i].clock, static_cast<long long>(cells[i].size_bytes));
    WriteHistogram(cells[i], " ", true, out);
    out.Print("\n");
  }
  out.Print("\nIn plain words:\n");
  for (int i = 0; i < count; ++i) WritePlainWords(cells[i], out);
  out.Print(
      "\ntruth: the reference clock over the averaged pass. averaged: the clock over the same "
      "pass, whose error must stay below the bound (T + r + w)/N (r: the reference's resolution, "
      "w: the widest bracket of two reference reads around a clock read). "
      "per-iteration: each round trip read alone. theory: share of readings above n = floor(d/T) "
      "ticks, predicted f from the reference's durations, 'agrees' within 3 standard errors "
      "(share and mean). zero%: the share of single round trips that read 0, predicted "
      "1 - d/T from the reference's durations; where every round trip is shorter than T the "
      "readings tile the pass and the two differ by less than (1 + (2r + w)/T)/N in every run.\n");
}

void WriteStudyCsv(const StudyCell* cells, int count, TextSink& out) {
  for (int i = 0; i < kStudyColumnCount; ++i) {
    out.Print(i > 0 ? "," : "");
    out.Print(kStudyColumns[i].name);
  }
  out.Print("\n");
  // The values in kStudyColumns' order (core/study_report_test checks the count).
  for (int i = 0; i < count; ++i) {
    const StudyCell& c = cells[i];
    if (c.error != nullptr) continue;
    out.Printf("%s,%lld,%lld,%lld,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,", c.clock,
               static_cast<long long>(c.size_bytes), static_cast<long long>(c.runs),
               static_cast<long long>(c.iterations), c.resolution_ns, c.truth_ns, c.truth_sd_ns,
               c.averaged_ns, c.averaged_error_ns, c.worst_run_error_ns);
    out.Printf("%.3f,%.3f,%.3f,%.3f,%.3f,%d,", c.averaged_bound_ns, c.pairing_bound_ns,
               c.reference_bound_ns, c.rate_bound_ns, c.total_bound_ns(),
               c.averaged_within_bound ? 1 : 0);
    out.Printf("%.3f,%.3f,%.3f,%.3f,%.6f,%.3f,%.6f,%.6f,%.3f,%d,", c.per_iteration_mean_ns,
               c.per_iteration_sd_ns, c.per_iteration_p50_ns, c.per_iteration_min_ns,
               c.zero_fraction, c.per_iteration_truth_ns, c.prediction.f, c.observed_f,
               c.prediction.sd_ns, c.theory_agrees ? 1 : 0);
    out.Printf("%.6f,%.6f,%.6f,%d,%s,%.1f,%.1f,%lld,", c.prediction.zero_share, c.zero_bound,
               c.worst_run_zero_error, c.zero_within_bound ? 1 : (c.zero_bound_applies ? 0 : -1),
               c.reference, c.reference_resolution_ns, c.pair_skew_ns,
               static_cast<long long>(c.faults));
    WriteHistogram(c, ";", false, out);
    out.Print("\n");
  }
}

void WriteStudyJson(const StudyCell* cells, int count, const char* platform, TextSink& out) {
  out.Printf(
      "{\"schema_version\":2,\"mode\":\"study\",\"context\":{\"experiment\":\"study\","
      "\"platform\":\"%s\"},\"results\":[",
      platform);
  bool first = true;
  for (int i = 0; i < count; ++i) {
    const StudyCell& c = cells[i];
    if (c.error != nullptr) continue;
    out.Print(first ? "\n" : ",\n");
    first = false;
    out.Printf(
        "{\"clock\":\"%s\",\"reference_clock\":\"%s\",\"size_bytes\":%lld,\"runs\":%lld,"
        "\"iterations\":%lld,\"resolution_ns\":%.1f,",
        c.clock, c.reference, static_cast<long long>(c.size_bytes), static_cast<long long>(c.runs),
        static_cast<long long>(c.iterations), c.resolution_ns);
    out.Printf("\"reference\":{\"rtt_ns\":%.3f,\"sd_across_runs_ns\":%.3f},", c.truth_ns,
               c.truth_sd_ns);
    out.Printf(
        "\"averaged\":{\"rtt_ns\":%.3f,\"error_ns\":%.3f,\"worst_run_error_ns\":%.3f,"
        "\"bound_ns\":%.3f,\"bound_terms_ns\":{\"quantization\":%.3f,\"pairing\":%.3f,"
        "\"reference\":%.3f,\"rate\":%.3f,\"total\":%.3f},\"within_bound\":%s},",
        c.averaged_ns, c.averaged_error_ns, c.worst_run_error_ns, c.averaged_bound_ns,
        c.averaged_bound_ns, c.pairing_bound_ns, c.reference_bound_ns, c.rate_bound_ns,
        c.total_bound_ns(), c.averaged_within_bound ? "true" : "false");
    out.Printf(
        "\"per_iteration\":{\"mean_ns\":%.3f,\"sd_ns\":%.3f,\"p50_ns\":%.3f,\"min_ns\":%.3f,"
        "\"zero_fraction\":%.6f,\"truth_ns\":%.3f,\"histogram_ticks\":[",
        c.per_iteration_mean_ns, c.per_iteration_sd_ns, c.per_iteration_p50_ns,
        c.per_iteration_min_ns, c.zero_fraction, c.per_iteration_truth_ns);
    WriteHistogram(c, ",", false, out);
    out.Print("]},");
    out.Printf(
        "\"theory\":{\"predicted_f\":%.6f,\"observed_f\":%.6f,\"predicted_sd_ns\":%.3f,"
        "\"agrees\":%s,\"predicted_zero_share\":%.6f,\"zero_bound\":%.6f,"
        "\"worst_run_zero_error\":%.6f,\"zero_bound_applies\":%s,\"zero_within_bound\":%s},",
        c.prediction.f, c.observed_f, c.prediction.sd_ns, c.theory_agrees ? "true" : "false",
        c.prediction.zero_share, c.zero_bound, c.worst_run_zero_error,
        c.zero_bound_applies ? "true" : "false", c.zero_within_bound ? "true" : "false");
    out.Printf("\"pair_skew_ns\":%.1f,\"faults\":%lld}", c.pair_skew_ns,
               static_cast<long long>(c.faults));
  }
  out.Print("\n]}\n");
}

}  // namespace tickbench::core
