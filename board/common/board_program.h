// What every board program shares: the command line in the host harness's syntax, the study
// over each size into static memory, and the report in the host's layout. A board adds its
// clocks, its echo and where text goes (board/harness_main.cc for the Cortex-M3,
// board/riscv32/harness_main.cc for RISC-V).
//
// Freestanding as core/ is (core/README.md): plain C++17, no Abseil, no OS, no heap; text
// goes to TextSinks.
//
// What is promised:
//   * ReadBoardCommandLine() takes --clock (one of the board's rows), --tick_period,
//     --sizes, --iterations (1..20000), --runs (1..100), --format=table|csv|json,
//     --transport (the board's one), --experiment=study, --help and --list_clocks; a bad
//     flag is one line on `err` naming it, and exit code 2.
//   * RunBoardStudy() measures every size with core::RunStudyCell into the workspace,
//     writes the report, then one line per failed cell on `err`; 0, or 1 if a cell failed.
// What is NOT promised:
//   * No flags beyond these: the host's others do not exist on a board.
#ifndef BOARD_COMMON_BOARD_PROGRAM_H_
#define BOARD_COMMON_BOARD_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "core/board_rows.h"
#include "core/clock.h"
#include "core/text_sink.h"
#include "core/tick_study.h"

namespace tickbench::board {

// Text to a C stream (the boards' newlib writes stdout and stderr by semihosting).
class FileSink final : public core::TextSink {
 public:
  explicit FileSink(std::FILE* file) : file_(file) {}
  void Write(const char* data, size_t size) override { std::fwrite(data, 1, size, file_); }

 private:
  std::FILE* file_;
};

inline constexpr int kBoardMaxSizes = 64;
inline constexpr int64_t kBoardMaxIterations = 20000;
inline constexpr int64_t kBoardMaxRuns = 100;
inline constexpr int64_t kBoardMaxReadings = 50000;
inline constexpr size_t kBoardMaxMessageBytes = 65536;

enum class BoardFormat { kTable, kCsv, kJson };

struct BoardSettings {
  const char* clock = nullptr;  // null: the board's first clock row
  int64_t tick_period_ns = 10'000'000;
  int64_t sizes[kBoardMaxSizes] = {32, 512, 1024, 1300, 1400, 1460, 1492, 1536, 2032, 2984, 4096};
  int size_count = 11;
  core::StudyOptions study;
  BoardFormat format = BoardFormat::kTable;
};

// What a board says of itself.
struct BoardDescription {
  const core::BoardRow* clocks;  // the first is the default
  int clock_count;
  const core::BoardRow* transport;
  const char* reference;  // the reference clock's name, for --help
  const char* banner;     // the table's first line: "# tickbench on ..."
  const char* platform;   // JSON's context.platform (no quotes or backslashes)
};

// The program's memory: static, so that nothing is allocated while measuring.
struct BoardWorkspace {
  alignas(8) char send[kBoardMaxMessageBytes];
  alignas(8) char receive[kBoardMaxMessageBytes];
  int64_t marks[kBoardMaxIterations + 2];
  int64_t reference_marks[kBoardMaxIterations + 2];
  double readings[kBoardMaxReadings];
  double truths[kBoardMaxReadings];
  int64_t reading_ticks[kBoardMaxReadings];
  core::StudyCell cells[kBoardMaxSizes];

  core::StudyWorkspace View();
};

// The command line into `settings`: 0 to run the study, else the exit code. *done: it was
// --help or --list_clocks, answered on `out` (exit 0).
int ReadBoardCommandLine(int argc, char** argv, const BoardDescription& board,
                         BoardSettings& settings, core::TextSink& out, core::TextSink& err,
                         bool* done);

// The cells in settings.format on `out`, then each failed cell's reason on `err`: 0, or 1
// when a cell failed.
int ReportBoardStudy(const core::Clock& clock, const core::Clock& reference,
                     const BoardDescription& board, const BoardSettings& settings,
                     const core::StudyCell* cells, core::TextSink& out, core::TextSink& err);

template <typename EndpointT, typename ClockT, typename ReferenceT>
int RunBoardStudy(EndpointT& endpoint, ClockT& clock, ReferenceT& reference,
                  const BoardDescription& board, const BoardSettings& settings,
                  BoardWorkspace& workspace, core::TextSink& out, core::TextSink& err) {
  const core::StudyWorkspace view = workspace.View();
  for (int i = 0; i < settings.size_count; ++i) {
    workspace.cells[i] =
        core::RunStudyCell(endpoint, clock, reference, view, settings.sizes[i], settings.study);
  }
  return ReportBoardStudy(clock, reference, board, settings, workspace.cells, out, err);
}

}  // namespace tickbench::board

#endif  // BOARD_COMMON_BOARD_PROGRAM_H_
