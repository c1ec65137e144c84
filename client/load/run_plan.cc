#include "client/load/run_plan.h"

#include <cmath>

namespace collide::client::load {

RunPlan::RunPlan(Clock::time_point start, PlanOptions options)
    : start_(start), options_(options) {}

Clock::time_point RunPlan::DueTime(int64_t k) const {
  const double seconds = static_cast<double>(k) / options_.rate;
  return start_ + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(seconds));
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
