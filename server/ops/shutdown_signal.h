// Graceful shutdown on SIGTERM / SIGINT without work in a signal handler:
// the signals are blocked in every thread and taken synchronously with
// sigwait, so the wake-up is a plain function return (nothing async-signal-
// unsafe can run in a handler, because there is none).
#ifndef COLLIDE_SERVER_OPS_SHUTDOWN_SIGNAL_H_
#define COLLIDE_SERVER_OPS_SHUTDOWN_SIGNAL_H_

#include "absl/time/time.h"

namespace collide::server {

// Blocks SIGTERM and SIGINT in the calling thread. Threads inherit the
// mask, so calling this first in main(), before gRPC or anything else
// starts a thread, keeps the signals pending until WaitForShutdownSignal
// takes them. Returns false (errno set) if the mask could not be changed.
bool BlockShutdownSignals();

// Waits until SIGTERM or SIGINT is pending and takes it. Returns the signal
// number. Precondition: BlockShutdownSignals() ran in this process's first
// thread.
int WaitForShutdownSignal();

// Starts a detached thread that, if the process is still running `limit`
// from now, logs that the drain overran and ends the process at once with
// exit code 0 (_exit: no destructors, no further waiting). The last resort
// behind the drain's own bound (Server::Shutdown's deadline and batches
// stopping between queries), so that a drain never outlives
// --shutdown_grace by more than a second, whatever gRPC or a query is
// doing. Safe for the data: level files are only ever replaced by rename,
// and a temporary left behind is removed at the next start.
void StartShutdownWatchdog(absl::Duration limit);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_SHUTDOWN_SIGNAL_H_
