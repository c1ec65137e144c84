#include "server/collide_server.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "server/default_level.h"
#include "server/level_dir_watcher.h"
#include "server/level_store.h"
#include "server/log.h"

namespace collide::server {
namespace {

// "dir/arena.json" -> "arena": the id of a level file that names none.
std::string FileStem(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  const size_t dot = path.find('.');
  return std::string(path.substr(0, dot));
}

void LogLoaded(const LevelSnapshot& snapshot, absl::string_view origin) {
  Log("loaded level %s from %s: version %d, %d shapes, %d bytes",
      LogValue(formats::LevelName(snapshot.id)), LogValue(origin),
      snapshot.version, snapshot.level->shape_count(),
      snapshot.level->memory_bytes());
}

// Puts the bundled level, then the level files, each replacing an id
// loaded before it, and records them in `base` (what the level directory
// watcher serves again for an id whose file in the directory goes).
absl::Status LoadBaseLevels(
    const ServerOptions& options, LevelStore& store,
    std::map<std::string, BaseLevel, std::less<>>& base) {
  if (options.load_default_level) {
    absl::StatusOr<LevelStore::PutResult> put =
        store.Put(DefaultLevel(), /*persist=*/false);
    if (!put.ok()) {
      return absl::InternalError(
          absl::StrCat("bundled level: ", put.status().ToString()));  // our bug
    }
    LogLoaded(*put->snapshot, "the bundled default");
    base[put->snapshot->id] = {put->snapshot->source, "the bundled default"};
  }
  for (const std::string& path : options.level_files) {
    absl::StatusOr<v1::Level> level =
        formats::ReadLevelFile(path, options.limits.max_message_bytes);
    if (!level.ok()) return level.status();
    if (level->id().empty()) level->set_id(FileStem(path));
    absl::StatusOr<LevelStore::PutResult> put =
        store.Put(*std::move(level), /*persist=*/false);
    if (!put.ok()) {
      return absl::Status(put.status().code(),
                          absl::StrCat(path, ": ", put.status().message()));
    }
    LogLoaded(*put->snapshot, path);
    base[put->snapshot->id] = {put->snapshot->source, path};
  }
  return absl::OkStatus();
}

// Loads the level directory over the base levels (the admin state in it is
// the newest, so it wins).
// A bad file in it is skipped with a log line (one bad file must not keep
// every replica from starting), or fails the start with strict_level_dir.
absl::Status LoadLevelDirectory(const ServerOptions& options,
                                LevelStore& store) {
  for (const std::string& path : store.RemoveLeftoverTemporaries()) {
    Log("level directory: removed %s, left by an interrupted write",
        LogValue(path));
  }
  absl::StatusOr<LevelStore::DirectoryLoad> load = store.LoadDirectory(
      options.strict_level_dir ? LevelStore::BadLevelFile::kFail
                               : LevelStore::BadLevelFile::kSkip);
  if (!load.ok()) return load.status();
  for (const std::string& id : load->loaded) {
    LogLoaded(*store.Find(id), options.level_dir);
  }
  for (const absl::Status& refused : load->refused) {
    Log("level directory: skipping a level file: %s", LogValue(refused));
  }
  for (const std::string& note : load->journal_notes) {
    Log("level directory: patch journal replayed in part: %s", LogValue(note));
  }
  if (!load->refused.empty()) {
    Log("level directory: %d level file(s) skipped, %d loaded "
        "(--strict_level_dir refuses to start instead)",
        load->refused.size(), load->loaded.size());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<CollideServer>> CollideServer::Start(
    const ServerOptions& options) {
  std::unique_ptr<CollideServer> server(new CollideServer());
  server->options_ = options;
  server->store_ = std::make_unique<LevelStore>(
      options.limits, options.level_dir, options.store_limits);
  std::map<std::string, BaseLevel, std::less<>> base_levels;
  if (absl::Status s = LoadBaseLevels(options, *server->store_, base_levels);
      !s.ok()) {
    return s;
  }
  if (!options.level_dir.empty() &&
      options.level_dir_poll_interval > absl::ZeroDuration()) {
    LevelDirWatcherOptions watch;
    watch.level_dir = options.level_dir;
    watch.poll_interval = options.level_dir_poll_interval;
    watch.max_file_bytes = options.limits.max_message_bytes;
    watch.base_levels = std::move(base_levels);
    server->watcher_ =
        std::make_unique<LevelDirWatcher>(*server->store_, std::move(watch));
    // Before the directory is loaded, so a file changing while it loads is
    // seen as changed at the first poll.
    server->watcher_->Prime();
  }
  if (absl::Status s = LoadLevelDirectory(options, *server->store_); !s.ok()) {
    return s;
  }
  const int workers =
      options.worker_threads > 0
          ? options.worker_threads
          : static_cast<int>(std::thread::hardware_concurrency());
  server->workers_ = std::make_unique<WorkerPool>(workers);
  server->collision_service_ = std::make_unique<CollisionServiceImpl>(
      *server->store_, options.limits, *server->workers_);
  server->level_service_ = std::make_unique<LevelServiceImpl>(*server->store_);
  server->unknown_methods_ =
      std::make_unique<UnknownMethodService>(std::vector<std::string>{
          v1::CollisionService::service_full_name(),
          v1::LevelService::service_full_name(), "grpc.health.v1.Health",
          "grpc.reflection.v1alpha.ServerReflection"});

  // Process-wide switches, read when the builder builds: both are no-ops
  // when repeated (tests start several servers).
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, grpc::InsecureServerCredentials(),
                           &server->port_);
  builder.RegisterService(server->collision_service_.get());
  builder.RegisterService(server->level_service_.get());
  // Every method no service above has: UNIMPLEMENTED naming it and them.
  builder.RegisterCallbackGenericService(server->unknown_methods_.get());
  // gRPC binds with SO_REUSEPORT by default, so a second server on the
  // same port would start and silently split the traffic; fail instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Clients ping to find replicas that hang without closing connections
  // (collide's client every 10 s by default): accept pings down to once a
  // second, also on idle connections, instead of gRPC's default of closing
  // connections that ping more often than every 5 minutes.
  builder.AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 1000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.SetMaxReceiveMessageSize(options.limits.max_message_bytes);
  builder.SetMaxSendMessageSize(options.limits.max_message_bytes);
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.listen));
  }
  // SERVING for the whole server ("") and for each service by name, so
  // checks of either form pass.
  grpc::HealthCheckServiceInterface* health =
      server->server_->GetHealthCheckService();
  if (health != nullptr) {
    health->SetServingStatus(true);
    health->SetServingStatus(v1::CollisionService::service_full_name(), true);
    health->SetServingStatus(v1::LevelService::service_full_name(), true);
  }
  Log("listening on %s (port %d), %d level(s), %d worker thread(s)",
      LogValue(options.listen), server->port_, server->store_->List().size(),
      server->workers_->size());
  if (server->watcher_ != nullptr) {
    server->watcher_->Start();
    Log("watching level directory %s every %s", LogValue(options.level_dir),
        absl::FormatDuration(options.level_dir_poll_interval));
  }
  return server;
}

CollideServer::~CollideServer() { Shutdown(); }

void CollideServer::Shutdown() {
  if (shut_down_ || server_ == nullptr) return;
  shut_down_ = true;
  // First, so no level changes while calls drain, and no thread outlives
  // the server.
  if (watcher_ != nullptr) watcher_->Stop();
  if (grpc::HealthCheckServiceInterface* health =
          server_->GetHealthCheckService()) {
    // Load balancers watching health stop sending new work first.
    health->SetServingStatus(false);
  }
  Log("draining: up to %s for calls in flight",
      absl::FormatDuration(options_.shutdown_grace));
  const absl::Time start = absl::Now();
  server_->Shutdown(absl::ToChronoTime(start + options_.shutdown_grace));
  // gRPC has cancelled what was left at the deadline, but it can also
  // return early, with reactors still running batches on the workers (the
  // server's destruction then waits for them): stop those batches now.
  collision_service_->StopBatches();
  server_->Wait();
  Log("stopped after %s", absl::FormatDuration(absl::Now() - start));
}

}  // namespace collide::server
