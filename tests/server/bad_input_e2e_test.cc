// End to end: every kind of bad input gets its status with a message naming
// the field, one bad query fails only its own result, and the server keeps
// serving afterwards.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using testing::Deadline;
using ::testing::HasSubstr;
using testing::Set;

constexpr int kMaxBatch = 8;

class BadInputE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerOptions options = testing::TestOptions();
    options.limits.max_batch_size = kMaxBatch;
    options.limits.max_vertices = 16;
    options.limits.max_level_shapes = 20;
    options.limits.max_message_bytes = 64 * 1024;
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    const auto channel = testing::Connect(server_->port());
    collisions_ = v1::CollisionService::NewStub(channel);
    // LevelService on the admin listener: it serves reads and the writes.
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
  }

  void TearDown() override {
    // Whatever happened above, the server still answers.
    if (collisions_ == nullptr) return;
    v1::RunQueriesRequest request;
    request.set_level("levels/arena");
    *request.add_queries() = testing::RayAlongX(1, 0);
    v1::RunQueriesResponse response;
    const grpc::Status status =
        testing::RunQueries(*collisions_, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    ASSERT_EQ(response.results_size(), 1);
    EXPECT_EQ(response.results(0).cast().hits_size(), 1);
  }

  grpc::Status Run(const v1::RunQueriesRequest& request,
                   v1::RunQueriesResponse* response = nullptr) {
    v1::RunQueriesResponse ignored;
    return testing::RunQueries(*collisions_, request,
                               response != nullptr ? response : &ignored);
  }

  grpc::Status Put(const std::string& name, const v1::Level& content) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::PutLevelRequest request;
    request.set_level(name);
    *request.mutable_content() = content;
    v1::PutLevelResponse response;
    return levels_->PutLevel(&context, request, &response);
  }

  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
};

v1::RunQueriesRequest Batch(const std::string& level, int count) {
  v1::RunQueriesRequest request;
  request.set_level(level);
  for (int i = 0; i < count; ++i)
    *request.add_queries() = testing::RayAlongX(i, 0);
  return request;
}

TEST_F(BadInputE2eTest, UnaryUnknownLevelIsNotFound) {
  const grpc::Status status = Run(Batch("levels/nope", 1));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("levels/nope"));
}

TEST_F(BadInputE2eTest, UnaryMalformedLevelNameIsInvalidArgument) {
  for (const char* name :
       {"nope", "levels/", "levels/a/b", "levels/../x", ""}) {
    const grpc::Status status = Run(Batch(name, 1));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_THAT(status.error_message(), HasSubstr("level")) << name;
  }
}

TEST_F(BadInputE2eTest, UnaryEmptyBatchIsInvalidArgument) {
  const grpc::Status status = Run(Batch("levels/arena", 0));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("queries"));
}

TEST_F(BadInputE2eTest, UnaryBatchOverTheLimitIsResourceExhausted) {
  const grpc::Status status = Run(Batch("levels/arena", kMaxBatch + 1));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("max_batch_size"));
}

TEST_F(BadInputE2eTest, MessageOverMaxMessageBytesIsResourceExhausted) {
  v1::RunQueriesRequest request = Batch("levels/arena", 1);
  // 64 KiB of ignore ids: over the server's receive limit.
  for (int i = 0; i < 10000; ++i) {
    request.mutable_queries(0)
        ->mutable_ray_cast()
        ->mutable_options()
        ->mutable_filter()
        ->add_ignore_ids(static_cast<uint64_t>(i) << 40);
  }
  const grpc::Status status = Run(request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(BadInputE2eTest, EachBadQueryFailsOnlyItsOwnResult) {
  v1::RunQueriesRequest request;
  request.set_level("levels/arena");
  *request.add_queries() = testing::RayAlongX(100, 0);  // good
  {
    v1::Query* q = request.add_queries();  // NaN
    *q = testing::RayAlongX(101, 0);
    q->mutable_ray_cast()->mutable_origin()->set_x(std::nan(""));
  }
  {
    v1::Query* q = request.add_queries();  // infinite translation
    *q = testing::RayAlongX(102, 0);
    q->mutable_ray_cast()->mutable_translation()->set_y(
        std::numeric_limits<double>::infinity());
  }
  {
    v1::Query* q = request.add_queries();  // negative radius
    q->set_request_id(103);
    q->mutable_circle_cast()->mutable_circle()->set_radius(-1);
    Set(q->mutable_circle_cast()->mutable_translation(), 1, 0);
  }
  {
    v1::Query* q = request.add_queries();  // not convex
    q->set_request_id(104);
    v1::Polygon* p = q->mutable_polygon_cast()->mutable_polygon();
    for (const auto& [x, y] : {std::pair{0.0, 0.0},
                               {2.0, 0.0},
                               {1.0, 0.5},
                               {2.0, 2.0},
                               {0.0, 2.0}}) {
      Set(p->add_vertices(), x, y);
    }
  }
  {
    v1::Query* q = request.add_queries();  // too many vertices (9 > 8)
    q->set_request_id(105);
    v1::Polygon* p = q->mutable_overlap()->mutable_polygon();
    for (int k = 0; k < 9; ++k) {
      Set(p->add_vertices(), std::cos(k * 0.69), std::sin(k * 0.69));
    }
  }
  request.add_queries()->set_request_id(106);           // no query set
  *request.add_queries() = testing::RayAlongX(107, 1);  // good

  v1::RunQueriesResponse response;
  const grpc::Status status = Run(request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 8);
  const struct {
    int code;
    const char* field;
  } expected[] = {
      {0, ""},
      {3, "queries[1].ray_cast.origin.x"},
      {3, "queries[2].ray_cast.translation.y"},
      {3, "queries[3].circle_cast.circle.radius"},
      {3, "queries[4].polygon_cast.polygon"},
      {3, "queries[5].overlap.polygon"},
      {3, "queries[6]"},
      {0, ""},
  };
  for (int i = 0; i < 8; ++i) {
    const v1::QueryResult& result = response.results(i);
    EXPECT_EQ(result.request_id(), static_cast<uint64_t>(100 + i));
    EXPECT_EQ(result.status().code(), expected[i].code)
        << i << ": " << result.status().message();
    EXPECT_THAT(result.status().message(), HasSubstr(expected[i].field));
    if (expected[i].code == 0) {
      EXPECT_EQ(result.cast().hits_size(), 1) << i;
    } else {
      EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET) << i;
    }
  }
}

TEST_F(BadInputE2eTest, StreamRefusesBadBatchesAndStaysOpen) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  auto send = [&](const std::string& level, int count, uint64_t batch_id) {
    v1::StreamQueriesRequest request;
    request.set_level(level);
    request.set_batch_id(batch_id);
    for (int i = 0; i < count; ++i) {
      *request.add_queries() = testing::RayAlongX(i, 0);
    }
    return stream->Write(request);
  };
  ASSERT_TRUE(send("levels/nope", 1, 1));
  ASSERT_TRUE(send("bad name", 1, 2));
  ASSERT_TRUE(send("levels/arena", 0, 3));
  ASSERT_TRUE(send("levels/arena", kMaxBatch + 1, 4));
  ASSERT_TRUE(send("levels/arena", kMaxBatch, 5));
  ASSERT_TRUE(stream->WritesDone());

  const struct {
    int code;
    const char* message;
  } expected[] = {{5, "levels/nope"},
                  {3, "level"},
                  {3, "queries"},
                  {8, "max_batch_size"},
                  {0, ""}};
  v1::StreamQueriesResponse response;
  for (uint64_t b = 1; b <= 5; ++b) {
    ASSERT_TRUE(stream->Read(&response)) << "batch " << b;
    EXPECT_EQ(response.batch_id(), b);
    EXPECT_EQ(response.status().code(), expected[b - 1].code)
        << response.status().message();
    EXPECT_THAT(response.status().message(),
                HasSubstr(expected[b - 1].message));
    EXPECT_EQ(response.results_size(), b == 5 ? kMaxBatch : 0);
  }
  EXPECT_FALSE(stream->Read(&response));
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(BadInputE2eTest, InvalidLevelIsRefusedAndTheOldOneKeepsServing) {
  ASSERT_TRUE(Put("levels/wall", testing::WallLevel("", 5, 1)).ok());

  v1::Level nan_level = testing::WallLevel("", 7, 2);
  nan_level.mutable_shapes(0)->mutable_segment()->mutable_p2()->set_y(
      std::nan(""));
  grpc::Status status = Put("levels/wall", nan_level);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("content.shapes[0]"));

  v1::Level duplicate = testing::WallLevel("", 7, 2);
  *duplicate.add_shapes() = duplicate.shapes(0);
  status = Put("levels/wall", duplicate);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("shapes[1].id"));

  v1::Level no_geometry = testing::WallLevel("", 7, 2);
  no_geometry.mutable_shapes(0)->clear_segment();
  status = Put("levels/wall", no_geometry);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("shapes[0]"));

  v1::Level negative = testing::WallLevel("", 7, 2);
  v1::Circle* circle = negative.add_shapes()->mutable_circle();
  negative.mutable_shapes(1)->set_id(2);
  circle->set_radius(-2);
  status = Put("levels/wall", negative);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("shapes[1].circle.radius"));

  v1::Level too_many_shapes = testing::WallLevel("", 7, 2);
  for (int i = 2; i <= 21; ++i) {
    v1::Shape* shape = too_many_shapes.add_shapes();
    *shape = too_many_shapes.shapes(0);
    shape->set_id(static_cast<uint64_t>(i));
  }
  status = Put("levels/wall", too_many_shapes);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("max_level_shapes"));

  v1::Level too_many_vertices = testing::WallLevel("", 7, 2);
  v1::Polyline* line = too_many_vertices.add_shapes()->mutable_polyline();
  too_many_vertices.mutable_shapes(1)->set_id(2);
  for (int k = 0; k < 17; ++k) Set(line->add_vertices(), k, 0);
  status = Put("levels/wall", too_many_vertices);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("shapes[1].polyline"));

  status = Put("levels/wall", testing::WallLevel("other", 7, 2));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("content.id"));

  status = Put("walls", testing::WallLevel("", 7, 2));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("level"));

  // The first version still answers: the wall at x = 5, tagged 1.
  v1::RunQueriesRequest request;
  request.set_level("levels/wall");
  *request.add_queries() = testing::RayAlongX(1, 0);
  v1::RunQueriesResponse response;
  ASSERT_TRUE(Run(request, &response).ok());
  ASSERT_EQ(response.results(0).cast().hits_size(), 1);
  EXPECT_EQ(response.results(0).cast().hits(0).user_data(), 1u);
}

TEST_F(BadInputE2eTest, UnknownLevelsAreNotFoundForAdministration) {
  v1::DescribeLevelResponse described;
  grpc::Status status = testing::Describe(*levels_, "levels/nope", &described);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("levels/nope"));

  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::DeleteLevelRequest request;
  request.set_level("levels/nope");
  v1::DeleteLevelResponse deleted;
  status = levels_->DeleteLevel(&context, request, &deleted);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("levels/nope"));
}

}  // namespace
}  // namespace collide::server
