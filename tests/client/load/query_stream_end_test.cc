// QueryStream when the server ends the stream while batches are being sent
// (as under a load test): every batch whose Send succeeded is
// delivered, answered or with the stream's status, so a caller counting its
// batches in flight never waits forever.
#include <atomic>
#include <memory>

#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gtest/gtest.h"
#include "tests/client/load/fake_collision_service.h"

namespace collide::client::load {
namespace {

TEST(QueryStreamEndTest, EveryBatchSentIsDeliveredWhenTheServerEndsTheStream) {
  std::unique_ptr<FakeServer> fake =
      StartFakeServer({.delay = absl::ZeroDuration(), .end_stream_after = 2});
  ClientOptions options;
  options.target = absl::StrCat("127.0.0.1:", fake->port);
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(options);
  ASSERT_TRUE(client.ok()) << client.status();
  const v1::Query query = RayCast({0, 0}, {1, 0});
  // Each round races the sends against the server ending the stream.
  for (int round = 0; round < 100; ++round) {
    std::atomic<int> delivered{0};
    QueryStreamOptions stream_options;
    stream_options.window = 4;
    stream_options.timeout = absl::Seconds(20);
    stream_options.on_response = [&delivered](BatchOutcome) { ++delivered; };
    absl::StatusOr<std::unique_ptr<QueryStream>> stream =
        (*client)->OpenStream("arena", std::move(stream_options));
    ASSERT_TRUE(stream.ok()) << stream.status();
    int sent = 0;
    for (int i = 0; i < 50; ++i) {
      if (!(*stream)->Send({&query, 1}).ok()) break;
      ++sent;
    }
    (*stream)->Finish().IgnoreError();
    EXPECT_EQ(delivered.load(), sent) << "round " << round;
    EXPECT_EQ((*stream)->outstanding(), 0) << "round " << round;
  }
}

}  // namespace
}  // namespace collide::client::load
