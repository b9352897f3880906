#include "transport/io/message_buffer.h"

#include <cstdint>
#include <utility>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

bool StartsAPage(const char* p) {
  return reinterpret_cast<uintptr_t>(p) % kMessageBufferAlignment == 0;
}

TEST(MessageBufferTest, StartsAPageAtEverySize) {
  for (size_t size :
       {size_t{1}, size_t{16}, size_t{1024}, size_t{4096}, size_t{4097}, size_t{65507}}) {
    MessageBuffer buffer(size);
    EXPECT_TRUE(StartsAPage(buffer.data())) << size;
    EXPECT_EQ(buffer.size(), size);
    EXPECT_EQ(buffer.span().size(), size);
    EXPECT_EQ(buffer.capacity() % kMessageBufferAlignment, 0u);
    EXPECT_GE(buffer.capacity(), size);
  }
  MessageBuffer empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.span().empty());
}

TEST(MessageBufferTest, NewBytesAreZero) {
  MessageBuffer buffer(100);
  for (char c : buffer.span()) ASSERT_EQ(c, 0);
  buffer.span()[99] = 'x';
  buffer.Resize(50);
  buffer.Resize(100);  // within the capacity: the bytes it adds again are zero
  EXPECT_EQ(buffer.span()[99], 0);
}

TEST(MessageBufferTest, ResizeKeepsTheBytesAndGrowsOnlyPastTheCapacity) {
  MessageBuffer buffer(10);
  for (size_t i = 0; i < 10; ++i) buffer.span()[i] = static_cast<char>('a' + i);
  const char* before = buffer.data();
  buffer.Resize(buffer.capacity());
  EXPECT_EQ(buffer.data(), before);  // no allocation within the capacity
  buffer.Resize(buffer.capacity() + 1);
  EXPECT_TRUE(StartsAPage(buffer.data()));
  EXPECT_EQ(buffer.size(), kMessageBufferAlignment + 1);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(buffer.span()[i], static_cast<char>('a' + i)) << i;
  for (size_t i = 10; i < buffer.size(); ++i) ASSERT_EQ(buffer.span()[i], 0) << i;
}

TEST(MessageBufferTest, MovesItsStorage) {
  MessageBuffer from(64);
  from.span()[0] = 'q';
  const char* storage = from.data();
  MessageBuffer to = std::move(from);
  EXPECT_EQ(to.data(), storage);
  EXPECT_EQ(to.span()[0], 'q');
  EXPECT_EQ(to.size(), 64u);
  EXPECT_EQ(from.size(), 0u);  // NOLINT(bugprone-use-after-move): what is left is empty
  EXPECT_EQ(from.capacity(), 0u);
  from.Resize(8);
  EXPECT_TRUE(StartsAPage(from.data()));
}

}  // namespace
}  // namespace tickbench::transport
