// Several CollideClients to the same target, each over its own channel and
// TCP connection (per server address): gRPC would otherwise share one
// connection between channels with equal arguments (the global subchannel
// pool), and a load test with "4 connections" would really have one.
#ifndef COLLIDE_CLIENT_LOAD_CONNECTIONS_H_
#define COLLIDE_CLIENT_LOAD_CONNECTIONS_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "client/lib/collide_client.h"

namespace collide::client::load {

// `count` (>= 1) clients for `options` (target, load balancing and limits
// as CollideClient::Connect takes them). Errors: INVALID_ARGUMENT for a bad
// target or count. Connections open lazily, on the first call.
absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> ConnectMany(
    const ClientOptions& options, int count);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_CONNECTIONS_H_
