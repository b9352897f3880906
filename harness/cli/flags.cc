// Every flag of tickbench, defined once. A flag's default is CommandLine's (command_line.h),
// so each default is written once; ReadFlags is the only reader of the flags' values.
// Over 400 lines because it is the one place every flag is defined, with its help.
#include "harness/cli/flags.h"

#include <unistd.h>

#include <algorithm>
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
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/cli/duration_flag.h"
#include "harness/cli/flag_hints.h"
#include "harness/cli/flag_settings.h"
#include "harness/cli/flagfile/flag_file.h"
#include "harness/cli/help/grouped_help.h"
#include "harness/cli/plan_clocks.h"
#include "harness/cli/presets.h"
#include "harness/output/build_info.h"
#include "harness/output/command_status.h"
#include "timing/clocks/clock_registry.h"
#include "transport/registry/transport_registry.h"

namespace {

// The defaults of every flag: CommandLine's member initialisers.
const tickbench::harness::CommandLine& Defaults() {
  static const tickbench::harness::CommandLine* const defaults =
      new tickbench::harness::CommandLine();
  return *defaults;
}

// "gettimeofday, clock_gettime:monotonic, ...": the study's default clocks on this machine
// (the cycle counter only where there is one), for the help of --clocks.
std::string StudyClocksForHelp(bool simulate) {
  std::string text;
  for (const tickbench::timing::ClockSpec& spec :
       tickbench::harness::DefaultStudyClocks(simulate)) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", tickbench::timing::ClockSpecToString(spec));
  }
  return text;
}

// "udp, udp6, tcp or tcp6": the transports that reach another host, for the help of --role.
std::string RemoteTransportsForHelp() {
  return tickbench::transport::TransportNamesWhere(
      [](const tickbench::transport::TransportInfo& row) { return row.remote_code != 0; }, " or ");
}

}  // namespace

// Duration flags take a unit (5s, 250ms, 100us); a bare number is refused naming them.
using tickbench::harness::DurationFlag;

ABSL_FLAG(std::string, experiment, Defaults().experiment,
          "What to run: unix_throughput (classic 1: UNIX stream socket, throughput against "
          "size, 1000 iterations x 4 runs), udp_rtt (classic 2: UDP/IPv4, RTT against size, "
          "50..2000 step 50, 5000 round trips), study (the timer-resolution study over "
          "--clocks), or sweep (the flags' own values). Flags given with a preset override it.");
// The lists of transports, clocks and clock ids in these help texts are the registries'
// (transport/registry/transport_registry.h, timing/clocks/clock_registry.h), built when --help
// asks.
ABSL_FLAG(std::string, transport, Defaults().transport,
          absl::StrCat("Transport: ", tickbench::transport::TransportNamesForHelp(),
                       ". Default: the experiment's."));
ABSL_FLAG(std::string, clock, Defaults().clock,
          absl::StrCat("Clock that times the round trips, a spec: ",
                       tickbench::timing::ClockKindsForHelp(),
                       "; clock_gettime takes its ID from --clock_id and tick its PERIOD from "
                       "--tick_period, or write them in the spec (tick:20ms, "
                       "clock_gettime:monotonic_coarse). --list_clocks shows them all."));
ABSL_FLAG(std::string, clock_id, Defaults().clock_id,
          absl::StrCat("clock_gettime clock id: ", tickbench::timing::ClockIdNamesForHelp(), "."));
ABSL_FLAG(DurationFlag, tick_period, DurationFlag{Defaults().tick_period},
          "Period of --clock=tick, a duration: 10ms = 100 Hz, 20ms = 50 Hz (a 100 Hz clock "
          "with every other interrupt lost, as on the Sun-3); 2us..1h.");
ABSL_FLAG(std::string, tick_phase, Defaults().tick_phase,
          "Where the tick edges fall: 'random' (a new seeded phase per run and size) or a "
          "fixed duration in [0, tick_period), e.g. 0ms.");
ABSL_FLAG(bool, uniqtime, Defaults().uniqtime,
          "With --clock=tick: add 1 us per read within a tick, as SunOS's gettimeofday did "
          "to keep readings unique.");
ABSL_FLAG(std::string, reference_clock, Defaults().reference_clock,
          "Fine clock read at the same instants as --clock: auto (rdtsc where the TSC is "
          "invariant, else clock_gettime:monotonic), none, or any clock spec.");
ABSL_FLAG(std::string, sizes, Defaults().sizes,
          "Message sizes in bytes: a list (32,512,1024), ranges start:stop:step (50:2000:50), "
          "or both; 1k = 1024. Default: the experiment's. Each must fit the transport's "
          "largest message.");
ABSL_FLAG(int64_t, iterations, Defaults().iterations,
          "Timed round trips per size and run (unix_throughput: 1000, udp_rtt: 5000). The study "
          "on real hardware without it chooses each cell's N: at least 1000, and 100 T / d so "
          "that the averaged figure resolves (T/N within 1% of the round trip d timed by a "
          "200-trip pilot), within its time budget and 200000.");
ABSL_FLAG(int64_t, runs, Defaults().runs, "Runs per size (unix_throughput: 4, udp_rtt: 1).");
ABSL_FLAG(int64_t, warmup, Defaults().warmup,
          "Untimed round trips before each run's timed ones: a count, or -1 for until the "
          "round trip is steady (at least 400 trips and 10 ms, then windows of 200 trips until "
          "one's median is no more than 1% below the window's before it; at most 1 s). The "
          "context line and the JSON say how long each warm-up was and why it ended.");
ABSL_FLAG(int64_t, pipe_size, Defaults().pipe_size,
          "--transport=pipe: each pipe's capacity in bytes, set with F_SETPIPE_SZ (the kernel "
          "rounds it up to a power of two pages; what it granted is among the analysis's system "
          "sizes). 0: the kernel's (64 KiB on Linux). Without privilege at most "
          "/proc/sys/fs/pipe-max-size.");
ABSL_FLAG(int64_t, so_sndbuf, Defaults().so_sndbuf,
          "--transport=unix_stream: SO_SNDBUF in bytes asked for on both ends (Linux doubles the "
          "request; what it granted, and the largest skb it allows, are among the analysis's "
          "system sizes). 0: the kernel's. At most net.core.wmem_max.");
ABSL_FLAG(int64_t, so_rcvbuf, Defaults().so_rcvbuf,
          "--transport=unix_stream: SO_RCVBUF in bytes asked for on both ends, as --so_sndbuf. "
          "0: the kernel's. At most net.core.rmem_max.");
ABSL_FLAG(std::string, precision, Defaults().precision,
          "Run until known: after --runs runs, one more run of each size whose averaged "
          "figure's 95% interval is wider than +-P% is added, round after round, until each "
          "is within it, its runs fall in two groups (named in the table: more runs would not "
          "make one figure of them), 64 valid runs, or --max_time; the table and JSON say "
          "which, per size. A percentage (2%) or 0 for exactly --runs. Default: 2% when "
          "neither --runs nor --iterations is given, else 0 (the counts given are kept "
          "exactly, and the table says what precision they reached).");
ABSL_FLAG(DurationFlag, max_time, DurationFlag{Defaults().max_time},
          "Run until known: no run of a size is added that would end later than this after "
          "the sweep began (the first --runs rounds are always measured). The study on real "
          "hardware without --iterations shares it among its cells when it chooses each "
          "cell's N (default there 3m).");
ABSL_FLAG(int64_t, batch, Defaults().batch,
          "Round trips per per-iteration reading: 1 times every round trip; --batch equal to "
          "--iterations is the averaged case alone.");
ABSL_FLAG(std::string, format, Defaults().format, "Output format: table, csv or json.");
ABSL_FLAG(bool, csv_context, Defaults().csv_context,
          "--format=csv: begin the CSV with the context (host, build, clocks, settings) as "
          "'#' lines, which tickbench's --analyze skips; false leaves them out (they then go "
          "to standard error).");
ABSL_FLAG(bool, wide, Defaults().wide,
          "--format=table: every column (reference SD, retried runs; in the study, the phase "
          "test and the probe effect); by default a table fits 100 columns with one time unit.");
ABSL_FLAG(bool, quiet, Defaults().quiet,
          "No progress line on standard error while a sweep runs (by default one at most once a "
          "second after the first, written between runs, never during one: rewritten in place on "
          "a terminal, a line each otherwise).");
ABSL_FLAG(std::string, output, Defaults().output,
          "Write the results in --format to this file, whole or not at all (a relative path is "
          "relative to where you ran bazel run; only a new or regular file is written). As "
          "Google Benchmark's --benchmark_out: the console keeps its table, the file gets "
          "--format. - is standard output, which then gets --format instead of the table.");
ABSL_FLAG(std::string, percentiles, Defaults().percentiles,
          "Per-iteration percentiles for CSV and JSON, pooled over every valid reading of "
          "every run of a size, each with a 95% interval from order statistics: up to 12, "
          "each above 0 and below 100, e.g. 50,90,99,99.9.");
ABSL_FLAG(std::string, raw, Defaults().raw,
          "A sweep: also write every per-iteration reading to this CSV file (size_bytes, run, "
          "index, measured_ns, reference_ns, valid, attempt; per round trip; an interval cut "
          "out for a fault has valid 0), whole or not at all.");
ABSL_FLAG(std::string, pin, Defaults().pin,
          "Pin to CPUs: CLIENT or CLIENT,PEER (CPU numbers), e.g. 0,1. Default: not pinned.");
ABSL_FLAG(uint64_t, seed, Defaults().seed, "Seed for everything random (tick phases).");
ABSL_FLAG(DurationFlag, receive_timeout, DurationFlag{Defaults().receive_timeout},
          "Longest wait for one echo: a lost datagram is counted after this long; a silent "
          "stream or pipe peer ends the run after this long, or up to a quarter more (from "
          "20ms their waits are bounded by a periodic tick, not a timer per receive). Not given: "
          "1s during the warm-up, then 1000 times the warm-up's median round trip, within "
          "[250ms, 10s]. Given: 1us..1h, or none: receives without "
          "a bound, as the bare loop's (no watchdog, no SO_RCVTIMEO; a local echo peer "
          "only; a lost datagram or a stopped peer then holds the run until Ctrl-C).");
ABSL_FLAG(bool, busy_poll, Defaults().busy_poll,
          "Receive by busy polling: client and echo peer spin on non-blocking receives "
          "instead of sleeping in the kernel until the echo arrives, which takes the wake-up "
          "out of the round trip at the price of a CPU kept busy on each side. Give each side "
          "a CPU of its own with --pin=CLIENT,PEER. Not for --transport=sim.");
ABSL_FLAG(bool, stop_on_loss, Defaults().stop_on_loss,
          "End the run at the first lost datagram instead of counting it and going on.");
ABSL_FLAG(int64_t, retries, Defaults().retries,
          "Runs of a size that lost a round trip are measured again, up to this many times "
          "more (a lost round trip is never timed); 0..100.");
ABSL_FLAG(int64_t, peer_drop_every, Defaults().peer_drop_every,
          "Test hook: the echo peer does not answer every k-th datagram (datagram transports "
          "and sim). 0 = off.");
ABSL_FLAG(int64_t, peer_stop_after, Defaults().peer_stop_after,
          "Test hook: the echo peer stops (as if it died) after this many echoes. 0 = off.");
ABSL_FLAG(DurationFlag, peer_reply_delay, DurationFlag{Defaults().peer_reply_delay},
          "Test hook: the echo peer waits this long before each echo (0..10s); an echo later "
          "than the receive timeout is a lost one.");
ABSL_FLAG(bool, allow_variable_cycle_counter, Defaults().allow_variable_cycle_counter,
          "Use the cycle counter even where it is not invariant (its rate then follows the "
          "CPU's frequency: results may be wrong).");
ABSL_FLAG(std::string, clocks, Defaults().clocks,
          absl::StrCat("--experiment=study: the clocks to compare, comma-separated specs. "
                       "Default: ",
                       StudyClocksForHelp(false), " (in simulation: ", StudyClocksForHelp(true),
                       ")."));
ABSL_FLAG(bool, dither, Defaults().dither,
          "--experiment=study: pause a seeded random time in [0, T) before each per-iteration "
          "round trip, so that its start falls at a random phase of the tick (costs N x T/2 of "
          "waiting on real hardware).");
ABSL_FLAG(DurationFlag, gap, DurationFlag{Defaults().gap},
          "--experiment=study: unmeasured time between per-iteration round trips (work the "
          "client does between them); a gap that makes the loop period a multiple of the tick "
          "locks the phase; 0..1s.");
ABSL_FLAG(DurationFlag, sim_fixed, DurationFlag{Defaults().sim_fixed},
          "--transport=sim: fixed cost of a round trip; 0..1h.");
ABSL_FLAG(double, sim_per_byte_ns, Defaults().sim_per_byte_ns,
          "--transport=sim: cost per message byte, ns per round trip; 0..1e6.");
ABSL_FLAG(bool, sim_bsd, Defaults().sim_bsd,
          "--transport=sim: add the classic BSD socket buffer costs: a remainder of at least "
          "--sim_threshold bytes takes a --sim_cluster-byte cluster, a smaller one "
          "--sim_small-byte small buffers; each buffer costs --sim_per_cluster or "
          "--sim_per_small, twice per round trip.");
ABSL_FLAG(int64_t, sim_cluster, Defaults().sim_cluster,
          "--sim_bsd: cluster size, bytes (4.3BSD: 1024); 1..1048576.");
ABSL_FLAG(int64_t, sim_threshold, Defaults().sim_threshold,
          "--sim_bsd: smallest remainder that takes a cluster, bytes (4.3BSD: 512; older: 1024); "
          "1..--sim_cluster.");
ABSL_FLAG(int64_t, sim_small, Defaults().sim_small,
          "--sim_bsd: small buffer size, bytes (4.3BSD MLEN: 112); 1..1048576.");
ABSL_FLAG(DurationFlag, sim_per_cluster, DurationFlag{Defaults().sim_per_cluster},
          "--sim_bsd: cost per cluster; 0..1s.");
ABSL_FLAG(DurationFlag, sim_per_small, DurationFlag{Defaults().sim_per_small},
          "--sim_bsd: cost per small buffer; 0..1s.");
ABSL_FLAG(std::string, sim_jitter, Defaults().sim_jitter,
          "--transport=sim: jitter added to each round trip: none, uniform (U[0, 2 scale)), "
          "normal (N(0, scale)) or exponential (mean scale).");
ABSL_FLAG(DurationFlag, sim_jitter_scale, DurationFlag{Defaults().sim_jitter_scale},
          "--transport=sim: jitter scale (with --sim_jitter); 0..1s.");
ABSL_FLAG(int64_t, sim_mtu, Defaults().sim_mtu,
          "--transport=sim: a link of this MTU, bytes (68..1048576; 0: none). The message "
          "travels as one UDP datagram over IPv4, fragmented past MTU - 28 bytes; each packet "
          "costs --sim_per_packet and its bytes and headers at --sim_link_rate, each way.");
ABSL_FLAG(double, sim_link_rate, Defaults().sim_link_rate,
          "--sim_mtu: the link's rate, bits per second (1e3..1e13; 0: no wire time).");
ABSL_FLAG(DurationFlag, sim_per_packet, DurationFlag{Defaults().sim_per_packet},
          "--sim_mtu: cost per IPv4 packet (every fragment), each way; 0..1s.");
ABSL_FLAG(std::string, role, Defaults().role,
          absl::StrCat("local: the echo peer runs on this host; server: echo for tickbench "
                       "clients on other hosts (see --listen) until SIGINT or SIGTERM, then exit "
                       "0; client: measure against the server at --peer, over --transport ",
                       RemoteTransportsForHelp(), ". docs/remote.md."));
ABSL_FLAG(std::string, listen, Defaults().listen,
          "--role=server: ADDR:PORT to listen on ([ADDR]:PORT for IPv6), default "
          "127.0.0.1:7478; 0.0.0.0:7478 takes clients from anywhere. Data sockets use "
          "PORT+1 (UDP or TCP).");
ABSL_FLAG(std::string, peer, Defaults().peer,
          "--role=client: the server's ADDR:PORT ([ADDR]:PORT for IPv6), e.g. 10.0.0.2:7478.");
ABSL_FLAG(std::string, analyze, Defaults().analyze,
          "Find the steps in a CSV instead of measuring: a CSV written by tickbench "
          "(--format=csv) or a plain two-column CSV of size,value. Relative to where you ran "
          "bazel run.");
ABSL_FLAG(std::string, analyze_column, Defaults().analyze_column,
          "--analyze: the value column of a CSV with a header (default: averaged_rtt_ns, "
          "rtt_ns or value). A throughput column (bytes per second, 2n bytes per round trip) is "
          "turned into the round-trip time it implies.");
ABSL_FLAG(bool, explain, Defaults().explain,
          "After the steps, name the buffer layout (BSD socket clusters, fixed chunks, IPv4 "
          "fragments, or a straight line) that best explains the sweep, ranked by BIC.");
ABSL_FLAG(bool, fit_sim, Defaults().fit_sim,
          "--analyze: fit the simulated transport's costs (fixed, per byte, per cluster, per "
          "small buffer, per packet) to the curve and print the flags that replay it, on a line "
          "starting 'sim flags:'.");
ABSL_FLAG(std::string, compare, Defaults().compare,
          "A mode of its own: compare two sweeps' JSON results, A.json,B.json: per size the "
          "ratio B/A of the averaged and per-iteration figures with a 95% interval and a "
          "verdict at 5% (--format=table, csv or json). Each file: a regular file of at most "
          "64 MiB, 4,000,000 JSON values and 10,000 sizes.");
ABSL_FLAG(std::string, plot, Defaults().plot,
          "Draw the sweep (or the study's histograms) to this SVG file with gnuplot; the data "
          "goes beside it as .dat. Relative to where you ran bazel run.");
ABSL_FLAG(std::string, report, Defaults().report,
          "Write one self-contained HTML page of the sweep, the study or the matrix (rank 0 "
          "writes it, a heat map of every pair) to this file: what ran where, the tables, the "
          "verdicts in words and the plots (inline SVG; nothing fetched). Open it in a browser. "
          "Relative to where you ran bazel run.");
ABSL_FLAG(bool, list_clocks, Defaults().list_clocks,
          "List the clocks this machine offers, then exit.");
ABSL_FLAG(std::string, clock_info, Defaults().clock_info,
          "Measure clocks and exit: 'all', or a comma-separated list of clock specs. Prints "
          "claimed and observed resolution, read cost and backward steps.");

namespace tickbench::harness {
namespace {

// Abseil's flag parser exits with status 1 on an unknown flag or a bad value. tickbench
// promises 2 for bad input, so an exit during parsing is rewritten by this handler. The
// help flags are handled here, after the parse: a bad flag beside --help is still an
// error (2); --help alone is 0.
int g_exit_code_during_parse = -1;
void RewriteParseExit() {
  if (g_exit_code_during_parse < 0) return;
  std::cout.flush();  // _exit() skips the flush that exit() would have done
  // --help or --version written to a full disk is exit 1, as every mode's output is.
  _exit(ExitAfterStandardStreams(g_exit_code_during_parse));
}

// The mistakes tickbench names itself, one line each, before Abseil's parser sees the
// command line: unknown flags (with the nearest name) and number values a flag cannot hold
// (with its range). Abseil would print its own "ERROR: ..." line for each as well, so the
// parse does not run when there is one. With --undefok the unknown flags are Abseil's to
// judge.
std::vector<std::string> MistakesBeforeParse(const std::vector<std::string>& given) {
  std::vector<std::string> lines;
  const bool undefok = std::any_of(given.begin(), given.end(), [](const std::string& arg) {
    return absl::StartsWith(arg, "--undefok") || absl::StartsWith(arg, "-undefok");
  });
  // Abseil's usage flags are not among the registered ones.
  std::vector<std::string> names = RegisteredFlagNames();
  for (const char* usage : {"help", "helpfull", "helpshort", "helppackage", "helpon", "helpmatch",
                            "version", "only_check_args"}) {
    if (std::find(names.begin(), names.end(), usage) == names.end()) names.push_back(usage);
  }
  if (!undefok) lines = UnknownFlagHints(given, names, RegisteredFlagTakesValue);
  for (std::string& line : NumberValueHints(given)) lines.push_back(std::move(line));
  return lines;
}

// The experiments, each described in lines of at most 100 columns, for --help.
std::string ExperimentTableForHelp() {
  std::string text;
  for (const tickbench::harness::Preset& preset : tickbench::harness::Presets()) {
    std::string line = absl::StrFormat("  %-16s", preset.name);
    for (absl::string_view word : absl::StrSplit(preset.description, ' ')) {
      if (line.size() + 1 + word.size() > 100) {
        absl::StrAppend(&text, line, "\n");
        line = std::string(18, ' ');
      }
      absl::StrAppend(&line, " ", word);
    }
    absl::StrAppend(&text, line, "\n");
  }
  return text;
}

void SetUsage() {
  absl::FlagsUsageConfig config;
  config.version_string = [] { return VersionLine() + "\n"; };
  config.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "harness/cli/flags.cc");
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  absl::SetFlagsUsageConfig(config);
  absl::SetProgramUsageMessage(absl::StrCat(
      "measures the round-trip time and throughput of IPC and network transports across "
      "message sizes, with the clock of your choice.\n\n"
      "  bazel run //harness                                  classic UNIX-socket throughput\n"
      "  bazel run //harness -- --experiment=udp_rtt          classic UDP round-trip times\n"
      "  bazel run //harness -- --clock=tick --tick_period=20ms   ... timed by a 50 Hz tick\n"
      "  bazel run //harness -- --list_clocks | --clock_info=all\n\n"
      "Transports (--transport):\n",
      tickbench::transport::TransportTableForHelp(), "\nExperiments (--experiment):\n",
      ExperimentTableForHelp(), "\nClocks (--clock, --clocks, --reference_clock):\n",
      tickbench::timing::ClockKindTableForHelp(),
      "\nExit codes: 0 done, 1 a fault during measurement, 2 bad input, 130/143 signal."));
}

// Whether the command line asks for the grouped help: --help (or -h) without a value.
bool AsksForHelp(const std::vector<std::string>& given) {
  for (const FlagArgument& flag : ScanFlags(given, RegisteredFlagTakesValue)) {
    if (flag.name == "help" && !flag.value.has_value()) return true;
  }
  return false;
}

// "harness" of "/path/to/harness".
std::string ProgramName(const char* argv0) {
  const absl::string_view path = argv0 == nullptr ? "tickbench" : argv0;
  const size_t slash = path.rfind('/');
  return std::string(slash == absl::string_view::npos ? path : path.substr(slash + 1));
}

// The arguments left after the flags, without the program name.
// -h is --help.
std::vector<std::string> ParseFlags(int argc, char** argv) {
  SetUsage();
  std::vector<char*> args(argv, argv + argc);
  static char help[] = "--help";
  for (int i = 1; i < argc && absl::string_view(args[i]) != "--"; ++i) {
    if (absl::string_view(args[i]) == "-h") args[i] = help;
  }
  const std::vector<std::string> given(args.begin() + 1, args.end());
  if (const std::vector<std::string> mistakes = MistakesBeforeParse(given); !mistakes.empty()) {
    for (const std::string& line : mistakes) std::cerr << line << "\n";
    std::exit(kExitUsage);
  }
  g_exit_code_during_parse = kExitUsage;
  std::atexit(RewriteParseExit);
  // Abseil 20220623 offers no public parse that leaves the help flags to the caller.
  std::vector<char*> rest = absl::flags_internal::ParseCommandLineImpl(
      argc, args.data(), absl::flags_internal::ArgvListAction::kRemoveParsedArgs,
      absl::flags_internal::UsageFlagsAction::kIgnoreUsage,
      absl::flags_internal::OnUndefinedFlag::kAbortIfUndefined);
  // Every flag parsed: now --help (tickbench's groups), then Abseil's --helpfull,
  // --help=SUBSTRING, --version, --only_check_args, ...
  if (AsksForHelp(given)) {
    std::cout << ProgramName(argv[0]) << ": " << absl::ProgramUsageMessage() << "\n"
              << GroupedFlagHelp()
              << "\n--helpfull lists Abseil's own flags too; --help=SUBSTRING the flags whose "
                 "name or help holds SUBSTRING.\n";
    g_exit_code_during_parse = kExitOk;
    std::exit(kExitOk);
  }
  if (absl::flags_internal::HandleUsageFlags(std::cout, absl::ProgramUsageMessage()) != -1) {
    g_exit_code_during_parse = kExitOk;
    std::exit(kExitOk);
  }
  g_exit_code_during_parse = -1;
  return std::vector<std::string>(rest.begin() + 1, rest.end());
}

// The names of the flags on the command line (Abseil 20220623 keeps
// IsSpecifiedOnCommandLine() private), "--noname" as both "noname" and "name".
std::set<std::string> FlagsOnCommandLine(int argc, char** argv) {
  std::set<std::string> names;
  for (const FlagArgument& flag :
       ScanFlags(std::vector<std::string>(argv + 1, argv + argc), RegisteredFlagTakesValue)) {
    names.insert(flag.name);
    if (absl::StartsWith(flag.name, "no")) names.insert(flag.name.substr(2));
  }
  return names;
}

void ReadMeasurementFlags(CommandLine& c) {
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
  c.precision = absl::GetFlag(FLAGS_precision);
  c.pipe_size = absl::GetFlag(FLAGS_pipe_size);
  c.so_sndbuf = absl::GetFlag(FLAGS_so_sndbuf);
  c.so_rcvbuf = absl::GetFlag(FLAGS_so_rcvbuf);
  c.max_time = absl::GetFlag(FLAGS_max_time).value;
  c.batch = absl::GetFlag(FLAGS_batch);
  c.format = absl::GetFlag(FLAGS_format);
  c.csv_context = absl::GetFlag(FLAGS_csv_context);
  c.quiet = absl::GetFlag(FLAGS_quiet);
  c.wide = absl::GetFlag(FLAGS_wide);
  c.output = absl::GetFlag(FLAGS_output);
  c.percentiles = absl::GetFlag(FLAGS_percentiles);
  c.raw = absl::GetFlag(FLAGS_raw);
  c.pin = absl::GetFlag(FLAGS_pin);
  c.seed = absl::GetFlag(FLAGS_seed);
  c.receive_timeout = absl::GetFlag(FLAGS_receive_timeout).value;
  c.receive_timeout_none = absl::GetFlag(FLAGS_receive_timeout).none;
  c.allow_variable_cycle_counter = absl::GetFlag(FLAGS_allow_variable_cycle_counter);
  c.stop_on_loss = absl::GetFlag(FLAGS_stop_on_loss);
  c.busy_poll = absl::GetFlag(FLAGS_busy_poll);
  c.retries = absl::GetFlag(FLAGS_retries);
  c.peer_drop_every = absl::GetFlag(FLAGS_peer_drop_every);
  c.peer_stop_after = absl::GetFlag(FLAGS_peer_stop_after);
  c.peer_reply_delay = absl::GetFlag(FLAGS_peer_reply_delay).value;
  c.clocks = absl::GetFlag(FLAGS_clocks);
  c.dither = absl::GetFlag(FLAGS_dither);
  c.gap = absl::GetFlag(FLAGS_gap).value;
}

void ReadSimulationFlags(CommandLine& c) {
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
  c.sim_mtu = absl::GetFlag(FLAGS_sim_mtu);
  c.sim_link_rate = absl::GetFlag(FLAGS_sim_link_rate);
  c.sim_per_packet = absl::GetFlag(FLAGS_sim_per_packet).value;
}

void ReadModeFlags(CommandLine& c) {
  c.role = absl::GetFlag(FLAGS_role);
  c.listen = absl::GetFlag(FLAGS_listen);
  c.peer = absl::GetFlag(FLAGS_peer);
  c.list_clocks = absl::GetFlag(FLAGS_list_clocks);
  c.clock_info = absl::GetFlag(FLAGS_clock_info);
  c.analyze = absl::GetFlag(FLAGS_analyze);
  c.analyze_column = absl::GetFlag(FLAGS_analyze_column);
  c.explain = absl::GetFlag(FLAGS_explain);
  c.fit_sim = absl::GetFlag(FLAGS_fit_sim);
  c.plot = absl::GetFlag(FLAGS_plot);
  c.report = absl::GetFlag(FLAGS_report);
  c.compare = absl::GetFlag(FLAGS_compare);
}

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, char** argv) {
  ParsedCommandLine parsed;
  // --flagfile is read here, under the command line's rules (flag_file.h), not by Abseil.
  absl::StatusOr<std::vector<std::string>> expanded =
      ExpandFlagFiles(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
  if (!expanded.ok()) {
    std::cerr << "tickbench: " << expanded.status().message() << "\n";
    std::exit(kExitUsage);
  }
  std::vector<std::string> args = {argc > 0 ? argv[0] : "tickbench"};
  args.insert(args.end(), expanded->begin(), expanded->end());
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  argc = static_cast<int>(args.size());
  argv = pointers.data();
  parsed.positional = ParseFlags(argc, argv);
  CommandLine& c = parsed.flags;
  ReadMeasurementFlags(c);
  ReadSimulationFlags(c);
  ReadModeFlags(c);
  for (const std::string& name : FlagsOnCommandLine(argc, argv)) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) continue;
    c.specified.insert(name);
    c.given_values.emplace_back(name, flag->CurrentValue());
  }
  c.settings = FlagSettings(c.specified);
  return parsed;
}

}  // namespace tickbench::harness
