#include "model/buffer_layout.h"

namespace tickbench::model {
namespace {

// ceil(a / b) for a >= 0, b > 0, without forming a + b − 1 (no overflow near INT64_MAX).
int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

BsdBuffers BsdSocketBuffers(int64_t n, int64_t cluster_bytes, int64_t threshold_bytes,
                            int64_t small_bytes) {
  BsdBuffers buffers;
  if (n <= 0) return buffers;
  // Every full cluster is taken while the remainder is >= C >= t; what is left decides alone.
  buffers.clusters = n / cluster_bytes;
  const int64_t remainder = n % cluster_bytes;
  if (remainder >= threshold_bytes) {
    ++buffers.clusters;
  } else if (remainder > 0) {
    buffers.small_buffers = CeilDiv(remainder, small_bytes);
  }
  return buffers;
}

int64_t FixedChunks(int64_t n, int64_t chunk_bytes) { return n <= 0 ? 0 : CeilDiv(n, chunk_bytes); }

int64_t Ipv4UdpPackets(int64_t n, int64_t mtu_bytes) {
  const int64_t beyond_first = n - MaxUnfragmentedUdpPayload(mtu_bytes);
  if (beyond_first <= 0) return 1;
  // k packets carry at most (k − 1)·F + (M − 20) bytes of IP payload: every fragment but the
  // last holds F, the last up to a whole M − 20. The IP payload n + 8 exceeds M − 20 by
  // beyond_first (formed without n + 8: no overflow).
  return 1 + CeilDiv(beyond_first, Ipv4FragmentPayloadBytes(mtu_bytes));
}

}  // namespace tickbench::model
