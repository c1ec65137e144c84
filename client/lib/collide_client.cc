#include "client/lib/collide_client.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "grpcpp/security/credentials.h"
#include "proto/formats/file_io.h"

namespace collide::client {

namespace {

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

// Which IP family a "host:port" address is in, when it is an IP literal
// with a port: 4 for "1.2.3.4:5", 6 for "[::1]:5", 0 otherwise.
int IpFamily(absl::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return 0;
  int port = 0;
  if (!absl::SimpleAtoi(address.substr(colon + 1), &port) || port <= 0 ||
      port > 65535) {
    return 0;
  }
  absl::string_view host = address.substr(0, colon);
  if (absl::ConsumePrefix(&host, "[") && absl::ConsumeSuffix(&host, "]")) {
    return absl::StrContains(host, ':') ? 6 : 0;
  }
  const std::vector<absl::string_view> octets = absl::StrSplit(host, '.');
  if (octets.size() != 4) return 0;
  for (absl::string_view octet : octets) {
    int value = 0;
    if (octet.empty() || !absl::SimpleAtoi(octet, &value) || value < 0 ||
        value > 255) {
      return 0;
    }
  }
  return 4;
}

// A duration as gRPC's int milliseconds, saturating (a day is plenty).
int Milliseconds(absl::Duration duration) {
  return static_cast<int>(
      absl::ToInt64Milliseconds(std::min(duration, absl::Hours(24))));
}

// The retry policy covers RunQueries only: queries have no side effects, so
// an attempt that failed with UNAVAILABLE (the replica went away before
// answering) or CANCELLED (a draining replica cancelled it; the client
// cancels none of its own calls) can run again on another one.
std::string ServiceConfig(const std::string& policy) {
  return absl::StrCat(
      R"({"loadBalancingConfig": [{")", policy, R"(": {}}],)",
      R"("methodConfig": [{"name": [{"service": "collide.v1.CollisionService",)",
      R"( "method": "RunQueries"}], "retryPolicy": {"maxAttempts": 3,)",
      R"( "initialBackoff": "0.05s", "maxBackoff": "1s",)",
      R"( "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]}}]})");
}

// Certificates and keys are a few KiB; a bundle of CAs rarely 1 MiB.
constexpr int64_t kMaxPemFileBytes = 4 << 20;

// The contents of the PEM file `option` names ("" for no file).
absl::StatusOr<std::string> ReadPem(absl::string_view option,
                                    const std::string& path) {
  if (path.empty()) return std::string();
  absl::StatusOr<std::string> contents =
      formats::ReadFileContents(path, kMaxPemFileBytes);
  if (!contents.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(option, ": ", contents.status().message()));
  }
  if (!absl::StrContains(*contents, "-----BEGIN ")) {
    return absl::FailedPreconditionError(
        absl::StrCat(option, ": ", path, " holds no PEM block"));
  }
  return contents;
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeCredentials(
    const ClientOptions& options) {
  if (!UsesTls(options)) return grpc::InsecureChannelCredentials();
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "tls_cert_file and tls_key_file must be given together");
  }
  grpc::SslCredentialsOptions ssl;
  for (auto [option, path, out] :
       {std::tuple<absl::string_view, const std::string&, std::string&>{
            "tls_ca_file", options.tls_ca_file, ssl.pem_root_certs},
        {"tls_cert_file", options.tls_cert_file, ssl.pem_cert_chain},
        {"tls_key_file", options.tls_key_file, ssl.pem_private_key}}) {
    absl::StatusOr<std::string> pem = ReadPem(option, path);
    if (!pem.ok()) return pem.status();
    out = *std::move(pem);
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ParseMetadata(
    const std::vector<std::string>& pairs) {
  std::vector<std::pair<std::string, std::string>> metadata;
  for (const std::string& pair : pairs) {
    const size_t colon = pair.find(':');
    const std::string key = pair.substr(0, colon);
    const bool valid_key = !key.empty() && !absl::StartsWith(key, "grpc-") &&
                           std::all_of(key.begin(), key.end(), [](char c) {
                             return absl::ascii_islower(c) ||
                                    absl::ascii_isdigit(c) || c == '-' ||
                                    c == '_' || c == '.';
                           });
    if (colon == std::string::npos || !valid_key) {
      return absl::InvalidArgumentError(absl::StrCat(
          "metadata \"", pair,
          "\" must be key:value with a key of lower case letters, digits, "
          "'-', '_' or '.' (not grpc-...)"));
    }
    metadata.emplace_back(key, absl::StripLeadingAsciiWhitespace(
                                   absl::string_view(pair).substr(colon + 1)));
  }
  return metadata;
}

bool UsesTls(const ClientOptions& options) {
  return options.tls || !options.tls_ca_file.empty() ||
         !options.tls_cert_file.empty() || !options.tls_key_file.empty() ||
         !options.tls_server_name.empty();
}

absl::StatusOr<ChannelSpec> MakeChannelSpec(const ClientOptions& options) {
  if (options.load_balancing != "round_robin" &&
      options.load_balancing != "pick_first") {
    return absl::InvalidArgumentError(
        absl::StrCat("load_balancing must be round_robin or pick_first, not \"",
                     options.load_balancing, "\""));
  }
  if (options.max_attempts < 1) {
    return absl::InvalidArgumentError("max_attempts must be >= 1");
  }
  if (options.keepalive_time < absl::Seconds(1) ||
      options.keepalive_timeout < absl::Milliseconds(100)) {
    return absl::InvalidArgumentError(
        "keepalive_time must be >= 1s and keepalive_timeout >= 100ms");
  }
  ChannelSpec spec;
  const std::string target(absl::StripAsciiWhitespace(options.target));
  if (target.empty()) {
    return absl::InvalidArgumentError("target must not be empty");
  }
  if (absl::StrContains(target, ',')) {
    // A list of replicas: gRPC's ipv4:/ipv6: schemes take IP literals of one
    // family; names need a DNS target ("dns:///name:port") instead.
    std::vector<std::string> addresses;
    int family = 0;
    for (absl::string_view part : absl::StrSplit(target, ',')) {
      const absl::string_view address = absl::StripAsciiWhitespace(part);
      const int this_family = IpFamily(address);
      if (this_family == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("target \"", target, "\": \"", address,
                         "\" is not an IP:port; a list takes IP literals (use "
                         "dns:///name:port for a name)"));
      }
      if (family != 0 && this_family != family) {
        return absl::InvalidArgumentError(absl::StrCat(
            "target \"", target, "\" mixes IPv4 and IPv6 addresses"));
      }
      family = this_family;
      addresses.emplace_back(address);
    }
    spec.target = absl::StrCat(family == 4 ? "ipv4:" : "ipv6:",
                               absl::StrJoin(addresses, ","));
  } else {
    spec.target = target;
  }
  spec.arguments.SetServiceConfigJSON(ServiceConfig(options.load_balancing));
  spec.arguments.SetMaxReceiveMessageSize(options.max_message_bytes);
  spec.arguments.SetMaxSendMessageSize(options.max_message_bytes);
  spec.arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS,
                        Milliseconds(options.keepalive_time));
  spec.arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
                        Milliseconds(options.keepalive_timeout));
  spec.arguments.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  // Pings carry no data; without this gRPC stops pinging after two.
  spec.arguments.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  if (!options.tls_server_name.empty()) {
    spec.arguments.SetSslTargetNameOverride(options.tls_server_name);
  }
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      MakeCredentials(options);
  if (!credentials.ok()) return credentials.status();
  spec.credentials = *std::move(credentials);
  return spec;
}

absl::StatusOr<std::unique_ptr<CollideClient>> CollideClient::Connect(
    const ClientOptions& options) {
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  if (!spec.ok()) return spec.status();
  std::shared_ptr<grpc::Channel> channel = grpc::CreateCustomChannel(
      spec->target, spec->credentials, spec->arguments);
  std::unique_ptr<v1::LevelService::StubInterface> admin_levels;
  if (!options.admin_target.empty()) {
    ClientOptions admin = options;
    admin.target = options.admin_target;
    absl::StatusOr<ChannelSpec> admin_spec = MakeChannelSpec(admin);
    if (!admin_spec.ok()) {
      return absl::Status(
          admin_spec.status().code(),
          absl::StrCat("admin_", admin_spec.status().message()));
    }
    admin_levels = v1::LevelService::NewStub(grpc::CreateCustomChannel(
        admin_spec->target, admin_spec->credentials, admin_spec->arguments));
  }
  return std::make_unique<CollideClient>(
      v1::CollisionService::NewStub(channel),
      v1::LevelService::NewStub(channel),
      grpc::health::v1::Health::NewStub(channel), options,
      std::move(admin_levels));
}

CollideClient::CollideClient(
    std::unique_ptr<v1::CollisionService::StubInterface> queries,
    std::unique_ptr<v1::LevelService::StubInterface> levels,
    std::unique_ptr<grpc::health::v1::Health::StubInterface> health,
    ClientOptions options,
    std::unique_ptr<v1::LevelService::StubInterface> admin_levels)
    : queries_(std::move(queries)),
      levels_(std::move(levels)),
      health_(std::move(health)),
      options_(std::move(options)),
      admin_levels_(std::move(admin_levels)) {}

std::unique_ptr<grpc::ClientContext> CollideClient::NewContext() const {
  auto context = std::make_unique<grpc::ClientContext>();
  for (const auto& [key, value] : options_.metadata) {
    context->AddMetadata(key, value);
  }
  context->set_deadline(
      absl::ToChronoTime(absl::Now() + options_.call_timeout));
  return context;
}

std::unique_ptr<grpc::ClientContext> CollideClient::NewAdminContext() const {
  std::unique_ptr<grpc::ClientContext> context = NewContext();
  if (!options_.admin_token.empty()) {
    context->AddMetadata("authorization",
                         absl::StrCat("Bearer ", options_.admin_token));
  }
  return context;
}

template <typename Response, typename Rpc>
absl::StatusOr<Response> CollideClient::Call(Rpc rpc) const {
  Response response;
  const grpc::Status status = rpc(NewContext().get(), &response);
  if (!status.ok()) return FromGrpc(status);
  return response;
}

template <typename Response, typename Rpc>
absl::StatusOr<Response> CollideClient::AdminCall(Rpc rpc) const {
  Response response;
  const grpc::Status status = rpc(NewAdminContext().get(), &response);
  if (!status.ok()) return FromGrpc(status);
  return response;
}

std::string LevelId(absl::string_view level) {
  absl::ConsumePrefix(&level, "levels/");
  return std::string(level);
}

std::string LevelName(absl::string_view level_id) {
  return absl::StrCat("levels/", LevelId(level_id));
}

absl::StatusOr<v1::PutLevelResponse> CollideClient::PutLevel(
    absl::string_view level_id, v1::Level content,
    const LevelExpectation& expected) {
  v1::PutLevelRequest request;
  request.set_level(LevelName(level_id));
  request.set_expected_content_hash(expected.content_hash);
  request.set_expected_version(expected.version);
  content.set_id(std::string(level_id));
  *request.mutable_content() = std::move(content);
  v1::LevelService::StubInterface& admin =
      admin_levels_ != nullptr ? *admin_levels_ : *levels_;
  return AdminCall<v1::PutLevelResponse>([&](auto* context, auto* out) {
    return admin.PutLevel(context, request, out);
  });
}

absl::StatusOr<v1::PatchLevelResponse> CollideClient::PatchLevel(
    absl::string_view level_id, v1::PatchLevelRequest patch) {
  patch.set_level(LevelName(level_id));
  v1::LevelService::StubInterface& admin =
      admin_levels_ != nullptr ? *admin_levels_ : *levels_;
  return AdminCall<v1::PatchLevelResponse>([&](auto* context, auto* out) {
    return admin.PatchLevel(context, patch, out);
  });
}

absl::StatusOr<v1::DeleteLevelResponse> CollideClient::DeleteLevel(
    absl::string_view level_id, const LevelExpectation& expected) {
  v1::DeleteLevelRequest request;
  request.set_level(LevelName(level_id));
  request.set_expected_content_hash(expected.content_hash);
  request.set_expected_version(expected.version);
  v1::LevelService::StubInterface& admin =
      admin_levels_ != nullptr ? *admin_levels_ : *levels_;
  return AdminCall<v1::DeleteLevelResponse>([&](auto* context, auto* out) {
    return admin.DeleteLevel(context, request, out);
  });
}

absl::StatusOr<v1::ListLevelsResponse> CollideClient::ListLevels() {
  return Call<v1::ListLevelsResponse>([&](auto* context, auto* out) {
    return levels_->ListLevels(context, v1::ListLevelsRequest(), out);
  });
}

absl::StatusOr<v1::LevelSummary> CollideClient::DescribeLevel(
    absl::string_view level_id) {
  v1::DescribeLevelRequest request;
  request.set_level(LevelName(level_id));
  absl::StatusOr<v1::DescribeLevelResponse> response =
      Call<v1::DescribeLevelResponse>([&](auto* context, auto* out) {
        return levels_->DescribeLevel(context, request, out);
      });
  if (!response.ok()) return response.status();
  return response->summary();
}

absl::StatusOr<v1::GetLevelResponse> CollideClient::GetLevel(
    absl::string_view level_id) {
  v1::GetLevelRequest request;
  request.set_level(LevelName(level_id));
  return Call<v1::GetLevelResponse>([&](auto* context, auto* out) {
    return levels_->GetLevel(context, request, out);
  });
}

absl::StatusOr<v1::RunQueriesResponse> CollideClient::RunQueries(
    absl::string_view level_id, absl::Span<const v1::Query> queries,
    absl::string_view expected_content_hash) {
  v1::RunQueriesRequest request;
  request.set_level(LevelName(level_id));
  request.set_expected_content_hash(std::string(expected_content_hash));
  request.mutable_queries()->Reserve(static_cast<int>(queries.size()));
  for (const v1::Query& query : queries) *request.add_queries() = query;
  return RunQueries(level_id, std::move(request));
}

absl::StatusOr<v1::RunQueriesResponse> CollideClient::RunQueries(
    absl::string_view level_id, v1::RunQueriesRequest request) {
  request.set_level(LevelName(level_id));
  grpc::Status status;
  // gRPC's retry policy already retries attempts the server never started;
  // this loop covers the rest (a connection lost mid-call). Bounded by
  // max_attempts, each with its own deadline.
  for (int attempt = 1; attempt <= options_.max_attempts; ++attempt) {
    v1::RunQueriesResponse response;
    status = queries_->RunQueries(NewContext().get(), request, &response);
    if (status.ok()) return response;
    if (status.error_code() != grpc::StatusCode::UNAVAILABLE &&
        status.error_code() != grpc::StatusCode::CANCELLED) {
      break;
    }
  }
  return FromGrpc(status);
}

absl::StatusOr<v1::QueryResult> CollideClient::RunQuery(
    absl::string_view level_id, const v1::Query& query) {
  absl::StatusOr<v1::RunQueriesResponse> response =
      RunQueries(level_id, absl::MakeConstSpan(&query, 1));
  if (!response.ok()) return response.status();
  if (response->results_size() != 1) {
    return absl::InternalError(absl::StrCat("the server answered ",
                                            response->results_size(),
                                            " results for one query"));
  }
  const v1::QueryResult& result = response->results(0);
  if (result.status().code() != 0) {
    return absl::Status(static_cast<absl::StatusCode>(result.status().code()),
                        result.status().message());
  }
  return result;
}

absl::StatusOr<std::unique_ptr<QueryStream>> CollideClient::OpenStream(
    absl::string_view level_id, QueryStreamOptions options) {
  if (options.window < 1) {
    return absl::InvalidArgumentError("window must be >= 1");
  }
  if (queries_->async() == nullptr) {
    return absl::FailedPreconditionError(
        "this client's CollisionService stub has no streaming interface");
  }
  options.metadata.insert(options.metadata.end(), options_.metadata.begin(),
                          options_.metadata.end());
  return std::make_unique<QueryStream>(*queries_, LevelName(level_id),
                                       std::move(options));
}

absl::Status CollideClient::CheckHealth(absl::string_view service) {
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(std::string(service));
  using grpc::health::v1::HealthCheckResponse;
  absl::StatusOr<HealthCheckResponse> response =
      Call<HealthCheckResponse>([&](auto* context, auto* out) {
        return health_->Check(context, request, out);
      });
  if (!response.ok()) return response.status();
  if (response->status() != HealthCheckResponse::SERVING) {
    return absl::UnavailableError(absl::StrCat(
        "health: ",
        HealthCheckResponse::ServingStatus_Name(response->status())));
  }
  return absl::OkStatus();
}

}  // namespace collide::client
