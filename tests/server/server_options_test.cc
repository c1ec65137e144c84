// ValidateServerOptions: the defaults pass, and each option that cannot
// work is refused with INVALID_ARGUMENT naming it.
#include "server/server_options.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ValidateServerOptionsTest, DefaultsAreValid) {
  EXPECT_TRUE(ValidateServerOptions(ServerOptions()).ok());
}

TEST(ValidateServerOptionsTest, LimitsOutOfRangeAreRefused) {
  const std::vector<std::function<void(ServerOptions&)>> breaks = {
      [](ServerOptions& o) { o.limits.max_batch_size = 0; },
      [](ServerOptions& o) { o.limits.max_vertices = 2; },
      [](ServerOptions& o) { o.limits.max_level_shapes = -1; },
      [](ServerOptions& o) { o.limits.max_message_bytes = 1023; },
      [](ServerOptions& o) { o.limits.max_level_bytes = 0; },
      [](ServerOptions& o) { o.store_limits.max_levels = 0; },
      [](ServerOptions& o) { o.store_limits.max_total_level_bytes = 0; },
      [](ServerOptions& o) { o.worker_threads = -1; },
      [](ServerOptions& o) { o.shutdown_grace = absl::Seconds(-1); },
      [](ServerOptions& o) { o.max_connection_age = absl::Seconds(-1); },
      [](ServerOptions& o) { o.max_connection_age_grace = absl::Seconds(-1); },
      [](ServerOptions& o) { o.level_dir_poll_interval = absl::Seconds(-1); },
  };
  for (size_t i = 0; i < breaks.size(); ++i) {
    SCOPED_TRACE(i);
    ServerOptions options;
    breaks[i](options);
    const absl::Status status = ValidateServerOptions(options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(status.message()),
                StartsWith("limits must be positive"));
  }
}

TEST(ValidateServerOptionsTest, CallLimitsBelowOneAreRefusedNamingThem) {
  const std::vector<std::function<void(ServerOptions&)>> breaks = {
      [](ServerOptions& o) { o.call_limits.max_streams_per_connection = 0; },
      [](ServerOptions& o) { o.call_limits.max_streams = 0; },
      [](ServerOptions& o) {
        o.call_limits.max_queued_bytes_per_connection = 0;
      },
      [](ServerOptions& o) { o.call_limits.max_queued_bytes = -1; },
  };
  for (size_t i = 0; i < breaks.size(); ++i) {
    SCOPED_TRACE(i);
    ServerOptions options;
    breaks[i](options);
    const absl::Status status = ValidateServerOptions(options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(status.message()),
                StartsWith("max_streams_per_connection, max_streams, "));
  }
}

TEST(ValidateServerOptionsTest, LimitsAtTheirBoundsAreValid) {
  ServerOptions options;
  options.limits.max_batch_size = 1;
  options.limits.max_vertices = 3;
  options.limits.max_level_shapes = 0;
  options.limits.max_message_bytes = 1024;
  options.limits.max_shot_targets = 0;
  options.limits.max_slide_iterations = kMaxSlideIterations;
  options.worker_threads = 0;
  options.shutdown_grace = absl::ZeroDuration();
  options.max_connection_age = absl::ZeroDuration();
  options.max_connection_age_grace = absl::ZeroDuration();
  options.level_dir_poll_interval = absl::ZeroDuration();
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

TEST(ValidateServerOptionsTest, ShotTargetsAndSlideIterationsAreBounded) {
  for (const auto& [targets, iterations] :
       {std::pair{-1, 0}, {0, -1}, {0, kMaxSlideIterations + 1}}) {
    ServerOptions options;
    options.limits.max_shot_targets = targets;
    options.limits.max_slide_iterations = iterations;
    const absl::Status status = ValidateServerOptions(options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(),
              "max_shot_targets must be >= 0 and max_slide_iterations in [0, " +
                  std::to_string(kMaxSlideIterations) + "]");
  }
}

TEST(ValidateServerOptionsTest, LevelStoreMustBeARedisUrlWithoutLevelDir) {
  ServerOptions options;
  options.level_store = "redis://127.0.0.1:6379/fleet";
  EXPECT_TRUE(ValidateServerOptions(options).ok());

  options.level_dir = "/var/lib/collide";
  absl::Status status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "--level_store names Redis: leave --level_dir empty (levels live "
            "in one place)");

  options.level_dir.clear();
  options.level_store = "http://127.0.0.1/";
  status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("--level_store \"http://"));
}

TEST(ValidateServerOptionsTest, ACopyDirectoryNeedsALevelStore) {
  ServerOptions options;
  options.level_store_copy_dir = "/var/lib/collide/fleet-copy";
  const absl::Status status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "--level_store_copy_dir needs --level_store (it keeps a copy of "
            "the fleet's store)");
  options.level_store = "redis://127.0.0.1:6379/fleet";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

TEST(ValidateServerOptionsTest, RedisCredentialsNeedALevelStoreAndAPassword) {
  ServerOptions options;
  options.level_store_password = "secret";
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--level_store_user and --level_store_password_file need "
            "--level_store (they are its Redis credentials)");
  options.level_store = "redis://127.0.0.1:6379/fleet";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
  options.level_store_password.clear();
  options.level_store_user = "collide";
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--level_store_user needs --level_store_password_file (AUTH sends "
            "both)");
}

TEST(ValidateServerOptionsTest, MetricsThreadsAndTimeoutAreBounded) {
  ServerOptions options;
  options.metrics_threads = 0;
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--metrics_threads must be in [1, 1024], got 0");
  options.metrics_threads = 1025;
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--metrics_threads must be in [1, 1024], got 1025");
  options.metrics_threads = 1024;
  EXPECT_TRUE(ValidateServerOptions(options).ok());
  options.metrics_request_timeout = absl::ZeroDuration();
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--metrics_request_timeout must be in [1ms, 1m], got 0");
  options.metrics_request_timeout = absl::Minutes(2);
  EXPECT_EQ(ValidateServerOptions(options).message(),
            "--metrics_request_timeout must be in [1ms, 1m], got 2m");
  options.metrics_request_timeout = absl::Milliseconds(1);
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

TEST(ValidateServerOptionsTest, TlsOptionsMustFitTogether) {
  ServerOptions options;
  options.tls.tls_cert_file = "server.pem";
  absl::Status status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("--tls_cert_file and tls_key_file"));

  options.tls = {};
  options.tls.tls_client_ca_file = "ca.pem";
  status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("--tls_client_ca_file needs tls_cert_file"));

  // Files are not read here: names that do not exist still validate.
  options.tls.tls_cert_file = "missing.pem";
  options.tls.tls_key_file = "missing.key";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

TEST(ValidateServerOptionsTest, AnExposedAdminListenerNeedsCredentials) {
  ServerOptions options;
  options.admin_listen = "0.0.0.0:50052";
  const absl::Status status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("--admin_listen \"0.0.0.0:50052\""));

  options.admin_auth.admin_token = "secret";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
  // Off, or on loopback: no credentials needed.
  options.admin_auth = {};
  options.admin_listen = "";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
  options.admin_listen = "127.0.0.1:0";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

TEST(ValidateServerOptionsTest, AdminClientNamesNeedMutualTls) {
  ServerOptions options;
  options.admin_auth.admin_client_names = {"ops"};
  const absl::Status status = ValidateServerOptions(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("--admin_client_names needs mutual TLS"));

  options.tls.tls_cert_file = "server.pem";
  options.tls.tls_key_file = "server.key";
  options.tls.tls_client_ca_file = "ca.pem";
  EXPECT_TRUE(ValidateServerOptions(options).ok());
}

}  // namespace
}  // namespace collide::server
