#include "harness/cli/help/grouped_help.h"

#include <map>
#include <string>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/cli/flags.h"

namespace tickbench::harness {
namespace {

// The flags harness/cli/flags.cc defines, after the harness's own parser has read an empty
// command line (which also keeps //harness/cli:flags linked where the toolchain drops a
// library nothing calls: -Wl,--as-needed under --config=aarch64).
std::map<std::string, const absl::CommandLineFlag*> TickbenchFlags() {
  static const bool parsed = [] {
    char program[] = "harness";
    char* argv[] = {program, nullptr};
    return ParseCommandLine(1, argv).positional.empty();
  }();
  EXPECT_TRUE(parsed);
  std::map<std::string, const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!flag->IsRetired() && absl::StrContains(flag->Filename(), "harness/cli/flags.cc")) {
      flags[std::string(name)] = flag;
    }
  }
  return flags;
}

// Issue 32: --help ended in a flat list of every flag.
TEST(GroupedHelpTest, EveryFlagIsInExactlyOneGroup) {
  const auto flags = TickbenchFlags();
  ASSERT_GT(flags.size(), 50u);
  std::map<std::string, int> listed;
  for (const HelpGroup& group : HelpGroups()) {
    for (const char* name : group.flags) {
      ++listed[name];
      EXPECT_EQ(flags.count(name), 1u) << group.title << " lists --" << name << ", no flag";
    }
  }
  for (const auto& [name, flag] : flags) EXPECT_EQ(listed[name], 1) << "--" << name;
  const std::string help = GroupedFlagHelp();
  for (const auto& [name, flag] : flags) {
    const std::string line = absl::StrCat("\n  --", name, " (default: ");
    const size_t at = help.find(line);
    EXPECT_NE(at, std::string::npos) << name;
    EXPECT_EQ(help.find(line, at + 1), std::string::npos) << name << " twice";
  }
  for (const char* title :
       {"What to run", "Clocks", "Transports", "Outputs", "Analysis", "Remote"}) {
    EXPECT_TRUE(absl::StrContains(help, absl::StrCat("\n", title, ":\n"))) << title;
  }
}

// Issue 32: --receive_timeout's help said "default: 1s" against its own text. The default
// printed is the flag's own, or words that begin with it (or say what an empty one means).
TEST(GroupedHelpTest, TheDefaultsPrintedAreTheFlagsOwn) {
  for (const auto& [name, flag] : TickbenchFlags()) {
    const std::string value = flag->DefaultValue();
    const std::string shown = HelpDefault(name);
    if (value.empty()) {
      EXPECT_FALSE(shown.empty()) << name;
    } else {
      EXPECT_TRUE(absl::StartsWith(shown, value))
          << "--" << name << ": " << shown << " vs " << value;
    }
  }
  EXPECT_EQ(HelpDefault("iterations"), "1000 (udp_rtt: 5000)");
  EXPECT_EQ(HelpDefault("format"), "table");
  EXPECT_EQ(HelpDefault("output"), "none");
  // The timeout's text says the same as its default.
  const absl::CommandLineFlag* timeout = absl::FindCommandLineFlag("receive_timeout");
  ASSERT_NE(timeout, nullptr);
  EXPECT_TRUE(absl::StrContains(timeout->Help(), HelpDefault("receive_timeout")))
      << timeout->Help();
}

}  // namespace
}  // namespace tickbench::harness
