#include "harness/engine/round_trip_loop.h"

#include "absl/strings/str_cat.h"

namespace tickbench::harness {

absl::Status StreamOutOfStepError(const transport::MessageCheck& check, uint64_t sequence) {
  return absl::DataLossError(absl::StrCat(
      "echo of round trip ", sequence, " is not the message sent (", transport::Describe(check),
      "): on a byte stream that leaves the peer out of step, so no later echo can be timed"));
}

}  // namespace tickbench::harness
