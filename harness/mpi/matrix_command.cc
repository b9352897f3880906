#include "harness/mpi/matrix_command.h"

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "harness/cli/flag_settings.h"
#include "harness/context/run_context.h"
#include "harness/engine/sweep_runner.h"
#include "harness/mpi/matrix_page.h"
#include "harness/mpi/matrix_report.h"
#include "harness/mpi/matrix_verdict.h"
#include "harness/mpi/mpi_peer_rank.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "harness/output/terminal_text.h"
#include "harness/page/report_page.h"
#include "platform/mpi/mpi_world.h"
#include "platform/stop_signal.h"
#include "timing/clocks/clock_spec.h"
#include "transport/mpi/mpi_transport.h"
#include "transport/mpi/rank_sockets.h"

namespace tickbench::harness {
namespace {

// The matrix's own messages; the pairs' round trips have the mpi transport's tag.
constexpr int kOrderTag = 0x7401;
constexpr int kCellTag = 0x7402;
constexpr int kHostBytes = 256;
constexpr int kErrorBytes = 512;

enum Order : int32_t { kServe = 1, kMeasure = 2, kDone = 3 };

struct OrderMessage {
  int32_t order = kDone;
  int32_t client = 0;
  int32_t server = 0;
};

// A cell as it travels from the measuring rank to rank 0.
struct CellMessage {
  int32_t status = 0;
  int32_t valid_runs = 0;
  double rtt_ns = 0, rtt_low_ns = 0, rtt_high_ns = 0, p50_ns = 0, p99_ns = 0;
  char error[kErrorBytes] = {};
};

CellMessage ToMessage(const MatrixCell& cell) {
  CellMessage message;
  message.status = static_cast<int32_t>(cell.status);
  message.valid_runs = cell.valid_runs;
  message.rtt_ns = cell.rtt_ns;
  message.rtt_low_ns = cell.rtt_low_ns;
  message.rtt_high_ns = cell.rtt_high_ns;
  message.p50_ns = cell.p50_ns;
  message.p99_ns = cell.p99_ns;
  std::strncpy(message.error, cell.error.c_str(), kErrorBytes - 1);
  return message;
}

MatrixCell FromMessage(const CellMessage& message) {
  MatrixCell cell;
  cell.status = static_cast<PairStatus>(message.status);
  cell.valid_runs = message.valid_runs;
  cell.rtt_ns = message.rtt_ns;
  cell.rtt_low_ns = message.rtt_low_ns;
  cell.rtt_high_ns = message.rtt_high_ns;
  cell.p50_ns = message.p50_ns;
  cell.p99_ns = message.p99_ns;
  cell.error.assign(message.error, strnlen(message.error, kErrorBytes));
  return cell;
}

absl::Status SendOrder(int rank, Order order, int client, int server) {
  OrderMessage message{order, client, server};
  return platform::MpiStatus(
      MPI_Send(&message, sizeof message, MPI_BYTE, rank, kOrderTag, MPI_COMM_WORLD),
      "matrix: order");
}

transport::RankSocketKind SocketKind(const Plan& plan) {
  return plan.transport == "udp" ? transport::RankSocketKind::kUdp
                                 : transport::RankSocketKind::kTcp;
}

// What a measuring rank measures with: the plan's clock and reference, made once.
struct RankClocks {
  std::unique_ptr<timing::Clock> clock;
  std::unique_ptr<timing::Clock> reference;
};

absl::Status MakeClocks(const Plan& plan, RankClocks& clocks) {
  if (clocks.clock) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<timing::Clock>> clock =
      timing::MakeClock(plan.clock, plan.environment);
  if (!clock.ok()) return clock.status();
  clocks.clock = std::move(*clock);
  if (plan.has_reference) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> reference =
        timing::MakeClock(plan.reference, plan.environment);
    if (!reference.ok()) return reference.status();
    clocks.reference = std::move(*reference);
  }
  return absl::OkStatus();
}

// This rank measuring round trips to `server`: the sweep of every transport, one size.
MatrixCell MeasurePair(const Plan& plan, int server, RankClocks& clocks) {
  if (absl::Status made = MakeClocks(plan, clocks); !made.ok()) {
    MatrixCell cell;
    cell.status = PairStatus::kFailed;
    cell.error = std::string(made.message());
    return cell;
  }
  std::unique_ptr<transport::Transport> transport;
  if (plan.transport == transport::kMpiName) {
    transport = std::make_unique<transport::MpiTransport>(server);
  } else {
    absl::StatusOr<std::unique_ptr<transport::Transport>> connected =
        transport::ConnectToRank(SocketKind(plan), server, kPairBudget);
    if (!connected.ok()) return CellFromRuns({}, connected.status());
    transport = *std::move(connected);
  }
  const SweepOutcome outcome =
      RunSweep(*transport, *clocks.clock, clocks.reference.get(), plan.sweep, nullptr);
  return CellFromRuns(outcome.records, outcome.status);
}

// This rank as the echo peer of `client` (a failure is the measuring rank's to report).
void ServePair(const Plan& plan, int client) {
  const absl::Status served = plan.transport == transport::kMpiName
                                  ? transport::RunMpiEchoPeer(client, plan.sweep.peer, kPairBudget)
                                  : transport::ServeRank(SocketKind(plan), client, plan.sweep.peer,
                                                         kPairBudget, kPairBudget);
  served.IgnoreError();
}

// Round trips of one pair: the warm-up and the timed trips of every run.
int64_t TripsPerPair(const Plan& plan) {
  return plan.sweep.runs * (MaxWarmupTrips(plan.sweep.engine, 1e6) + plan.sweep.engine.iterations);
}

// Every rank's host, on rank 0 (a collective: every rank calls it).
std::vector<std::string> GatherHosts(const platform::MpiWorld& world) {
  char mine[kHostBytes] = {};
  std::strncpy(mine, world.host.c_str(), kHostBytes - 1);
  std::vector<char> all(world.rank == 0 ? kHostBytes * world.size : 0);
  MPI_Gather(mine, kHostBytes, MPI_BYTE, all.data(), kHostBytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; world.rank == 0 && r < world.size; ++r) {
    hosts.emplace_back(&all[r * kHostBytes], strnlen(&all[r * kHostBytes], kHostBytes));
  }
  return hosts;
}

// A rank other than 0: follows rank 0's orders until it says done.
int FollowOrders(const Plan& plan) {
  RankClocks clocks;
  while (true) {
    OrderMessage order;
    if (absl::Status got =
            platform::MpiPollReceive(&order, sizeof order, 0, kOrderTag, absl::InfiniteDuration());
        !got.ok()) {
      platform::LeaveMpiWorldWithoutFinalize();
      return platform::StopRequested() ? 128 + platform::StopSignal() : kExitFault;
    }
    if (order.order == kDone) return kExitOk;
    if (order.order == kServe) {
      ServePair(plan, order.client);
      continue;
    }
    const CellMessage message = ToMessage(MeasurePair(plan, order.server, clocks));
    MPI_Send(&message, sizeof message, MPI_BYTE, 0, kCellTag, MPI_COMM_WORLD);
  }
}

// Rank 0's part of pair (c, s): its orders, then the cell.
MatrixCell LeadPair(const Plan& plan, int c, int s, RankClocks& clocks) {
  if (s != 0) SendOrder(s, kServe, c, s).IgnoreError();
  if (c != 0) SendOrder(c, kMeasure, c, s).IgnoreError();
  if (c == 0) return MeasurePair(plan, s, clocks);
  if (s == 0) ServePair(plan, c);
  CellMessage message;
  const absl::Duration budget = kPairBudget + absl::Milliseconds(TripsPerPair(plan));
  if (absl::Status got = platform::MpiPollReceive(&message, sizeof message, c, kCellTag, budget);
      !got.ok()) {
    MatrixCell cell;
    cell.status = platform::StopRequested() ? PairStatus::kFailed : PairStatus::kTimedOut;
    cell.error = std::string(got.message());
    return cell;
  }
  return FromMessage(message);
}

std::string Render(const Plan& plan, const Matrix& matrix) {
  switch (plan.format) {
    case OutputFormat::kTable:
      return MatrixTable(matrix, SlowestSentence(matrix));
    case OutputFormat::kCsv:
      return MatrixCsv(matrix);
    case OutputFormat::kJson:
      return MatrixJson(matrix, TestSlowestPair(matrix));
  }
  return MatrixTable(matrix, SlowestSentence(matrix));
}

// Where rank 0 writes the matrix besides the console: --output in --format, and --report's
// page with rank 0's context (its host, clocks probed, flags and settings).
class MatrixFiles {
 public:
  MatrixFiles(const Plan& plan, const CommandLine& command_line, RankClocks& clocks) : plan_(plan) {
    if (plan.report_path.empty()) return;
    std::vector<ClockDescription> described;
    if (MakeClocks(plan, clocks).ok()) {
      described.push_back(DescribeClock(*clocks.clock, "clock"));
      if (clocks.reference) described.push_back(DescribeClock(*clocks.reference, "reference"));
    }
    context_ = MakeRunContext(std::move(described), command_line.given_values);
    context_.settings = SettingsInForce(command_line, plan);
    header_.experiment = plan.preset.name;
    header_.transport = plan.transport;
    header_.busy_poll = plan.sweep.peer.busy_poll;
    header_.sizes = 1;
    header_.runs = plan.sweep.runs;
    header_.iterations = plan.sweep.engine.iterations;
  }

  // The matrix so far, after each pair: mpirun ends every rank within about a second of one
  // dying (SIGTERM, then SIGKILL), too soon to count on writing at the end. A failure here
  // is left to the last write to report.
  void WriteSoFar(const Matrix& matrix) const {
    if (!plan_.output_path.empty()) {
      WriteFileAtomically(plan_.output_path, Render(plan_, matrix)).IgnoreError();
    }
    if (!plan_.report_path.empty()) {
      WriteFileAtomically(plan_.report_path,
                          RenderReportPage(MatrixReportPage(matrix, context_, header_)))
          .IgnoreError();
    }
  }

  // The final matrix (`text` rendered in --format): `exit_code`, or kExitFault in place of
  // kExitOk when a file could not be written (it is then as it was), saying which.
  int WriteFinal(const Matrix& matrix, const std::string& text, int exit_code,
                 const ReportStreams& streams) const {
    if (!plan_.output_path.empty()) {
      if (absl::Status s = WriteFileAtomically(plan_.output_path, text); !s.ok()) {
        streams.err(
            absl::StrFormat("tickbench: could not write %s\n", WithFlag("output", s).message()));
        exit_code = kExitFault;
      }
    }
    if (plan_.report_path.empty()) return exit_code;
    return WriteReportPage(plan_.report_path, MatrixReportPage(matrix, context_, header_),
                           exit_code);
  }

 private:
  const Plan& plan_;
  RunContext context_;
  ExperimentHeader header_;
};

// Rank 0: every pair in turn, then the matrix.
int LeadMatrix(const Plan& plan, const CommandLine& command_line, const platform::MpiWorld& world,
               std::vector<std::string> hosts, const ReportStreams& streams) {
  Matrix matrix = EmptyMatrix(plan.transport, timing::ClockSpecToString(plan.clock),
                              plan.sweep.sizes[0], std::move(hosts));
  RankClocks clocks;
  const MatrixFiles files(plan, command_line, clocks);
  bool timed_out = false;
  for (int c = 0; c < world.size && !timed_out && !platform::StopRequested(); ++c) {
    for (int s = 0; s < world.size && !timed_out && !platform::StopRequested(); ++s) {
      if (c == s) continue;
      MatrixCell& cell = matrix.at(c, s);
      cell = LeadPair(plan, c, s, clocks);
      timed_out = cell.status == PairStatus::kTimedOut;
      streams.err(absl::StrFormat("matrix: pair %d->%d %s%s\n", c, s, PairStatusName(cell.status),
                                  cell.status == PairStatus::kMeasured
                                      ? absl::StrFormat(", %.2f us", cell.rtt_ns / 1e3)
                                      : ": " + TerminalText(cell.error)));
      files.WriteSoFar(matrix);
    }
  }
  matrix.complete = !timed_out && !platform::StopRequested();
  const bool stopped = platform::StopRequested();
  for (int r = 1; r < world.size && !timed_out && !stopped; ++r) {
    SendOrder(r, kDone, 0, 0).IgnoreError();
  }
  const std::string text = Render(plan, matrix);
  streams.out(text);
  const int exit_code =
      files.WriteFinal(matrix, text, EveryPairMeasured(matrix) ? kExitOk : kExitFault, streams);
  if (stopped) {
    streams.err(absl::StrFormat(
        "tickbench: matrix stopped by signal %d; the pairs measured are "
        "above%s\n",
        platform::StopSignal(),
        plan.output_path.empty() && plan.report_path.empty() ? "" : " and written"));
    platform::LeaveMpiWorldWithoutFinalize();
    return 128 + platform::StopSignal();
  }
  if (timed_out) {
    streams.err("tickbench: a pair timed out; ending every rank (MPI_Abort)\n");
    platform::LeaveMpiWorldWithoutFinalize();
    MPI_Abort(MPI_COMM_WORLD, kExitFault);
  }
  return exit_code;
}

// InvalidArgument for a plan the matrix cannot run.
absl::Status CheckMatrixPlan(const Plan& plan, const platform::MpiWorld& world) {
  if (world.size < 2) {
    return absl::InvalidArgumentError(
        "--experiment=matrix measures every pair of ranks: start it with mpirun -np N, N >= 2 "
        "(this run is a world of one)");
  }
  if (plan.transport != transport::kMpiName && plan.transport != "udp" && plan.transport != "tcp") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--transport: the matrix measures over mpi, udp or tcp; got '%s'", plan.transport));
  }
  if (plan.sweep.sizes.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--sizes: the matrix measures one size; got %d", plan.sweep.sizes.size()));
  }
  return absl::OkStatus();
}

}  // namespace

int RunMatrixCommand(const Plan& plan, const CommandLine& command_line,
                     const ReportStreams& streams) {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return Usage(WithFlag("experiment", world.status()));
  if (absl::Status checked = CheckMatrixPlan(plan, *world); !checked.ok()) {
    return world->rank == 0 ? Usage(checked) : kExitUsage;  // rank 0 says why, once
  }
  std::vector<std::string> hosts = GatherHosts(*world);
  if (world->rank != 0) return FollowOrders(plan);
  return LeadMatrix(plan, command_line, *world, std::move(hosts), streams);
}

}  // namespace tickbench::harness
