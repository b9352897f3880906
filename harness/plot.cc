#include "harness/plot.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/output_file.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"
#include "timing/statistics.h"

namespace tickbench::harness {
namespace {

bool GnuplotInstalled() {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    if (access(absl::StrCat(dir.empty() ? "." : dir, "/gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Single-quotes text that is the program's own (the ylabel's "(bytes)", the study's
// title) or has passed GnuplotSafeText; gnuplot doubles a quote inside single quotes.
// Never call it on a user string directly: doubling quotes does not stop a newline.
std::string Quote(absl::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

std::string QuoteUser(absl::string_view text) { return Quote(GnuplotSafeText(text)); }

std::string Header(absl::string_view title_quoted) {
  return absl::StrCat("set terminal svg size 960,600 dynamic background rgb 'white'\n",
                      "set output ", Quote(kGnuplotSvgName), "\nset title ", title_quoted,
                      " noenhanced\nset grid\nset key top left\n");
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
  const pid_t pid = fork();
  if (pid < 0) return platform::ErrnoToStatus(errno, "start gnuplot (fork)");
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so that a kill reaches anything it starts
    if (chdir(directory.c_str()) != 0) _exit(126);
    const int in = open(script_name, O_RDONLY);
    if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) _exit(126);
    if (in != STDIN_FILENO) close(in);
    execvp(program, argv);
    _exit(127);
  }
  setpgid(pid, pid);  // as the child does: whichever runs first
  const absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
      if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        return absl::FailedPreconditionError("gnuplot could not be started (not found in PATH)");
      }
      if (WIFEXITED(status) && WEXITSTATUS(status) == 126) {
        return absl::InternalError("gnuplot could not be started (its working directory)");
      }
      if (WIFSIGNALED(status)) {
        return absl::InternalError(
            absl::StrFormat("gnuplot was killed by signal %d", WTERMSIG(status)));
      }
      return absl::InternalError(absl::StrFormat(
          "gnuplot failed (exit status %d; its messages are above)", WEXITSTATUS(status)));
    }
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

GnuplotJob SweepPlotJob(const analysis::Sweep& sweep, const std::vector<analysis::Step>& steps,
                        const std::string& title) {
  // Block 0: every run's value; block 1: the median per size. Values in us.
  const double scale = sweep.unit == "ns" ? 1e-3 : 1.0;
  const std::string unit = sweep.unit == "ns" ? "us" : sweep.unit;
  GnuplotJob job;
  job.data = absl::StrFormat("# size_bytes %s_%s run\n", GnuplotSafeText(sweep.value_name),
                             GnuplotSafeText(unit));
  for (const analysis::SweepPoint& point : sweep.points) {
    for (size_t run = 0; run < point.values.size(); ++run) {
      absl::StrAppendFormat(&job.data, "%.0f %.6g %d\n", point.size_bytes,
                            point.values[run] * scale, run + 1);
    }
  }
  absl::StrAppend(&job.data, "\n\n# size_bytes median\n");
  for (const analysis::SweepPoint& point : sweep.points) {
    absl::StrAppendFormat(&job.data, "%.0f %.6g\n", point.size_bytes,
                          timing::Median(point.values) * scale);
  }
  job.script = Header(QuoteUser(title));
  absl::StrAppend(&job.script, "set xlabel 'message size (bytes)'\nset ylabel ",
                  QuoteUser(absl::StrCat(sweep.value_name, " (", unit, ")")), " noenhanced\n");
  for (const analysis::Step& step : steps) {
    const double x = 0.5 * (step.size_before + step.size_after);
    absl::StrAppendFormat(
        &job.script,
        "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb 'red'\n"
        "set label %s at %.1f, graph 0.95 tc rgb 'red' font ',9'\n",
        x, x,
        QuoteUser(absl::StrFormat(" %s %.0f-%.0f", analysis::StepKindName(step.kind),
                                  step.size_before, step.size_after)),
        x);
  }
  absl::StrAppend(&job.script, "plot ", Quote(kGnuplotDataName),
                  " index 0 using 1:2 with points pt 7 ps 0.4 lc rgb '#4477aa' title 'each run', ",
                  Quote(kGnuplotDataName),
                  " index 1 using 1:2 with lines lw 2 lc rgb '#222222' title 'median'\n");
  return job;
}

GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells) {
  // One histogram per clock, all sizes together, in ticks of the clock's resolution.
  std::map<std::string, std::vector<int64_t>> by_clock;
  std::vector<std::string> order;
  for (const StudyCell& cell : cells) {
    auto [it, inserted] = by_clock.try_emplace(cell.clock, cell.histogram.size(), 0);
    if (inserted) order.push_back(cell.clock);
    for (size_t i = 0; i < cell.histogram.size() && i < it->second.size(); ++i) {
      it->second[i] += cell.histogram[i];
    }
  }
  GnuplotJob job;
  for (const std::string& clock : order) {
    absl::StrAppendFormat(&job.data, "# %s: ticks count\n", GnuplotSafeText(clock));
    const std::vector<int64_t>& counts = by_clock[clock];
    for (size_t i = 0; i < counts.size(); ++i)
      absl::StrAppendFormat(&job.data, "%d %d\n", i, counts[i]);
    absl::StrAppend(&job.data, "\n\n");
  }
  job.script = Header(Quote("per-iteration readings in ticks of each clock's resolution"));
  const int columns = std::min<int>(3, std::max<size_t>(1, order.size()));
  const int rows = (static_cast<int>(order.size()) + columns - 1) / columns;
  absl::StrAppendFormat(
      &job.script,
      "set multiplot layout %d,%d\nset style fill solid 0.6\nset boxwidth 0.8\n"
      "set xlabel 'reading (ticks; last bar: 15 or more)'\nset ylabel 'round trips'\n"
      "set logscale y\nset yrange [0.8:*]\n",
      std::max(rows, 1), columns);
  for (size_t i = 0; i < order.size(); ++i) {
    absl::StrAppend(&job.script, "set title ", QuoteUser(order[i]), " noenhanced\nplot ",
                    Quote(kGnuplotDataName), " index ", i,
                    " using 1:($2 > 0 ? $2 : NaN) with boxes notitle\n");
  }
  absl::StrAppend(&job.script, "unset multiplot\n");
  return job;
}

absl::Status RunGnuplotJob(const std::string& svg_path, const GnuplotJob& job,
                           absl::Duration timeout) {
  const std::string data_path = PlotDataPath(svg_path);
  if (absl::Status s = WriteFileAtomically(data_path, job.data); !s.ok()) return s;
  if (!GnuplotInstalled()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "gnuplot is not installed (apt-get install gnuplot-nox); the plot's data is in ",
        absl::CHexEscape(data_path)));
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
  return WriteFileAtomically(svg_path, svg);
}

absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title) {
  return RunGnuplotJob(svg_path, SweepPlotJob(sweep, steps, title));
}

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells) {
  return RunGnuplotJob(svg_path, StudyHistogramJob(cells));
}

}  // namespace tickbench::harness
