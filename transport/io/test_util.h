// Test helpers: one checked round trip, and what a transport must not leave behind
// (files in the temporary directory, open file descriptors).
#ifndef TRANSPORT_TEST_UTIL_H_
#define TRANSPORT_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "transport/transport.h"

namespace tickbench::transport {

// Sends a pattern-filled `size`-byte message stamped with `sequence` and receives its
// echo: the client's Send or Receive status, or DataLoss naming what the echo got wrong.
absl::Status CheckedRoundTrip(Endpoint& client, size_t size, uint64_t sequence);

// Makes a fresh directory under $TEST_TMPDIR (or /tmp) and points TMPDIR at it; the
// destructor puts TMPDIR back and removes the directory if it is empty.
class ScopedTmpdir {
 public:
  ScopedTmpdir();
  ScopedTmpdir(const ScopedTmpdir&) = delete;
  ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;
  ~ScopedTmpdir();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string old_tmpdir_;
  bool had_tmpdir_ = false;
};

// Entries in `path` other than "." and "..", or -1 when it cannot be read.
int DirectoryEntryCount(const std::string& path);

// Descriptors open in this process (entries of /proc/self/fd, less the one used to read
// it), or -1 when /proc is not mounted.
int OpenFileDescriptorCount();

}  // namespace tickbench::transport

#endif  // TRANSPORT_TEST_UTIL_H_
