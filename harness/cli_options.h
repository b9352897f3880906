// From the command line to a validated plan: every flag is checked here, before anything
// runs, and a bad one is an InvalidArgument that names it and its allowed values.
#ifndef HARNESS_CLI_OPTIONS_H_
#define HARNESS_CLI_OPTIONS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "harness/presets.h"
#include "harness/study_runner.h"
#include "harness/sweep_runner.h"
#include "transport/sim_rtt_model.h"
#include "transport/sim_transport.h"
#include "timing/clock_spec.h"

namespace tickbench::harness {

enum class OutputFormat { kTable, kCsv, kJson };

// The flags as given (harness/main.cc copies them here), and which were given at all:
// a preset's values yield to flags the user set.
struct CommandLine {
  std::string experiment = "unix_throughput";
  std::string transport;
  std::string clock = "clock_gettime";
  std::string clock_id;
  absl::Duration tick_period = absl::Milliseconds(10);
  std::string tick_phase = "random";
  bool uniqtime = false;
  std::string reference_clock = "auto";
  std::string sizes;
  int64_t iterations = 1000;
  int64_t runs = 4;
  int64_t warmup = 100;
  int64_t batch = 1;
  std::string format = "table";
  std::string output;
  std::string pin;
  uint64_t seed = 1;
  absl::Duration receive_timeout = absl::Seconds(1);
  bool allow_variable_cycle_counter = false;
  // Faults: what to do on loss, and the echo peer's test hooks.
  bool stop_on_loss = false;
  bool busy_poll = false;
  int64_t peer_drop_every = 0;
  int64_t peer_stop_after = 0;
  absl::Duration peer_reply_delay;
  // The study.
  std::string clocks;
  bool dither = false;
  absl::Duration gap;
  // The simulated transport's model (--transport=sim).
  absl::Duration sim_fixed = absl::Microseconds(20);
  double sim_per_byte_ns = 0.05;
  bool sim_bsd = false;
  int64_t sim_cluster = 1024;
  int64_t sim_threshold = 512;
  int64_t sim_small = 112;
  absl::Duration sim_per_cluster = absl::Microseconds(2);
  absl::Duration sim_per_small = absl::Microseconds(1);
  std::string sim_jitter = "none";
  absl::Duration sim_jitter_scale = absl::Microseconds(1);
  std::set<std::string> specified;  // names of the flags given on the command line
};

struct Plan {
  Preset preset;
  std::string transport;
  timing::ClockSpec clock;
  bool has_reference = false;
  timing::ClockSpec reference;
  timing::ClockEnvironment environment;
  SweepOptions sweep;
  OutputFormat format = OutputFormat::kTable;
  std::string output_path;  // resolved; "" for none
  // --transport=sim: everything runs in virtual time with this model.
  bool simulate = false;
  transport::SimRttModel sim_model;
  transport::SimFaults sim_faults;
  // --experiment=study.
  bool study = false;
  std::vector<timing::ClockSpec> study_clocks;
  StudyOptions study_options;
};

// The clocks the study compares by default: on real hardware the OS clocks, the cycle
// counter and the classic ticks; in simulation the clocks that read virtual time.
std::vector<timing::ClockSpec> DefaultStudyClocks(bool simulate);

// Limits that keep a run bounded: a typo like --iterations=1e12 is an error, not a
// week-long run.
inline constexpr int64_t kMaxIterations = 1'000'000'000;
inline constexpr int64_t kMaxRuns = 10'000;

absl::StatusOr<Plan> MakePlan(const CommandLine& command_line);

// The clock spec the --clock, --clock_id, --tick_period and --uniqtime flags name.
absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& command_line);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_OPTIONS_H_
