#include "harness/cli_options.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/output_file.h"
#include "harness/plot.h"
#include "harness/size_list.h"
#include "platform/cpu_affinity.h"
#include "platform/cycle_counter.h"
#include "timing/cycle_clock.h"
#include "transport/sim_transport.h"
#include "transport/transport_factory.h"
#include "transport/transport_registry.h"

namespace tickbench::harness {

bool AbslParseFlag(absl::string_view text, DurationFlag* flag, std::string* error) {
  if (absl::ParseDuration(absl::StripAsciiWhitespace(text), &flag->value)) return true;
  double number = 0;
  *error = absl::SimpleAtod(text, &number)
               ? "a duration needs a unit: e.g. 5s, 250ms, 100us (units: ns, us, ms, s, m, h)"
               : "not a duration: write e.g. 5s, 250ms, 100us (units: ns, us, ms, s, m, h)";
  return false;
}

std::string AbslUnparseFlag(const DurationFlag& flag) { return absl::FormatDuration(flag.value); }

namespace {

bool Given(const CommandLine& c, const std::string& flag) { return c.specified.count(flag) > 0; }

// "--flag: message", unless the message already names the flag first.
absl::Status BadFlag(absl::string_view flag, absl::string_view message) {
  const std::string prefix = absl::StrCat("--", flag);
  if (absl::StartsWith(message, absl::StrCat(prefix, ":")) ||
      absl::StartsWith(message, absl::StrCat(prefix, " "))) {
    return absl::InvalidArgumentError(message);
  }
  return absl::InvalidArgumentError(absl::StrCat(prefix, ": ", message));
}

std::string Quoted(absl::string_view user_text) {
  return absl::StrCat("'", absl::CHexEscape(user_text), "'");
}

absl::Status DurationInRange(absl::string_view flag, absl::Duration value, absl::Duration min,
                             absl::Duration max, bool min_open = false) {
  const bool low = min_open ? value <= min : value < min;
  if (low || value > max) {
    return BadFlag(flag, absl::StrCat("must be a duration in ", min_open ? "(" : "[",
                                      absl::FormatDuration(min), ", ", absl::FormatDuration(max),
                                      "]; got ", absl::FormatDuration(value)));
  }
  return absl::OkStatus();
}

absl::Status IntegerInRange(absl::string_view flag, int64_t value, int64_t min, int64_t max,
                            absl::string_view note = "") {
  if (value < min || value > max) {
    return BadFlag(flag, absl::StrFormat("must be %d..%d%s; got %d", min, max, note, value));
  }
  return absl::OkStatus();
}

// The flags that hold no path: control bytes in them can only be a mistake (or an
// attack on the terminal that shows the message).
absl::Status CheckNoControlBytes(const CommandLine& c) {
  const std::pair<const char*, const std::string*> texts[] = {
      {"experiment", &c.experiment},
      {"transport", &c.transport},
      {"clock", &c.clock},
      {"clock_id", &c.clock_id},
      {"tick_phase", &c.tick_phase},
      {"reference_clock", &c.reference_clock},
      {"sizes", &c.sizes},
      {"format", &c.format},
      {"pin", &c.pin},
      {"clocks", &c.clocks},
      {"sim_jitter", &c.sim_jitter},
      {"role", &c.role},
      {"listen", &c.listen},
      {"peer", &c.peer},
      {"analyze_column", &c.analyze_column},
      {"clock_info", &c.clock_info},
  };
  for (const auto& [flag, text] : texts) {
    for (const char ch : *text) {
      if (absl::ascii_iscntrl(static_cast<unsigned char>(ch))) {
        return BadFlag(flag, absl::StrCat(Quoted(*text), " contains a control character"));
      }
    }
  }
  return absl::OkStatus();
}

// The default reference: the cycle counter where it is invariant (finest and cheapest to
// read), else CLOCK_MONOTONIC.
timing::ClockSpec DefaultReference() {
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  timing::ClockSpec spec;
  if (counter.ok() && counter->invariant) {
    spec.kind = timing::ClockKind::kCycleCounter;
  } else {
    spec.kind = timing::ClockKind::kClockGettime;
    spec.clock_id = "monotonic";
  }
  return spec;
}

absl::Status ParsePin(absl::string_view text, SweepOptions& sweep) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  if (parts.size() > 2) return BadFlag("pin", "takes CLIENT_CPU or CLIENT_CPU,PEER_CPU");
  int cpus[2] = {-1, -1};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!absl::SimpleAtoi(parts[i], &cpus[i]) || cpus[i] < 0 ||
        cpus[i] >= platform::OnlineCpuCount()) {
      return BadFlag("pin", absl::StrFormat("%s is not a CPU of this machine (0..%d)",
                                            Quoted(parts[i]), platform::OnlineCpuCount() - 1));
    }
  }
  sweep.pin_client_cpu = cpus[0];
  sweep.pin_peer_cpu = cpus[1];
  return absl::OkStatus();
}

// Where a flag does something: the modes (a bit per Mode) and, for the message, in words.
struct FlagUse {
  unsigned modes;
  const char* applies_to;
};

constexpr unsigned Bit(Mode mode) { return 1u << static_cast<unsigned>(mode); }

FlagUse UseOf(const std::string& flag) {
  if (flag == "flagfile" || flag == "fromenv" || flag == "tryfromenv" || flag == "undefok") {
    return {~0u, "any mode"};
  }
  if (flag == "list_clocks") return {Bit(Mode::kListClocks), "--list_clocks, a mode of its own"};
  if (flag == "clock_info") return {Bit(Mode::kClockInfo), "--clock_info, a mode of its own"};
  if (flag == "analyze") return {Bit(Mode::kAnalyze), "--analyze, a mode of its own"};
  if (flag == "analyze_column") return {Bit(Mode::kAnalyze), "--analyze"};
  if (flag == "allow_variable_cycle_counter") {
    return {Bit(Mode::kMeasure) | Bit(Mode::kClockInfo), "a measurement or --clock_info"};
  }
  if (flag == "explain") return {Bit(Mode::kMeasure) | Bit(Mode::kAnalyze), "a sweep or --analyze"};
  if (flag == "plot")
    return {Bit(Mode::kMeasure) | Bit(Mode::kAnalyze), "a measurement or --analyze"};
  if (flag == "role")
    return {Bit(Mode::kMeasure) | Bit(Mode::kServer), "a measurement or a server"};
  if (flag == "listen") return {Bit(Mode::kServer), "--role=server"};
  if (flag == "peer") return {Bit(Mode::kMeasure), "--role=client"};
  return {Bit(Mode::kMeasure), "a measurement"};
}

const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::kMeasure:
      return "a measurement";
    case Mode::kListClocks:
      return "--list_clocks";
    case Mode::kClockInfo:
      return "--clock_info";
    case Mode::kAnalyze:
      return "--analyze";
    case Mode::kServer:
      return "--role=server";
  }
  return "?";
}

}  // namespace

absl::StatusOr<Mode> ChooseMode(const CommandLine& c) {
  if (absl::Status s = CheckNoControlBytes(c); !s.ok()) return s;
  if (Given(c, "analyze") && c.analyze.empty()) return BadFlag("analyze", "takes a CSV file");
  if (Given(c, "clock_info") && c.clock_info.empty()) {
    return BadFlag("clock_info", "takes 'all' or a comma-separated list of clock specs");
  }
  Mode mode = Mode::kMeasure;
  if (c.list_clocks) {
    mode = Mode::kListClocks;
  } else if (!c.clock_info.empty()) {
    mode = Mode::kClockInfo;
  } else if (!c.analyze.empty()) {
    mode = Mode::kAnalyze;
  } else if (c.role == "server") {
    mode = Mode::kServer;
  }
  for (const std::string& flag : c.specified) {
    const FlagUse use = UseOf(flag);
    if ((use.modes & Bit(mode)) == 0) {
      return BadFlag(flag, absl::StrCat("does nothing with ", ModeName(mode), "; it applies to ",
                                        use.applies_to));
    }
  }
  if (mode == Mode::kMeasure && Given(c, "peer") && c.role != "client") {
    return BadFlag("peer", "applies only to --role=client");
  }
  return mode;
}

absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& c) {
  absl::StatusOr<timing::ClockSpec> spec;
  if (absl::StrContains(c.clock, ':')) {
    if (Given(c, "clock_id") || Given(c, "tick_period")) {
      return BadFlag("clock", "give the clock either as one spec (tick:20ms) or with "
                              "--clock_id/--tick_period, not both");
    }
    spec = timing::ParseClockSpec(c.clock);
    if (!spec.ok())
      return absl::Status(spec.status().code(),
                          BadFlag("clock", spec.status().message()).message());
  } else {
    spec = timing::ParseClockSpec(c.clock);
    if (!spec.ok())
      return absl::Status(spec.status().code(),
                          BadFlag("clock", spec.status().message()).message());
    if (Given(c, "clock_id")) {
      if (spec->kind != timing::ClockKind::kClockGettime) {
        return BadFlag("clock_id", "applies only to --clock=clock_gettime");
      }
      absl::StatusOr<timing::ClockSpec> with_id =
          timing::ParseClockSpec(absl::StrCat("clock_gettime:", c.clock_id));
      if (!with_id.ok()) return BadFlag("clock_id", with_id.status().message());
      spec = with_id;
    }
    if (Given(c, "tick_period") && spec->kind != timing::ClockKind::kTick) {
      return BadFlag("tick_period", "applies only to --clock=tick");
    }
    if (spec->kind == timing::ClockKind::kTick && Given(c, "tick_period")) {
      if (absl::Status s = timing::ValidateTickPeriod(c.tick_period); !s.ok()) {
        return BadFlag("tick_period", s.message());
      }
      spec->tick_period = c.tick_period;
    }
  }
  // --uniqtime in either form of --clock, and only for a tick.
  if (Given(c, "uniqtime") || c.uniqtime) {
    if (spec->kind != timing::ClockKind::kTick) {
      return BadFlag("uniqtime", "applies only to a tick clock (--clock=tick or tick:PERIOD)");
    }
    spec->uniqtime = spec->uniqtime || c.uniqtime;
  }
  return spec;
}

std::vector<timing::ClockSpec> DefaultStudyClocks(bool simulate) {
  const char* const text = simulate ? "virtual,tick:10ms,tick:20ms"
                                    : "gettimeofday,clock_gettime:monotonic,"
                                      "clock_gettime:monotonic_coarse,tick:10ms,tick:20ms";
  std::vector<timing::ClockSpec> specs = *timing::ParseClockSpecList(text);
  if (!simulate && platform::GetCycleCounterInfo().ok()) {
    timing::ClockSpec cycles;
    cycles.kind = timing::ClockKind::kCycleCounter;
    specs.insert(specs.begin() + 3, cycles);
  }
  return specs;
}

absl::StatusOr<std::string> CheckPlotTarget(absl::string_view plot) {
  if (plot == "-") return BadFlag("plot", "a plot is a file: name an SVG file, e.g. sweep.svg");
  const std::string path = ResolveUserPath(plot);
  if (absl::Status s = CheckOutputTarget("plot", path); !s.ok())
    return BadFlag("plot", s.message());
  const std::string data = PlotDataPath(path);
  if (data == path) {
    return BadFlag("plot",
                   absl::StrCat(Quoted(plot), " would be its own data file; name an .svg file"));
  }
  if (absl::Status s = CheckOutputTarget("plot", data); !s.ok()) {
    return BadFlag("plot",
                   absl::StrCat("its data file: ", absl::StripPrefix(s.message(), "--plot: ")));
  }
  return path;
}

double EstimatePlanBytes(const Plan& plan) {
  constexpr double kPerRecord = 2048;  // strings, summaries, histogram, vector headers
  const double clocks = plan.has_reference ? 2 : 1;
  const double sizes = static_cast<double>(plan.sweep.sizes.size());
  const double runs = plan.sweep.runs;
  const double largest = plan.sweep.sizes.empty()
                             ? 0
                             : static_cast<double>(*std::max_element(plan.sweep.sizes.begin(),
                                                                     plan.sweep.sizes.end()));
  const double buffers = 2 * largest;
  if (plan.study) {
    // StudyPasses: marks and four per-trip arrays (5 x 8 bytes per trip); per cell, for
    // every run, its readings, truths and phases (3 x 8) and their pooled and cleaned
    // copies (4 x 8), with room for a sorted copy in the summaries (3 x 8): 10 x 8 bytes.
    const double n = static_cast<double>(plan.study_options.iterations);
    const double cells = sizes * static_cast<double>(plan.study_clocks.size());
    return 40 * n + 80 * runs * n + cells * kPerRecord + buffers;
  }
  const EngineOptions& engine = plan.sweep.engine;
  const double batch = static_cast<double>(std::max<int64_t>(1, engine.batch));
  const double intervals = std::ceil(static_cast<double>(engine.iterations) / batch);
  const double kept = std::min(intervals, static_cast<double>(engine.max_kept_intervals));
  const double record_marks = intervals <= kept ? (intervals + 1) * 8 * clocks : 0;
  const double records = sizes * runs * (1 + plan.sweep.retries);
  const double engine_bytes =
      (kept + 1) * (8 * clocks + 1) + 8 * static_cast<double>(engine.warmup);
  return records * (record_marks + kPerRecord) + engine_bytes + buffers;
}

namespace {

bool ReadsSimulatedTime(const timing::ClockSpec& spec) {
  return spec.kind == timing::ClockKind::kTick || spec.kind == timing::ClockKind::kVirtual;
}

absl::Status MakeSimModel(const CommandLine& c, transport::SimRttModel& model) {
  if (absl::Status s =
          DurationInRange("sim_fixed", c.sim_fixed, absl::ZeroDuration(), transport::kMaxSimFixed);
      !s.ok()) {
    return s;
  }
  if (!(c.sim_per_byte_ns >= 0 && c.sim_per_byte_ns <= transport::kMaxSimPerByteNs)) {
    return BadFlag("sim_per_byte_ns",
                   absl::StrCat("must be a finite number of ns in [0, ",
                                transport::kMaxSimPerByteNs, "]; got ", c.sim_per_byte_ns));
  }
  // The buffer flags do something only with --sim_bsd, the scale only with a jitter.
  for (const char* flag :
       {"sim_cluster", "sim_threshold", "sim_small", "sim_per_cluster", "sim_per_small"}) {
    if (Given(c, flag) && !c.sim_bsd) return BadFlag(flag, "applies only with --sim_bsd");
  }
  if (absl::Status s = transport::ParseJitterKind(c.sim_jitter, &model.jitter); !s.ok()) {
    return BadFlag("sim_jitter", absl::StrCat(Quoted(c.sim_jitter), ": ", s.message()));
  }
  if (Given(c, "sim_jitter_scale") && model.jitter == transport::JitterKind::kNone) {
    return BadFlag("sim_jitter_scale",
                   "applies only with --sim_jitter=uniform, normal or exponential");
  }
  for (const auto& [flag, value] : {std::pair<const char*, int64_t>{"sim_cluster", c.sim_cluster},
                                    {"sim_small", c.sim_small}}) {
    if (absl::Status s = IntegerInRange(flag, value, 1, transport::kMaxSimBufferBytes, " bytes");
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = IntegerInRange("sim_threshold", c.sim_threshold, 1, c.sim_cluster,
                                      " bytes (at most --sim_cluster)");
      !s.ok()) {
    return s;
  }
  for (const auto& [flag, value] :
       {std::pair<const char*, absl::Duration>{"sim_per_cluster", c.sim_per_cluster},
        {"sim_per_small", c.sim_per_small}}) {
    if (absl::Status s =
            DurationInRange(flag, value, absl::ZeroDuration(), transport::kMaxSimPerBuffer);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = DurationInRange("sim_jitter_scale", c.sim_jitter_scale, absl::ZeroDuration(),
                                       transport::kMaxSimJitterScale);
      !s.ok()) {
    return s;
  }
  model.fixed = c.sim_fixed;
  model.per_byte_ns = c.sim_per_byte_ns;
  model.bsd_buffers = c.sim_bsd;
  model.cluster_bytes = c.sim_cluster;
  model.threshold_bytes = c.sim_threshold;
  model.small_bytes = c.sim_small;
  model.per_cluster = c.sim_per_cluster;
  model.per_small = c.sim_per_small;
  model.jitter_scale = c.sim_jitter_scale;
  model.seed = c.seed;
  // A backstop: the checks above name the flags; this names the model's fields.
  if (absl::Status s = transport::ValidateSimRttModel(model); !s.ok()) {
    return BadFlag("transport=sim", s.message());
  }
  return absl::OkStatus();
}

// The most virtual time the simulated plan can take, in ns: every round trip at its
// largest (or the receive timeout a loss costs), plus the study's pauses.
double WorstSimulatedNanos(const Plan& plan) {
  const size_t largest = *std::max_element(plan.sweep.sizes.begin(), plan.sweep.sizes.end());
  const double rtt = transport::MaxRttNanos(plan.sim_model, static_cast<int64_t>(largest)) +
                     absl::ToDoubleNanoseconds(plan.sim_faults.reply_delay);
  const double timeout =
      absl::ToDoubleNanoseconds(std::max(plan.sweep.receive_timeout, kMaxAutoTimeout));
  const double trip = std::max(rtt, timeout);
  const double sizes = static_cast<double>(plan.sweep.sizes.size());
  const double runs = plan.sweep.runs;
  const double n = static_cast<double>(plan.sweep.engine.iterations);
  const double warmup = static_cast<double>(plan.sweep.engine.warmup);
  if (plan.study) {
    double longest_tick = 0;
    for (const timing::ClockSpec& spec : plan.study_clocks) {
      if (spec.kind == timing::ClockKind::kTick) {
        longest_tick = std::max(longest_tick, absl::ToDoubleNanoseconds(spec.tick_period));
      }
    }
    const double pause = absl::ToDoubleNanoseconds(plan.study_options.gap) +
                         (plan.study_options.dither ? longest_tick : 0);
    // Per run: the warm-up, the averaged pass, the probe blocks (at most 2n + 20 trips)
    // and the per-iteration pass with its pauses.
    const double per_run = (warmup + 4 * n + 20) * trip + n * pause;
    return static_cast<double>(plan.study_clocks.size()) * sizes * runs * per_run;
  }
  return sizes * runs * (1 + plan.sweep.retries) * (warmup + n) * trip;
}

std::string FormatBytes(double bytes) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  if (bytes >= 1024 * kGiB) return absl::StrFormat("%.1f TiB", bytes / (1024 * kGiB));
  if (bytes >= kGiB) return absl::StrFormat("%.1f GiB", bytes / kGiB);
  return absl::StrFormat("%.0f MiB", bytes / (1024 * 1024));
}

}  // namespace

absl::StatusOr<Plan> MakePlan(const CommandLine& c) {
  if (absl::Status s = CheckNoControlBytes(c); !s.ok()) return s;
  Plan plan;
  absl::StatusOr<Preset> preset = FindPreset(c.experiment);
  if (!preset.ok()) return preset.status();
  plan.preset = *preset;
  plan.study = preset->name == "study";
  const bool client = c.role == "client";

  plan.transport = Given(c, "transport") ? c.transport : preset->transport;
  // The allowed names, and which one is simulated, are the registry's.
  absl::StatusOr<const transport::TransportInfo*> row = transport::FindTransport(plan.transport);
  if (!row.ok()) return BadFlag("transport", row.status().message());
  plan.simulate = (*row)->simulated;
  size_t max_message_bytes = transport::SimTransport::kMaxMessageBytes;
  bool datagram = false;
  if (plan.simulate) {
    if (client)
      return BadFlag("transport", "sim runs on this host; --role=client measures a real one");
    if (absl::Status s = MakeSimModel(c, plan.sim_model); !s.ok()) return s;
  } else {
    for (const std::string& flag : c.specified) {
      if (absl::StartsWith(flag, "sim_")) {
        return BadFlag(flag, "applies only to --transport=sim");
      }
    }
    absl::StatusOr<std::unique_ptr<transport::Transport>> transport =
        transport::MakeTransport(plan.transport);
    if (!transport.ok()) return BadFlag("transport", transport.status().message());
    max_message_bytes = (*transport)->max_message_size();
    datagram = (*transport)->is_datagram();
  }

  // The study times with --clocks; --clock and its companions do nothing there.
  if (plan.study) {
    for (const char* flag : {"clock", "clock_id", "tick_period", "uniqtime"}) {
      if (Given(c, flag)) {
        return BadFlag(flag,
                       "does nothing in --experiment=study, which times with --clocks "
                       "(e.g. --clocks=tick:20ms:uniqtime)");
      }
    }
    const std::pair<const char*, const char*> sweep_only[] = {
        {"batch", "the study reads every round trip, and the whole loop for its averaged figure"},
        {"explain", "it ranks the buffer layouts of a size sweep; the study compares clocks"},
        {"retries", "the study ends at the first lost round trip"},
        {"stop_on_loss", "the study always ends at the first lost round trip"},
    };
    for (const auto& [flag, why] : sweep_only) {
      if (Given(c, flag)) {
        return BadFlag(flag, absl::StrCat("does nothing in --experiment=study: ", why));
      }
    }
  }

  CommandLine clock_flags = c;
  if (plan.simulate && !Given(c, "clock")) clock_flags.clock = "virtual";
  absl::StatusOr<timing::ClockSpec> clock = ClockFromFlags(clock_flags);
  if (!clock.ok()) return clock.status();
  plan.clock = *clock;
  if (!plan.study) {
    if (plan.clock.kind == timing::ClockKind::kVirtual && !plan.simulate) {
      return BadFlag("clock", "virtual time runs only in simulation (--transport=sim)");
    }
    if (plan.simulate && !ReadsSimulatedTime(plan.clock)) {
      return BadFlag("clock",
                     "in simulation (--transport=sim) only tick[:PERIOD] and virtual read "
                     "simulated time");
    }
  }

  if (plan.simulate) {
    if (Given(c, "reference_clock") && c.reference_clock != "auto" && c.reference_clock != "virtual") {
      return BadFlag("reference_clock", "in simulation the reference is the virtual time itself "
                                        "(auto or virtual)");
    }
    plan.has_reference = true;
    plan.reference.kind = timing::ClockKind::kVirtual;
  } else if (c.reference_clock == "none") {
    if (plan.study) {
      return BadFlag("reference_clock",
                     "the study compares every clock with the reference; "
                     "--reference_clock=none is not allowed with --experiment=study");
    }
    plan.has_reference = false;
  } else if (c.reference_clock == "auto") {
    plan.has_reference = true;
    plan.reference = DefaultReference();
  } else {
    absl::StatusOr<timing::ClockSpec> reference = timing::ParseClockSpec(c.reference_clock);
    if (!reference.ok()) {
      return absl::Status(reference.status().code(),
                          absl::StrCat("--reference_clock: ", reference.status().message(),
                                       " (or auto, none)"));
    }
    if (reference->kind == timing::ClockKind::kVirtual) {
      return BadFlag("reference_clock", "virtual time runs only in simulation (--transport=sim)");
    }
    plan.has_reference = true;
    plan.reference = *reference;
  }

  if (plan.study) {
    if (Given(c, "clocks")) {
      absl::StatusOr<std::vector<timing::ClockSpec>> clocks = timing::ParseClockSpecList(c.clocks);
      if (!clocks.ok()) {
        return absl::Status(clocks.status().code(),
                            BadFlag("clocks", clocks.status().message()).message());
      }
      plan.study_clocks = *clocks;
    } else {
      plan.study_clocks = DefaultStudyClocks(plan.simulate);
    }
    for (const timing::ClockSpec& spec : plan.study_clocks) {
      if (plan.simulate && !ReadsSimulatedTime(spec)) {
        return BadFlag("clocks", absl::StrCat("'", timing::ClockSpecToString(spec),
                                              "' cannot read simulated time; in simulation use "
                                              "tick[:PERIOD] and virtual"));
      }
      if (!plan.simulate && spec.kind == timing::ClockKind::kVirtual) {
        return BadFlag("clocks", "virtual time runs only in simulation (--transport=sim)");
      }
    }
  } else {
    for (const char* flag : {"clocks", "dither", "gap"}) {
      if (Given(c, flag)) return BadFlag(flag, "applies only to --experiment=study");
    }
  }

  // --tick_phase: [0, T) of every tick clock in play; with none it does nothing.
  const std::vector<timing::ClockSpec> timing_clocks =
      plan.study ? plan.study_clocks : std::vector<timing::ClockSpec>{plan.clock};
  absl::Duration shortest_tick = absl::InfiniteDuration();
  for (const timing::ClockSpec& spec : timing_clocks) {
    if (spec.kind == timing::ClockKind::kTick)
      shortest_tick = std::min(shortest_tick, spec.tick_period);
  }
  plan.environment.allow_variable_cycle_counter = c.allow_variable_cycle_counter;
  plan.environment.seed = c.seed;
  if (Given(c, "tick_phase") && shortest_tick == absl::InfiniteDuration()) {
    return BadFlag("tick_phase",
                   plan.study ? "applies only to a tick clock; --clocks has none"
                              : "applies only to a tick clock (--clock=tick or tick:PERIOD)");
  }
  if (c.tick_phase != "random") {
    absl::Duration phase;
    if (!absl::ParseDuration(c.tick_phase, &phase) || phase < absl::ZeroDuration() ||
        phase >= shortest_tick) {
      return BadFlag("tick_phase", absl::StrCat("takes 'random' or a duration in [0, ",
                                                absl::FormatDuration(shortest_tick),
                                                ") (the tick period); got ", Quoted(c.tick_phase)));
    }
    plan.environment.tick_phase = phase;
    plan.environment.fixed_phase = true;
  }

  const int64_t iterations = Given(c, "iterations") ? c.iterations : preset->iterations;
  const int64_t runs = Given(c, "runs") ? c.runs : preset->runs;
  if (absl::Status s = IntegerInRange("iterations", iterations, 1, kMaxIterations); !s.ok())
    return s;
  if (absl::Status s = IntegerInRange("runs", runs, 1, kMaxRuns); !s.ok()) return s;
  if (absl::Status s = IntegerInRange("warmup", c.warmup, 0, kMaxIterations); !s.ok()) return s;
  if (absl::Status s = IntegerInRange("batch", c.batch, 1, iterations, " (--iterations)");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = IntegerInRange("retries", c.retries, 0, kMaxRetries); !s.ok()) return s;
  if (iterations + c.warmup > UINT32_MAX) {
    return BadFlag("iterations", "plus --warmup must fit one echo block (4294967295 round trips)");
  }
  if (absl::Status s = DurationInRange("receive_timeout", c.receive_timeout, kMinReceiveTimeout,
                                       kMaxReceiveTimeout);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<size_t>> sizes =
      ParseSizeList(Given(c, "sizes") ? c.sizes : preset->sizes, max_message_bytes);
  if (!sizes.ok()) return sizes.status();

  plan.sweep.sizes = *sizes;
  plan.sweep.runs = static_cast<int>(runs);
  plan.sweep.retries = static_cast<int>(c.retries);
  plan.sweep.engine.iterations = iterations;
  plan.sweep.engine.warmup = c.warmup;
  plan.sweep.engine.batch = c.batch;
  plan.sweep.receive_timeout = c.receive_timeout;
  plan.sweep.engine.auto_receive_timeout = !Given(c, "receive_timeout");
  plan.sweep.engine.continue_on_loss = !c.stop_on_loss;

  // The echo peer's test hooks act on a local peer (a process, or the simulated one).
  if (client) {
    for (const char* flag : {"peer_drop_every", "peer_stop_after", "peer_reply_delay"}) {
      if (Given(c, flag)) {
        return BadFlag(flag,
                       "is a test hook of a local echo peer; with --role=client the peer is "
                       "the server on another host");
      }
    }
  }
  constexpr int64_t kMaxCount = std::numeric_limits<int64_t>::max();
  if (absl::Status s =
          IntegerInRange("peer_drop_every", c.peer_drop_every, 0, kMaxCount, " (0 = off)");
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          IntegerInRange("peer_stop_after", c.peer_stop_after, 0, kMaxCount, " (0 = off)");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = DurationInRange("peer_reply_delay", c.peer_reply_delay, absl::ZeroDuration(),
                                       kMaxPeerReplyDelay);
      !s.ok()) {
    return s;
  }
  if (c.peer_drop_every > 0 && !plan.simulate && !datagram) {
    return BadFlag("peer_drop_every", "applies only to datagram transports (udp, udp6, unix_dgram) and sim");
  }
  plan.sweep.peer.drop_every_kth = c.peer_drop_every;
  plan.sweep.peer.stop_after = c.peer_stop_after;
  plan.sweep.peer.reply_delay = c.peer_reply_delay;
  if (c.busy_poll && plan.simulate) {
    return BadFlag("busy_poll", "applies to real transports; the simulated one never waits");
  }
  plan.sweep.peer.busy_poll = c.busy_poll;
  plan.sim_faults.drop_every_kth = c.peer_drop_every;
  plan.sim_faults.stop_after = c.peer_stop_after;
  plan.sim_faults.reply_delay = c.peer_reply_delay;
  plan.sweep.seed = c.seed;
  plan.sweep.rephase_tick_clock = !plan.environment.fixed_phase;
  if (!c.pin.empty()) {
    if (absl::Status s = ParsePin(c.pin, plan.sweep); !s.ok()) return s;
    if (plan.sweep.pin_peer_cpu >= 0 && (plan.simulate || client)) {
      return BadFlag("pin", plan.simulate
                                ? "the simulated transport has no peer process to pin: give "
                                  "CLIENT_CPU alone"
                                : "with --role=client the peer is the server on another host: "
                                  "give CLIENT_CPU alone");
    }
  }

  if (plan.study) {
    if (absl::Status s = DurationInRange("gap", c.gap, absl::ZeroDuration(), kMaxGap); !s.ok())
      return s;
    StudyOptions& study = plan.study_options;
    study.sizes = plan.sweep.sizes;
    study.runs = plan.sweep.runs;
    study.iterations = plan.sweep.engine.iterations;
    study.warmup = plan.sweep.engine.warmup;
    study.gap = c.gap;
    study.dither = c.dither;
    study.seed = c.seed;
    study.rephase_tick_clocks = !plan.environment.fixed_phase;
  }

  // Bounds on what the plan would take: memory for its results, and in simulation the
  // virtual time its nanosecond clock must hold.
  const double bytes = EstimatePlanBytes(plan);
  if (bytes > kMaxPlanBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--sizes, --runs, --iterations: the results would take up to %s of memory (%d sizes x %d "
        "runs x %d round trips%s), more than the %s allowed; measure fewer sizes, runs or round "
        "trips%s",
        FormatBytes(bytes), plan.sweep.sizes.size(), plan.sweep.runs, plan.sweep.engine.iterations,
        plan.study ? absl::StrFormat(" x %d clocks", plan.study_clocks.size())
                   : absl::StrFormat(", %d retries", plan.sweep.retries),
        FormatBytes(kMaxPlanBytes), plan.study ? "" : " (or raise --batch)"));
  }
  if (plan.simulate) {
    const double nanos = WorstSimulatedNanos(plan);
    if (!(nanos <= kMaxSimulatedNanos)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--transport=sim: the run could span up to %.3g years of virtual time, more than the "
          "%.0f years its nanosecond clock holds; lower --iterations, --runs, --sizes or the "
          "simulated costs (--sim_fixed, --sim_per_byte_ns, --peer_reply_delay, --receive_timeout)",
          nanos / 3.15576e16, kMaxSimulatedNanos / 3.15576e16));
    }
  }

  if (c.format == "table") {
    plan.format = OutputFormat::kTable;
  } else if (c.format == "csv") {
    plan.format = OutputFormat::kCsv;
  } else if (c.format == "json") {
    plan.format = OutputFormat::kJson;
  } else {
    return BadFlag(
        "format", absl::StrCat("unknown format ", Quoted(c.format), "; allowed: table, csv, json"));
  }
  if (Given(c, "output") && c.output.empty()) {
    return BadFlag("output", "takes a file, or - for standard output");
  }
  if (!c.output.empty() && c.output != "-") {
    plan.output_path = ResolveUserPath(c.output);
    if (absl::Status s = CheckOutputTarget("output", plan.output_path); !s.ok()) {
      return BadFlag("output", s.message());
    }
  }
  if (Given(c, "plot") || !c.plot.empty()) {
    absl::StatusOr<std::string> plot = CheckPlotTarget(c.plot);
    if (!plot.ok()) return plot.status();
    plan.plot_path = *plot;
    if (!plan.output_path.empty() &&
        (plan.output_path == plan.plot_path || plan.output_path == PlotDataPath(plan.plot_path))) {
      return BadFlag("output", "names the same file as --plot or its data file");
    }
  }
  return plan;
}

}  // namespace tickbench::harness
