// What GET /metrics returns: every collide metric, the gRPC call counts,
// the served levels and the process's metrics, in the Prometheus text
// exposition format 0.0.4.
#ifndef COLLIDE_SERVER_OPS_METRICS_PAGE_H_
#define COLLIDE_SERVER_OPS_METRICS_PAGE_H_

#include <atomic>
#include <string>

#include "server/levels/level_store.h"
#include "server/levels/skipped_level_files.h"

namespace collide::server {

// What one server adds to the process-wide metrics.
struct MetricsPageSources {
  const LevelStore* store = nullptr;
  // The level directory's skipped files (collide_level_files_skipped);
  // null: the gauge is left out.
  const SkippedLevelFiles* skipped_files = nullptr;
  // Whether the query port's health says SERVING for the whole server
  // (collide_serving); null: the gauge is left out.
  const std::atomic<bool>* serving = nullptr;
};

// The page for a server: Metrics() and ServerRpcMetrics() (process-wide),
// the levels `sources.store` serves now (collide_levels_loaded,
// collide_level_held_bytes and collide_level_version per level,
// collide_level_store_held_bytes in all), its health and skipped files, and
// AppendProcessMetrics. Takes the store's and the skipped files' locks once
// each, to list them; never touches a query's path.
std::string RenderMetricsPage(const MetricsPageSources& sources);

// The Content-Type of the page.
inline constexpr char kMetricsContentType[] =
    "text/plain; version=0.0.4; charset=utf-8";

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_METRICS_PAGE_H_
