#include "server/ops/shutdown_signal.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/ops/log.h"

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

void StartShutdownWatchdog(absl::Duration limit) {
  std::thread([limit] {
    absl::SleepFor(limit);
    Log("drain still running %s after the signal: exiting now",
        absl::FormatDuration(limit));
    _exit(0);
  }).detach();
}

}  // namespace collide::server
