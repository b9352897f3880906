#include "harness/mpi/matrix_page.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/mpi/matrix_heat_map.h"
#include "harness/mpi/matrix_verdict.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

constexpr char kMicroseconds[] = "\xC2\xB5s";

// "4 of 6 pairs measured; 1 timed out, 1 not reached", or "" when every pair was.
std::string PairsWithoutFigure(const Matrix& matrix) {
  int pairs = 0, measured = 0;
  std::map<PairStatus, int> others;
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      if (c == s) continue;
      ++pairs;
      const PairStatus status = matrix.at(c, s).status;
      if (status == PairStatus::kMeasured) {
        ++measured;
      } else {
        ++others[status];
      }
    }
  }
  if (others.empty()) return "";
  std::vector<std::string> counts;
  for (const auto& [status, count] : others) {
    counts.push_back(absl::StrCat(count, " ", PairStatusName(status)));
  }
  return absl::StrFormat("%d of %d pairs measured; %s", measured, pairs,
                         absl::StrJoin(counts, ", "));
}

// "3.10 µs (95% interval 3.05 to 3.15 µs)", or "3.10123 µs (one run, no interval)".
std::string RttWithInterval(const MatrixCell& cell) {
  const std::string figure = absl::StrCat(CellFigure(cell), " ", kMicroseconds);
  if (cell.valid_runs < 2) return figure + " (one run, no interval)";
  const int decimals = CellDecimals(cell);
  return absl::StrCat(figure, " (95% interval ",
                      timing::FormatDecimals(std::max(0.0, cell.rtt_low_ns / 1e3), decimals),
                      " to ", timing::FormatDecimals(cell.rtt_high_ns / 1e3, decimals), " ",
                      kMicroseconds, ")");
}

// What the table and the heat map show, and the test's error rate.
constexpr char kLegend[] =
    "Rows: the client rank, which measures; columns: its echo peer. Averaged RTT: the mean "
    "over runs of each run's whole-loop average, in \xC2\xB5s, with its 95% interval across "
    "runs (Student t), at the digits that interval supports. The heat map's colour runs "
    "from the fastest pair (light) to the slowest (dark): linear, or logarithmic where the "
    "slowest is over 10 times the fastest. p50 and p99: per-iteration, the mean over runs "
    "of each run's, to three significant digits (they have no interval of their own). "
    "DISTINCT: a two-sided Welch t-test at 5% separates the slowest pair from every other "
    "measured pair, each run's averaged RTT one sample; were every pair alike, with "
    "independent runs, a matrix would be called so at most 5% of the time, the slowest "
    "pair being chosen after the fact.";

}  // namespace

std::vector<std::string> MatrixHeadlines(const Matrix& matrix) {
  std::vector<std::string> lines;
  const std::string without = PairsWithoutFigure(matrix);
  if (!matrix.complete) {
    lines.push_back(absl::StrCat("PARTIAL: the run ended early",
                                 without.empty() ? "" : " \xE2\x80\x94 ", without, "."));
  } else if (!without.empty()) {
    lines.push_back(absl::StrCat(without, "."));
  }
  const std::optional<RankPair> fastest = FastestPair(matrix);
  if (!fastest) {
    lines.push_back("No pair was measured.");
    return lines;
  }
  const std::vector<RankPair> slowest = SlowestPairs(matrix, 1);
  const auto cell = [&matrix](const RankPair& p) -> const MatrixCell& {
    return matrix.at(p.client, p.server);
  };
  if (slowest.front().client == fastest->client && slowest.front().server == fastest->server) {
    lines.push_back(absl::StrCat("One pair measured: ", PairName(matrix, *fastest), ", ",
                                 RttWithInterval(cell(*fastest)), "."));
  } else {
    lines.push_back(absl::StrCat("Fastest pair ", PairName(matrix, *fastest), ": ",
                                 RttWithInterval(cell(*fastest)), "; slowest ",
                                 PairName(matrix, slowest.front()), ": ",
                                 RttWithInterval(cell(slowest.front())), "."));
  }
  lines.push_back(SlowestSentence(matrix));
  return lines;
}

PageTable MatrixPageTable(const Matrix& matrix) {
  PageTable table;
  table.caption = absl::StrFormat("Every ordered pair: %d-byte messages over %s, timed by %s",
                                  matrix.size_bytes, matrix.transport, matrix.clock);
  table.columns = {"client",
                   "client host",
                   "peer",
                   "peer host",
                   "status",
                   "runs",
                   absl::StrCat("averaged RTT ", kMicroseconds),
                   absl::StrCat("95% interval ", kMicroseconds),
                   absl::StrCat("p50 ", kMicroseconds),
                   absl::StrCat("p99 ", kMicroseconds),
                   "why no figure"};
  // The finest decimals an interval supports; a cell of one run has none, and counts only
  // where no cell has one.
  std::vector<int> with_interval, without;
  for (const MatrixCell& cell : matrix.cells) {
    if (cell.status != PairStatus::kMeasured) continue;
    (cell.valid_runs > 1 ? with_interval : without).push_back(CellDecimals(cell));
  }
  const int column = timing::ColumnDecimals(with_interval.empty() ? without : with_interval);
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      if (c == s) continue;
      const MatrixCell& cell = matrix.at(c, s);
      std::vector<std::string> row = {absl::StrCat(c),
                                      matrix.hosts[c],
                                      absl::StrCat(s),
                                      matrix.hosts[s],
                                      PairStatusName(cell.status),
                                      absl::StrCat(cell.valid_runs)};
      if (cell.status == PairStatus::kMeasured) {
        row.push_back(timing::FormatDecimals(cell.rtt_ns / 1e3, column));
        row.push_back(
            cell.valid_runs < 2
                ? "one run"
                : absl::StrCat(timing::FormatDecimals(std::max(0.0, cell.rtt_low_ns / 1e3), column),
                               " to ", timing::FormatDecimals(cell.rtt_high_ns / 1e3, column)));
        row.push_back(PerIterationFigure(cell.p50_ns));
        row.push_back(PerIterationFigure(cell.p99_ns));
        row.push_back("");
      } else {
        row.insert(row.end(), {"", "", "", "", cell.error});
      }
      table.rows.push_back(std::move(row));
    }
  }
  return table;
}

ReportPage MatrixReportPage(const Matrix& matrix, const RunContext& context,
                            const ExperimentHeader& header) {
  ReportPage page;
  page.title = absl::StrFormat("tickbench: round-trip matrix of %d ranks over %s, per pair",
                               matrix.ranks(), matrix.transport);
  page.headlines = MatrixHeadlines(matrix);
  page.context = context;
  page.header = header;
  ReportPlot plot;
  plot.caption = absl::StrCat(
      "The round-trip matrix: the averaged RTT of every pair, rows the client rank, columns "
      "its echo peer",
      matrix.complete ? "" : " \xE2\x80\x94 PARTIAL: the run ended before every pair was measured");
  absl::StatusOr<std::string> svg = InlineableSvg(MatrixHeatMapSvg(matrix));
  if (svg.ok()) {
    plot.svg = *std::move(svg);
  } else {
    plot.missing = std::string(svg.status().message());
  }
  page.plots.push_back(std::move(plot));
  page.result_tables.push_back(MatrixPageTable(matrix));
  page.legend = kLegend;
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      if (c != s) page.verdicts.push_back(PairInWords(matrix, c, s) + ".");
    }
  }
  return page;
}

}  // namespace tickbench::harness
