#include "server/ops/rpc_metrics.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/support/server_interceptor.h"
#include "server/ops/metrics.h"

namespace collide::server {
namespace {

// grpc::StatusCode's names, by value (the grpc_code label).
constexpr std::array<absl::string_view, RpcMetrics::Method::kCodeCount>
    kCodeNames = {
        "OK",
        "CANCELLED",
        "UNKNOWN",
        "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "ALREADY_EXISTS",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION",
        "ABORTED",
        "OUT_OF_RANGE",
        "UNIMPLEMENTED",
        "INTERNAL",
        "UNAVAILABLE",
        "DATA_LOSS",
        "UNAUTHENTICATED",
};

constexpr int kCodeUnknown = 2;

// Every method of `service` with how it streams, from the generated
// descriptors (so a method added to the proto is counted under its own
// name without a change here).
void AppendMethodsOf(absl::string_view service,
                     std::vector<RpcMethod>& methods) {
  const google::protobuf::ServiceDescriptor* descriptor =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          std::string(service));
  if (descriptor == nullptr) return;
  for (int i = 0; i < descriptor->method_count(); ++i) {
    const google::protobuf::MethodDescriptor* method = descriptor->method(i);
    GrpcType type = GrpcType::kUnary;
    if (method->client_streaming() && method->server_streaming()) {
      type = GrpcType::kBidiStream;
    } else if (method->client_streaming()) {
      type = GrpcType::kClientStream;
    } else if (method->server_streaming()) {
      type = GrpcType::kServerStream;
    }
    methods.push_back({absl::StrCat("/", service, "/", method->name()), type});
  }
}

uint64_t NanosecondsSince(std::chrono::steady_clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - start)
          .count());
}

class RpcMetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  // gRPC makes one per call, once the call's method is known, and deletes
  // it when the call is gone.
  RpcMetricsInterceptor(RpcMetrics& metrics, RpcMetrics::Method& method)
      : metrics_(metrics),
        method_(method),
        start_(std::chrono::steady_clock::now()) {
    metrics_.AddCallInFlight(1);
    method_.started.Add();
  }
  // A call gone without a status sent (the server never finished it: the
  // client went away first) counts as CANCELLED, so every call started is
  // handled once.
  ~RpcMetricsInterceptor() override {
    if (!finished_) {
      method_.Finish(static_cast<int>(grpc::StatusCode::CANCELLED),
                     NanosecondsSince(start_));
    }
    metrics_.AddCallInFlight(-1);
  }

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    // A read that ended the stream (the client's half-close) reaches this
    // hook with no message.
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() != nullptr) {
      method_.msg_received.Add();
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      method_.msg_sent.Add();
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS) &&
        !finished_) {
      finished_ = true;
      method_.Finish(methods->GetSendStatus().error_code(),
                     NanosecondsSince(start_));
    }
    methods->Proceed();
  }

 private:
  RpcMetrics& metrics_;
  RpcMetrics::Method& method_;
  const std::chrono::steady_clock::time_point start_;
  // Written only by the one batch that sends the status, read again only
  // by the destructor, which gRPC runs after every batch of the call is
  // done: a plain bool is enough, though a stream's read and write batches
  // may run their hooks at once (the counters are atomic for that).
  bool finished_ = false;
};

class RpcMetricsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcMetricsInterceptorFactory(RpcMetrics& metrics)
      : metrics_(metrics) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    const char* method = info->method();
    return new RpcMetricsInterceptor(
        metrics_, metrics_.Find(method != nullptr ? method : ""));
  }

 private:
  RpcMetrics& metrics_;
};

}  // namespace

absl::string_view GrpcTypeName(GrpcType type) {
  switch (type) {
    case GrpcType::kUnary:
      return "unary";
    case GrpcType::kClientStream:
      return "client_stream";
    case GrpcType::kServerStream:
      return "server_stream";
    case GrpcType::kBidiStream:
      return "bidi_stream";
  }
  return "unknown";
}

void RpcMetrics::Method::Finish(int code, uint64_t nanoseconds) {
  codes[code >= 0 && code < kCodeCount ? code : kCodeUnknown].Add();
  handling_ns.Observe(nanoseconds);
}

RpcMetrics::RpcMetrics(const std::vector<RpcMethod>& methods) {
  unknown_.service = "unknown";
  unknown_.method = "unknown";
  unknown_.type = "unknown";
  for (const RpcMethod& rpc : methods) {
    auto method = std::make_unique<Method>();
    const size_t slash = rpc.path.rfind('/');
    method->service =
        rpc.path.substr(1, slash == std::string::npos ? 0 : slash - 1);
    method->method = rpc.path.substr(slash + 1);
    method->type = GrpcTypeName(rpc.type);
    by_path_[rpc.path] = std::move(method);
  }
}

RpcMetrics::Method& RpcMetrics::Find(absl::string_view method_path) {
  const auto it = by_path_.find(method_path);
  return it != by_path_.end() ? *it->second : unknown_;
}

void RpcMetrics::Render(ExpositionWriter& writer) const {
  const auto for_each = [&](const auto& render) {
    for (const auto& [path, method] : by_path_) render(*method);
    render(unknown_);
  };
  const auto counter = [&](const char* name, const char* help,
                           Counter Method::*member) {
    writer.Family(name, "counter", help);
    for_each([&](const Method& method) {
      writer.Sample(name,
                    {{"grpc_type", method.type},
                     {"grpc_service", method.service},
                     {"grpc_method", method.method}},
                    static_cast<double>((method.*member).value()));
    });
  };
  counter("grpc_server_started_total",
          "gRPC calls started on the server, by type, service and method.",
          &Method::started);
  writer.Family("grpc_server_handled_total", "counter",
                "gRPC calls finished on the server, by type, service, method "
                "and status code.");
  for_each([&](const Method& method) {
    for (int code = 0; code < Method::kCodeCount; ++code) {
      const uint64_t count = method.codes[code].value();
      if (count == 0) continue;
      writer.Sample("grpc_server_handled_total",
                    {{"grpc_type", method.type},
                     {"grpc_service", method.service},
                     {"grpc_method", method.method},
                     {"grpc_code", kCodeNames[code]}},
                    static_cast<double>(count));
    }
  });
  counter("grpc_server_msg_received_total",
          "Messages received by the server, by type, service and method "
          "(on StreamQueries one message is one batch).",
          &Method::msg_received);
  counter("grpc_server_msg_sent_total",
          "Messages sent by the server, by type, service and method (on "
          "StreamQueries one message is one batch's answer).",
          &Method::msg_sent);
  writer.Family("grpc_server_handling_seconds", "histogram",
                "Time from a call's start to its status sent, by type, "
                "service and method.");
  for_each([&](const Method& method) {
    if (method.started.value() == 0) return;
    writer.HistogramSamples("grpc_server_handling_seconds", method.handling_ns,
                            {{"grpc_type", method.type},
                             {"grpc_service", method.service},
                             {"grpc_method", method.method}});
  });
}

RpcMetrics& ServerRpcMetrics() {
  static RpcMetrics* const metrics = [] {
    std::vector<RpcMethod> methods;
    AppendMethodsOf(v1::CollisionService::service_full_name(), methods);
    AppendMethodsOf(v1::LevelService::service_full_name(), methods);
    methods.push_back({"/grpc.health.v1.Health/Check", GrpcType::kUnary});
    methods.push_back(
        {"/grpc.health.v1.Health/Watch", GrpcType::kServerStream});
    methods.push_back(
        {"/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
         GrpcType::kBidiStream});
    methods.push_back(
        {"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
         GrpcType::kBidiStream});
    return new RpcMetrics(methods);
  }();
  return *metrics;
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeRpcMetricsInterceptorFactory(RpcMetrics& metrics) {
  return std::make_unique<RpcMetricsInterceptorFactory>(metrics);
}

}  // namespace collide::server
