#include "server/rpc/worker_pool.h"

#include <algorithm>
#include <utility>

namespace collide::server {

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
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::Submit(absl::AnyInvocable<void() &&> job) {
  absl::MutexLock lock(&mutex_);
  jobs_.push_back(std::move(job));
}

void WorkerPool::Run() {
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
