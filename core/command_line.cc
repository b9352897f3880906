#include "core/command_line.h"

#include <cstring>

namespace tickbench::core {
namespace {

constexpr int64_t kLimit = int64_t{1} << 62;

// Parses digits from *text while they last; false on none or on overflow.
bool ParseDigits(const char** text, int64_t* value, int* digits) {
  int64_t result = 0;
  int count = 0;
  const char* p = *text;
  while (*p >= '0' && *p <= '9') {
    // Checked before the multiplication, which would otherwise overflow (UB) first.
    if (result > (kLimit - 10) / 10) return false;
    result = result * 10 + (*p - '0');
    ++p;
    ++count;
  }
  if (count == 0) return false;
  *text = p;
  *value = result;
  *digits = count;
  return true;
}

}  // namespace

int SplitCommandLine(char* line, char** args, int max_args) {
  int count = 0;
  char* p = line;
  while (*p != '\0') {
    while (*p == ' ' || *p == '\t' || *p == '\n') *p++ = '\0';
    if (*p == '\0') break;
    if (count < max_args) args[count] = p;
    ++count;
    while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') ++p;
  }
  return count;
}

bool MatchFlag(const char* arg, const char* name, const char** value) {
  if (arg[0] != '-' || arg[1] != '-') return false;
  const size_t length = std::strlen(name);
  if (std::strncmp(arg + 2, name, length) != 0) return false;
  const char* rest = arg + 2 + length;
  if (*rest == '\0') {
    *value = rest;
    return true;
  }
  if (*rest != '=') return false;
  *value = rest + 1;
  return true;
}

bool ParseCount(const char* text, int64_t* value) {
  int64_t result;
  int digits;
  if (!ParseDigits(&text, &result, &digits) || *text != '\0') return false;
  *value = result;
  return true;
}

bool ParseDurationNs(const char* text, int64_t* ns) {
  int64_t whole = 0, fraction = 0;
  int digits = 0, fraction_digits = 0;
  if (!ParseDigits(&text, &whole, &digits)) return false;
  if (*text == '.') {
    ++text;
    if (!ParseDigits(&text, &fraction, &fraction_digits) || fraction_digits > 9) return false;
  }
  int64_t scale;
  if (std::strcmp(text, "ns") == 0) {
    scale = 1;
  } else if (std::strcmp(text, "us") == 0) {
    scale = 1000;
  } else if (std::strcmp(text, "ms") == 0) {
    scale = 1000 * 1000;
  } else if (std::strcmp(text, "s") == 0) {
    scale = 1000 * 1000 * 1000;
  } else {
    return false;
  }
  if (whole > kLimit / scale) return false;
  // fraction / 10^fraction_digits * scale must be whole.
  int64_t denominator = 1;
  for (int i = 0; i < fraction_digits; ++i) denominator *= 10;
  if ((fraction * scale) % denominator != 0) return false;
  const int64_t result = whole * scale + fraction * scale / denominator;
  if (result <= 0) return false;
  *ns = result;
  return true;
}

bool ParseSizeList(const char* text, int64_t* sizes, int max_sizes, int* count) {
  int n = 0;
  int64_t parsed[64];
  if (max_sizes > 64) max_sizes = 64;
  while (true) {
    int64_t value;
    int digits;
    if (!ParseDigits(&text, &value, &digits) || value == 0) return false;
    if (n == max_sizes) return false;
    parsed[n++] = value;
    if (*text == '\0') break;
    if (*text != ',') return false;
    ++text;
  }
  for (int i = 0; i < n; ++i) sizes[i] = parsed[i];
  *count = n;
  return true;
}

}  // namespace tickbench::core
