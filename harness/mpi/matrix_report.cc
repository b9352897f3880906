#include "harness/mpi/matrix_report.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/json/json_writer.h"
#include "harness/output/csv_field.h"
#include "harness/output/terminal_text.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

constexpr int kColumnWidth = 18;

// Every ordered pair of distinct ranks, row by row.
template <typename Visit>
void ForEachPair(const Matrix& matrix, Visit visit) {
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      if (c != s) visit(c, s, matrix.at(c, s));
    }
  }
}

// One N x N grid of cells formatted by `text`, "-" on the diagonal.
template <typename Text>
std::string Grid(const Matrix& matrix, absl::string_view title, Text text) {
  std::string out = absl::StrFormat("%s\n%-10s", title, "client\\peer");
  for (int s = 0; s < matrix.ranks(); ++s) {
    absl::StrAppendFormat(&out, "%*s", kColumnWidth, absl::StrCat("rank ", s));
  }
  out += "\n";
  for (int c = 0; c < matrix.ranks(); ++c) {
    absl::StrAppendFormat(&out, "%-10s", absl::StrCat("rank ", c));
    for (int s = 0; s < matrix.ranks(); ++s) {
      const MatrixCell& cell = matrix.at(c, s);
      const std::string shown = c == s ? "-"
                                : cell.status == PairStatus::kMeasured
                                    ? text(cell)
                                    : PairStatusName(cell.status);
      absl::StrAppendFormat(&out, "%*s", kColumnWidth, shown);
    }
    out += "\n";
  }
  return out;
}

}  // namespace

const char* PairStatusName(PairStatus status) {
  switch (status) {
    case PairStatus::kNotReached:
      return "not reached";
    case PairStatus::kMeasured:
      return "measured";
    case PairStatus::kFailed:
      return "failed";
    case PairStatus::kTimedOut:
      return "timed out";
  }
  return "unknown";
}

Matrix EmptyMatrix(std::string transport, std::string clock, size_t size_bytes,
                   std::vector<std::string> hosts) {
  Matrix matrix;
  matrix.transport = std::move(transport);
  matrix.clock = std::move(clock);
  matrix.size_bytes = size_bytes;
  matrix.hosts = std::move(hosts);
  matrix.cells.resize(matrix.hosts.size() * matrix.hosts.size());
  return matrix;
}

MatrixCell CellFromRuns(const std::vector<RunRecord>& records, const absl::Status& status) {
  MatrixCell cell;
  std::vector<double> rtts;
  for (const RunRecord& record : records) {
    if (!record.valid()) continue;
    rtts.push_back(record.averaged_rtt_ns);
    cell.p50_ns += record.per_iteration_ns.p50;
    cell.p99_ns += record.per_iteration_ns.p99;
  }
  cell.valid_runs = static_cast<int>(rtts.size());
  if (!status.ok()) cell.error = std::string(status.message());
  if (cell.error.empty() && !records.empty()) cell.error = records.back().error;
  if (rtts.empty()) {
    cell.status = PairStatus::kFailed;
    if (cell.error.empty()) cell.error = "no run had a figure";
    cell.p50_ns = cell.p99_ns = 0;
    return cell;
  }
  cell.status = PairStatus::kMeasured;
  cell.p50_ns /= rtts.size();
  cell.p99_ns /= rtts.size();
  // A round trip takes time: its interval on the log scale, never below 0.
  const timing::ConfidenceInterval interval = timing::OnLogScale(timing::AcrossRunsInterval(rtts));
  cell.rtt_ns = interval.estimate;
  // One valid run has no interval across runs: its figure stands alone, low = high.
  cell.rtt_low_ns = interval.valid ? interval.low : interval.estimate;
  cell.rtt_high_ns = interval.valid ? interval.high : interval.estimate;
  if (rtts.size() == 1) cell.rtt_ns = cell.rtt_low_ns = cell.rtt_high_ns = rtts[0];
  return cell;
}

std::vector<RankPair> SlowestPairs(const Matrix& matrix, int count) {
  std::vector<RankPair> pairs;
  ForEachPair(matrix, [&pairs](int c, int s, const MatrixCell& cell) {
    if (cell.status == PairStatus::kMeasured) pairs.push_back({c, s});
  });
  std::stable_sort(pairs.begin(), pairs.end(), [&matrix](const RankPair& a, const RankPair& b) {
    return matrix.at(a.client, a.server).rtt_ns > matrix.at(b.client, b.server).rtt_ns;
  });
  if (static_cast<int>(pairs.size()) > count) pairs.resize(std::max(0, count));
  return pairs;
}

bool EveryPairMeasured(const Matrix& matrix) {
  bool all = true;
  ForEachPair(matrix, [&all](int, int, const MatrixCell& cell) {
    all = all && cell.status == PairStatus::kMeasured;
  });
  return all;
}

std::string MatrixTable(const Matrix& matrix, const std::string& verdict_sentence) {
  std::string out =
      absl::StrFormat("# round-trip matrix: %d ranks, %s, %d-byte messages, timed by %s%s\n",
                      matrix.ranks(), matrix.transport, matrix.size_bytes, matrix.clock,
                      matrix.complete ? "" : " (partial: the run has not reached every pair)");
  out += Grid(matrix, "averaged RTT, us (mean over runs +- 95% CI half-width)",
              [](const MatrixCell& cell) {
                return absl::StrFormat("%.2f +- %.2f", cell.rtt_ns / 1e3,
                                       (cell.rtt_high_ns - cell.rtt_low_ns) / 2e3);
              });
  out += Grid(matrix, "\nper-iteration p50 / p99, us", [](const MatrixCell& cell) {
    return absl::StrFormat("%.2f / %.2f", cell.p50_ns / 1e3, cell.p99_ns / 1e3);
  });
  out += "\nhosts:";
  for (int r = 0; r < matrix.ranks(); ++r) {
    absl::StrAppendFormat(&out, " rank %d %s%s", r, TerminalText(matrix.hosts[r]),
                          r + 1 < matrix.ranks() ? ";" : "\n");
  }
  out += "slowest pairs:";
  const std::vector<RankPair> slowest = SlowestPairs(matrix);
  if (slowest.empty()) out += " none measured";
  for (const RankPair& pair : slowest) {
    absl::StrAppendFormat(&out, " %d->%d (%s -> %s) %.2f us;", pair.client, pair.server,
                          TerminalText(matrix.hosts[pair.client]),
                          TerminalText(matrix.hosts[pair.server]),
                          matrix.at(pair.client, pair.server).rtt_ns / 1e3);
  }
  out += "\n";
  if (!verdict_sentence.empty()) absl::StrAppend(&out, TerminalText(verdict_sentence), "\n");
  ForEachPair(matrix, [&out, &matrix](int c, int s, const MatrixCell& cell) {
    if (cell.status == PairStatus::kMeasured) return;
    absl::StrAppendFormat(&out, "pair %d->%d (%s -> %s): %s%s%s\n", c, s,
                          TerminalText(matrix.hosts[c]), TerminalText(matrix.hosts[s]),
                          PairStatusName(cell.status), cell.error.empty() ? "" : ": ",
                          TerminalText(cell.error));
  });
  return out;
}

std::string MatrixCsv(const Matrix& matrix) {
  std::string out =
      "client_rank,client_host,server_rank,server_host,transport,size_bytes,status,runs,"
      "rtt_us,rtt_low_us,rtt_high_us,p50_us,p99_us\n";
  ForEachPair(matrix, [&out, &matrix](int c, int s, const MatrixCell& cell) {
    absl::StrAppendFormat(&out, "%d,%s,%d,%s,%s,%d,%s,%d", c, CsvText(matrix.hosts[c]), s,
                          CsvText(matrix.hosts[s]), matrix.transport, matrix.size_bytes,
                          PairStatusName(cell.status), cell.valid_runs);
    if (cell.status == PairStatus::kMeasured) {
      absl::StrAppendFormat(&out, ",%.3f,%.3f,%.3f,%.3f,%.3f\n", cell.rtt_ns / 1e3,
                            cell.rtt_low_ns / 1e3, cell.rtt_high_ns / 1e3, cell.p50_ns / 1e3,
                            cell.p99_ns / 1e3);
    } else {
      out += ",,,,,\n";
    }
  });
  return out;
}

namespace {

// The verdict as one object (MatrixJson's "slowest_test").
void AppendVerdict(JsonWriter& json, const SlowestVerdict& verdict) {
  json.BeginObject();
  json.StringField("test",
                   "two-sided Welch t-test at 5% of the slowest pair's averaged RTT against each "
                   "other measured pair's, each run one sample; distinct when every one rejects");
  json.BoolField("tested", verdict.tested);
  if (!verdict.tested) {
    json.StringField("why_untested", verdict.why_untested);
  } else {
    json.BoolField("distinct", verdict.distinct);
    json.Key("closest");
    json.BeginObject();
    json.IntegerField("client", verdict.closest.client);
    json.IntegerField("server", verdict.closest.server);
    json.EndObject();
    json.NumberField("p_value", verdict.p_value);
  }
  json.EndObject();
}

}  // namespace

std::string MatrixJson(const Matrix& matrix, const SlowestVerdict& verdict) {
  JsonWriter json;
  json.BeginObject();
  json.StringField("mode", "matrix");
  json.StringField("transport", matrix.transport);
  json.StringField("clock", matrix.clock);
  json.IntegerField("size_bytes", static_cast<int64_t>(matrix.size_bytes));
  json.IntegerField("ranks", matrix.ranks());
  json.BoolField("complete", matrix.complete);
  json.Key("hosts");
  json.BeginArray();
  for (const std::string& host : matrix.hosts) json.String(host);
  json.EndArray();
  json.Key("pairs");
  json.BeginArray();
  ForEachPair(matrix, [&json](int c, int s, const MatrixCell& cell) {
    json.BeginObject();
    json.IntegerField("client", c);
    json.IntegerField("server", s);
    json.StringField("status", PairStatusName(cell.status));
    json.IntegerField("runs", cell.valid_runs);
    if (cell.status == PairStatus::kMeasured) {
      json.NumberField("rtt_ns", cell.rtt_ns);
      json.Key("rtt_ns_ci95");
      json.BeginArray();
      json.Number(cell.rtt_low_ns);
      json.Number(cell.rtt_high_ns);
      json.EndArray();
      json.NumberField("p50_ns", cell.p50_ns);
      json.NumberField("p99_ns", cell.p99_ns);
    }
    if (!cell.error.empty()) json.StringField("error", cell.error);
    json.EndObject();
  });
  json.EndArray();
  json.Key("slowest");
  json.BeginArray();
  for (const RankPair& pair : SlowestPairs(matrix)) {
    json.BeginObject();
    json.IntegerField("client", pair.client);
    json.IntegerField("server", pair.server);
    json.NumberField("rtt_ns", matrix.at(pair.client, pair.server).rtt_ns);
    json.EndObject();
  }
  json.EndArray();
  json.Key("slowest_test");
  AppendVerdict(json, verdict);
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
