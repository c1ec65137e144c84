// WorkerPool: a fixed set of threads that run the service's query batches.
// gRPC's callback API runs reactions on its own few event threads (in
// 1.51, effectively one per busy poller), and a reaction must stay short
// and non-blocking (it holds one of those threads); a batch of 256 casts
// is ~100 us of geometry. So reactions hand batches here and return, and
// batches from many streams (and several from one stream) use every core.
//
// Fairness: a long job (a big batch) calls YieldSlice between slices of its
// work, which runs a waiting job first, so a job waits for at most one
// slice of a running one, not for all of it, while every worker is busy.
// The threads run at a lower priority (kWorkerNice more nice) than gRPC's event
// threads, which answer small batches themselves: a 1-query batch is not
// queued behind the workers' big batches for a CPU either.
#ifndef COLLIDE_SERVER_RPC_WORKER_POOL_H_
#define COLLIDE_SERVER_RPC_WORKER_POOL_H_

#include <deque>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"

namespace collide::server {

class WorkerPool {
 public:
  // Starts `threads` threads (at least 1).
  explicit WorkerPool(int threads);
  // Runs every job already submitted, then joins the threads.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `job` to run on some worker thread, in submission order per
  // thread availability (no ordering between jobs is promised).
  void Submit(absl::AnyInvocable<void() &&> job);

  int size() const { return static_cast<int>(threads_.size()); }

  // Called by a job between slices of its work, on a worker thread: runs
  // the oldest waiting job, if any, on this thread before returning. Jobs
  // nest at most kMaxYieldDepth deep (a job run here may yield in turn);
  // deeper, or off a worker, it returns at once.
  void YieldSlice();

  // How much nicer the worker threads are than the thread that made the
  // pool (gRPC's threads keep the process's nice value, 0 unless the
  // server was started with `nice`).
  static constexpr int kWorkerNice = 5;
  static constexpr int kMaxYieldDepth = 2;

 private:
  void Run();
  // The oldest job, if any (and taken off the queue).
  absl::AnyInvocable<void() &&> TakeJob();

  absl::Mutex mutex_;
  std::deque<absl::AnyInvocable<void() &&>> jobs_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_WORKER_POOL_H_
