// Who may change levels. LevelService writes (PutLevel, DeleteLevel) are
// served only on the admin listener (--admin_listen, loopback by default),
// where an AdminGate::Open checks each call's credentials: a bearer token
// ("authorization: Bearer TOKEN" metadata, compared in constant time) or a
// verified client certificate whose name is on a list (mutual TLS). On the
// query port, and everywhere on a read-only replica, the gate is Closed.
// Reads (ListLevels, DescribeLevel, GetLevel) pass no gate.
#ifndef COLLIDE_SERVER_OPS_ADMIN_GATE_H_
#define COLLIDE_SERVER_OPS_ADMIN_GATE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"

namespace collide::server {

// Field names are the flags' (main.cc), so errors name what to fix.
struct AdminAuthOptions {
  // The bearer token admin callers send (formats::ReadTokenFile). Empty: none
  // is accepted.
  std::string admin_token = "";
  // Names (a certificate's common name, or one of its subject alternative
  // names: DNS, URI, email, IP) whose verified client certificate
  // authorises admin calls without a token. Needs mutual TLS.
  std::vector<std::string> admin_client_names = {};

  bool any() const {
    return !admin_token.empty() || !admin_client_names.empty();
  }
};

// Whether `address` ("host:port", "unix:path") only takes connections from
// this machine: 127.0.0.0/8, [::1], localhost, a unix socket.
bool IsLoopbackAddress(absl::string_view address);

// INVALID_ARGUMENT naming the flag when the admin listener would be open to
// the network without credentials (a non-loopback admin_listen and no
// token or client names), or when admin_client_names is given without
// mutual TLS (no client certificate could ever match).
absl::Status CheckAdminOptions(absl::string_view admin_listen,
                               const AdminAuthOptions& auth, bool mutual_tls);

// Whether `a` equals `b`, in a time that depends on b's length only (b is
// the secret's length; a caller learns nothing from timing but that).
bool ConstantTimeEquals(absl::string_view a, absl::string_view b);

class AdminGate {
 public:
  // Every call is refused with UNIMPLEMENTED and `reason` (which says where
  // level changes are served, or that none are).
  static AdminGate Closed(std::string reason);
  // Calls are checked against `auth`; with nothing in it (a loopback admin
  // listener: CheckAdminOptions) every call is let through.
  static AdminGate Open(AdminAuthOptions auth);

  // OK when the call may change levels. UNAUTHENTICATED when it carries no
  // credential this gate takes (no authorization metadata, and no client
  // certificate when names are listed); PERMISSION_DENIED when it carries
  // one that is wrong (a token that does not match, a bearer scheme
  // missing, a certificate whose names are not listed). Messages never
  // echo the token.
  absl::Status Admit(const grpc::ServerContextBase& context) const;

 private:
  AdminGate(bool open, std::string reason, AdminAuthOptions auth)
      : open_(open), reason_(std::move(reason)), auth_(std::move(auth)) {}

  bool open_;
  std::string reason_;
  AdminAuthOptions auth_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_ADMIN_GATE_H_
