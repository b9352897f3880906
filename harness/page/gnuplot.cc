#include "harness/page/gnuplot.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/output/output_file.h"
#include "platform/errno_status.h"
#include "platform/no_spawn.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {
namespace {

bool GnuplotInstalled() {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    if (access(absl::StrCat(dir.empty() ? "." : dir, "/gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

// A private directory (mode 0700) for one gnuplot run, removed with what is in it.
class ScratchDirectory {
 public:
  ScratchDirectory() = default;
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    if (path_.empty()) return;
    if (DIR* dir = opendir(path_.c_str()); dir != nullptr) {
      std::vector<std::string> names;
      while (dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      closedir(dir);
      for (const std::string& name : names) unlink(absl::StrCat(path_, "/", name).c_str());
    }
    rmdir(path_.c_str());
  }

  absl::Status Create() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = absl::StrCat(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp",
                                       "/tickbench-plot.XXXXXX");
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (mkdtemp(name.data()) == nullptr) {
      return platform::ErrnoToStatus(
          errno, absl::StrCat("create a temporary directory ", absl::CHexEscape(pattern)));
    }
    path_ = name.data();
    return absl::OkStatus();
  }

  std::string File(absl::string_view name) const { return absl::StrCat(path_, "/", name); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

absl::Status WritePrivateFile(const std::string& path, absl::string_view contents) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return platform::ErrnoToStatus(errno, absl::StrCat("create ", absl::CHexEscape(path)));
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error_number = n < 0 ? errno : EIO;
      close(fd);
      return platform::ErrnoToStatus(error_number, absl::StrCat("write ", absl::CHexEscape(path)));
    }
    written += static_cast<size_t>(n);
  }
  if (close(fd) != 0)
    return platform::ErrnoToStatus(errno, absl::StrCat("close ", absl::CHexEscape(path)));
  return absl::OkStatus();
}

absl::Status ReadPrivateFile(const std::string& path, std::string* contents) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return platform::ErrnoToStatus(errno, absl::StrCat("open ", absl::CHexEscape(path)));
  contents->clear();
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error_number = errno;
      close(fd);
      return platform::ErrnoToStatus(error_number, absl::StrCat("read ", absl::CHexEscape(path)));
    }
    if (n == 0) break;
    contents->append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return absl::OkStatus();
}

// Kills gnuplot's process group and reaps gnuplot.
void KillAndReap(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// What gnuplot's wait status says: 0 is success; 125-127 are the child's own failures
// before gnuplot ran.
absl::Status GnuplotExitStatus(int status) {
  if (WIFSIGNALED(status)) {
    return absl::InternalError(
        absl::StrFormat("gnuplot was killed by signal %d", WTERMSIG(status)));
  }
  switch (WEXITSTATUS(status)) {
    case 0:
      return absl::OkStatus();
    case 127:
      return absl::FailedPreconditionError("gnuplot could not be started (not found in PATH)");
    case 126:
      return absl::InternalError("gnuplot could not be started (its working directory)");
    case 125:
      return absl::InternalError("gnuplot was not started: its process filter failed");
    default:
      return absl::InternalError(absl::StrFormat(
          "gnuplot failed (exit status %d; its messages are above)", WEXITSTATUS(status)));
  }
}

// Runs gnuplot in `directory` with the file `script_name` there as its standard input;
// its standard output and error go to our standard error.
absl::Status RunGnuplot(const std::string& directory, absl::Duration timeout) {
  // Everything the child needs is prepared before fork: after it, only async-signal-safe
  // calls until exec.
  const char* const script_name = "plot.gp";
  char program[] = "gnuplot";
  char* const argv[] = {program, nullptr};
  // A stop already pending (the measurement was interrupted) still gets its plot; one
  // requested while gnuplot runs ends it.
  const bool stop_pending_at_start = platform::StopRequested();
  // gnuplot's `!cmd` and system() would start a shell: where the kernel allows it, the
  // child runs under a filter that refuses new processes (platform/no_spawn.h); where it
  // does not (qemu-user), the whitelist of what reaches the script is the only guard.
  const bool forbid_processes = platform::NewProcessBlockAvailable();
  const pid_t pid = fork();
  if (pid < 0) return platform::ErrnoToStatus(errno, "start gnuplot (fork)");
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so that a kill reaches anything it starts
    if (chdir(directory.c_str()) != 0) _exit(126);
    const int in = open(script_name, O_RDONLY);
    if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) _exit(126);
    if (in != STDIN_FILENO) close(in);
    if (forbid_processes && platform::ForbidNewProcesses() != 0) _exit(125);
    execvp(program, argv);
    _exit(127);
  }
  setpgid(pid, pid);  // as the child does: whichever runs first
  const absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return GnuplotExitStatus(status);
    if (done < 0 && errno != EINTR) {
      const int error_number = errno;
      KillAndReap(pid);
      return platform::ErrnoToStatus(error_number, "wait for gnuplot");
    }
    if (!stop_pending_at_start && platform::StopRequested()) {
      KillAndReap(pid);
      return platform::CancelledIfStopRequested("running gnuplot");
    }
    if (absl::Now() >= deadline) {
      KillAndReap(pid);
      return absl::DeadlineExceededError(absl::StrCat(
          "gnuplot did not finish within ", absl::FormatDuration(timeout), "; it was stopped"));
    }
    const timespec pause = {0, 5'000'000};  // 5 ms; EINTR only shortens it
    nanosleep(&pause, nullptr);
  }
}

}  // namespace

// Why a whitelist and not escaping: gnuplot reads a script line through several layers
// before and besides its quoting (line continuation by backslash, macros by @, command
// substitution by backquotes, "!" shell escapes and system(), enhanced-text markup, escape
// sequences in double quotes), and which of them apply inside which quotes differs between
// versions. An escaper would have to know every layer of every version; the whitelist only
// needs these few characters to mean nothing inside single quotes, which they do.
std::string GnuplotSafeText(absl::string_view text) {
  static constexpr absl::string_view kPunctuation = ".,:;-_/()+=%#[] ";
  std::string safe;
  safe.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (absl::ascii_isalnum(c) || absl::StrContains(kPunctuation, static_cast<char>(c))) {
      safe += static_cast<char>(c);
    } else if (c == 0xC2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) == 0xB5) {
      safe += "\xC2\xB5";  // µ
      ++i;
    } else {
      safe += '?';
      // One '?' for one UTF-8 character: skip the continuation bytes of a lead byte.
      if (c >= 0xC0) {
        while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) ++i;
      }
    }
  }
  return safe;
}

std::string PlotDataPath(const std::string& svg_path) {
  std::string stem = svg_path;
  if (absl::EndsWith(stem, ".svg")) stem.resize(stem.size() - 4);
  return stem + ".dat";
}

absl::Status RunGnuplotJob(const std::string& svg_path, const GnuplotJob& job,
                           absl::Duration timeout) {
  if (!GnuplotInstalled()) {
    return absl::FailedPreconditionError(
        "gnuplot is not installed (apt-get install gnuplot-nox): no plot was drawn");
  }
  ScratchDirectory scratch;
  if (absl::Status s = scratch.Create(); !s.ok()) return s;
  if (absl::Status s = WritePrivateFile(scratch.File(kGnuplotDataName), job.data); !s.ok())
    return s;
  if (absl::Status s = WritePrivateFile(scratch.File("plot.gp"), job.script); !s.ok()) return s;
  if (absl::Status s = RunGnuplot(scratch.path(), timeout); !s.ok()) return s;
  std::string svg;
  if (absl::Status s = ReadPrivateFile(scratch.File(kGnuplotSvgName), &svg); !s.ok()) {
    return absl::InternalError(absl::StrCat("gnuplot drew no plot: ", s.message()));
  }
  // The plot and its data together or not at all: never new data beside an old plot.
  const std::string data_path = PlotDataPath(svg_path);
  const FileContents pair[] = {{data_path, job.data}, {svg_path, svg}};
  return WriteFilesAtomically(pair);
}

std::string PlotFailure(const std::string& svg_path, const absl::Status& status) {
  return absl::StrCat("--plot: ", status.message(), "; ", absl::CHexEscape(svg_path), " and ",
                      absl::CHexEscape(PlotDataPath(svg_path)), " are as they were");
}

std::string GnuplotQuote(absl::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

std::string GnuplotQuoteUser(absl::string_view text) { return GnuplotQuote(GnuplotSafeText(text)); }

}  // namespace tickbench::harness
