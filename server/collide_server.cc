#include "server/collide_server.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpc/grpc.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/default_level.h"
#include "server/levels/level_dir_watcher.h"
#include "server/levels/level_store.h"
#include "server/ops/log.h"
#include "server/ops/metrics_http.h"
#include "server/ops/metrics_page.h"
#include "server/ops/query_limit_log.h"
#include "server/ops/rpc_metrics.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

// How long a drain waits with no call in flight and none started before it
// closes the connections. Clients keep starting calls on a connection until
// they have read its GOAWAY, so one moment with no call in flight is not the
// end; closing then (grpc_server_cancel_all_calls sends GOAWAY with
// INTERNAL_ERROR) fails calls a client sent just before it read the GOAWAY:
// C-core clients see them CANCELLED, grpc-js INTERNAL.
constexpr absl::Duration kDrainQuietSpell = absl::Milliseconds(100);

// "dir/arena.json" -> "arena": the id of a level file that names none.
std::string FileStem(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  const size_t dot = path.find('.');
  return std::string(path.substr(0, dot));
}

void LogLoaded(const LevelSnapshot& snapshot, absl::string_view origin) {
  LogAt(LogSeverity::kInfo,
        {{"level_id", snapshot.id},
         {"origin", origin},
         {"version", snapshot.version},
         {"shapes", snapshot.level->shape_count()},
         {"bytes", snapshot.level->memory_bytes()}},
        "loaded level %s from %s: version %d, %d shapes, %d bytes",
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
absl::Status LoadLevelDirectory(const ServerOptions& options, LevelStore& store,
                                SkippedLevelFiles& skipped) {
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
  for (const LevelStore::DirectoryLoad::Refused& refused : load->refused) {
    LogAt(LogSeverity::kWarning,
          {{"status", refused.error}, {"path", refused.path}},
          "level directory: skipping a level file: %s",
          LogValue(refused.error));
    skipped.Skip(refused.id, refused.path, refused.error);
  }
  Metrics().level_load_failures.Add(load->refused.size());
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

// Creates the level directory (and its parents) when it does not exist
// yet, so a fresh machine or an empty volume needs no set-up step.
absl::Status EnsureLevelDirectory(const std::string& level_dir) {
  if (level_dir.empty()) return absl::OkStatus();
  std::error_code error;
  if (std::filesystem::is_directory(level_dir, error)) return absl::OkStatus();
  if (!std::filesystem::create_directories(level_dir, error) || error) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create level directory ", level_dir, ": ",
                     error ? error.message() : "a file of that name exists"));
  }
  Log("created level directory %s", LogValue(level_dir));
  return absl::OkStatus();
}

// A duration as a gRPC channel argument (int milliseconds, at least 1,
// saturating at a day).
int GrpcMilliseconds(absl::Duration duration) {
  return static_cast<int>(
      std::clamp<int64_t>(absl::ToInt64Milliseconds(duration), 1,
                          absl::ToInt64Milliseconds(absl::Hours(24))));
}

// Where level changes are served, in words for the query port's refusal.
std::string WritesRefusedReason(const ServerOptions& options) {
  if (options.admin_listen.empty()) {
    return "level changes are not served: this server is a read-only "
           "replica (admin_listen=none)";
  }
  return absl::StrCat(
      "level changes are not served on the query port; they go to the admin "
      "listener (",
      options.admin_listen, ")");
}

// Whether writes share the query port (an explicit admin_listen = listen;
// two port-0 listeners are two free ports).
bool AdminOnQueryPort(const ServerOptions& options) {
  return options.admin_listen == options.listen &&
         !absl::EndsWith(options.listen, ":0");
}

// What the admin listener asks of callers, for its log line.
std::string AdminCredentialsInWords(const AdminAuthOptions& auth) {
  if (!auth.any()) return "none (loopback only)";
  std::string words;
  if (!auth.admin_token.empty()) words = "bearer token";
  if (!auth.admin_client_names.empty()) {
    absl::StrAppend(&words, words.empty() ? "" : " or ",
                    "client certificate named ",
                    absl::StrJoin(auth.admin_client_names, ","));
  }
  return words;
}

// Counts every call the builder's server finishes, by service, method and
// code (grpc_server_handled_total, rpc_metrics.h).
void CountCalls(grpc::ServerBuilder& builder) {
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(MakeRpcMetricsInterceptorFactory(ServerRpcMetrics()));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
}

}  // namespace

absl::StatusOr<std::unique_ptr<CollideServer>> CollideServer::Start(
    const ServerOptions& options) {
  if (absl::Status s = EnsureLevelDirectory(options.level_dir); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials(options.tls);
  if (!credentials.ok()) return credentials.status();
  InstallQueryLimitLog();
  std::unique_ptr<CollideServer> server(new CollideServer(options));
  if (absl::Status s = server->LoadLevels(); !s.ok()) return s;
  if (absl::Status s = server->StartLevelStore(); !s.ok()) return s;
  server->MakeServices();
  if (absl::Status s = server->StartMetrics(); !s.ok()) return s;
  if (absl::Status s = server->StartQueryPort(*credentials); !s.ok()) {
    return s;
  }
  // Before the query port's "listening" line, which tools wait for: once
  // it is logged, the admin port is known too.
  if (absl::Status s = server->StartAdmin(*credentials); !s.ok()) return s;
  server->LogListening();
  server->StartWatcher();
  return server;
}

absl::Status CollideServer::LoadLevels() {
  store_ = std::make_unique<LevelStore>(options_.limits, options_.level_dir,
                                        options_.store_limits);
  std::map<std::string, BaseLevel, std::less<>> base_levels;
  if (absl::Status s = LoadBaseLevels(options_, *store_, base_levels);
      !s.ok()) {
    return s;
  }
  for (const auto& [id, base] : base_levels) base_sources_[id] = base.source;
  if (!options_.level_dir.empty() &&
      options_.level_dir_poll_interval > absl::ZeroDuration()) {
    LevelDirWatcherOptions watch;
    watch.level_dir = options_.level_dir;
    watch.poll_interval = options_.level_dir_poll_interval;
    watch.max_file_bytes = options_.limits.max_message_bytes;
    watch.base_levels = base_levels;
    watch.skipped = &skipped_files_;
    watcher_ = std::make_unique<LevelDirWatcher>(*store_, std::move(watch));
    // Before the directory is loaded, so a file changing while it loads is
    // seen as changed at the first poll.
    watcher_->Prime();
  }
  return LoadLevelDirectory(options_, *store_, skipped_files_);
}

void CollideServer::MakeServices() {
  const int workers =
      options_.worker_threads > 0
          ? options_.worker_threads
          : static_cast<int>(std::thread::hardware_concurrency());
  workers_ = std::make_unique<WorkerPool>(workers);
  collision_service_ = std::make_unique<CollisionServiceImpl>(
      *store_, options_.limits, *workers_, options_.call_limits);
  level_service_ = std::make_unique<LevelServiceImpl>(
      *store_,
      AdminOnQueryPort(options_)
          ? AdminGate::Open(options_.admin_auth)
          : AdminGate::Closed(WritesRefusedReason(options_)),
      &skipped_files_);
  unknown_methods_ =
      std::make_unique<UnknownMethodService>(std::vector<std::string>{
          v1::CollisionService::service_full_name(),
          v1::LevelService::service_full_name(), "grpc.health.v1.Health",
          ReflectionServices::kV1Name, ReflectionServices::kV1AlphaName});
  reflection_ = std::make_unique<ReflectionServices>(std::vector<std::string>{
      v1::CollisionService::service_full_name(),
      v1::LevelService::service_full_name(), "grpc.health.v1.Health"});
}

absl::Status CollideServer::StartMetrics() {
  if (options_.metrics_listen.empty()) return absl::OkStatus();
  const MetricsPageSources sources{.store = store_.get(),
                                   .skipped_files = &skipped_files_,
                                   .serving = &serving_};
  absl::StatusOr<std::unique_ptr<MetricsHttpServer>> metrics =
      MetricsHttpServer::Start(
          options_.metrics_listen,
          {.threads = options_.metrics_threads,
           .request_timeout = options_.metrics_request_timeout},
          [sources] { return RenderMetricsPage(sources); });
  if (!metrics.ok()) return metrics.status();
  metrics_http_ = *std::move(metrics);
  // Not "(port N)": that names the gRPC port to whoever reads the log
  // (tests/support/server_process.h).
  LogAt(LogSeverity::kInfo,
        {{"metrics_listen", options_.metrics_listen},
         {"metrics_port", metrics_http_->port()}},
        "serving metrics on http://%s/metrics (metrics port %d)",
        LogValue(options_.metrics_listen), metrics_http_->port());
  return absl::OkStatus();
}

absl::Status CollideServer::StartQueryPort(
    const std::shared_ptr<grpc::ServerCredentials>& credentials) {
  // A process-wide switch, read when the builder builds: a no-op when
  // repeated (tests start several servers). Reflection is registered per
  // port (ReflectionServices), so each port describes only its services.
  grpc::EnableDefaultHealthCheckService(true);

  grpc::ServerBuilder builder;
  builder.AddListeningPort(options_.listen, credentials, &port_);
  builder.RegisterService(collision_service_.get());
  builder.RegisterService(level_service_.get());
  builder.RegisterService(reflection_->v1());
  builder.RegisterService(reflection_->v1alpha());
  // Every method no service above has: UNIMPLEMENTED naming it and them.
  builder.RegisterCallbackGenericService(unknown_methods_.get());
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
  // A client's channel otherwise keeps the connections it made at start
  // for ever, so replicas added by a scale-up never get its calls: an aged
  // connection gets GOAWAY, and the client reconnects (re-resolving DNS).
  if (options_.max_connection_age > absl::ZeroDuration()) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                               GrpcMilliseconds(options_.max_connection_age));
    if (options_.max_connection_age_grace > absl::ZeroDuration()) {
      builder.AddChannelArgument(
          GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
          GrpcMilliseconds(options_.max_connection_age_grace));
    }
  }
  CountCalls(builder);
  builder.SetMaxReceiveMessageSize(options_.limits.max_message_bytes);
  builder.SetMaxSendMessageSize(options_.limits.max_message_bytes);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options_.listen));
  }
  // SERVING for the whole server ("") and for each service by name, so
  // checks of either form pass.
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  if (health != nullptr) {
    health->SetServingStatus(true);
    health->SetServingStatus(v1::CollisionService::service_full_name(), true);
    health->SetServingStatus(v1::LevelService::service_full_name(), true);
    serving_.store(true, std::memory_order_relaxed);
    // From now on kept current as the watcher loads or skips files.
    skipped_files_.SetObserver([health](bool all_loaded) {
      health->SetServingStatus(SkippedLevelFiles::kHealthService, all_loaded);
    });
  }
  return absl::OkStatus();
}

void CollideServer::LogListening() const {
  Log("transport: %s",
      options_.tls.enabled()
          ? absl::StrCat(
                options_.tls.mutual()
                    ? "mutual TLS (client certificates required)"
                    : "TLS",
                ", certificate files re-read every ",
                absl::FormatDuration(absl::Ceil(
                    options_.tls.tls_refresh_interval, absl::Seconds(1))))
          : std::string("plaintext"));
  LogAt(LogSeverity::kInfo, {{"listen", options_.listen}, {"port", port_}},
        "listening on %s (port %d), %d level(s), %d worker thread(s)",
        LogValue(options_.listen), port_, store_->List().size(),
        workers_->size());
}

void CollideServer::StartWatcher() {
  if (watcher_ == nullptr) return;
  watcher_->Start();
  Log("watching level directory %s every %s", LogValue(options_.level_dir),
      absl::FormatDuration(options_.level_dir_poll_interval));
}

absl::Status CollideServer::StartLevelStore() {
  if (options_.level_store.empty()) return absl::OkStatus();
  absl::StatusOr<RedisAddress> address = ParseRedisUrl(options_.level_store);
  if (!address.ok()) return address.status();
  address->username = options_.level_store_user;
  address->password = options_.level_store_password;
  redis_sync_ = std::make_unique<RedisLevelSync>(*store_, *std::move(address),
                                                 base_sources_,
                                                 options_.level_store_copy_dir);
  absl::StatusOr<std::vector<std::string>> copy =
      redis_sync_->LoadCopy(options_.limits.max_message_bytes);
  if (!copy.ok()) return copy.status();
  for (const std::string& line : *copy) {
    Log("level store: %s", LogValue(line));
  }
  store_->ShareWrites(redis_sync_.get());
  // Loaded before listening when Redis is up; otherwise the thread keeps
  // trying and the base levels serve meanwhile.
  if (absl::Status s = redis_sync_->Resync(); s.ok()) {
    Log("level store: %s, %d level(s) in sync", LogValue(redis_sync_->url()),
        store_->List().size());
  } else {
    LogAt(LogSeverity::kWarning, {{"status", s}},
          "level store: %s unreachable at start, serving the levels held: %s",
          LogValue(redis_sync_->url()), LogValue(s));
  }
  redis_sync_->Start();
  return absl::OkStatus();
}

absl::Status CollideServer::StartAdmin(
    const std::shared_ptr<grpc::ServerCredentials>& credentials) {
  if (options_.admin_listen.empty() || AdminOnQueryPort(options_)) {
    Log("level changes: %s",
        !options_.admin_listen.empty()
            ? absl::StrCat("served on the query port (admin_listen = listen), "
                           "credentials: ",
                           AdminCredentialsInWords(options_.admin_auth))
            : std::string("refused, read-only replica (admin_listen=none)"));
    return absl::OkStatus();
  }
  admin_level_service_ = std::make_unique<LevelServiceImpl>(
      *store_, AdminGate::Open(options_.admin_auth), &skipped_files_);
  admin_unknown_methods_ =
      std::make_unique<UnknownMethodService>(std::vector<std::string>{
          v1::LevelService::service_full_name(), "grpc.health.v1.Health",
          ReflectionServices::kV1Name, ReflectionServices::kV1AlphaName});
  admin_reflection_ =
      std::make_unique<ReflectionServices>(std::vector<std::string>{
          v1::LevelService::service_full_name(), "grpc.health.v1.Health"});
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options_.admin_listen, credentials, &admin_port_);
  builder.RegisterService(admin_level_service_.get());
  builder.RegisterService(admin_reflection_->v1());
  builder.RegisterService(admin_reflection_->v1alpha());
  builder.RegisterCallbackGenericService(admin_unknown_methods_.get());
  // Admin calls are counted with the query port's.
  CountCalls(builder);
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(options_.limits.max_message_bytes);
  builder.SetMaxSendMessageSize(options_.limits.max_message_bytes);
  admin_server_ = builder.BuildAndStart();
  if (admin_server_ == nullptr || admin_port_ == 0) {
    return absl::UnavailableError(absl::StrCat(
        "cannot listen on ", options_.admin_listen, " (admin_listen)"));
  }
  if (grpc::HealthCheckServiceInterface* health =
          admin_server_->GetHealthCheckService()) {
    health->SetServingStatus(true);
    health->SetServingStatus(v1::LevelService::service_full_name(), true);
  }
  if (!options_.tls.enabled() && !IsLoopbackAddress(options_.admin_listen)) {
    // Allowed (a private network, a TLS-terminating proxy), but the token
    // crosses the network readable by anyone on the path.
    Log("WARNING: the admin listener %s is plaintext: admin tokens cross "
        "the network in the clear (serve TLS with --tls_cert_file and "
        "--tls_key_file)",
        LogValue(options_.admin_listen));
  }
  // "(admin port N)", never "(port N)": tools find the query port by the
  // latter.
  LogAt(LogSeverity::kInfo,
        {{"admin_listen", options_.admin_listen}, {"admin_port", admin_port_}},
        "admin listening on %s (admin port %d), level changes need: %s",
        LogValue(options_.admin_listen), admin_port_,
        LogValue(AdminCredentialsInWords(options_.admin_auth)));
  return absl::OkStatus();
}

CollideServer::~CollideServer() {
  Shutdown();
  // Jobs still queued or running hold the last references to their
  // reactors, whose call tickets return bytes to the collision service's
  // CallBudget: finish them (the pool drains its queue) while the service
  // and the server are still alive.
  workers_.reset();
}

void CollideServer::Shutdown() {
  if (shut_down_ || server_ == nullptr) return;
  shut_down_ = true;
  // First, so no level changes while calls drain, and no thread outlives
  // the server.
  if (watcher_ != nullptr) watcher_->Stop();
  if (redis_sync_ != nullptr) redis_sync_->Stop();
  skipped_files_.SetObserver(nullptr);
  // Streams stop reading and end once they have answered what they read
  // (clients resend the rest elsewhere); unary calls run to their end.
  // Before health changes, so a batch sent after NOT_SERVING is seen is
  // the last its stream reads.
  collision_service_->Drain();
  if (grpc::HealthCheckServiceInterface* health =
          server_->GetHealthCheckService()) {
    // Load balancers watching health stop sending new work first.
    health->SetServingStatus(false);
  }
  serving_.store(false, std::memory_order_relaxed);
  Log("draining: up to %s for calls in flight",
      absl::FormatDuration(options_.shutdown_grace));
  const absl::Time start = absl::Now();
  const absl::Time deadline = start + options_.shutdown_grace;
  std::atomic<bool> shutting_down{false};
  std::thread shutdown([&] {
    shutting_down.store(true);
    if (admin_server_ != nullptr) {
      admin_server_->Shutdown(absl::ToChronoTime(deadline));
    }
    server_->Shutdown(absl::ToChronoTime(deadline));
  });
  // gRPC's Shutdown also waits for every client to close its connection,
  // and a client that keeps an idle channel open reads the GOAWAY only at
  // its next poll (gRPC's client backup poller: every 5 s). Once no call is
  // left and none has started for kDrainQuietSpell (the clients have read
  // the GOAWAY and start their calls elsewhere), close the connections
  // instead of waiting for the clients.
  while (!shutting_down.load()) absl::SleepFor(absl::Milliseconds(1));
  const RpcMetrics& calls = ServerRpcMetrics();
  int64_t started = calls.calls_started();
  absl::Time quiet_since = absl::Now();
  while (absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(5));
    if (calls.calls_in_flight() > 0 || calls.calls_started() != started) {
      started = calls.calls_started();
      quiet_since = absl::Now();
    } else if (absl::Now() - quiet_since >= kDrainQuietSpell) {
      break;
    }
  }
  if (absl::Now() < deadline) {
    grpc_server_cancel_all_calls(server_->c_server());
    if (admin_server_ != nullptr) {
      grpc_server_cancel_all_calls(admin_server_->c_server());
    }
  }
  shutdown.join();
  // gRPC has cancelled what was left at the deadline, but it can also
  // return early, with reactors still running batches on the workers (the
  // server's destruction then waits for them): stop those batches now.
  collision_service_->StopBatches();
  server_->Wait();
  if (admin_server_ != nullptr) admin_server_->Wait();
  Log("stopped after %s", absl::FormatDuration(absl::Now() - start));
}

}  // namespace collide::server
