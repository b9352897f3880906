#include "transport/io/message_pattern.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

std::vector<char> Stamped(size_t size, uint64_t sequence) {
  std::vector<char> message(size);
  FillPattern(absl::MakeSpan(message));
  StampSequence(absl::MakeSpan(message), sequence);
  return message;
}

TEST(MessagePatternTest, EverySizeChecksOk) {
  for (size_t size : {0, 1, 2, 7, 8, 9, 15, 16, 17, 24, 100, 4096, 65536}) {
    for (uint64_t sequence :
         {uint64_t{0}, uint64_t{1}, uint64_t{255}, uint64_t{1} << 40, ~uint64_t{0}}) {
      const std::vector<char> message = Stamped(size, sequence);
      EXPECT_TRUE(CheckEcho(message, sequence, false).ok()) << size << " " << sequence;
      MessageCheck full = CheckEcho(message, sequence, true);
      EXPECT_TRUE(full.ok()) << size << " " << sequence << ": " << Describe(full);
    }
  }
}

// EchoStampMatches() is CheckEcho(..., false).ok() without the diagnosis: the two agree on
// every size up to past the tail's threshold, for the right sequence, its neighbours, a
// far one, and every single-byte change of the message.
TEST(MessagePatternTest, EchoStampMatchesAgreesWithCheckEcho) {
  for (size_t size = 0; size <= 40; ++size) {
    for (uint64_t sequence :
         {uint64_t{0}, uint64_t{255}, uint64_t{256}, uint64_t{1} << 40, ~uint64_t{0} - 1}) {
      std::vector<char> message = Stamped(size, sequence);
      for (uint64_t expected :
           {sequence, sequence + 1, sequence - 1, sequence ^ (uint64_t{1} << 33)}) {
        EXPECT_EQ(EchoStampMatches(message, expected), CheckEcho(message, expected, false).ok())
            << size << " " << sequence << " " << expected;
      }
      EXPECT_TRUE(EchoStampMatches(message, sequence)) << size;
      for (size_t i = 0; i < size; ++i) {
        message[i] = static_cast<char>(message[i] ^ 0x10);
        EXPECT_EQ(EchoStampMatches(message, sequence), CheckEcho(message, sequence, false).ok())
            << size << " byte " << i;
        message[i] = static_cast<char>(message[i] ^ 0x10);
      }
    }
  }
}

TEST(MessagePatternTest, StampTouchesOnlyTheStampBytes) {
  std::vector<char> message(40);
  FillPattern(absl::MakeSpan(message));
  const std::vector<char> pattern = message;
  StampSequence(absl::MakeSpan(message), 0x0102030405060708);
  for (size_t i = 8; i < 32; ++i) EXPECT_EQ(message[i], pattern[i]) << i;
  EXPECT_EQ(message[0], 0x08);  // little-endian head
  EXPECT_EQ(message[7], 0x01);
  EXPECT_EQ(static_cast<unsigned char>(message[32]), 0xF7);  // complement at the tail
}

TEST(MessagePatternTest, MediumMessagesHaveNoTail) {
  std::vector<char> message(15);
  FillPattern(absl::MakeSpan(message));
  const std::vector<char> pattern = message;
  StampSequence(absl::MakeSpan(message), ~uint64_t{0});
  for (size_t i = 8; i < 15; ++i) EXPECT_EQ(message[i], pattern[i]) << i;
}

TEST(MessagePatternTest, MismatchSaysWhichWay) {
  const std::vector<char> message = Stamped(64, 5);
  MessageCheck late = CheckEcho(message, 7, true);
  EXPECT_EQ(late.result, CheckResult::kSequenceMismatch);
  EXPECT_EQ(late.seen_sequence, 5u);
  EXPECT_TRUE(late.late_or_duplicate());
  EXPECT_FALSE(late.ahead());
  EXPECT_EQ(Describe(late), "sequence 7 expected, 5 seen (late or duplicate)");
  MessageCheck ahead = CheckEcho(message, 3, false);
  EXPECT_TRUE(ahead.ahead());
  EXPECT_EQ(ahead.seen_sequence, 5u);
}

TEST(MessagePatternTest, ShortStampsUnwrapToTheNearestSequence) {
  // One byte holds 44 for sequences 44, 300, 556, ...
  EXPECT_EQ(CheckEcho(Stamped(1, 298), 300, false).seen_sequence, 298u);
  EXPECT_EQ(CheckEcho(Stamped(1, 303), 300, false).seen_sequence, 303u);
  EXPECT_EQ(CheckEcho(Stamped(1, 250), 260, false).seen_sequence, 250u);  // across a wrap
  EXPECT_TRUE(CheckEcho(Stamped(1, 250), 260, false).late_or_duplicate());
  EXPECT_EQ(CheckEcho(Stamped(1, 255), 0, false).seen_sequence, 255u);  // never below 0
  EXPECT_EQ(CheckEcho(Stamped(2, 70000), 70010, false).seen_sequence, 70000u);
  EXPECT_EQ(CheckEcho(Stamped(7, 1), 2, false).seen_sequence, 1u);
  // The documented blind spot: 256 messages apart look the same in one byte.
  EXPECT_TRUE(CheckEcho(Stamped(1, 44), 300, false).ok());
}

TEST(MessagePatternTest, TailCatchesCorruptionCheaply) {
  std::vector<char> message = Stamped(100, 9);
  message[95] ^= 1;
  EXPECT_EQ(CheckEcho(message, 9, false).result, CheckResult::kCorrupted);
  message = Stamped(100, 9);
  message[0] ^= 1;  // the head alone changed: not another intact sequence
  EXPECT_EQ(CheckEcho(message, 9, false).result, CheckResult::kCorrupted);
}

TEST(MessagePatternTest, FullCheckCatchesPatternDamageTheFastOneSkips) {
  for (size_t size : {9, 15, 17, 1000}) {
    std::vector<char> message = Stamped(size, 3);
    message[8] ^= 0x40;
    EXPECT_TRUE(CheckEcho(message, 3, false).ok()) << size;
    EXPECT_EQ(CheckEcho(message, 3, true).result, CheckResult::kCorrupted) << size;
  }
}

TEST(MessagePatternTest, PatternHasNoShortPeriod) {
  std::vector<char> pattern(1 << 16);
  FillPattern(absl::MakeSpan(pattern));
  for (size_t shift = 1; shift <= 4096; ++shift) {
    bool differs = false;
    for (size_t i = 0; i + shift < pattern.size() && !differs; ++i) {
      differs = pattern[i] != pattern[i + shift];
    }
    EXPECT_TRUE(differs) << "pattern repeats after " << shift << " bytes";
  }
}

}  // namespace
}  // namespace tickbench::transport
