#include "tests/harness_runner.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace tickbench::testing {

std::string HarnessPath() {
  return absl::StrCat(std::getenv("TEST_SRCDIR"), "/", std::getenv("TEST_WORKSPACE"),
                      "/harness/harness");
}

namespace {

HarnessResult Run(const std::string& env, const std::string& launcher, const std::string& args,
                  int timeout_seconds) {
  const std::string dir = ::testing::TempDir();
  const std::string out = dir + "/harness_out.txt", err = dir + "/harness_err.txt";
  const std::string command = absl::StrCat(env, " timeout ", timeout_seconds, " ", launcher, " ",
                                           HarnessPath(), " ", args, " >", out, " 2>", err);
  const int status = std::system(command.c_str());
  HarnessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadWholeFile(out);
  result.err = ReadWholeFile(err);
  return result;
}

}  // namespace

HarnessResult RunHarness(const std::string& args, const std::string& env, int timeout_seconds) {
  return Run(env, "", args, timeout_seconds);
}

HarnessResult RunHarnessUnder(const std::string& launcher, const std::string& args,
                              int timeout_seconds) {
  return Run("", launcher, args, timeout_seconds);
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tickbench::testing
