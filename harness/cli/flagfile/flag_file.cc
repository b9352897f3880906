#include "harness/cli/flagfile/flag_file.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/output/output_file.h"
#include "platform/facts/system_info.h"

namespace tickbench::harness {
namespace {

absl::Status Refused(absl::string_view file, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("--flagfile: '", absl::CHexEscape(file), "': ", what));
}

// Whether `line` holds a control byte (DEL too): a terminal escape, a NUL.
bool HasControlByte(absl::string_view line) {
  for (const char c : line) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

// "flagfile" for "--flagfile=x", "-flagfile", "--flagfile"; the name of any other flag.
absl::string_view FlagName(absl::string_view arg) {
  absl::ConsumePrefix(&arg, "-");
  absl::ConsumePrefix(&arg, "-");
  return arg.substr(0, arg.find('='));
}

// The flags of one file, appended to `out`.
absl::Status AppendFileFlags(absl::string_view file, std::vector<std::string>& out) {
  if (file.empty()) return absl::InvalidArgumentError("--flagfile: an empty file name");
  const absl::StatusOr<std::string> text =
      platform::ReadUserFile(ResolveUserPath(file), kMaxFlagFileBytes);
  if (!text.ok()) return Refused(file, text.status().message());
  int number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const std::string where = absl::StrCat("line ", number, ": ");
    if (HasControlByte(line)) return Refused(file, where + "a control byte in a flag");
    if (line[0] != '-' || line == "--" || line == "-") {
      return Refused(file, where + "not a flag (each line is one --name=value, or # a comment)");
    }
    if (FlagName(line) == "flagfile") {
      return Refused(file, where + "a flag file may not name another (--flagfile)");
    }
    out.emplace_back(line);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandFlagFiles(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.insert(out.end(), args.begin() + i, args.end());
      break;
    }
    if (!absl::StartsWith(arg, "-") || FlagName(arg) != "flagfile") {
      out.push_back(arg);
      continue;
    }
    std::optional<std::string> value;
    if (const size_t eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    }
    if (!value.has_value()) {
      return absl::InvalidArgumentError("--flagfile: takes a file name, --flagfile=FILE");
    }
    for (absl::string_view file : absl::StrSplit(*value, ',')) {
      if (absl::Status s = AppendFileFlags(file, out); !s.ok()) return s;
    }
  }
  return out;
}

}  // namespace tickbench::harness
