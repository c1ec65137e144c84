// Server reflection against the real collide_server: grpc.reflection.v1 and
// v1alpha both answer on the query port; the admin port lists and
// describes LevelService only; the CLI's list and describe (through
// ReflectionClient) ask v1.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/lib/reflection_client.h"
#include "gmock/gmock.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace collide::client {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class ReflectionE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({"--listen=127.0.0.1:0", "--metrics_listen="}))
        << server_.log();
  }

  ReflectionClient Connect(int port) {
    ClientOptions options;
    options.target = absl::StrCat("127.0.0.1:", port);
    absl::StatusOr<ReflectionClient> client =
        ReflectionClient::Connect(options);
    EXPECT_TRUE(client.ok()) << client.status();
    return *std::move(client);
  }

  testing::ServerProcess server_{COLLIDE_SERVER_BINARY};
};

TEST_F(ReflectionE2eTest, QueryPortAnswersV1ForEveryService) {
  ReflectionClient reflection = Connect(server_.port());
  absl::StatusOr<std::vector<std::string>> services = reflection.ListServices();
  ASSERT_TRUE(services.ok()) << services.status();
  EXPECT_EQ(reflection.protocol(), "v1");
  EXPECT_THAT(*services,
              ElementsAre("collide.v1.CollisionService",
                          "collide.v1.LevelService", "grpc.health.v1.Health",
                          "grpc.reflection.v1.ServerReflection",
                          "grpc.reflection.v1alpha.ServerReflection"));
  absl::StatusOr<std::vector<std::string>> methods =
      reflection.ListMethods("collide.v1.CollisionService");
  ASSERT_TRUE(methods.ok()) << methods.status();
  EXPECT_THAT(*methods, Contains("collide.v1.CollisionService.RunQueries"));
  absl::StatusOr<std::string> service =
      reflection.Describe("collide.v1.CollisionService");
  ASSERT_TRUE(service.ok()) << service.status();
  EXPECT_THAT(*service, HasSubstr("collide.v1.CollisionService is a service:"));
  EXPECT_THAT(*service, HasSubstr("rpc RunQueries"));
  // A message from an imported file (geometry.proto) comes with its file.
  absl::StatusOr<std::string> message = reflection.Describe("collide.v1.Vec2");
  ASSERT_TRUE(message.ok()) << message.status();
  EXPECT_THAT(*message, HasSubstr("message Vec2"));
  EXPECT_EQ(reflection.Describe("collide.v1.NoSuchThing").status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(ReflectionE2eTest, AdminPortDescribesLevelServiceOnly) {
  ReflectionClient reflection = Connect(server_.admin_port());
  absl::StatusOr<std::vector<std::string>> services = reflection.ListServices();
  ASSERT_TRUE(services.ok()) << services.status();
  EXPECT_THAT(*services, Contains("collide.v1.LevelService"));
  EXPECT_THAT(*services, Not(Contains("collide.v1.CollisionService")));
  EXPECT_TRUE(reflection.Describe("collide.v1.LevelService").ok());
  EXPECT_EQ(reflection.Describe("collide.v1.CollisionService").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(reflection.Describe("collide.v1.CollisionService.RunQueries")
                .status()
                .code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(reflection.Describe("collide.v1.RunQueriesRequest").status().code(),
            absl::StatusCode::kNotFound);
}

// Older clients (grpcurl before 1.8.8) ask v1alpha: same answers.
TEST_F(ReflectionE2eTest, V1AlphaStillAnswers) {
  namespace v1alpha = grpc::reflection::v1alpha;
  auto stub = v1alpha::ServerReflection::NewStub(
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_.port()),
                          grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  auto stream = stub->ServerReflectionInfo(&context);
  v1alpha::ServerReflectionRequest request;
  request.set_file_containing_symbol("collide.v1.LevelService");
  ASSERT_TRUE(stream->Write(request));
  ASSERT_TRUE(stream->WritesDone());
  v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_TRUE(stream->Finish().ok());
  ASSERT_TRUE(response.has_file_descriptor_response());
  // The file itself, then geometry.proto and the well-known types it uses.
  EXPECT_GE(response.file_descriptor_response().file_descriptor_proto_size(),
            2);
}

}  // namespace
}  // namespace collide::client
