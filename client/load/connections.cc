#include "client/load/connections.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "grpc/grpc.h"

namespace collide::client::load {

absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> ConnectMany(
    const ClientOptions& options, int count) {
  if (count < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("connections must be >= 1, not ", count));
  }
  std::vector<std::unique_ptr<CollideClient>> clients;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
    if (!spec.ok()) return spec.status();
    // A channel-local subchannel pool gives every channel its own
    // connections; the index keeps the channels' arguments distinct too.
    spec->arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    spec->arguments.SetInt("collide.load.connection", i);
    std::shared_ptr<grpc::Channel> channel = grpc::CreateCustomChannel(
        spec->target, spec->credentials, spec->arguments);
    clients.push_back(std::make_unique<CollideClient>(
        v1::CollisionService::NewStub(channel),
        v1::LevelService::NewStub(channel),
        grpc::health::v1::Health::NewStub(channel), options));
  }
  return clients;
}

}  // namespace collide::client::load
