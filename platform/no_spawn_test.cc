#include "platform/no_spawn.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

// Runs `body` in a forked child under the filter; its exit status (or -1 if killed).
template <typename Body>
int InFilteredChild(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (ForbidNewProcesses() != 0) _exit(100);
    _exit(body());
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void* Nothing(void*) { return nullptr; }

std::string FreshPath(const char* name) {
  const char* tmp = getenv("TEST_TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name + std::to_string(getpid());
  unlink(path.c_str());
  return path;
}

TEST(NoSpawnTest, ForkIsRefusedWithEperm) {
  if (!NewProcessBlockAvailable()) GTEST_SKIP() << "seccomp filters are not available here";
  EXPECT_EQ(InFilteredChild([] { return fork() < 0 && errno == EPERM ? 0 : 1; }), 0);
}

TEST(NoSpawnTest, SystemRunsNoShell) {
  if (!NewProcessBlockAvailable()) GTEST_SKIP() << "seccomp filters are not available here";
  const std::string marker = FreshPath("no_spawn_marker");
  const std::string command = "touch " + marker;
  EXPECT_EQ(InFilteredChild([&] { return system(command.c_str()) == 0 ? 1 : 0; }), 0);
  EXPECT_NE(access(marker.c_str(), F_OK), 0) << "the shell ran";
  EXPECT_EQ(InFilteredChild([&] {
              FILE* pipe = popen(command.c_str(), "r");
              return pipe != nullptr && pclose(pipe) == 0 ? 1 : 0;
            }),
            0);
  EXPECT_NE(access(marker.c_str(), F_OK), 0) << "popen's shell ran";
}

TEST(NoSpawnTest, ThreadsAndExecStillWork) {
  if (!NewProcessBlockAvailable()) GTEST_SKIP() << "seccomp filters are not available here";
  EXPECT_EQ(InFilteredChild([] {
              pthread_t thread;
              if (pthread_create(&thread, nullptr, Nothing, nullptr) != 0) return 1;
              return pthread_join(thread, nullptr) == 0 ? 0 : 2;
            }),
            0);
  // exec replaces the filtered process; /bin/true exits 0 there.
  EXPECT_EQ(InFilteredChild([] {
              execl("/bin/true", "true", static_cast<char*>(nullptr));
              return 3;
            }),
            0);
}

TEST(NoSpawnTest, WithoutTheFilterTheShellRuns) {
  // The control: the same command unfiltered leaves the marker, so the test above can fail.
  const std::string marker = FreshPath("no_spawn_control");
  ASSERT_EQ(system(("touch " + marker).c_str()), 0);
  EXPECT_EQ(access(marker.c_str(), F_OK), 0);
  unlink(marker.c_str());
}

}  // namespace
}  // namespace tickbench::platform
