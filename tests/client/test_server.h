// The real server for client tests: the collide_server binary
// (COLLIDE_SERVER_BINARY) run as a child process on an ephemeral loopback
// port with the bundled arena level and a short shutdown grace. Client
// tests see the server only through the wire, as users do.
#ifndef COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
#define COLLIDE_TESTS_CLIENT_TEST_SERVER_H_

#include <memory>

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

}  // namespace collide::client::testing

#endif  // COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
