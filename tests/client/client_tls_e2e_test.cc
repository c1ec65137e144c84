// The client library, collide-cli and collide-load against the
// real server serving mutual TLS with an admin token (certificates made at
// test time by tests/support/make_test_certs.sh with Debian's openssl).
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"
#include "tests/support/temp_dir.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client {
namespace {

using ::testing::HasSubstr;

struct Outcome {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

// Runs `command` through the shell (paths here have no spaces).
Outcome RunCommand(const std::string& command) {
  Outcome outcome;
  FILE* pipe = popen(absl::StrCat(command, " 2>&1").c_str(), "r");
  if (pipe == nullptr) return outcome;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    outcome.out.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

class ClientTlsE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_EQ(std::system(absl::StrCat("bash ", COLLIDE_MAKE_TEST_CERTS, " ",
                                       dir_.path(), " client >/dev/null 2>&1")
                              .c_str()),
              0);
    std::ofstream(Path("token")) << "client-test-token\n";
    ASSERT_TRUE(
        server_.Start({"--listen=127.0.0.1:0", "--shutdown_grace=2s",
                       absl::StrCat("--tls_cert_file=", Path("server.pem")),
                       absl::StrCat("--tls_key_file=", Path("server.key")),
                       absl::StrCat("--tls_client_ca_file=", Path("ca.pem")),
                       absl::StrCat("--admin_token_file=", Path("token"))}))
        << server_.log();
  }
  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_.path(), "/", name);
  }
  // Options that pass: mutual TLS and the admin listener with the token.
  ClientOptions Options() const {
    ClientOptions options;
    options.target = absl::StrCat("127.0.0.1:", server_.port());
    options.admin_target = absl::StrCat("127.0.0.1:", server_.admin_port());
    options.call_timeout = absl::Seconds(10);
    options.tls_ca_file = Path("ca.pem");
    options.tls_cert_file = Path("client.pem");
    options.tls_key_file = Path("client.key");
    options.admin_token = "client-test-token";
    return options;
  }
  // The flags of Options() for collide-cli and collide-load.
  std::string TlsFlags() const {
    return absl::StrCat(" --address=127.0.0.1:", server_.port(),
                        " --tls_ca_file=", Path("ca.pem"),
                        " --tls_cert_file=", Path("client.pem"),
                        " --tls_key_file=", Path("client.key"));
  }

  testing::TempDir dir_;
  collide::testing::ServerProcess server_{COLLIDE_SERVER_BINARY};
};

v1::Level Wall() {
  v1::Level level;
  v1::Shape* shape = level.add_shapes();
  shape->set_id(1);
  shape->mutable_segment()->mutable_p1()->set_x(5);
  shape->mutable_segment()->mutable_p1()->set_y(-5);
  shape->mutable_segment()->mutable_p2()->set_x(5);
  shape->mutable_segment()->mutable_p2()->set_y(5);
  return level;
}

TEST_F(ClientTlsE2eTest, LibraryPutsOnTheAdminListenerAndQueriesOverTls) {
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(Options());
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->PutLevel("wall", Wall()).ok());
  absl::StatusOr<v1::QueryResult> hit =
      (*client)->RunQuery("wall", RayCast({0, 0}, {10, 0}));
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(hit->cast().hits(0).shape_id(), 1u);

  ClientOptions no_token = Options();
  no_token.admin_token.clear();
  client = CollideClient::Connect(no_token);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->DeleteLevel("wall").status().code(),
            absl::StatusCode::kUnauthenticated);
  ClientOptions wrong_token = Options();
  wrong_token.admin_token = "guess";
  client = CollideClient::Connect(wrong_token);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->DeleteLevel("wall").status().code(),
            absl::StatusCode::kPermissionDenied);
  ClientOptions query_port = Options();
  query_port.admin_target.clear();
  client = CollideClient::Connect(query_port);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->DeleteLevel("wall").status().code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_TRUE((*client)->DescribeLevel("wall").ok());
}

TEST_F(ClientTlsE2eTest, ServerNameOverrideAndMissingFilesAreHonoured) {
  // The certificate names localhost and 127.0.0.1.
  ClientOptions options = Options();
  options.tls_server_name = "localhost";
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(options);
  ASSERT_TRUE(client.ok());
  EXPECT_TRUE((*client)->CheckHealth().ok());
  options.tls_server_name = "collide.example.com";
  client = CollideClient::Connect(options);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->CheckHealth().code(), absl::StatusCode::kUnavailable);
  // Without a client certificate the handshake is refused.
  options = Options();
  options.tls_cert_file.clear();
  options.tls_key_file.clear();
  client = CollideClient::Connect(options);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->CheckHealth().code(), absl::StatusCode::kUnavailable);

  options = Options();
  options.tls_ca_file = Path("missing.pem");
  const absl::Status missing = CollideClient::Connect(options).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(missing.message(), HasSubstr("tls_ca_file: cannot open"));
  options = Options();
  options.tls_key_file.clear();
  EXPECT_EQ(CollideClient::Connect(options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(ClientTlsE2eTest, CliPutsWithTheTokenOverMutualTls) {
  const std::string cli =
      absl::StrCat(COLLIDE_CLI_BINARY, TlsFlags(),
                   " --admin_address=127.0.0.1:", server_.admin_port());
  Outcome health = RunCommand(cli + " health");
  EXPECT_EQ(health.exit_code, 0) << health.out;
  Outcome refused = RunCommand(cli + " delete arena");
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_THAT(refused.out, HasSubstr("UNAUTHENTICATED"));
  Outcome deleted = RunCommand(absl::StrCat(
      cli, " --admin_token_file=", Path("token"), " delete arena"));
  EXPECT_EQ(deleted.exit_code, 0) << deleted.out;
  Outcome missing = RunCommand(cli + " --admin_token_file=/nonexistent levels");
  EXPECT_EQ(missing.exit_code, 1) << missing.out;
  EXPECT_THAT(missing.out, HasSubstr("--admin_token_file: cannot open"));
  Outcome plaintext = RunCommand(absl::StrCat(
      COLLIDE_CLI_BINARY, " --timeout=3s --address=127.0.0.1:", server_.port(),
      " levels"));
  EXPECT_EQ(plaintext.exit_code, 1) << plaintext.out;
}

TEST_F(ClientTlsE2eTest, LoadTesterRunsOverMutualTls) {
  Outcome load = RunCommand(absl::StrCat(
      COLLIDE_LOAD_BINARY, TlsFlags(), " --warmup=0s --count=20 --progress=0"));
  EXPECT_EQ(load.exit_code, 0) << load.out;
  EXPECT_THAT(load.out, HasSubstr("errors: none"));
}

}  // namespace
}  // namespace collide::client
