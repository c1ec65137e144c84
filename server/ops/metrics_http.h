// The /metrics HTTP endpoint on its own port (--metrics_listen), served by
// civetweb (Debian's libcivetweb): Prometheus scrapes plain HTTP, and a
// separate port keeps it off the gRPC listener and its load balancer.
#ifndef COLLIDE_SERVER_OPS_METRICS_HTTP_H_
#define COLLIDE_SERVER_OPS_METRICS_HTTP_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

struct mg_context;

namespace collide::server {

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
      const std::string& listen, std::function<std::string()> render);

  // Stops serving (waits for scrapes in progress), in milliseconds.
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // The port bound (the chosen one when `listen` asked for port 0).
  int port() const { return port_; }

 private:
  explicit MetricsHttpServer(std::function<std::string()> render)
      : render_(std::move(render)) {}

  const std::function<std::string()> render_;
  mg_context* context_ = nullptr;
  int port_ = 0;
  // An IPv4 address the listener answers on (loopback for 0.0.0.0), to
  // wake it when stopping.
  std::string wake_host_ = "127.0.0.1";
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_METRICS_HTTP_H_
