#include "server/server_options.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "collide/validate.h"
#include "server/fleet/redis_connection.h"
#include "server/ops/admin_gate.h"
#include "server/ops/tls_credentials.h"

namespace collide::server {
namespace {

// The same status with "--" before its message, which starts with the
// option (flag) at fault.
absl::Status AsFlagError(const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat("--", status.message()));
}

absl::Status CheckLimits(const ServerOptions& options) {
  const formats::InputLimits& limits = options.limits;
  if (limits.max_batch_size < 1 || limits.max_vertices < 3 ||
      limits.max_level_shapes < 0 || limits.max_message_bytes < 1024 ||
      limits.max_level_bytes < 1 || options.store_limits.max_levels < 1 ||
      options.store_limits.max_total_level_bytes < 1 ||
      options.worker_threads < 0 ||
      options.shutdown_grace < absl::ZeroDuration() ||
      options.max_connection_age < absl::ZeroDuration() ||
      options.max_connection_age_grace < absl::ZeroDuration() ||
      options.level_dir_poll_interval < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "limits must be positive (max_vertices >= 3, max_message_bytes >= "
        "1024), worker_threads, shutdown_grace, max_connection_age, "
        "max_connection_age_grace and level_dir_poll_interval >= 0");
  }
  const CallLimits& calls = options.call_limits;
  if (calls.max_streams_per_connection < 1 || calls.max_streams < 1 ||
      calls.max_queued_bytes_per_connection < 1 || calls.max_queued_bytes < 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "max_streams_per_connection, max_streams, "
        "max_queued_bytes_per_connection and max_queued_bytes must be >= 1, "
        "got %d, %d, %d and %d",
        calls.max_streams_per_connection, calls.max_streams,
        calls.max_queued_bytes_per_connection, calls.max_queued_bytes));
  }
  if (limits.max_shot_targets < 0 || limits.max_slide_iterations < 0 ||
      limits.max_slide_iterations > kMaxSlideIterations) {
    return absl::InvalidArgumentError(
        absl::StrFormat("max_shot_targets must be >= 0 and "
                        "max_slide_iterations in [0, %d]",
                        kMaxSlideIterations));
  }
  if (limits.max_visibility_pairs < 1 ||
      limits.max_visibility_polygon_vertices < 1 ||
      limits.max_visibility_polygon_edges < 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "max_visibility_pairs, max_visibility_polygon_vertices and "
        "max_visibility_polygon_edges must be >= 1, got %d, %d and %d",
        limits.max_visibility_pairs, limits.max_visibility_polygon_vertices,
        limits.max_visibility_polygon_edges));
  }
  if (limits.max_visibility_disc_occluders < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("max_visibility_disc_occluders must be >= 1, got %d",
                        limits.max_visibility_disc_occluders));
  }
  return absl::OkStatus();
}

absl::Status CheckMetricsOptions(const ServerOptions& options) {
  if (options.metrics_threads < 1 || options.metrics_threads > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics_threads must be in [1, 1024], got ",
                     options.metrics_threads));
  }
  if (options.metrics_request_timeout < absl::Milliseconds(1) ||
      options.metrics_request_timeout > absl::Minutes(1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics_request_timeout must be in [1ms, 1m], got ",
                     absl::FormatDuration(options.metrics_request_timeout)));
  }
  return absl::OkStatus();
}

absl::Status CheckLevelStore(const ServerOptions& options) {
  if (options.level_store.empty()) {
    if (!options.level_store_copy_dir.empty()) {
      return absl::InvalidArgumentError(
          "--level_store_copy_dir needs --level_store (it keeps a copy of "
          "the fleet's store)");
    }
    if (!options.level_store_user.empty() ||
        !options.level_store_password.empty()) {
      return absl::InvalidArgumentError(
          "--level_store_user and --level_store_password_file need "
          "--level_store (they are its Redis credentials)");
    }
    return absl::OkStatus();
  }
  if (absl::StatusOr<RedisAddress> address = ParseRedisUrl(options.level_store);
      !address.ok()) {
    return AsFlagError(address.status());
  }
  if (!options.level_dir.empty()) {
    return absl::InvalidArgumentError(
        "--level_store names Redis: leave --level_dir empty (levels live in "
        "one place)");
  }
  if (!options.level_store_user.empty() &&
      options.level_store_password.empty()) {
    return absl::InvalidArgumentError(
        "--level_store_user needs --level_store_password_file (AUTH sends "
        "both)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateServerOptions(const ServerOptions& options) {
  if (absl::Status s = CheckLimits(options); !s.ok()) return s;
  if (absl::Status s = CheckMetricsOptions(options); !s.ok()) return s;
  if (absl::Status s = CheckLevelStore(options); !s.ok()) return s;
  if (absl::Status s = CheckTlsOptions(options.tls); !s.ok()) {
    return AsFlagError(s);
  }
  if (absl::Status s = CheckAdminOptions(
          options.admin_listen, options.admin_auth, options.tls.mutual());
      !s.ok()) {
    return AsFlagError(s);
  }
  return absl::OkStatus();
}

}  // namespace collide::server
