// The board program: the timer-resolution study on the board, in the host harness's
// command-line syntax and output layout (`--experiment=study`), over the Cortex-M3's clocks
// (SysTick, DWT) and the PendSV echo; the rest is every board's (board/common).
//
//   bazel run --config=cortex_m3 //board:harness -- --clock=systick --tick_period=10ms
//       --sizes=32,512,4096 [--iterations=1000] [--runs=4] [--format=table|csv|json]
//
// The command line arrives by semihosting; the report goes to semihosting's standard
// output. Exit codes as on the host: 0 done, 1 a clock or cell could not be measured,
// 2 a bad command line.
#include <cstdio>
#include <cstring>
#include <iterator>

#include "board/common/board_program.h"
#include "board/dwt.h"
#include "board/pendsv_echo.h"
#include "board/systick.h"
#include "core/board_rows.h"

namespace tickbench::board {
namespace {

static_assert(kMaxMessageBytes >= kBoardMaxMessageBytes, "the echo carries the largest message");

BoardWorkspace g_workspace;

constexpr BoardDescription kBoard = {
    core::kBoardClocks,
    static_cast<int>(std::size(core::kBoardClocks)),
    &core::kBoardTransports[0],
    "systick_fine",
    "# tickbench on mps2-an385: Arm Cortex-M3, 25 MHz core clock, no OS",
    "mps2-an385 (Arm Cortex-M3, 25 MHz)",
};

template <typename ClockT>
int Study(ClockT& clock, SysTickFineClock& reference, const BoardSettings& settings) {
  PendSvEcho echo;
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
  if (!StartSysTick(settings.tick_period_ns, &error)) {
    err.Printf("harness: --tick_period: %s\n", error);
    return 2;
  }
  static SysTickFineClock reference;
  if (std::strcmp(settings.clock, "systick") == 0) {
    static SysTickClock clock;
    return Study(clock, reference, settings);
  }
  if (std::strcmp(settings.clock, "systick_fine") == 0) {
    static SysTickFineClock clock;
    return Study(clock, reference, settings);
  }
  const char* reason = nullptr;
  if (!DetectDwt(&reason)) {
    err.Printf("harness: --clock=%s\n", reason);
    return 1;
  }
  static DwtClock clock;
  return Study(clock, reference, settings);
}

}  // namespace
}  // namespace tickbench::board

int main(int argc, char** argv) { return tickbench::board::Main(argc, argv); }
