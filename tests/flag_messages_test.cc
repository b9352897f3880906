// Bad number flags and flags that do nothing, end to end on the binary: each refused with
// exit 2 and a message that names the flag and what it allows (or where it applies).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;
using tickbench::testing::HarnessResult;
using tickbench::testing::RunHarness;

// A short simulated sweep, quick whenever a flag is accepted.
constexpr char kQuick[] = "--transport=sim --sizes=64 --iterations=10 --runs=1 --warmup=0 ";

// The "must be ..." of the first line of `err` that names `flag`, up to "; got".
std::string RangeNamed(const std::string& err, const std::string& flag) {
  const std::string prefix = absl::StrCat("tickbench: --", flag, ": ");
  const size_t at = err.find(prefix);
  if (at == std::string::npos) return "";
  const size_t end = err.find("; got", at);
  return err.substr(at + prefix.size(), end == std::string::npos ? 0 : end - at - prefix.size());
}

struct NumberCase {
  std::string flag;
  std::string context;       // other flags the flag needs to be checked at all
  std::string out_of_range;  // parses, but past the range: the plan's own message
  std::string unparsable;    // Abseil's parser refuses it
};

TEST(FlagMessagesTest, AValueANumberFlagCannotHoldNamesTheFlagAndItsRange) {
  const std::string past = "99999999999999999999";
  const std::vector<NumberCase> cases = {
      {"iterations", "", "1000000001", past},
      {"iterations", "", "0", "-" + past},
      {"runs", "", "10001", past},
      {"warmup", "", "-2", past},
      {"retries", "", "101", past},
      {"peer_drop_every", "", "-1", past},
      {"sim_mtu", "", "67", past},
      {"sim_cluster", "--sim_bsd ", "1048577", past},
      {"receive_timeout", "", "2h", "1e30s"},
      {"receive_timeout", "", "2h", "nan"},
      {"peer_reply_delay", "", "11s", "1e3s"},
      {"tick_period", "--clock=tick ", "2h", "nan"},
      {"sim_fixed", "", "2h", "nan"},
  };
  for (const NumberCase& c : cases) {
    const std::string given = absl::StrCat(kQuick, c.context, "--", c.flag, "=");
    const HarnessResult checked = RunHarness(given + c.out_of_range, "", 30);
    const HarnessResult refused = RunHarness(given + c.unparsable, "", 30);
    EXPECT_EQ(checked.exit_code, 2) << c.flag << " " << checked.err;
    EXPECT_EQ(refused.exit_code, 2) << c.flag << " " << refused.err;
    const std::string range = RangeNamed(checked.err, c.flag);
    ASSERT_FALSE(range.empty()) << c.flag << ": " << checked.err;
    EXPECT_EQ(RangeNamed(refused.err, c.flag), range)
        << "--" << c.flag << "=" << c.unparsable
        << " names another range (or none): " << refused.err;
    EXPECT_THAT(refused.err, HasSubstr(absl::StrCat("got '", c.unparsable, "'"))) << refused.err;
    EXPECT_EQ(refused.out, "");
  }
}

// Issue 46, case 10: --iterations=0x10 ran 16 iterations (Abseil reads hex); whole-number
// flags are decimal only, exit 2 naming the flag.
TEST(FlagMessagesTest, HexIsNoWholeNumber) {
  for (const char* value : {"0x10", "0X10", "-0x1"}) {
    const HarnessResult r = RunHarness(absl::StrCat("--transport=sim --iterations=", value));
    EXPECT_EQ(r.exit_code, 2) << value << r.out;
    EXPECT_THAT(r.err, HasSubstr("--iterations: must be 1..")) << r.err;
    EXPECT_THAT(r.err, HasSubstr("not a decimal number")) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(FlagMessagesTest, TheSeedSaysItsRangeToo) {
  for (const std::string bad : {"99999999999999999999", "-1", "1e3"}) {
    const HarnessResult r = RunHarness(absl::StrCat(kQuick, "--seed=", bad), "", 30);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--seed: must be 0..18446744073709551615; got '" + bad + "'"));
  }
}

TEST(FlagMessagesTest, ADurationWithoutItsUnitStillSaysSo) {
  const HarnessResult r = RunHarness(absl::StrCat(kQuick, "--receive_timeout=5"), "", 30);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("a duration needs a unit"));
  EXPECT_THAT(r.err, HasSubstr("--receive_timeout: must be a duration in [1us, 1h]"));
}

// --receive_timeout=none is the bare loop's unbounded receive: only for a local echo peer
// over a real transport. Other duration flags refuse it by their range.
TEST(FlagMessagesTest, NoReceiveBoundIsRefusedWhereAWaitCouldLastForEver) {
  const HarnessResult sim = RunHarness(absl::StrCat(kQuick, "--receive_timeout=none"), "", 30);
  EXPECT_EQ(sim.exit_code, 2) << sim.err;
  EXPECT_THAT(sim.err, HasSubstr("--receive_timeout: none (receives without a bound) needs a "
                                 "local echo peer over a real transport"));
  const HarnessResult gap = RunHarness(
      "--experiment=study --transport=sim --sizes=64 --iterations=10 --gap=none", "", 30);
  EXPECT_EQ(gap.exit_code, 2) << gap.err;
  EXPECT_THAT(gap.err, HasSubstr("--gap"));
  const HarnessResult pipe = RunHarness(
      "--experiment=sweep --transport=pipe --sizes=1 --iterations=100 --runs=1 "
      "--receive_timeout=none --format=csv",
      "", 60);
  EXPECT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_THAT(pipe.out, HasSubstr("# loop: sends and receives only"));
}

struct UselessCase {
  std::string flags;
  std::string flag;   // named in the message
  std::string where;  // where it applies, in the message
};

TEST(FlagMessagesTest, FlagsThatDoNothingInThisMeasurementAreRefused) {
  const std::vector<UselessCase> cases = {
      {"--csv_context=false", "--csv_context: does nothing with --format=table", "--format=csv"},
      {"--format=json --csv_context", "--csv_context: does nothing with --format=json",
       "--format=csv"},
      {"--format=csv --wide", "--wide: does nothing with --format=csv", "--format=table"},
      {"--percentiles=99.9", "--percentiles: does nothing with --format=table",
       "--format=csv or json"},
      {"--transport=unix_stream --stop_on_loss", "--stop_on_loss: does nothing",
       "a datagram transport: unix_dgram, udp, udp6 or sim"},
      {"--transport=tcp --stop_on_loss", "--stop_on_loss: does nothing", "datagram"},
      {"--transport=unix_stream --reference_clock=clock_gettime:monotonic "
       "--allow_variable_cycle_counter",
       "--allow_variable_cycle_counter: does nothing", "--clock_info"},
      {"--clock=virtual --allow_variable_cycle_counter",
       "--allow_variable_cycle_counter: does nothing", "--reference_clock"},
      {"--transport=unix_stream --reference_clock=clock_gettime:monotonic --seed=7",
       "--seed: does nothing", "tick clocks' phases"},
  };
  for (const UselessCase& c : cases) {
    const HarnessResult r = RunHarness(absl::StrCat(kQuick, c.flags), "", 30);
    EXPECT_EQ(r.exit_code, 2) << c.flags << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.flag)) << c.flags;
    EXPECT_THAT(r.err, HasSubstr(c.where)) << c.flags;
    EXPECT_EQ(r.out, "") << c.flags;
  }
}

TEST(FlagMessagesTest, TheSameFlagsWhereTheyDoSomethingAreAccepted) {
  for (const std::string flags : {
           "--format=csv --csv_context=false",
           "--wide",
           "--format=json --percentiles=99.9",
           "--format=csv --percentiles=50,99",
           "--transport=udp --stop_on_loss",
           "--peer_drop_every=100 --stop_on_loss",  // sim: a datagram transport
           "--seed=7",                              // sim: the jitter and tick phases
           "--transport=unix_stream --clock=tick:1ms --seed=7",
           "--transport=unix_stream --reference_clock=clock_gettime:monotonic "
           "--clock=tick:1ms --tick_phase=random --seed=7",
       }) {
    const HarnessResult r = RunHarness(absl::StrCat(kQuick, "--quiet ", flags), "", 60);
    EXPECT_EQ(r.exit_code, 0) << flags << "\n" << r.err;
  }
}

}  // namespace

namespace {

TEST(FlagMessagesTest, TheBoardsClocksAndTransportsSayWhereTheyRun) {
  for (const std::string flags : {"--clock=systick", "--transport=pendsv_echo"}) {
    const HarnessResult r = RunHarness(flags, "", 30);
    EXPECT_EQ(r.exit_code, 2) << flags << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("board only (--config=cortex_m3)")) << flags;
    EXPECT_THAT(r.err, HasSubstr("bazel run --config=cortex_m3 //harness")) << flags;
  }
}

}  // namespace
