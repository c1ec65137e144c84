// Status conversion: codes map one to one, messages are kept.
#include "server/rpc/status_convert.h"

#include "absl/status/status.h"
#include "collide/v1/collision_service.pb.h"
#include "grpcpp/support/status.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

TEST(ToGrpcStatusTest, OkIsOk) {
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
}

TEST(ToGrpcStatusTest, EveryCodeMapsToTheSameCodeWithItsMessage) {
  for (int code = 1; code <= 16; ++code) {
    const absl::Status status(static_cast<absl::StatusCode>(code), "why");
    const grpc::Status grpc_status = ToGrpcStatus(status);
    EXPECT_EQ(static_cast<int>(grpc_status.error_code()), code);
    EXPECT_EQ(grpc_status.error_message(), "why");
  }
  EXPECT_EQ(ToGrpcStatus(absl::InvalidArgumentError("x")).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ToGrpcStatus(absl::NotFoundError("x")).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ToGrpcStatus(absl::ResourceExhaustedError("x")).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST(ToResultStatusTest, OkHasCodeZeroAndNoMessage) {
  const v1::ResultStatus status = ToResultStatus(absl::OkStatus());
  EXPECT_EQ(status.code(), 0);
  EXPECT_TRUE(status.message().empty());
}

TEST(ToResultStatusTest, ErrorKeepsCodeAndMessage) {
  const v1::ResultStatus status =
      ToResultStatus(absl::InvalidArgumentError("queries[1].x must be finite"));
  EXPECT_EQ(status.code(), 3);
  EXPECT_EQ(status.message(), "queries[1].x must be finite");
}

}  // namespace
}  // namespace collide::server
