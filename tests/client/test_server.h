// The real server for client tests: started in-process on an ephemeral
// loopback port with the bundled arena level and a short shutdown grace.
#ifndef COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
#define COLLIDE_TESTS_CLIENT_TEST_SERVER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "server/collide_server.h"

namespace collide::client::testing {

inline absl::StatusOr<std::unique_ptr<server::CollideServer>>
StartTestServer() {
  server::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.shutdown_grace = absl::Seconds(2);
  return server::CollideServer::Start(options);
}

}  // namespace collide::client::testing

#endif  // COLLIDE_TESTS_CLIENT_TEST_SERVER_H_
