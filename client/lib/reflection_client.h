// A client of gRPC server reflection, as grpcurl's `list` and `describe`:
// asks grpc.reflection.v1, and grpc.reflection.v1alpha when the server has
// no v1 (the two have the same messages).
#ifndef COLLIDE_CLIENT_LIB_REFLECTION_CLIENT_H_
#define COLLIDE_CLIENT_LIB_REFLECTION_CLIENT_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/lib/collide_client.h"
#include "grpc/reflection/v1/reflection.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide::client {

class ReflectionClient {
 public:
  // A channel to options.target with options' TLS, metadata and
  // call_timeout (the deadline of each question).
  static absl::StatusOr<ReflectionClient> Connect(const ClientOptions& options);

  // The services the server lists, sorted.
  absl::StatusOr<std::vector<std::string>> ListServices();

  // The methods of `service` ("collide.v1.CollisionService.RunQueries"),
  // in declaration order; NOT_FOUND when the server does not serve it.
  absl::StatusOr<std::vector<std::string>> ListMethods(
      absl::string_view service);

  // `symbol` (a service, method, message, enum or field, fully qualified)
  // as "SYMBOL is a KIND:" and its definition in .proto syntax; NOT_FOUND
  // when the server does not know it.
  absl::StatusOr<std::string> Describe(absl::string_view symbol);

  // Which protocol answered the last question: "v1" or "v1alpha".
  const std::string& protocol() const { return protocol_; }

 private:
  ReflectionClient(std::shared_ptr<grpc::Channel> channel,
                   ClientOptions options);

  // One question on its own stream: its answer, or the call's status, or
  // the answer's error_response as a status.
  absl::StatusOr<grpc::reflection::v1::ServerReflectionResponse> Ask(
      const grpc::reflection::v1::ServerReflectionRequest& request);

  std::shared_ptr<grpc::Channel> channel_;
  ClientOptions options_;
  std::string protocol_ = "v1";
};

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_REFLECTION_CLIENT_H_
