// What `--analyze=FILE --explain` costs on large CSV files: parsing, the noise model, step
// detection and the buffer-model fits, each on its own and all together.
//
//   bazel run -c opt //bench:analysis_benchmark
//
// Rows of one size are summarized once (mean and run spread) before any fitting, so the
// fits' time depends on the number of distinct sizes, not of rows: step detection is
// O(k·n²) in the sizes (analysis/steps/step_detector.h), and kMaxStepDetectorSizes bounds n.
// The CSV is `size,value` rows, a line with a jump, 1 % noise from a fixed seed.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "analysis/fits/model_fit.h"
#include "analysis/steps/noise_model.h"
#include "analysis/steps/step_detector.h"
#include "analysis/sweep.h"
#include "benchmark/benchmark.h"

namespace tickbench::bench {
namespace {

// `sizes` distinct sizes 64 bytes apart, `runs` rows each, the runs of a size spread over the
// file as a sweep writes them (run after run).
std::string MakeCsv(int sizes, int runs) {
  std::mt19937_64 engine(42);
  std::uniform_real_distribution<double> noise(-0.017, 0.017);  // SD 1 %
  std::string text = "size,value\n";
  for (int run = 0; run < runs; ++run) {
    for (int i = 1; i <= sizes; ++i) {
      const double size = 64.0 * i;
      const double truth = 20000 + 5 * size + (i > sizes / 2 ? 3000 : 0);
      absl::StrAppendFormat(&text, "%.0f,%.3f\n", size, truth * (1 + noise(engine)));
    }
  }
  return text;
}

analysis::Sweep ParseOrDie(const std::string& text) {
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(text);
  if (!sweep.ok()) {
    std::fprintf(stderr, "%s\n", std::string(sweep.status().message()).c_str());
    std::abort();
  }
  return *std::move(sweep);
}

void SetRows(benchmark::State& state) {
  state.counters["sizes"] = static_cast<double>(state.range(0));
  state.counters["rows"] = static_cast<double>(state.range(0) * state.range(1));
}

void ParseCsv(benchmark::State& state) {
  const std::string text = MakeCsv(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(ParseOrDie(text));
  SetRows(state);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}

void EstimateNoise(benchmark::State& state) {
  const analysis::Sweep sweep = ParseOrDie(MakeCsv(state.range(0), state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(analysis::EstimateNoise(sweep));
  SetRows(state);
}

void DetectSteps(benchmark::State& state) {
  const analysis::Sweep sweep = ParseOrDie(MakeCsv(state.range(0), state.range(1)));
  for (auto _ : state) {
    absl::StatusOr<analysis::StepDetection> steps = analysis::DetectSteps(sweep);
    if (!steps.ok()) state.SkipWithError("DetectSteps failed");
    benchmark::DoNotOptimize(steps);
  }
  SetRows(state);
}

void FitBufferModels(benchmark::State& state) {
  const analysis::Sweep sweep = ParseOrDie(MakeCsv(state.range(0), state.range(1)));
  for (auto _ : state) {
    absl::StatusOr<analysis::ModelComparison> fit = analysis::FitBufferModels(sweep);
    if (!fit.ok()) state.SkipWithError("FitBufferModels failed");
    benchmark::DoNotOptimize(fit);
  }
  SetRows(state);
}

// What --analyze --explain does with the text of a file: parse, detect steps, fit the
// models with the steps' sizes as candidates.
void AnalyzeCsv(benchmark::State& state) {
  const std::string text = MakeCsv(state.range(0), state.range(1));
  for (auto _ : state) {
    const analysis::Sweep sweep = ParseOrDie(text);
    absl::StatusOr<analysis::StepDetection> steps = analysis::DetectSteps(sweep);
    if (!steps.ok()) state.SkipWithError("DetectSteps failed");
    analysis::ModelFitOptions options;
    for (const analysis::Step& step : steps->steps) {
      options.extra_sizes.push_back(step.size_before);
      options.extra_sizes.push_back(step.size_after);
    }
    benchmark::DoNotOptimize(analysis::FitBufferModels(sweep, options));
  }
  SetRows(state);
}

// {distinct sizes, runs per size}: the 100k-row file of 1000 sizes × 100 runs, the same
// rows as 10000 sizes × 10 runs (the most sizes accepted), a million rows, and 2000 sizes.
void Shapes(benchmark::internal::Benchmark* b) {
  b->Args({1000, 100})->Args({10000, 10})->Args({10000, 100})->Args({2000, 1});
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(ParseCsv)->Apply(Shapes);
BENCHMARK(EstimateNoise)->Apply(Shapes);
BENCHMARK(DetectSteps)->Apply(Shapes);
BENCHMARK(FitBufferModels)->Apply(Shapes);
BENCHMARK(AnalyzeCsv)->Apply(Shapes);

}  // namespace
}  // namespace tickbench::bench

BENCHMARK_MAIN();
