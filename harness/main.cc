// tickbench: round-trip time and throughput of IPC and network transports across message
// sizes, timed by a clock of your choice against a fine reference clock.
//
// The only place that reads flags, prints and exits. Exit codes: 0 success; 1 a fault
// during the measurement (what was measured is still printed and written); 2 bad input
// (a flag, a file); 130 / 143 stopped by SIGINT / SIGTERM.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/internal/parse.h"
#include "absl/flags/internal/usage.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "analysis/csv_sweep_reader.h"
#include "analysis/model_fit.h"
#include "harness/cli_options.h"
#include "harness/clock_report.h"
#include "harness/echo_session.h"
#include "harness/output_file.h"
#include "harness/plot.h"
#include "harness/run_context.h"
#include "harness/study_report.h"
#include "harness/study_runner.h"
#include "harness/sweep_analysis.h"
#include "harness/sweep_report.h"
#include "harness/sweep_runner.h"
#include "platform/cpu_affinity.h"
#include "platform/stop_signal.h"
#include "platform/system_info.h"
#include "remote/echo_server.h"
#include "remote/remote_transport.h"
#include "remote/role_options.h"
#include "remote/termination_signals.h"
#include "timing/clock_spec.h"
#include "timing/os_clocks.h"
#include "timing/virtual_clock.h"
#include "transport/sim_transport.h"
#include "transport/transport_factory.h"

// Duration flags take a unit (5s, 250ms, 100us); a bare number is refused naming them.
using tickbench::harness::DurationFlag;

ABSL_FLAG(std::string, experiment, "unix_throughput",
          "What to run: unix_throughput (classic 1: UNIX stream socket, throughput against "
          "size, 1000 iterations x 4 runs), udp_rtt (classic 2: UDP/IPv4, RTT against size, "
          "50..2000 step 50, 5000 round trips), or sweep (the flags' own values). Flags given "
          "with a preset override it.");
ABSL_FLAG(std::string, transport, "",
          "Transport: unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe. Default: the "
          "experiment's.");
ABSL_FLAG(std::string, clock, "clock_gettime",
          "Clock that times the round trips: gettimeofday, clock_gettime (see --clock_id), "
          "rdtsc (x86-64; cntvct on arm64), tick (simulated coarse tick, see --tick_period), "
          "or a full spec such as tick:20ms or clock_gettime:monotonic_coarse. "
          "--list_clocks shows them all.");
ABSL_FLAG(std::string, clock_id, "monotonic",
          "clock_gettime clock id: monotonic, monotonic_raw, realtime, boottime, "
          "monotonic_coarse, realtime_coarse.");
ABSL_FLAG(DurationFlag, tick_period, DurationFlag{absl::Milliseconds(10)},
          "Period of --clock=tick, a duration: 10ms = 100 Hz, 20ms = 50 Hz (a 100 Hz clock "
          "with every other interrupt lost, as on the Sun-3); 2us..1h.");
ABSL_FLAG(std::string, tick_phase, "random",
          "Where the tick edges fall: 'random' (a new seeded phase per run and size) or a "
          "fixed duration in [0, tick_period), e.g. 0ms.");
ABSL_FLAG(bool, uniqtime, false,
          "With --clock=tick: add 1 us per read within a tick, as SunOS's gettimeofday did "
          "to keep readings unique.");
ABSL_FLAG(std::string, reference_clock, "auto",
          "Fine clock read at the same instants as --clock: auto (rdtsc where the TSC is "
          "invariant, else clock_gettime:monotonic), none, or any clock spec.");
ABSL_FLAG(std::string, sizes, "",
          "Message sizes in bytes: a list (32,512,1024), ranges start:stop:step (50:2000:50), "
          "or both; 1k = 1024. Default: the experiment's. Each must fit the transport's "
          "largest message.");
ABSL_FLAG(int64_t, iterations, 1000,
          "Timed round trips per size and run (unix_throughput: 1000, udp_rtt: 5000).");
ABSL_FLAG(int64_t, runs, 4, "Runs per size (unix_throughput: 4, udp_rtt: 1).");
ABSL_FLAG(int64_t, warmup, 100, "Untimed round trips before each run's timed ones.");
ABSL_FLAG(int64_t, batch, 1,
          "Round trips per per-iteration reading: 1 times every round trip; --batch equal to "
          "--iterations is the averaged case alone.");
ABSL_FLAG(std::string, format, "table", "Output format: table, csv or json.");
ABSL_FLAG(std::string, output, "",
          "Also write the results, in --format, to this file (written whole or not at all; a "
          "relative path is relative to where you ran bazel run). Only a new or regular file "
          "is written; - is standard output, where the results go anyway.");
ABSL_FLAG(std::string, pin, "",
          "Pin to CPUs: CLIENT or CLIENT,PEER (CPU numbers), e.g. 0,1. Default: not pinned.");
ABSL_FLAG(uint64_t, seed, 1, "Seed for everything random (tick phases).");
ABSL_FLAG(DurationFlag, receive_timeout, DurationFlag{absl::Seconds(1)},
          "Longest wait for one echo: a lost datagram is counted after this long; a silent "
          "stream peer ends the run. Default: 1s during warm-up, then 1000 times the warm-up's "
          "mean round trip, within [250ms, 10s]. Given: 1us..1h.");
ABSL_FLAG(bool, busy_poll, false,
          "Receive by busy polling: client and echo peer spin on non-blocking receives "
          "instead of sleeping in the kernel until the echo arrives, which takes the wake-up "
          "out of the round trip at the price of a CPU kept busy on each side. Give each side "
          "a CPU of its own with --pin=CLIENT,PEER. Not for --transport=sim.");
ABSL_FLAG(bool, stop_on_loss, false,
          "End the run at the first lost datagram instead of counting it and going on.");
ABSL_FLAG(int64_t, retries, 3,
          "Runs of a size that lost a round trip are measured again, up to this many times "
          "more (a lost round trip is never timed); 0..100.");
ABSL_FLAG(int64_t, peer_drop_every, 0,
          "Test hook: the echo peer does not answer every k-th datagram (datagram transports "
          "and sim). 0 = off.");
ABSL_FLAG(int64_t, peer_stop_after, 0,
          "Test hook: the echo peer stops (as if it died) after this many echoes. 0 = off.");
ABSL_FLAG(DurationFlag, peer_reply_delay, DurationFlag{absl::ZeroDuration()},
          "Test hook: the echo peer waits this long before each echo (0..10s); an echo later "
          "than the receive timeout is a lost one.");
ABSL_FLAG(bool, allow_variable_cycle_counter, false,
          "Use the cycle counter even where it is not invariant (its rate then follows the "
          "CPU's frequency: results may be wrong).");
ABSL_FLAG(std::string, clocks, "",
          "--experiment=study: the clocks to compare, comma-separated specs. Default: "
          "gettimeofday, clock_gettime:monotonic, clock_gettime:monotonic_coarse, rdtsc, "
          "tick:10ms, tick:20ms (in simulation: virtual, tick:10ms, tick:20ms).");
ABSL_FLAG(bool, dither, false,
          "--experiment=study: pause a seeded random time in [0, T) before each per-iteration "
          "round trip, so that its start falls at a random phase of the tick (costs N x T/2 of "
          "waiting on real hardware).");
ABSL_FLAG(DurationFlag, gap, DurationFlag{absl::ZeroDuration()},
          "--experiment=study: unmeasured time between per-iteration round trips (work the "
          "client does between them); a gap that makes the loop period a multiple of the tick "
          "locks the phase; 0..1s.");
ABSL_FLAG(DurationFlag, sim_fixed, DurationFlag{absl::Microseconds(20)},
          "--transport=sim: fixed cost of a round trip; 0..1h.");
ABSL_FLAG(double, sim_per_byte_ns, 0.05,
          "--transport=sim: cost per message byte, ns per round trip; 0..1e6.");
ABSL_FLAG(bool, sim_bsd, false,
          "--transport=sim: add the classic BSD socket buffer costs: a remainder of at least "
          "--sim_threshold bytes takes a --sim_cluster-byte cluster, a smaller one "
          "--sim_small-byte small buffers; each buffer costs --sim_per_cluster or "
          "--sim_per_small, twice per round trip.");
ABSL_FLAG(int64_t, sim_cluster, 1024, "--sim_bsd: cluster size, bytes (4.3BSD: 1024); 1..1048576.");
ABSL_FLAG(int64_t, sim_threshold, 512,
          "--sim_bsd: smallest remainder that takes a cluster, bytes (4.3BSD: 512; older: 1024); "
          "1..--sim_cluster.");
ABSL_FLAG(int64_t, sim_small, 112,
          "--sim_bsd: small buffer size, bytes (4.3BSD MLEN: 112); 1..1048576.");
ABSL_FLAG(DurationFlag, sim_per_cluster, DurationFlag{absl::Microseconds(2)},
          "--sim_bsd: cost per cluster; 0..1s.");
ABSL_FLAG(DurationFlag, sim_per_small, DurationFlag{absl::Microseconds(1)},
          "--sim_bsd: cost per small buffer; 0..1s.");
ABSL_FLAG(std::string, sim_jitter, "none",
          "--transport=sim: jitter added to each round trip: none, uniform (U[0, 2 scale)), "
          "normal (N(0, scale)) or exponential (mean scale).");
ABSL_FLAG(DurationFlag, sim_jitter_scale, DurationFlag{absl::Microseconds(1)},
          "--transport=sim: jitter scale (with --sim_jitter); 0..1s.");
ABSL_FLAG(std::string, role, "local",
          "local: the echo peer runs on this host; server: echo for tickbench clients on other "
          "hosts (see --listen) until SIGINT or SIGTERM, then exit 0; client: measure against "
          "the server at --peer, over --transport udp, udp6, tcp or tcp6. docs/remote.md.");
ABSL_FLAG(std::string, listen, "",
          "--role=server: ADDR:PORT to listen on ([ADDR]:PORT for IPv6), default "
          "127.0.0.1:7478; 0.0.0.0:7478 takes clients from anywhere. Data sockets use "
          "PORT+1 (UDP or TCP).");
ABSL_FLAG(std::string, peer, "",
          "--role=client: the server's ADDR:PORT ([ADDR]:PORT for IPv6), e.g. 10.0.0.2:7478.");
ABSL_FLAG(std::string, analyze, "",
          "Find the steps in a CSV instead of measuring: a CSV written by tickbench "
          "(--format=csv) or a plain two-column CSV of size,value. Relative to where you ran "
          "bazel run.");
ABSL_FLAG(std::string, analyze_column, "",
          "--analyze: the value column of a CSV with a header (default: averaged_rtt_ns, "
          "rtt_ns or value). A throughput column (bytes per second, 2n bytes per round trip) is "
          "turned into the round-trip time it implies.");
ABSL_FLAG(bool, explain, false,
          "After the steps, name the buffer layout (BSD socket clusters, fixed chunks, IPv4 "
          "fragments, or a straight line) that best explains the sweep, ranked by BIC.");
ABSL_FLAG(std::string, plot, "",
          "Draw the sweep (or the study's histograms) to this SVG file with gnuplot; the data "
          "goes beside it as .dat. Relative to where you ran bazel run.");
ABSL_FLAG(bool, list_clocks, false, "List the clocks this machine offers, then exit.");
ABSL_FLAG(std::string, clock_info, "",
          "Measure clocks and exit: 'all', or a comma-separated list of clock specs. Prints "
          "claimed and observed resolution, read cost and backward steps.");

namespace tickbench::harness {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFault = 1;
constexpr int kExitUsage = 2;

// Abseil's flag parser exits with status 1 on an unknown flag or a bad value. tickbench
// promises 2 for bad input, so an exit during parsing is rewritten by this handler. The
// help flags are handled here, after the parse: a bad flag beside --help is still an
// error (2); --help alone is 0.
int g_exit_code_during_parse = -1;
void RewriteParseExit() {
  if (g_exit_code_during_parse < 0) return;
  std::cout.flush();  // _exit() skips the flush that exit() would have done
  std::fflush(nullptr);
  _exit(g_exit_code_during_parse);
}

std::vector<std::string> ParseFlags(int argc, char** argv) {
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "harness/main.cc");
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  absl::SetFlagsUsageConfig(config);
  absl::SetProgramUsageMessage(
      "measures the round-trip time and throughput of IPC and network transports across "
      "message sizes, with the clock of your choice.\n\n"
      "  bazel run //harness                                  classic UNIX-socket throughput\n"
      "  bazel run //harness -- --experiment=udp_rtt          classic UDP round-trip times\n"
      "  bazel run //harness -- --clock=tick --tick_period=20ms   ... timed by a 50 Hz tick\n"
      "  bazel run //harness -- --list_clocks | --clock_info=all\n\n"
      "Exit codes: 0 done, 1 a fault during measurement, 2 bad input, 130/143 signal.");
  g_exit_code_during_parse = kExitUsage;
  std::atexit(RewriteParseExit);
  // Abseil 20220623 offers no public parse that leaves the help flags to the caller.
  std::vector<char*> rest = absl::flags_internal::ParseCommandLineImpl(
      argc, argv, absl::flags_internal::ArgvListAction::kRemoveParsedArgs,
      absl::flags_internal::UsageFlagsAction::kIgnoreUsage,
      absl::flags_internal::OnUndefinedFlag::kAbortIfUndefined);
  // Every flag parsed: now --help, --helpfull, --version, --only_check_args, ...
  if (absl::flags_internal::HandleUsageFlags(std::cout, absl::ProgramUsageMessage()) != -1) {
    g_exit_code_during_parse = kExitOk;
    std::exit(kExitOk);
  }
  g_exit_code_during_parse = -1;
  return std::vector<std::string>(rest.begin() + 1, rest.end());
}

// The names of the flags on the command line (Abseil 20220623 keeps
// IsSpecifiedOnCommandLine() private): "--name=v", "--name v", "-name", "--noname".
std::set<std::string> FlagsOnCommandLine(int argc, char** argv) {
  std::set<std::string> names;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) continue;
    const std::string name(arg.substr(0, arg.find('=')));
    names.insert(name);
    if (absl::StartsWith(name, "no")) names.insert(name.substr(2));
  }
  return names;
}

CommandLine ReadFlags(int argc, char** argv) {
  CommandLine c;
  c.experiment = absl::GetFlag(FLAGS_experiment);
  c.transport = absl::GetFlag(FLAGS_transport);
  c.clock = absl::GetFlag(FLAGS_clock);
  c.clock_id = absl::GetFlag(FLAGS_clock_id);
  c.tick_period = absl::GetFlag(FLAGS_tick_period).value;
  c.tick_phase = absl::GetFlag(FLAGS_tick_phase);
  c.uniqtime = absl::GetFlag(FLAGS_uniqtime);
  c.reference_clock = absl::GetFlag(FLAGS_reference_clock);
  c.sizes = absl::GetFlag(FLAGS_sizes);
  c.iterations = absl::GetFlag(FLAGS_iterations);
  c.runs = absl::GetFlag(FLAGS_runs);
  c.warmup = absl::GetFlag(FLAGS_warmup);
  c.batch = absl::GetFlag(FLAGS_batch);
  c.format = absl::GetFlag(FLAGS_format);
  c.output = absl::GetFlag(FLAGS_output);
  c.pin = absl::GetFlag(FLAGS_pin);
  c.seed = absl::GetFlag(FLAGS_seed);
  c.receive_timeout = absl::GetFlag(FLAGS_receive_timeout).value;
  c.allow_variable_cycle_counter = absl::GetFlag(FLAGS_allow_variable_cycle_counter);
  c.stop_on_loss = absl::GetFlag(FLAGS_stop_on_loss);
  c.busy_poll = absl::GetFlag(FLAGS_busy_poll);
  c.peer_drop_every = absl::GetFlag(FLAGS_peer_drop_every);
  c.peer_stop_after = absl::GetFlag(FLAGS_peer_stop_after);
  c.peer_reply_delay = absl::GetFlag(FLAGS_peer_reply_delay).value;
  c.clocks = absl::GetFlag(FLAGS_clocks);
  c.dither = absl::GetFlag(FLAGS_dither);
  c.gap = absl::GetFlag(FLAGS_gap).value;
  c.sim_fixed = absl::GetFlag(FLAGS_sim_fixed).value;
  c.sim_per_byte_ns = absl::GetFlag(FLAGS_sim_per_byte_ns);
  c.sim_bsd = absl::GetFlag(FLAGS_sim_bsd);
  c.sim_cluster = absl::GetFlag(FLAGS_sim_cluster);
  c.sim_threshold = absl::GetFlag(FLAGS_sim_threshold);
  c.sim_small = absl::GetFlag(FLAGS_sim_small);
  c.sim_per_cluster = absl::GetFlag(FLAGS_sim_per_cluster).value;
  c.sim_per_small = absl::GetFlag(FLAGS_sim_per_small).value;
  c.sim_jitter = absl::GetFlag(FLAGS_sim_jitter);
  c.sim_jitter_scale = absl::GetFlag(FLAGS_sim_jitter_scale).value;
  c.retries = absl::GetFlag(FLAGS_retries);
  c.role = absl::GetFlag(FLAGS_role);
  c.listen = absl::GetFlag(FLAGS_listen);
  c.peer = absl::GetFlag(FLAGS_peer);
  c.list_clocks = absl::GetFlag(FLAGS_list_clocks);
  c.clock_info = absl::GetFlag(FLAGS_clock_info);
  c.analyze = absl::GetFlag(FLAGS_analyze);
  c.analyze_column = absl::GetFlag(FLAGS_analyze_column);
  c.explain = absl::GetFlag(FLAGS_explain);
  c.plot = absl::GetFlag(FLAGS_plot);
  for (const std::string& name : FlagsOnCommandLine(argc, argv)) {
    if (absl::FindCommandLineFlag(name) != nullptr) c.specified.insert(name);
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> FlagValues(const CommandLine& c) {
  std::vector<std::pair<std::string, std::string>> values;
  for (const std::string& name : c.specified) {
    values.emplace_back(name, absl::FindCommandLineFlag(name)->CurrentValue());
  }
  return values;
}

int Usage(const absl::Status& status) {
  absl::FPrintF(stderr, "tickbench: %s\n", status.message());
  return kExitUsage;
}

// "--flag: message", unless the message already starts by naming the flag.
absl::Status WithFlag(absl::string_view flag, const absl::Status& status) {
  const std::string prefix = absl::StrCat("--", flag);
  if (absl::StartsWith(status.message(), absl::StrCat(prefix, ":")) ||
      absl::StartsWith(status.message(), absl::StrCat(prefix, " "))) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(prefix, ": ", status.message()));
}

// 128 + the signal when SIGINT or SIGTERM asked to stop, after saying so; else -1.
int ExitIfStopped(absl::string_view what) {
  if (!platform::StopRequested()) return -1;
  absl::FPrintF(stderr, "tickbench: stopped by signal %d %s\n", platform::StopSignal(), what);
  return 128 + platform::StopSignal();
}

int ListClocks() {
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  absl::PrintF("%s", FormatClockList(timing::AvailableClockSpecs(), environment));
  return kExitOk;
}

int ClockInfo(const std::string& which, bool allow_variable) {
  std::vector<timing::ClockSpec> specs;
  if (which == "all") {
    specs = timing::AvailableClockSpecs();
  } else {
    absl::StatusOr<std::vector<timing::ClockSpec>> parsed = timing::ParseClockSpecList(which);
    if (!parsed.ok()) {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--clock_info: ", parsed.status().message(), " (or all)")));
    }
    specs = *parsed;
  }
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = allow_variable;
  std::vector<ClockDescription> described;
  for (const timing::ClockSpec& spec : specs) {
    if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
    absl::StatusOr<std::unique_ptr<timing::Clock>> clock = timing::MakeClock(spec, environment);
    if (!clock.ok()) {
      if (which == "all") continue;  // listed by --list_clocks as unavailable
      return Usage(WithFlag("clock_info", clock.status()));
    }
    described.push_back(ClockDescription{"", (*clock)->info(), timing::ProbeClock(**clock)});
  }
  if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
  absl::PrintF("%s", FormatClockInfo(described));
  return kExitOk;
}

// --analyze: the steps (and with --explain the buffer layout) of a sweep in a CSV file.
int AnalyzeFile(const std::string& path, const std::string& column, bool explain,
                const std::string& plot) {
  const std::string resolved = ResolveUserPath(path);
  const std::string shown = absl::CHexEscape(resolved);
  std::string plot_path;
  if (!plot.empty()) {  // checked before the work, as a measurement's targets are
    absl::StatusOr<std::string> checked = CheckPlotTarget(plot);
    if (!checked.ok()) return Usage(checked.status());
    plot_path = *checked;
  }
  absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
  if (!text.ok()) {
    if (int stopped = ExitIfStopped("while reading --analyze's file"); stopped >= 0) return stopped;
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("--analyze: cannot read ", shown, ": ", text.status().message())));
  }
  analysis::CsvSweepOptions options;
  options.value_column = column;
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(*text, options);
  if (!sweep.ok()) {
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("--analyze: ", shown, ": ", sweep.status().message())));
  }
  if (absl::StrContains(sweep->value_name, "throughput") || sweep->unit == "B/s") {
    absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*sweep);
    if (!rtt.ok()) return Usage(WithFlag("analyze", rtt.status()));
    absl::PrintF("(throughput column %s read as the round-trip time it implies, 2n / throughput)\n",
                 absl::CHexEscape(sweep->value_name));
    sweep = std::move(rtt);
  }
  absl::PrintF("%s: %d sizes, %s\n", shown, sweep->points.size(),
               absl::CHexEscape(sweep->value_name));
  const analysis::SizeFacts facts = CollectSizeFacts("", std::nullopt, "");
  const SweepAnalysis analyzed = AnalyzeSweep(*sweep, facts, explain);
  absl::PrintF("%s", FormatSweepAnalysis(*sweep, facts, analyzed));
  if (!plot_path.empty()) {
    if (absl::Status s = PlotSweep(
            plot_path, *sweep,
            analyzed.steps.ok() ? analyzed.steps->steps : std::vector<analysis::Step>{}, resolved);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  if (int stopped = ExitIfStopped("during --analyze"); stopped >= 0) return stopped;
  return kExitOk;
}

// Prints `formatted`, writes it to --output, and turns how the run ended into the exit
// code. What was measured is printed and written in every case.
int Finish(const Plan& plan, const std::string& formatted, const absl::Status& status,
           size_t measured) {
  absl::PrintF("%s", formatted);
  std::fflush(stdout);
  int exit_code = kExitOk;
  if (!plan.output_path.empty()) {
    if (absl::Status s = WriteFileAtomically(plan.output_path, formatted); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: could not write %s\n", WithFlag("output", s).message());
      exit_code = kExitFault;
    }
  }
  if (platform::StopRequested()) {
    absl::FPrintF(stderr, "tickbench: stopped by signal %d after %d results; those are above%s\n",
                  platform::StopSignal(), measured, plan.output_path.empty() ? "" : " and written");
    return 128 + platform::StopSignal();
  }
  if (!status.ok()) {
    // DataLoss: the sweep ran to its end, but some size got no figure (RunSweep).
    absl::FPrintF(stderr, "tickbench: %s%s\n",
                  absl::IsDataLoss(status) ? "" : "the measurement ended early: ",
                  status.message());
    return kExitFault;
  }
  return exit_code;
}

// Waits on real hardware: a busy-wait, because a sleep would wake on a timer interrupt
// and so lock the next round trip's start to the tick it is meant to randomise against.
void BusyWait(int64_t nanos) {
  const int64_t deadline = timing::MonotonicNanos() + nanos;
  while (timing::MonotonicNanos() < deadline) {
  }
}

// --role=server: echoes for clients on other hosts until SIGINT or SIGTERM arrives
// (polled as a signalfd, no handler); 0 after that clean stop.
int RunServer(const remote::RoleOptions& role) {
  absl::StatusOr<transport::UniqueFd> stop = remote::BlockTerminationSignals();
  if (!stop.ok()) {
    absl::FPrintF(stderr, "tickbench server: %s\n", stop.status().message());
    return kExitFault;
  }
  remote::ServerOptions options;
  options.listen = role.listen;
  options.data_port = role.data_port;
  options.log = [](absl::string_view line) { absl::FPrintF(stderr, "tickbench server: %s\n", line); };
  absl::StatusOr<std::unique_ptr<remote::EchoServer>> server = remote::EchoServer::Listen(options);
  if (!server.ok()) return Usage(WithFlag("listen", server.status()));
  absl::FPrintF(stderr, "tickbench server: listening on %s, data port %s; SIGINT or SIGTERM stops\n",
                (*server)->address().ToString(),
                role.data_port == 0 ? "chosen per session" : absl::StrCat(role.data_port));
  if (absl::Status served = (*server)->Serve(stop->get()); !served.ok()) {
    absl::FPrintF(stderr, "tickbench server: %s\n", served.message());
    return kExitFault;
  }
  absl::FPrintF(stderr, "tickbench server: stopped\n");
  return kExitOk;
}

// The transport of a sweep: this host's, or with --role=client the server's at --peer.
absl::StatusOr<std::unique_ptr<transport::Transport>> MakeSweepTransport(const Plan& plan,
                                                                         const remote::RoleOptions& role) {
  if (role.role != remote::Role::kClient) return transport::MakeTransport(plan.transport);
  return remote::MakeRemoteTransport(plan.transport, role.peer, plan.sweep.sizes);
}

// Everything an experiment measures with, made before anything is measured. It stays
// where it is made: the simulated transport and clocks hold &simulated_time.
struct Experiment {
  Plan plan;
  // In a simulation every clock reads this virtual time, which only the simulated
  // transport (and the study's pauses) move.
  timing::VirtualClock simulated_time;
  std::unique_ptr<transport::Transport> transport;
  std::unique_ptr<timing::Clock> reference;           // null with --reference_clock=none
  std::vector<std::unique_ptr<timing::Clock>> clocks;  // the sweep's one, or the study's
  std::vector<ClockDescription> described;             // `clocks`, probed
  RunContext context;
  bool explain = false;  // --explain
};

// Makes the transport and the clocks of `e.plan` and probes them; an error is bad input.
absl::Status PrepareExperiment(const CommandLine& command_line, const remote::RoleOptions& role,
                               Experiment& e) {
  if (e.plan.simulate && role.role != remote::Role::kClient) {
    e.transport = std::make_unique<transport::SimTransport>(
        e.plan.sim_model, [&e](int64_t ns) { e.simulated_time.AdvanceNanos(ns); },
        e.plan.sim_faults);
    e.plan.environment.simulated_time = &e.simulated_time;
  } else {
    absl::StatusOr<std::unique_ptr<transport::Transport>> made = MakeSweepTransport(e.plan, role);
    if (!made.ok()) return made.status();
    e.transport = std::move(*made);
  }
  if (e.plan.has_reference) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made =
        timing::MakeClock(e.plan.reference, e.plan.environment);
    if (!made.ok()) {
      return WithFlag("reference_clock", made.status());
    }
    e.reference = std::move(*made);
  }
  const std::vector<timing::ClockSpec> specs =
      e.plan.study ? e.plan.study_clocks : std::vector<timing::ClockSpec>{e.plan.clock};
  for (const timing::ClockSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made = timing::MakeClock(spec, e.plan.environment);
    if (!made.ok()) {
      return WithFlag(e.plan.study ? "clocks" : "clock", made.status());
    }
    e.described.push_back(DescribeClock(**made, "clock", e.plan.simulate));
    e.clocks.push_back(std::move(*made));
  }
  std::vector<ClockDescription> context_clocks = e.described;
  if (e.reference) context_clocks.push_back(DescribeClock(*e.reference, "reference", e.plan.simulate));
  e.context = MakeRunContext(std::move(context_clocks), FlagValues(command_line));
  if (std::optional<std::string> warning =
          BusyPollWarning(e.plan.sweep.peer.busy_poll, e.transport->needs_local_peer(),
                          e.plan.sweep.pin_client_cpu, e.plan.sweep.pin_peer_cpu,
                          e.context.system.cpu_count)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  if (std::optional<std::string> warning = BlockingOnVirtualMachineWarning(
          e.plan.sweep.peer.busy_poll, e.plan.simulate, e.context.system.virtual_machine)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  return absl::OkStatus();
}

// --experiment=study: every clock in turn over one echo session.
int RunStudyExperiment(Experiment& e) {
  if (e.reference == nullptr) {  // MakePlan refuses it; never dereference a missing one
    return Usage(absl::InvalidArgumentError(
        "--reference_clock: the study compares every clock with the reference; "
        "--reference_clock=none is not allowed with --experiment=study"));
  }
  if (e.plan.sweep.pin_client_cpu >= 0) {
    if (absl::Status s = platform::PinCurrentThreadToCpu(e.plan.sweep.pin_client_cpu); !s.ok()) {
      return Usage(absl::InvalidArgumentError(absl::StrCat("--pin: ", s.message())));
    }
  }
  absl::StatusOr<EchoSession> session = EchoSession::Open(
      *e.transport, e.plan.sweep.peer, e.plan.sweep.pin_peer_cpu, e.plan.sweep.receive_timeout);
  if (!session.ok()) {
    absl::FPrintF(stderr, "tickbench: cannot start: %s\n", session.status().message());
    return kExitFault;
  }
  std::vector<StudyClock> study_clocks;
  for (size_t i = 0; i < e.clocks.size(); ++i) study_clocks.push_back({e.clocks[i].get(), e.described[i].probe});
  e.plan.study_options.reference_resolution_ns =
      absl::ToDoubleNanoseconds(std::max(e.context.clocks.back().probe.observed_resolution,
                                         e.reference->info().claimed_resolution));
  const PauseFunction pause = e.plan.simulate
                                  ? PauseFunction([&](int64_t ns) { e.simulated_time.AdvanceNanos(ns); })
                                  : PauseFunction(BusyWait);
  StudyOutcome outcome = RunStudy(session->client(), study_clocks, *e.reference, e.plan.study_options, pause);
  absl::Status closed = session->Close();
  if (outcome.status.ok()) outcome.status = closed;
  std::string formatted;
  switch (e.plan.format) {
    case OutputFormat::kTable: formatted = FormatStudyTable(outcome.cells); break;
    case OutputFormat::kCsv: formatted = FormatStudyCsv(outcome.cells); break;
    case OutputFormat::kJson: formatted = FormatStudyJson(e.context, outcome.cells); break;
  }
  if (!e.plan.plot_path.empty()) {
    if (absl::Status s = PlotStudyHistograms(e.plan.plot_path, outcome.cells); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  return Finish(e.plan, formatted, outcome.status, outcome.cells.size());
}

// A size sweep with one clock, then its steps (and with --explain the buffer layouts).
int RunSweepExperiment(Experiment& e, const remote::RoleOptions& role) {
  const bool show_progress = isatty(STDERR_FILENO);
  const SweepOutcome outcome = RunSweep(
      *e.transport, *e.clocks[0], e.reference.get(), e.plan.sweep,
      [&](int done, int total, const RunRecord& last) {
        if (show_progress) {
          absl::FPrintF(stderr, "\r  run %d, %d bytes: %d of %d measured ", last.run, last.size_bytes, done, total);
          if (done == total) absl::FPrintF(stderr, "\r%*s\r", 60, "");
        }
      });
  std::string formatted;
  switch (e.plan.format) {
    case OutputFormat::kTable: formatted = FormatTable(outcome.records, e.plan.preset.style); break;
    case OutputFormat::kCsv: formatted = FormatCsv(outcome.records); break;
    case OutputFormat::kJson: formatted = FormatJson(e.context, outcome.records, e.plan.preset.name); break;
  }
  // The steps follow the table; beside CSV or JSON they go to stderr.
  const analysis::Sweep sweep = RttSweepFromRecords(outcome.records);
  // The path MTU matters to IP transports only; AF_UNIX never touches an interface.
  const absl::string_view name = e.transport->name();
  const bool ip = absl::StartsWith(name, "udp") || absl::StartsWith(name, "tcp");
  // The route measured: to the server with --role=client, else the loopback.
  std::string peer_address;
  if (ip && !e.plan.simulate) {
    peer_address = role.role == remote::Role::kClient ? role.peer.Host()
                   : absl::EndsWith(name, "6")        ? "::1"
                                                      : "127.0.0.1";
  }
  const analysis::SizeFacts facts = CollectSizeFacts(std::string(name), outcome.socket_buffers, peer_address);
  const SweepAnalysis analyzed = AnalyzeSweep(sweep, facts, e.explain);
  const std::string analysis_text = FormatSweepAnalysis(sweep, facts, analyzed);
  if (e.plan.format == OutputFormat::kTable) {
    formatted += analysis_text;
  } else {
    absl::FPrintF(stderr, "%s", analysis_text);
  }
  if (!e.plan.plot_path.empty()) {
    const std::string title = absl::StrFormat("%s over %s, %s", e.plan.preset.name, e.transport->name(),
                                              e.clocks[0]->info().name);
    if (absl::Status s = PlotSweep(
            e.plan.plot_path, sweep,
            analyzed.steps.ok() ? analyzed.steps->steps : std::vector<analysis::Step>{}, title);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  return Finish(e.plan, formatted, outcome.status, outcome.records.size());
}

// A measurement. The stop handlers are installed by the caller, before anything here
// (the transport, the clock probes) can take long.
int RunExperiment(const CommandLine& command_line, const remote::RoleOptions& role) {
  absl::StatusOr<Plan> plan = MakePlan(command_line);
  if (!plan.ok()) return Usage(plan.status());
  Experiment e;
  e.plan = *std::move(plan);
  e.explain = command_line.explain;
  if (absl::Status prepared = PrepareExperiment(command_line, role, e); !prepared.ok()) {
    if (int stopped = ExitIfStopped("while preparing"); stopped >= 0) return stopped;
    return Usage(prepared);
  }
  if (int stopped = ExitIfStopped("while preparing; nothing was measured"); stopped >= 0) {
    return stopped;
  }
  // The context goes first, to stderr when stdout carries CSV or JSON for a parser.
  std::FILE* context_stream = e.plan.format == OutputFormat::kTable ? stdout : stderr;
  absl::FPrintF(context_stream, "%s# experiment %s over %s%s%s: %d sizes x %d runs x %d round trips\n",
                FormatContextComment(e.context), e.plan.preset.name, e.transport->name(),
                e.plan.simulate ? " (simulated, virtual time)" : "",
                e.plan.sweep.peer.busy_poll ? " (busy-poll receives)" : "", e.plan.sweep.sizes.size(),
                e.plan.sweep.runs, e.plan.sweep.engine.iterations);
  std::fflush(context_stream);
  return e.plan.study ? RunStudyExperiment(e) : RunSweepExperiment(e, role);
}

}  // namespace
}  // namespace tickbench::harness

int main(int argc, char** argv) {
  using namespace tickbench::harness;
  // A peer gone mid-write must be an error status, not a signal that kills the harness
  // before it writes what it measured. Ignoring SIGPIPE up front also lets the pipe
  // transport write without blocking the signal around each write (~0.5 us a write).
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::string> positional = ParseFlags(argc, argv);
  if (!positional.empty()) {
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", absl::CHexEscape(positional[0]),
                     "'; flags take the form --name=value (see --help)")));
  }
  const CommandLine command_line = ReadFlags(argc, argv);
  absl::StatusOr<Mode> mode = ChooseMode(command_line);
  if (!mode.ok()) return Usage(mode.status());
  if (*mode == Mode::kListClocks) return ListClocks();
  // The server polls SIGINT and SIGTERM as a signalfd; every other mode records them
  // with the stop handlers, installed before anything that may take long.
  if (*mode != Mode::kServer) {
    if (absl::Status installed = tickbench::platform::InstallStopHandlers(); !installed.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", installed.message());
      return 1;
    }
  }
  if (*mode == Mode::kAnalyze) {
    return AnalyzeFile(command_line.analyze, command_line.analyze_column, command_line.explain,
                       command_line.plot);
  }
  if (*mode == Mode::kClockInfo) {
    return ClockInfo(command_line.clock_info, command_line.allow_variable_cycle_counter);
  }
  absl::StatusOr<tickbench::remote::RoleOptions> role = tickbench::remote::ParseRoleOptions(
      command_line.role, command_line.listen, command_line.peer);
  if (!role.ok()) return Usage(role.status());
  if (role->role == tickbench::remote::Role::kServer) return RunServer(*role);
  return RunExperiment(command_line, *role);
}
