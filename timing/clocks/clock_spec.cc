#include "timing/clocks/clock_spec.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "core/board_rows.h"
#include "timing/clocks/clock_registry.h"

namespace tickbench::timing {

absl::Status ValidateTickPeriod(absl::Duration period) {
  if (period < kMinTickPeriod || period > kMaxTickPeriod ||
      period % absl::Nanoseconds(1) != absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tick period must be a whole number of nanoseconds in [",
        absl::FormatDuration(kMinTickPeriod), ", ", absl::FormatDuration(kMaxTickPeriod),
        "] (10ms = 100 Hz, 20ms = 50 Hz); got ", absl::FormatDuration(period)));
  }
  return absl::OkStatus();
}

absl::StatusOr<ClockSpec> ParseClockSpec(absl::string_view text) {
  for (const char c : text) {
    if (absl::ascii_iscntrl(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          absl::StrCat("clock '", absl::CHexEscape(text), "' contains a control character"));
    }
  }
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ':');
  const absl::string_view name = parts[0];
  const ClockKindInfo* row = FindClockKind(name);
  if (row == nullptr) {
    for (const core::BoardRow& board : core::kBoardClocks) {
      if (name == board.name) {
        return absl::InvalidArgumentError(absl::StrCat(
            "clock '", name, "' is ", core::kBoardOnly, ": run it on the emulated board, bazel ",
            "run --config=cortex_m3 //harness -- --clock=", name,
            " (docs/platforms.md); allowed clocks here: ", ClockKindsForHelp()));
      }
    }
    return absl::InvalidArgumentError(absl::StrCat("unknown clock '", absl::CHexEscape(name),
                                                   "'; allowed clocks: ", ClockKindsForHelp()));
  }
  ClockSpec spec;
  spec.kind = row->kind;
  const absl::Span<const absl::string_view> args = absl::MakeConstSpan(parts).subspan(1);
  if (absl::Status s = row->parse(name, args, text, spec); !s.ok()) return s;
  return spec;
}

absl::StatusOr<std::vector<ClockSpec>> ParseClockSpecList(absl::string_view text) {
  std::vector<ClockSpec> specs;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    absl::StatusOr<ClockSpec> spec = ParseClockSpec(item);
    if (!spec.ok()) return spec.status();
    specs.push_back(*spec);
  }
  if (specs.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no clock given; allowed clocks: ", ClockKindsForHelp()));
  }
  return specs;
}

std::string ClockSpecToString(const ClockSpec& spec) {
  return ClockKindRow(spec.kind).to_string(spec);
}

std::vector<ClockSpec> AvailableClockSpecs() {
  std::vector<ClockSpec> specs;
  for (const ClockKindInfo& row : RegisteredClockKinds()) {
    for (ClockSpec& spec : row.offered()) specs.push_back(std::move(spec));
  }
  return specs;
}

absl::StatusOr<std::unique_ptr<Clock>> MakeClock(const ClockSpec& spec,
                                                 const ClockEnvironment& environment) {
  return ClockKindRow(spec.kind).make(spec, environment);
}

}  // namespace tickbench::timing
