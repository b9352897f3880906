// Running the harness binary from a test, as a user runs it: bounded by `timeout`, its
// exit code, stdout and stderr kept.
#ifndef TESTS_HARNESS_RUNNER_H_
#define TESTS_HARNESS_RUNNER_H_

#include <string>

namespace tickbench::testing {

struct HarnessResult {
  int exit_code = -1;  // -1 when it did not exit normally
  std::string out;
  std::string err;
};

// The //harness binary in this test's runfiles (the target lists it in `data`).
std::string HarnessPath();

// Runs the binary with `args` (a shell-quoted string), after `env` (e.g. "TZ=UTC"),
// killed by timeout(1) after `timeout_seconds`.
HarnessResult RunHarness(const std::string& args, const std::string& env = "",
                         int timeout_seconds = 120);

// The same with the binary started by `launcher` (a command line that takes a program and
// its arguments after it, e.g. "mpirun -np 2"): timeout(1) bounds the launcher.
HarnessResult RunHarnessUnder(const std::string& launcher, const std::string& args,
                              int timeout_seconds = 120);

// The whole of a file, or "" when it cannot be read.
std::string ReadWholeFile(const std::string& path);

}  // namespace tickbench::testing

#endif  // TESTS_HARNESS_RUNNER_H_
