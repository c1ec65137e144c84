// gRPC calls by method and status code, counted by a server interceptor as
// each call sends its status: every service on the server (collide's,
// health, reflection, unknown methods) without touching their code. Exposed
// as grpc_server_handled_total, the name and labels of go-grpc-prometheus
// and java-grpc-prometheus, so existing gRPC dashboards work.
#ifndef COLLIDE_SERVER_OPS_RPC_METRICS_H_
#define COLLIDE_SERVER_OPS_RPC_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "grpcpp/support/server_interceptor.h"
#include "server/ops/metrics.h"

namespace collide::server {

class RpcMetrics {
 public:
  // Counts calls of the methods named by `method_paths`
  // ("/package.Service/Method") under their own labels, and calls of any
  // other method (unknown ones, which clients choose) under
  // grpc_service="unknown", grpc_method="unknown", so label values stay a
  // fixed set.
  explicit RpcMetrics(const std::vector<std::string>& method_paths);

  RpcMetrics(const RpcMetrics&) = delete;
  RpcMetrics& operator=(const RpcMetrics&) = delete;

  // Counts one call of `method_path` that finished with gRPC status code
  // `code` (0..16; others count as UNKNOWN). Lock-free.
  void Record(absl::string_view method_path, int code);

  // The grpc_server_handled_total family: one sample per method and code
  // seen at least once.
  void Render(ExpositionWriter& writer) const;

  // Calls the interceptor has seen start and not yet end, and calls it has
  // seen start in all (the drain waits for a spell with none in flight and
  // none started, CollideServer::Shutdown).
  int64_t calls_in_flight() const {
    return calls_in_flight_.load(std::memory_order_relaxed);
  }
  int64_t calls_started() const {
    return calls_started_.load(std::memory_order_relaxed);
  }
  void AddCallInFlight(int64_t delta) {
    if (delta > 0) calls_started_.fetch_add(delta, std::memory_order_relaxed);
    calls_in_flight_.fetch_add(delta, std::memory_order_relaxed);
  }

 private:
  std::atomic<int64_t> calls_in_flight_{0};
  std::atomic<int64_t> calls_started_{0};
  static constexpr int kCodeCount = 17;
  struct Method {
    std::string service;
    std::string method;
    std::array<Counter, kCodeCount> codes;
  };

  // Built in the constructor, read-only afterwards.
  std::map<std::string, std::unique_ptr<Method>, std::less<>> by_path_;
  Method unknown_;
};

// The process's RPC counters, for the methods of collide's services
// (CollisionService, LevelService, from their descriptors), grpc.health.v1
// and server reflection.
RpcMetrics& ServerRpcMetrics();

// An interceptor factory for grpc::ServerBuilder that records every call's
// status in `metrics` (which must outlive the server).
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeRpcMetricsInterceptorFactory(RpcMetrics& metrics);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_RPC_METRICS_H_
