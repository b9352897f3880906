// --compare's statistics: one file's figure at one size (the mean over its valid runs with
// its 95% interval across runs), the ratio B/A of two with its interval and p-value, and
// the verdict in words, each figure at the digits its interval supports
// (timing::FigureDecimals). The method is compare_command.h's.
#ifndef HARNESS_COMMANDS_COMPARE_RATIO_H_
#define HARNESS_COMMANDS_COMPARE_RATIO_H_

#include <string>
#include <vector>

namespace tickbench::harness {

// One file's figure at one size: the mean over its valid runs, the half-width of its 95%
// interval across runs (0 without one) and its quantum, all in ns.
struct Figure {
  int runs = 0;
  double mean = 0, half = 0, quantum = 0;
};

// The figure of runs `values` read on a grid of `quantum` ns.
Figure FigureOf(const std::vector<double>& values, double quantum);

struct Ratio {
  bool valid = false;     // a ratio: both means positive
  bool tested = false;    // an interval and a p-value: valid, 2 runs or more a side, finite
  bool too_wide = false;  // 2 runs or more a side, but the interval overflows (no test)
  double estimate = 0, low = 0, high = 0;
  double resolution = 0;  // the ratio's grid from the two figures' quanta
  double p_value = 1;
  int runs_a = 0, runs_b = 0;
};

// B/A of the runs `a` and `b` (their quanta floor each side's SD).
Ratio RatioOf(const std::vector<double>& a, double quantum_a, const std::vector<double>& b,
              double quantum_b);

// `x` at `decimals` (timing::FormatDecimals), or from 1e6 on in 5 significant digits: no
// absurd ratio is printed as a 40-digit number.
std::string Fixed(double x, int decimals);

// The decimals of a ratio and its interval (timing::FigureDecimals).
int RatioDecimals(const Ratio& r);

// "B slower by 9.8% [9.1, 10.5], p = 0.0003", "no difference at 5% (p = 0.41)", or why
// there is no test.
std::string Verdict(const Ratio& r);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_COMPARE_RATIO_H_
