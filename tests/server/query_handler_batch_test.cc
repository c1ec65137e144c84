// Batches through the handlers: one bad query does not fail its batch,
// whole-batch errors have their codes, a batch stops between queries when
// its call is over, and the stream form answers as the unary form.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/query_handler.h"
#include "tests/server/query_handler_test_support.h"

namespace collide::server::query_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(HandleRunQueriesTest, OneBadQueryDoesNotFailTheBatch) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::RunQueriesRequest request;
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  v1::Query* bad = request.add_queries();
  bad->mutable_circle_cast()->mutable_circle()->set_radius(-1);
  *request.add_queries() = RayQuery({0, 0}, {-20, 0});
  for (int i = 0; i < 3; ++i)
    request.mutable_queries(i)->set_request_id(10 + i);
  absl::StatusOr<v1::RunQueriesResponse> response =
      HandleRunQueries(snapshot, request, formats::InputLimits{});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->level_version(), 3);
  ASSERT_EQ(response->results_size(), 3);
  EXPECT_EQ(response->results(0).status().code(), 0);
  EXPECT_EQ(response->results(0).cast().hits_size(), 1);
  EXPECT_EQ(response->results(1).request_id(), 11u);
  EXPECT_EQ(response->results(1).status().code(), kInvalidArgument);
  EXPECT_THAT(response->results(1).status().message(),
              HasSubstr("queries[1].circle_cast.circle.radius"));
  EXPECT_EQ(response->results(2).status().code(), 0);
  EXPECT_EQ(response->results(2).request_id(), 12u);
  EXPECT_TRUE(response->results(2).has_cast());
}

TEST(HandleRunQueriesTest, EmptyBatchIsInvalidArgument) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const absl::Status status =
      HandleRunQueries(snapshot, v1::RunQueriesRequest(),
                       formats::InputLimits{})
          .status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("queries"));
}

TEST(HandleRunQueriesTest, BatchOverTheLimitIsResourceExhausted) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  formats::InputLimits limits;
  limits.max_batch_size = 2;
  v1::RunQueriesRequest request;
  for (int i = 0; i < 3; ++i) *request.add_queries() = RayQuery({0, 0}, {1, 0});
  const absl::Status status =
      HandleRunQueries(snapshot, request, limits).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(status.message()), HasSubstr("max_batch_size 2"));
  request.mutable_queries()->RemoveLast();
  EXPECT_TRUE(HandleRunQueries(snapshot, request, limits).ok());
}

// A batch stops at its call's deadline or cancellation; the
// queries not yet answered say so in their own results.
TEST(AnswerRunQueriesTest, StopsBetweenQueriesWhenTheCheckSaysStop) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::RunQueriesRequest request;
  constexpr int kQueries = 3 * kQueriesPerStopCheck + 1;
  for (int i = 0; i < kQueries; ++i) {
    *request.add_queries() = RayQuery({0, 0}, {20, 0});
    request.mutable_queries(i)->set_request_id(100 + i);
  }
  int checks = 0;
  v1::RunQueriesResponse response;
  // Goes on at the first two checks, stops at the third.
  ASSERT_TRUE(AnswerRunQueries(
                  snapshot, request, formats::InputLimits{}, &response,
                  [&] {
                    return ++checks <= 2 ? absl::OkStatus()
                                         : absl::DeadlineExceededError(
                                               "the call's deadline passed");
                  })
                  .ok());
  EXPECT_EQ(checks, 3);
  ASSERT_EQ(response.results_size(), kQueries);
  for (int i = 0; i < kQueries; ++i) {
    const v1::QueryResult& result = response.results(i);
    EXPECT_EQ(result.request_id(), 100u + i);
    if (i < 2 * kQueriesPerStopCheck) {
      EXPECT_EQ(result.status().code(), 0) << i;
      EXPECT_EQ(result.cast().hits_size(), 1) << i;
    } else {
      EXPECT_EQ(result.status().code(),
                static_cast<int>(absl::StatusCode::kDeadlineExceeded))
          << i;
      EXPECT_EQ(result.status().message(),
                absl::StrCat("queries[", i,
                             "]: not answered: the call's deadline passed"));
      EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
    }
  }
}

// A line-of-sight query counts as a whole interval of queries: the check
// comes after each, so a deadline (and the answer's growth, which the
// service charges at checks) is seen within one of them.
TEST(AnswerRunQueriesTest, EachLineOfSightQueryIsFollowedByACheck) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::RunQueriesRequest request;
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  for (int i = 0; i < 2; ++i) {
    v1::VisibilityQuery* sight = request.add_queries()->mutable_visibility();
    sight->add_viewers()->mutable_position()->set_x(-1);
    sight->add_targets()->mutable_point()->set_x(20);
  }
  v1::VisibilityPolygonQuery* polygon =
      request.add_queries()->mutable_visibility_polygon();
  polygon->set_range(5);
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  int checks = 0;
  v1::RunQueriesResponse response;
  ASSERT_TRUE(AnswerRunQueries(snapshot, request, formats::InputLimits{},
                               &response,
                               [&] {
                                 ++checks;
                                 return absl::OkStatus();
                               })
                  .ok());
  // Before the first query, then after each of the three heavy ones.
  EXPECT_EQ(checks, 4);
  ASSERT_EQ(response.results_size(), 5);
  for (const v1::QueryResult& result : response.results()) {
    EXPECT_EQ(result.status().code(), 0) << result.status().message();
  }
  // The wall (x in [10, 12]) hides (20, 0) from (-1, 0).
  EXPECT_EQ(response.results(1).visibility().visible_words(0), 0u);
  EXPECT_GT(response.results(3).visibility_polygon().vertices_size(), 0);
}

TEST(AnswerStreamQueriesTest, ACancelledCallAnswersNoQuery) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::StreamQueriesRequest request;
  request.set_batch_id(5);
  for (int i = 0; i < 3; ++i)
    *request.add_queries() = RayQuery({0, 0}, {20, 0});
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(AnswerStreamQueries(snapshot, request, formats::InputLimits{},
                                  &response,
                                  [] { return absl::CancelledError("gone"); })
                  .ok());
  EXPECT_EQ(response.batch_id(), 5u);
  ASSERT_EQ(response.results_size(), 3);
  for (const v1::QueryResult& result : response.results()) {
    EXPECT_EQ(result.status().code(),
              static_cast<int>(absl::StatusCode::kCancelled));
    EXPECT_FALSE(result.has_cast());
  }
}

TEST(HandleStreamQueriesTest, EchoesBatchIdAndVersion) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 9);
  v1::StreamQueriesRequest request;
  request.set_batch_id(77);
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  absl::StatusOr<v1::StreamQueriesResponse> response =
      HandleStreamQueries(snapshot, request, formats::InputLimits{});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->batch_id(), 77u);
  EXPECT_EQ(response->level_version(), 9);
  EXPECT_EQ(response->status().code(), 0);
  ASSERT_EQ(response->results_size(), 1);
  EXPECT_EQ(response->results(0).cast().hits_size(), 1);
}

TEST(HandleStreamQueriesTest, SameAnswersAsTheUnaryForm) {
  const LevelSnapshot snapshot = Snapshot(RandomLevel(5, 40));
  Random random(11);
  v1::StreamQueriesRequest stream;
  v1::RunQueriesRequest unary;
  for (int i = 0; i < 100; ++i) {
    v1::Query query = RayQuery(random.Point(0, 60), random.Point(-30, 30));
    *stream.add_queries() = query;
    *unary.add_queries() = query;
  }
  absl::StatusOr<v1::StreamQueriesResponse> a =
      HandleStreamQueries(snapshot, stream, formats::InputLimits{});
  absl::StatusOr<v1::RunQueriesResponse> b =
      HandleRunQueries(snapshot, unary, formats::InputLimits{});
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->results_size(), b->results_size());
  for (int i = 0; i < a->results_size(); ++i) {
    EXPECT_EQ(a->results(i).SerializeAsString(),
              b->results(i).SerializeAsString());
  }
}

TEST(HandleStreamQueriesTest, EmptyBatchIsInvalidArgument) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  EXPECT_EQ(HandleStreamQueries(snapshot, v1::StreamQueriesRequest(),
                                formats::InputLimits{})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RefusedBatchResponseTest, CarriesTheStatusAndBatchId) {
  v1::StreamQueriesRequest request;
  request.set_batch_id(4);
  *request.add_queries() = RayQuery({0, 0}, {1, 0});
  const v1::StreamQueriesResponse response = RefusedBatchResponse(
      request, absl::NotFoundError("level \"levels/x\" does not exist"));
  EXPECT_EQ(response.batch_id(), 4u);
  EXPECT_EQ(response.status().code(),
            static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_EQ(response.status().message(), "level \"levels/x\" does not exist");
  EXPECT_EQ(response.results_size(), 0);
}

TEST(CheckBatchSizeTest, BoundsAreInclusive) {
  formats::InputLimits limits;
  limits.max_batch_size = 4;
  EXPECT_EQ(CheckBatchSize(0, limits).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(CheckBatchSize(1, limits).ok());
  EXPECT_TRUE(CheckBatchSize(4, limits).ok());
  EXPECT_EQ(CheckBatchSize(5, limits).code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace collide::server::query_test
