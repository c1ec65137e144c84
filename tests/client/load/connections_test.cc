// ConnectMany: one client per connection, refused for a bad count or a
// target whose addresses it cannot spread connections over. Connections
// open lazily, so nothing is started or reached here.
#include "client/load/connections.h"

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

TEST(ConnectManyTest, RefusesABadCountOrTarget) {
  ClientOptions options;
  EXPECT_EQ(ConnectMany(options, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.target = "127.0.0.1:1,[::1]:2";
  EXPECT_EQ(ConnectMany(options, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.target = "127.0.0.1:1,127.0.0.1:2";
  absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> clients =
      ConnectMany(options, 2);
  ASSERT_TRUE(clients.ok());
  EXPECT_EQ(clients->size(), 2u);
}

}  // namespace
}  // namespace collide::client::load
