#include "server/ops/admin_gate.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "grpc/grpc_security_constants.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/file_io.h"

namespace collide::server {
namespace {

// A token file is a line; anything near this is a wrong file.

constexpr absl::string_view kBearer = "bearer ";

// The names a verified client certificate carries, or none when the peer
// presented no certificate that the handshake verified.
std::vector<std::string> ClientCertificateNames(
    const grpc::ServerContextBase& context) {
  std::vector<std::string> names;
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr || !auth->IsPeerAuthenticated()) return names;
  for (const char* property :
       {GRPC_X509_CN_PROPERTY_NAME, GRPC_X509_SAN_PROPERTY_NAME}) {
    for (const grpc::string_ref& value : auth->FindPropertyValues(property)) {
      names.emplace_back(value.data(), value.size());
    }
  }
  return names;
}

}  // namespace

bool IsLoopbackAddress(absl::string_view address) {
  if (absl::StartsWith(address, "unix:") ||
      absl::StartsWith(address, "unix-abstract:")) {
    return true;
  }
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return false;
  absl::string_view host = address.substr(0, colon);
  if (absl::ConsumePrefix(&host, "[")) {
    return absl::ConsumeSuffix(&host, "]") && host == "::1";
  }
  if (absl::EqualsIgnoreCase(host, "localhost")) return true;
  // 127.0.0.0/8, written as a dotted quad ("127.1" and friends are not
  // accepted by gRPC's parser either).
  return absl::StartsWith(host, "127.") &&
         host.find_first_not_of("0123456789.") == absl::string_view::npos &&
         std::count(host.begin(), host.end(), '.') == 3;
}

absl::Status CheckAdminOptions(absl::string_view admin_listen,
                               const AdminAuthOptions& auth, bool mutual_tls) {
  if (!auth.admin_client_names.empty() && !mutual_tls) {
    return absl::InvalidArgumentError(
        "admin_client_names needs mutual TLS (tls_client_ca_file): without "
        "it no caller has a verified certificate");
  }
  if (!admin_listen.empty() && !IsLoopbackAddress(admin_listen) &&
      !auth.any()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "admin_listen \"", admin_listen,
        "\" is reachable from the network but admin calls need no "
        "credentials: give admin_token_file and/or admin_client_names, or "
        "listen on loopback (127.0.0.1:PORT), or turn the admin listener "
        "off (admin_listen=none)"));
  }
  return absl::OkStatus();
}

bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  // Every byte of b is compared (against 0 past a's end), and the loop
  // never leaves early, so only b's length shows in the time taken.
  volatile unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < b.size(); ++i) {
    const unsigned char from_a =
        i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    difference = difference | (from_a ^ static_cast<unsigned char>(b[i]));
  }
  return difference == 0;
}

AdminGate AdminGate::Closed(std::string reason) {
  return AdminGate(false, std::move(reason), {});
}

AdminGate AdminGate::Open(AdminAuthOptions auth) {
  return AdminGate(true, "", std::move(auth));
}

absl::Status AdminGate::Admit(const grpc::ServerContextBase& context) const {
  if (!open_) return absl::UnimplementedError(reason_);
  if (!auth_.any()) return absl::OkStatus();
  const std::vector<std::string> names = ClientCertificateNames(context);
  if (!auth_.admin_client_names.empty()) {
    for (const std::string& name : names) {
      for (const std::string& allowed : auth_.admin_client_names) {
        if (name == allowed) return absl::OkStatus();
      }
    }
  }
  const auto header = context.client_metadata().find("authorization");
  if (header != context.client_metadata().end()) {
    absl::string_view value(header->second.data(), header->second.size());
    if (!absl::StartsWithIgnoreCase(value, kBearer)) {
      return absl::PermissionDeniedError(
          "authorization metadata must be \"Bearer TOKEN\"");
    }
    value.remove_prefix(kBearer.size());
    if (!auth_.admin_token.empty() &&
        ConstantTimeEquals(value, auth_.admin_token)) {
      return absl::OkStatus();
    }
    return absl::PermissionDeniedError("the admin token is not accepted");
  }
  if (!auth_.admin_client_names.empty() && !names.empty()) {
    return absl::PermissionDeniedError(absl::StrCat(
        "no name of the client certificate (", absl::StrJoin(names, ", "),
        ") is in the server's admin_client_names"));
  }
  return absl::UnauthenticatedError(absl::StrCat(
      "level changes need credentials: ",
      auth_.admin_token.empty()
          ? "a client certificate named in the server's "
            "admin_client_names"
          : (auth_.admin_client_names.empty()
                 ? "\"authorization: Bearer TOKEN\" metadata with the "
                   "token of the server's admin_token_file"
                 : "\"authorization: Bearer TOKEN\" metadata, or a client "
                   "certificate named in admin_client_names")));
}

}  // namespace collide::server
