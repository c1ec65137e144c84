// collide_health_check: asks a server's grpc.health.v1 service whether it
// is SERVING, retrying until it is or --wait has passed. Exit status 0 when
// SERVING, 1 otherwise, so scripts (demo.sh, a container HEALTHCHECK) can
// wait for a server to come up without guessing with sleeps.
//
// Usage: collide_health_check [--target=127.0.0.1:50051] [--wait=10s]
//        [--service=""]
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(absl::Duration, wait, absl::Seconds(10),
          "How long to keep retrying before giving up.");
ABSL_FLAG(std::string, service, "",
          "Service to ask about; empty means the whole server.");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string target = absl::GetFlag(FLAGS_target);
  const absl::Time give_up = absl::Now() + absl::GetFlag(FLAGS_wait);
  const auto channel =
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
  const auto stub = grpc::health::v1::Health::NewStub(channel);

  grpc::health::v1::HealthCheckRequest request;
  request.set_service(absl::GetFlag(FLAGS_service));
  std::string last = "no answer";
  // Bounded: each attempt has a 1 s deadline and the loop ends at give_up.
  while (true) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(1));
    grpc::health::v1::HealthCheckResponse response;
    const grpc::Status status = stub->Check(&context, request, &response);
    if (status.ok() &&
        response.status() == grpc::health::v1::HealthCheckResponse::SERVING) {
      std::printf("%s: SERVING\n", target.c_str());
      return 0;
    }
    last = status.ok()
               ? grpc::health::v1::HealthCheckResponse::ServingStatus_Name(
                     response.status())
               : status.error_message();
    if (absl::Now() >= give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::fprintf(stderr, "%s: not serving (%s)\n", target.c_str(), last.c_str());
  return 1;
}
