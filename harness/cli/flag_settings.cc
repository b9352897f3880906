#include "harness/cli/flag_settings.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/cli/duration_flag.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::harness {
namespace {

// A flag's type as the report names it.
std::string SettingType(const absl::CommandLineFlag& flag) {
  if (flag.IsOfType<bool>()) return "bool";
  if (flag.IsOfType<int64_t>() || flag.IsOfType<uint64_t>() || flag.IsOfType<int32_t>()) {
    return "integer";
  }
  if (flag.IsOfType<double>()) return "number";
  if (flag.IsOfType<DurationFlag>()) return "duration";
  return "string";
}

}  // namespace

std::vector<std::string> RegisteredFlagNames() {
  std::vector<std::string> names;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!flag->IsRetired()) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool RegisteredFlagTakesValue(absl::string_view name) {
  const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
  return flag != nullptr && !flag->IsOfType<bool>();
}

std::vector<Setting> FlagSettings(const std::set<std::string>& given) {
  std::vector<Setting> settings;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (flag->IsRetired() || !absl::StrContains(flag->Filename(), "harness/cli/flags.cc")) continue;
    const std::string key(name);
    settings.push_back(
        Setting{key, SettingType(*flag), flag->CurrentValue(), given.count(key) > 0});
  }
  std::sort(settings.begin(), settings.end(),
            [](const Setting& a, const Setting& b) { return a.name < b.name; });
  return settings;
}

std::vector<Setting> SettingsInForce(const CommandLine& command_line, const Plan& plan) {
  std::vector<Setting> settings = command_line.settings;
  auto set = [&settings](absl::string_view name, std::string text) {
    for (Setting& s : settings) {
      if (s.name == name) s.text = std::move(text);
    }
  };
  set("experiment", plan.preset.name);
  set("transport", plan.transport);
  set("sizes", absl::StrJoin(plan.sweep.sizes, ","));
  set("iterations", absl::StrCat(plan.sweep.engine.iterations));
  set("runs", absl::StrCat(plan.sweep.runs));
  set("warmup", absl::StrCat(plan.sweep.engine.warmup));
  set("retries", absl::StrCat(plan.sweep.retries));
  if (!plan.study) set("clock", timing::ClockSpecToString(plan.clock));
  set("reference_clock", plan.has_reference ? timing::ClockSpecToString(plan.reference) : "none");
  if (plan.study) {
    std::vector<std::string> clocks;
    for (const timing::ClockSpec& spec : plan.study_clocks) {
      clocks.push_back(timing::ClockSpecToString(spec));
    }
    set("clocks", absl::StrJoin(clocks, ","));
  }
  return settings;
}

}  // namespace tickbench::harness
