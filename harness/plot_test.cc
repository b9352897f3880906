#include "harness/plot.h"

#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PlotTest, WritesTheDataAndAnSvgThatNamesItsAxes) {
  analysis::Sweep sweep;
  sweep.value_name = "averaged_rtt_ns";
  sweep.unit = "ns";
  for (double size : {32.0, 64.0, 128.0}) sweep.points.push_back({size, {1000 + size, 1100 + size}});
  analysis::Step step;
  step.size_before = 64;
  step.size_after = 128;
  const std::string svg = ::testing::TempDir() + "/sweep.svg";
  const absl::Status status = PlotSweep(svg, sweep, {step}, "test sweep");
  EXPECT_THAT(Slurp(PlotDataPath(svg)), HasSubstr("128 1.228"));  // us, run 2
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << "gnuplot is not installed: " << status.message();
  }
  ASSERT_TRUE(status.ok()) << status;
  const std::string text = Slurp(svg);
  EXPECT_THAT(text, HasSubstr("<svg"));
  EXPECT_THAT(text, HasSubstr("</svg>"));
  EXPECT_THAT(text, HasSubstr("message size (bytes)"));
  EXPECT_THAT(text, HasSubstr("averaged_rtt_ns (us)"));
}

TEST(PlotTest, DataPathReplacesTheSuffix) {
  EXPECT_EQ(PlotDataPath("/tmp/a.svg"), "/tmp/a.dat");
  EXPECT_EQ(PlotDataPath("plot"), "plot.dat");
}

}  // namespace
}  // namespace tickbench::harness
