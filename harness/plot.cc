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
#include <cmath>
#include <limits>
#include <cstdlib>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/output_file.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"
#include "analysis/buffer_models.h"
#include "timing/confidence.h"
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

SweepPlotExtras SweepPlotExtrasFromRecords(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& r : records)
    if (r.valid()) by_size[r.size_bytes].push_back(&r);
  SweepPlotExtras extras;
  for (const auto& [size, runs] : by_size) {
    SweepPlotExtras::Point point;
    point.size_bytes = static_cast<double>(size);
    std::vector<double> averaged;
    double quantum = 0, median = 0, low = 0, high = 0, reference = 0;
    int per_iteration = 0, with_reference = 0;
    for (const RunRecord* r : runs) {
      averaged.push_back(r->averaged_rtt_ns);
      quantum = std::max(quantum, r->quantum_ns);
      if (r->per_iteration_ns.count > 0) {
        ++per_iteration;
        median += r->per_iteration_ns.p50;
        low += r->per_iteration_ns.min;
        high += r->per_iteration_ns.p99;
      }
      if (r->has_reference) {
        ++with_reference;
        reference += r->reference_averaged_rtt_ns;
      }
    }
    const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
        averaged, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(averaged.size())));
    point.has_interval = ci.valid;
    point.averaged_low_ns = ci.low;
    point.averaged_high_ns = ci.high;
    if (per_iteration > 0) {
      point.has_per_iteration = true;
      point.median_ns = median / per_iteration;
      point.band_low_ns = low / per_iteration;
      point.band_high_ns = high / per_iteration;
    }
    if (with_reference > 0) {
      point.has_reference = true;
      point.reference_ns = reference / with_reference;
    }
    extras.points.push_back(point);
  }
  return extras;
}

std::vector<std::pair<double, double>> FitCurve(const analysis::ModelComparison& fits,
                                                double first, double last, int samples) {
  std::vector<std::pair<double, double>> curve;
  if (fits.families.empty()) return curve;
  const analysis::FamilyFit& fit = fits.best_fit();
  if (!fit.fitted || samples < 2 || !(last > first)) return curve;
  std::vector<double> sizes;
  for (int i = 0; i < samples; ++i) {
    sizes.push_back(std::round(first + (last - first) * i / (samples - 1)));
  }
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::vector<std::vector<double>> columns = analysis::DesignColumns(fit.model, sizes);
  for (size_t i = 0; i < sizes.size(); ++i) {
    double value = 0;
    for (size_t j = 0; j < columns.size() && j < fit.costs.size(); ++j) {
      if (i < columns[j].size()) value += fit.costs[j] * columns[j][i];
    }
    curve.emplace_back(sizes[i], value);
  }
  return curve;
}

namespace {

std::string Number(double value) {
  return std::isfinite(value) ? absl::StrFormat("%.6g", value) : std::string("NaN");
}

}  // namespace

GnuplotJob SweepPlotJob(const analysis::Sweep& sweep, const std::vector<analysis::Step>& steps,
                        const std::string& title, const SweepPlotExtras& extras) {
  const bool in_ns = sweep.unit == "ns";
  const double scale = in_ns ? 1e-3 : 1.0;
  const std::string unit = in_ns ? "us" : sweep.unit;
  const double kNaN = std::numeric_limits<double>::quiet_NaN();

  // The y range: 1.5 x the 95th percentile of everything drawn.
  std::vector<double> plotted;
  for (const analysis::SweepPoint& point : sweep.points) {
    for (double v : point.values) plotted.push_back(v * scale);
    plotted.push_back(analysis::PointMean(point) * scale);
  }
  for (const SweepPlotExtras::Point& p : extras.points) {
    if (p.has_interval) plotted.push_back(p.averaged_high_ns * scale);
    if (p.has_per_iteration) {
      plotted.push_back(p.median_ns * scale);
      plotted.push_back(p.band_high_ns * scale);
    }
    if (p.has_reference) plotted.push_back(p.reference_ns * scale);
  }
  std::sort(plotted.begin(), plotted.end());
  double y_max = plotted.empty() ? 1 : 1.5 * timing::QuantileOfSorted(plotted, 0.95);
  if (!(y_max > 0)) y_max = 1;
  auto clip = [&](double v) { return v > y_max ? kNaN : v; };

  // Block 0: every run's value; 1: per size, the mean and the extras; 2: the fit;
  // 3: values beyond the y range, at the edge.
  GnuplotJob job;
  job.data = absl::StrFormat("# size_bytes %s_%s run\n", GnuplotSafeText(sweep.value_name),
                             GnuplotSafeText(unit));
  std::string beyond;
  for (const analysis::SweepPoint& point : sweep.points) {
    for (size_t run = 0; run < point.values.size(); ++run) {
      const double v = point.values[run] * scale;
      absl::StrAppendFormat(&job.data, "%.0f %s %d\n", point.size_bytes, Number(clip(v)),
                            run + 1);
      if (v > y_max) absl::StrAppendFormat(&beyond, "%.0f %s %s\n", point.size_bytes,
                                           Number(y_max), Number(v));
    }
  }
  absl::StrAppend(&job.data, "\n\n# size_bytes mean ci_low ci_high median band_low band_high "
                             "reference (", GnuplotSafeText(unit), ")\n");
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    const analysis::SweepPoint& point = sweep.points[i];
    const SweepPlotExtras::Point* e =
        i < extras.points.size() && extras.points[i].size_bytes == point.size_bytes
            ? &extras.points[i]
            : nullptr;
    const double mean = analysis::PointMean(point) * scale;
    const bool interval = e != nullptr && e->has_interval;
    const bool per_iteration = e != nullptr && e->has_per_iteration;
    const bool reference = e != nullptr && e->has_reference;
    const double band_high = per_iteration ? e->band_high_ns * scale : kNaN;
    absl::StrAppendFormat(
        &job.data, "%.0f %s %s %s %s %s %s %s\n", point.size_bytes, Number(clip(mean)),
        Number(interval ? e->averaged_low_ns * scale : kNaN),
        Number(interval ? std::min(e->averaged_high_ns * scale, y_max) : kNaN),
        Number(per_iteration ? clip(e->median_ns * scale) : kNaN),
        Number(per_iteration ? std::min(e->band_low_ns * scale, y_max) : kNaN),
        Number(per_iteration ? std::min(band_high, y_max) : kNaN),
        Number(reference ? clip(e->reference_ns * scale) : kNaN));
    for (double v : {mean, per_iteration ? e->median_ns * scale : 0.0, band_high,
                     reference ? e->reference_ns * scale : 0.0}) {
      if (v > y_max) absl::StrAppendFormat(&beyond, "%.0f %s %s\n", point.size_bytes,
                                           Number(y_max), Number(v));
    }
  }
  absl::StrAppend(&job.data, "\n\n# size_bytes fit\n");
  for (const auto& [size, value] : extras.fit) {
    absl::StrAppendFormat(&job.data, "%.0f %s\n", size, Number(clip(value * scale)));
  }
  if (extras.fit.empty()) absl::StrAppend(&job.data, "0 NaN\n");
  absl::StrAppend(&job.data, "\n\n# size_bytes drawn_at value (beyond the y range)\n",
                  beyond.empty() ? "0 NaN NaN\n" : beyond);

  job.script = Header(QuoteUser(title));
  // Plain text throughout: layout names hold underscores, which enhanced text subscripts.
  absl::StrAppend(&job.script, "set termoption noenhanced\nset key outside below horizontal box\n");
  absl::StrAppend(&job.script, "set xlabel 'message size (bytes)'\nset ylabel ",
                  in_ns ? Quote("round-trip time (us)")
                        : QuoteUser(absl::StrCat(sweep.value_name, " (", unit, ")")),
                  " noenhanced\n");
  absl::StrAppendFormat(&job.script, "set yrange [0:%s]\n", Number(y_max));
  static constexpr double kLabelHeights[] = {0.96, 0.89, 0.82, 0.75};
  for (size_t i = 0; i < steps.size(); ++i) {
    const analysis::Step& step = steps[i];
    const double x = 0.5 * (step.size_before + step.size_after);
    absl::StrAppendFormat(
        &job.script,
        "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb 'red'\n"
        "set label %s at %.1f, graph %.2f tc rgb 'red' font ',9' noenhanced\n",
        x, x,
        QuoteUser(absl::StrFormat(" %s %.0f-%.0f", analysis::StepKindName(step.kind),
                                  step.size_before, step.size_after)),
        x, kLabelHeights[i % 4]);
  }
  const std::string data = Quote(kGnuplotDataName);
  const bool any_interval = std::any_of(extras.points.begin(), extras.points.end(),
                                        [](const auto& p) { return p.has_interval; });
  const bool any_per_iteration = std::any_of(extras.points.begin(), extras.points.end(),
                                             [](const auto& p) { return p.has_per_iteration; });
  const bool any_reference = std::any_of(extras.points.begin(), extras.points.end(),
                                         [](const auto& p) { return p.has_reference; });
  std::vector<std::string> series;
  if (any_per_iteration) {
    series.push_back(absl::StrCat(data, " index 1 using 1:6:7 with filledcurves fs transparent "
                                        "solid 0.2 lc rgb '#ee7733' title ",
                                  QuoteUser(extras.band_name)));
    series.push_back(absl::StrCat(data, " index 1 using 1:5 with lines lw 2 lc rgb '#cc3311' "
                                        "title 'per-iteration median (mean over runs)'"));
  }
  series.push_back(absl::StrCat(data, " index 0 using 1:2 with points pt 7 ps 0.4 lc rgb "
                                      "'#4477aa' title 'averaged RTT, each run'"));
  if (any_interval) {
    series.push_back(absl::StrCat(data, " index 1 using 1:2:3:4 with yerrorlines lw 2 pt 5 ps "
                                        "0.5 lc rgb '#222222' title 'averaged RTT, mean of "
                                        "runs with 95% interval'"));
  } else {
    series.push_back(absl::StrCat(data, " index 1 using 1:2 with lines lw 2 lc rgb '#222222' "
                                        "title 'averaged RTT, mean of runs'"));
  }
  if (any_reference) {
    series.push_back(absl::StrCat(data, " index 1 using 1:8 with lines dt 3 lw 2 lc rgb "
                                        "'#009988' title 'reference clock, averaged RTT'"));
  }
  if (!extras.fit.empty()) {
    series.push_back(absl::StrCat(data, " index 2 using 1:2 with lines lw 1.5 lc rgb '#aa3377' "
                                        "title ",
                                  QuoteUser(absl::StrCat("fit: ", extras.fit_name))));
  }
  if (!beyond.empty()) {
    series.push_back(absl::StrCat(data, " index 3 using 1:2 with points pt 8 ps 1.2 lc rgb "
                                        "'#ee3377' title 'beyond the y range (drawn at the "
                                        "edge)'"));
  }
  absl::StrAppend(&job.script, "plot ", absl::StrJoin(series, ", "), "\n");
  return job;
}

GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells) {
  // One panel per clock and size: the share of readings at each multiple of T, in us.
  GnuplotJob job;
  const int panels = std::max<int>(1, static_cast<int>(cells.size()));
  const int columns = std::min(3, panels);
  const int rows = (panels + columns - 1) / columns;
  absl::StrAppendFormat(&job.script,
                        "set terminal svg size %d,%d dynamic background rgb 'white'\n"
                        "set termoption noenhanced\nset output %s\nset grid\nset multiplot layout %d,%d title %s\n"
                        "set style fill solid 0.5\n"
                        "set key top right font ',8'\nset xlabel 'reading (us)'\n"
                        "set ylabel 'share of readings'\nset yrange [0:1.05]\n",
                        400 * columns, 320 * rows, Quote(kGnuplotSvgName), rows, columns,
                        Quote("each clock's per-iteration readings at each size, in time units"));
  for (size_t c = 0; c < cells.size(); ++c) {
    const StudyCell& cell = cells[c];
    // T in us; a cell without one (nothing measured) is drawn on a 1 us grid.
    const double t_us = cell.resolution_ns > 0 ? cell.resolution_ns * 1e-3 : 1.0;
    int64_t total = 0;
    for (int64_t count : cell.histogram) total += count;
    absl::StrAppendFormat(&job.data, "# %s, %d bytes, T %.6g us: reading_us share predicted\n",
                          GnuplotSafeText(cell.clock), cell.size_bytes, t_us);
    int first = -1, last = -1;
    const size_t buckets = std::max(cell.histogram.size(), cell.prediction.histogram.size());
    double predicted_total = 0;
    for (double p : cell.prediction.histogram) predicted_total += p;
    for (size_t i = 0; i < buckets; ++i) {
      const double share = i < cell.histogram.size() && total > 0
                               ? static_cast<double>(cell.histogram[i]) / total
                               : 0;
      const double predicted =
          cell.prediction_applies && i < cell.prediction.histogram.size() && predicted_total > 0
              ? cell.prediction.histogram[i] / predicted_total
              : std::numeric_limits<double>::quiet_NaN();
      if (share > 0 || predicted > 0) {
        if (first < 0) first = static_cast<int>(i);
        last = static_cast<int>(i);
      }
      absl::StrAppendFormat(&job.data, "%.6g %.6g %s\n", i * t_us, share, Number(predicted));
    }
    absl::StrAppend(&job.data, "\n\n");
    if (first < 0) first = last = 0;
    const double truth_us = cell.per_iteration_truth_ns * 1e-3;
    const double estimate_us = cell.averaged_ns * 1e-3;
    double x_low = (first - 1) * t_us, x_high = (last + 1) * t_us;
    x_low = std::min({x_low, truth_us - t_us / 2, estimate_us - t_us / 2});
    x_high = std::max({x_high, truth_us + t_us / 2, estimate_us + t_us / 2});
    x_low = std::max(x_low, -t_us / 2);
    const bool open_last = static_cast<size_t>(last) + 1 == cell.histogram.size() && last > 0;
    absl::StrAppendFormat(&job.script, "set xrange [%s:%s]\nset boxwidth %s\n", Number(x_low),
                          Number(x_high), Number(0.8 * t_us));
    absl::StrAppendFormat(
        &job.script,
        "set arrow 1 from %s, graph 0 to %s, graph 1 nohead lw 2 lc rgb '#009988'\n"
        "set arrow 2 from %s, graph 0 to %s, graph 1 nohead dt 2 lw 2 lc rgb '#222222'\n",
        Number(truth_us), Number(truth_us), Number(estimate_us), Number(estimate_us));
    absl::StrAppend(
        &job.script, "set title ",
        QuoteUser(absl::StrFormat("%s, %d bytes, T = %.6g us%s", cell.clock, cell.size_bytes,
                                  t_us, open_last ? " (last bar: that or more)" : "")),
        " noenhanced\n");
    const std::string data = Quote(kGnuplotDataName);
    absl::StrAppend(&job.script, "plot ", data, " index ", c,
                    " using 1:2 with boxes lc rgb '#4477aa' title 'readings', ");
    if (cell.prediction_applies) {
      absl::StrAppend(&job.script, data, " index ", c,
                      " using 1:3 with points pt 9 ps 1.2 lc rgb '#cc3311' title "
                      "'theory: n or n+1 ticks', ");
    }
    absl::StrAppend(&job.script,
                    "NaN with lines lw 2 lc rgb '#009988' title 'truth (reference mean)', "
                    "NaN with lines dt 2 lw 2 lc rgb '#222222' title 'averaged estimate'\n");
  }
  if (cells.empty()) absl::StrAppend(&job.script, "plot NaN notitle\n");
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
                       const std::vector<analysis::Step>& steps, const std::string& title,
                       const SweepPlotExtras& extras) {
  return RunGnuplotJob(svg_path, SweepPlotJob(sweep, steps, title, extras));
}

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells) {
  return RunGnuplotJob(svg_path, StudyHistogramJob(cells));
}

}  // namespace tickbench::harness
