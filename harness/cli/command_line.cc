#include "harness/cli/command_line.h"

#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {

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
                             absl::Duration max, bool min_open) {
  const bool low = min_open ? value <= min : value < min;
  if (low || value > max) {
    return BadFlag(flag, absl::StrCat("must be a duration in ", min_open ? "(" : "[",
                                      absl::FormatDuration(min), ", ", absl::FormatDuration(max),
                                      "]; got ", absl::FormatDuration(value)));
  }
  return absl::OkStatus();
}

absl::Status IntegerInRange(absl::string_view flag, int64_t value, int64_t min, int64_t max,
                            absl::string_view note) {
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

namespace {

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
  if (flag == "fit_sim") return {Bit(Mode::kAnalyze), "--analyze"};
  if (flag == "format") {
    return {
        Bit(Mode::kMeasure) | Bit(Mode::kListClocks) | Bit(Mode::kClockInfo) | Bit(Mode::kAnalyze),
        "a measurement, --list_clocks, --clock_info or --analyze"};
  }
  if (flag == "plot" || flag == "report")
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

}  // namespace tickbench::harness
