// What a second thread in the process costs each system call of the measuring one: the
// reason the harness keeps no thread beside its measurement loop (harness/engine/progress_meter.h).
// Two calls, each in three states of the process, in this order (it matters: the C
// library never forgets that the process once had a second thread):
//
//   alone         no thread has ever been created;
//   thread_beside a second thread sleeps, waiting on a future, while the call repeats;
//   thread_gone   that thread has been joined: the kernel's file table is this
//                 thread's alone again, the C library still brackets cancellable calls.
//
//   bazel run -c opt //bench:thread_cost_benchmark --
//       --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
//
// The calls: read(2) of an empty non-blocking pipe (EAGAIN: the call a busy-polled pipe
// receive repeats), and write(2) of one byte into a pipe then read(2) of it back (the
// pair a blocking pipe round trip makes on each side, without the other process). Each
// iteration is one read, or one write and one read. docs/overhead.md has the figures.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <future>
#include <memory>
#include <thread>

#include "benchmark/benchmark.h"

namespace tickbench::bench {
namespace {

enum State { kAlone = 0, kThreadBeside = 1, kThreadGone = 2 };

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) std::abort();
  }
  ~Pipe() {
    close(fds[0]);
    close(fds[1]);
  }
};

// A thread that sleeps until the object is destroyed.
class SleepingThread {
 public:
  SleepingThread() : thread_([done = stop_.get_future()] { done.wait(); }) {}
  ~SleepingThread() {
    stop_.set_value();
    thread_.join();
  }

 private:
  std::promise<void> stop_;
  std::thread thread_;
};

// Puts the process in `state` for as long as the returned object lives.
std::unique_ptr<SleepingThread> Enter(int64_t state) {
  if (state == kThreadGone) SleepingThread();  // created and joined at once
  return state == kThreadBeside ? std::make_unique<SleepingThread>() : nullptr;
}

void Label(benchmark::State& state) {
  static const char* const kNames[] = {"alone", "thread_beside", "thread_gone"};
  state.SetLabel(kNames[state.range(0)]);
}

void ReadEmptyPipe(benchmark::State& state) {
  Pipe pipe;
  char byte;
  const std::unique_ptr<SleepingThread> beside = Enter(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(read(pipe.fds[0], &byte, 1));
  Label(state);
}

void WriteThenReadByte(benchmark::State& state) {
  Pipe pipe;
  char byte = 'x';
  const std::unique_ptr<SleepingThread> beside = Enter(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(write(pipe.fds[1], &byte, 1));
    benchmark::DoNotOptimize(read(pipe.fds[0], &byte, 1));
  }
  Label(state);
}

// Registered alone first: no benchmark before them may create a thread.
BENCHMARK(ReadEmptyPipe)->Arg(kAlone);
BENCHMARK(WriteThenReadByte)->Arg(kAlone);
BENCHMARK(ReadEmptyPipe)->Arg(kThreadBeside);
BENCHMARK(WriteThenReadByte)->Arg(kThreadBeside);
BENCHMARK(ReadEmptyPipe)->Arg(kThreadGone);
BENCHMARK(WriteThenReadByte)->Arg(kThreadGone);

}  // namespace
}  // namespace tickbench::bench

BENCHMARK_MAIN();
