// Answers calls to methods the server does not serve. gRPC's own answer is
// UNIMPLEMENTED with an empty message, which leaves a user guessing between
// a typo, a wrong package version (collide.v2?) and a wrong port; this one
// names the method asked for and the services that are served.
#ifndef COLLIDE_SERVER_RPC_UNKNOWN_METHOD_SERVICE_H_
#define COLLIDE_SERVER_RPC_UNKNOWN_METHOD_SERVICE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/grpcpp.h"

namespace collide::server {

// Registered with ServerBuilder::RegisterCallbackGenericService, it gets
// every call no registered service has a method for, unary or streaming,
// and finishes it at once, reading nothing, with UNIMPLEMENTED "unknown
// method /x.Y/Z; this server serves collide.v1.CollisionService, ... (see
// server reflection for their methods)". The method name is the caller's:
// escaped and cut like a log value (log.h). Logs nothing, so unknown calls
// cannot flood the log.
class UnknownMethodService final : public grpc::CallbackGenericService {
 public:
  // `services`: the full names of the services served, for the message.
  explicit UnknownMethodService(std::vector<std::string> services);

  grpc::ServerGenericBidiReactor* CreateReactor(
      grpc::GenericCallbackServerContext* context) override;

  // The status a call to `method` gets.
  absl::Status UnknownMethodStatus(absl::string_view method) const;

 private:
  const std::string served_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_UNKNOWN_METHOD_SERVICE_H_
