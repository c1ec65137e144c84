// The options a collide_server runs with, and the one check of them: what
// main() copies its flags into and CollideServer::Start takes.
#ifndef COLLIDE_SERVER_SERVER_OPTIONS_H_
#define COLLIDE_SERVER_SERVER_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_store.h"
#include "server/ops/admin_gate.h"
#include "server/ops/tls_credentials.h"
#include "server/rpc/call_budget.h"

namespace collide::server {

// Everything main.cc's flags set (ABSL_FLAGs live only in main.cc); field
// names are the flags', so errors name what to fix.
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
  // With level_store: a directory where this replica keeps its copy of
  // what it last held from the fleet's store (fleet_copy.h), so that a
  // Redis that lost its data is restored with deletes kept even after
  // this replica restarts. Empty: the copy is kept in memory only.
  std::string level_store_copy_dir;
  // With level_store: the Redis ACL user and password sent with AUTH
  // (RedisAddress); empty password: none. main.cc reads the password from
  // --level_store_password_file.
  std::string level_store_user;
  std::string level_store_password;
  formats::InputLimits limits;
  // What the server holds at most over all levels.
  StoreLimits store_limits;
  // Query calls open at once and bytes they may queue, per connection and
  // in all (call_budget.h).
  CallLimits call_limits;
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
  // The metrics endpoint's thread pool and request timeout
  // (MetricsHttpOptions): idle or slow connections are closed after
  // metrics_request_timeout, so they cannot hold it.
  int metrics_threads = 16;
  absl::Duration metrics_request_timeout = absl::Seconds(1);
  // TLS or mutual TLS on both listeners; plaintext by default.
  TlsOptions tls;
  // Where LevelService writes are served: "host:port" (port 0: a free
  // port, see admin_port()). Empty: nowhere, a read-only replica. The same
  // address as `listen` (port not 0): on the query port itself, behind
  // the same AdminGate. Anything but loopback needs admin_auth
  // (CheckAdminOptions).
  std::string admin_listen = "127.0.0.1:50052";
  // Credentials admin calls must carry; none on a loopback admin listener
  // lets every local caller change levels.
  AdminAuthOptions admin_auth;
};

// OK when `options` can work; otherwise INVALID_ARGUMENT with a message
// for the command line ("--flag ..." where one flag is at fault): a limit
// out of range (max_vertices >= 3, max_message_bytes >= 1024, the other
// limits >= 1 (the call limits and the visibility limits too),
// max_shot_targets >= 0, max_slide_iterations in [0,
// kMaxSlideIterations], durations and
// worker_threads >= 0, metrics_threads in [1, 1024], metrics_request_timeout in
// [1ms, 1m]), a level_store that is not a redis:// URL or is given with
// level_dir, TLS options that do not fit together (CheckTlsOptions), or an
// admin listener open to the network without credentials or client names
// without mutual TLS (CheckAdminOptions). Reads no file: a TLS file that cannot
// be read fails CollideServer::Start instead.
absl::Status ValidateServerOptions(const ServerOptions& options);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_SERVER_OPTIONS_H_
