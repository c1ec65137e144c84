// RunPlan: when a load test sends and which batches it measures.
//
// Closed loop (rate 0): every stream keeps `window` batches in flight and
// sends the next one as soon as one is answered; a batch's latency runs from
// that moment.
//
// Open loop (rate > 0, in batches per second over all streams): batch k of
// the run is due at start + k / rate, whatever happened to the others.
// Latency runs from the due time, not from when the batch actually left: a
// server that falls behind (or a stream whose window is full) makes batches
// late, and their lateness is part of their latency. The send rate never
// drops to what the server can take, so coordinated omission (a slow server
// pacing its own load test and hiding its queueing) cannot happen.
//
// A ramp (open loop only, duration-bound runs) changes the rate while the
// run measures, as ghz's step and line load schedules do: the warm-up runs
// at `rate`; then a linear ramp goes from `rate` to `ramp.to_rate` over the
// duration, and a step ramp holds `ramp.steps` equal rates from `rate` to
// `ramp.to_rate`, each for duration / steps. Due times follow the integral
// of the rate, so the schedule stays exact however the rate changes.
//
// Batches due (open) or sent (closed) before start + warmup warm the server
// and are not measured; then the run measures for `duration`, or until
// `count` batches have been sent when count > 0.
#ifndef COLLIDE_CLIENT_LOAD_RUN_PLAN_H_
#define COLLIDE_CLIENT_LOAD_RUN_PLAN_H_

#include <atomic>
#include <chrono>
#include <cstdint>

namespace collide::client::load {

using Clock = std::chrono::steady_clock;

enum class RampShape { kNone, kStep, kLinear };

struct RateRamp {
  RampShape shape = RampShape::kNone;
  // Batches per second over all streams at the end of the duration (> 0).
  double to_rate = 0;
  // kStep: how many rates, the first `rate` and the last `to_rate` (>= 2).
  int steps = 5;
};

struct PlanOptions {
  // Batches per second over all streams; 0 for a closed loop. With a ramp:
  // the rate of the warm-up and of the ramp's start.
  double rate = 0;
  RateRamp ramp = {};
  Clock::duration warmup = std::chrono::seconds(1);
  // How long sends are measured, after the warm-up (unused when count > 0).
  Clock::duration duration = std::chrono::seconds(10);
  // When > 0: measure this many batches, then stop (instead of duration).
  int64_t count = 0;
};

class RunPlan {
 public:
  RunPlan(Clock::time_point start, PlanOptions options);

  bool open_loop() const { return options_.rate > 0; }

  // Open loop: when batch k (0-based, over all streams) is due. Computed
  // from k, so rounding never accumulates over a long run.
  Clock::time_point DueTime(int64_t k) const;
  // Open loop: the target rate (batches/s) at `elapsed` since start.
  double RateAt(Clock::duration elapsed) const;
  // Open loop: the next batch of the schedule. Streams share one schedule,
  // so a stream whose window is full leaves the next batches to the others.
  int64_t TakeNextIndex() { return next_index_.fetch_add(1); }

  enum class Slot { kWarmup, kMeasured, kDone };
  // What becomes of a batch sent (closed loop) or due (open loop) at
  // send_time: kWarmup before the warm-up ends, then kMeasured while the
  // duration lasts or, with a count, for the first `count` claims after the
  // warm-up; kDone after that, and after Stop(). Thread-safe.
  Slot Claim(Clock::time_point send_time);

  // Every later Claim returns kDone (an interrupted run).
  void Stop() { stopped_.store(true); }
  bool stopped() const { return stopped_.load(); }

  Clock::time_point start() const { return start_; }
  Clock::time_point measure_start() const { return start_ + options_.warmup; }
  // When measured sends end; only meaningful when count == 0.
  Clock::time_point measure_end() const {
    return measure_start() + options_.duration;
  }
  const PlanOptions& options() const { return options_; }

 private:
  const Clock::time_point start_;
  const PlanOptions options_;
  std::atomic<int64_t> next_index_{0};
  std::atomic<int64_t> measured_claims_{0};
  std::atomic<bool> stopped_{false};
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_RUN_PLAN_H_
