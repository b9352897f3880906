// --compare=A.json,B.json: two sweeps' JSON results (--format=json) side by side, per
// size the ratio B/A of the averaged RTT and of the per-iteration mean, each with a 95%
// interval and a verdict at the 5% level.
//
// Method: for each file and size, the runs' values (valid runs only) give a mean and its
// standard error by Student t across runs (timing::AcrossRunsInterval; the SD floored at
// timing::QuantizedSdFloor of the figure's quantum, so that runs which all read the same
// value still carry the quantization). The ratio's interval is the delta method on the log
// scale: log(B/A) +- t * sqrt(se_B^2 / B^2 + se_A^2 / A^2), with Welch-Satterthwaite
// degrees of freedom, exponentiated. "B slower" / "B faster" when that interval excludes 1
// (a two-sided test at 5%: it calls a difference where there is none in at most 5% of
// sizes, each size on its own; no correction across sizes), else "no difference at 5%".
// A size where either file has fewer than 2 valid runs gets its ratio only: no interval, no
// p-value, and the verdict "no test: A has 1 run; the t test needs 2 or more on each side"
// (one run has no spread, and a clock's quantum is no run-to-run spread); where the runs
// spread so widely that the interval's bounds overflow, "no test" as well.
//
// Refused (exit 2, naming what differs or is wrong): files that cannot be read, or that
// harness/json/compare_input.h refuses (not JSON, an unknown schema_version, not a sweep's
// results, values that mean nothing: a duration negative, infinite or absurd, a size not a
// whole number of bytes a transport takes), whose transports differ, or whose sets of sizes
// differ. Not promised: that the clocks or hosts match (they are shown, not checked).
#ifndef HARNESS_COMMANDS_COMPARE_COMMAND_H_
#define HARNESS_COMMANDS_COMPARE_COMMAND_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/cli/command_line.h"
#include "harness/output/output_format.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// Reads the two files named by --compare and prints the comparison in --format (table,
// csv or json) on streams.out. kExitUsage with a message on streams.err for bad flags or
// files, kExitOk otherwise.
int RunCompareCommand(const CommandLine& command_line, const ReportStreams& streams);

// The comparison of two JSON texts (`a_name`, `b_name` label them in messages and output,
// already escaped by the caller). InvalidArgument naming what differs or what is malformed.
absl::StatusOr<std::string> CompareSweepJson(absl::string_view a_text, absl::string_view a_name,
                                             absl::string_view b_text, absl::string_view b_name,
                                             OutputFormat format);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_COMPARE_COMMAND_H_
