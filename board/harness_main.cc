// The board program: the timer-resolution study on the board, in the host harness's
// command-line syntax and output layout (`--experiment=study`).
//
//   bazel run --config=cortex_m3 //board:harness -- --clock=systick --tick_period=10ms
//       --sizes=32,512,4096 [--iterations=1000] [--runs=4] [--format=table|csv|json]
//
// The command line arrives by semihosting; the report goes to semihosting's standard
// output. Exit codes as on the host: 0 done, 1 a clock or cell could not be measured,
// 2 a bad command line.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "board/dwt.h"
#include "board/pendsv_echo.h"
#include "board/systick.h"
#include "core/board_rows.h"
#include "core/command_line.h"
#include "core/study_report.h"
#include "core/text_sink.h"
#include "core/tick_study.h"

namespace tickbench::board {
namespace {

constexpr int kMaxSizes = 64;
constexpr int64_t kMaxIterations = 20000;
constexpr int64_t kMaxReadings = 50000;

// The workspace: static, so that nothing is allocated while measuring.
alignas(8) char g_send[kMaxMessageBytes];
alignas(8) char g_receive[kMaxMessageBytes];
int64_t g_marks[kMaxIterations + 2];
int64_t g_reference_marks[kMaxIterations + 2];
double g_readings[kMaxReadings];
double g_truths[kMaxReadings];
int64_t g_reading_ticks[kMaxReadings];
core::StudyCell g_cells[kMaxSizes];

class StdoutSink final : public core::TextSink {
 public:
  void Write(const char* data, size_t size) override { std::fwrite(data, 1, size, stdout); }
};

enum class Format { kTable, kCsv, kJson };

struct Options {
  const char* clock = core::kBoardDefaultClock;
  int64_t tick_period_ns = 10'000'000;
  int64_t sizes[kMaxSizes] = {32, 512, 1024, 1300, 1400, 1460, 1492, 1536, 2032, 2984, 4096};
  int size_count = 11;
  core::StudyOptions study;
  Format format = Format::kTable;
};

constexpr char kUsage[] =
    "usage: harness [--clock=systick|systick_fine|dwt] [--tick_period=10ms] "
    "[--sizes=32,512,4096] [--iterations=1000] [--runs=4] [--format=table|csv|json] "
    "[--transport=pendsv_echo] [--experiment=study] [--list_clocks] [--help]\n"
    "The timer-resolution study on the board: each size's round trips timed by --clock "
    "over the whole loop (averaged) and one by one (per-iteration), against systick_fine, "
    "with the tick theory's predictions beside them.\n";

int BadFlag(const char* flag, const char* problem) {
  std::fprintf(stderr, "harness: --%s: %s\n", flag, problem);
  return 2;
}

// --list_clocks: the board's clocks and transports (core/board_rows.h).
void ListClocks() {
  std::printf("%-14s %s\n", "clock", "what it is");
  for (const core::BoardRow& row : core::kBoardClocks) {
    std::printf("%-14s %s\n", row.name, row.description);
  }
  std::printf("\n%-14s %s\n", "transport", "what it is");
  for (const core::BoardRow& row : core::kBoardTransports) {
    std::printf("%-14s %s\n", row.name, row.description);
  }
}

template <size_t N>
bool IsRow(const core::BoardRow (&rows)[N], const char* name) {
  for (const core::BoardRow& row : rows) {
    if (std::strcmp(row.name, name) == 0) return true;
  }
  return false;
}

// --sizes into `options`: 0 on success, else the exit code.
int ParseSizes(const char* value, Options& options) {
  if (!core::ParseSizeList(value, options.sizes, kMaxSizes, &options.size_count)) {
    return BadFlag("sizes", "not a comma-separated list of 1 to 64 positive sizes");
  }
  for (int s = 0; s < options.size_count; ++s) {
    if (options.sizes[s] > static_cast<int64_t>(kMaxMessageBytes)) {
      return BadFlag("sizes", "a size is above the board's 65536-byte buffers");
    }
  }
  return 0;
}

// --format into `options`: 0 on success, else the exit code.
int ParseFormat(const char* value, Options& options) {
  if (std::strcmp(value, "table") == 0) {
    options.format = Format::kTable;
  } else if (std::strcmp(value, "csv") == 0) {
    options.format = Format::kCsv;
  } else if (std::strcmp(value, "json") == 0) {
    options.format = Format::kJson;
  } else {
    return BadFlag("format", "not one of table, csv, json");
  }
  return 0;
}

// 0 on success, else the exit code.
int ParseOptions(int argc, char** argv, Options& options, bool& done) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = nullptr;
    if (core::MatchFlag(arg, "help", &value)) {
      std::fputs(kUsage, stdout);
      done = true;
      return 0;
    } else if (core::MatchFlag(arg, "list_clocks", &value)) {
      ListClocks();
      done = true;
      return 0;
    } else if (core::MatchFlag(arg, "clock", &value)) {
      if (!IsRow(core::kBoardClocks, value)) {
        return BadFlag("clock", "unknown clock (this board has systick, systick_fine, dwt)");
      }
      options.clock = value;
    } else if (core::MatchFlag(arg, "tick_period", &value)) {
      if (!core::ParseDurationNs(value, &options.tick_period_ns)) {
        return BadFlag("tick_period", "not a duration such as 10ms or 20ms");
      }
    } else if (core::MatchFlag(arg, "sizes", &value)) {
      if (const int code = ParseSizes(value, options); code != 0) return code;
    } else if (core::MatchFlag(arg, "iterations", &value)) {
      if (!core::ParseCount(value, &options.study.iterations) || options.study.iterations < 1 ||
          options.study.iterations > kMaxIterations) {
        return BadFlag("iterations", "not a count from 1 to 20000");
      }
    } else if (core::MatchFlag(arg, "runs", &value)) {
      if (!core::ParseCount(value, &options.study.runs) || options.study.runs < 1 ||
          options.study.runs > 100) {
        return BadFlag("runs", "not a count from 1 to 100");
      }
    } else if (core::MatchFlag(arg, "format", &value)) {
      if (const int code = ParseFormat(value, options); code != 0) return code;
    } else if (core::MatchFlag(arg, "transport", &value)) {
      if (!IsRow(core::kBoardTransports, value)) {
        return BadFlag("transport", "unknown transport (this board has pendsv_echo)");
      }
    } else if (core::MatchFlag(arg, "experiment", &value)) {
      if (std::strcmp(value, "study") != 0) {
        return BadFlag("experiment", "the board runs the study only (--experiment=study)");
      }
    } else {
      std::fprintf(stderr, "harness: unknown argument '%s'\n%s", arg, kUsage);
      return 2;
    }
  }
  if (options.study.iterations * options.study.runs > kMaxReadings) {
    return BadFlag("iterations", "iterations x runs is above the board's 50000 readings");
  }
  return 0;
}

template <typename ClockT>
int RunStudy(ClockT& clock, SysTickFineClock& reference, const Options& options) {
  core::StudyWorkspace workspace;
  workspace.send = g_send;
  workspace.receive = g_receive;
  workspace.message_capacity = kMaxMessageBytes;
  workspace.marks = g_marks;
  workspace.reference_marks = g_reference_marks;
  workspace.mark_capacity = kMaxIterations + 2;
  workspace.readings_ns = g_readings;
  workspace.truths_ns = g_truths;
  workspace.reading_ticks = g_reading_ticks;
  workspace.reading_capacity = kMaxReadings;
  PendSvEcho echo;
  int status = 0;
  for (int s = 0; s < options.size_count; ++s) {
    g_cells[s] =
        core::RunStudyCell(echo, clock, reference, workspace, options.sizes[s], options.study);
    if (g_cells[s].error != nullptr) status = 1;
  }
  StdoutSink out;
  char t[24];
  switch (options.format) {
    case Format::kTable:
      out.Print("# tickbench on mps2-an385: Arm Cortex-M3, 25 MHz core clock, no OS\n");
      out.Printf("# clock: %s (%s); claimed resolution %s\n", clock.info().spec, clock.info().name,
                 core::FormatDurationNs(clock.info().claimed_resolution_ns, t, sizeof(t)));
      out.Printf("# reference: %s (%s); claimed resolution %s\n", reference.info().spec,
                 reference.info().name,
                 core::FormatDurationNs(reference.info().claimed_resolution_ns, t, sizeof(t)));
      out.Printf("# experiment study over %s: %d sizes x %lld runs x %lld round trips\n",
                 PendSvEcho::name(), options.size_count, static_cast<long long>(options.study.runs),
                 static_cast<long long>(options.study.iterations));
      core::WriteStudyTable(g_cells, options.size_count, out);
      break;
    case Format::kCsv:
      core::WriteStudyCsv(g_cells, options.size_count, out);
      break;
    case Format::kJson:
      core::WriteStudyJson(g_cells, options.size_count, "mps2-an385 (Arm Cortex-M3, 25 MHz)", out);
      break;
  }
  for (int s = 0; s < options.size_count; ++s) {
    if (g_cells[s].error != nullptr) {
      std::fprintf(stderr, "harness: %lld B: %s\n", static_cast<long long>(options.sizes[s]),
                   g_cells[s].error);
    }
  }
  return status;
}

int Main(int argc, char** argv) {
  static Options options;
  bool done = false;
  if (const int status = ParseOptions(argc, argv, options, done); status != 0 || done) {
    return status;
  }
  const char* error = nullptr;
  if (!StartSysTick(options.tick_period_ns, &error)) return BadFlag("tick_period", error);
  static SysTickFineClock reference;
  if (std::strcmp(options.clock, "systick") == 0) {
    static SysTickClock clock;
    return RunStudy(clock, reference, options);
  }
  if (std::strcmp(options.clock, "systick_fine") == 0) {
    static SysTickFineClock clock;
    return RunStudy(clock, reference, options);
  }
  const char* reason = nullptr;
  if (!DetectDwt(&reason)) {
    std::fprintf(stderr, "harness: --clock=%s\n", reason);
    return 1;
  }
  static DwtClock clock;
  return RunStudy(clock, reference, options);
}

}  // namespace
}  // namespace tickbench::board

int main(int argc, char** argv) { return tickbench::board::Main(argc, argv); }
