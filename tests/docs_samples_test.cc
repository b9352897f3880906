// The sample outputs of docs/study.md and the README are the binary's: each fenced block
// after a marker
//
//   <!-- sample: ARGS -->                    the whole of `harness ARGS`'s standard output
//   <!-- sample keep="A|B": ARGS -->         only its lines that start with A or B
//   <!-- sample section="H": ARGS -->        only the lines after the line H, to a blank one
//   <!-- sample until="H": ARGS -->          only the lines before the line H
//   <!-- sample-file: NAME -->               the block is a file NAME the samples may read
//
// is compared with what the binary prints now, its "#" context lines (the host, the date)
// dropped. The samples are simulations and analyses of files: the same on every machine.
// A deliberate change of output is recorded by regenerating the blocks in place:
//
//   bazel test //tests:docs_samples_test --strategy=TestRunner=local
//       --test_env=TICKBENCH_UPDATE_DOCS="$PWD"       (one command)
//
// (from the workspace root; review the diff before committing it).
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;

constexpr const char* kDocs[] = {"docs/study.md", "README.md"};

struct Sample {
  std::string file;               // sample-file: its name; else ""
  std::string args;               // sample: the binary's arguments
  std::vector<std::string> keep;  // line prefixes kept; empty: every line
  std::string section;            // the line after which the kept lines start; "" for none
  std::string until;              // the line before which the kept lines end; "" for none
  size_t begin = 0, end = 0;      // the block's contents in the doc: [begin, end)
};

// The samples of `doc` in order, each with the fenced block that follows its marker.
std::vector<Sample> FindSamples(const std::string& doc) {
  std::vector<Sample> samples;
  for (size_t at = doc.find("<!-- sample"); at != std::string::npos;
       at = doc.find("<!-- sample", at + 1)) {
    const size_t close = doc.find("-->", at);
    if (close == std::string::npos) break;
    absl::string_view marker =
        absl::StripAsciiWhitespace(absl::string_view(doc).substr(at + 11, close - at - 11));
    Sample sample;
    if (absl::ConsumePrefix(&marker, "-file:")) {
      sample.file = std::string(absl::StripAsciiWhitespace(marker));
    } else {
      if (absl::ConsumePrefix(&marker, "keep=\"")) {
        const size_t quote = marker.find('"');
        sample.keep = absl::StrSplit(marker.substr(0, quote), '|');
        marker.remove_prefix(quote + 1);
      } else if (absl::ConsumePrefix(&marker, "section=\"")) {
        const size_t quote = marker.find('"');
        sample.section = std::string(marker.substr(0, quote));
        marker.remove_prefix(quote + 1);
      } else if (absl::ConsumePrefix(&marker, "until=\"")) {
        const size_t quote = marker.find('"');
        sample.until = std::string(marker.substr(0, quote));
        marker.remove_prefix(quote + 1);
      }
      absl::ConsumePrefix(&marker, ":");
      sample.args = std::string(absl::StripAsciiWhitespace(marker));
    }
    const size_t fence = doc.find("```", close);
    sample.begin = doc.find('\n', fence) + 1;
    sample.end = doc.find("```", sample.begin);
    samples.push_back(sample);
  }
  return samples;
}

// What the doc shows of a run's output: "#" lines dropped, and only the kept lines.
std::string Shown(const std::string& out, const Sample& sample) {
  const std::vector<std::string>& keep = sample.keep;
  std::vector<std::string> lines;
  bool in_section = sample.section.empty();
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::StartsWith(line, "#")) continue;
    if (!sample.until.empty() && line == sample.until) break;
    if (!sample.section.empty()) {
      if (line == sample.section) {
        in_section = true;
        continue;
      }
      if (line.empty()) in_section = false;
    }
    if (!in_section) continue;
    bool kept = keep.empty();
    for (const std::string& prefix : keep) kept = kept || absl::StartsWith(line, prefix);
    if (kept) lines.push_back(std::string(line));
  }
  const std::string text = absl::StrJoin(lines, "\n");
  absl::string_view trimmed = absl::StripTrailingAsciiWhitespace(text);
  while (absl::ConsumePrefix(&trimmed, "\n")) {
  }
  return absl::StrCat(trimmed, "\n");
}

class DocsSamplesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(DocsSamplesTest, EverySampleIsWhatTheBinaryPrints) {
  const std::string name = GetParam();
  const std::string doc = ReadWholeFile(name);
  ASSERT_FALSE(doc.empty()) << "cannot read " << name;
  const std::vector<Sample> samples = FindSamples(doc);
  ASSERT_GE(samples.size(), 1u) << name << "'s sample markers are gone";
  const std::string dir = ::testing::TempDir() + "/docs_samples";
  mkdir(dir.c_str(), 0700);
  const char* update = std::getenv("TICKBENCH_UPDATE_DOCS");
  std::string updated;
  size_t copied = 0;
  for (const Sample& sample : samples) {
    ASSERT_NE(sample.end, std::string::npos);
    const std::string block = doc.substr(sample.begin, sample.end - sample.begin);
    if (!sample.file.empty()) {
      std::ofstream(absl::StrCat(dir, "/", sample.file), std::ios::binary) << block;
      continue;
    }
    // From the samples' directory, so that a file is named as the doc names it.
    const HarnessResult r = RunHarness(sample.args, absl::StrCat("cd ", dir, " &&"));
    ASSERT_EQ(r.exit_code, 0) << sample.args << "\n" << r.err;
    const std::string shown = Shown(r.out, sample);
    updated += doc.substr(copied, sample.begin - copied) + shown;
    copied = sample.end;
    if (update != nullptr && *update) continue;
    EXPECT_EQ(shown, block) << name << "'s sample of `" << sample.args
                            << "` is not what the binary prints; regenerate (see the top of "
                               "tests/docs_samples_test.cc)";
  }
  if (update == nullptr || !*update) return;
  updated += doc.substr(copied);
  std::ofstream out(absl::StrCat(update, "/", name), std::ios::binary | std::ios::trunc);
  out << updated;
  ASSERT_TRUE(out.good()) << "cannot write " << update << "/" << name;
}

INSTANTIATE_TEST_SUITE_P(Docs, DocsSamplesTest, ::testing::ValuesIn(kDocs));

}  // namespace
