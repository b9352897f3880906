// The study's per-iteration pass as a trip policy for the one bracketed loop
// (core::BracketedLoop): the host's round trip with the study's gap and dither between
// trips.
#ifndef HARNESS_STUDY_BRACKETED_TRIPS_H_
#define HARNESS_STUDY_BRACKETED_TRIPS_H_

#include <cstdint>
#include <random>

#include "harness/engine/round_trip_loop.h"
#include "harness/engine/run_record.h"
#include "harness/study/study_runner.h"
#include "transport/transport.h"

namespace tickbench::harness {

// The per-iteration pass's trip policy for core::BracketedLoop: the host's round trip
// (HostTrips), with the gap and the dither between trips, untimed; a faulty trip's reading,
// and the first clean one's after it, are not kept (the next overwrites them), the latter
// counted in integrity.after_fault as a warm-up's trips are left out.
struct BracketedTrips {
  HostTrips<transport::Endpoint, true> host;
  const PauseFunction* pause;
  std::mt19937_64* random;
  std::uniform_int_distribution<int64_t> dither;
  int64_t gap_ns;
  bool dithered;
  IntegrityCounts* integrity;

  void Pause() {
    const int64_t ns = gap_ns + (dithered ? dither(*random) : 0);
    if (ns > 0) (*pause)(ns);
  }
  bool Trip(int64_t index, int64_t interval) { return host.Trip(index, interval); }
  bool KeepLast() {
    if (host.last_after_fault()) ++integrity->after_fault;
    return host.last_kept();
  }
};

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_BRACKETED_TRIPS_H_
