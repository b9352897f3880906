#include "analysis/models/buffer_models.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace tickbench::analysis {

// The layout rules themselves live in model/ (a parameter below is named `model`).
using ::tickbench::model::BsdBuffers;
using ::tickbench::model::BsdSocketBuffers;
using ::tickbench::model::FixedChunks;
using ::tickbench::model::Ipv4UdpPackets;

namespace {

bool HasBsd(ModelFamily f) {
  return f == ModelFamily::kBsdSocket || f == ModelFamily::kBsdFragments;
}
bool HasChunks(ModelFamily f) {
  return f == ModelFamily::kFixedChunks || f == ModelFamily::kChunksFragments;
}
bool HasFragments(ModelFamily f) {
  return f == ModelFamily::kIpv4Fragments || f == ModelFamily::kBsdFragments ||
         f == ModelFamily::kChunksFragments;
}

}  // namespace

bool FamilyContains(ModelFamily whole, ModelFamily part) {
  if (part == ModelFamily::kLinear) return true;
  for (ModelFamily alone : {ModelFamily::kSegmented, ModelFamily::kExcursion}) {
    if (part == alone || whole == alone) return whole == part;
  }
  return (!HasBsd(part) || HasBsd(whole)) && (!HasChunks(part) || HasChunks(whole)) &&
         (!HasFragments(part) || HasFragments(whole));
}

int DiscreteParameterCount(ModelFamily family) {
  switch (family) {
    case ModelFamily::kLinear:
    case ModelFamily::kSegmented:
      return 0;
    case ModelFamily::kBsdSocket:
      return 3;
    case ModelFamily::kFixedChunks:
    case ModelFamily::kIpv4Fragments:
      return 1;
    case ModelFamily::kBsdFragments:
      return 4;
    case ModelFamily::kChunksFragments:
      return 2;
    case ModelFamily::kExcursion:
      return 3;
  }
  return 0;
}

int DiscreteParameterCount(const BufferModel& model) {
  if (model.family == ModelFamily::kSegmented) return static_cast<int>(model.cut_sizes.size());
  return DiscreteParameterCount(model.family);
}

std::vector<bool> StepColumns(const BufferModel& model) {
  if (model.family != ModelFamily::kSegmented) {
    return std::vector<bool>(CostNames(model.family).size() - 2, true);
  }
  std::vector<bool> out;
  for (size_t j = 0; j < model.cut_sizes.size(); ++j) {
    out.push_back(true);
    out.push_back(false);
  }
  return out;
}

std::vector<std::vector<double>> DesignColumns(const BufferModel& model,
                                               const std::vector<double>& sizes) {
  if (model.family == ModelFamily::kExcursion) {
    std::vector<std::vector<double>> columns(3);
    for (double size : sizes) {
      columns[0].push_back(1);
      columns[1].push_back(size);
      const auto& at = model.excursion_sizes;
      columns[2].push_back(std::find(at.begin(), at.end(), size) != at.end() ? 1 : 0);
    }
    return columns;
  }
  const size_t kinds = model.family == ModelFamily::kSegmented ? 2 * model.cut_sizes.size()
                                                               : CostNames(model.family).size() - 2;
  std::vector<std::vector<double>> columns(2 + kinds);
  for (std::vector<double>& column : columns) column.reserve(sizes.size());
  for (double size : sizes) {
    const int64_t n = std::llround(size);
    columns[0].push_back(1);
    columns[1].push_back(size);
    size_t k = 2;
    if (model.family == ModelFamily::kSegmented) {
      for (double cut : model.cut_sizes) {
        columns[k++].push_back(size >= cut ? 1 : 0);
        columns[k++].push_back(size >= cut ? size - cut : 0);
      }
      continue;
    }
    if (HasBsd(model.family)) {
      const BsdBuffers buffers =
          BsdSocketBuffers(n, model.cluster_bytes, model.threshold_bytes, model.small_bytes);
      columns[k++].push_back(static_cast<double>(buffers.clusters));
      columns[k++].push_back(static_cast<double>(buffers.small_buffers));
    }
    if (HasChunks(model.family)) {
      columns[k++].push_back(static_cast<double>(FixedChunks(n, model.cluster_bytes)));
    }
    if (HasFragments(model.family)) {
      columns[k++].push_back(static_cast<double>(Ipv4UdpPackets(n, model.mtu_bytes)));
    }
  }
  return columns;
}

std::vector<std::string> CostNames(ModelFamily family) {
  std::vector<std::string> names = {"fixed", "per_byte"};
  if (HasBsd(family)) {
    names.push_back("per_cluster");
    names.push_back("per_small_buffer");
  }
  if (HasChunks(family)) names.push_back("per_chunk");
  if (HasFragments(family)) names.push_back("per_packet");
  if (family == ModelFamily::kExcursion) names.push_back("excursion");
  return names;
}

std::vector<std::string> CostNames(const BufferModel& model) {
  if (model.family == ModelFamily::kExcursion) {
    std::vector<std::string> at;
    for (double size : model.excursion_sizes) at.push_back(absl::StrFormat("%.0f", size));
    return {"fixed", "per_byte", absl::StrCat("excursion_at_", absl::StrJoin(at, "_"))};
  }
  if (model.family != ModelFamily::kSegmented) return CostNames(model.family);
  std::vector<std::string> names = {"fixed", "per_byte"};
  for (double cut : model.cut_sizes) {
    names.push_back(absl::StrFormat("jump_at_%.0f", cut));
    names.push_back(absl::StrFormat("slope_change_at_%.0f", cut));
  }
  return names;
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
    case ModelFamily::kBsdFragments:
      return "bsd_socket+ipv4_fragments";
    case ModelFamily::kChunksFragments:
      return "fixed_chunks+ipv4_fragments";
    case ModelFamily::kSegmented:
      return "segmented";
    case ModelFamily::kExcursion:
      return "excursion";
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
    case ModelFamily::kBsdFragments:
      return absl::StrFormat("bsd_socket+ipv4_fragments(C=%d, t=%d, s=%d, MTU=%d)",
                             model.cluster_bytes, model.threshold_bytes, model.small_bytes,
                             model.mtu_bytes);
    case ModelFamily::kChunksFragments:
      return absl::StrFormat("fixed_chunks+ipv4_fragments(C=%d, MTU=%d)", model.cluster_bytes,
                             model.mtu_bytes);
    case ModelFamily::kSegmented: {
      std::vector<std::string> cuts;
      for (double cut : model.cut_sizes) cuts.push_back(absl::StrFormat("%.0f", cut));
      return absl::StrFormat("segmented(cuts at %s)", absl::StrJoin(cuts, ", "));
    }
    case ModelFamily::kExcursion: {
      std::vector<std::string> at;
      for (double size : model.excursion_sizes) at.push_back(absl::StrFormat("%.0f", size));
      return absl::StrFormat("excursion(at %s)", absl::StrJoin(at, ", "));
    }
  }
  return "unknown";
}

bool PlausibleBufferSize(int64_t bytes) {
  if (bytes > 0 && (bytes & (bytes - 1)) == 0) return true;  // powers of two: 128..4096 too
  return bytes == 112;                                       // MLEN of 4.3BSD
}

bool PlausibleMtu(int64_t bytes) {
  return bytes == 576 || bytes == 1280 || bytes == 1500 || bytes == 9000;
}

int ImplausibleSizes(const BufferModel& model) {
  int off = 0;
  if (HasBsd(model.family)) {
    off += !PlausibleBufferSize(model.cluster_bytes);
    off += !PlausibleBufferSize(model.small_bytes);
    off += !(model.threshold_bytes == model.cluster_bytes ||
             model.threshold_bytes * 2 == model.cluster_bytes ||
             model.threshold_bytes * 4 == model.cluster_bytes);
  }
  if (HasChunks(model.family)) {
    const int64_t c = model.cluster_bytes;
    off += !(PlausibleBufferSize(c) || PlausibleMtu(c) || PlausibleMtu(c + 28) ||
             PlausibleMtu(c + 40));
  }
  if (HasFragments(model.family)) off += !PlausibleMtu(model.mtu_bytes);
  return off;
}

}  // namespace tickbench::analysis
