// What a measurement ran on, printed before any result and stored with it: the host,
// the build, the clocks with what the probe measured of them, every flag, and warnings
// where the result may mislead (as Google Benchmark's "***WARNING***" lines).
#ifndef HARNESS_CONTEXT_RUN_CONTEXT_H_
#define HARNESS_CONTEXT_RUN_CONTEXT_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "harness/context/setting.h"
#include "harness/json/json_writer.h"
#include "platform/facts/system_info.h"
#include "timing/clock.h"
#include "timing/clocks/clock_probe.h"

namespace tickbench::harness {

struct ClockDescription {
  std::string role;  // "clock", "reference", or "" for a listing
  timing::ClockInfo info;
  timing::ClockProbeResult probe;
};

struct RunContext {
  platform::SystemInfo system;
  std::string started_at;  // RFC 3339, UTC
  std::vector<ClockDescription> clocks;
  std::vector<std::pair<std::string, std::string>> flags;  // name, value as given
  std::vector<std::string> warnings;
  // Every flag in force with its type, the experiment's values where it sets them.
  std::vector<Setting> settings;
  // The machine's load when the measurement started (MakeRunContext) and ended (set by
  // whoever reports the end); nullopt where it cannot be read.
  std::optional<platform::LoadAverage> load_average_start;
  std::optional<platform::LoadAverage> load_average_end;
  std::string peer;  // --role=client: the server's address; "" otherwise
  // What the measuring loop does beyond its sends and receives (ReceiveBoundText), ""
  // where nothing is said (a listing, a simulation).
  std::string loop;
};

// The kinds of endpoint whose receives are bounded differently (transport/pipes/pipe_transport.h,
// transport/sockets/socket_endpoint.h).
enum class ReceiveKind { kDatagramSocket, kStreamSocket, kPipe };

// What bounds a blocking or busy-polled receive beyond the bare loop's calls, for the
// context's "# loop:" line, as the endpoints choose it: a datagram socket's SO_RCVTIMEO;
// a stream socket's or pipe's read watchdog where one bounds the timeout
// (transport::WatchdogBounds), else a stream socket's SO_RCVTIMEO or a pipe's ppoll();
// a busy-polled receive's clock read every 64 empty attempts; or nothing (`timeout`
// absl::InfiniteDuration()). `automatic`: the timeout comes from the warm-up (at least
// 250 ms), `timeout` is the warm-up's.
std::string ReceiveBoundText(ReceiveKind kind, bool busy_poll, absl::Duration timeout,
                             bool automatic);

// The load average now, or nullopt where it cannot be read.
std::optional<platform::LoadAverage> LoadAverageNow();

// Probes `clock` (measured resolution and read cost) and describes it. A clock of a
// simulation is not probed (its time stands still between round trips): its observed
// resolution is taken as claimed and its read cost as 0.
ClockDescription DescribeClock(timing::Clock& clock, const std::string& role,
                               bool in_simulation = false);

// Host facts, the time, and the warnings that follow from them and from the clocks.
RunContext MakeRunContext(std::vector<ClockDescription> clocks,
                          std::vector<std::pair<std::string, std::string>> flags);

// The warnings alone: a non-optimised build, a clocksource without a vDSO fast path, a
// CPU frequency governor that scales, a clock whose resolution is coarse.
// Why a busy-polling measurement may mislead, or nullopt: each side spins on its CPU,
// so with a local peer the two need a CPU each (pinned: -1 = not pinned), or they take
// turns spinning out their time slices while the other waits.
std::optional<std::string> BusyPollWarning(bool busy_poll, bool local_peer, int client_cpu,
                                           int peer_cpu, int online_cpus);

// Why a blocking measurement on a virtual machine may mislead, or nullopt: a receive
// that sleeps is woken through the hypervisor when the vCPU it sleeps on has halted.
std::optional<std::string> BlockingOnVirtualMachineWarning(bool busy_poll, bool simulated,
                                                           bool virtual_machine);

std::vector<std::string> ContextWarnings(const platform::SystemInfo& system,
                                         const std::vector<ClockDescription>& clocks);

// Where a JSON report came from, as the first members of its top-level object:
// "schema_version" (kSchemaVersion of harness/output/build_info.h), "tickbench_version" and
// "mode" ("sweep", "study", "list_clocks", "clock_info", "analyze").
void WriteProvenanceJson(JsonWriter& json, absl::string_view mode);

// One clock as a JSON object, the one writer of it (--clock_info's list and a report's
// context): {role (when it has one), spec, name, ticks_per_second, claimed_resolution_ns,
// observed_resolution_ns, read_cost_ns, backward_steps, notes}.
void WriteClockJson(JsonWriter& json, const ClockDescription& clock);

// The context as one JSON object (host, build, clocks with their probes, flags, warnings).
void WriteContextJson(JsonWriter& json, const RunContext& context, absl::string_view experiment);

// The context as "# "-prefixed lines, for the top of a table or CSV.
std::string FormatContextComment(const RunContext& context);

// The settings as "# setting NAME = VALUE (TYPE[, given])" lines, for the top of a CSV.
std::string FormatSettingsComment(const std::vector<Setting>& settings);

}  // namespace tickbench::harness

#endif  // HARNESS_CONTEXT_RUN_CONTEXT_H_
