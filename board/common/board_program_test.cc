// The board program's shared part on the host: its command line and its report, which
// both boards' programs use (their own study_icount tests run it on the emulated boards).
#include "board/common/board_program.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::board {
namespace {

class StringSink : public core::TextSink {
 public:
  void Write(const char* data, size_t size) override { text.append(data, size); }
  std::string text;
};

constexpr core::BoardRow kClocks[] = {{"tick", "a coarse tick"}, {"fine", "a fine counter"}};
constexpr core::BoardRow kEcho = {"echo", "an in-memory echo"};
constexpr BoardDescription kBoard = {kClocks,     2, &kEcho, "fine", "# tickbench on a test board",
                                     "test board"};

struct Parsed {
  int status;
  bool done;
  BoardSettings settings;
  std::string out, err;
};

Parsed Parse(std::vector<std::string> words) {
  words.insert(words.begin(), "harness");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  Parsed p{};
  StringSink out, err;
  p.status = ReadBoardCommandLine(static_cast<int>(argv.size()), argv.data(), kBoard, p.settings,
                                  out, err, &p.done);
  p.out = out.text;
  p.err = err.text;
  return p;
}

TEST(BoardProgramTest, DefaultsAreTheBoardsFirstClockAndTheClassicSizes) {
  const Parsed p = Parse({});
  EXPECT_EQ(p.status, 0);
  EXPECT_STREQ(p.settings.clock, "tick");
  EXPECT_EQ(p.settings.size_count, 11);
  EXPECT_EQ(p.settings.sizes[10], 4096);
  EXPECT_EQ(p.settings.format, BoardFormat::kTable);
}

TEST(BoardProgramTest, TakesEveryFlag) {
  const Parsed p = Parse({"--clock=fine", "--tick_period=20ms", "--sizes=32,64", "--iterations=50",
                          "--runs=3", "--format=csv", "--transport=echo", "--experiment=study"});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_STREQ(p.settings.clock, "fine");
  EXPECT_EQ(p.settings.tick_period_ns, 20'000'000);
  EXPECT_EQ(p.settings.size_count, 2);
  EXPECT_EQ(p.settings.study.iterations, 50);
  EXPECT_EQ(p.settings.study.runs, 3);
  EXPECT_EQ(p.settings.format, BoardFormat::kCsv);
}

// A bad flag: exit 2 and one line on the error stream naming it (and the board's choices).
TEST(BoardProgramTest, ABadFlagIsOneLineNamingItAndExitTwo) {
  for (const std::vector<std::string>& words :
       std::vector<std::vector<std::string>>{{"--clock=tsc"},
                                             {"--iterations=0"},
                                             {"--runs=101"},
                                             {"--sizes=70000"},
                                             {"--format=xml"},
                                             {"--transport=udp"},
                                             {"--experiment=sweep"},
                                             {"--tick_period=10"},
                                             {"--iterations=20000", "--runs=3"},
                                             {"--bogus=1"}}) {
    const Parsed p = Parse(words);
    EXPECT_EQ(p.status, 2) << words[0];
    EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
    EXPECT_EQ(p.err.rfind("harness: ", 0), 0u) << p.err;
  }
  EXPECT_NE(Parse({"--clock=tsc"}).err.find("this board has tick, fine"), std::string::npos);
  EXPECT_NE(Parse({"--transport=udp"}).err.find("this board has echo"), std::string::npos);
}

// An unknown argument is echoed as a terminal may show it: no escape sequence reaches it.
TEST(BoardProgramTest, AnUnknownArgumentIsEchoedWithoutControlBytes) {
  const Parsed p = Parse({"--x=\x1b[2J" + std::string(100, 'a')});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err.find('\x1b'), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("'--x=?[2Jaaa"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("...' (--help"), std::string::npos) << p.err;
}

TEST(BoardProgramTest, HelpAndListClocksAnswerAndStop) {
  const Parsed help = Parse({"--help", "--clock=tsc"});
  EXPECT_EQ(help.status, 0);
  EXPECT_TRUE(help.done);
  EXPECT_NE(help.out.find("[--clock=tick|fine]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("against fine"), std::string::npos) << help.out;
  const Parsed list = Parse({"--list_clocks"});
  EXPECT_TRUE(list.done);
  EXPECT_NE(list.out.find("tick           a coarse tick"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("echo           an in-memory echo"), std::string::npos) << list.out;
}

// The report: the banner and the clocks above the table; a failed cell's reason on the
// error stream and exit 1.
class TestClock final : public core::Clock {
 public:
  explicit TestClock(const char* spec) : core::Clock(Info(spec)) {}
  int64_t NowTicks() override { return 0; }

 private:
  static core::ClockInfo Info(const char* spec) {
    core::ClockInfo info;
    info.spec = spec;
    info.name = spec;
    info.claimed_resolution_ns = 10e6;
    return info;
  }
};

TEST(BoardProgramTest, ReportLeadsWithTheBoardAndItsClocksAndNamesFailedCells) {
  TestClock clock("tick"), reference("fine");
  BoardSettings settings;
  settings.size_count = 2;
  core::StudyCell cells[2];
  cells[0].clock = "tick";
  cells[1].clock = "tick";
  cells[1].error = "the transport failed";
  StringSink out, err;
  EXPECT_EQ(ReportBoardStudy(clock, reference, kBoard, settings, cells, out, err), 1);
  EXPECT_EQ(out.text.rfind("# tickbench on a test board\n# clock: tick (tick); claimed "
                           "resolution 10ms\n# reference: fine (fine)",
                           0),
            0u)
      << out.text;
  EXPECT_NE(out.text.find("# experiment study over echo: 2 sizes x 4 runs x 1000 round trips"),
            std::string::npos);
  EXPECT_EQ(err.text, "harness: 512 B: the transport failed\n");
}

}  // namespace
}  // namespace tickbench::board
