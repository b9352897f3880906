// The formats a measurement reports in (--format).
#ifndef HARNESS_OUTPUT_OUTPUT_FORMAT_H_
#define HARNESS_OUTPUT_OUTPUT_FORMAT_H_

namespace tickbench::harness {

enum class OutputFormat { kTable, kCsv, kJson };

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_OUTPUT_FORMAT_H_
