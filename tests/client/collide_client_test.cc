// CollideClient over the generated mock stubs: requests are built as the
// server expects, every call carries a deadline, statuses keep their code
// and message, and only UNAVAILABLE query batches are retried.
#include "client/lib/collide_client.h"

#include <chrono>
#include <memory>
#include <utility>

#include "client/lib/query_builders.h"
#include "collide/v1/collision_service_mock.grpc.pb.h"
#include "collide/v1/level_service_mock.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health_mock.grpc.pb.h"
#include "gtest/gtest.h"

namespace collide::client {
namespace {

using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Invoke;
using ::testing::Return;
using ::testing::SetArgPointee;

// How far a call's deadline may sit from now + call_timeout (scheduling).
constexpr auto kDeadlineSlack = std::chrono::seconds(2);

class CollideClientTest : public ::testing::Test {
 protected:
  CollideClientTest() {
    auto queries = std::make_unique<v1::MockCollisionServiceStub>();
    auto levels = std::make_unique<v1::MockLevelServiceStub>();
    auto health = std::make_unique<grpc::health::v1::MockHealthStub>();
    queries_ = queries.get();
    levels_ = levels.get();
    health_ = health.get();
    options_.call_timeout = absl::Seconds(7);
    client_ = std::make_unique<CollideClient>(
        std::move(queries), std::move(levels), std::move(health), options_);
  }

  // True when `context` carries the client's call deadline.
  bool HasCallDeadline(grpc::ClientContext* context) const {
    const auto expected =
        std::chrono::system_clock::now() + std::chrono::seconds(7);
    const auto deadline = context->deadline();
    return deadline > expected - kDeadlineSlack &&
           deadline < expected + kDeadlineSlack;
  }

  ClientOptions options_;
  v1::MockCollisionServiceStub* queries_ = nullptr;
  v1::MockLevelServiceStub* levels_ = nullptr;
  grpc::health::v1::MockHealthStub* health_ = nullptr;
  std::unique_ptr<CollideClient> client_;
};

TEST_F(CollideClientTest, PutLevelNamesTheLevelAndSetsContentId) {
  v1::PutLevelResponse answer;
  answer.set_created(true);
  answer.mutable_summary()->set_version(4);
  EXPECT_CALL(*levels_, PutLevel(_, _, _))
      .WillOnce(Invoke([&](grpc::ClientContext* context,
                           const v1::PutLevelRequest& request,
                           v1::PutLevelResponse* response) {
        EXPECT_TRUE(HasCallDeadline(context));
        EXPECT_EQ(request.level(), "levels/dock");
        EXPECT_EQ(request.content().id(), "dock");
        EXPECT_EQ(request.content().shapes_size(), 1);
        *response = answer;
        return grpc::Status::OK;
      }));
  v1::Level level;
  level.add_shapes()->set_id(9);
  absl::StatusOr<v1::PutLevelResponse> put = client_->PutLevel("dock", level);
  ASSERT_TRUE(put.ok()) << put.status();
  EXPECT_TRUE(put->created());
  EXPECT_EQ(put->summary().version(), 4);
}

TEST_F(CollideClientTest, ServerErrorKeepsItsCodeAndMessage) {
  EXPECT_CALL(*levels_, DescribeLevel(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::NOT_FOUND,
                                    "level \"levels/x\" not found")));
  absl::StatusOr<v1::LevelSummary> described = client_->DescribeLevel("x");
  EXPECT_EQ(described.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(described.status().message(), "level \"levels/x\" not found");
}

TEST_F(CollideClientTest, ListLevelsReturnsEverySummaryAndSkippedFile) {
  v1::ListLevelsResponse answer;
  answer.add_levels()->set_level("levels/a");
  answer.add_levels()->set_level("levels/b");
  answer.add_skipped_files()->set_file("/dir/c.binpb");
  EXPECT_CALL(*levels_, ListLevels(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(answer), Return(grpc::Status::OK)));
  absl::StatusOr<v1::ListLevelsResponse> levels = client_->ListLevels();
  ASSERT_TRUE(levels.ok()) << levels.status();
  ASSERT_EQ(levels->levels_size(), 2);
  EXPECT_EQ(levels->levels(1).level(), "levels/b");
  ASSERT_EQ(levels->skipped_files_size(), 1);
  EXPECT_EQ(levels->skipped_files(0).file(), "/dir/c.binpb");
}

TEST_F(CollideClientTest, RunQueriesSendsTheBatchInOrderWithADeadline) {
  const v1::Query first = WithRequestId(RayCast({0, 0}, {1, 0}), 1);
  const v1::Query second = WithRequestId(CircleCast({0, 0}, 2, {0, 1}), 2);
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(Invoke([&](grpc::ClientContext* context,
                           const v1::RunQueriesRequest& request,
                           v1::RunQueriesResponse* response) {
        EXPECT_TRUE(HasCallDeadline(context));
        EXPECT_EQ(request.level(), "levels/arena");
        EXPECT_EQ(request.queries_size(), 2);
        EXPECT_EQ(request.queries(1).circle_cast().circle().radius(), 2);
        response->add_results()->set_request_id(1);
        response->add_results()->set_request_id(2);
        response->set_level_version(3);
        return grpc::Status::OK;
      }));
  const v1::Query batch[] = {first, second};
  absl::StatusOr<v1::RunQueriesResponse> answer =
      client_->RunQueries("arena", batch);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->results(1).request_id(), 2u);
  EXPECT_EQ(answer->level_version(), 3);
}

TEST_F(CollideClientTest, UnavailableBatchIsRetriedUpToMaxAttempts) {
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .Times(options_.max_attempts)
      .WillRepeatedly(
          Return(grpc::Status(grpc::StatusCode::UNAVAILABLE, "gone")));
  absl::StatusOr<v1::QueryResult> result =
      client_->RunQuery("arena", RayCast({0, 0}, {1, 0}));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(CollideClientTest, RetriedBatchSucceedsOnALaterAttempt) {
  v1::RunQueriesResponse answer;
  answer.add_results()->set_request_id(5);
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::UNAVAILABLE, "gone")))
      .WillOnce(DoAll(SetArgPointee<2>(answer), Return(grpc::Status::OK)));
  absl::StatusOr<v1::QueryResult> result =
      client_->RunQuery("arena", RayCast({0, 0}, {1, 0}));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->request_id(), 5u);
}

// A draining server cancels calls it cannot finish; the client
// never cancels a unary call itself, so the batch runs again.
TEST_F(CollideClientTest, BatchCancelledByTheServerIsRetried) {
  v1::RunQueriesResponse answer;
  answer.add_results()->set_request_id(5);
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::CANCELLED, "CANCELLED")))
      .WillOnce(DoAll(SetArgPointee<2>(answer), Return(grpc::Status::OK)));
  absl::StatusOr<v1::QueryResult> result =
      client_->RunQuery("arena", RayCast({0, 0}, {1, 0}));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->request_id(), 5u);
}

TEST_F(CollideClientTest, RefusedBatchIsNotRetried) {
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                    "queries: 5000 over max_batch_size")));
  absl::StatusOr<v1::QueryResult> result =
      client_->RunQuery("arena", RayCast({0, 0}, {1, 0}));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST_F(CollideClientTest, RunQueryTurnsTheQuerysOwnErrorIntoItsStatus) {
  v1::RunQueriesResponse answer;
  v1::QueryResult* result = answer.add_results();
  result->mutable_status()->set_code(3);
  result->mutable_status()->set_message(
      "queries[0].circle_cast.circle.radius must be >= 0");
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(answer), Return(grpc::Status::OK)));
  absl::StatusOr<v1::QueryResult> got =
      client_->RunQuery("arena", CircleCast({0, 0}, -1, {1, 0}));
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("radius must be >= 0"));
}

TEST_F(CollideClientTest, RunQueryRejectsAWrongResultCount) {
  EXPECT_CALL(*queries_, RunQueries(_, _, _))
      .WillOnce(Return(grpc::Status::OK));  // no results at all
  absl::StatusOr<v1::QueryResult> got =
      client_->RunQuery("arena", RayCast({0, 0}, {1, 0}));
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInternal);
}

TEST_F(CollideClientTest, HealthNotServingIsUnavailable) {
  grpc::health::v1::HealthCheckResponse answer;
  answer.set_status(grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(answer), Return(grpc::Status::OK)));
  const absl::Status status = client_->CheckHealth();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(status.message(), HasSubstr("NOT_SERVING"));
}

TEST_F(CollideClientTest, MockStubCannotOpenAStream) {
  EXPECT_EQ(client_->OpenStream("arena").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(MakeChannelSpecTest, OneAddressIsUsedAsIs) {
  ClientOptions options;
  options.target = "collide.example:50051";
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->target, "collide.example:50051");
}

TEST(MakeChannelSpecTest, IpListBecomesOneTargetPerFamily) {
  ClientOptions options;
  options.target = "127.0.0.1:1, 127.0.0.1:2,10.0.0.3:3";
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->target, "ipv4:127.0.0.1:1,127.0.0.1:2,10.0.0.3:3");

  options.target = "[::1]:1,[::1]:2";
  spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->target, "ipv6:[::1]:1,[::1]:2");
}

TEST(MakeChannelSpecTest, BadTargetsAreRefusedNamingTheField) {
  ClientOptions options;
  for (const char* target :
       {"", "127.0.0.1:1,[::1]:2", "127.0.0.1:1,host:2", "127.0.0.1,1.2.3.4:5",
        "127.0.0.1:1,1.2.3.4:99999", "300.0.0.1:1,1.2.3.4:5"}) {
    options.target = target;
    const absl::Status status = MakeChannelSpec(options).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << target;
    EXPECT_THAT(status.message(), HasSubstr("target")) << target;
  }
}

// Level changes go to the admin listener's stub, reads do not.
TEST(CollideClientAdminTest, LevelChangesGoToTheAdminStubAndReadsDoNot) {
  auto levels = std::make_unique<v1::MockLevelServiceStub>();
  auto admin = std::make_unique<v1::MockLevelServiceStub>();
  EXPECT_CALL(*levels, PutLevel(_, _, _)).Times(0);
  EXPECT_CALL(*levels, DeleteLevel(_, _, _)).Times(0);
  EXPECT_CALL(*levels, ListLevels(_, _, _)).WillOnce(Return(grpc::Status::OK));
  EXPECT_CALL(*admin, PutLevel(_, _, _)).WillOnce(Return(grpc::Status::OK));
  EXPECT_CALL(*admin, DeleteLevel(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                                    "the admin token is not accepted")));
  EXPECT_CALL(*admin, ListLevels(_, _, _)).Times(0);
  CollideClient client(std::make_unique<v1::MockCollisionServiceStub>(),
                       std::move(levels),
                       std::make_unique<grpc::health::v1::MockHealthStub>(),
                       ClientOptions(), std::move(admin));
  EXPECT_TRUE(client.PutLevel("dock", v1::Level()).ok());
  const absl::Status denied = client.DeleteLevel("dock").status();
  EXPECT_EQ(denied.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(denied.message(), "the admin token is not accepted");
  EXPECT_TRUE(client.ListLevels().ok());
}

TEST(MakeChannelSpecTest, TlsFilesAreReadAndACertificateNeedsItsKey) {
  ClientOptions options;
  EXPECT_FALSE(UsesTls(options));
  options.tls_server_name = "collide.internal";
  EXPECT_TRUE(UsesTls(options));
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();  // the system's CAs
  options.tls_ca_file = "/nonexistent/ca.pem";
  const absl::Status missing = MakeChannelSpec(options).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(missing.message(),
              HasSubstr("tls_ca_file: cannot open /nonexistent/ca.pem"));
  options.tls_ca_file.clear();
  options.tls_cert_file = "/nonexistent/client.pem";
  EXPECT_EQ(MakeChannelSpec(options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(MakeChannelSpecTest, UnknownPolicyAndZeroAttemptsAreRefused) {
  ClientOptions options;
  options.load_balancing = "grpclb";
  EXPECT_THAT(MakeChannelSpec(options).status().message(),
              HasSubstr("load_balancing"));
  options.load_balancing = "pick_first";
  options.max_attempts = 0;
  EXPECT_THAT(MakeChannelSpec(options).status().message(),
              HasSubstr("max_attempts"));
}

// `collide-cli levels` prints "levels/arena", which --level must take as
// well as "arena" (never "levels/levels/arena").
TEST(LevelNameTest, IdAndFullNameNameTheSameLevel) {
  EXPECT_EQ(LevelName("arena"), "levels/arena");
  EXPECT_EQ(LevelName("levels/arena"), "levels/arena");
  EXPECT_EQ(LevelId("levels/arena"), "arena");
  EXPECT_EQ(LevelId("arena"), "arena");
  // Only the leading resource prefix is a name's: an id may contain '/'.
  EXPECT_EQ(LevelName("maps/levels/x"), "levels/maps/levels/x");
}

}  // namespace
}  // namespace collide::client
