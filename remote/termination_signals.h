// SIGINT and SIGTERM as a readable descriptor, for a server that polls: no handler runs,
// so nothing happens in signal context, and the server sees the request in the same
// poll() that waits for clients.
#ifndef REMOTE_TERMINATION_SIGNALS_H_
#define REMOTE_TERMINATION_SIGNALS_H_

#include "absl/status/statusor.h"
#include "transport/io/unique_fd.h"

namespace tickbench::remote {

// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts
// afterwards, and returns a signalfd that becomes readable when either is pending. Call
// it before starting threads: a thread that does not block them could take the signal
// and die of it. The signal stays pending (the descriptor is only polled, never read),
// so the process is meant to end after it.
absl::StatusOr<transport::UniqueFd> BlockTerminationSignals();

}  // namespace tickbench::remote

#endif  // REMOTE_TERMINATION_SIGNALS_H_
