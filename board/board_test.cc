// Runs on the (emulated) board: the SysTick clocks, DWT detection, the PendSV echo, and the
// core's arithmetic on the board's compiler and C library (the same sources the host's
// GoogleTest suites in //core test). Prints one line per check; exits 1 if any failed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "board/dwt.h"
#include "board/pendsv_echo.h"
#include "board/systick.h"
#include "core/command_line.h"
#include "core/running_stats.h"
#include "core/tick_statistics.h"
#include "core/tick_study.h"

namespace tickbench::board {
namespace {

int g_failures = 0;

void Check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok) ++g_failures;
}

void TestSysTickCountsAtThePeriod() {
  SysTickClock tick;
  SysTickFineClock fine;
  Check(tick.info().claimed_resolution_ns == 10e6, "systick claims its 10 ms period");
  Check(fine.info().claimed_resolution_ns == 40, "systick_fine claims 40 ns");
  // Wait for a tick edge, then time the next three with the fine clock.
  const int64_t start = tick.NowTicks();
  while (tick.NowTicks() == start) {
  }
  const int64_t fine_start = fine.NowTicks();
  const int64_t edge = tick.NowTicks();
  while (tick.NowTicks() < edge + 3) {
  }
  const int64_t counts = fine.NowTicks() - fine_start;
  std::printf("  3 ticks = %lld counts of 40 ns (expected 750000)\n",
              static_cast<long long>(counts));
  // Polling sees an edge a few instructions late, at each end alike.
  Check(counts > 750000 - 200 && counts < 750000 + 200, "three ticks are 30 ms of systick_fine");
}

void TestFineClockNeverGoesBackAcrossWraps() {
  SysTickClock tick;
  SysTickFineClock fine;
  int64_t previous = fine.NowTicks();
  bool monotonic = true, consistent = true;
  const int64_t until = tick.NowTicks() + 4;
  int64_t reads = 0;
  while (tick.NowTicks() < until) {
    const uint32_t primask = reg::DisableInterrupts();
    const int64_t now = fine.NowTicks();
    const int64_t count = tick.NowTicks();
    const bool pending = (reg::ScbIcsr() & reg::kIcsrPendStSet) != 0;
    reg::RestoreInterrupts(primask);
    if (now < previous) monotonic = false;
    // Masked, the two read the same instant: systick = floor(fine / (reload + 1)), unless
    // a wrap is pending, which the fine clock counts and the tick has not yet.
    if (now / g_systick_counts_per_tick != count + (pending ? 1 : 0)) consistent = false;
    previous = now;
    ++reads;
  }
  std::printf("  %lld reads over 4 ticks\n", static_cast<long long>(reads));
  Check(monotonic, "systick_fine never goes back over 4 wraps of the counter");
  Check(consistent, "systick = floor(systick_fine / (reload + 1)) at the same instant");
}

void TestDwtIsDetectedOrRefusedWithAReason() {
  const char* reason = nullptr;
  const bool present = DetectDwt(&reason);
  if (present) {
    DwtClock dwt;
    const int64_t a = dwt.NowTicks();
    for (volatile int i = 0; i < 100; i = i + 1) {
    }
    Check(dwt.NowTicks() > a, "dwt present: CYCCNT counts");
  } else {
    std::printf("  dwt refused: %s\n", reason);
    Check(reason != nullptr && std::strstr(reason, "CYCCNT") != nullptr &&
              std::strstr(reason, "systick_fine") != nullptr,
          "dwt absent: refused, naming CYCCNT and the clock to use instead");
  }
}

void TestPendSvEchoes() {
  PendSvEcho echo;
  char sent[300], received[300];
  for (int i = 0; i < 300; ++i) sent[i] = static_cast<char>(i * 7);
  const uint32_t before = PendSvEcho::echoes();
  bool ok = echo.Send(sent, sizeof(sent)) && echo.Receive(received, sizeof(received));
  Check(ok && std::memcmp(sent, received, sizeof(sent)) == 0, "pendsv_echo returns the message");
  Check(PendSvEcho::echoes() == before + 1, "one echo per round trip");
  Check(PendSvEcho::last_exception() == 14, "the echo ran in the PendSV handler (exception 14)");
  Check(echo.Send(sent, 10) && !echo.Receive(received, 11), "a size mismatch is refused");
  static char big[kMaxMessageBytes + 1];
  Check(!echo.Send(big, sizeof(big)), "a message above the buffers is refused");
}

void TestCoreArithmeticOnTheBoard() {
  core::RunningStats stats;
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) stats.Add(v);
  Check(
      stats.mean() == 5.0 && stats.variance() == 32.0 / 7.0 && stats.min() == 2 && stats.max() == 9,
      "core::RunningStats: Welford moments");
  Check(core::TickZeroShare(744e3, 10e6) == 1 - 744e3 / 10e6 && core::TickZeroShare(2e7, 1e7) == 0,
        "core::TickZeroShare: 1 - d/T");
  Check(core::TickReadingSd(2.5e7, 1e7) == 5e6, "core::TickReadingSd: T/2 at f = 1/2");
  Check(core::AveragedBound(20e6, 1000) == 20e3, "core::AveragedBound: T/N");
  int64_t ns = 0;
  Check(core::ParseDurationNs("20ms", &ns) && ns == 20'000'000 && !core::ParseDurationNs("20", &ns),
        "core::ParseDurationNs");
  double d[4] = {0.2e7, 1.6e7, 0.2e7, 1.6e7};
  const core::TickMixture m = core::PredictTickMixture(d, 4, 1e7);
  Check(std::fabs(m.f - 0.6) < 1e-12 && std::fabs(m.zero_share - 0.4) < 1e-12 && m.n == 0,
        "core::PredictTickMixture");
}

// A short study cell on the board, checked against the theory's exact bounds.
void TestStudyCellOnTheBoard() {
  static char send[4096], receive[4096];
  static int64_t marks[302], reference_marks[302], ticks[600];
  static double readings[600], truths[600];
  core::StudyWorkspace w;
  w.send = send;
  w.receive = receive;
  w.message_capacity = sizeof(send);
  w.marks = marks;
  w.reference_marks = reference_marks;
  w.mark_capacity = 302;
  w.readings_ns = readings;
  w.truths_ns = truths;
  w.reading_ticks = ticks;
  w.reading_capacity = 600;
  core::StudyOptions options;
  options.iterations = 300;
  options.runs = 2;
  PendSvEcho echo;
  SysTickClock tick;
  SysTickFineClock fine;
  const core::StudyCell c = core::RunStudyCell(echo, tick, fine, w, 4096, options);
  std::printf(
      "  4096 B: truth %.2f us, averaged %.2f us (bound %.2f us), zero %.4f vs 1 - d/T "
      "%.4f (bound %.4f)\n",
      c.truth_ns / 1e3, c.averaged_ns / 1e3, c.total_bound_ns() / 1e3, c.zero_fraction,
      c.prediction.zero_share, c.zero_bound);
  Check(c.error == nullptr && c.faults == 0, "a study cell over pendsv_echo completes");
  Check(c.averaged_within_bound, "averaged within (T + r + w)/N of the reference");
  Check(c.zero_bound_applies && c.zero_within_bound,
        "zero share within (1 + (2r + w)/T)/N of 1 - d/T");
}

}  // namespace
}  // namespace tickbench::board

int main() {
  using namespace tickbench::board;
  const char* error = nullptr;
  if (!StartSysTick(10'000'000, &error)) {
    std::printf("FAIL StartSysTick: %s\n", error);
    return 1;
  }
  Check(!StartSysTick(10'000'001, &error) && std::strstr(error, "40 ns") != nullptr,
        "a period that is not a whole number of 40 ns counts is refused");
  StartSysTick(10'000'000, &error);
  TestSysTickCountsAtThePeriod();
  TestFineClockNeverGoesBackAcrossWraps();
  TestDwtIsDetectedOrRefusedWithAReason();
  TestPendSvEchoes();
  TestCoreArithmeticOnTheBoard();
  TestStudyCellOnTheBoard();
  std::printf("%s: %d check(s) failed\n", g_failures == 0 ? "PASSED" : "FAILED", g_failures);
  return g_failures == 0 ? 0 : 1;
}
