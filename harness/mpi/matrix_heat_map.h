// The round-trip matrix as a heat map: an inline SVG grid for the report page, rows the
// client rank (it measures), columns its echo peer, each labelled with rank and host.
// Pure: no MPI, built and tested in every build.
//
// Promised:
//   - a measured cell is filled by its averaged RTT on the scale HeatScaleOf states (linear
//     from the fastest pair's RTT to the slowest's, logarithmic where the slowest is over
//     10 times the fastest), from light to dark: a slower pair is never lighter (every
//     colour channel falls along the ramp), and its text is dark or light for contrast;
//   - a measured cell shows its averaged RTT in µs at the digits its 95% interval supports
//     (timing::FormatFigure) and the interval's half-width at the same decimals, or "1
//     run" without one;
//   - the diagonal ("self"), a failed or timed-out pair and a pair not reached are drawn
//     apart from the measured cells and from each other, each with its status in words;
//   - every host name, in a label or a cell's tooltip, passes HtmlEscape and appears only
//     in text, never in an attribute (a label shows at most its first 22 or 16 bytes, cut
//     at a character, the tooltip all of it);
//   - a legend gives the scale in µs and the cells' statuses; the SVG refers to nothing
//     but its own gradient (InlineableSvg keeps it).
// Not promised: readable labels beyond a few dozen ranks (the picture scales down to the
// page's width; the page's table holds every figure).
#ifndef HARNESS_MPI_MATRIX_HEAT_MAP_H_
#define HARNESS_MPI_MATRIX_HEAT_MAP_H_

#include <string>

#include "harness/mpi/matrix_report.h"

namespace tickbench::harness {

struct HeatScale {
  bool any = false;  // false when no pair was measured
  double fastest_us = 0;
  double slowest_us = 0;
  int fastest_decimals = 0;  // as CellDecimals gives them for those two cells
  int slowest_decimals = 0;
  bool logarithmic = false;
};

// The scale of a matrix's measured cells.
HeatScale HeatScaleOf(const Matrix& matrix);

// Where `rtt_us` lies on `scale`, from 0 (the fastest) to 1 (the slowest), clamped; 0.5
// when every measured pair has the same RTT.
double HeatPosition(const HeatScale& scale, double rtt_us);

// "#rrggbb" at `position` (0 to 1) on the ramp from light orange to dark red.
std::string HeatColour(double position);

// A cell's averaged RTT's half-width in µs (0 for a cell of one run), and the decimals its
// figure shows (timing::FigureDecimals).
double HalfWidthUs(const MatrixCell& cell);
int CellDecimals(const MatrixCell& cell);

// A measured cell's averaged RTT in µs at the digits of its interval ("3.10";
// timing::FormatFigure), "" for a cell not measured.
std::string CellFigure(const MatrixCell& cell);

// A per-iteration figure in µs from nanoseconds, to three significant digits without an
// exponent ("3.05", "90.0", "1250"): it has no interval of its own.
std::string PerIterationFigure(double ns);

// A pair and every figure of it in words, not escaped: "0->1 (alpha -> beta): averaged RTT 3.10 µs
// (95% interval 3.05 to 3.15 µs) over 4 runs; per-iteration p50 3.05 µs, p99 6.00 µs", or its
// status and why.
std::string PairInWords(const Matrix& matrix, int client, int server);

// The heat map: an <svg> element with a legend below the grid.
std::string MatrixHeatMapSvg(const Matrix& matrix);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_HEAT_MAP_H_
