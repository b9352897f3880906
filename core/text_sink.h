// Where formatted text goes, without an OS: a callback that takes bytes, and printf-style
// formatting into it through a fixed buffer on the stack.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// What is promised:
//   * Printf() formats with vsnprintf into a 256-byte stack buffer and writes what fits;
//     a longer expansion is cut there (callers print one field or one short line at a time).
// What is NOT promised:
//   * No buffering beyond one call: each Printf() is one Write().
#ifndef CORE_TEXT_SINK_H_
#define CORE_TEXT_SINK_H_

#include <cstddef>

namespace tickbench::core {

class TextSink {
 public:
  virtual ~TextSink() = default;
  virtual void Write(const char* data, size_t size) = 0;
  void Print(const char* text);
  void Printf(const char* format, ...) __attribute__((format(printf, 2, 3)));
};

}  // namespace tickbench::core

#endif  // CORE_TEXT_SINK_H_
