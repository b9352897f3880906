// After a sweep (or on a CSV file): where the curve steps, which system sizes may explain
// each step, and, with --explain, which buffer layout explains the whole curve.
#ifndef HARNESS_SWEEP_ANALYSIS_H_
#define HARNESS_SWEEP_ANALYSIS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/step_detector.h"
#include "analysis/sweep.h"
#include "analysis/system_facts.h"
#include "harness/run_record.h"
#include "transport/transport.h"

namespace tickbench::harness {

// The averaged RTT (ns) of every run, by size: what the step detector reads.
analysis::Sweep RttSweepFromRecords(const std::vector<RunRecord>& records);

// The sizes a step may sit at on this host: the page size, the socket buffers as set,
// the path MTU to `peer_address` and its largest unfragmented UDP payload (MTU - 28 for
// IPv4, - 48 for IPv6), net.core.wmem_default and rmem_default, net.unix.max_dgram_qlen.
analysis::SizeFacts CollectSizeFacts(
    const std::string& transport_name,
    const std::optional<transport::Endpoint::BufferSizes>& socket_buffers,
    const std::string& peer_address);

struct SweepAnalysis {
  absl::StatusOr<analysis::StepDetection> steps;
  std::vector<std::vector<std::string>> causes;  // per step: candidate facts
  bool explained = false;
  absl::StatusOr<std::string> explanation = std::string();  // --explain's report
};

SweepAnalysis AnalyzeSweep(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                           bool explain);

// The analysis as text, after a sweep's table.
std::string FormatSweepAnalysis(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                                const SweepAnalysis& result);

}  // namespace tickbench::harness

#endif  // HARNESS_SWEEP_ANALYSIS_H_
