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
  CheckedTrips<Echo> trips;
  LoopMarks where;
  Fixture(Echo& echo, size_t size, int64_t max_marks, uint64_t first_sequence = 1)
      : send(size), receive(size), marks(max_marks, -1), reference_marks(max_marks, -1) {
    FillPattern(send.data(), size);
    trips.endpoint = &echo;
    trips.send = send.data();
    trips.receive = receive.data();
    trips.size = size;
    trips.first_sequence = first_sequence;
    where = {marks.data(), reference_marks.data()};
  }
};

TEST(CoreRoundTripLoopTest, PerIterationReadsAtEveryTripThenTheReference) {
  Echo echo;
  Fixture f(echo, 64, 12, 100);
  CountingClock clock, reference;
  const LoopCount count =
      TimedLoop(f.trips, clock, ReferenceClock<CountingClock>{&reference}, f.where, 10, 1);
  EXPECT_EQ(count.completed, 10);
  EXPECT_EQ(count.marks, 11);
  EXPECT_EQ(f.trips.faults, 0);
  EXPECT_FALSE(count.stopped);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(f.marks[i], 10 * i);
  EXPECT_EQ(f.marks[11], -1);
  EXPECT_EQ(reference.reads, 11);
  ASSERT_EQ(echo.sequences.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(echo.sequences[i], 100u + i);
}

TEST(CoreRoundTripLoopTest, AveragedReadsOnlyAroundTheLoop) {
  Echo echo;
  Fixture f(echo, 32, 4);
  CountingClock clock;
  const LoopCount count = TimedLoop(f.trips, clock, NoReferenceClock{}, f.where, 25, 25);
  EXPECT_EQ(count.marks, 2);
  EXPECT_EQ(clock.reads, 2);
  EXPECT_EQ(f.reference_marks[0], -1);  // no reference: never written
}

TEST(CoreRoundTripLoopTest, PartialLastBatchIsClosed) {
  Echo echo;
  Fixture f(echo, 16, 6);
  CountingClock clock;
  const LoopCount count = TimedLoop(f.trips, clock, NoReferenceClock{}, f.where, 10, 4);
  EXPECT_EQ(count.marks, 4);  // 0, after 4, after 8, after 10
  EXPECT_EQ(count.completed, 10);
}

// The tail stamp covers the last 8 bytes, the head the first 8: both are seen by the O(1)
// check the loop makes of every echo.
TEST(CoreRoundTripLoopTest, CorruptedAndStaleEchoesAreFaults) {
  Echo echo;
  echo.corrupt_trip = 3;
  echo.stale_trip = 7;
  Fixture f(echo, 100, 12);
  CountingClock clock;
  const LoopCount count = TimedLoop(f.trips, clock, NoReferenceClock{}, f.where, 10, 1);
  EXPECT_EQ(f.trips.faults, 2);
  EXPECT_EQ(count.completed, 10);
}

TEST(CoreRoundTripLoopTest, TransportFailureStopsWithoutAClosingReading) {
  Echo echo;
  echo.fail_trip = 4;
  Fixture f(echo, 8, 12);
  CountingClock clock;
  const LoopCount count = TimedLoop(f.trips, clock, NoReferenceClock{}, f.where, 10, 1);
  EXPECT_TRUE(count.stopped);
  EXPECT_EQ(count.completed, 4);
  EXPECT_EQ(count.marks, 5);
}

// A policy learns which interval each trip belongs to, and what it keeps from trip to trip
// comes back to the caller when the loop ends.
struct RecordingTrips {
  std::vector<int64_t>* intervals = nullptr;
  int64_t stop_at = -1;
  int64_t trips = 0;
  bool Trip(int64_t index, int64_t interval) {
    if (index == stop_at) return false;
    intervals->push_back(interval);
    ++trips;
    return true;
  }
};

TEST(CoreRoundTripLoopTest, PolicyGetsEachTripsIntervalAndIsCopiedBack) {
  std::vector<int64_t> intervals;
  RecordingTrips trips{&intervals};
  std::vector<int64_t> marks(8, -1);
  CountingClock clock;
  const LoopCount count = TimedLoop(trips, clock, NoReferenceClock{}, {marks.data()}, 7, 3);
  EXPECT_EQ(count.marks, 4);
  EXPECT_EQ(trips.trips, 7);
  EXPECT_EQ(intervals, (std::vector<int64_t>{0, 0, 0, 1, 1, 1, 2}));
  trips.stop_at = 2;
  trips.trips = 0;
  const LoopCount stopped = TimedLoop(trips, clock, NoReferenceClock{}, {marks.data()}, 7, 1);
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(trips.trips, 2);
  EXPECT_EQ(stopped.marks, 3);  // before, after trip 0, after trip 1: none after the stop
}

// A bracketed pass reads both clocks right before and right after each trip (the measured
// one first), pauses between trips outside the readings, and overwrites a reading the
// policy does not keep.
struct BracketTrips {
  CountingClock* clock = nullptr;
  std::vector<int64_t>* pauses = nullptr;  // the clock's reads when each pause ran
  int64_t drop = -1;                       // this trip's reading is not kept
  int64_t stop_at = -1;
  int64_t last = -1;
  void Pause() { pauses->push_back(clock->reads); }
  bool Trip(int64_t index, int64_t /*kept so far*/) {
    last = index;
    return index != stop_at;
  }
  bool KeepLast() const { return last != drop; }
};

TEST(CoreRoundTripLoopTest, BracketedPassReadsAroundEachTripAndKeepsWhatThePolicyKeeps) {
  CountingClock clock, reference;
  std::vector<int64_t> pauses;
  BracketTrips trips{&clock, &pauses, 1};
  std::vector<int64_t> starts(4, -1), stops(4, -1), reference_starts(4, -1), reference_stops(4, -1);
  const BracketMarks where{starts.data(), stops.data(), reference_starts.data(),
                           reference_stops.data()};
  const LoopCount count =
      BracketedLoop(trips, clock, ReferenceClock<CountingClock>{&reference}, where, 3);
  EXPECT_EQ(count.completed, 3);
  EXPECT_EQ(count.marks, 2);  // trip 1's reading was overwritten by trip 2's
  EXPECT_EQ(starts, (std::vector<int64_t>{0, 40, -1, -1}));
  EXPECT_EQ(stops, (std::vector<int64_t>{10, 50, -1, -1}));
  EXPECT_EQ(reference_starts[1], 40);
  EXPECT_EQ(pauses, (std::vector<int64_t>{0, 2, 4}));  // between trips, never between reads
  trips.stop_at = 1;
  trips.drop = -1;
  const LoopCount stopped =
      BracketedLoop(trips, clock, ReferenceClock<CountingClock>{&reference}, where, 3);
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(stopped.completed, 1);
  EXPECT_EQ(stopped.marks, 1);
}

// The board stamps the bytes the host does (core/message_stamp.h), not a pattern of its own.
TEST(CoreRoundTripLoopTest, BoardMessagesCarryTheSharedStamp) {
  Echo echo;
  Fixture f(echo, 40, 4, 0x0102030405060708ULL);
  CountingClock clock;
  TimedLoop(f.trips, clock, NoReferenceClock{}, f.where, 1, 1);
  EXPECT_EQ(f.send[0], 0x08);
  EXPECT_EQ(f.send[7], 0x01);
  EXPECT_EQ(f.send[8], PatternByte(8));
  EXPECT_EQ(static_cast<unsigned char>(f.send[32]), 0xf7);  // ~0x08: the tail stamp
  EXPECT_TRUE(CheckEcho(f.receive.data(), 40, 0x0102030405060708ULL, true).ok());
}

}  // namespace
}  // namespace tickbench::core
