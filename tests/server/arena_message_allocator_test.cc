#include "server/arena_message_allocator.h"

#include "collide/v1/collision_service.pb.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

using Allocator =
    ArenaMessageAllocator<v1::RunQueriesRequest, v1::RunQueriesResponse>;

TEST(ArenaMessageAllocatorTest, BothMessagesLiveOnOneArenaPerCall) {
  Allocator allocator;
  grpc::MessageHolder<v1::RunQueriesRequest, v1::RunQueriesResponse>* first =
      allocator.AllocateMessages();
  grpc::MessageHolder<v1::RunQueriesRequest, v1::RunQueriesResponse>* second =
      allocator.AllocateMessages();
  ASSERT_NE(first->request()->GetArena(), nullptr);
  EXPECT_EQ(first->request()->GetArena(), first->response()->GetArena());
  EXPECT_NE(first->request()->GetArena(), second->request()->GetArena());
  first->Release();
  second->Release();
}

TEST(ArenaMessageAllocatorTest, MessagesStartEmptyAndHoldABatch) {
  Allocator allocator;
  grpc::MessageHolder<v1::RunQueriesRequest, v1::RunQueriesResponse>* holder =
      allocator.AllocateMessages();
  EXPECT_EQ(holder->request()->ByteSizeLong(), 0u);
  EXPECT_EQ(holder->response()->ByteSizeLong(), 0u);
  v1::RunQueriesRequest sent;
  sent.set_level("levels/a");
  for (int i = 0; i < 300; ++i) {
    v1::Query* query = sent.add_queries();
    query->set_request_id(static_cast<uint64_t>(i));
    query->mutable_ray_cast()->mutable_translation()->set_x(i);
  }
  ASSERT_TRUE(holder->request()->ParseFromString(sent.SerializeAsString()));
  EXPECT_EQ(holder->request()->SerializeAsString(), sent.SerializeAsString());
  holder->Release();
}

}  // namespace
}  // namespace collide::server
