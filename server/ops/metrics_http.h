// The /metrics HTTP endpoint on its own port (--metrics_listen), served by
// civetweb (Debian's libcivetweb): Prometheus scrapes plain HTTP, and a
// separate port keeps it off the gRPC listener and its load balancer.
//
// civetweb gives each connection a thread of its pool from accept to close,
// and a connection that sends nothing holds its thread until the request
// timeout. So the endpoint cannot be held by a few idle or half-sent
// connections: the pool has MetricsHttpOptions::threads workers, a request
// must arrive whole within request_timeout of the connection's first
// moment (civetweb counts from then, not from the last byte, so trickling
// bytes does not extend it), and keep-alive is off (one request per
// connection). A connection over the pool waits in civetweb's accept queue
// for a thread; the wait is bounded by request_timeout per pool's worth of
// connections ahead of it. Each connection closed without a complete
// request counts in ServerMetrics::metrics_connections_dropped, and a log
// line says so (at most once a minute, with the count since the last).
#ifndef COLLIDE_SERVER_OPS_METRICS_HTTP_H_
#define COLLIDE_SERVER_OPS_METRICS_HTTP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

struct mg_context;

namespace collide::server {

struct MetricsHttpOptions {
  // civetweb worker threads: connections served at once (each costs a
  // thread's stack, mostly untouched, and a 16 KiB request buffer).
  int threads = 16;
  // Longest a connection may take to send its whole request (and to take
  // the answer), counted from when a thread picks it up.
  absl::Duration request_timeout = absl::Seconds(1);
};

class MetricsHttpServer {
 public:
  // Serves GET (and HEAD) /metrics on `listen` with what `render` returns
  // at each scrape (called on civetweb's threads, one scrape at a time per
  // thread; it must be thread-safe), as kMetricsContentType. Other paths are
  // 404, other methods 405. `listen` is "host:port" with an IPv4 address
  // ("0.0.0.0:9090", "127.0.0.1:0" for any free port) or a bare port (all
  // IPv4 interfaces); Debian's civetweb is built without IPv6.
  // UNAVAILABLE naming `listen` when it cannot be bound.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      const std::string& listen, const MetricsHttpOptions& options,
      std::function<std::string()> render);

  // Stops serving (waits for scrapes in progress), in milliseconds.
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // The port bound (the chosen one when `listen` asked for port 0).
  int port() const { return port_; }

 private:
  MetricsHttpServer(const MetricsHttpOptions& options,
                    std::function<std::string()> render)
      : options_(options), render_(std::move(render)) {}

  // Counts a connection closed without an answer and logs the count, at
  // most once a minute.
  void NoteDropped() ABSL_LOCKS_EXCLUDED(drop_mutex_);

  const MetricsHttpOptions options_;
  const std::function<std::string()> render_;
  absl::Mutex drop_mutex_;
  absl::Time drop_logged_ ABSL_GUARDED_BY(drop_mutex_) = absl::InfinitePast();
  int64_t drops_unlogged_ ABSL_GUARDED_BY(drop_mutex_) = 0;
  mg_context* context_ = nullptr;
  int port_ = 0;
  // An IPv4 address the listener answers on (loopback for 0.0.0.0), to
  // wake it when stopping.
  std::string wake_host_ = "127.0.0.1";
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_METRICS_HTTP_H_
