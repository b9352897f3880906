// From the command line to a validated plan: every flag is checked here, before anything
// runs, and a bad one is an InvalidArgument that names it and its allowed values.
#ifndef HARNESS_CLI_CLI_OPTIONS_H_
#define HARNESS_CLI_CLI_OPTIONS_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "harness/cli/presets.h"
#include "harness/context/setting.h"
#include "harness/engine/sweep_runner.h"
#include "harness/output/output_format.h"
#include "harness/study/study_runner.h"
#include "timing/clock_spec.h"
#include "transport/sim_rtt_model.h"
#include "transport/sim_transport.h"

namespace tickbench::harness {

// The value of a duration flag. Parsed as absl::ParseDuration does ("250ms", "1.5s",
// "inf"), but a value without a unit is refused with a message that names the units
// (Abseil's own absl::Duration flag says only "Illegal value"). Ranges are MakePlan's.
struct DurationFlag {
  absl::Duration value;
  bool none = false;  // given as "none" (value absl::InfiniteDuration()); "inf" is not
};
bool AbslParseFlag(absl::string_view text, DurationFlag* flag, std::string* error);
std::string AbslUnparseFlag(const DurationFlag& flag);

// The flags as given (harness/cli/flags.cc reads them here), and which were given at all:
// a preset's values yield to flags the user set. The member initialisers are the flags'
// defaults (flags.cc defines each flag with them); the simulated transport's are its
// model's (transport::SimRttModel).
struct CommandLine {
  std::string experiment = "unix_throughput";
  std::string transport;
  std::string clock = "clock_gettime";
  std::string clock_id = "monotonic";
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
  bool receive_timeout_none = false;  // --receive_timeout=none: no bound at all
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
  absl::Duration sim_fixed = transport::SimRttModel().fixed;
  double sim_per_byte_ns = transport::SimRttModel().per_byte_ns;
  bool sim_bsd = transport::SimRttModel().bsd_buffers;
  int64_t sim_cluster = transport::SimRttModel().cluster_bytes;
  int64_t sim_threshold = transport::SimRttModel().threshold_bytes;
  int64_t sim_small = transport::SimRttModel().small_bytes;
  absl::Duration sim_per_cluster = transport::SimRttModel().per_cluster;
  absl::Duration sim_per_small = transport::SimRttModel().per_small;
  std::string sim_jitter = "none";  // transport::ParseJitterKind's name of JitterKind::kNone
  absl::Duration sim_jitter_scale = transport::SimRttModel().jitter_scale;
  int64_t sim_mtu = transport::SimRttModel().mtu_bytes;
  double sim_link_rate = transport::SimRttModel().link_rate_bps;
  absl::Duration sim_per_packet = transport::SimRttModel().per_packet;
  int64_t retries = 3;
  // Roles and the modes that measure nothing.
  std::string role = "local";
  std::string listen;
  std::string peer;
  bool list_clocks = false;
  std::string clock_info;
  std::string analyze;
  std::string analyze_column;
  bool explain = false;
  bool fit_sim = false;  // --analyze: fit the simulation to the curve
  std::string plot;
  std::string report;  // --report=FILE.html (harness/page/report_page.h)
  std::string
      compare;  // --compare=A.json,B.json, a mode of its own (harness/commands/compare_command.h)
  std::string percentiles = "50,90,99";  // pooled over runs (harness/report/run_readings.h)
  std::string raw;                       // every reading as CSV to this file
  bool csv_context = true;               // --format=csv: the context as leading '#' lines
  bool quiet = false;                    // no progress line while a sweep runs
  bool wide = false;                     // --format=table: every column, past 100 columns
  std::set<std::string> specified;       // names of the flags given on the command line
  // Every tickbench flag with its value, type and whether it was given (flags.cc).
  std::vector<Setting> settings;
  // The flags given, by name in order, with their values as Abseil prints them: for the
  // report's context.
  std::vector<std::pair<std::string, std::string>> given_values;
};

// What one invocation does. The mode flags, in this order of precedence: --list_clocks,
// --clock_info, --analyze, --role=server; without any of them, a measurement.
enum class Mode { kMeasure, kListClocks, kClockInfo, kAnalyze, kServer };

// The mode the flags ask for. InvalidArgument, naming the flag, the mode and what the
// flag applies to, for a flag given that does nothing in that mode (--sizes with
// --analyze, --listen without --role=server, --peer without --role=client, a second mode
// flag, ...), an empty --analyze or --clock_info, and for control bytes in any flag that
// is not a path (shown escaped). Within a measurement MakePlan refuses more (--sim_*
// without --transport=sim, ...). Abseil's own flags (--flagfile, ...) go anywhere.
absl::StatusOr<Mode> ChooseMode(const CommandLine& command_line);

struct Plan {
  Preset preset;
  std::string transport;
  timing::ClockSpec clock;
  bool has_reference = false;
  timing::ClockSpec reference;
  timing::ClockEnvironment environment;
  SweepOptions sweep;
  OutputFormat format = OutputFormat::kTable;
  // Resolved, and checked with CheckOutputTarget; "" for none and for --output=-
  // (standard output, where the results go anyway).
  std::string output_path;
  std::string plot_path;  // resolved and checked, with its data file; "" for none
  std::vector<double> percentiles = {50, 90, 99};  // --percentiles, checked
  std::string raw_path;                            // --raw, resolved and checked; "" for none
  std::string report_path;                         // --report: resolved and checked; "" for none
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
inline constexpr int64_t kMaxRetries = 100;
inline constexpr absl::Duration kMinReceiveTimeout = absl::Microseconds(1);
inline constexpr absl::Duration kMaxReceiveTimeout = absl::Hours(1);
inline constexpr absl::Duration kMaxPeerReplyDelay = absl::Seconds(10);
inline constexpr absl::Duration kMaxGap = absl::Seconds(1);
// The most memory a plan's results and buffers may take (EstimatePlanBytes).
inline constexpr double kMaxPlanBytes = 8.0 * (int64_t{1} << 30);
// The most virtual time a simulation may span: int64 nanoseconds hold 292 years; a plan
// whose worst case passes 2^62 ns (146 years) is refused.
inline constexpr double kMaxSimulatedNanos = static_cast<double>(int64_t{1} << 62);

// The plan of a measurement (Mode::kMeasure; `command_line.role` says whether against a
// server). Every flag is checked: numbers against their ranges (durations finite),
// strings against their allowed values, flags that do nothing in this measurement
// refused, the output targets (--output, --plot and its data file, --report) with
// CheckOutputTarget, the memory of the results against kMaxPlanBytes and a simulation's
// virtual time against kMaxSimulatedNanos. Each error is InvalidArgument naming the flag
// once and what it allows. Makes (and drops) a transport to learn its largest message.
absl::StatusOr<Plan> MakePlan(const CommandLine& command_line);

// An upper bound on the memory, in bytes, that `plan`'s results and buffers take: the
// sweep keeps every run's record (retried attempts too) with up to
// min(intervals, EngineOptions::max_kept_intervals) + 1 readings per clock, 8 bytes each;
// the study keeps each cell's readings, 10 values per round trip per run, and its buffers.
double EstimatePlanBytes(const Plan& plan);

// --plot's target, resolved, after CheckOutputTarget on it and its data file (PlotDataPath):
// the path to draw to. InvalidArgument naming --plot otherwise ("-" included: a plot is a
// file).
absl::StatusOr<std::string> CheckPlotTarget(absl::string_view plot);

// The lines for the arguments of a command line (without the program name) whose value
// a number flag cannot hold, which Abseil's parser refuses without the range: "tickbench:
// --iterations: must be 1..1000000000; got '99999999999999999999', past what a whole
// number holds here" for whole numbers past 64 bits or not whole, durations that are NaN,
// written with an exponent or past what a duration holds. ParseCommandLine prints them
// beside Abseil's error. The ranges are the plan's (MakePlan), tested to agree.
std::vector<std::string> NumberValueHints(const std::vector<std::string>& args);

// The clock spec the --clock, --clock_id, --tick_period and --uniqtime flags name.
absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& command_line);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_CLI_OPTIONS_H_
