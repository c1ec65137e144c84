// --level_store URLs, a connection to a Redis that is not there failing
// fast with UNAVAILABLE (the shared store's writes rely on it), and AUTH
// against a real redis-server with an ACL user.
#include "server/fleet/redis_connection.h"

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/support/redis_process.h"
#include "tests/support/temp_dir.h"

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
      RedisConnection::Connect({.host = "127.0.0.1",
                                .port = port,
                                .prefix = "x",
                                .username = "",
                                .password = ""},
                               absl::Seconds(1));
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.status().code(), absl::StatusCode::kUnavailable)
      << connection.status();
}

// A Redis whose default user is off and whose one user, "collide", has a
// password: only a connection that authenticates as it may run commands;
// a wrong password is UNAVAILABLE without the password in the text.
TEST(RedisConnectionTest, AuthenticatesAsAnAclUser) {
  collide::testing::TempDir dir;
  collide::testing::RedisProcess redis(dir.path());
  redis.set_cli_auth("--user collide --pass s3cret-pw --no-auth-warning");
  ASSERT_TRUE(redis.Start(collide::testing::FreeLoopbackPort(),
                          {"--user", "default", "off", "--user", "collide",
                           "on", ">s3cret-pw", "~*", "&*", "+@all"}));
  RedisAddress address;
  address.host = "127.0.0.1";
  address.port = redis.port();
  address.username = "collide";
  address.password = "s3cret-pw";
  absl::StatusOr<std::unique_ptr<RedisConnection>> connection =
      RedisConnection::Connect(address, absl::Seconds(5));
  ASSERT_TRUE(connection.ok()) << connection.status();
  absl::StatusOr<RedisReply> pong = (*connection)->Command({"PING"});
  ASSERT_TRUE(pong.ok()) << pong.status();

  address.password = "wrong-pw";
  absl::StatusOr<std::unique_ptr<RedisConnection>> refused =
      RedisConnection::Connect(address, absl::Seconds(5));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnavailable)
      << refused.status();
  EXPECT_EQ(refused.status().message().find("wrong-pw"), std::string::npos)
      << refused.status();

  // No credentials: connected, but every command is refused.
  address.username.clear();
  address.password.clear();
  absl::StatusOr<std::unique_ptr<RedisConnection>> anonymous =
      RedisConnection::Connect(address, absl::Seconds(5));
  ASSERT_TRUE(anonymous.ok()) << anonymous.status();
  EXPECT_FALSE((*anonymous)->Command({"PING"}).ok());
}

}  // namespace
}  // namespace collide::server
