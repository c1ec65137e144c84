// The standard process_* metrics every Prometheus client library exports
// (the names client_golang's process collector uses), read from /proc/self
// at scrape time.
#ifndef COLLIDE_SERVER_OPS_PROCESS_METRICS_H_
#define COLLIDE_SERVER_OPS_PROCESS_METRICS_H_

#include "server/ops/metrics.h"

namespace collide::server {

// Appends process_cpu_seconds_total (user + system), process_start_time_seconds
// (since the Unix epoch), process_virtual_memory_bytes,
// process_resident_memory_bytes and process_open_fds. A /proc file that
// cannot be read leaves its families out rather than reporting zeros.
void AppendProcessMetrics(ExpositionWriter& writer);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_PROCESS_METRICS_H_
