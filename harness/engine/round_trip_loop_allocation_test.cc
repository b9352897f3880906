// The measurement loop allocates nothing: every operator new during it is counted.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "gtest/gtest.h"
#include "harness/engine/round_trip_engine.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"
#include "transport/registry/transport_factory.h"
#include "transport/sim/sim_transport.h"

namespace {
std::atomic<int64_t> g_allocations{0};
}  // namespace

void* operator new(size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace tickbench::harness {
namespace {

// Runs the loop SelectLoop picks for `endpoint` (whose echoes must come back) over
// `iterations` round trips of `size` bytes, checks it completed cleanly, and returns
// how many allocations it made. Every buffer is allocated before the count starts.
int64_t AllocationsOfLoop(transport::Endpoint& endpoint, timing::Clock& clock,
                          timing::Clock* reference, size_t size, int64_t iterations,
                          bool continue_on_loss) {
  std::vector<char> send(size), receive(size);
  std::vector<int64_t> marks(iterations + 2), reference_marks(iterations + 2);
  transport::FillPattern(absl::MakeSpan(send));
  LoopBuffers buffers{absl::MakeSpan(send), absl::MakeSpan(receive), absl::MakeSpan(marks),
                      absl::MakeSpan(reference_marks)};
  IntegrityCounts integrity;
  const RoundTripEngine::LoopFunction loop = SelectLoop(endpoint, clock, reference);
  const int64_t before = g_allocations.load();
  const LoopOutcome outcome =
      loop(endpoint, clock, reference, buffers, iterations, 1, 1, continue_on_loss, integrity);
  const int64_t allocations = g_allocations.load() - before;
  EXPECT_TRUE(outcome.status.ok()) << outcome.status;
  EXPECT_EQ(outcome.completed, iterations);
  EXPECT_EQ(outcome.marks, iterations + 1);
  EXPECT_EQ(integrity.total(), 0);
  return allocations;
}

int64_t AllocationsDuringLoop(timing::Clock& clock, timing::Clock* reference) {
  timing::VirtualClock time;
  transport::SimTransport sim(transport::SimRttModel{}, [&](int64_t ns) { time.AdvanceNanos(ns); });
  auto pair = sim.Connect();
  EXPECT_TRUE(pair.ok());
  if (!pair.ok()) return -1;
  return AllocationsOfLoop(*pair->client, clock, reference, 1024, 10'000, true);
}

// The loop specialised for a socket endpoint (direct calls) over a UDP pair. No peer runs:
// the echoes are queued on the server end before the loop (UDP has room for them all), so
// every allocation counted is this thread's.
int64_t AllocationsDuringDatagramLoop(timing::Clock& clock, timing::Clock* reference) {
  auto udp = transport::MakeTransport("udp");
  EXPECT_TRUE(udp.ok());
  if (!udp.ok()) return -1;
  auto pair = (*udp)->Connect();
  EXPECT_TRUE(pair.ok());
  if (!pair.ok()) return -1;
  EXPECT_EQ(LoopEndpointKind(*pair->client), "datagram_socket");
  EXPECT_TRUE(pair->client->SetReceiveTimeout(absl::Seconds(10)).ok());
  const int64_t iterations = 100;
  std::vector<char> echo(64);
  transport::FillPattern(absl::MakeSpan(echo));
  for (int64_t sequence = 1; sequence <= iterations; ++sequence) {
    transport::StampSequence(absl::MakeSpan(echo), sequence);
    EXPECT_TRUE(pair->server->Send(echo).ok());
  }
  return AllocationsOfLoop(*pair->client, clock, reference, 64, iterations, false);
}

TEST(RoundTripLoopAllocationTest, LoopAllocatesNothing) {
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  timing::GettimeofdayClock wall;
  EXPECT_EQ(AllocationsDuringLoop(monotonic, nullptr), 0);
  EXPECT_EQ(AllocationsDuringLoop(wall, &monotonic), 0);
  auto cycles = timing::CycleClock::Create(true);
  if (cycles.ok()) {
    EXPECT_EQ(AllocationsDuringLoop(**cycles, &monotonic), 0);
  }
}

TEST(RoundTripLoopAllocationTest, SocketEndpointLoopAllocatesNothing) {
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  EXPECT_EQ(AllocationsDuringDatagramLoop(monotonic, nullptr), 0);
  auto cycles = timing::CycleClock::Create(true);
  if (cycles.ok()) {
    EXPECT_EQ(AllocationsDuringDatagramLoop(**cycles, &monotonic), 0);
  }
}

TEST(RoundTripLoopAllocationTest, TheCounterCounts) {
  // Guards the guard: an allocation between the two loads is seen.
  const int64_t before = g_allocations.load();
  auto* p = new std::vector<int>(100);
  EXPECT_GT(g_allocations.load(), before);
  delete p;
}

}  // namespace
}  // namespace tickbench::harness
