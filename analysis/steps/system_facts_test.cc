#include "analysis/steps/system_facts.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

Step Between(double before, double after) {
  Step step;
  step.size_before = before;
  step.size_after = after;
  return step;
}

const SizeFacts kFacts = {
    {"small mbuf (MLEN)", 112},
    {"mbuf cluster (MCLBYTES)", 1024},
    {"largest unfragmented UDP payload", 1472},
    {"ethernet MTU", 1500},
    {"page", 4096},
};

TEST(CandidateCausesTest, FactInsideTheStepComesFirst) {
  EXPECT_EQ(CandidateCauses(Between(1460, 1492), kFacts, 0.02),
            (std::vector<std::string>{"largest unfragmented UDP payload", "ethernet MTU"}));
}

TEST(CandidateCausesTest, ToleranceReachesAcrossEitherSide) {
  // 1500 is 8 bytes past 1492: outside at 0.5 % (7.5), inside at 1 % (14.9).
  EXPECT_TRUE(CandidateCauses(Between(1480, 1492), {{"ethernet MTU", 1500}}, 0.005).empty());
  EXPECT_EQ(CandidateCauses(Between(1480, 1492), {{"ethernet MTU", 1500}}, 0.01).size(), 1u);
  // Below the step: 1024 is 26 bytes under 1050, 2.5 %.
  EXPECT_TRUE(CandidateCauses(Between(1050, 1100), kFacts, 0.02).empty());
  EXPECT_EQ(CandidateCauses(Between(1050, 1100), kFacts, 0.03),
            (std::vector<std::string>{"mbuf cluster (MCLBYTES)"}));
}

TEST(CandidateCausesTest, EndsAreInclusiveAndOrderIsByDistance) {
  EXPECT_EQ(CandidateCauses(Between(1024, 1056), kFacts, 0),
            (std::vector<std::string>{"mbuf cluster (MCLBYTES)"}));
  // From a step at 1440..1450: 1472 is 1.5 % away, 1500 3.4 %.
  EXPECT_EQ(CandidateCauses(Between(1440, 1450), kFacts, 0.05),
            (std::vector<std::string>{"largest unfragmented UDP payload", "ethernet MTU"}));
}

TEST(CandidateCausesTest, NothingNearbyAndBadTolerances) {
  EXPECT_TRUE(CandidateCauses(Between(2000, 2100), kFacts, 0.02).empty());
  EXPECT_TRUE(CandidateCauses(Between(2000, 2100), {}, 0.5).empty());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(CandidateCauses(Between(1050, 1100), kFacts, nan).empty());
  EXPECT_TRUE(CandidateCauses(Between(1050, 1100), kFacts, -1).empty());
  EXPECT_TRUE(CandidateCauses(Between(1050, 1100), {{"bad", nan}}, 1).empty());
}

}  // namespace
}  // namespace tickbench::analysis
