#include "transport/io/message_buffer.h"

#include <cstring>

namespace tickbench::transport {

void MessageBuffer::Resize(size_t size) {
  if (size > capacity_) {
    // Whole pages, so that the capacity is what the allocation holds.
    const size_t capacity =
        (size + kMessageBufferAlignment - 1) / kMessageBufferAlignment * kMessageBufferAlignment;
    std::unique_ptr<char, Free> grown(
        static_cast<char*>(::operator new (capacity, std::align_val_t{kMessageBufferAlignment})));
    if (size_ > 0) std::memcpy(grown.get(), storage_.get(), size_);
    std::memset(grown.get() + size_, 0, capacity - size_);
    storage_ = std::move(grown);
    capacity_ = capacity;
  } else if (size > size_) {
    std::memset(storage_.get() + size_, 0, size - size_);
  }
  size_ = size;
}

}  // namespace tickbench::transport
