// Runs on the (emulated) RISC-V board: the conformance of its clocks to their contracts
// (board/riscv32/clint_clocks.h), the software-interrupt echo, the C library's formatting
// that the reports rely on, and a study cell against the theory's exact bounds. Prints one
// line per check; exits 1 if any failed.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "board/riscv32/clint_clocks.h"
#include "board/riscv32/msip_echo.h"
#include "board/riscv32/rv32.h"
#include "core/study_report.h"
#include "core/tick_study.h"

namespace tickbench::board::riscv32 {
namespace {

int g_failures = 0;

void Check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok) ++g_failures;
}

void Start(int64_t period_ns) {
  const char* error = nullptr;
  if (!StartMtimeTick(period_ns, &error)) {
    std::printf("FAIL StartMtimeTick(%lld): %s\n", static_cast<long long>(period_ns), error);
    ++g_failures;
  }
}

void TestPeriodsAreCheckedAndClaimed() {
  const char* error = nullptr;
  Check(!StartMtimeTick(10'000'050, &error) && std::strstr(error, "100 ns") != nullptr,
        "a period that is not a whole number of 100 ns is refused");
  Check(!StartMtimeTick(5'000, &error) && !StartMtimeTick(20'000'000'000, &error),
        "periods outside 10us..10s are refused");
  Start(10'000'000);
  MtimeTickClock tick;
  MtimeClock mtime;
  Check(tick.info().claimed_resolution_ns == 10e6 && tick.info().ticks_per_second == 100,
        "mtime_tick claims its 10 ms period");
  Check(mtime.info().claimed_resolution_ns == 100 && mtime.info().ticks_per_second == 10e6,
        "mtime claims 100 ns at 10 MHz");
}

// Waits for a tick edge, then times `ticks` ticks with mtime: returns mtime counts.
int64_t TimeTicks(int ticks) {
  MtimeTickClock tick;
  MtimeClock mtime;
  const int64_t start = tick.NowTicks();
  while (tick.NowTicks() == start) {
  }
  const int64_t mtime_start = mtime.NowTicks();
  const int64_t edge = tick.NowTicks();
  while (tick.NowTicks() < edge + ticks) {
  }
  return mtime.NowTicks() - mtime_start;
}

void TestTickCountsAtAnyPeriod() {
  Start(10'000'000);
  const int64_t ten = TimeTicks(3);
  Start(2'500'000);
  const int64_t quarter = TimeTicks(4);
  std::printf(
      "  3 ticks of 10 ms = %lld mtime counts, 4 of 2.5 ms = %lld (expected 300000, 100000)\n",
      static_cast<long long>(ten), static_cast<long long>(quarter));
  // Polling sees an edge a few instructions late, at each end alike.
  Check(ten > 300000 - 20 && ten < 300000 + 20, "three 10 ms ticks are 30 ms of mtime");
  Check(quarter > 100000 - 20 && quarter < 100000 + 20, "four 2.5 ms ticks are 10 ms of mtime");
}

// With interrupts masked and no tick deadline between two reads of mtime, the tick's
// count (plus one while its interrupt is pending) and floor((mtime - start) / period).
struct PairedReading {
  int64_t mtime, count, expected;
};
PairedReading ReadTickAndMtime() {
  while (true) {
    const uint32_t status = DisableInterrupts();
    const uint64_t first = Mtime();
    const int64_t count = g_tick_count + ((Mip() & kMachineTimer) ? 1 : 0);
    const uint64_t second = Mtime();
    RestoreInterrupts(status);
    const int64_t expected = static_cast<int64_t>((first - g_tick_start) / g_tick_mtime_counts);
    if (static_cast<int64_t>((second - g_tick_start) / g_tick_mtime_counts) == expected) {
      return {static_cast<int64_t>(first), count, expected};
    }
  }
}

void TestTickAgreesWithMtimeAtTheSameInstant() {
  Start(1'000'000);
  MtimeTickClock tick;
  MtimeClock mtime;
  int64_t previous = mtime.NowTicks(), reads = 0;
  bool monotonic = true, consistent = true;
  const int64_t until = tick.NowTicks() + 5;
  while (tick.NowTicks() < until) {
    const PairedReading now = ReadTickAndMtime();
    monotonic = monotonic && now.mtime >= previous;
    consistent = consistent && now.count == now.expected;
    previous = now.mtime;
    ++reads;
  }
  std::printf("  %lld paired reads over 5 ticks of 1 ms\n", static_cast<long long>(reads));
  Check(monotonic, "mtime never goes back");
  Check(consistent, "mtime_tick = floor((mtime - start) / period) at the same instant");
}

void TestMcycleIsDetectedAndCalibrated() {
  double hz = 0;
  const char* reason = nullptr;
  if (!DetectMcycle(&hz, &reason)) {
    std::printf("  mcycle refused: %s\n", reason);
    Check(std::strstr(reason, "mcycle") != nullptr && std::strstr(reason, "mtime") != nullptr,
          "mcycle absent: refused, naming the clock to use instead");
    return;
  }
  McycleClock cycles(hz);
  MtimeClock mtime;
  const int64_t c0 = cycles.NowTicks(), m0 = mtime.NowTicks();
  int64_t m1;
  while ((m1 = mtime.NowTicks()) < m0 + 20000) {
  }
  const int64_t c1 = cycles.NowTicks();  // before any arithmetic, which is software floating point
  const double measured = static_cast<double>(c1 - c0) * 10e6 / static_cast<double>(m1 - m0);
  std::printf("  mcycle at %.6g Hz; over 2 ms of mtime %.6g Hz\n", hz, measured);
  Check(cycles.info().claimed_resolution_ns == 1e9 / hz, "mcycle claims 1/rate");
  Check(measured > hz * 0.999 && measured < hz * 1.001, "mcycle keeps its calibrated rate");
}

void TestMsipEchoes() {
  MsipEcho echo;
  char sent[300], received[300];
  for (int i = 0; i < 300; ++i) sent[i] = static_cast<char>(i * 7);
  const uint32_t before = MsipEcho::echoes();
  const bool ok = echo.Send(sent, sizeof(sent)) && echo.Receive(received, sizeof(received));
  Check(ok && std::memcmp(sent, received, sizeof(sent)) == 0, "msip_echo returns the message");
  Check(MsipEcho::echoes() == before + 1, "one echo per round trip");
  Check(MsipEcho::last_cause() == kCauseSoftware,
        "the echo ran in the machine software interrupt (mcause 0x80000003)");
  Check(Msip() == 0, "the handler cleared msip");
  Check(echo.Send(sent, 10) && !echo.Receive(received, 11), "a size mismatch is refused");
  static char big[kMaxMessageBytes + 1];
  Check(!echo.Send(big, sizeof(big)), "a message above the buffers is refused");
}

// A 20 us tick against 64 KiB echoes (milliseconds each): ticks fall inside echoes and are
// taken there, and the count still agrees with mtime afterwards.
void TestTheTickPreemptsTheEcho() {
  Start(20'000);
  MsipEcho echo;
  static char message[kMaxMessageBytes], reply[kMaxMessageBytes];
  const uint32_t before = MsipEcho::ticks_during_echo();
  bool ok = true;
  for (int i = 0; i < 4; ++i)
    ok = ok && echo.Send(message, sizeof(message)) && echo.Receive(reply, sizeof(reply));
  const PairedReading after = ReadTickAndMtime();
  std::printf("  %lu of 4 echoes took a tick; %lld ticks, %lld by mtime\n",
              static_cast<unsigned long>(MsipEcho::ticks_during_echo() - before),
              static_cast<long long>(after.count), static_cast<long long>(after.expected));
  Check(ok && MsipEcho::ticks_during_echo() - before == 4, "every long echo took ticks inside it");
  Check(after.count == after.expected, "no tick was lost while the echo ran");
}

void TestTheReportsFormatting() {
  char text[64], duration[24];
  std::snprintf(text, sizeof(text), "%lld %.3f %g", static_cast<long long>(1) << 40, 2.0 / 3, 1e-7);
  Check(std::strcmp(text, "1099511627776 0.667 1e-07") == 0, "picolibc's printf: %lld, %.3f, %g");
  Check(std::strcmp(core::FormatDurationNs(10e6, duration, 24), "10ms") == 0 &&
            std::strcmp(core::FormatDurationNs(100, duration, 24), "100ns") == 0,
        "core::FormatDurationNs");
}

// A short study cell on the board, checked against the theory's exact bounds.
void TestStudyCellOnTheBoard() {
  Start(10'000'000);
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
  MsipEcho echo;
  MtimeTickClock tick;
  MtimeClock mtime;
  const core::StudyCell c = core::RunStudyCell(echo, tick, mtime, w, 1024, options);
  std::printf(
      "  1024 B: truth %.2f us, averaged %.2f us (bound %.2f us), zero %.4f vs 1 - d/T %.4f (bound "
      "%.4f)\n",
      c.truth_ns / 1e3, c.averaged_ns / 1e3, c.total_bound_ns() / 1e3, c.zero_fraction,
      c.prediction.zero_share, c.zero_bound);
  Check(c.error == nullptr && c.faults == 0 && c.runs == 2,
        "a study cell over msip_echo completes");
  Check(c.averaged_within_bound, "averaged within (T + r + w)/N of mtime");
  Check(c.zero_bound_applies && c.zero_within_bound,
        "zero share within (1 + (2r + w)/T)/N of 1 - d/T");
  Check(c.zero_fraction < 1 && c.zero_fraction > 0.5,
        "some single round trips read a tick, most read 0");
}

}  // namespace
}  // namespace tickbench::board::riscv32

int main() {
  using namespace tickbench::board::riscv32;
  TestPeriodsAreCheckedAndClaimed();
  TestTickCountsAtAnyPeriod();
  TestTickAgreesWithMtimeAtTheSameInstant();
  TestMcycleIsDetectedAndCalibrated();
  TestMsipEchoes();
  TestTheTickPreemptsTheEcho();
  TestTheReportsFormatting();
  TestStudyCellOnTheBoard();
  std::printf("%s: %d check(s) failed\n", g_failures == 0 ? "PASSED" : "FAILED", g_failures);
  return g_failures == 0 ? 0 : 1;
}
