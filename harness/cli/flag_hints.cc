#include "harness/cli/flag_hints.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "harness/cli/command_line.h"
#include "harness/cli/duration_flag.h"
#include "harness/cli/plan.h"
#include "timing/clocks/clock_spec.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench::harness {

std::vector<FlagArgument> ScanFlags(
    const std::vector<std::string>& args,
    const std::function<bool(absl::string_view name)>& takes_value) {
  std::vector<FlagArgument> flags;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) continue;
    const size_t equals = arg.find('=');
    FlagArgument flag{std::string(arg.substr(0, equals)), std::nullopt};
    if (equals != absl::string_view::npos) {
      flag.value = std::string(arg.substr(equals + 1));
    } else if (takes_value != nullptr && takes_value(flag.name) && i + 1 < args.size()) {
      flag.value = args[++i];
    }
    flags.push_back(std::move(flag));
  }
  return flags;
}

std::vector<std::string> UnknownFlagHints(const std::vector<std::string>& args,
                                          const std::vector<std::string>& names,
                                          bool (*takes_value)(absl::string_view name)) {
  auto known = [&names](absl::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string> hints;
  const auto known_taking_value = [&](absl::string_view name) {
    return known(name) && takes_value(name);
  };
  for (const FlagArgument& flag : ScanFlags(args, known_taking_value)) {
    const absl::string_view name = flag.name;
    if (known(name) || (absl::StartsWith(name, "no") && known(name.substr(2)))) continue;
    const std::string nearest = NearestName(name, names);
    hints.push_back(absl::StrCat("tickbench: unknown flag --", absl::CHexEscape(name),
                                 nearest.empty()
                                     ? " (--help lists every flag)"
                                     : absl::StrCat("; did you mean --", nearest, "?")));
  }
  return hints;
}

namespace {

enum class NumberKind { kInteger, kUnsigned, kDuration };
// A whole-number or duration flag and its range as MakePlan's check says it: "must be ...".
struct NumberFlag {
  const char* name;
  NumberKind kind;
  std::string allowed;
};

const std::vector<NumberFlag>& NumberFlags() {
  auto whole = [](int64_t min, int64_t max, absl::string_view note = "") {
    return absl::StrFormat("must be %d..%d%s", min, max, note);
  };
  auto duration = [](absl::Duration min, absl::Duration max) {
    return absl::StrCat("must be a duration in [", absl::FormatDuration(min), ", ",
                        absl::FormatDuration(max), "]");
  };
  using K = NumberKind;
  const absl::Duration zero = absl::ZeroDuration();
  const int64_t most = std::numeric_limits<int64_t>::max();  // peer_*: no limit but int64's
  static const std::vector<NumberFlag>* const flags = new std::vector<NumberFlag>{
      {"iterations", K::kInteger, whole(1, kMaxIterations)},
      {"runs", K::kInteger, whole(1, kMaxRuns)},
      {"warmup", K::kInteger, whole(-1, kMaxIterations, " (-1: until steady)")},
      {"batch", K::kInteger, "must be 1..--iterations"},
      {"retries", K::kInteger, whole(0, kMaxRetries)},
      {"pipe_size", K::kInteger, whole(0, INT32_MAX, " bytes (0: the kernel's)")},
      {"so_sndbuf", K::kInteger, whole(0, INT32_MAX / 2, " bytes (0: the kernel's)")},
      {"so_rcvbuf", K::kInteger, whole(0, INT32_MAX / 2, " bytes (0: the kernel's)")},
      {"peer_drop_every", K::kInteger, whole(0, most, " (0 = off)")},
      {"peer_stop_after", K::kInteger, whole(0, most, " (0 = off)")},
      {"seed", K::kUnsigned, "must be 0..18446744073709551615"},  // all of uint64
      {"sim_cluster", K::kInteger, whole(1, transport::kMaxSimBufferBytes, " bytes")},
      {"sim_small", K::kInteger, whole(1, transport::kMaxSimBufferBytes, " bytes")},
      {"sim_threshold", K::kInteger, "must be 1..--sim_cluster bytes"},
      {"sim_mtu", K::kInteger,
       whole(transport::kMinSimMtuBytes, transport::kMaxSimBufferBytes, " bytes (0: no link)")},
      {"tick_period", K::kDuration,
       absl::StrCat("tick period must be a whole number of nanoseconds in [",
                    absl::FormatDuration(timing::kMinTickPeriod), ", ",
                    absl::FormatDuration(timing::kMaxTickPeriod),
                    "] (10ms = 100 Hz, 20ms = 50 Hz)")},
      {"receive_timeout", K::kDuration, duration(kMinReceiveTimeout, kMaxReceiveTimeout)},
      {"max_time", K::kDuration, duration(kMinMaxTime, kMaxMaxTime)},
      {"peer_reply_delay", K::kDuration, duration(zero, kMaxPeerReplyDelay)},
      {"gap", K::kDuration, duration(zero, kMaxGap)},
      {"sim_fixed", K::kDuration, duration(zero, transport::kMaxSimFixed)},
      {"sim_per_cluster", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_per_small", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_per_packet", K::kDuration, duration(zero, transport::kMaxSimPerBuffer)},
      {"sim_jitter_scale", K::kDuration, duration(zero, transport::kMaxSimJitterScale)},
  };
  return *flags;
}

// Why `text` is no value of a flag of `kind`, or "" when it is one. Whole numbers are
// decimal only: "0x10", which Abseil's parser reads as 16, is refused.
std::string NumberProblem(NumberKind kind, absl::string_view text) {
  const absl::string_view stripped = absl::StripAsciiWhitespace(text);
  DurationFlag duration;
  std::string error;
  int64_t integer = 0;
  uint64_t whole = 0;
  if (kind == NumberKind::kDuration) {
    if (AbslParseFlag(text, &duration, &error)) return "";
    return error.empty() ? "not a duration with its unit" : error;
  }
  if (absl::StrContains(absl::AsciiStrToLower(stripped), "0x")) {
    return "not a decimal number (whole numbers are written in decimal)";
  }
  if (kind == NumberKind::kInteger ? absl::SimpleAtoi(stripped, &integer)
                                   : absl::SimpleAtoi(stripped, &whole)) {
    return "";
  }
  const absl::string_view digits = absl::StripPrefix(absl::StripPrefix(stripped, "-"), "+");
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit)) {
    return "not a whole number";
  }
  return kind == NumberKind::kInteger ? "past what a 64-bit whole number holds"
                                      : "not a whole number from 0 to 2^64 - 1";
}

}  // namespace

std::vector<std::string> NumberValueHints(const std::vector<std::string>& args) {
  const auto number_flag = [](absl::string_view name) -> const NumberFlag* {
    for (const NumberFlag& flag : NumberFlags())
      if (name == flag.name) return &flag;
    return nullptr;
  };
  std::vector<std::string> hints;
  const auto takes_value = [&](absl::string_view name) { return number_flag(name) != nullptr; };
  for (const FlagArgument& given : ScanFlags(args, takes_value)) {
    const NumberFlag* flag = number_flag(given.name);
    if (flag == nullptr || !given.value.has_value()) continue;
    if (const std::string problem = NumberProblem(flag->kind, *given.value); !problem.empty()) {
      hints.push_back(absl::StrCat("tickbench: --", flag->name, ": ", flag->allowed, "; got ",
                                   Quoted(*given.value), ", ", problem));
    }
  }
  return hints;
}

}  // namespace tickbench::harness
