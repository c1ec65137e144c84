// TLS and the admin listener: the collide_server binary as a child process
// with certificates made at test time by Debian's openssl
// (tests/support/make_test_certs.sh), driven over the wire: TLS and mutual
// TLS handshakes accepted and refused, certificates rotated in place, and
// level changes only on the admin listener with the right credentials.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif
#ifndef COLLIDE_MAKE_TEST_CERTS
#error "COLLIDE_MAKE_TEST_CERTS must name tests/support/make_test_certs.sh"
#endif

namespace collide::server {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

class ServerProcess : public ::collide::testing::ServerProcess {
 public:
  ServerProcess() : ::collide::testing::ServerProcess(COLLIDE_SERVER_BINARY) {}
};

// A CA in `dir` (ca.pem), a server certificate for 127.0.0.1 (server.pem,
// server.key), and a client certificate per name (NAME.pem, NAME.key).
bool MakeCerts(const std::string& dir, const std::string& clients = "") {
  return std::system(absl::StrCat("bash ", COLLIDE_MAKE_TEST_CERTS, " ", dir,
                                  " ", clients, " >/dev/null 2>&1")
                         .c_str()) == 0;
}

void WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

// Replaces `to` with a copy of `from` by rename, as a Kubernetes secret
// update or cert-manager does: a reader sees the old file or the new one.
void ReplaceFile(const std::string& from, const std::string& to) {
  WriteFile(to + ".new", ReadFile(from));
  std::filesystem::rename(to + ".new", to);
}

// What a client presents: CA to trust, and optionally its own certificate.
struct ClientTls {
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
};

// A new channel (its own connection, so each one is a new handshake).
std::shared_ptr<grpc::Channel> Channel(int port,
                                       const std::optional<ClientTls>& tls) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  std::shared_ptr<grpc::ChannelCredentials> credentials =
      grpc::InsecureChannelCredentials();
  if (tls.has_value()) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadFile(tls->ca_file);
    if (!tls->cert_file.empty()) {
      ssl.pem_cert_chain = ReadFile(tls->cert_file);
      ssl.pem_private_key = ReadFile(tls->key_file);
    }
    credentials = grpc::SslCredentials(ssl);
  }
  return grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", port),
                                   credentials, args);
}

// ListLevels over `channel`; a refused handshake is UNAVAILABLE.
grpc::Status List(const std::shared_ptr<grpc::Channel>& channel) {
  grpc::ClientContext context;
  context.set_deadline(testing::Deadline(10));
  v1::ListLevelsResponse response;
  return v1::LevelService::NewStub(channel)->ListLevels(
      &context, v1::ListLevelsRequest(), &response);
}

// DeleteLevel levels/arena, with `token` as a bearer token unless empty.
grpc::Status DeleteArena(const std::shared_ptr<grpc::Channel>& channel,
                         const std::string& token = "") {
  grpc::ClientContext context;
  context.set_deadline(testing::Deadline(10));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  v1::DeleteLevelRequest request;
  request.set_level("levels/arena");
  v1::DeleteLevelResponse response;
  return v1::LevelService::NewStub(channel)->DeleteLevel(&context, request,
                                                         &response);
}

grpc::Status PutWall(const std::shared_ptr<grpc::Channel>& channel,
                     const std::string& token = "") {
  grpc::ClientContext context;
  context.set_deadline(testing::Deadline(10));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  v1::PutLevelRequest request;
  request.set_level("levels/wall");
  *request.mutable_content() = testing::WallLevel("wall", 3, 33);
  v1::PutLevelResponse response;
  return v1::LevelService::NewStub(channel)->PutLevel(&context, request,
                                                      &response);
}

// The arena's version, or -1 when it is not served.
int64_t ArenaVersion(const std::shared_ptr<grpc::Channel>& channel) {
  v1::DescribeLevelResponse described;
  const grpc::Status status = testing::Describe(
      *v1::LevelService::NewStub(channel), "levels/arena", &described);
  return status.ok() ? described.summary().version() : -1;
}

// Wrong or missing tokens change nothing; the right one works.
void AdminCallsNeedTheRightTokenOn(
    const std::shared_ptr<grpc::Channel>& admin) {
  const grpc::Status none = DeleteArena(admin);
  EXPECT_EQ(none.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(none.error_message(), HasSubstr("Bearer"));
  for (const std::string& wrong :
       {std::string("s3cret-toke"), std::string("s3cret-tokenX"),
        std::string("S3CRET-TOKEN")}) {
    const grpc::Status denied = DeleteArena(admin, wrong);
    EXPECT_EQ(denied.error_code(), grpc::StatusCode::PERMISSION_DENIED)
        << wrong;
    EXPECT_THAT(denied.error_message(), ::testing::Not(HasSubstr(wrong)));
    EXPECT_EQ(PutWall(admin, wrong).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline(10));
    context.AddMetadata("authorization", "Basic s3cret-token");
    v1::DeleteLevelRequest request;
    request.set_level("levels/arena");
    v1::DeleteLevelResponse response;
    EXPECT_EQ(v1::LevelService::NewStub(admin)
                  ->DeleteLevel(&context, request, &response)
                  .error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }
  // Nothing changed.
  EXPECT_EQ(ArenaVersion(admin), 1);
  v1::DescribeLevelResponse wall;
  EXPECT_EQ(
      testing::Describe(*v1::LevelService::NewStub(admin), "levels/wall", &wall)
          .error_code(),
      grpc::StatusCode::NOT_FOUND);

  EXPECT_TRUE(PutWall(admin, "s3cret-token").ok());
  EXPECT_TRUE(DeleteArena(admin, "s3cret-token").ok());
  EXPECT_EQ(ArenaVersion(admin), -1);
}

class SecurityProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(MakeCerts(Path("a"), "client ops")) << "openssl failed";
    WriteFile(Path("token"), "s3cret-token\n");
  }
  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_.path(), "/", name);
  }
  // --tls_* flags serving the CA `ca`'s server certificate.
  std::vector<std::string> TlsArgs(const std::string& ca) const {
    return {"--listen=127.0.0.1:0",
            absl::StrCat("--tls_cert_file=", Path(ca), "/server.pem"),
            absl::StrCat("--tls_key_file=", Path(ca), "/server.key")};
  }
  ClientTls Trusting(const std::string& ca,
                     const std::string& client = "") const {
    ClientTls tls;
    tls.ca_file = Path(ca + "/ca.pem");
    if (!client.empty()) {
      tls.cert_file = Path(absl::StrCat(ca, "/", client, ".pem"));
      tls.key_file = Path(absl::StrCat(ca, "/", client, ".key"));
    }
    return tls;
  }

  testing::TempDir dir_;
};

TEST_F(SecurityProcessTest, TlsServesClientsThatTrustItsCaOnly) {
  ASSERT_TRUE(MakeCerts(Path("other")));
  ServerProcess server;
  ASSERT_TRUE(server.Start(TlsArgs("a"))) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("transport: TLS"));

  EXPECT_TRUE(List(Channel(server.port(), Trusting("a"))).ok());
  // The admin listener serves the same certificate.
  EXPECT_TRUE(List(Channel(server.admin_port(), Trusting("a"))).ok());
  const grpc::Status wrong_ca = List(Channel(server.port(), Trusting("other")));
  EXPECT_EQ(wrong_ca.error_code(), grpc::StatusCode::UNAVAILABLE)
      << wrong_ca.error_message();
  const grpc::Status plaintext = List(Channel(server.port(), std::nullopt));
  EXPECT_EQ(plaintext.error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(SecurityProcessTest, MutualTlsRefusesClientsWithoutACertificateOfItsCa) {
  ASSERT_TRUE(MakeCerts(Path("other"), "client"));
  ServerProcess server;
  std::vector<std::string> args = TlsArgs("a");
  args.push_back(absl::StrCat("--tls_client_ca_file=", Path("a/ca.pem")));
  ASSERT_TRUE(server.Start(args)) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("mutual TLS"));

  EXPECT_TRUE(List(Channel(server.port(), Trusting("a", "client"))).ok());
  const grpc::Status no_cert = List(Channel(server.port(), Trusting("a")));
  EXPECT_EQ(no_cert.error_code(), grpc::StatusCode::UNAVAILABLE)
      << no_cert.error_message();
  // A client certificate from another CA.
  ClientTls foreign = Trusting("a");
  foreign.cert_file = Path("other/client.pem");
  foreign.key_file = Path("other/client.key");
  EXPECT_EQ(List(Channel(server.port(), foreign)).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

// cert-manager and Kubernetes secrets rewrite the files in place: new
// connections get the new certificate within --tls_refresh_interval.
TEST_F(SecurityProcessTest, RotatedCertificatesAreServedWithoutARestart) {
  ASSERT_TRUE(MakeCerts(Path("b")));
  std::filesystem::create_directory(Path("serving"));
  ReplaceFile(Path("a/server.pem"), Path("serving/server.pem"));
  ReplaceFile(Path("a/server.key"), Path("serving/server.key"));
  ServerProcess server;
  std::vector<std::string> args = TlsArgs("serving");
  args.push_back("--tls_refresh_interval=1s");
  ASSERT_TRUE(server.Start(args)) << server.log();
  ASSERT_TRUE(List(Channel(server.port(), Trusting("a"))).ok());
  ASSERT_FALSE(List(Channel(server.port(), Trusting("b"))).ok());

  // Key first: until the certificate follows, the pair does not match and
  // gRPC keeps serving the old one.
  ReplaceFile(Path("b/server.key"), Path("serving/server.key"));
  ReplaceFile(Path("b/server.pem"), Path("serving/server.pem"));
  const auto rotated = Clock::now();
  bool connected = false;
  while (!connected && Clock::now() - rotated < std::chrono::seconds(15)) {
    connected = List(Channel(server.port(), Trusting("b"))).ok();
    if (!connected) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(connected) << "not rotated within 15 s:\n" << server.log();
  EXPECT_EQ(List(Channel(server.port(), Trusting("a"))).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(SecurityProcessTest, LevelChangesAreRefusedOnTheQueryPort) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0"})) << server.log();
  ASSERT_NE(server.admin_port(), 0);
  const auto query = Channel(server.port(), std::nullopt);
  const grpc::Status put = PutWall(query);
  EXPECT_EQ(put.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(put.error_message(), HasSubstr("admin listener (127.0.0.1:0)"));
  EXPECT_EQ(DeleteArena(query).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  // Reads stay on the query port; nothing changed.
  EXPECT_EQ(ArenaVersion(query), 1);
  // A loopback admin listener without credentials takes local callers.
  const auto admin = Channel(server.admin_port(), std::nullopt);
  EXPECT_TRUE(PutWall(admin).ok());
  EXPECT_TRUE(DeleteArena(admin).ok());
  EXPECT_EQ(ArenaVersion(query), -1);
}

TEST_F(SecurityProcessTest, AdminCallsNeedTheRightToken) {
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0",
                    absl::StrCat("--admin_token_file=", Path("token"))}))
      << server.log();
  {
    // Closed before the SIGTERM below: an idle channel would hold up the
    // drain until gRPC's backup poller answers the shutdown ping (5 s).
    const auto admin = Channel(server.admin_port(), std::nullopt);
    AdminCallsNeedTheRightTokenOn(admin);
  }
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0));
  const std::string log = server.log();
  EXPECT_THAT(log, HasSubstr("level changes need: bearer token"));
  EXPECT_THAT(log, HasSubstr("DeleteLevel from ipv4:127.0.0.1:"));
  EXPECT_THAT(log, HasSubstr("refused: UNAUTHENTICATED"));
  EXPECT_THAT(log, ::testing::Not(HasSubstr("s3cret")));
}

TEST_F(SecurityProcessTest, ListedClientCertificatesAuthoriseAdminCalls) {
  ServerProcess server;
  std::vector<std::string> args = TlsArgs("a");
  args.push_back(absl::StrCat("--tls_client_ca_file=", Path("a/ca.pem")));
  args.push_back("--admin_client_names=ops");
  ASSERT_TRUE(server.Start(args)) << server.log();

  const grpc::Status game =
      DeleteArena(Channel(server.admin_port(), Trusting("a", "client")));
  EXPECT_EQ(game.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(game.error_message(), HasSubstr("client"));
  EXPECT_EQ(ArenaVersion(Channel(server.port(), Trusting("a", "client"))), 1);
  EXPECT_TRUE(
      DeleteArena(Channel(server.admin_port(), Trusting("a", "ops"))).ok());
  EXPECT_EQ(ArenaVersion(Channel(server.port(), Trusting("a", "client"))), -1);
}

TEST_F(SecurityProcessTest, ReadOnlyReplicaServesNoLevelChanges) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--admin_listen=none"}))
      << server.log();
  EXPECT_EQ(server.admin_port(), 0);
  EXPECT_THAT(server.log(), HasSubstr("read-only replica"));
  const auto query = Channel(server.port(), std::nullopt);
  const grpc::Status put = PutWall(query);
  EXPECT_EQ(put.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(put.error_message(), HasSubstr("read-only replica"));
  EXPECT_EQ(ArenaVersion(query), 1);
}

// A port free a moment ago, for the test that needs listen = admin_listen.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

TEST_F(SecurityProcessTest, AdminOnTheQueryPortOnlyWhenAskedByAddress) {
  const int port = FreePort();
  ASSERT_NE(port, 0);
  const std::string listen = absl::StrCat("127.0.0.1:", port);
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=" + listen, "--admin_listen=" + listen,
                    absl::StrCat("--admin_token_file=", Path("token"))}))
      << server.log();
  EXPECT_EQ(server.admin_port(), 0);
  const auto query = Channel(server.port(), std::nullopt);
  EXPECT_EQ(DeleteArena(query).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(DeleteArena(query, "s3cret-token").ok());
}

// Two servers on one machine with the default admin port: the second says
// which flag to change rather than share or silently skip it.
TEST_F(SecurityProcessTest, AnAdminPortInUseStopsTheStartNamingTheFlag) {
  ServerProcess first;
  ASSERT_TRUE(first.Start({"--listen=127.0.0.1:0"})) << first.log();
  ServerProcess second;
  const std::string taken = absl::StrCat("127.0.0.1:", first.admin_port());
  EXPECT_FALSE(
      second.Start({"--listen=127.0.0.1:0", "--admin_listen=" + taken}));
  EXPECT_EQ(second.Wait(15), std::optional<int>(1)) << second.log();
  EXPECT_THAT(second.log(),
              HasSubstr("cannot listen on " + taken + " (admin_listen)"));
}

TEST_F(SecurityProcessTest, UnsafeOrBrokenSecurityFlagsStopTheStart) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--admin_listen=0.0.0.0:0"}, 2, "--admin_listen \"0.0.0.0:0\""},
      {{absl::StrCat("--tls_cert_file=", Path("a/server.pem"))},
       2,
       "tls_key_file"},
      {{absl::StrCat("--tls_client_ca_file=", Path("a/ca.pem"))},
       2,
       "tls_client_ca_file needs tls_cert_file"},
      {{"--admin_client_names=ops"}, 2, "admin_client_names needs mutual TLS"},
      {{absl::StrCat("--tls_cert_file=", Path("missing.pem")),
        absl::StrCat("--tls_key_file=", Path("a/server.key"))},
       1,
       "tls_cert_file: cannot open " + Path("missing.pem")},
      {{absl::StrCat("--tls_cert_file=", Path("a/server.pem")),
        absl::StrCat("--tls_key_file=", Path("token"))},
       1,
       "tls_key_file: " + Path("token") + " holds no PEM block"},
      {{absl::StrCat("--admin_token_file=", Path("missing"))},
       1,
       "--admin_token_file: cannot open " + Path("missing")},
  };
  for (const Case& c : cases) {
    ServerProcess server;
    std::vector<std::string> args = c.args;
    args.push_back("--listen=127.0.0.1:0");
    EXPECT_FALSE(server.Start(args)) << c.message;
    EXPECT_EQ(server.Wait(15), std::optional<int>(c.exit_code))
        << c.message << "\n"
        << server.log();
    EXPECT_THAT(server.log(), HasSubstr(c.message));
  }
  // With a token the same address is allowed.
  ServerProcess exposed;
  EXPECT_TRUE(
      exposed.Start({"--listen=127.0.0.1:0", "--admin_listen=0.0.0.0:0",
                     absl::StrCat("--admin_token_file=", Path("token"))}))
      << exposed.log();
  // Though over plaintext the token crosses the network readable.
  EXPECT_THAT(exposed.log(),
              HasSubstr("WARNING: the admin listener 0.0.0.0:0 is plaintext"));
}

}  // namespace
}  // namespace collide::server
