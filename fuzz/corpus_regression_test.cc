// Runs every fuzz entry over every file of its checked-in corpus, in the ordinary build:
// the corpora (seeds, and crashes fixed and kept as regressions) stay checked without
// clang or libFuzzer. A broken property aborts, and the test last started names the file.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/analyze_fuzz.h"
#include "fuzz/compare_fuzz.h"
#include "fuzz/control_frame_fuzz.h"
#include "fuzz/csv_reader_fuzz.h"
#include "fuzz/echo_stream_fuzz.h"
#include "fuzz/remote_control_fuzz.h"
#include "fuzz/size_list_fuzz.h"
#include "gtest/gtest.h"

namespace tickbench::fuzz {
namespace {

namespace fs = std::filesystem;

struct FuzzTarget {
  const char* name;  // the fuzzer binary, and its corpus directory fuzz/corpus/<name>
  void (*entry)(const uint8_t* data, size_t size);
};

// One line per fuzzer in fuzz/BUILD.bazel, each with a corpus.
constexpr FuzzTarget kTargets[] = {
    {"size_list_fuzzer", &FuzzSizeList},     {"control_frame_fuzzer", &FuzzControlFrame},
    {"csv_reader_fuzzer", &FuzzCsvReader},   {"remote_control_fuzzer", &FuzzRemoteControl},
    {"analyze_fuzzer", &FuzzAnalyze},        {"compare_fuzzer", &FuzzCompare},
    {"echo_stream_fuzzer", &FuzzEchoStream},
};

// The corpus as the test's runfiles hold it (the `data` of this test).
fs::path CorpusDir(const FuzzTarget& target) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return {};
  return fs::path(srcdir) / workspace / "fuzz" / "corpus" / target.name;
}

struct CorpusFile {
  const FuzzTarget* target;
  fs::path path;
};

// Names the file in gtest's messages, instead of a dump of the struct's bytes.
void PrintTo(const CorpusFile& file, std::ostream* os) { *os << file.path; }

std::vector<CorpusFile> AllCorpusFiles() {
  std::vector<CorpusFile> files;
  for (const FuzzTarget& target : kTargets) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(CorpusDir(target), error)) {
      files.push_back({&target, entry.path()});
    }
  }
  // Directory order varies between file systems; the test order should not.
  std::sort(files.begin(), files.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.path < b.path; });
  return files;
}

TEST(CorpusTest, EveryFuzzerHasACorpus) {
  for (const FuzzTarget& target : kTargets) {
    const fs::path dir = CorpusDir(target);
    std::error_code error;
    const auto entries = fs::directory_iterator(dir, error);
    ASSERT_FALSE(error) << dir << ": " << error.message();
    EXPECT_NE(std::distance(begin(entries), end(entries)), 0) << dir << " is empty";
  }
}

class CorpusFileTest : public testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusFileTest, RunsClean) {
  const CorpusFile& file = GetParam();
  std::ifstream in(file.path, std::ios::binary);
  ASSERT_TRUE(in) << file.path;
  const std::string contents{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // An exact-size copy, as libFuzzer passes it: a sanitizer build then catches a read past
  // the end of the input.
  const std::unique_ptr<uint8_t[]> data(new uint8_t[contents.size()]);
  std::copy(contents.begin(), contents.end(), data.get());
  file.target->entry(data.get(), contents.size());
}

std::string TestName(const testing::TestParamInfo<CorpusFile>& info) {
  std::string name =
      std::string(info.param.target->name) + "_" + info.param.path.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusFileTest, testing::ValuesIn(AllCorpusFiles()), TestName);

}  // namespace
}  // namespace tickbench::fuzz
