#include "client/load/run_plan.h"

#include <algorithm>
#include <cmath>

namespace collide::client::load {

RunPlan::RunPlan(Clock::time_point start, PlanOptions options)
    : start_(start), options_(options) {}

namespace {

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Seconds into a ramp of `length` s at which `n` batches have been due,
// the rate going linearly from r0 to r1: the root of
// r0 s + (r1 - r0) s^2 / (2 length) = n. Past the ramp's last batch: length.
double LinearRampSeconds(double n, double r0, double r1, double length) {
  if (n >= (r0 + r1) / 2 * length) return length;
  const double a = (r1 - r0) / (2 * length);
  if (std::abs(a) < 1e-12 * std::max(r0, r1)) return n / r0;
  // The root that is the first crossing; written to avoid cancellation.
  return 2 * n / (r0 + std::sqrt(r0 * r0 + 4 * a * n));
}

// The same for `steps` equal steps of rates r0 .. r1.
double StepRampSeconds(double n, double r0, double r1, double length,
                       int steps) {
  const double step_length = length / steps;
  double at = 0;
  for (int i = 0; i < steps; ++i) {
    const double rate = r0 + (r1 - r0) * i / (steps - 1);
    const double due = rate * step_length;
    if (n < due) return at + n / rate;
    n -= due;
    at += step_length;
  }
  return length;
}

}  // namespace

Clock::time_point RunPlan::DueTime(int64_t k) const {
  const double r0 = options_.rate;
  const double warmup = Seconds(options_.warmup);
  double seconds = static_cast<double>(k) / r0;
  if (options_.ramp.shape != RampShape::kNone && seconds > warmup) {
    const double n = static_cast<double>(k) - r0 * warmup;
    const double length = Seconds(options_.duration);
    const double r1 = options_.ramp.to_rate;
    seconds = warmup +
              (options_.ramp.shape == RampShape::kLinear
                   ? LinearRampSeconds(n, r0, r1, length)
                   : StepRampSeconds(n, r0, r1, length, options_.ramp.steps));
  }
  return start_ + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(seconds));
}

double RunPlan::RateAt(Clock::duration elapsed) const {
  const double r0 = options_.rate;
  const double into_ramp = Seconds(elapsed - options_.warmup);
  if (options_.ramp.shape == RampShape::kNone || into_ramp < 0) return r0;
  const double length = Seconds(options_.duration);
  const double share = std::min(into_ramp / length, 1.0);
  const double r1 = options_.ramp.to_rate;
  if (options_.ramp.shape == RampShape::kLinear) return r0 + (r1 - r0) * share;
  const int steps = options_.ramp.steps;
  const int step = std::min(static_cast<int>(share * steps), steps - 1);
  return r0 + (r1 - r0) * step / (steps - 1);
}

RunPlan::Slot RunPlan::Claim(Clock::time_point send_time) {
  if (stopped_.load()) return Slot::kDone;
  if (send_time < measure_start()) return Slot::kWarmup;
  if (options_.count > 0) {
    return measured_claims_.fetch_add(1) < options_.count ? Slot::kMeasured
                                                          : Slot::kDone;
  }
  return send_time < measure_end() ? Slot::kMeasured : Slot::kDone;
}

}  // namespace collide::client::load
