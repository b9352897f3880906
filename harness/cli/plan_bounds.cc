#include "harness/cli/plan_bounds.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/engine/round_trip_engine.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/facts/system_info.h"
#include "transport/pipes/pipe_transport.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench::harness {

namespace {

// The most runs of a size the plan may make: with --precision, its run limit.
double PlannedRuns(const Plan& plan) {
  const double limit = SweepOptions::UntilKnown{}.max_runs;
  return plan.precision > 0 ? std::max<double>(plan.sweep.runs, limit) : plan.sweep.runs;
}

}  // namespace

double EstimatePlanBytes(const Plan& plan) {
  constexpr double kPerRecord = 2048;  // strings, summaries, histogram, vector headers
  const double clocks = plan.has_reference ? 2 : 1;
  const double sizes = static_cast<double>(plan.sweep.sizes.size());
  const double runs = PlannedRuns(plan);
  const double largest = plan.sweep.sizes.empty()
                             ? 0
                             : static_cast<double>(*std::max_element(plan.sweep.sizes.begin(),
                                                                     plan.sweep.sizes.end()));
  const double buffers = 2 * largest;
  if (plan.study) {
    // StudyPasses: marks and four per-trip arrays (5 x 8 bytes per trip); per cell, for
    // every run, its readings, truths and phases (3 x 8) and their pooled and cleaned
    // copies (4 x 8), with room for a sorted copy in the summaries (3 x 8): 10 x 8 bytes.
    const StudyOptions& study = plan.study_options;
    const double n = static_cast<double>(
        study.choose.on ? std::max(study.iterations, study.choose.max_iterations)
                        : study.iterations);
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
      (kept + 1) * (8 * clocks + 1) + 8 * static_cast<double>(engine.warmup_rule.window);
  return records * (record_marks + kPerRecord) + engine_bytes + buffers;
}

namespace {

// The ranges of the --sim_bsd buffer flags.
absl::Status CheckSimBufferFlags(const CommandLine& c) {
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
  return absl::OkStatus();
}

// The link flags: rate and packet cost only with an MTU, and each in its range.
absl::Status CheckSimLinkFlags(const CommandLine& c) {
  for (const char* flag : {"sim_link_rate", "sim_per_packet"}) {
    if (Given(c, flag) && c.sim_mtu == 0) return BadFlag(flag, "applies only with --sim_mtu");
  }
  if (c.sim_mtu != 0) {
    if (absl::Status s = IntegerInRange("sim_mtu", c.sim_mtu, transport::kMinSimMtuBytes,
                                        transport::kMaxSimBufferBytes, " bytes (0: no link)");
        !s.ok()) {
      return s;
    }
  }
  if (!(c.sim_link_rate == 0 || (c.sim_link_rate >= transport::kMinSimLinkRateBps &&
                                 c.sim_link_rate <= transport::kMaxSimLinkRateBps))) {
    return BadFlag(
        "sim_link_rate",
        absl::StrCat("must be 0 (no wire time) or in [", transport::kMinSimLinkRateBps, ", ",
                     transport::kMaxSimLinkRateBps, "] bits per second; got ", c.sim_link_rate));
  }
  if (absl::Status s = DurationInRange("sim_per_packet", c.sim_per_packet, absl::ZeroDuration(),
                                       transport::kMaxSimPerBuffer);
      !s.ok()) {
    return s;
  }
  return absl::OkStatus();
}

}  // namespace

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
  if (absl::Status s = CheckSimBufferFlags(c); !s.ok()) return s;
  if (absl::Status s = DurationInRange("sim_jitter_scale", c.sim_jitter_scale, absl::ZeroDuration(),
                                       transport::kMaxSimJitterScale);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSimLinkFlags(c); !s.ok()) return s;
  model.mtu_bytes = c.sim_mtu;
  model.link_rate_bps = c.sim_link_rate;
  model.per_packet = c.sim_per_packet;
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
  const double runs = PlannedRuns(plan);
  const double n = static_cast<double>(plan.sweep.engine.iterations);
  const double warmup = static_cast<double>(MaxWarmupTrips(plan.sweep.engine, trip));
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

// Bounds on what the plan would take: memory for its results, and in simulation the
// virtual time its nanosecond clock must hold.
absl::Status CheckPlanBounds(const Plan& plan) {
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
  return absl::OkStatus();
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

absl::Status ResolvePrecision(const CommandLine& c, Plan& plan) {
  if (absl::Status s = DurationInRange("max_time", c.max_time, kMinMaxTime, kMaxMaxTime); !s.ok())
    return s;
  plan.max_time = c.max_time;
  if (!Given(c, "precision") && (Given(c, "runs") || Given(c, "iterations"))) {
    plan.precision = 0;
    return absl::OkStatus();
  }
  absl::string_view text = absl::StripAsciiWhitespace(c.precision);
  const bool percent = absl::ConsumeSuffix(&text, "%");
  double value = 0;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value) || value < 0 ||
      value > kMaxPrecisionPercent || (!percent && value != 0)) {
    return BadFlag("precision",
                   absl::StrCat(absl::StrFormat("must be a percentage in (0%%, %g%%] such as 2%%, "
                                                "or 0 for exactly --runs; got ",
                                                kMaxPrecisionPercent),
                                Quoted(c.precision)));
  }
  plan.precision = value / 100;
  return absl::OkStatus();
}

void FinishStudyOptions(const CommandLine& c, Plan& plan) {
  StudyOptions& study = plan.study_options;
  study.seed = c.seed;
  study.rephase_tick_clocks = !plan.environment.fixed_phase;
  study.choose.on = !plan.simulate && !Given(c, "iterations");
  if (Given(c, "max_time")) study.choose.budget = c.max_time;
}

namespace {

// --so_sndbuf / --so_rcvbuf: unix_stream only, within the sysctl that caps it (named).
absl::Status ResolveSocketBuffer(const CommandLine& c, absl::string_view flag, int64_t value,
                                 const char* sysctl, const Plan& plan, int& into) {
  if (!Given(c, std::string(flag))) return absl::OkStatus();
  if (plan.transport != "unix_stream") {
    return BadFlag(flag, "applies only to --transport=unix_stream");
  }
  if (absl::Status s = IntegerInRange(flag, value, 0, INT32_MAX / 2, " bytes (0: the kernel's)");
      !s.ok()) {
    return s;
  }
  const absl::StatusOr<int64_t> most = platform::ReadSysctlInt(sysctl);
  if (most.ok() && value > *most) {
    return BadFlag(flag, absl::StrFormat("%d bytes is over %s (%d bytes), where the kernel would "
                                         "cap it",
                                         value, sysctl, *most));
  }
  into = static_cast<int>(value);
  return absl::OkStatus();
}

}  // namespace

absl::Status ResolveTransportKnobs(const CommandLine& c, Plan& plan) {
  transport::TransportOptions& options = plan.transport_options;
  if (absl::Status s = ResolveSocketBuffer(c, "so_sndbuf", c.so_sndbuf, "net.core.wmem_max", plan,
                                           options.so_sndbuf_bytes);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ResolveSocketBuffer(c, "so_rcvbuf", c.so_rcvbuf, "net.core.rmem_max", plan,
                                           options.so_rcvbuf_bytes);
      !s.ok()) {
    return s;
  }
  if (!Given(c, "pipe_size")) return absl::OkStatus();
  if (plan.transport != "pipe") return BadFlag("pipe_size", "applies only to --transport=pipe");
  if (absl::Status s =
          IntegerInRange("pipe_size", c.pipe_size, 0, INT32_MAX, " bytes (0: the kernel's)");
      !s.ok()) {
    return s;
  }
  const absl::StatusOr<int64_t> most = transport::PipeMaxSize();
  if (geteuid() != 0 && most.ok() && c.pipe_size > *most) {
    return BadFlag("pipe_size",
                   absl::StrFormat("%d bytes is over /proc/sys/fs/pipe-max-size (%d bytes), the "
                                   "most an unprivileged process may ask for",
                                   c.pipe_size, *most));
  }
  plan.transport_options.pipe_size_bytes = c.pipe_size;
  return absl::OkStatus();
}

}  // namespace tickbench::harness
