// What GET /metrics returns: every collide metric, the gRPC call counts,
// the served levels and the process's metrics, in the Prometheus text
// exposition format 0.0.4.
#ifndef COLLIDE_SERVER_OPS_METRICS_PAGE_H_
#define COLLIDE_SERVER_OPS_METRICS_PAGE_H_

#include <string>

#include "server/levels/level_store.h"

namespace collide::server {

// The page for a server serving `store`: Metrics() and ServerRpcMetrics()
// (process-wide), the levels `store` serves now (collide_levels_loaded,
// collide_level_held_bytes and collide_level_version per level,
// collide_levels_held_bytes in all) and AppendProcessMetrics. Takes the
// store's map lock once, to list it; never touches a query's path.
std::string RenderMetricsPage(const LevelStore& store);

// The Content-Type of the page.
inline constexpr char kMetricsContentType[] =
    "text/plain; version=0.0.4; charset=utf-8";

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_METRICS_PAGE_H_
