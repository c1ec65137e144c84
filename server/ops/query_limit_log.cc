#include "server/ops/query_limit_log.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "server/ops/log.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

constexpr std::chrono::seconds kLogInterval{10};

// Per limit: when its last line was written (seconds on the steady
// clock, 0: never) and the refusals since.
std::array<std::atomic<int64_t>, kQueryLimitCount> last_line{};
std::array<std::atomic<int64_t>, kQueryLimitCount> since_line{};

void LogQueryOverLimit(QueryLimit limit, absl::string_view message) {
  const size_t i = static_cast<size_t>(limit);
  since_line[i].fetch_add(1, std::memory_order_relaxed);
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t previous = last_line[i].load(std::memory_order_relaxed);
  if (previous != 0 && now - previous < kLogInterval.count()) return;
  if (!last_line[i].compare_exchange_strong(previous, now)) return;
  const int64_t count = since_line[i].exchange(0, std::memory_order_relaxed);
  LogAt(LogSeverity::kWarning,
        {{"limit", QueryLimitFlag(limit)}, {"times", count}},
        "query refused: %s (%d times in the last %d s; logged at most every "
        "%d s)",
        LogValue(message), count, kLogInterval.count(), kLogInterval.count());
}

}  // namespace

void InstallQueryLimitLog() { SetQueryOverLimitHook(&LogQueryOverLimit); }

}  // namespace collide::server
