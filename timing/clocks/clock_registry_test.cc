#include "timing/clocks/clock_registry.h"

#include <time.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "timing/clocks/clock_spec.h"
#include "timing/clocks/os_clocks.h"

namespace tickbench::timing {
namespace {

std::vector<std::string> OfferedSpecTexts() {
  std::vector<std::string> texts;
  for (const ClockSpec& spec : AvailableClockSpecs()) texts.push_back(ClockSpecToString(spec));
  return texts;
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(ClockRegistryTest, EveryKindHasOneRowAndUniqueNames) {
  for (ClockKind kind :
       {ClockKind::kGettimeofday, ClockKind::kClockGettime, ClockKind::kCycleCounter,
        ClockKind::kTick, ClockKind::kVirtual, ClockKind::kMpiWtime}) {
    EXPECT_EQ(ClockKindRow(kind).kind, kind);
  }
  EXPECT_EQ(RegisteredClockKinds().size(), 6u);
  std::set<std::string> seen;
  for (const ClockKindInfo& row : RegisteredClockKinds()) {
    for (const char* name : row.names) {
      if (name == nullptr) continue;
      EXPECT_TRUE(seen.insert(name).second) << "duplicate " << name;
      EXPECT_EQ(FindClockKind(name), &row) << name;
    }
    if (row.alias != nullptr) {
      EXPECT_EQ(FindClockKind(row.alias), &row);
    }
    EXPECT_NE(ClockKindsForHelp().find(row.syntax), std::string::npos) << row.syntax;
    EXPECT_NE(ClockKindTableForHelp().find(row.description), std::string::npos);
  }
  EXPECT_EQ(FindClockKind("sundial"), nullptr);
  const std::vector<std::string> names = ClockKindNames();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), seen);
}

// What the allowed-value messages have always said, now built from the rows.
TEST(ClockRegistryTest, AllowedClocksTextIsTheRowsSyntax) {
  EXPECT_EQ(ClockKindsForHelp(),
            "gettimeofday, clock_gettime[:ID], rdtsc (x86-64) or cntvct (arm64), "
            "tick[:PERIOD][:uniqtime], virtual, mpi_wtime");
  absl::Status unknown = ParseClockSpec("sundial").status();
  EXPECT_EQ(unknown.message(), "unknown clock 'sundial'; allowed clocks: " + ClockKindsForHelp());
}

// Every spec a row offers parses back to itself and makes a clock that says the same spec.
TEST(ClockRegistryTest, OfferedSpecsRoundTripAndMake) {
  for (const ClockSpec& spec : AvailableClockSpecs()) {
    const std::string text = ClockSpecToString(spec);
    absl::StatusOr<ClockSpec> parsed = ParseClockSpec(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_EQ(ClockSpecToString(*parsed), text);
    ClockEnvironment environment;
    environment.allow_variable_cycle_counter = true;
    absl::StatusOr<std::unique_ptr<Clock>> clock = MakeClock(spec, environment);
    ASSERT_TRUE(clock.ok()) << text << ": " << clock.status();
    EXPECT_EQ((*clock)->info().spec, text);
  }
}

// Every id row is listed in help, accepted by the parser, and offered where the kernel
// has it; an unknown id's message lists them all.
TEST(ClockRegistryTest, EveryClockIdRowIsListedParsedAndOffered) {
  const std::vector<std::string> help = absl::StrSplit(ClockIdNamesForHelp(), ", ");
  ASSERT_EQ(help.size(), ClockIdNames().size());
  const std::vector<std::string> offered = OfferedSpecTexts();
  for (size_t i = 0; i < ClockIdNames().size(); ++i) {
    const ClockIdName& id = ClockIdNames()[i];
    EXPECT_EQ(help[i], id.flag_name);
    EXPECT_GT(std::string(id.description).size(), 5u) << id.flag_name;
    const std::string spec = std::string("clock_gettime:") + id.flag_name;
    absl::StatusOr<ClockSpec> parsed = ParseClockSpec(spec);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->clock_id, id.flag_name);
    EXPECT_EQ(Contains(offered, spec), ClockIdAvailable(id)) << spec;
  }
  absl::Status bad = ParseClockSpec("clock_gettime:sundial").status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("allowed: " + ClockIdNamesForHelp()), absl::string_view::npos)
      << bad;
  EXPECT_NE(ParseClockId("bad\x1b").status().message().find("'bad\\x1b'"), absl::string_view::npos);
}

// clock_gettime:tai was added as one row in os_clocks.cc and nothing else: it parses,
// makes CLOCK_TAI, is listed for --clock_id and offered to --list_clocks and the
// conformance suite (tests/conformance/clock_conformance_test picks up AvailableClockSpecs()).
TEST(ClockRegistryTest, TaiIsOneRowAndEverythingPicksItUp) {
  absl::StatusOr<ClockIdName> tai = ParseClockId("tai");
  ASSERT_TRUE(tai.ok()) << tai.status();
  EXPECT_EQ(tai->id, CLOCK_TAI);
  EXPECT_FALSE(tai->monotonic);
  EXPECT_NE(ClockIdNamesForHelp().find("tai"), std::string::npos);
  ASSERT_TRUE(ClockIdAvailable(*tai)) << "Linux has had CLOCK_TAI since 3.10";
  EXPECT_TRUE(Contains(OfferedSpecTexts(), "clock_gettime:tai"));
  absl::StatusOr<std::unique_ptr<Clock>> clock =
      MakeClock(*ParseClockSpec("clock_gettime:tai"), ClockEnvironment());
  ASSERT_TRUE(clock.ok()) << clock.status();
  EXPECT_EQ((*clock)->info().name, "clock_gettime(CLOCK_TAI)");
  // TAI is ahead of UTC by the leap seconds the kernel knows (0 until NTP sets them).
  const int64_t realtime =
      MakeClock(*ParseClockSpec("clock_gettime:realtime"), ClockEnvironment()).value()->NowTicks();
  const int64_t tai_now = (*clock)->NowTicks();
  EXPECT_GE(tai_now - realtime, -1'000'000'000);   // not behind UTC (1 s of slack)
  EXPECT_LE(tai_now - realtime, 100'000'000'000);  // nor ahead by more than 100 s
}

}  // namespace
}  // namespace tickbench::timing
