// --level_store URLs, and a connection to a Redis that is not there
// failing fast with UNAVAILABLE (the shared store's writes rely on it).
#include "server/fleet/redis_connection.h"

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/support/redis_process.h"

namespace collide::server {
namespace {

TEST(ParseRedisUrlTest, ReadsHostPortAndPrefix) {
  absl::StatusOr<RedisAddress> address =
      ParseRedisUrl("redis://redis.default.svc:6380/games");
  ASSERT_TRUE(address.ok()) << address.status();
  EXPECT_EQ(address->host, "redis.default.svc");
  EXPECT_EQ(address->port, 6380);
  EXPECT_EQ(address->prefix, "games");
}

TEST(ParseRedisUrlTest, DefaultsPortAndPrefix) {
  absl::StatusOr<RedisAddress> address = ParseRedisUrl("redis://redis");
  ASSERT_TRUE(address.ok()) << address.status();
  EXPECT_EQ(address->host, "redis");
  EXPECT_EQ(address->port, 6379);
  EXPECT_EQ(address->prefix, "collide");
}

TEST(ParseRedisUrlTest, ReadsBracketedIpv6) {
  absl::StatusOr<RedisAddress> address = ParseRedisUrl("redis://[::1]:7000/x");
  ASSERT_TRUE(address.ok()) << address.status();
  EXPECT_EQ(address->host, "::1");
  EXPECT_EQ(address->port, 7000);
}

TEST(ParseRedisUrlTest, RefusesBadUrlsNamingTheFlag) {
  for (const char* url :
       {"http://redis:6379/x", "redis://:6379/x", "redis://redis:0/x",
        "redis://redis:99999/x", "redis://redis:port/x", "redis://[::1/x",
        "redis://redis/a b"}) {
    absl::StatusOr<RedisAddress> address = ParseRedisUrl(url);
    ASSERT_FALSE(address.ok()) << url;
    EXPECT_EQ(address.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(address.status().message().find("level_store"),
              absl::string_view::npos)
        << address.status();
  }
}

TEST(RedisConnectionTest, NoRedisIsUnavailable) {
  const int port = collide::testing::FreeLoopbackPort();
  absl::StatusOr<std::unique_ptr<RedisConnection>> connection =
      RedisConnection::Connect(
          {.host = "127.0.0.1", .port = port, .prefix = "x"}, absl::Seconds(1));
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.status().code(), absl::StatusCode::kUnavailable)
      << connection.status();
}

}  // namespace
}  // namespace collide::server
