#include "harness/sweep_analysis.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/model_fit.h"
#include "platform/network_facts.h"
#include "platform/system_info.h"

namespace tickbench::harness {

analysis::Sweep RttSweepFromRecords(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<double>> by_size;
  for (const RunRecord& r : records) {
    if (r.valid() && std::isfinite(r.averaged_rtt_ns)) by_size[r.size_bytes].push_back(r.averaged_rtt_ns);
  }
  analysis::Sweep sweep;
  sweep.value_name = "averaged_rtt_ns";
  sweep.unit = "ns";
  for (auto& [size, values] : by_size) {
    sweep.points.push_back(analysis::SweepPoint{static_cast<double>(size), std::move(values)});
  }
  return sweep;
}

analysis::SizeFacts CollectSizeFacts(
    const std::string& transport_name,
    const std::optional<transport::Endpoint::BufferSizes>& socket_buffers,
    const std::string& peer_address) {
  analysis::SizeFacts facts;
  facts.push_back({"page size", static_cast<double>(sysconf(_SC_PAGESIZE))});
  if (socket_buffers) {
    facts.push_back({"SO_SNDBUF", static_cast<double>(socket_buffers->send_bytes)});
    facts.push_back({"SO_RCVBUF", static_cast<double>(socket_buffers->receive_bytes)});
    // A UNIX stream skb carries at most sndbuf/2 - 64 bytes (net/unix/af_unix.c).
    if (transport_name == "unix_stream") facts.push_back({"SO_SNDBUF/2 - 64 (largest AF_UNIX stream skb)",
                     static_cast<double>(socket_buffers->send_bytes / 2 - 64)});
  }
  if (!peer_address.empty()) {
    if (absl::StatusOr<int> mtu = platform::PathMtu(peer_address); mtu.ok()) {
      const bool v6 = peer_address.find(':') != std::string::npos;
      facts.push_back({absl::StrCat("path MTU to ", peer_address), static_cast<double>(*mtu)});
      facts.push_back({absl::StrFormat("largest unfragmented UDP payload (MTU - %d)", v6 ? 48 : 28),
                       static_cast<double>(*mtu - (v6 ? 48 : 28))});
    }
  }
  for (const char* sysctl : {"net.core.wmem_default", "net.core.rmem_default", "net.unix.max_dgram_qlen"}) {
    if (absl::StatusOr<int64_t> value = platform::ReadSysctlInt(sysctl); value.ok()) {
      facts.push_back({sysctl, static_cast<double>(*value)});
    }
  }
  return facts;
}

SweepAnalysis AnalyzeSweep(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                           bool explain) {
  SweepAnalysis result;
  result.steps = analysis::DetectSteps(sweep);
  std::vector<double> extra_sizes;
  if (result.steps.ok()) {
    for (const analysis::Step& step : result.steps->steps) {
      // A fact within 5% of either side counts as "next to" the step.
      result.causes.push_back(analysis::CandidateCauses(step, facts, 0.05));
      extra_sizes.push_back(step.size_before);
      extra_sizes.push_back(step.size_after);
    }
  }
  if (!explain) return result;
  result.explained = true;
  for (const analysis::SizeFact& fact : facts) extra_sizes.push_back(fact.size_bytes);
  analysis::ModelFitOptions options;
  options.extra_sizes = extra_sizes;
  absl::StatusOr<analysis::ModelComparison> fit = analysis::FitBufferModels(sweep, options);
  if (!fit.ok()) {
    result.explanation = fit.status();
    return result;
  }
  std::string text = absl::StrFormat(
      "Buffer layouts, ranked by BIC (%s; a model explains the sweep when it beats the straight "
      "line by a BIC of 6 or more):\n",
      fit->variance_from_runs ? "noise from the spread across runs" : "noise from the residuals");
  std::vector<const analysis::FamilyFit*> fitted;
  for (const analysis::FamilyFit& family : fit->families) {
    if (family.fitted) fitted.push_back(&family);
  }
  std::sort(fitted.begin(), fitted.end(),
            [](const auto* a, const auto* b) { return a->bic < b->bic; });
  for (const analysis::FamilyFit* family : fitted) {
    std::vector<std::string> costs;
    for (size_t i = 0; i < family->costs.size(); ++i) {
      costs.push_back(absl::StrFormat("%s %.4g +/- %.2g", family->cost_names[i], family->costs[i],
                                      family->cost_stderrs[i]));
    }
    absl::StrAppendFormat(&text, "  %-44s BIC %9.1f  R^2 %.4f  %s\n",
                          analysis::DescribeModel(family->model), family->bic, family->r_squared,
                          absl::StrJoin(costs, ", "));
  }
  absl::StrAppendFormat(&text, "  => %s (BIC %.1f below the runner-up, %.1f below the line)\n",
                        fit->verdict, fit->delta_bic_runner_up, fit->delta_bic_linear);
  result.explanation = text;
  return result;
}

std::string FormatSweepAnalysis(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                                const SweepAnalysis& result) {
  std::string text = "\nSteps in the averaged RTT (segmented regression, breakpoints chosen by BIC):\n";
  if (!result.steps.ok()) {
    absl::StrAppend(&text, "  not analysed: ", result.steps.status().message(), "\n");
  } else if (result.steps->steps.empty()) {
    absl::StrAppend(&text, "  none: the curve follows its trend within the noise\n");
  } else {
    for (size_t i = 0; i < result.steps->steps.size(); ++i) {
      const analysis::Step& step = result.steps->steps[i];
      const bool jump = step.kind == analysis::StepKind::kJump;
      absl::StrAppendFormat(
          &text, "  %s %s between %.0f and %.0f bytes: %s (%.1f standard errors)%s\n",
          analysis::StepKindName(step.kind), analysis::StepDirectionName(step.direction),
          step.size_before, step.size_after,
          jump ? absl::StrFormat("%+.0f %s", step.magnitude, sweep.unit)
               : absl::StrFormat("slope %.3g -> %.3g %s/byte", step.slope_before, step.slope_after,
                                 sweep.unit),
          step.significance,
          result.causes[i].empty() ? ""
                                   : absl::StrCat("; near ", absl::StrJoin(result.causes[i], ", ")));
    }
  }
  std::vector<std::string> fact_texts;
  for (const analysis::SizeFact& fact : facts) {
    fact_texts.push_back(absl::StrFormat("%s %.0f", fact.name, fact.size_bytes));
  }
  absl::StrAppend(&text, "  system sizes: ", absl::StrJoin(fact_texts, "; "), "\n");
  if (result.explained) {
    if (result.explanation.ok()) {
      absl::StrAppend(&text, "\n", *result.explanation);
    } else {
      absl::StrAppend(&text, "\nNo buffer layout fitted: ", result.explanation.status().message(), "\n");
    }
  }
  return text;
}

}  // namespace tickbench::harness
