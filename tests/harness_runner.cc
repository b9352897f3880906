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

HarnessResult RunHarness(const std::string& args, const std::string& env, int timeout_seconds) {
  const std::string dir = ::testing::TempDir();
  const std::string out = dir + "/harness_out.txt", err = dir + "/harness_err.txt";
  const std::string command = absl::StrCat(env, " timeout ", timeout_seconds, " ", HarnessPath(),
                                           " ", args, " >", out, " 2>", err);
  const int status = std::system(command.c_str());
  HarnessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadWholeFile(out);
  result.err = ReadWholeFile(err);
  return result;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tickbench::testing
