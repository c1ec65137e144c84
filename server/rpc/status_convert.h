// The one place absl::Status becomes a gRPC status or a ResultStatus. Codes
// map one to one (absl::StatusCode and grpc::StatusCode share their values).
#ifndef COLLIDE_SERVER_RPC_STATUS_CONVERT_H_
#define COLLIDE_SERVER_RPC_STATUS_CONVERT_H_

#include "absl/status/status.h"
#include "collide/v1/collision_service.pb.h"
#include "grpcpp/support/status.h"

namespace collide::server {

// The gRPC status with the same code and message (OK for OK).
grpc::Status ToGrpcStatus(const absl::Status& status);

// The same as a wire ResultStatus (code 0 and no message for OK), for
// errors reported inside a response: one query's result, or a refused batch
// on the stream.
v1::ResultStatus ToResultStatus(const absl::Status& status);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_STATUS_CONVERT_H_
