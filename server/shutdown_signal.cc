#include "server/shutdown_signal.h"

#include <pthread.h>
#include <signal.h>

#include <cerrno>

namespace collide::server {
namespace {

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

bool BlockShutdownSignals() {
  const sigset_t set = ShutdownSignals();
  const int error = pthread_sigmask(SIG_BLOCK, &set, nullptr);
  if (error != 0) errno = error;
  return error == 0;
}

int WaitForShutdownSignal() {
  const sigset_t set = ShutdownSignals();
  int signal_number = 0;
  // sigwait only fails for an invalid set, so loop defensively on EINTR-like
  // spurious returns rather than treating them as a shutdown.
  while (sigwait(&set, &signal_number) != 0) {
  }
  return signal_number;
}

}  // namespace collide::server
