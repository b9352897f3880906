#include "harness/engine/progress_meter.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace tickbench::harness {
namespace {

// A duration to a tenth of a second, or whole seconds beyond a minute.
std::string Seconds(absl::Duration d) {
  if (d >= absl::Minutes(1)) return absl::FormatDuration(absl::Trunc(d, absl::Seconds(1)));
  return absl::FormatDuration(absl::Trunc(d, absl::Milliseconds(100)));
}

}  // namespace

ProgressMeter::ProgressMeter(std::function<void(absl::string_view)> err, Options options,
                             std::vector<size_t> sizes, int runs, int64_t trips_per_run)
    : err_(std::move(err)),
      options_(std::move(options)),
      sizes_(std::move(sizes)),
      runs_(runs),
      trips_per_run_(trips_per_run),
      start_(Now()),
      last_line_(start_) {}

ProgressMeter::~ProgressMeter() { Clear(); }

void ProgressMeter::Clear() {
  if (options_.terminal && line_width_ > 0) {
    err_(absl::StrCat("\r", std::string(line_width_, ' '), "\r"));
  }
  line_width_ = 0;
}

void ProgressMeter::RunDone() {
  ++runs_done_;
  const absl::Time now = Now();
  if (now - last_line_ < options_.interval) return;
  last_line_ = now;
  std::string line = Line(sizes_, runs_, trips_per_run_, runs_done_, now - start_, options_.until);
  if (options_.terminal) {
    if (options_.columns > 1 && line.size() > options_.columns - 1) {
      line.resize(options_.columns - 1);
    }
    const size_t pad = line_width_ > line.size() ? line_width_ - line.size() : 0;
    err_(absl::StrCat("\r", line, std::string(pad, ' ')));
    line_width_ = std::max(line_width_, line.size());
  } else {
    err_(absl::StrCat(line, "\n"));
  }
}

std::string ProgressMeter::Line(const std::vector<size_t>& sizes, int runs, int64_t trips_per_run,
                                int runs_done, absl::Duration elapsed, absl::string_view until) {
  const int total = runs * static_cast<int>(sizes.size());
  if (!until.empty() && runs_done >= total) {
    return absl::StrFormat(
        "progress: %d of at least %d runs, %d round trips, elapsed %s; adding "
        "runs until %s",
        runs_done, total, runs_done * trips_per_run, Seconds(elapsed), until);
  }
  const int current = std::min(runs_done, std::max(total - 1, 0));
  const std::string where =
      sizes.empty() ? std::string("-")
                    : absl::StrFormat("%d B, run %d of %d", sizes[current % sizes.size()],
                                      current / static_cast<int>(sizes.size()) + 1, runs);
  const std::string eta =
      runs_done > 0 ? Seconds(elapsed * (total - runs_done) / runs_done) : std::string("?");
  return absl::StrFormat("progress: %s: %d of %d runs, %d round trips, elapsed %s, ETA %s", where,
                         runs_done, total, runs_done * trips_per_run, Seconds(elapsed), eta);
}

}  // namespace tickbench::harness
