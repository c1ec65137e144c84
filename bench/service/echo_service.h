// The bare echo stream the collision stream is compared with: the same
// callback API, the same reactor discipline (answer in OnReadDone, queue,
// one read and one write outstanding), and no work per message.
#ifndef COLLIDE_BENCH_SERVICE_ECHO_SERVICE_H_
#define COLLIDE_BENCH_SERVICE_ECHO_SERVICE_H_

#include "echo.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide_bench {

class EchoServiceImpl final
    : public collide::bench::v1::EchoService::CallbackService {
 public:
  grpc::ServerBidiReactor<collide::bench::v1::StreamEchoRequest,
                          collide::bench::v1::StreamEchoResponse>*
  StreamEcho(grpc::CallbackServerContext* context) override;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_SERVICE_ECHO_SERVICE_H_
