// One setting in force for a run, for the report's provenance: every flag with its value
// (given or the default, or what an experiment's preset put in force), its type, and
// whether it was given on the command line.
#ifndef HARNESS_CONTEXT_SETTING_H_
#define HARNESS_CONTEXT_SETTING_H_

#include <string>

namespace tickbench::harness {

struct Setting {
  std::string name;  // the flag's name, without "--"
  // "bool", "integer", "number", "string" or "duration"; the JSON writes the value as
  // that type (a duration in nanoseconds).
  std::string type;
  std::string text;  // the value as the flag prints it ("1s", "true", "32,512")
  bool given = false;
};

}  // namespace tickbench::harness

#endif  // HARNESS_CONTEXT_SETTING_H_
