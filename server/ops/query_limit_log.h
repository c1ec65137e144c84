// The log line of a query refused for a per-query size limit
// (RecordQueryOverLimit in server_metrics.h counts it; the handlers that
// refuse it live below the log). At most one line per limit every 10 s,
// with the count since the last one, so a caller sending oversized
// queries in a loop cannot flood the log.
#ifndef COLLIDE_SERVER_OPS_QUERY_LIMIT_LOG_H_
#define COLLIDE_SERVER_OPS_QUERY_LIMIT_LOG_H_

namespace collide::server {

// Makes RecordQueryOverLimit log (SetQueryOverLimitHook); process-wide,
// idempotent. CollideServer::Start calls it.
void InstallQueryLimitLog();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_QUERY_LIMIT_LOG_H_
