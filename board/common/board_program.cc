#include "board/common/board_program.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "core/command_line.h"
#include "core/study_report.h"

namespace tickbench::board {
namespace {

// A user's argument as a terminal may show it: control bytes (an escape sequence) as '?',
// and at most 64 bytes.
const char* Shown(const char* text, char (&out)[68]) {
  size_t n = 0;
  for (; text[n] != '\0' && n < 64; ++n) {
    const unsigned char c = static_cast<unsigned char>(text[n]);
    out[n] = c < 0x20 || c == 0x7f ? '?' : text[n];
  }
  std::strcpy(out + n, text[n] != '\0' ? "..." : "");
  return out;
}

int Refuse(core::TextSink& err, const char* flag, const char* why) {
  err.Printf("harness: --%s: %s\n", flag, why);
  return 2;
}

void Usage(const BoardDescription& board, core::TextSink& out) {
  out.Print("usage: harness [--clock=");
  for (int i = 0; i < board.clock_count; ++i) {
    out.Printf("%s%s", i > 0 ? "|" : "", board.clocks[i].name);
  }
  // In pieces: TextSink::Printf formats into a bounded buffer.
  out.Print(
      "] [--tick_period=10ms] [--sizes=32,512,4096] [--iterations=1000] [--runs=4] "
      "[--format=table|csv|json] ");
  out.Printf("[--transport=%s] [--experiment=study] [--list_clocks] [--help]\n",
             board.transport->name);
  out.Print(
      "The timer-resolution study on the board: each size's round trips timed by --clock over "
      "the whole loop (averaged) and one by one (per-iteration), ");
  out.Printf("against %s, with the tick theory's predictions beside them.\n", board.reference);
}

void ListClocks(const BoardDescription& board, core::TextSink& out) {
  out.Printf("%-14s %s\n", "clock", "what it is");
  for (int i = 0; i < board.clock_count; ++i) {
    out.Printf("%-14s %s\n", board.clocks[i].name, board.clocks[i].description);
  }
  out.Printf("\n%-14s %s\n%-14s %s\n", "transport", "what it is", board.transport->name,
             board.transport->description);
}

// A count flag within [1, most]: 0, else the exit code.
int CountFlag(const char* flag, const char* value, int64_t most, int64_t* out,
              core::TextSink& err) {
  int64_t count = 0;
  if (!core::ParseCount(value, &count) || count < 1 || count > most) {
    char why[48];
    std::snprintf(why, sizeof(why), "not a count from 1 to %lld", static_cast<long long>(most));
    return Refuse(err, flag, why);
  }
  *out = count;
  return 0;
}

int TakeClock(const char* value, const BoardDescription& board, BoardSettings& s,
              core::TextSink& err) {
  for (int i = 0; i < board.clock_count; ++i) {
    if (std::strcmp(value, board.clocks[i].name) == 0) {
      s.clock = board.clocks[i].name;
      return 0;
    }
  }
  err.Print("harness: --clock: unknown clock; this board has");
  for (int i = 0; i < board.clock_count; ++i) {
    err.Printf("%s %s", i > 0 ? "," : "", board.clocks[i].name);
  }
  err.Print("\n");
  return 2;
}

int TakeSizes(const char* value, BoardSettings& s, core::TextSink& err) {
  if (!core::ParseSizeList(value, s.sizes, kBoardMaxSizes, &s.size_count)) {
    return Refuse(err, "sizes", "not a comma-separated list of 1 to 64 positive sizes");
  }
  for (int i = 0; i < s.size_count; ++i) {
    if (s.sizes[i] > static_cast<int64_t>(kBoardMaxMessageBytes)) {
      return Refuse(err, "sizes", "a size is above the board's 65536-byte buffers");
    }
  }
  return 0;
}

int TakeFormat(const char* value, BoardSettings& s, core::TextSink& err) {
  static constexpr struct {
    const char* name;
    BoardFormat format;
  } kFormats[] = {
      {"table", BoardFormat::kTable}, {"csv", BoardFormat::kCsv}, {"json", BoardFormat::kJson}};
  for (const auto& f : kFormats) {
    if (std::strcmp(value, f.name) == 0) {
      s.format = f.format;
      return 0;
    }
  }
  return Refuse(err, "format", "not one of table, csv, json");
}

// One argument other than --help and --list_clocks: 0 when taken, -1 when unknown, else
// the exit code.
int TakeArgument(const char* arg, const BoardDescription& board, BoardSettings& s,
                 core::TextSink& err) {
  const char* value = nullptr;
  if (core::MatchFlag(arg, "clock", &value)) return TakeClock(value, board, s, err);
  if (core::MatchFlag(arg, "tick_period", &value)) {
    return core::ParseDurationNs(value, &s.tick_period_ns)
               ? 0
               : Refuse(err, "tick_period", "not a duration such as 10ms or 20ms");
  }
  if (core::MatchFlag(arg, "sizes", &value)) return TakeSizes(value, s, err);
  if (core::MatchFlag(arg, "iterations", &value)) {
    return CountFlag("iterations", value, kBoardMaxIterations, &s.study.iterations, err);
  }
  if (core::MatchFlag(arg, "runs", &value)) {
    return CountFlag("runs", value, kBoardMaxRuns, &s.study.runs, err);
  }
  if (core::MatchFlag(arg, "format", &value)) return TakeFormat(value, s, err);
  if (core::MatchFlag(arg, "transport", &value)) {
    if (std::strcmp(value, board.transport->name) == 0) return 0;
    err.Printf("harness: --transport: unknown transport; this board has %s\n",
               board.transport->name);
    return 2;
  }
  if (core::MatchFlag(arg, "experiment", &value)) {
    return std::strcmp(value, "study") == 0
               ? 0
               : Refuse(err, "experiment", "the board runs the study only (--experiment=study)");
  }
  return -1;
}

}  // namespace

core::StudyWorkspace BoardWorkspace::View() {
  core::StudyWorkspace w;
  w.send = send;
  w.receive = receive;
  w.message_capacity = kBoardMaxMessageBytes;
  w.marks = marks;
  w.reference_marks = reference_marks;
  w.mark_capacity = kBoardMaxIterations + 2;
  w.readings_ns = readings;
  w.truths_ns = truths;
  w.reading_ticks = reading_ticks;
  w.reading_capacity = kBoardMaxReadings;
  return w;
}

int ReadBoardCommandLine(int argc, char** argv, const BoardDescription& board,
                         BoardSettings& settings, core::TextSink& out, core::TextSink& err,
                         bool* done) {
  *done = false;
  if (settings.clock == nullptr) settings.clock = board.clocks[0].name;
  for (int i = 1; i < argc; ++i) {
    const char* value = nullptr;
    if (core::MatchFlag(argv[i], "help", &value)) {
      Usage(board, out);
      *done = true;
      return 0;
    }
    if (core::MatchFlag(argv[i], "list_clocks", &value)) {
      ListClocks(board, out);
      *done = true;
      return 0;
    }
    const int status = TakeArgument(argv[i], board, settings, err);
    if (status == -1) {
      char shown[68];
      err.Printf("harness: unknown argument '%s' (--help lists the flags)\n",
                 Shown(argv[i], shown));
      return 2;
    }
    if (status != 0) return status;
  }
  if (settings.study.iterations * settings.study.runs > kBoardMaxReadings) {
    return Refuse(err, "iterations", "iterations x runs is above the board's 50000 readings");
  }
  return 0;
}

int ReportBoardStudy(const core::Clock& clock, const core::Clock& reference,
                     const BoardDescription& board, const BoardSettings& s,
                     const core::StudyCell* cells, core::TextSink& out, core::TextSink& err) {
  switch (s.format) {
    case BoardFormat::kTable: {
      char resolution[24];
      out.Printf("%s\n", board.banner);
      for (const core::Clock* c : {&clock, &reference}) {
        out.Printf("# %s: %s (%s); claimed resolution %s\n", c == &clock ? "clock" : "reference",
                   c->info().spec, c->info().name,
                   core::FormatDurationNs(c->info().claimed_resolution_ns, resolution,
                                          sizeof(resolution)));
      }
      out.Printf("# experiment study over %s: %d sizes x %lld runs x %lld round trips\n",
                 board.transport->name, s.size_count, static_cast<long long>(s.study.runs),
                 static_cast<long long>(s.study.iterations));
      core::WriteStudyTable(cells, s.size_count, out);
      break;
    }
    case BoardFormat::kCsv:
      core::WriteStudyCsv(cells, s.size_count, out);
      break;
    case BoardFormat::kJson:
      core::WriteStudyJson(cells, s.size_count, board.platform, out);
      break;
  }
  int status = 0;
  for (int i = 0; i < s.size_count; ++i) {
    if (cells[i].error == nullptr) continue;
    err.Printf("harness: %lld B: %s\n", static_cast<long long>(s.sizes[i]), cells[i].error);
    status = 1;
  }
  return status;
}

}  // namespace tickbench::board
