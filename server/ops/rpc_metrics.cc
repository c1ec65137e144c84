#include "server/ops/rpc_metrics.h"

#include <array>
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
constexpr std::array<absl::string_view, 17> kCodeNames = {
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

// "/collide.v1.LevelService/PutLevel" for every method of `service`, from
// the generated descriptors (so a method added to the proto is counted
// under its own name without a change here).
void AppendMethodsOf(absl::string_view service,
                     std::vector<std::string>& paths) {
  const google::protobuf::ServiceDescriptor* descriptor =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          std::string(service));
  if (descriptor == nullptr) return;
  for (int i = 0; i < descriptor->method_count(); ++i) {
    paths.push_back(
        absl::StrCat("/", service, "/", descriptor->method(i)->name()));
  }
}

class RpcMetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  // gRPC makes one per call and deletes it when the call is gone.
  RpcMetricsInterceptor(RpcMetrics& metrics, const char* method)
      : metrics_(metrics), method_(method != nullptr ? method : "") {
    metrics_.AddCallInFlight(1);
  }
  ~RpcMetricsInterceptor() override { metrics_.AddCallInFlight(-1); }

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
      metrics_.Record(method_, methods->GetSendStatus().error_code());
    }
    methods->Proceed();
  }

 private:
  RpcMetrics& metrics_;
  // gRPC's, alive for the call.
  const absl::string_view method_;
};

class RpcMetricsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcMetricsInterceptorFactory(RpcMetrics& metrics)
      : metrics_(metrics) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new RpcMetricsInterceptor(metrics_, info->method());
  }

 private:
  RpcMetrics& metrics_;
};

}  // namespace

RpcMetrics::RpcMetrics(const std::vector<std::string>& method_paths) {
  unknown_.service = "unknown";
  unknown_.method = "unknown";
  for (const std::string& path : method_paths) {
    auto method = std::make_unique<Method>();
    const size_t slash = path.rfind('/');
    method->service =
        path.substr(1, slash == std::string::npos ? 0 : slash - 1);
    method->method = path.substr(slash + 1);
    by_path_[path] = std::move(method);
  }
}

void RpcMetrics::Record(absl::string_view method_path, int code) {
  const auto it = by_path_.find(method_path);
  Method& method = it != by_path_.end() ? *it->second : unknown_;
  method.codes[code >= 0 && code < kCodeCount ? code : 2].Add();
}

void RpcMetrics::Render(ExpositionWriter& writer) const {
  writer.Family("grpc_server_handled_total", "counter",
                "gRPC calls finished on the server, by service, method and "
                "status code.");
  const auto render = [&](const Method& method) {
    for (int code = 0; code < kCodeCount; ++code) {
      const uint64_t count = method.codes[code].value();
      if (count == 0) continue;
      writer.Sample("grpc_server_handled_total",
                    {{"grpc_service", method.service},
                     {"grpc_method", method.method},
                     {"grpc_code", kCodeNames[code]}},
                    static_cast<double>(count));
    }
  };
  for (const auto& [path, method] : by_path_) render(*method);
  render(unknown_);
}

RpcMetrics& ServerRpcMetrics() {
  static RpcMetrics* const metrics = [] {
    std::vector<std::string> paths;
    AppendMethodsOf(v1::CollisionService::service_full_name(), paths);
    AppendMethodsOf(v1::LevelService::service_full_name(), paths);
    paths.push_back("/grpc.health.v1.Health/Check");
    paths.push_back("/grpc.health.v1.Health/Watch");
    paths.push_back(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo");
    paths.push_back(
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo");
    return new RpcMetrics(paths);
  }();
  return *metrics;
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeRpcMetricsInterceptorFactory(RpcMetrics& metrics) {
  return std::make_unique<RpcMetricsInterceptorFactory>(metrics);
}

}  // namespace collide::server
