#include "core/round_trip_loop.h"

#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

// Counts its reads: reading i returns 10 * i.
struct CountingClock {
  int64_t reads = 0;
  int64_t NowTicks() { return 10 * reads++; }
};

// Echoes what it was sent; can corrupt one trip's echo or drop the sequence.
struct Echo {
  std::vector<char> stash;
  int64_t trips = 0;
  int64_t corrupt_trip = -1;
  int64_t stale_trip = -1;
  int64_t fail_trip = -1;
  std::vector<uint64_t> sequences;
  bool Send(const char* data, size_t size) {
    if (trips == fail_trip) return false;
    stash.assign(data, data + size);
    uint64_t sequence = 0;
    for (size_t i = 0; i < 8 && i < size; ++i) {
      sequence |= static_cast<uint64_t>(static_cast<unsigned char>(data[i])) << (8 * i);
    }
    sequences.push_back(sequence);
    return true;
  }
  bool Receive(char* data, size_t size) {
    std::memcpy(data, stash.data(), size);
    if (trips == corrupt_trip) data[size - 1] ^= 0x40;
    if (trips == stale_trip) data[0] ^= 1;
    ++trips;
    return true;
  }
};

struct Fixture {
  std::vector<char> send, receive;
  std::vector<int64_t> marks, reference_marks;
  LoopBuffers buffers;
  Fixture(size_t size, int64_t max_marks)
      : send(size), receive(size), marks(max_marks, -1), reference_marks(max_marks, -1) {
    FillPattern(send.data(), size);
    buffers.send = send.data();
    buffers.receive = receive.data();
    buffers.size = size;
    buffers.marks = marks.data();
    buffers.reference_marks = reference_marks.data();
  }
};

TEST(CoreRoundTripLoopTest, PerIterationReadsAtEveryTripThenTheReference) {
  Fixture f(64, 12);
  Echo echo;
  CountingClock clock, reference;
  const LoopOutcome outcome =
      TimedLoop(echo, clock, ReferenceClock<CountingClock>{&reference}, f.buffers, 10, 1, 100);
  EXPECT_EQ(outcome.completed, 10);
  EXPECT_EQ(outcome.marks, 11);
  EXPECT_EQ(outcome.faults, 0);
  EXPECT_FALSE(outcome.transport_failed);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(f.marks[i], 10 * i);
  EXPECT_EQ(f.marks[11], -1);
  EXPECT_EQ(reference.reads, 11);
  ASSERT_EQ(echo.sequences.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(echo.sequences[i], 100u + i);
}

TEST(CoreRoundTripLoopTest, AveragedReadsOnlyAroundTheLoop) {
  Fixture f(32, 4);
  Echo echo;
  CountingClock clock;
  const LoopOutcome outcome = TimedLoop(echo, clock, NoReferenceClock{}, f.buffers, 25, 25, 1);
  EXPECT_EQ(outcome.marks, 2);
  EXPECT_EQ(clock.reads, 2);
  EXPECT_EQ(f.reference_marks[0], -1);  // no reference: never written
}

TEST(CoreRoundTripLoopTest, PartialLastBatchIsClosed) {
  Fixture f(16, 6);
  Echo echo;
  CountingClock clock;
  const LoopOutcome outcome = TimedLoop(echo, clock, NoReferenceClock{}, f.buffers, 10, 4, 1);
  EXPECT_EQ(outcome.marks, 4);  // 0, after 4, after 8, after 10
  EXPECT_EQ(outcome.completed, 10);
}

TEST(CoreRoundTripLoopTest, CorruptedAndStaleEchoesAreFaults) {
  Fixture f(100, 12);
  Echo echo;
  echo.corrupt_trip = 3;
  echo.stale_trip = 7;
  CountingClock clock;
  const LoopOutcome outcome = TimedLoop(echo, clock, NoReferenceClock{}, f.buffers, 10, 1, 1);
  EXPECT_EQ(outcome.faults, 2);
  EXPECT_EQ(outcome.completed, 10);
}

TEST(CoreRoundTripLoopTest, TransportFailureStopsWithoutAClosingReading) {
  Fixture f(8, 12);
  Echo echo;
  echo.fail_trip = 4;
  CountingClock clock;
  const LoopOutcome outcome = TimedLoop(echo, clock, NoReferenceClock{}, f.buffers, 10, 1, 1);
  EXPECT_TRUE(outcome.transport_failed);
  EXPECT_EQ(outcome.completed, 4);
  EXPECT_EQ(outcome.marks, 5);
}

TEST(CoreRoundTripLoopTest, EchoCheck) {
  std::vector<char> sent(20), echo(20);
  FillPattern(sent.data(), sent.size());
  StampSequence(sent.data(), sent.size(), 0x0102030405060708ULL);
  EXPECT_EQ(sent[0], 0x08);
  EXPECT_EQ(sent[7], 0x01);
  EXPECT_EQ(sent[8], PatternByte(8));
  echo = sent;
  EXPECT_EQ(CheckEcho(sent.data(), echo.data(), 20), EchoCheck::kOk);
  echo[19] ^= 1;
  EXPECT_EQ(CheckEcho(sent.data(), echo.data(), 20), EchoCheck::kCorrupted);
  echo = sent;
  echo[2] ^= 1;
  EXPECT_EQ(CheckEcho(sent.data(), echo.data(), 20), EchoCheck::kWrongSequence);
  // Messages shorter than 8 bytes carry the low bytes of the sequence only.
  char small[3] = {};
  StampSequence(small, 3, 0x0a0b0c0dULL);
  EXPECT_EQ(small[0], 0x0d);
  EXPECT_EQ(small[2], 0x0b);
}

}  // namespace
}  // namespace tickbench::core
