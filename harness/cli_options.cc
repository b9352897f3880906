#include "harness/cli_options.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/output_file.h"
#include "harness/size_list.h"
#include "platform/cpu_affinity.h"
#include "platform/cycle_counter.h"
#include "timing/cycle_clock.h"
#include "transport/sim_transport.h"
#include "transport/transport_factory.h"

namespace tickbench::harness {
namespace {

bool Given(const CommandLine& c, const std::string& flag) { return c.specified.count(flag) > 0; }

absl::Status BadFlag(absl::string_view flag, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", message));
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
      return BadFlag("pin", absl::StrFormat("'%s' is not a CPU of this machine (0..%d)", parts[i],
                                            platform::OnlineCpuCount() - 1));
    }
  }
  sweep.pin_client_cpu = cpus[0];
  sweep.pin_peer_cpu = cpus[1];
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& c) {
  if (absl::StrContains(c.clock, ':')) {
    if (Given(c, "clock_id") || Given(c, "tick_period")) {
      return BadFlag("clock", "give the clock either as one spec (tick:20ms) or with "
                              "--clock_id/--tick_period, not both");
    }
    absl::StatusOr<timing::ClockSpec> spec = timing::ParseClockSpec(c.clock);
    if (!spec.ok()) return BadFlag("clock", spec.status().message());
    if (c.uniqtime) spec->uniqtime = true;
    return spec;
  }
  absl::StatusOr<timing::ClockSpec> spec = timing::ParseClockSpec(c.clock);
  if (!spec.ok()) {
    return absl::Status(spec.status().code(), absl::StrCat("--clock: ", spec.status().message()));
  }
  if (Given(c, "clock_id")) {
    if (spec->kind != timing::ClockKind::kClockGettime) {
      return BadFlag("clock_id", "applies only to --clock=clock_gettime");
    }
    absl::StatusOr<timing::ClockSpec> with_id =
        timing::ParseClockSpec(absl::StrCat("clock_gettime:", c.clock_id));
    if (!with_id.ok()) return BadFlag("clock_id", with_id.status().message());
    spec = with_id;
  }
  if (Given(c, "tick_period") || c.uniqtime) {
    if (spec->kind != timing::ClockKind::kTick) {
      return BadFlag(Given(c, "tick_period") ? "tick_period" : "uniqtime",
                     "applies only to --clock=tick");
    }
  }
  if (spec->kind == timing::ClockKind::kTick) {
    if (c.tick_period <= absl::ZeroDuration()) {
      return BadFlag("tick_period", absl::StrCat("must be positive (10ms = 100 Hz, 20ms = 50 Hz); got ",
                                                 absl::FormatDuration(c.tick_period)));
    }
    if (Given(c, "tick_period")) spec->tick_period = c.tick_period;
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

namespace {

bool ReadsSimulatedTime(const timing::ClockSpec& spec) {
  return spec.kind == timing::ClockKind::kTick || spec.kind == timing::ClockKind::kVirtual;
}

absl::Status MakeSimModel(const CommandLine& c, transport::SimRttModel& model) {
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
  if (absl::Status s = transport::ParseJitterKind(c.sim_jitter, &model.jitter); !s.ok()) {
    return BadFlag("sim_jitter", s.message());
  }
  if (absl::Status s = transport::ValidateSimRttModel(model); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sim_fixed, --sim_per_byte_ns, --sim_cluster, --sim_threshold, --sim_small, "
        "--sim_per_cluster, --sim_per_small, --sim_jitter_scale: ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Plan> MakePlan(const CommandLine& c) {
  Plan plan;
  absl::StatusOr<Preset> preset = FindPreset(c.experiment);
  if (!preset.ok()) return preset.status();
  plan.preset = *preset;
  plan.study = preset->name == "study";

  plan.transport = Given(c, "transport") ? c.transport : preset->transport;
  plan.simulate = plan.transport == "sim";
  size_t max_message_bytes = transport::SimTransport::kMaxMessageBytes;
  bool datagram = false;
  if (plan.simulate) {
    if (absl::Status s = MakeSimModel(c, plan.sim_model); !s.ok()) return s;
  } else {
    absl::StatusOr<std::unique_ptr<transport::Transport>> transport =
        transport::MakeTransport(plan.transport);
    if (!transport.ok()) {
      return BadFlag("transport", absl::StrCat(transport.status().message(), ", sim"));
    }
    max_message_bytes = (*transport)->max_message_size();
    datagram = (*transport)->is_datagram();
  }

  CommandLine clock_flags = c;
  if (plan.simulate && !Given(c, "clock")) clock_flags.clock = "virtual";
  absl::StatusOr<timing::ClockSpec> clock = ClockFromFlags(clock_flags);
  if (!clock.ok()) return clock.status();
  plan.clock = *clock;
  if (plan.clock.kind == timing::ClockKind::kVirtual && !plan.simulate) {
    return BadFlag("clock", "virtual time runs only in simulation (--transport=sim)");
  }
  if (plan.simulate && !ReadsSimulatedTime(plan.clock)) {
    return BadFlag("clock", "in simulation (--transport=sim) only tick[:PERIOD] and virtual read "
                            "simulated time");
  }

  if (plan.simulate) {
    if (Given(c, "reference_clock") && c.reference_clock != "auto" && c.reference_clock != "virtual") {
      return BadFlag("reference_clock", "in simulation the reference is the virtual time itself "
                                        "(auto or virtual)");
    }
    plan.has_reference = true;
    plan.reference.kind = timing::ClockKind::kVirtual;
  } else if (c.reference_clock == "none") {
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
    plan.has_reference = true;
    plan.reference = *reference;
  }

  plan.environment.allow_variable_cycle_counter = c.allow_variable_cycle_counter;
  plan.environment.seed = c.seed;
  if (c.tick_phase != "random") {
    if (!absl::ParseDuration(c.tick_phase, &plan.environment.tick_phase) ||
        plan.environment.tick_phase < absl::ZeroDuration() ||
        (plan.clock.kind == timing::ClockKind::kTick && plan.environment.tick_phase >= plan.clock.tick_period)) {
      return BadFlag("tick_phase", absl::StrCat("takes 'random' or a duration in [0, tick_period); got '",
                                                c.tick_phase, "'"));
    }
    plan.environment.fixed_phase = true;
  }

  const int64_t iterations = Given(c, "iterations") ? c.iterations : preset->iterations;
  const int64_t runs = Given(c, "runs") ? c.runs : preset->runs;
  if (iterations <= 0 || iterations > kMaxIterations) {
    return BadFlag("iterations", absl::StrFormat("must be 1..%d; got %d", kMaxIterations, iterations));
  }
  if (runs <= 0 || runs > kMaxRuns) {
    return BadFlag("runs", absl::StrFormat("must be 1..%d; got %d", kMaxRuns, runs));
  }
  if (c.warmup < 0 || c.warmup > kMaxIterations) {
    return BadFlag("warmup", absl::StrFormat("must be 0..%d; got %d", kMaxIterations, c.warmup));
  }
  if (c.batch <= 0 || c.batch > iterations) {
    return BadFlag("batch", absl::StrFormat("must be 1..iterations (%d); got %d", iterations, c.batch));
  }
  if (iterations + c.warmup > UINT32_MAX) {
    return BadFlag("iterations", "plus --warmup must fit one echo block (4294967295 round trips)");
  }
  if (c.receive_timeout <= absl::ZeroDuration() || c.receive_timeout > absl::Hours(1)) {
    return BadFlag("receive_timeout", absl::StrCat("must be in (0, 1h]; got ",
                                                   absl::FormatDuration(c.receive_timeout)));
  }
  absl::StatusOr<std::vector<size_t>> sizes =
      ParseSizeList(Given(c, "sizes") ? c.sizes : preset->sizes, max_message_bytes);
  if (!sizes.ok()) return sizes.status();

  plan.sweep.sizes = *sizes;
  plan.sweep.runs = static_cast<int>(runs);
  plan.sweep.engine.iterations = iterations;
  plan.sweep.engine.warmup = c.warmup;
  plan.sweep.engine.batch = c.batch;
  plan.sweep.receive_timeout = c.receive_timeout;
  plan.sweep.engine.auto_receive_timeout = !Given(c, "receive_timeout");
  plan.sweep.engine.continue_on_loss = !c.stop_on_loss;
  if (c.peer_drop_every < 0 || c.peer_stop_after < 0 || c.peer_reply_delay < absl::ZeroDuration() ||
      c.peer_reply_delay > absl::Seconds(10)) {
    return BadFlag("peer_drop_every, --peer_stop_after, --peer_reply_delay",
                   "must not be negative (and the delay at most 10s)");
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
  plan.sweep.seed = c.seed;
  plan.sweep.rephase_tick_clock = !plan.environment.fixed_phase;
  if (!c.pin.empty()) {
    if (absl::Status s = ParsePin(c.pin, plan.sweep); !s.ok()) return s;
  }

  if (Given(c, "clocks") && !plan.study) return BadFlag("clocks", "applies only to --experiment=study");
  if ((c.dither || Given(c, "gap")) && !plan.study) {
    return BadFlag(c.dither ? "dither" : "gap", "applies only to --experiment=study");
  }
  if (plan.study) {
    if (Given(c, "clocks")) {
      absl::StatusOr<std::vector<timing::ClockSpec>> clocks = timing::ParseClockSpecList(c.clocks);
      if (!clocks.ok()) return BadFlag("clocks", clocks.status().message());
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
    if (c.gap < absl::ZeroDuration() || c.gap > absl::Seconds(1)) {
      return BadFlag("gap", absl::StrCat("must be in [0, 1s]; got ", absl::FormatDuration(c.gap)));
    }
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

  if (c.format == "table") {
    plan.format = OutputFormat::kTable;
  } else if (c.format == "csv") {
    plan.format = OutputFormat::kCsv;
  } else if (c.format == "json") {
    plan.format = OutputFormat::kJson;
  } else {
    return BadFlag("format", absl::StrCat("unknown format '", c.format, "'; allowed: table, csv, json"));
  }
  if (!c.output.empty()) {
    plan.output_path = ResolveUserPath(c.output);
    if (absl::Status s = CheckWritable(plan.output_path); !s.ok()) return BadFlag("output", s.message());
  }
  return plan;
}

}  // namespace tickbench::harness
