// The first thing a report page says: one sentence per clock and size of a study, one per
// sweep, in words a person reads in a few seconds. Every verdict word comes from a test or
// interval the study or the sweep already computes (study_cell.h): "useless" from the
// single reading's resolution (T above the round trip), "within" from the bound check of
// every run's averaged error, "unresolved" from T/N over 10% of the RTT, "biased" from the
// mean test, "agree"/"DISAGREE" from the theory's check; none from a threshold of its own.
#ifndef HARNESS_PAGE_PAGE_HEADLINE_H_
#define HARNESS_PAGE_PAGE_HEADLINE_H_

#include <string>
#include <vector>

#include "harness/engine/run_record.h"
#include "harness/report/sweep_report.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

// "tick:10ms at 64 B: 87% of single round trips read 0 — per-iteration figures are
// useless; the averaged figure is within 0.77% of the truth; the readings agree with the
// tick theory."
std::string StudyHeadline(const StudyCell& cell);

// The sweep's lead figure (throughput for kThroughput, else the averaged RTT) at its
// first and last size, each with its 95% interval across runs, the sizes without a figure
// and the unresolved ones counted.
std::string SweepHeadline(const std::vector<RunRecord>& records, TableStyle style);

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_PAGE_HEADLINE_H_
