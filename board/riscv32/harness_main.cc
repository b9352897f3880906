// The RISC-V board program: the timer-resolution study on the board, in the host
// harness's command-line syntax and output layout (`--experiment=study`), over this board's
// clocks (the CLINT's mtime, its tick, mcycle) and the msip echo; the rest is every
// board's (board/common).
//
//   bazel run --config=riscv32 //harness -- --clock=mtime_tick --tick_period=10ms
//       --sizes=32,512,4096 [--iterations=1000] [--runs=4] [--format=table|csv|json]
//
// The command line arrives by semihosting; the report goes to semihosting's standard
// output. Exit codes as on the host: 0 done, 1 a clock or cell could not be measured,
// 2 a bad command line.
#include <cstdio>
#include <cstring>
#include <iterator>

#include "board/common/board_program.h"
#include "board/riscv32/clint_clocks.h"
#include "board/riscv32/msip_echo.h"
#include "core/board_rows.h"

namespace tickbench::board::riscv32 {
namespace {

constexpr core::BoardRow kClocks[] = {
    {"mtime_tick",
     "machine timer interrupts counted (mtimecmp moved on by one period in each): a real "
     "coarse tick of period --tick_period (10ms: 100 Hz); the default"},
    {"mtime", "the CLINT's 64-bit mtime counter, 10 MHz (0.1 us); the reference"},
    {"mcycle",
     "the hart's cycle counter (mcycle), its rate calibrated against mtime; detected, refused "
     "where it does not count"},
};
constexpr core::BoardRow kTransport = {
    "msip_echo",
    "an in-memory round trip to an echo peer in the machine software interrupt handler (CLINT "
    "msip; three copies of the message)"};

static_assert(kMaxMessageBytes >= kBoardMaxMessageBytes, "the echo carries the largest message");

BoardWorkspace g_workspace;

constexpr BoardDescription kBoard = {
    kClocks,
    static_cast<int>(std::size(kClocks)),
    &kTransport,
    "mtime",
    "# tickbench on qemu virt: RISC-V rv32imac hart, 10 MHz CLINT timer, no OS",
    "qemu virt (RISC-V rv32imac, 10 MHz mtime)",
};

template <typename ClockT>
int Study(ClockT& clock, MtimeClock& reference, const BoardSettings& settings) {
  MsipEcho echo;
  FileSink out(stdout), err(stderr);
  return RunBoardStudy(echo, clock, reference, kBoard, settings, g_workspace, out, err);
}

int Main(int argc, char** argv) {
  static BoardSettings settings;
  FileSink out(stdout), err(stderr);
  bool done = false;
  if (const int status = ReadBoardCommandLine(argc, argv, kBoard, settings, out, err, &done);
      status != 0 || done) {
    return status;
  }
  const char* error = nullptr;
  if (!StartMtimeTick(settings.tick_period_ns, &error)) {
    err.Printf("harness: --tick_period: %s\n", error);
    return 2;
  }
  static MtimeClock reference;
  if (std::strcmp(settings.clock, "mtime_tick") == 0) {
    static MtimeTickClock clock;
    return Study(clock, reference, settings);
  }
  if (std::strcmp(settings.clock, "mtime") == 0) {
    static MtimeClock clock;
    return Study(clock, reference, settings);
  }
  double hz = 0;
  if (!DetectMcycle(&hz, &error)) {
    err.Printf("harness: --clock=%s\n", error);
    return 1;
  }
  static McycleClock clock(hz);
  return Study(clock, reference, settings);
}

}  // namespace
}  // namespace tickbench::board::riscv32

int main(int argc, char** argv) { return tickbench::board::riscv32::Main(argc, argv); }
