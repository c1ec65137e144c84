// gRPC server reflection, grpc.reflection.v1 and grpc.reflection.v1alpha
// (the same messages under two packages; grpcurl 1.8.8 and later ask v1
// first, older clients v1alpha), answered from the process's generated
// descriptor pool and limited to the services a port serves: the admin
// port lists LevelService and answers no question about CollisionService.
#ifndef COLLIDE_SERVER_RPC_REFLECTION_SERVICE_H_
#define COLLIDE_SERVER_RPC_REFLECTION_SERVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "grpcpp/impl/codegen/service_type.h"

namespace collide::server {

// Both reflection services of one port. Register v1() and v1alpha() with
// the port's grpc::ServerBuilder; this object must outlive the server.
class ReflectionServices {
 public:
  // `services`: the fully qualified names the port serves, as list_services
  // answers them (the reflection services add themselves). Files are
  // answered when a listed service's file needs them (itself and its
  // imports); a symbol of another service is NOT_FOUND.
  explicit ReflectionServices(std::vector<std::string> services);
  ~ReflectionServices();

  grpc::Service* v1();
  grpc::Service* v1alpha();

  // Full names of the two services, for lists of served services.
  static const char kV1Name[];
  static const char kV1AlphaName[];

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_REFLECTION_SERVICE_H_
