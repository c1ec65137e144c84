#include "server/rpc/stream_batch.h"

#include <cstddef>
#include <string>

#include "collide/v1/collision_service.pb.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

// A request of `count` ray casts, as a client would send it.
std::string RequestBytes(int count, uint64_t batch_id) {
  v1::StreamQueriesRequest request;
  request.set_level("levels/some_level");
  request.set_batch_id(batch_id);
  for (int i = 0; i < count; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(static_cast<uint64_t>(i));
    query->mutable_ray_cast()->mutable_origin()->set_x(i);
    query->mutable_ray_cast()->mutable_translation()->set_y(-i);
  }
  return request.SerializeAsString();
}

TEST(StreamBatchTest, StartsWithEmptyMessages) {
  StreamBatch batch;
  EXPECT_EQ(batch.request()->ByteSizeLong(), 0u);
  EXPECT_EQ(batch.response()->ByteSizeLong(), 0u);
}

TEST(StreamBatchTest, ResetEmptiesBothMessages) {
  StreamBatch batch;
  ASSERT_TRUE(batch.request()->ParseFromString(RequestBytes(10, 7)));
  batch.response()->set_batch_id(7);
  batch.response()->add_results()->set_request_id(3);
  batch.Reset();
  EXPECT_EQ(batch.request()->ByteSizeLong(), 0u);
  EXPECT_EQ(batch.response()->ByteSizeLong(), 0u);
}

TEST(StreamBatchTest, ReusedBatchReadsEveryRequestWhateverItsSize) {
  StreamBatch batch;
  for (int count : {300, 1, 40, 0, 500, 2}) {
    const std::string bytes = RequestBytes(count, count);
    ASSERT_TRUE(batch.request()->ParseFromString(bytes)) << count;
    EXPECT_EQ(batch.request()->SerializeAsString(), bytes) << count;
    batch.Reset();
  }
}

TEST(StreamBatchTest, BatchOfTheSameSizeFitsTheKeptBlock) {
  StreamBatch batch;
  const std::string bytes = RequestBytes(256, 1);
  ASSERT_TRUE(batch.request()->ParseFromString(bytes));
  const size_t first_use = batch.request()->GetArena()->SpaceAllocated();
  batch.Reset();
  // The kept block is sized by the first use, so the second use of the
  // same size takes no further block.
  const size_t kept = batch.request()->GetArena()->SpaceAllocated();
  EXPECT_GE(kept, first_use);
  ASSERT_TRUE(batch.request()->ParseFromString(bytes));
  EXPECT_EQ(batch.request()->GetArena()->SpaceAllocated(), kept);
}

TEST(StreamBatchTest, KeptBlockIsCapped) {
  StreamBatch batch;
  // Far more than kMaxKeptBytes of queries.
  const std::string bytes = RequestBytes(40000, 1);
  ASSERT_TRUE(batch.request()->ParseFromString(bytes));
  ASSERT_GT(batch.request()->GetArena()->SpaceAllocated(),
            StreamBatch::kMaxKeptBytes);
  batch.Reset();
  EXPECT_LE(batch.request()->GetArena()->SpaceAllocated(),
            StreamBatch::kMaxKeptBytes);
}

}  // namespace
}  // namespace collide::server
