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

#include <atomic>
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
#include "server/rpc/reflection_service.h"
#include "server/rpc/unknown_method_service.h"
#include "server/rpc/worker_pool.h"
#include "server/server_options.h"

namespace collide::server {

class CollideServer {
 public:
  // Loads the levels, then builds and starts the gRPC server. Precondition:
  // ValidateServerOptions(options) is OK. Errors: a bundled or level_files
  // level that does not load (its file and field), a level directory that
  // cannot be created or listed, a bad file in it with strict_level_dir, or
  // an address that cannot be bound (UNAVAILABLE); FAILED_PRECONDITION for
  // a TLS file that cannot be read (naming the option).
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
  // once no call has been left or started for 0.1 s (the clients have read
  // the GOAWAY; idle connections are then closed, not waited for; calls of
  // other CollideServers in this process count too, see
  // RpcMetrics::calls_in_flight), at the latest after the grace.
  // Idempotent.
  void Shutdown();

 private:
  explicit CollideServer(const ServerOptions& options) : options_(options) {}

  // Start's steps, in order.
  // Creates the store and loads the bundled level and level_files, then the
  // level directory over them (priming the directory watcher in between).
  absl::Status LoadLevels();
  // With a Redis level_store: loads the fleet's levels and starts applying
  // its changes (INVALID_ARGUMENT for a bad URL).
  absl::Status StartLevelStore();
  // The worker pool and the query port's services.
  void MakeServices();
  // The metrics endpoint, when metrics_listen is set; before the gRPC
  // server, so an address that cannot be bound fails the start before any
  // call is served.
  absl::Status StartMetrics();
  // Builds and starts server_ on options_.listen and sets its health.
  absl::Status StartQueryPort(
      const std::shared_ptr<grpc::ServerCredentials>& credentials);
  // Builds and starts admin_server_ on options_.admin_listen; with writes
  // on the query port or nowhere, only logs where they are served.
  absl::Status StartAdmin(
      const std::shared_ptr<grpc::ServerCredentials>& credentials);
  // The transport and "listening on ... (port N)" lines tools wait for.
  void LogListening() const;
  // Starts polling the level directory, when watcher_ was made.
  void StartWatcher();

  ServerOptions options_;
  // Before what fills and reads it (the watcher, the level service, the
  // metrics page).
  SkippedLevelFiles skipped_files_;
  // Whether the query port's health says SERVING (collide_serving).
  std::atomic<bool> serving_{false};
  std::unique_ptr<LevelStore> store_;
  // After the store, so it stops before the store goes. Null without a
  // level directory or with polling off.
  std::unique_ptr<LevelDirWatcher> watcher_;
  // After the store, so it stops before the store goes. Null unless
  // level_store names Redis.
  std::unique_ptr<RedisLevelSync> redis_sync_;
  // The bundled and --level_files levels, by id (for the fleet's store).
  RedisLevelSync::BaseLevels base_sources_;
  // Reset first of all by the destructor (after Shutdown), so its jobs
  // finish while the services they run for are alive.
  std::unique_ptr<WorkerPool> workers_;
  std::unique_ptr<CollisionServiceImpl> collision_service_;
  std::unique_ptr<LevelServiceImpl> level_service_;
  std::unique_ptr<UnknownMethodService> unknown_methods_;
  // grpc.reflection.v1 and v1alpha over the query port's services.
  std::unique_ptr<ReflectionServices> reflection_;
  std::unique_ptr<grpc::Server> server_;
  // Last, so it stops first: it reads the store at each scrape. It keeps
  // answering while calls drain.
  std::unique_ptr<MetricsHttpServer> metrics_http_;
  int port_ = 0;
  // The admin listener's own LevelService (writes admitted by the gate),
  // and its server; null when admin_listen is empty or equals listen.
  std::unique_ptr<LevelServiceImpl> admin_level_service_;
  std::unique_ptr<UnknownMethodService> admin_unknown_methods_;
  // Reflection over LevelService only.
  std::unique_ptr<ReflectionServices> admin_reflection_;
  std::unique_ptr<grpc::Server> admin_server_;
  int admin_port_ = 0;
  bool shut_down_ = false;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_COLLIDE_SERVER_H_
