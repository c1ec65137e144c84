#include "server/ops/tls_credentials.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/security/tls_certificate_provider.h"
#include "grpcpp/security/tls_credentials_options.h"
#include "proto/formats/file_io.h"

namespace collide::server {
namespace {

// Certificates and keys are a few KiB; a bundle of CAs rarely 1 MiB.
constexpr int64_t kMaxPemFileBytes = 4 << 20;

// OK when the file `flag` names can be read now and holds a PEM block.
absl::Status CheckPemFile(absl::string_view flag, const std::string& path) {
  absl::StatusOr<std::string> contents =
      formats::ReadFileContents(path, kMaxPemFileBytes);
  if (!contents.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(flag, ": ", contents.status().message()));
  }
  if (!absl::StrContains(*contents, "-----BEGIN ")) {
    return absl::FailedPreconditionError(
        absl::StrCat(flag, ": ", path, " holds no PEM block"));
  }
  return absl::OkStatus();
}

// gRPC's watcher counts whole seconds.
unsigned int RefreshSeconds(absl::Duration interval) {
  return static_cast<unsigned int>(std::clamp<int64_t>(
      absl::ToInt64Seconds(absl::Ceil(interval, absl::Seconds(1))), 1,
      int64_t{24} * 3600));
}

}  // namespace

absl::Status CheckTlsOptions(const TlsOptions& options) {
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "tls_cert_file and tls_key_file must be given together");
  }
  if (options.mutual() && !options.enabled()) {
    return absl::InvalidArgumentError(
        "tls_client_ca_file needs tls_cert_file and tls_key_file (mutual "
        "TLS is TLS first)");
  }
  if (options.tls_refresh_interval < absl::Seconds(1)) {
    return absl::InvalidArgumentError("tls_refresh_interval must be >= 1s");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& options) {
  if (absl::Status s = CheckTlsOptions(options); !s.ok()) return s;
  if (!options.enabled()) return grpc::InsecureServerCredentials();
  for (const auto& [flag, path] :
       {std::pair<absl::string_view, const std::string&>{"tls_cert_file",
                                                         options.tls_cert_file},
        {"tls_key_file", options.tls_key_file},
        {"tls_client_ca_file", options.tls_client_ca_file}}) {
    if (path.empty()) continue;
    if (absl::Status s = CheckPemFile(flag, path); !s.ok()) return s;
  }
  // One provider watches all three files; it reads them once here, then
  // every refresh interval, and hands new contents to every listener.
  auto provider =
      std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
          options.tls_key_file, options.tls_cert_file,
          options.tls_client_ca_file,
          RefreshSeconds(options.tls_refresh_interval));
  grpc::experimental::TlsServerCredentialsOptions tls(provider);
  tls.watch_identity_key_cert_pairs();
  if (options.mutual()) {
    tls.watch_root_certs();
    tls.set_cert_request_type(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    tls.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  return grpc::experimental::TlsServerCredentials(tls);
}

}  // namespace collide::server
