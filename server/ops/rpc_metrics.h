// gRPC calls by method, counted by a server interceptor: every service on
// the server (collide's, health, reflection, unknown methods) without
// touching their code. Exposed under the names and labels of
// go-grpc-prometheus and java-grpc-prometheus, so existing gRPC dashboards
// and alerts work: grpc_server_started_total, grpc_server_handled_total
// (with grpc_code), grpc_server_msg_received_total,
// grpc_server_msg_sent_total and the grpc_server_handling_seconds
// histogram, each with grpc_type, grpc_service and grpc_method.
//
// Cost per call: one clock read at its start and one at its status, and a
// relaxed atomic add per message and per event; the method's counters are
// found once, when the call starts (a map lookup by its path). No lock, no
// allocation beyond the interceptor object gRPC already made per call.
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

// How a method streams, the grpc_type label: "unary", "client_stream",
// "server_stream", "bidi_stream".
enum class GrpcType { kUnary, kClientStream, kServerStream, kBidiStream };

// The grpc_type label value of `type`.
absl::string_view GrpcTypeName(GrpcType type);

// One method the metrics know by name.
struct RpcMethod {
  // "/package.Service/Method".
  std::string path;
  GrpcType type = GrpcType::kUnary;
};

class RpcMetrics {
 public:
  // The counters of one method. Built in RpcMetrics' constructor, never
  // moved afterwards, so interceptors keep a pointer to them.
  struct Method {
    std::string service;
    std::string method;
    absl::string_view type;
    static constexpr int kCodeCount = 17;
    Counter started;
    Counter msg_received;
    Counter msg_sent;
    std::array<Counter, kCodeCount> codes;
    // From the call's start (its interceptor made) to its status sent.
    Histogram handling_ns{kLatencyBoundsNs, 1e9};

    // Counts one call finished with gRPC status code `code` (0..16;
    // others count as UNKNOWN) `nanoseconds` after it started.
    void Finish(int code, uint64_t nanoseconds);
  };

  // Counts calls of `methods` under their own labels, and calls of any
  // other method (unknown ones, which clients choose) under
  // grpc_service="unknown", grpc_method="unknown", grpc_type="unknown"
  // (the server cannot tell how an unknown method streams), so label
  // values stay a fixed set.
  explicit RpcMetrics(const std::vector<RpcMethod>& methods);

  RpcMetrics(const RpcMetrics&) = delete;
  RpcMetrics& operator=(const RpcMetrics&) = delete;

  // The counters of `method_path`, or the unknown method's.
  Method& Find(absl::string_view method_path);

  // The five grpc_server_* families. started, msg_received and msg_sent
  // have a sample for every known method, 0 included (so rates and alerts
  // see the method before its first call); handled_total one per method
  // and code seen at least once; handling_seconds one histogram per method
  // called at least once.
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

  // Built in the constructor, read-only afterwards.
  std::map<std::string, std::unique_ptr<Method>, std::less<>> by_path_;
  Method unknown_;
};

// The process's RPC counters, for the methods of collide's services
// (CollisionService, LevelService, from their descriptors), grpc.health.v1
// and server reflection (v1 and v1alpha).
RpcMetrics& ServerRpcMetrics();

// An interceptor factory for grpc::ServerBuilder that counts every call's
// start, messages and status in `metrics` (which must outlive the server).
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeRpcMetricsInterceptorFactory(RpcMetrics& metrics);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_RPC_METRICS_H_
