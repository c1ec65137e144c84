// CollideServer: the whole service in one object, as main() runs it and as
// end-to-end tests start it in-process: the level store (bundled default,
// level files, level directory, and the watcher that keeps the store in
// step with that directory), CollisionService, LevelService, the
// grpc.health.v1 health service, server reflection, and graceful shutdown.
//
// Two listeners, each its own grpc::Server: the query port (`listen`:
// CollisionService, LevelService reads, health, reflection) and the admin
// listener (`admin_listen`: LevelService with its writes, behind an
// AdminGate; health, reflection). Two servers rather than one with two
// ports, because gRPC 1.51 tells a handler its peer but not the local port
// a call came in on, so a per-method port check would need a custom
// authentication processor per port; separate servers make "writes are not
// on the query port" a matter of what is registered where.
#ifndef COLLIDE_SERVER_COLLIDE_SERVER_H_
#define COLLIDE_SERVER_COLLIDE_SERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/input_limits.h"
#include "server/fleet/redis_level_sync.h"
#include "server/levels/level_dir_watcher.h"
#include "server/levels/level_store.h"
#include "server/levels/skipped_level_files.h"
#include "server/ops/admin_gate.h"
#include "server/ops/metrics_http.h"
#include "server/ops/tls_credentials.h"
#include "server/rpc/collision_service.h"
#include "server/rpc/level_service_impl.h"
#include "server/rpc/unknown_method_service.h"
#include "server/rpc/worker_pool.h"

namespace collide::server {

// Everything main.cc's flags set (ABSL_FLAGs live only in main.cc).
struct ServerOptions {
  // host:port to listen on; port 0 picks a free port (see
  // CollideServer::port()).
  std::string listen = "0.0.0.0:50051";
  // Serve the bundled "arena" level (default_level.h).
  bool load_default_level = true;
  // Level files (JSON or binary) loaded at start; a file's level id is the
  // id inside it, or else its file name without extension. Not persisted.
  std::vector<std::string> level_files;
  // Directory that levels put through LevelService are written to, and
  // loaded from at start (after the default level and level_files, so
  // what was put last wins); created (with its parents) if missing. Empty:
  // puts live in memory only.
  std::string level_dir;
  // A level file in level_dir that cannot be loaded at start (unreadable,
  // empty, truncated, corrupted, invalid) fails the start instead of being
  // skipped with a log line.
  bool strict_level_dir = false;
  // How often the level directory is checked for level files that
  // appeared, changed or vanished (LevelDirWatcher); zero or less: never,
  // the directory is only read at start.
  absl::Duration level_dir_poll_interval = absl::Seconds(1);
  // Where the fleet's levels live: "" for the level directory (level_dir,
  // as a single server keeps them), or "redis://host:port/prefix" for a
  // shared store every replica writes to and applies changes from
  // (redis_level_sync.h). Redis and level_dir are exclusive.
  std::string level_store;
  formats::InputLimits limits;
  // What the server holds at most over all levels.
  StoreLimits store_limits;
  // Threads that answer query batches (gRPC's own event threads only move
  // messages); 0: one per hardware thread.
  int worker_threads = 0;
  // How long Shutdown() lets in-flight calls finish before cancelling them.
  absl::Duration shutdown_grace = absl::Seconds(10);
  // Connections to the query port are sent GOAWAY after this long (gRPC
  // adds +-10% jitter), so long-lived clients reconnect, re-resolve and
  // spread onto replicas added since they connected. Zero: never.
  absl::Duration max_connection_age = absl::Minutes(5);
  // How long calls still open on a connection past max_connection_age may
  // run before the connection is closed (their streams then end with
  // UNAVAILABLE, which the client library resends on a new stream). Zero:
  // no limit (a stream that never ends pins its connection).
  absl::Duration max_connection_age_grace = absl::Seconds(30);
  // host:port (IPv4) to serve Prometheus metrics on, GET /metrics over
  // plain HTTP (metrics_http.h); port 0 picks a free port (see
  // CollideServer::metrics_port()). Empty: no metrics endpoint.
  std::string metrics_listen;
  // TLS or mutual TLS on both listeners; plaintext by default.
  TlsOptions tls;
  // Where LevelService writes are served: "host:port" (port 0: a free
  // port, see admin_port()). Empty: nowhere, a read-only replica. The same
  // address as `listen` (port not 0): on the query port itself, behind
  // the same AdminGate, as before admin listeners existed. Anything but
  // loopback needs admin_auth (CheckAdminOptions).
  std::string admin_listen = "127.0.0.1:50052";
  // Credentials admin calls must carry; none on a loopback admin listener
  // lets every local caller change levels.
  AdminAuthOptions admin_auth;
};

class CollideServer {
 public:
  // Loads the levels, then builds and starts the gRPC server. Errors: a
  // bundled or level_files level that does not load (its file and field), a
  // level directory that cannot be listed, a bad file in it with
  // strict_level_dir, or the address that cannot be bound (UNAVAILABLE);
  // INVALID_ARGUMENT for TLS or admin options that cannot work
  // (CheckTlsOptions, CheckAdminOptions), FAILED_PRECONDITION for a TLS
  // file that cannot be read (naming the option).
  // Logs one line per level loaded, per level directory file skipped (and
  // a count of them), per leftover temporary file removed, and one when
  // listening.
  static absl::StatusOr<std::unique_ptr<CollideServer>> Start(
      const ServerOptions& options);

  // Shuts down if still running.
  ~CollideServer();
  CollideServer(const CollideServer&) = delete;
  CollideServer& operator=(const CollideServer&) = delete;

  // The port actually bound (the chosen one when listen asked for 0).
  int port() const { return port_; }
  // The metrics endpoint's port (0 without metrics_listen).
  int metrics_port() const {
    return metrics_http_ != nullptr ? metrics_http_->port() : 0;
  }
  // The admin listener's port; 0 when it is off or shares the query port.
  int admin_port() const { return admin_port_; }
  LevelStore& store() { return *store_; }
  // The level directory's files not served (also in ListLevels and the
  // health service's SkippedLevelFiles::kHealthService status).
  const SkippedLevelFiles& skipped_files() const { return skipped_files_; }

  // Graceful stop: the level directory watcher stops (its thread is
  // joined), health reports NOT_SERVING, no new calls are accepted
  // (GOAWAY), streams end with UNAVAILABLE once they have answered the
  // batches they read (CollisionServiceImpl::Drain), calls in flight get
  // until now + shutdown_grace to finish and are then cancelled. Returns
  // as soon as no call is left (idle connections are closed, not waited
  // for; calls of other CollideServers in this process count as left, see
  // RpcMetrics::calls_in_flight), at the latest after the grace.
  // Idempotent.
  void Shutdown();

 private:
  CollideServer() = default;
  // With a Redis level_store: loads the fleet's levels and starts applying
  // its changes (INVALID_ARGUMENT for a bad URL, or with level_dir).
  absl::Status StartLevelStore();
  // Builds and starts admin_server_ on options_.admin_listen.
  absl::Status StartAdmin(
      const std::shared_ptr<grpc::ServerCredentials>& credentials);

  ServerOptions options_;
  // Before what fills and reads it (the watcher, the level service).
  SkippedLevelFiles skipped_files_;
  std::unique_ptr<LevelStore> store_;
  // After the store, so it stops before the store goes. Null without a
  // level directory or with polling off.
  std::unique_ptr<LevelDirWatcher> watcher_;
  // After the store, so it stops before the store goes. Null unless
  // level_store names Redis.
  std::unique_ptr<RedisLevelSync> redis_sync_;
  // Declared before the services and the server, so it is destroyed after
  // them: a batch still queued when the server stops is answered first.
  std::unique_ptr<WorkerPool> workers_;
  std::unique_ptr<CollisionServiceImpl> collision_service_;
  std::unique_ptr<LevelServiceImpl> level_service_;
  std::unique_ptr<UnknownMethodService> unknown_methods_;
  std::unique_ptr<grpc::Server> server_;
  // Last, so it stops first: it reads the store at each scrape. It keeps
  // answering while calls drain.
  std::unique_ptr<MetricsHttpServer> metrics_http_;
  int port_ = 0;
  // The admin listener's own LevelService (writes admitted by the gate),
  // and its server; null when admin_listen is empty or equals listen.
  std::unique_ptr<LevelServiceImpl> admin_level_service_;
  std::unique_ptr<UnknownMethodService> admin_unknown_methods_;
  std::unique_ptr<grpc::Server> admin_server_;
  int admin_port_ = 0;
  bool shut_down_ = false;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_COLLIDE_SERVER_H_
