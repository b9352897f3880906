// A message buffer that starts a page.
//
// The kernel copies a message between its buffers and the caller's with `rep movsb`,
// whose speed depends on where the caller's buffer starts: a buffer 16 bytes past a
// 32-byte boundary, or at an odd address, makes a round trip measurably longer than a
// page-aligned one (docs/overhead.md, "Costs the code avoids"). malloc promises 16 bytes. So every
// buffer a message is sent from or received into, the client's and the echo peer's (and the bare
// loop's), is one of these: its first byte starts a page (kMessageBufferAlignment), so that a
// figure does not depend on where an allocator happened to put the buffer, and a message of up to a
// page lies in one page.
//
// What is promised:
//   * data() is a multiple of kMessageBufferAlignment (or null while size() is 0);
//   * a new buffer, and the bytes Resize() adds, are zero;
//   * Resize() keeps the first min(old, new) bytes and allocates only to grow past the
//     capacity, never inside a round trip that keeps its size.
// What is NOT promised: thread safety.
#ifndef TRANSPORT_MESSAGE_BUFFER_H_
#define TRANSPORT_MESSAGE_BUFFER_H_

#include <cstddef>
#include <memory>
#include <new>
#include <utility>

#include "absl/types/span.h"

namespace tickbench::transport {

inline constexpr size_t kMessageBufferAlignment = 4096;

class MessageBuffer {
 public:
  MessageBuffer() = default;
  explicit MessageBuffer(size_t size) { Resize(size); }
  MessageBuffer(MessageBuffer&& other) noexcept { *this = std::move(other); }
  // The moved-from buffer is empty, as a new one.
  MessageBuffer& operator=(MessageBuffer&& other) noexcept {
    storage_ = std::move(other.storage_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }

  char* data() { return storage_.get(); }
  const char* data() const { return storage_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  absl::Span<char> span() { return absl::MakeSpan(data(), size_); }

  void Resize(size_t size);

 private:
  struct Free {
    void operator()(char* p) const {
      ::operator delete (p, std::align_val_t{kMessageBufferAlignment});
    }
  };

  std::unique_ptr<char, Free> storage_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_MESSAGE_BUFFER_H_
