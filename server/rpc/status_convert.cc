#include "server/rpc/status_convert.h"

#include <string>

#include "absl/status/status.h"
#include "collide/v1/collision_service.pb.h"
#include "grpcpp/support/status.h"

namespace collide::server {

// absl::StatusCode and grpc::StatusCode both use the google.rpc.Code values,
// so the mapping is the identity on the number.
static_assert(static_cast<int>(absl::StatusCode::kResourceExhausted) ==
              static_cast<int>(grpc::StatusCode::RESOURCE_EXHAUSTED));
static_assert(static_cast<int>(absl::StatusCode::kUnauthenticated) ==
              static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

v1::ResultStatus ToResultStatus(const absl::Status& status) {
  v1::ResultStatus result;
  if (status.ok()) return result;
  result.set_code(static_cast<int>(status.code()));
  result.set_message(std::string(status.message()));
  return result;
}

}  // namespace collide::server
