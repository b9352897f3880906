// Every list of transports, clocks and clock ids that a user reads names exactly what the
// registries have (transport/registry/transport_registry.h, timing/clocks/clock_registry.h): no
// more, no less. Checked here, each parsed out of what the user sees:
//   * the README's transport table (the whole table, row for row) and its clock table
//     (the kinds in its first column, the ids in the clock_gettime row);
//   * --help: the lists in --transport, --clock, --clock_id and --role, the study's
//     default --clocks (what this machine offers), and the transport and clock tables of
//     its usage text;
//   * the allowed-value messages of a bad --transport, --clock and --clock_id, of a
//     transport that cannot reach another host with --role=client, and of
//     --peer_drop_every on a stream; and, on a machine without a cycle counter, the other
//     clocks its message offers.
//   * docs/reference.md's flag tables: exactly the flags --help lists.
//   * docs/reference.md's board table and --list_clocks: exactly the board's rows
//     (core/board_rows.h), each marked board only.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/board_rows.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"
#include "timing/clocks/clock_registry.h"
#include "timing/clocks/clock_spec.h"
#include "timing/clocks/os_clocks.h"
#include "transport/registry/transport_registry.h"

namespace tickbench {
namespace {

using Names = std::set<std::string>;
using ::tickbench::testing::ReadWholeFile;
using ::tickbench::testing::RunHarness;

Names TransportNames() {
  Names names;
  for (const transport::TransportInfo& row : transport::RegisteredTransports()) {
    names.insert(row.name);
  }
  return names;
}

Names RemoteTransportNames() {
  Names names;
  for (const transport::TransportInfo& row : transport::RegisteredTransports()) {
    if (row.remote_code != 0) names.insert(row.name);
  }
  return names;
}

Names TransportNamesWhere(bool (*keep)(const transport::TransportInfo&)) {
  Names names;
  for (const transport::TransportInfo& row : transport::RegisteredTransports()) {
    if (keep(row)) names.insert(row.name);
  }
  return names;
}

Names ClockSyntaxes() {
  Names names;
  for (const timing::ClockKindInfo& row : timing::RegisteredClockKinds()) {
    names.insert(row.syntax);
  }
  return names;
}

Names ClockKindNames() {
  const std::vector<std::string> names = timing::ClockKindNames();
  return Names(names.begin(), names.end());
}

Names ClockIds() {
  Names names;
  for (const timing::ClockIdName& id : timing::ClockIdNames()) names.insert(id.flag_name);
  return names;
}

// Whitespace runs (Abseil wraps help text at 80 columns) become one space.
std::string Collapse(absl::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The text between `before` and the next `after` in `text`; "" when either is missing.
std::string Between(absl::string_view text, absl::string_view before, absl::string_view after) {
  const size_t start = text.find(before);
  if (start == absl::string_view::npos) return "";
  const size_t from = start + before.size();
  const size_t end = text.find(after, from);
  if (end == absl::string_view::npos) return "";
  return std::string(text.substr(from, end - from));
}

// "a, b, c" or "a, b or c" -> {a, b, c}.
Names SplitList(absl::string_view list) {
  Names names;
  for (absl::string_view item : absl::StrSplit(list, ", ")) {
    item = absl::StripAsciiWhitespace(item);
    const size_t last_or = item.rfind(" or ");
    // "rdtsc (x86-64) or cntvct (arm64)" is one item, a clock syntax; "tcp or tcp6" is two.
    if (last_or != absl::string_view::npos && !absl::StrContains(item, "(")) {
      names.insert(std::string(item.substr(0, last_or)));
      names.insert(std::string(item.substr(last_or + 4)));
    } else {
      names.insert(std::string(item));
    }
  }
  return names;
}

// The `backticked` words of `text`.
Names Backticked(absl::string_view text) {
  Names names;
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '`');
  for (size_t i = 1; i < parts.size(); i += 2) names.insert(std::string(parts[i]));
  return names;
}

// The rows (lines starting with '|') of the markdown table whose header line starts with
// `header`, without the header and its rule.
std::vector<std::string> TableRows(const std::string& markdown, absl::string_view header) {
  std::vector<std::string> rows;
  bool in_table = false;
  int skip = 0;
  for (absl::string_view line : absl::StrSplit(markdown, '\n')) {
    if (!in_table) {
      if (absl::StartsWith(line, header)) {
        in_table = true;
        skip = 1;  // the |---| rule
      }
      continue;
    }
    if (!absl::StartsWith(line, "|")) break;
    if (skip > 0) {
      --skip;
      continue;
    }
    rows.emplace_back(line);
  }
  return rows;
}

// The cells of a markdown row, trimmed: "| a | b |" -> {a, b}.
std::vector<std::string> Cells(absl::string_view row) {
  std::vector<std::string> cells;
  std::vector<absl::string_view> parts = absl::StrSplit(row, '|');
  for (size_t i = 1; i + 1 < parts.size(); ++i) {
    cells.emplace_back(absl::StripAsciiWhitespace(parts[i]));
  }
  return cells;
}

std::string Readme() { return ReadWholeFile("README.md"); }

TEST(RegistryDocsTest, ReadmeTransportTableIsTheRegistrysRowForRow) {
  const std::string readme = Readme();
  ASSERT_FALSE(readme.empty()) << "README.md is not in the test's runfiles";
  const std::vector<std::string> rows = TableRows(readme, "| `--transport=` |");
  Names listed;
  for (const std::string& row : rows) {
    const std::vector<std::string> cells = Cells(row);
    ASSERT_EQ(cells.size(), 2u) << row;
    for (const std::string& name : Backticked(cells[0])) listed.insert(name);
  }
  EXPECT_EQ(listed, TransportNames()) << "README: " << absl::StrJoin(listed, ", ");
  // And the descriptions too: the table is what TransportTableMarkdown() writes.
  EXPECT_TRUE(absl::StrContains(readme, transport::TransportTableMarkdown()))
      << "the README's transport table should read:\n"
      << transport::TransportTableMarkdown();
}

TEST(RegistryDocsTest, ReadmeClockTableNamesEveryKindAndEveryId) {
  const std::string readme = Readme();
  ASSERT_FALSE(readme.empty()) << "README.md is not in the test's runfiles";
  const std::vector<std::string> rows = TableRows(readme, "| `--clock=` |");
  ASSERT_FALSE(rows.empty()) << "no | `--clock=` | table in the README";
  Names kinds;
  Names ids;
  for (const std::string& row : rows) {
    const std::vector<std::string> cells = Cells(row);
    ASSERT_EQ(cells.size(), 2u) << row;
    // The first column: `kind` names and `--flag=`s that go with them.
    for (const std::string& word : Backticked(cells[0])) {
      if (!absl::StartsWith(word, "--")) kinds.insert(word);
    }
    // The clock_gettime row lists the ids before its first ';'.
    if (absl::StrContains(cells[0], "`clock_gettime`")) {
      ids = Backticked(cells[1].substr(0, cells[1].find(';')));
    }
  }
  EXPECT_EQ(kinds, ClockKindNames()) << "README: " << absl::StrJoin(kinds, ", ");
  EXPECT_EQ(ids, ClockIds()) << "README: " << absl::StrJoin(ids, ", ");
}

// docs/reference.md gives every flag a row ("| `--name` | default | unit, range | what |"),
// and no row for a flag the binary does not have.
TEST(RegistryDocsTest, ReferenceHasARowForEveryFlagOfHelp) {
  const std::string reference = ReadWholeFile("docs/reference.md");
  ASSERT_FALSE(reference.empty()) << "docs/reference.md is not in the test's runfiles";
  const testing::HarnessResult r = RunHarness("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Names in_help;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    if (!absl::ConsumePrefix(&line, "  --")) continue;
    const size_t end = line.find(" (default: ");
    if (end != absl::string_view::npos) in_help.insert(std::string(line.substr(0, end)));
  }
  ASSERT_GT(in_help.size(), 40u) << r.out;
  Names in_reference;
  const std::string header = "| flag | default |";
  int tables = 0;
  for (size_t at = reference.find(header); at != std::string::npos;
       at = reference.find(header, at + 1), ++tables) {
    for (const std::string& row : TableRows(reference.substr(at), header)) {
      const std::vector<std::string> cells = Cells(row);
      ASSERT_EQ(cells.size(), 4u) << row;
      for (const std::string& word : Backticked(cells[0])) {
        if (absl::StartsWith(word, "--")) in_reference.insert(word.substr(2));
      }
    }
  }
  EXPECT_GT(tables, 0) << "no | flag | default | table in docs/reference.md";
  EXPECT_EQ(in_reference, in_help) << "docs/reference.md: " << absl::StrJoin(in_reference, ", ");
}

// The board's clocks and transport: docs/reference.md's table is the rows of
// core/board_rows.h, row for row, and the host's --list_clocks names each as board only.
TEST(RegistryDocsTest, BoardTableAndListClocksAreTheBoardsRows) {
  std::vector<std::string> expected;
  for (const core::BoardRow& row : core::kBoardClocks) {
    expected.push_back(absl::StrCat("| `--clock=", row.name, "` | ", row.description, " |"));
  }
  for (const core::BoardRow& row : core::kBoardTransports) {
    expected.push_back(absl::StrCat("| `--transport=", row.name, "` | ", row.description, " |"));
  }
  const std::string reference = ReadWholeFile("docs/reference.md");
  ASSERT_FALSE(reference.empty()) << "docs/reference.md is not in the test's runfiles";
  EXPECT_EQ(TableRows(reference, "| board only (`--config=cortex_m3`) |"), expected)
      << "docs/reference.md's board table should read:\n"
      << absl::StrJoin(expected, "\n");

  const testing::HarnessResult r = RunHarness("--list_clocks");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const core::BoardRow& row : core::kBoardClocks) {
    EXPECT_TRUE(absl::StrContains(r.out, row.name) &&
                absl::StrContains(r.out, absl::StrCat(core::kBoardOnly, ": ", row.description)))
        << row.name << "\n"
        << r.out;
  }
  for (const core::BoardRow& row : core::kBoardTransports) {
    EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat("--transport=", row.name)) &&
                absl::StrContains(r.out, absl::StrCat(core::kBoardOnly, ": ", row.description)))
        << row.name << "\n"
        << r.out;
  }
}

TEST(RegistryDocsTest, HelpListsExactlyTheRegisteredTransportsClocksAndIds) {
  const testing::HarnessResult r = RunHarness("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string help = Collapse(r.out);
  EXPECT_EQ(SplitList(Between(help, ") Transport: ", ". Default")), TransportNames());
  EXPECT_EQ(SplitList(Between(help, ") clock_gettime clock id: ", ". --")), ClockIds());
  EXPECT_EQ(SplitList(Between(help, ") Clock that times the round trips, a spec: ", ";")),
            ClockSyntaxes());
  EXPECT_EQ(
      SplitList(Between(help, "client: measure against the server at --peer, over --transport ",
                        ". docs/remote.md")),
      RemoteTransportNames());

  // The usage text's tables: "  NAME  DESCRIPTION" lines under their headings.
  auto table = [&](absl::string_view heading) {
    Names first_column;
    const std::string block = Between(r.out, heading, "\n\n");
    for (absl::string_view line : absl::StrSplit(block, '\n', absl::SkipEmpty())) {
      line = absl::StripLeadingAsciiWhitespace(line);
      first_column.insert(std::string(line.substr(0, line.find("  "))));
    }
    return first_column;
  };
  EXPECT_EQ(table("Transports (--transport):\n"), TransportNames());
  EXPECT_EQ(table("Clocks (--clock, --clocks, --reference_clock):\n"), ClockSyntaxes());
}

TEST(RegistryDocsTest, AllowedValueMessagesListExactlyTheRegistry) {
  {
    const testing::HarnessResult r = RunHarness("--transport=vsock --sizes=32");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(SplitList(Between(r.err, "choose one of: ", "\n")), TransportNames()) << r.err;
  }
  {
    const testing::HarnessResult r = RunHarness("--clock=sundial");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(SplitList(Between(r.err, "allowed clocks: ", "\n")), ClockSyntaxes()) << r.err;
  }
  {
    const testing::HarnessResult r = RunHarness("--clock_id=solar");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(SplitList(Between(r.err, "allowed: ", "\n")), ClockIds()) << r.err;
  }
  {
    const testing::HarnessResult r =
        RunHarness("--role=client --peer=127.0.0.1:9 --transport=pipe --sizes=32");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(SplitList(Between(r.err, "with --role=client use ", "\n")), RemoteTransportNames())
        << r.err;
  }
}

// The study's default --clocks, as --help gives them: clocks this machine offers (the
// cycle counter if and only if it has one), and in simulation the clocks of virtual time.
TEST(RegistryDocsTest, HelpGivesTheStudyClocksThisMachineOffers) {
  const testing::HarnessResult r = RunHarness("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string clocks = Between(Collapse(r.out), "--clocks (default: ", " --dither (");
  const std::string real = Between(clocks, "Default: ", " (in simulation: ");
  const std::string simulated = Between(clocks, " (in simulation: ", ")");
  ASSERT_FALSE(real.empty() || simulated.empty()) << clocks;
  Names offered;
  for (const timing::ClockSpec& spec : timing::AvailableClockSpecs()) {
    offered.insert(timing::ClockSpecToString(spec));
  }
  // Each a clock this machine offers; the cycle counter among them if and only if it has one.
  int counters = 0;
  for (const std::string& spec : SplitList(real)) {
    absl::StatusOr<timing::ClockSpec> parsed = timing::ParseClockSpec(spec);
    ASSERT_TRUE(parsed.ok()) << spec << ": " << parsed.status();
    EXPECT_EQ(offered.count(timing::ClockSpecToString(*parsed)), 1u) << spec << " is not offered";
    if (parsed->kind == timing::ClockKind::kCycleCounter) ++counters;
  }
  EXPECT_EQ(counters, timing::ParseClockSpec("cycles").ok() ? 1 : 0) << real;
  for (const std::string& spec : SplitList(simulated)) {
    absl::StatusOr<timing::ClockSpec> parsed = timing::ParseClockSpec(spec);
    ASSERT_TRUE(parsed.ok()) << spec << ": " << parsed.status();
    EXPECT_TRUE(parsed->kind == timing::ClockKind::kVirtual ||
                parsed->kind == timing::ClockKind::kTick)
        << spec << " cannot read simulated time";
  }
}

TEST(RegistryDocsTest, PeerDropEveryNamesExactlyTheDatagramTransports) {
  const testing::HarnessResult r = RunHarness("--transport=tcp --peer_drop_every=3 --sizes=32");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(SplitList(Between(r.err, "datagram transports (", ")")),
            TransportNamesWhere(
                [](const transport::TransportInfo& row) { return row.may_lose && !row.simulated; }))
      << r.err;
  EXPECT_EQ(SplitList(Between(r.err, ") and ", "\n")),
            TransportNamesWhere([](const transport::TransportInfo& row) { return row.simulated; }))
      << r.err;
}

// Where this CPU has no cycle counter, asking for one offers every other clock kind.
TEST(RegistryDocsTest, NoCycleCounterOffersEveryOtherClock) {
  const absl::StatusOr<timing::ClockSpec> cycles = timing::ParseClockSpec("cycles");
  if (cycles.ok()) GTEST_SKIP() << "this machine has a cycle counter";
  Names others;
  for (const std::string& name : timing::ClockKindNames()) {
    if (timing::FindClockKind(name)->kind != timing::ClockKind::kCycleCounter) {
      others.insert(name);
    }
  }
  const std::string message = absl::StrCat(cycles.status().message(), "\n");
  EXPECT_EQ(SplitList(Between(message, "other clocks: ", "\n")), others) << message;
}

}  // namespace
}  // namespace tickbench
