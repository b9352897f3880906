// MakePlan: the flags of a measurement checked and turned into a Plan, one step per
// concern, each step reading the CommandLine and filling the plan.
// Over 400 lines because every step reads and fills the one file-local PlanState.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/board_rows.h"
#include "harness/cli/hints/near_names.h"
#include "harness/cli/plan.h"
#include "harness/cli/plan_bounds.h"
#include "harness/cli/plan_clocks.h"
#include "harness/cli/plan_outputs.h"
#include "harness/cli/size_list.h"
#include "transport/registry/transport_factory.h"
#include "transport/registry/transport_registry.h"
#include "transport/sim/sim_transport.h"

namespace tickbench::harness {
namespace {

// What the steps share: the flags, the plan they fill, and what one step learns for a
// later one.
struct PlanState {
  explicit PlanState(const CommandLine& command_line) : c(command_line) {}

  const CommandLine& c;
  Plan plan;
  Preset preset;
  bool client = false;  // --role=client
  size_t max_message_bytes = transport::SimTransport::kMaxMessageBytes;
  bool may_lose = false;  // the transport may lose a message
};

// The transport: the preset's or --transport, asked of the registry; a real one is made
// (and dropped) to learn its largest message and whether it carries datagrams.
absl::Status ResolveTransport(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  plan.transport = Given(c, "transport") ? c.transport : st.preset.transport;
  // The allowed names, and which one is simulated, are the registry's.
  absl::StatusOr<const transport::TransportInfo*> row = transport::FindTransport(plan.transport);
  if (!row.ok()) {
    for (const core::BoardRow& board : core::kBoardTransports) {
      if (plan.transport == board.name) {
        return BadFlag("transport",
                       absl::StrCat(board.name, " is ", core::kBoardOnly,
                                    ": run it on the emulated board, bazel run "
                                    "--config=cortex_m3 //harness (docs/platforms.md)"));
      }
    }
    std::vector<std::string> names;
    for (const transport::TransportInfo& info : transport::RegisteredTransports()) {
      names.push_back(info.name);
    }
    return WithDidYouMean(BadFlag("transport", row.status().message()), plan.transport, names);
  }
  plan.simulate = (*row)->simulated;
  if (plan.simulate) {
    if (st.client)
      return BadFlag("transport", "sim runs on this host; --role=client measures a real one");
    if (absl::Status s = MakeSimModel(c, plan.sim_model); !s.ok()) return s;
  } else {
    for (const std::string& flag : c.specified) {
      if (absl::StartsWith(flag, "sim_")) {
        return BadFlag(flag, "applies only to --transport=sim");
      }
    }
    if (absl::Status s = ResolveTransportKnobs(c, plan); !s.ok()) return s;
    absl::StatusOr<std::unique_ptr<transport::Transport>> transport =
        transport::MakeTransport(plan.transport, plan.transport_options);
    if (!transport.ok()) return BadFlag("transport", transport.status().message());
    st.max_message_bytes = (*transport)->max_message_size();
    st.may_lose = (*transport)->may_lose();
  }
  return absl::OkStatus();
}

// The study times with --clocks; --clock and its companions do nothing there.
absl::Status CheckStudyFlags(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
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
  return absl::OkStatus();
}

// The clock of a sweep (--clock and its companions); virtual by default in simulation.
absl::Status ResolveClock(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
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
  return absl::OkStatus();
}

// The reference clock: virtual in simulation, else --reference_clock (auto, none, a spec).
absl::Status ResolveReference(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  if (plan.simulate) {
    if (Given(c, "reference_clock") && c.reference_clock != "auto" &&
        c.reference_clock != "virtual") {
      return BadFlag("reference_clock",
                     "in simulation the reference is the virtual time itself "
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
      return WithClockHint(
          absl::Status(reference.status().code(),
                       absl::StrCat("--reference_clock: ", reference.status().message(),
                                    " (or auto, none)")),
          c.reference_clock);
    }
    if (reference->kind == timing::ClockKind::kVirtual) {
      return BadFlag("reference_clock", "virtual time runs only in simulation (--transport=sim)");
    }
    plan.has_reference = true;
    plan.reference = *reference;
  }
  return absl::OkStatus();
}

// The study's --clocks (or its defaults), each able to read the time in play.
absl::Status ResolveStudyClocks(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  if (plan.study) {
    if (Given(c, "clocks")) {
      absl::StatusOr<std::vector<timing::ClockSpec>> clocks =
          ParseClockListFlag("clocks", c.clocks);
      if (!clocks.ok()) return clocks.status();
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
  return absl::OkStatus();
}

// --tick_phase: [0, T) of every tick clock in play; with none it does nothing.
absl::Status ResolveTickPhase(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
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
  return absl::OkStatus();
}

// Iterations, runs, warm-up, batch, retries, the receive timeout and the sizes.
absl::Status ResolveCounts(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  const int64_t iterations = Given(c, "iterations") ? c.iterations : st.preset.iterations;
  const int64_t runs = Given(c, "runs") ? c.runs : st.preset.runs;
  if (absl::Status s = IntegerInRange("iterations", iterations, 1, kMaxIterations); !s.ok())
    return s;
  if (absl::Status s = IntegerInRange("runs", runs, 1, kMaxRuns); !s.ok()) return s;
  if (absl::Status s = IntegerInRange("warmup", c.warmup, kWarmupUntilSteady, kMaxIterations,
                                      " (-1: until steady)");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = IntegerInRange("batch", c.batch, 1, iterations, " (--iterations)");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = IntegerInRange("retries", c.retries, 0, kMaxRetries); !s.ok()) return s;
  if (c.receive_timeout_none) {
    // The bare loop's receives: no watchdog, no SO_RCVTIMEO. Only where nothing is lost
    // and the peer is this run's own child: a simulated loss, or a remote peer that goes
    // silent, would wait for ever (until Ctrl-C).
    if (plan.simulate || st.client) {
      return BadFlag("receive_timeout",
                     "none (receives without a bound) needs a local echo peer over a real "
                     "transport, not --transport=sim or --role=client; give a duration "
                     "(1us..1h)");
    }
  } else if (absl::Status s = DurationInRange("receive_timeout", c.receive_timeout,
                                              kMinReceiveTimeout, kMaxReceiveTimeout);
             !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<size_t>> sizes =
      ParseSizeList(Given(c, "sizes") ? c.sizes : st.preset.sizes, st.max_message_bytes);
  if (!sizes.ok()) return sizes.status();

  if (absl::Status s = ResolvePrecision(c, plan); !s.ok()) return s;
  plan.sweep.sizes = *sizes;
  plan.sweep.runs = static_cast<int>(runs);
  plan.sweep.retries = static_cast<int>(c.retries);
  plan.sweep.engine.iterations = iterations;
  plan.sweep.engine.warmup = c.warmup;
  plan.sweep.engine.batch = c.batch;
  plan.sweep.receive_timeout = c.receive_timeout;
  plan.sweep.engine.auto_receive_timeout = !Given(c, "receive_timeout");
  plan.sweep.engine.continue_on_loss = !c.stop_on_loss;
  return absl::OkStatus();
}

// "applies only to datagram transports (unix_dgram, udp, udp6) and sim": the registry's
// rows whose peer can drop an echo, real and simulated.
std::string PeerDropEveryApplies() {
  using transport::TransportInfo;
  return absl::StrCat(
      "applies only to datagram transports (",
      transport::TransportNamesWhere(
          [](const TransportInfo& r) { return r.may_lose && !r.simulated; }),
      ") and ",
      transport::TransportNamesWhere([](const TransportInfo& r) { return r.simulated; }, " and "));
}

// The echo peer's test hooks, busy polling and --pin.
absl::Status ResolvePeer(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  // The echo peer's test hooks act on a local peer (a process, or the simulated one).
  if (st.client) {
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
  if (c.peer_drop_every > 0 && !plan.simulate && !st.may_lose) {
    return BadFlag("peer_drop_every", PeerDropEveryApplies());
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
    if (plan.sweep.pin_peer_cpu >= 0 && (plan.simulate || st.client)) {
      return BadFlag("pin", plan.simulate
                                ? "the simulated transport has no peer process to pin: give "
                                  "CLIENT_CPU alone"
                                : "with --role=client the peer is the server on another host: "
                                  "give CLIENT_CPU alone");
    }
  }
  return absl::OkStatus();
}

// The study's own options, from the sweep's.
absl::Status ResolveStudyOptions(PlanState& st) {
  const CommandLine& c = st.c;
  Plan& plan = st.plan;
  if (plan.study) {
    if (absl::Status s = DurationInRange("gap", c.gap, absl::ZeroDuration(), kMaxGap); !s.ok())
      return s;
    StudyOptions& study = plan.study_options;
    study.sizes = plan.sweep.sizes;
    study.runs = plan.sweep.runs;
    study.iterations = plan.sweep.engine.iterations;
    study.warmup = plan.sweep.engine.warmup >= 0 ? plan.sweep.engine.warmup : kStudyWarmup;
    study.gap = c.gap;
    study.dither = c.dither;
    FinishStudyOptions(c, plan);
  }
  return absl::OkStatus();
}

// What the plan would take (plan_bounds.h), and where its results go (plan_outputs.h).
absl::Status CheckBounds(PlanState& st) { return CheckPlanBounds(st.plan); }
absl::Status ResolveOutputTargets(PlanState& st) { return ResolveOutputs(st.c, st.plan); }

}  // namespace

absl::StatusOr<Plan> MakePlan(const CommandLine& c) {
  if (absl::Status s = CheckNoControlBytes(c); !s.ok()) return s;
  absl::StatusOr<Preset> preset = FindPreset(c.experiment);
  if (!preset.ok()) return preset.status();
  PlanState st(c);
  st.preset = *preset;
  st.plan.preset = *preset;
  st.plan.study = preset->name == "study";
  st.client = c.role == "client";
  for (absl::Status (*step)(PlanState&) :
       {ResolveTransport, CheckStudyFlags, ResolveClock, ResolveReference, ResolveStudyClocks,
        ResolveTickPhase, ResolveCounts, ResolvePeer, ResolveStudyOptions, CheckBounds,
        ResolveOutputTargets}) {
    if (absl::Status s = step(st); !s.ok()) return s;
  }
  return std::move(st.plan);
}

}  // namespace tickbench::harness
