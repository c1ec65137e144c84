#include "server/rpc/worker_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace collide::server {
namespace {

// This thread's depth of jobs run by YieldSlice; -1 off the pool's threads.
thread_local int yield_depth = -1;

}  // namespace

WorkerPool::WorkerPool(int threads) {
  threads = std::max(threads, 1);
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
}

WorkerPool::~WorkerPool() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  for (std::thread &thread : threads_) thread.join();
}

void WorkerPool::Submit(absl::AnyInvocable<void() &&> job) {
  absl::MutexLock lock(&mutex_);
  jobs_.push_back(std::move(job));
}

absl::AnyInvocable<void() &&> WorkerPool::TakeJob() {
  absl::MutexLock lock(&mutex_);
  if (jobs_.empty()) return nullptr;
  absl::AnyInvocable<void() &&> job = std::move(jobs_.front());
  jobs_.pop_front();
  return job;
}

void WorkerPool::YieldSlice() {
  if (yield_depth < 0 || yield_depth >= kMaxYieldDepth) return;
  absl::AnyInvocable<void() &&> job = TakeJob();
  if (job == nullptr) return;
  ++yield_depth;
  std::move(job)();
  --yield_depth;
}

void WorkerPool::Run() {
  // Linux applies nice per thread (setpriority on a thread id), and a new
  // thread starts with its creator's; relative, so a server started with
  // `nice -n -10` keeps its workers below its gRPC threads and above other
  // processes. Failing (a seccomp profile, say) only leaves the creator's
  // priority.
  const id_t tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, tid);  // -1 is a valid value
  if (errno == 0) setpriority(PRIO_PROCESS, tid, nice + kWorkerNice);
  yield_depth = 0;
  while (true) {
    absl::AnyInvocable<void() &&> job;
    {
      absl::MutexLock lock(&mutex_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        return stopping_ || !jobs_.empty();
      };
      mutex_.Await(absl::Condition(&ready));
      // Drain before stopping: a queued batch's stream waits for it.
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    std::move(job)();
  }
}

}  // namespace collide::server
