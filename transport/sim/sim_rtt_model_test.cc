#include "transport/sim/sim_rtt_model.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(SimRttModelTest, ExactWithoutJitter) {
  SimRttModel model;
  model.fixed = absl::Microseconds(10);
  model.per_byte_ns = 0.5;
  model.bsd_buffers = true;
  model.per_cluster = absl::Microseconds(3);
  model.per_small = absl::Microseconds(1);
  // 1300 bytes: 10 us + 650 ns + 2 * (3 us + 3 * 1 us) = 22.65 us.
  EXPECT_EQ(ModelRttNanos(model, 1300), 22'650);
  SimRttSampler sampler(model);
  EXPECT_EQ(sampler.NextRttNanos(1300), 22'650);
}

TEST(SimRttModelTest, JitterHasTheAskedMeanAndIsReproducible) {
  SimRttModel model;
  model.fixed = absl::Microseconds(100);
  model.per_byte_ns = 0;
  model.jitter = JitterKind::kExponential;
  model.jitter_scale = absl::Microseconds(5);
  SimRttSampler a(model), b(model);
  double sum = 0;
  const int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const int64_t draw = a.NextRttNanos(64);
    ASSERT_EQ(draw, b.NextRttNanos(64));
    sum += draw;
  }
  // Exp(5 us) has SD 5 us: the mean of 1e5 draws is within 3 * 5us / sqrt(1e5) = 47 ns.
  EXPECT_NEAR(sum / kDraws, 105'000, 50);
}

TEST(SimRttModelTest, RejectsNonsense) {
  SimRttModel model;
  model.per_byte_ns = -1;
  EXPECT_FALSE(ValidateSimRttModel(model).ok());
  model = SimRttModel{};
  model.small_bytes = 0;
  EXPECT_FALSE(ValidateSimRttModel(model).ok());
  JitterKind kind;
  EXPECT_FALSE(ParseJitterKind("gaussian", &kind).ok());
  EXPECT_TRUE(ParseJitterKind("normal", &kind).ok());
}

}  // namespace
}  // namespace tickbench::transport
