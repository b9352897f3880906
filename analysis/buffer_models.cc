#include "analysis/buffer_models.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace tickbench::analysis {

// The layout rules themselves live in model/ (a parameter below is named `model`).
using ::tickbench::model::BsdBuffers;
using ::tickbench::model::BsdSocketBuffers;
using ::tickbench::model::FixedChunks;
using ::tickbench::model::Ipv4UdpPackets;

int DiscreteParameterCount(ModelFamily family) {
  switch (family) {
    case ModelFamily::kLinear:
      return 0;
    case ModelFamily::kBsdSocket:
      return 3;
    case ModelFamily::kFixedChunks:
    case ModelFamily::kIpv4Fragments:
      return 1;
  }
  return 0;
}

std::vector<std::vector<double>> DesignColumns(const BufferModel& model,
                                               const std::vector<double>& sizes) {
  std::vector<std::vector<double>> columns(2);
  const int kinds = model.family == ModelFamily::kLinear      ? 0
                    : model.family == ModelFamily::kBsdSocket ? 2
                                                              : 1;
  columns.resize(2 + kinds);
  for (double size : sizes) {
    const int64_t n = std::llround(size);
    columns[0].push_back(1);
    columns[1].push_back(size);
    switch (model.family) {
      case ModelFamily::kLinear:
        break;
      case ModelFamily::kBsdSocket: {
        const BsdBuffers buffers =
            BsdSocketBuffers(n, model.cluster_bytes, model.threshold_bytes, model.small_bytes);
        columns[2].push_back(static_cast<double>(buffers.clusters));
        columns[3].push_back(static_cast<double>(buffers.small_buffers));
        break;
      }
      case ModelFamily::kFixedChunks:
        columns[2].push_back(static_cast<double>(FixedChunks(n, model.cluster_bytes)));
        break;
      case ModelFamily::kIpv4Fragments:
        columns[2].push_back(static_cast<double>(Ipv4UdpPackets(n, model.mtu_bytes)));
        break;
    }
  }
  return columns;
}

std::vector<std::string> CostNames(ModelFamily family) {
  switch (family) {
    case ModelFamily::kLinear:
      return {"fixed", "per_byte"};
    case ModelFamily::kBsdSocket:
      return {"fixed", "per_byte", "per_cluster", "per_small_buffer"};
    case ModelFamily::kFixedChunks:
      return {"fixed", "per_byte", "per_chunk"};
    case ModelFamily::kIpv4Fragments:
      return {"fixed", "per_byte", "per_packet"};
  }
  return {};
}

const char* FamilyName(ModelFamily family) {
  switch (family) {
    case ModelFamily::kLinear:
      return "linear";
    case ModelFamily::kBsdSocket:
      return "bsd_socket";
    case ModelFamily::kFixedChunks:
      return "fixed_chunks";
    case ModelFamily::kIpv4Fragments:
      return "ipv4_fragments";
  }
  return "unknown";
}

std::string DescribeModel(const BufferModel& model) {
  switch (model.family) {
    case ModelFamily::kLinear:
      return "linear";
    case ModelFamily::kBsdSocket:
      return absl::StrFormat("bsd_socket(C=%d, t=%d, s=%d)", model.cluster_bytes,
                             model.threshold_bytes, model.small_bytes);
    case ModelFamily::kFixedChunks:
      return absl::StrFormat("fixed_chunks(C=%d)", model.cluster_bytes);
    case ModelFamily::kIpv4Fragments:
      return absl::StrFormat("ipv4_fragments(MTU=%d)", model.mtu_bytes);
  }
  return "unknown";
}

}  // namespace tickbench::analysis
