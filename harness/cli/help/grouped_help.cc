#include "harness/cli/help/grouped_help.h"

#include <map>

#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "harness/output/text_wrap.h"

namespace tickbench::harness {

const std::vector<HelpGroup>& HelpGroups() {
  static const std::vector<HelpGroup>* const groups = new std::vector<HelpGroup>{
      {"What to run",
       {"experiment", "sizes", "iterations", "runs", "precision", "max_time", "warmup", "batch",
        "retries", "seed", "pin"}},
      {"Clocks",
       {"clock", "clock_id", "tick_period", "tick_phase", "uniqtime", "reference_clock",
        "allow_variable_cycle_counter", "clocks", "dither", "gap", "list_clocks", "clock_info"}},
      {"Transports", {"transport",       "pipe_size",       "so_sndbuf",        "so_rcvbuf",
                      "receive_timeout", "stop_on_loss",    "busy_poll",        "sim_fixed",
                      "sim_per_byte_ns", "sim_jitter",      "sim_jitter_scale", "sim_bsd",
                      "sim_cluster",     "sim_threshold",   "sim_small",        "sim_per_cluster",
                      "sim_per_small",   "sim_mtu",         "sim_link_rate",    "sim_per_packet",
                      "peer_drop_every", "peer_stop_after", "peer_reply_delay"}},
      {"Outputs",
       {"format", "output", "wide", "csv_context", "percentiles", "raw", "plot", "report",
        "quiet"}},
      {"Analysis", {"analyze", "analyze_column", "explain", "fit_sim", "compare"}},
      {"Remote", {"role", "listen", "peer"}},
  };
  return *groups;
}

std::string HelpDefault(const std::string& flag) {
  // Where the flag's value stands for something else, the words begin with that value
  // (or say what an empty one means).
  static const std::map<std::string, std::string>* const described =
      new std::map<std::string, std::string>{
          {"transport", "the experiment's"},
          {"sizes", "the experiment's"},
          {"iterations", "1000 (udp_rtt: 5000)"},
          {"runs", "4 (udp_rtt: 1)"},
          {"warmup", "-1 (until steady)"},
          {"precision", "2% without --runs and --iterations, else 0 (exact counts)"},
          {"clocks", "the study's clocks, listed below"},
          {"receive_timeout",
           "1s during the warm-up, then 1000 times the warm-up's median round trip, within "
           "[250ms, 10s]"},
          {"pin", "not pinned"},
          {"listen", "127.0.0.1:7478"},
          {"analyze_column", "averaged_rtt_ns, rtt_ns or value"},
      };
  if (auto it = described->find(flag); it != described->end()) return it->second;
  const absl::CommandLineFlag* registered = absl::FindCommandLineFlag(flag);
  if (registered == nullptr) return "";
  const std::string value = registered->DefaultValue();
  return value.empty() ? "none" : value;
}

std::string GroupedFlagHelp() {
  std::string text;
  for (const HelpGroup& group : HelpGroups()) {
    absl::StrAppend(&text, "\n", group.title, ":\n");
    for (const char* name : group.flags) {
      const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
      if (flag == nullptr) continue;
      absl::StrAppend(&text, "  --", name, " (default: ", HelpDefault(name), ")\n",
                      WrapText(absl::StrCat("      ", flag->Help(), "\n"), kTableColumns));
    }
  }
  return text;
}

}  // namespace tickbench::harness
