// The RISC-V board program: the timer-resolution study on the board, in the host
// harness's command-line syntax and output layout (`--experiment=study`), as the Cortex-M3
// board's program (board/harness_main.cc) prints it, over this board's clocks and echo.
//
//   bazel run --config=riscv32 //harness -- --clock=mtime_tick --tick_period=10ms
//       --sizes=32,512,4096 [--iterations=1000] [--runs=4] [--format=table|csv|json]
//
// The command line arrives by semihosting; the report goes to semihosting's standard
// output. Exit codes as on the host: 0 done, 1 a clock or cell could not be measured,
// 2 a bad command line.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "board/riscv32/clint_clocks.h"
#include "board/riscv32/msip_echo.h"
#include "core/board_rows.h"
#include "core/command_line.h"
#include "core/study_report.h"
#include "core/text_sink.h"
#include "core/tick_study.h"

namespace tickbench::board::riscv32 {
namespace {

constexpr core::BoardRow kClocks[] = {
    {"mtime_tick",
     "machine timer interrupts counted (mtimecmp moved on by one period in each): a real "
     "coarse tick of period --tick_period (10ms: 100 Hz); the default"},
    {"mtime", "the CLINT's 64-bit mtime counter, 10 MHz (0.1 us); the reference"},
    {"mcycle",
     "the hart's cycle counter (mcycle), its rate calibrated against mtime; detected, refused "
     "where it does not count"},
};
constexpr core::BoardRow kTransport = {
    "msip_echo",
    "an in-memory round trip to an echo peer in the machine software interrupt handler (CLINT "
    "msip; three copies of the message)"};
constexpr char kPlatform[] = "qemu virt (RISC-V rv32imac, 10 MHz mtime)";

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

class Stdout final : public core::TextSink {
 public:
  void Write(const char* data, size_t size) override { std::fwrite(data, 1, size, stdout); }
};

struct Settings {
  const char* clock = "mtime_tick";
  const char* format = "table";
  int64_t tick_period_ns = 10'000'000;
  int64_t sizes[kMaxSizes] = {32, 512, 1024, 1300, 1400, 1460, 1492, 1536, 2032, 2984, 4096};
  int size_count = 11;
  core::StudyOptions study;
};

constexpr char kHelp[] =
    "usage: harness [--clock=mtime_tick|mtime|mcycle] [--tick_period=10ms] "
    "[--sizes=32,512,4096] [--iterations=1000] [--runs=4] [--format=table|csv|json] "
    "[--transport=msip_echo] [--experiment=study] [--list_clocks] [--help]\n"
    "The timer-resolution study on the RISC-V board: each size's round trips timed by "
    "--clock over the whole loop (averaged) and one by one (per-iteration), against mtime, "
    "with the tick theory's predictions beside them.\n";

int Refuse(const char* flag, const char* why) {
  std::fprintf(stderr, "harness: --%s: %s\n", flag, why);
  return 2;
}

bool OneOf(const char* value, const char* const* names, int count) {
  for (int i = 0; i < count; ++i) {
    if (std::strcmp(value, names[i]) == 0) return true;
  }
  return false;
}

// A count flag within [1, most]: 0, else the exit code.
int CountFlag(const char* flag, const char* value, int64_t most, int64_t* out) {
  int64_t count = 0;
  if (!core::ParseCount(value, &count) || count < 1 || count > most) {
    char why[48];
    std::snprintf(why, sizeof(why), "not a count from 1 to %lld", static_cast<long long>(most));
    return Refuse(flag, why);
  }
  *out = count;
  return 0;
}

// One --name=value: 0 when taken, else the exit code.
int TakeFlag(const char* flag, const char* value, Settings& s) {
  static const char* const kClockNames[] = {"mtime_tick", "mtime", "mcycle"};
  static const char* const kFormats[] = {"table", "csv", "json"};
  if (std::strcmp(flag, "clock") == 0) {
    if (!OneOf(value, kClockNames, 3))
      return Refuse(flag, "unknown clock (mtime_tick, mtime, mcycle)");
    s.clock = value;
  } else if (std::strcmp(flag, "tick_period") == 0) {
    if (!core::ParseDurationNs(value, &s.tick_period_ns))
      return Refuse(flag, "not a duration such as 10ms");
  } else if (std::strcmp(flag, "sizes") == 0) {
    if (!core::ParseSizeList(value, s.sizes, kMaxSizes, &s.size_count)) {
      return Refuse(flag, "not a comma-separated list of 1 to 64 positive sizes");
    }
    for (int i = 0; i < s.size_count; ++i) {
      if (s.sizes[i] > static_cast<int64_t>(kMaxMessageBytes))
        return Refuse(flag, "a size is above 65536 bytes");
    }
  } else if (std::strcmp(flag, "iterations") == 0) {
    return CountFlag(flag, value, kMaxIterations, &s.study.iterations);
  } else if (std::strcmp(flag, "runs") == 0) {
    return CountFlag(flag, value, 100, &s.study.runs);
  } else if (std::strcmp(flag, "format") == 0) {
    if (!OneOf(value, kFormats, 3)) return Refuse(flag, "not one of table, csv, json");
    s.format = value;
  } else if (std::strcmp(flag, "transport") == 0) {
    if (std::strcmp(value, kTransport.name) != 0)
      return Refuse(flag, "unknown transport (this board has msip_echo)");
  } else if (std::strcmp(flag, "experiment") == 0) {
    if (std::strcmp(value, "study") != 0) return Refuse(flag, "the board runs the study only");
  } else {
    return -1;
  }
  return 0;
}

void ListClocks() {
  std::printf("%-14s %s\n", "clock", "what it is");
  for (const core::BoardRow& row : kClocks) std::printf("%-14s %s\n", row.name, row.description);
  std::printf("\n%-14s %s\n%-14s %s\n", "transport", "what it is", kTransport.name,
              kTransport.description);
}

// The command line into `s`: 0 to run the study, else the exit code (*done: it was --help
// or --list_clocks, which exit 0).
int ReadCommandLine(int argc, char** argv, Settings& s, bool* done) {
  for (int i = 1; i < argc; ++i) {
    const char* value = nullptr;
    if (core::MatchFlag(argv[i], "help", &value)) {
      std::fputs(kHelp, stdout);
      *done = true;
      return 0;
    }
    if (core::MatchFlag(argv[i], "list_clocks", &value)) {
      ListClocks();
      *done = true;
      return 0;
    }
    const char* equals = std::strchr(argv[i], '=');
    int status = -1;
    if (std::strncmp(argv[i], "--", 2) == 0 && equals != nullptr) {
      char flag[32] = {};
      std::memcpy(flag, argv[i] + 2, std::min<size_t>(equals - argv[i] - 2, sizeof(flag) - 1));
      status = TakeFlag(flag, equals + 1, s);
    }
    if (status == -1) {
      std::fprintf(stderr, "harness: unknown argument '%s'\n%s", argv[i], kHelp);
      return 2;
    }
    if (status != 0) return status;
  }
  if (s.study.iterations * s.study.runs > kMaxReadings) {
    return Refuse("iterations", "iterations x runs is above the board's 50000 readings");
  }
  return 0;
}

core::StudyWorkspace Workspace() {
  core::StudyWorkspace w;
  w.send = g_send;
  w.receive = g_receive;
  w.message_capacity = kMaxMessageBytes;
  w.marks = g_marks;
  w.reference_marks = g_reference_marks;
  w.mark_capacity = kMaxIterations + 2;
  w.readings_ns = g_readings;
  w.truths_ns = g_truths;
  w.reading_ticks = g_reading_ticks;
  w.reading_capacity = kMaxReadings;
  return w;
}

void Report(const core::Clock& clock, const core::Clock& reference, const Settings& s) {
  Stdout out;
  char resolution[24];
  if (std::strcmp(s.format, "csv") == 0) return core::WriteStudyCsv(g_cells, s.size_count, out);
  if (std::strcmp(s.format, "json") == 0) {
    return core::WriteStudyJson(g_cells, s.size_count, kPlatform, out);
  }
  out.Print("# tickbench on qemu virt: RISC-V rv32imac hart, 10 MHz CLINT timer, no OS\n");
  for (const core::Clock* c : {&clock, &reference}) {
    out.Printf("# %s: %s (%s); claimed resolution %s\n", c == &clock ? "clock" : "reference",
               c->info().spec, c->info().name,
               core::FormatDurationNs(c->info().claimed_resolution_ns, resolution, 24));
  }
  out.Printf("# experiment study over %s: %d sizes x %lld runs x %lld round trips\n",
             MsipEcho::name(), s.size_count, static_cast<long long>(s.study.runs),
             static_cast<long long>(s.study.iterations));
  core::WriteStudyTable(g_cells, s.size_count, out);
}

template <typename ClockT>
int Study(ClockT& clock, MtimeClock& reference, const Settings& s) {
  const core::StudyWorkspace workspace = Workspace();
  MsipEcho echo;
  for (int i = 0; i < s.size_count; ++i) {
    g_cells[i] = core::RunStudyCell(echo, clock, reference, workspace, s.sizes[i], s.study);
  }
  Report(clock, reference, s);
  int status = 0;
  for (int i = 0; i < s.size_count; ++i) {
    if (g_cells[i].error == nullptr) continue;
    std::fprintf(stderr, "harness: %lld B: %s\n", static_cast<long long>(s.sizes[i]),
                 g_cells[i].error);
    status = 1;
  }
  return status;
}

int Main(int argc, char** argv) {
  static Settings settings;
  bool done = false;
  if (const int status = ReadCommandLine(argc, argv, settings, &done); status != 0 || done) {
    return status;
  }
  const char* error = nullptr;
  if (!StartMtimeTick(settings.tick_period_ns, &error)) return Refuse("tick_period", error);
  static MtimeClock reference;
  if (std::strcmp(settings.clock, "mtime_tick") == 0) {
    static MtimeTickClock clock;
    return Study(clock, reference, settings);
  }
  if (std::strcmp(settings.clock, "mtime") == 0) {
    static MtimeClock clock;
    return Study(clock, reference, settings);
  }
  double hz = 0;
  if (!DetectMcycle(&hz, &error)) {
    std::fprintf(stderr, "harness: --clock=%s\n", error);
    return 1;
  }
  static McycleClock clock(hz);
  return Study(clock, reference, settings);
}

}  // namespace
}  // namespace tickbench::board::riscv32

int main(int argc, char** argv) { return tickbench::board::riscv32::Main(argc, argv); }
