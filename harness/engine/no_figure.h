// Figures nothing measured. The one rule, in every format: such a figure is kNoFigure
// (NaN) in its record, never 0 or another stand-in, and every writer shows NaN as "no
// figure": JSON null (JsonWriter::Number), an empty CSV cell (FigureText with
// kNoFigureCsv), "-" in a table (FigureText with kNoFigureTable). Records are marked
// where they are finished, by MarkUnmeasured: a run with no clean interval here (the
// round-trip engine), a study cell without a run in study_runner.h.
#ifndef HARNESS_ENGINE_NO_FIGURE_H_
#define HARNESS_ENGINE_NO_FIGURE_H_

#include <limits>
#include <string>

#include "absl/strings/string_view.h"
#include "harness/engine/run_record.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {

inline constexpr double kNoFigure = std::numeric_limits<double>::quiet_NaN();

// What a CSV cell and a table cell hold where there is no figure.
inline constexpr absl::string_view kNoFigureCsv = "";
inline constexpr absl::string_view kNoFigureTable = "-";

// `value` with `decimals` decimals ("%.*f": infinities as "inf", "-inf"), or `none` for
// kNoFigure.
std::string FigureText(double value, int decimals, absl::string_view none);
// The same with `digits` significant digits ("%.*g").
std::string FigureTextSignificant(double value, int digits, absl::string_view none);

// Every figure of `summary` kNoFigure; its count stays.
void MarkUnmeasured(timing::Summary& summary);

// A run with no clean interval (!record.valid()): its averaged, per-iteration and
// reference figures, the resolution and the quantum kNoFigure. Counts, flags, the error
// and the marks stay.
void MarkUnmeasured(RunRecord& record);

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_NO_FIGURE_H_
