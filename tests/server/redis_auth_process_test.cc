// collide_server against a Redis that requires a password (the ACL user of
// docker/k8s-fleet, limited to the fleet's keys): with
// --level_store_user and --level_store_password_file (read from a file, as
// a mounted Kubernetes Secret) a put reaches Redis; with a wrong password
// writes fail with UNAVAILABLE and no log line carries the password.
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/redis_process.h"
#include "tests/support/server_process.h"
#include "tests/support/temp_dir.h"

namespace collide::server {
namespace {

using collide::testing::ServerProcess;

constexpr char kPassword[] = "fleet-s3cret";

class RedisAuthProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    redis_.set_cli_auth(absl::StrCat("--user collide --pass ", kPassword,
                                     " --no-auth-warning"));
    ASSERT_TRUE(redis_.Start(collide::testing::FreeLoopbackPort(),
                             // The ACL of docker/k8s-fleet: the fleet's keys
                             // and channels only, no dangerous commands.
                             {"--user", "default", "off", "--user", "collide",
                              "on", absl::StrCat(">", kPassword), "~auth:*",
                              "&auth:*", "+@all", "-@dangerous"}))
        << "redis-server did not start";
  }

  // Starts a replica with `password` in a file of its own.
  bool StartReplica(ServerProcess& server, const std::string& password) {
    const std::string file = absl::StrCat(dir_.path(), "/password");
    std::ofstream(file) << password << "\n";
    return server.Start(
        {"--listen=127.0.0.1:0", "--worker_threads=2", "--metrics_listen=",
         absl::StrCat("--level_store=redis://127.0.0.1:", redis_.port(),
                      "/auth"),
         "--level_store_user=collide",
         absl::StrCat("--level_store_password_file=", file)});
  }

  grpc::Status Put(ServerProcess& server, const std::string& id) {
    auto admin =
        v1::LevelService::NewStub(testing::Connect(server.admin_port()));
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline());
    v1::PutLevelRequest request;
    request.set_level(absl::StrCat("levels/", id));
    *request.mutable_content() = testing::WallLevel(id, 5, 1);
    v1::PutLevelResponse response;
    return admin->PutLevel(&context, request, &response);
  }

  collide::testing::TempDir dir_;
  collide::testing::RedisProcess redis_{dir_.path()};
};

TEST_F(RedisAuthProcessTest, APasswordFromAFileReachesRedis) {
  ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(StartReplica(server, kPassword)) << server.log();
  const grpc::Status put = Put(server, "locked");
  ASSERT_TRUE(put.ok()) << put.error_message() << "\n" << server.log();
  EXPECT_EQ(redis_.Cli("EXISTS auth:index"), "1\n");
  EXPECT_EQ(server.log().find(kPassword), std::string::npos);
}

TEST_F(RedisAuthProcessTest, AWrongPasswordRefusesWritesAndStaysUnlogged) {
  ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(StartReplica(server, "not-the-password")) << server.log();
  const grpc::Status put = Put(server, "locked");
  EXPECT_EQ(put.error_code(), grpc::StatusCode::UNAVAILABLE)
      << put.error_message();
  EXPECT_NE(server.log().find("WRONGPASS"), std::string::npos) << server.log();
  EXPECT_EQ(server.log().find("not-the-password"), std::string::npos);
}

}  // namespace
}  // namespace collide::server
