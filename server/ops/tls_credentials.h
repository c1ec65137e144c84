// The credentials collide_server's listeners serve with: plaintext, TLS, or
// mutual TLS. Certificates come from files that gRPC's
// FileWatcherCertificateProvider re-reads every refresh_interval, so a
// certificate rotated in place (cert-manager, a Kubernetes secret) is
// served to new connections without a restart; connections already open
// keep the certificate they were made with.
#ifndef COLLIDE_SERVER_OPS_TLS_CREDENTIALS_H_
#define COLLIDE_SERVER_OPS_TLS_CREDENTIALS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/security/server_credentials.h"

namespace collide::server {

// Field names are the flags' (main.cc), so errors name what to fix.
struct TlsOptions {
  // PEM certificate chain and private key the server presents. Both empty:
  // plaintext.
  std::string tls_cert_file = "";
  std::string tls_key_file = "";
  // PEM CA certificates: when set, every client must present a certificate
  // signed by one of them (mutual TLS); the handshake fails otherwise.
  std::string tls_client_ca_file = "";
  // How often the files are re-read (rounded up to whole seconds, at least
  // 1 s: gRPC's file watcher counts in seconds).
  absl::Duration tls_refresh_interval = absl::Minutes(1);

  bool enabled() const { return !tls_cert_file.empty(); }
  bool mutual() const { return !tls_client_ca_file.empty(); }
};

// INVALID_ARGUMENT naming the flag for combinations that cannot work: a
// certificate without its key or the other way round, a client CA without
// a server certificate, a refresh interval under 1 s.
absl::Status CheckTlsOptions(const TlsOptions& options);

// Insecure credentials when TLS is off; otherwise TLS credentials over a
// file-watching certificate provider (requiring and verifying client
// certificates when tls_client_ca_file is set). Each file must be readable
// and hold a PEM block now: FAILED_PRECONDITION naming the flag and the
// file otherwise (gRPC's watcher would only log it and fail every
// handshake). The returned credentials can serve several listeners.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& options);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_TLS_CREDENTIALS_H_
