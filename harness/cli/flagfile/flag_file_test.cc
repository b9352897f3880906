// Issue 46, case 7: --flagfile followed Abseil's reader (raw escapes echoed, /dev/urandom read
// without end, a self-including file looping, a FIFO blocking, /dev/zero ignored).
#include "harness/cli/flagfile/flag_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

std::string FileWith(const std::string& name, const std::string& text) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << text;
  return path;
}

// The message of expanding `args`, which must be refused.
std::string Refusal(const std::vector<std::string>& args) {
  const absl::StatusOr<std::vector<std::string>> out = ExpandFlagFiles(args);
  EXPECT_FALSE(out.ok());
  if (out.ok()) return "";
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(out.status().message(), "--flagfile: ")) << out.status();
  EXPECT_EQ(out.status().message().find('\n'), absl::string_view::npos) << "one line";
  return std::string(out.status().message());
}

TEST(FlagFileTest, ItsFlagsTakeItsPlaceCommentsAndBlankLinesSkipped) {
  const std::string a = FileWith("a.flags", "# sizes\n  --sizes=64,128  \n\n--runs=2\n");
  const std::string b = FileWith("b.flags", "--quiet");
  const absl::StatusOr<std::vector<std::string>> out =
      ExpandFlagFiles({"--transport=sim", absl::StrCat("--flagfile=", a, ",", b), "--format=json",
                       "--flagfile", a, "--", "--flagfile=kept"});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, (std::vector<std::string>{"--transport=sim", "--sizes=64,128", "--runs=2",
                                            "--quiet", "--format=json", "--sizes=64,128",
                                            "--runs=2", "--", "--flagfile=kept"}));
}

TEST(FlagFileTest, OnlyARegularFileIsReadNeverADeviceOrAFifo) {
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=/dev/urandom"}), "a character device"));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=/dev/zero"}), "a character device"));
  const std::string fifo = absl::StrCat(::testing::TempDir(), "/flags.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=" + fifo}), "FIFO"));  // without blocking
  unlink(fifo.c_str());
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=" + ::testing::TempDir()}), "directory"));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=/no/such/file"}), "No such file"));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile"}), "takes a file name"));
}

TEST(FlagFileTest, AFileOverTheLimitIsRefusedStatingIt) {
  const std::string big = FileWith("big.flags", std::string(kMaxFlagFileBytes + 1, '#'));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=" + big}), "over the limit"));
}

TEST(FlagFileTest, AFlagFileNamingAFlagFileIsRefusedNotFollowed) {
  const std::string self = absl::StrCat(::testing::TempDir(), "/self.flags");
  FileWith("self.flags", absl::StrCat("--runs=2\n--flagfile=", self, "\n"));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=" + self}),
                                "line 2: a flag file may not name another"));
}

TEST(FlagFileTest, ControlBytesAndLinesThatAreNotFlagsAreRefusedEscaped) {
  const std::string escape = FileWith("escape.flags", "--experiment=\x1b[31mred\n");
  const std::string message = Refusal({"--flagfile=" + escape});
  EXPECT_TRUE(absl::StrContains(message, "line 1: a control byte")) << message;
  EXPECT_FALSE(absl::StrContains(message, "\x1b")) << message;
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=" + FileWith("word.flags", "sizes=64\n")}),
                                "line 1: not a flag"));
  EXPECT_TRUE(
      absl::StrContains(Refusal({"--flagfile=" + FileWith("dash.flags", "--\n")}), "not a flag"));
  EXPECT_TRUE(absl::StrContains(Refusal({"--flagfile=\x1b]0;x\x07"}), "\\x1b]0;x\\x07"));
}

}  // namespace
}  // namespace tickbench::harness
