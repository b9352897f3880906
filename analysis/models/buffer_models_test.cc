#include "analysis/models/buffer_models.h"

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

// The layout rules themselves (model::BsdSocketBuffers, FixedChunks, Ipv4UdpPackets) are
// tested in model/buffer_layout_test.cc; here, that the design columns count with them.

TEST(DesignColumnsTest, OneCountColumnPerBufferKind) {
  const std::vector<double> sizes = {100, 1500, 3000};
  BufferModel model;
  EXPECT_EQ(DesignColumns(model, sizes).size(), 2u);
  model = {ModelFamily::kBsdSocket, 1024, 512, 112, 0};
  const auto bsd = DesignColumns(model, sizes);
  ASSERT_EQ(bsd.size(), 4u);
  EXPECT_EQ(bsd[0], (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(bsd[1], sizes);
  EXPECT_EQ(bsd[2], (std::vector<double>{0, 1, 3}));
  EXPECT_EQ(bsd[3], (std::vector<double>{1, 5, 0}));
  model = {ModelFamily::kIpv4Fragments, 0, 0, 0, 1500};
  EXPECT_EQ(DesignColumns(model, sizes)[2], (std::vector<double>{1, 2, 3}));
  model = {ModelFamily::kFixedChunks, 1460, 0, 0, 0};
  EXPECT_EQ(DesignColumns(model, sizes)[2], (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(CostNames(ModelFamily::kBsdSocket).size(), 4u);
  EXPECT_EQ(CostNames(ModelFamily::kIpv4Fragments).back(), "per_packet");
}

TEST(DescribeModelTest, NamesAndParameters) {
  EXPECT_EQ(DescribeModel({ModelFamily::kBsdSocket, 1024, 512, 112, 0}),
            "bsd_socket(C=1024, t=512, s=112)");
  EXPECT_EQ(DescribeModel({ModelFamily::kFixedChunks, 4096, 0, 0, 0}), "fixed_chunks(C=4096)");
  EXPECT_EQ(DescribeModel({ModelFamily::kIpv4Fragments, 0, 0, 0, 1500}),
            "ipv4_fragments(MTU=1500)");
  EXPECT_EQ(DescribeModel({}), "linear");
  EXPECT_EQ(DiscreteParameterCount(ModelFamily::kBsdSocket), 3);
  EXPECT_STREQ(FamilyName(ModelFamily::kIpv4Fragments), "ipv4_fragments");
}

}  // namespace
}  // namespace tickbench::analysis
