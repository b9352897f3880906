// The command line as given: every flag's value (CommandLine), the mode the flags ask for
// (ChooseMode), and the checks of flag values that ChooseMode and MakePlan (plan.h) share,
// each error an InvalidArgument that names its flag.
#ifndef HARNESS_CLI_COMMAND_LINE_H_
#define HARNESS_CLI_COMMAND_LINE_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "harness/context/setting.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench::harness {

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
  int64_t warmup = -1;    // harness/engine/round_trip_engine.h: kWarmupUntilSteady
  int64_t pipe_size = 0;  // --transport=pipe: F_SETPIPE_SZ; 0 = the kernel's
  int64_t so_sndbuf = 0;  // --transport=unix_stream: SO_SNDBUF asked for; 0 = the kernel's
  int64_t so_rcvbuf = 0;
  std::string precision = "2%";  // run until known (harness/engine/sweep_runner.h)
  absl::Duration max_time = absl::Seconds(20);
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
  std::string percentiles =
      "50,90,99";                   // pooled over runs (harness/report/readings/run_readings.h)
  std::string raw;                  // every reading as CSV to this file
  bool csv_context = true;          // --format=csv: the context as leading '#' lines
  bool quiet = false;               // no progress line while a sweep runs
  bool wide = false;                // --format=table: every column, past 100 columns
  std::set<std::string> specified;  // names of the flags given on the command line
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

// ---- The checks of flag values, for ChooseMode and MakePlan's steps. ----

// Whether `flag` was given on the command line.
bool Given(const CommandLine& c, const std::string& flag);
// InvalidArgument "--flag: message", unless the message already names the flag first.
absl::Status BadFlag(absl::string_view flag, absl::string_view message);
// 'text', control bytes escaped.
std::string Quoted(absl::string_view user_text);
absl::Status DurationInRange(absl::string_view flag, absl::Duration value, absl::Duration min,
                             absl::Duration max, bool min_open = false);
absl::Status IntegerInRange(absl::string_view flag, int64_t value, int64_t min, int64_t max,
                            absl::string_view note = "");
// InvalidArgument naming the first flag holding no path that contains a control byte.
absl::Status CheckNoControlBytes(const CommandLine& c);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_COMMAND_LINE_H_
