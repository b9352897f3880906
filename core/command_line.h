// Parsing of the board program's command line (what semihosting hands it as one string),
// in the host harness's syntax: `--name=value` flags, durations such as `10ms`, size lists
// such as `32,512,4096`.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// What is promised:
//   * SplitCommandLine() splits at spaces in place (the string is modified) and keeps at
//     most `max_args` pointers; it returns how many words there were (possibly more).
//   * Each Parse* returns false, leaving the output alone, on anything but the whole text
//     being valid: no trailing bytes, no overflow, no sign where none belongs.
// What is NOT promised:
//   * No quoting: a value cannot contain a space.
#ifndef CORE_COMMAND_LINE_H_
#define CORE_COMMAND_LINE_H_

#include <cstdint>

namespace tickbench::core {

int SplitCommandLine(char* line, char** args, int max_args);

// "--name=value" -> true, *value = "value"; "--name" -> true, *value = "" (a bare flag).
bool MatchFlag(const char* arg, const char* name, const char** value);

// A non-negative decimal integer below 2^62.
bool ParseCount(const char* text, int64_t* value);

// A positive duration: a decimal number (optionally with a fraction) and a unit, one of
// ns, us, ms, s; the result must be a whole number of nanoseconds.
bool ParseDurationNs(const char* text, int64_t* ns);

// A comma-separated list of positive counts; at most `max_sizes`, else false.
bool ParseSizeList(const char* text, int64_t* sizes, int max_sizes, int* count);

}  // namespace tickbench::core

#endif  // CORE_COMMAND_LINE_H_
