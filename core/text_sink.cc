#include "core/text_sink.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace tickbench::core {

void TextSink::Print(const char* text) { Write(text, std::strlen(text)); }

void TextSink::Printf(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  const int length = std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (length <= 0) return;
  const size_t size = static_cast<size_t>(length) < sizeof(buffer) ? static_cast<size_t>(length)
                                                                   : sizeof(buffer) - 1;
  Write(buffer, size);
}

}  // namespace tickbench::core
