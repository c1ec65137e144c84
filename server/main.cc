// collide_server: the collision query service. `collide_server --help` lists
// the flags (their help strings are their documentation); docs/server.md
// explains running it: level files, security, metrics and logs, draining.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpc/grpc.h"
#include "proto/formats/file_io.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/tool_command_line.h"
#include "server/collide_server.h"
#include "server/levels/level_store.h"
#include "server/ops/log.h"
#include "server/ops/shutdown_signal.h"
#include "server/server_options.h"

ABSL_FLAG(std::string, listen, "0.0.0.0:50051",
          "Address to listen on, host:port (port 0: any free port), or "
          "unix:PATH for a Unix domain socket (callers on the same host; "
          "gRPC removes the socket file on exit).");
ABSL_FLAG(bool, default_level, true,
          "Serve the bundled level \"levels/arena\".");
ABSL_FLAG(std::vector<std::string>, level_files, {},
          "Comma-separated level files (protobuf JSON or binary) to load at "
          "start; a file's level id is the one inside it, else its name.");
ABSL_FLAG(std::string, level_dir, "",
          "Directory to load levels from at start and to persist levels put "
          "through LevelService into (created if missing).");
ABSL_FLAG(std::string, level_store, "",
          "Where the levels of a fleet live: empty for --level_dir (one "
          "server), or redis://host:port/prefix: every replica writes level "
          "changes to that Redis and applies every replica's; excludes "
          "--level_dir. While Redis is unreachable a replica serves the "
          "levels it holds, level changes fail with UNAVAILABLE, and it "
          "reconnects (backoff from 50 ms doubling to 2 s) and resyncs.");
ABSL_FLAG(std::string, level_store_copy_dir, "",
          "With --level_store: a directory where this replica keeps its copy "
          "of what it last held from the fleet's Redis (levels and deletes), "
          "to restore a Redis that lost its data even after this replica "
          "restarts; empty: the copy is kept in memory only.");
ABSL_FLAG(std::string, level_store_user, "",
          "With --level_store: the Redis ACL user to authenticate as (with "
          "--level_store_password_file); empty: Redis' default user.");
ABSL_FLAG(std::string, level_store_password_file, "",
          "With --level_store: a file holding the Redis password (a "
          "Kubernetes Secret mounted as a file), read at start (unreadable: "
          "exit 1) and sent with AUTH on every connection; empty: no AUTH.");
ABSL_FLAG(bool, strict_level_dir, false,
          "Refuse to start when a level file in --level_dir cannot be loaded "
          "(unreadable, empty, truncated, corrupted or invalid); by default "
          "such a file is skipped with a log line and the others are served.");
ABSL_FLAG(absl::Duration, level_dir_poll_interval, absl::Seconds(1),
          "How often to check --level_dir for level files that appeared, "
          "changed or vanished, and load, replace or drop those levels "
          "(0: only read it at start).");
ABSL_FLAG(int32_t, max_batch_size,
          collide::formats::InputLimits{}.max_batch_size,
          "Most queries in one batch (RESOURCE_EXHAUSTED above).");
ABSL_FLAG(int32_t, max_vertices, collide::formats::InputLimits{}.max_vertices,
          "Most vertices in one level polyline or polygon.");
ABSL_FLAG(int32_t, max_level_shapes,
          collide::formats::InputLimits{}.max_level_shapes,
          "Most shapes in one level.");
ABSL_FLAG(int32_t, max_message_bytes,
          collide::formats::InputLimits{}.max_message_bytes,
          "Largest gRPC message received or sent, and largest level file.");
ABSL_FLAG(int32_t, max_shot_targets,
          collide::formats::InputLimits{}.max_shot_targets,
          "Most targets in one hit validation query.");
ABSL_FLAG(int32_t, max_visibility_pairs,
          collide::formats::InputLimits{}.max_visibility_pairs,
          "Most viewer-target pairs (viewers x targets) in one visibility "
          "query (RESOURCE_EXHAUSTED in its result above).");
ABSL_FLAG(int32_t, max_visibility_polygon_vertices,
          collide::formats::InputLimits{}.max_visibility_polygon_vertices,
          "Most vertices of one visibility polygon (RESOURCE_EXHAUSTED in "
          "its result above); each query thread keeps room for this many.");
ABSL_FLAG(int32_t, max_visibility_polygon_edges,
          collide::formats::InputLimits{}.max_visibility_polygon_edges,
          "Most occluder edges within one visibility polygon's range "
          "(RESOURCE_EXHAUSTED in its result above); each query thread keeps "
          "scratch for this many.");
ABSL_FLAG(int32_t, max_visibility_disc_occluders,
          collide::formats::InputLimits{}.max_visibility_disc_occluders,
          "Most occluders around one viewer and one circle target judged by "
          "any part (RESOURCE_EXHAUSTED in its result above); each query "
          "thread keeps scratch for this many.");
ABSL_FLAG(int32_t, max_slide_iterations,
          collide::formats::InputLimits{}.max_slide_iterations,
          "Most slide iterations one move validation query may ask for (0 to "
          "32).");
ABSL_FLAG(int64_t, max_level_bytes,
          collide::formats::InputLimits{}.max_level_bytes,
          "Most memory one level may need (its bound from shape and vertex "
          "counts, checked before building).");
ABSL_FLAG(int32_t, max_levels, collide::server::StoreLimits{}.max_levels,
          "Most levels served at once.");
ABSL_FLAG(int64_t, max_total_level_bytes,
          collide::server::StoreLimits{}.max_total_level_bytes,
          "Most memory all levels served may hold together (bytes).");
ABSL_FLAG(int32_t, max_streams_per_connection,
          collide::server::CallLimits{}.max_streams_per_connection,
          "Query calls (streams and unary calls) open at once on one "
          "connection; one more gets RESOURCE_EXHAUSTED naming this flag.");
ABSL_FLAG(int32_t, max_streams, collide::server::CallLimits{}.max_streams,
          "Query calls open at once on the whole server; one more gets "
          "RESOURCE_EXHAUSTED naming this flag.");
ABSL_FLAG(int64_t, max_queued_bytes_per_connection,
          collide::server::CallLimits{}.max_queued_bytes_per_connection,
          "Bytes of requests read and answers not yet written that one "
          "connection's calls may hold; past it its streams read no more "
          "until it reads (flow control holds the client), and a unary call "
          "gets RESOURCE_EXHAUSTED.");
ABSL_FLAG(int64_t, max_queued_bytes,
          collide::server::CallLimits{}.max_queued_bytes,
          "The same over all connections: past it no stream reads more until "
          "callers read.");
ABSL_FLAG(int32_t, worker_threads, 0,
          "Threads answering query batches (0: one per hardware thread).");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(10),
          "On SIGTERM/SIGINT the server drains: health turns NOT_SERVING, new "
          "calls are refused (GOAWAY), streams end with UNAVAILABLE once they "
          "have answered the batches they read, and calls in flight get this "
          "long to finish (then they are cancelled and batches stop between "
          "queries). The process exits 0 as soon as no call is left, at the "
          "latest 0.75 s after the grace.");
ABSL_FLAG(absl::Duration, max_connection_age, absl::Minutes(5),
          "Send GOAWAY on a query-port connection this old (+-10% jitter), "
          "so long-lived clients reconnect, re-resolve and spread onto "
          "replicas added since (0: never).");
ABSL_FLAG(absl::Duration, max_connection_age_grace, absl::Seconds(30),
          "After that GOAWAY, how long calls still open on the connection "
          "(long streams) may run before it is closed; their streams end "
          "with UNAVAILABLE and the client library resends their unanswered "
          "batches on a new stream (0: no limit).");
ABSL_FLAG(std::string, metrics_listen, "",
          "Address to serve Prometheus metrics on (GET /metrics, plain "
          "HTTP), IPv4 host:port (port 0: any free port); empty or none: "
          "off. The "
          "image and manifests use 0.0.0.0:9090.");
ABSL_FLAG(int, metrics_threads, 16,
          "Threads serving the metrics endpoint: connections served at once "
          "(more wait for one), in [1, 1024].");
ABSL_FLAG(absl::Duration, metrics_request_timeout, absl::Seconds(1),
          "Longest a metrics connection may take to send its whole request "
          "(and take the answer); idle and slow connections are closed "
          "after it, so they cannot hold the endpoint. In [1ms, 1m].");
ABSL_FLAG(std::string, log_format, "text",
          "Log line format: text (\"{time} collide_server: {message}\") or "
          "json (one object per line: time, level, logger, message and "
          "fields such as level_id, version, peer, status); gRPC core's own "
          "lines come out in the same format.");

ABSL_FLAG(std::string, log_json_fields, "collide",
          "With --log_format=json, the names of each line's time, level, "
          "logger and message: collide (time, level, logger, message), "
          "cloud_logging (severity in upper case, as Google Cloud Logging "
          "reads it) or ecs (@timestamp, log.level, log.logger, message: "
          "Elastic Common Schema).");

ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM certificate chain to serve TLS with on both listeners (with "
          "--tls_key_file); re-read every --tls_refresh_interval, so rotated "
          "certificates reach new connections without a restart. Empty: "
          "plaintext. A file that cannot be read fails the start (exit 1).");
ABSL_FLAG(std::string, tls_key_file, "",
          "PEM private key of --tls_cert_file; re-read with it.");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA certificates: clients must present a certificate they "
          "signed (mutual TLS). Needs --tls_cert_file.");
ABSL_FLAG(absl::Duration, tls_refresh_interval, absl::Minutes(1),
          "How often the TLS files are re-read for rotated certificates "
          "(whole seconds, >= 1s).");
ABSL_FLAG(std::string, admin_listen, "127.0.0.1:50052",
          "Address of the admin listener, where LevelService writes "
          "(PutLevel, PatchLevel, DeleteLevel) are served; on the query port "
          "they get UNIMPLEMENTED saying where they go. \"none\" or empty: "
          "nowhere (read-only replica); the --listen address: on the query "
          "port. Not loopback: needs --admin_token_file or "
          "--admin_client_names (else the start is refused, exit 2), and "
          "without TLS a WARNING is logged (the token crosses the network in "
          "the clear).");
ABSL_FLAG(std::string, admin_token_file, "",
          "File holding the bearer token admin calls must send "
          "(\"authorization: Bearer TOKEN\"); read at start (unreadable: exit "
          "1). A call without credentials gets UNAUTHENTICATED, one with a "
          "wrong token PERMISSION_DENIED.");
ABSL_FLAG(std::vector<std::string>, admin_client_names, {},
          "Comma-separated client certificate names (common name or subject "
          "alternative name) allowed admin calls without a token; needs "
          "--tls_client_ca_file.");

namespace {

using collide::server::CollideServer;
using collide::server::Log;
using collide::server::LogAt;
using collide::server::LogFormat;
using collide::server::LogSeverity;
using collide::server::LogValue;
using collide::server::ServerOptions;

// How long past --shutdown_grace a drain may run before the process exits
// regardless: the bound is one second past the grace, and the last 250 ms
// are left for the exit itself.
constexpr absl::Duration kShutdownOverrun = absl::Milliseconds(750);

// Exit codes: a command line that cannot work, and a start that failed.
constexpr int kBadCommandLine = 2;
constexpr int kStartFailed = 1;

void ParseFlags(int argc, char** argv) {
  // --help lists this file's flags and exits 0, --version prints the
  // project version, a bad flag exits 2 (docs/tools.md).
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "The collide collision query service (docs/server.md).\n"
      "  collide_server [--listen=0.0.0.0:50051] [--level_dir=DIR] "
      "[--admin_listen=127.0.0.1:50052] [--tls_cert_file=C "
      "--tls_key_file=K] ...\n"
      "With no flags it serves the bundled level \"levels/arena\" on "
      "0.0.0.0:50051 (CollisionService, LevelService reads, grpc.health.v1 "
      "health and server reflection), and level changes on 127.0.0.1:50052.",
      __FILE__, "collide_server");
  // Debian builds Abseil without NDEBUG, so by default every absl::Mutex
  // lock (gRPC's included) also runs the debug deadlock detector: a
  // process-wide lock graph behind one global lock, ~5x the cost of the
  // lock itself on the query path. Our lock order is fixed by design.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

absl::StatusOr<collide::server::LogJsonFields> LogJsonFieldsFromFlag() {
  using collide::server::LogJsonFields;
  const std::string fields = absl::GetFlag(FLAGS_log_json_fields);
  if (fields == "collide") return LogJsonFields::kCollide;
  if (fields == "cloud_logging") return LogJsonFields::kCloudLogging;
  if (fields == "ecs") return LogJsonFields::kEcs;
  return absl::InvalidArgumentError(
      absl::StrCat("log_json_fields must be collide, cloud_logging or ecs, "
                   "not \"",
                   LogValue(fields), "\""));
}

absl::StatusOr<LogFormat> LogFormatFromFlag() {
  const std::string format = absl::GetFlag(FLAGS_log_format);
  if (format == "text") return LogFormat::kText;
  if (format == "json") return LogFormat::kJson;
  return absl::InvalidArgumentError(absl::StrCat(
      "log_format must be text or json, not \"", LogValue(format), "\""));
}

// The flags as options. Reads --admin_token_file, the one file read before
// the start (the token decides whether the admin listener is guarded).
absl::StatusOr<ServerOptions> OptionsFromFlags() {
  ServerOptions options;
  options.listen = absl::GetFlag(FLAGS_listen);
  options.load_default_level = absl::GetFlag(FLAGS_default_level);
  options.level_files = absl::GetFlag(FLAGS_level_files);
  options.level_dir = absl::GetFlag(FLAGS_level_dir);
  options.strict_level_dir = absl::GetFlag(FLAGS_strict_level_dir);
  options.level_store = absl::GetFlag(FLAGS_level_store);
  options.level_store_copy_dir = absl::GetFlag(FLAGS_level_store_copy_dir);
  options.level_store_user = absl::GetFlag(FLAGS_level_store_user);
  if (const std::string path = absl::GetFlag(FLAGS_level_store_password_file);
      !path.empty()) {
    absl::StatusOr<std::string> password =
        collide::formats::ReadTokenFile(path, "level_store_password_file");
    if (!password.ok()) {
      return absl::Status(password.status().code(),
                          absl::StrCat("--", password.status().message()));
    }
    options.level_store_password = *std::move(password);
  }
  options.level_dir_poll_interval =
      absl::GetFlag(FLAGS_level_dir_poll_interval);
  options.limits.max_batch_size = absl::GetFlag(FLAGS_max_batch_size);
  options.limits.max_vertices = absl::GetFlag(FLAGS_max_vertices);
  options.limits.max_level_shapes = absl::GetFlag(FLAGS_max_level_shapes);
  options.limits.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  options.limits.max_shot_targets = absl::GetFlag(FLAGS_max_shot_targets);
  options.limits.max_slide_iterations =
      absl::GetFlag(FLAGS_max_slide_iterations);
  options.limits.max_visibility_pairs =
      absl::GetFlag(FLAGS_max_visibility_pairs);
  options.limits.max_visibility_polygon_vertices =
      absl::GetFlag(FLAGS_max_visibility_polygon_vertices);
  options.limits.max_visibility_polygon_edges =
      absl::GetFlag(FLAGS_max_visibility_polygon_edges);
  options.limits.max_visibility_disc_occluders =
      absl::GetFlag(FLAGS_max_visibility_disc_occluders);
  options.limits.max_level_bytes = absl::GetFlag(FLAGS_max_level_bytes);
  options.store_limits.max_levels = absl::GetFlag(FLAGS_max_levels);
  options.store_limits.max_total_level_bytes =
      absl::GetFlag(FLAGS_max_total_level_bytes);
  options.call_limits.max_streams_per_connection =
      absl::GetFlag(FLAGS_max_streams_per_connection);
  options.call_limits.max_streams = absl::GetFlag(FLAGS_max_streams);
  options.call_limits.max_queued_bytes_per_connection =
      absl::GetFlag(FLAGS_max_queued_bytes_per_connection);
  options.call_limits.max_queued_bytes = absl::GetFlag(FLAGS_max_queued_bytes);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  options.shutdown_grace = absl::GetFlag(FLAGS_shutdown_grace);
  options.max_connection_age = absl::GetFlag(FLAGS_max_connection_age);
  options.max_connection_age_grace =
      absl::GetFlag(FLAGS_max_connection_age_grace);
  options.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  if (options.metrics_listen == "none") options.metrics_listen.clear();
  options.metrics_threads = absl::GetFlag(FLAGS_metrics_threads);
  options.metrics_request_timeout =
      absl::GetFlag(FLAGS_metrics_request_timeout);
  options.tls.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  options.tls.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  options.tls.tls_client_ca_file = absl::GetFlag(FLAGS_tls_client_ca_file);
  options.tls.tls_refresh_interval = absl::GetFlag(FLAGS_tls_refresh_interval);
  options.admin_listen = absl::GetFlag(FLAGS_admin_listen);
  if (options.admin_listen == "none") options.admin_listen.clear();
  options.admin_auth.admin_client_names =
      absl::GetFlag(FLAGS_admin_client_names);
  if (const std::string path = absl::GetFlag(FLAGS_admin_token_file);
      !path.empty()) {
    absl::StatusOr<std::string> token = collide::formats::ReadTokenFile(path);
    if (!token.ok()) {
      return absl::Status(token.status().code(),
                          absl::StrCat("--", token.status().message()));
    }
    options.admin_auth.admin_token = *std::move(token);
  }
  return options;
}

void LogStarting(const ServerOptions& options) {
  Log("starting: listen %s, level_files [%s], level_dir \"%s\", "
      "level_dir_poll_interval %s, max_batch_size %d, max_vertices %d, "
      "max_level_shapes %d, max_message_bytes %d, max_shot_targets %d, "
      "max_slide_iterations %d, max_visibility_pairs %d, "
      "max_visibility_polygon_vertices %d, max_visibility_polygon_edges %d, "
      "max_visibility_disc_occluders %d, max_level_bytes %d, max_levels %d, "
      "max_total_level_bytes %d, worker_threads %d, shutdown_grace %s, "
      "max_connection_age %s, max_connection_age_grace %s, "
      "metrics_listen \"%s\", max_streams_per_connection %d, max_streams "
      "%d, max_queued_bytes_per_connection %d, max_queued_bytes %d",
      LogValue(options.listen),
      LogValue(absl::StrJoin(options.level_files, ","),
               16 * collide::server::kMaxLogValueBytes),
      LogValue(options.level_dir),
      absl::FormatDuration(options.level_dir_poll_interval),
      options.limits.max_batch_size, options.limits.max_vertices,
      options.limits.max_level_shapes, options.limits.max_message_bytes,
      options.limits.max_shot_targets, options.limits.max_slide_iterations,
      options.limits.max_visibility_pairs,
      options.limits.max_visibility_polygon_vertices,
      options.limits.max_visibility_polygon_edges,
      options.limits.max_visibility_disc_occluders,
      options.limits.max_level_bytes, options.store_limits.max_levels,
      options.store_limits.max_total_level_bytes, options.worker_threads,
      absl::FormatDuration(options.shutdown_grace),
      absl::FormatDuration(options.max_connection_age),
      absl::FormatDuration(options.max_connection_age_grace),
      LogValue(options.metrics_listen),
      options.call_limits.max_streams_per_connection,
      options.call_limits.max_streams,
      options.call_limits.max_queued_bytes_per_connection,
      options.call_limits.max_queued_bytes);
}

// Waits for SIGTERM or SIGINT, then drains `server` within `grace`.
void ServeUntilSignal(CollideServer& server, absl::Duration grace) {
  const int signal_number = collide::server::WaitForShutdownSignal();
  LogAt(LogSeverity::kInfo, {{"signal", sigabbrev_np(signal_number)}},
        "received %s, shutting down", sigabbrev_np(signal_number));
  // Calls get the grace; then they are cancelled and batches stop between
  // queries, so the rest takes milliseconds. The watchdog makes the bound
  // hard.
  collide::server::StartShutdownWatchdog(grace + kShutdownOverrun);
  server.Shutdown();
  // The last grpc::Server's destructor would run grpc_shutdown, which joins
  // gRPC's executor threads, and one of them can sit in a poll for up to
  // 10 s: the watchdog would cut the exit short every other time. One
  // reference of our own, never released, leaves gRPC running until the
  // process ends; everything that must happen at the stop has happened.
  grpc_init();
}

int Refuse(const absl::Status& status, int exit_code) {
  std::fprintf(stderr, "collide_server: %s\n",
               std::string(status.message()).c_str());
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread exists, so every thread inherits the blocked mask and
  // the signals wait for WaitForShutdownSignal.
  if (!collide::server::BlockShutdownSignals()) {
    std::perror("collide_server: cannot block SIGTERM/SIGINT");
    return kStartFailed;
  }
  ParseFlags(argc, argv);
  const absl::StatusOr<LogFormat> log_format = LogFormatFromFlag();
  if (!log_format.ok()) return Refuse(log_format.status(), kBadCommandLine);
  const absl::StatusOr<collide::server::LogJsonFields> json_fields =
      LogJsonFieldsFromFlag();
  if (!json_fields.ok()) return Refuse(json_fields.status(), kBadCommandLine);
  collide::server::SetLogJsonFields(*json_fields);
  collide::server::SetLogFormat(*log_format);
  collide::server::RouteGrpcLogs();
  const absl::StatusOr<ServerOptions> options = OptionsFromFlags();
  if (!options.ok()) return Refuse(options.status(), kStartFailed);
  if (absl::Status s = collide::server::ValidateServerOptions(*options);
      !s.ok()) {
    return Refuse(s, kBadCommandLine);
  }
  LogStarting(*options);
  absl::StatusOr<std::unique_ptr<CollideServer>> server =
      CollideServer::Start(*options);
  if (!server.ok()) {
    LogAt(LogSeverity::kError, {{"status", server.status()}},
          "cannot start: %s", LogValue(server.status()));
    return kStartFailed;
  }
  ServeUntilSignal(**server, options->shutdown_grace);
  return 0;
}
