// The round-trip engine's lost datagrams (round_trip_engine.h): each loss stops the timed
// loop, is counted and flagged here, and the loop starts again; a silent peer ends the run.
#include <algorithm>

#include "absl/strings/str_format.h"
#include "harness/engine/round_trip_engine.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {
namespace {

// `buffers` with the readings and fault flags from interval boundary `mark` on.
LoopBuffers FromMark(const LoopBuffers& buffers, int64_t mark) {
  LoopBuffers rest = buffers;
  rest.marks = buffers.marks.subspan(mark);
  if (!buffers.reference_marks.empty())
    rest.reference_marks = buffers.reference_marks.subspan(mark);
  rest.faulty = buffers.faulty.subspan(mark);
  return rest;
}

}  // namespace

LoopOutcome RoundTripEngine::TimeChunk(const LoopBuffers& buffers, int64_t trips, int64_t batch,
                                       uint64_t first_sequence, bool continue_on_loss,
                                       IntegrityCounts& integrity) {
  if (!continue_on_loss) {
    return loop_(endpoint_, clock_, reference_, buffers, trips, batch, first_sequence, false,
                 integrity);
  }
  LoopOutcome total;
  int64_t done = 0;  // trips finished, lost ones included
  while (true) {
    const LoopBuffers rest = FromMark(buffers, total.marks);
    const LoopOutcome part = loop_(endpoint_, clock_, reference_, rest, trips - done, batch,
                                   first_sequence + done, false, integrity);
    total.marks += part.marks;
    done += part.completed;
    if (part.completed > 0) consecutive_lost_ = 0;
    if (part.status.code() != absl::StatusCode::kDeadlineExceeded) {
      total.status = part.status;
      break;
    }
    // Trip done + 1 was lost, in the interval the part's last reading opened; the next
    // clean trip is left out too (round_trip_loop.h).
    buffers.faulty[total.marks - 1] = 1;
    integrity.next_follows_fault = true;
    total.status = CountLoss(integrity);
    if (!total.status.ok()) break;
    ++done;
    const int64_t before = part.completed - (part.marks - 1) * batch;
    total.status = FinishFaultyInterval(buffers, std::min(batch - before - 1, trips - done),
                                        first_sequence + done, integrity, done);
    if (!total.status.ok()) break;
  }
  total.completed = done;
  total.closed = total.status.ok() ? done : (total.marks - 1) * batch;
  return total;
}

absl::Status RoundTripEngine::CountLoss(IntegrityCounts& integrity) {
  ++integrity.lost;
  if (++consecutive_lost_ >= std::max<int64_t>(1, options_.max_consecutive_losses)) {
    return absl::UnavailableError(absl::StrFormat(
        "no echo to %d round trips in a row, each waited for %s: the peer has stopped "
        "answering (a datagram run ends after %d consecutive losses)",
        consecutive_lost_, absl::FormatDuration(timed_receive_timeout_),
        options_.max_consecutive_losses));
  }
  return platform::CancelledIfStopRequested("timing round trips");
}

absl::Status RoundTripEngine::FinishFaultyInterval(const LoopBuffers& buffers, int64_t trips,
                                                   uint64_t sequence, IntegrityCounts& integrity,
                                                   int64_t& done) {
  for (int64_t i = 0; i < trips; ++i) {
    transport::Endpoint& endpoint = endpoint_;  // untimed: virtual calls will do
    bool faulty = false;
    absl::Status status = RoundTrip(endpoint, buffers, sequence + i, integrity, &faulty);
    if (status.code() == absl::StatusCode::kDeadlineExceeded) {
      integrity.next_follows_fault = true;
      if (absl::Status s = CountLoss(integrity); !s.ok()) return s;
    } else if (!status.ok()) {
      return status;
    } else {
      consecutive_lost_ = 0;
      // In the faulty interval already: the first clean trip after the fault is only
      // counted (round_trip_loop.h).
      if (faulty) {
        integrity.next_follows_fault = true;
      } else if (integrity.next_follows_fault) {
        integrity.next_follows_fault = false;
        ++integrity.after_fault;
      }
    }
    TICKBENCH_RETURN_IF_STOPPED("timing round trips");
    ++done;
  }
  return absl::OkStatus();
}

}  // namespace tickbench::harness
