#include "server/rpc/unknown_method_service.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/grpcpp.h"
#include "server/ops/log.h"
#include "server/rpc/status_convert.h"

namespace collide::server {
namespace {

// Finishes its call as soon as it is made.
class RefusingReactor final : public grpc::ServerGenericBidiReactor {
 public:
  explicit RefusingReactor(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace

UnknownMethodService::UnknownMethodService(std::vector<std::string> services)
    : served_(absl::StrJoin(services, ", ")) {}

absl::Status UnknownMethodService::UnknownMethodStatus(
    absl::string_view method) const {
  return absl::UnimplementedError(
      absl::StrCat("unknown method ", LogValue(method), "; this server serves ",
                   served_, " (server reflection lists their methods)"));
}

grpc::ServerGenericBidiReactor* UnknownMethodService::CreateReactor(
    grpc::GenericCallbackServerContext* context) {
  return new RefusingReactor(
      ToGrpcStatus(UnknownMethodStatus(context->method())));
}

}  // namespace collide::server
