// A replica that hangs without closing its connections (a stopped process,
// a vanished node) must cost a batch one keepalive timeout, not its whole
// deadline: the client's pings go unanswered, the connection is closed and
// the batch fails with UNAVAILABLE (which the client retries elsewhere).
#include <signal.h>

#include <chrono>
#include <memory>

#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace collide::client {
namespace {

TEST(KeepaliveTest, HungServerFailsTheCallLongBeforeItsDeadline) {
  collide::testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0"}));
  ClientOptions options;
  options.target = absl::StrCat("127.0.0.1:", server.port());
  options.call_timeout = absl::Seconds(60);
  options.keepalive_time = absl::Seconds(1);
  options.keepalive_timeout = absl::Seconds(1);
  options.max_attempts = 1;
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(options);
  ASSERT_TRUE(client.ok()) << client.status();
  // Connected and answering first.
  ASSERT_TRUE((*client)->RunQuery("arena", RayCast({0, 0}, {30, 0})).ok());

  ASSERT_TRUE(server.Pause());
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status =
      (*client)->RunQuery("arena", RayCast({0, 0}, {30, 0})).status();
  const auto waited = std::chrono::steady_clock::now() - start;
  server.Kill();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  // Keepalive is 1 s + 1 s; 20 s leaves room for a loaded machine while
  // staying far below the 60 s deadline the call would otherwise wait.
  EXPECT_LT(waited, std::chrono::seconds(20));
}

}  // namespace
}  // namespace collide::client
