// The real server for client tests: the collide_server binary
// (COLLIDE_SERVER_BINARY) run as a child process on an ephemeral loopback
// port with the bundled arena level and a short shutdown grace. Client
// tests see the server only through the wire, as users do.
#ifndef COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
#define COLLIDE_TESTS_CLIENT_TEST_SERVER_H_

#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client::testing {

// The started server, or nullptr if it did not start (its log says why).
inline std::unique_ptr<collide::testing::ServerProcess> StartTestServer() {
  auto server =
      std::make_unique<collide::testing::ServerProcess>(COLLIDE_SERVER_BINARY);
  if (!server->Start({"--listen=127.0.0.1:0", "--shutdown_grace=2s"})) {
    return nullptr;
  }
  return server;
}

// A started server and a client connected to it (service and admin
// ports, 20 s per call). SetUp fails the test if either cannot start.
class ServerAndClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartTestServer();
    ASSERT_NE(server_, nullptr) << "collide_server did not start";
    ClientOptions options;
    options.target = absl::StrCat("127.0.0.1:", server_->port());
    options.admin_target = absl::StrCat("127.0.0.1:", server_->admin_port());
    options.call_timeout = absl::Seconds(20);
    absl::StatusOr<std::unique_ptr<CollideClient>> client =
        CollideClient::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
  }

  std::unique_ptr<collide::testing::ServerProcess> server_;
  std::unique_ptr<CollideClient> client_;
};

}  // namespace collide::client::testing

#endif  // COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
