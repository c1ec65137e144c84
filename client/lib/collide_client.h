// CollideClient: the C++ client library of collide. Connects to one server,
// several replicas (round_robin over a list of addresses), or a DNS name
// whose addresses are the replicas; puts, lists, describes, fetches and
// deletes levels; runs single queries and batches; checks health; and opens
// QueryStreams (query_stream.h) for the high-rate path. Every call has a
// deadline (ClientOptions::call_timeout) and returns absl::Status /
// absl::StatusOr with the server's code and message.
//
// Queries are read-only, so batches are retried on UNAVAILABLE (a replica
// that went away, a connection reset) and CANCELLED (a draining replica
// cancelled the call; this library never cancels a unary call itself): by
// gRPC's retry policy for calls that fail before the server answers, and
// by the client itself up to max_attempts when the failure comes later.
// Streams reopen and resend their unanswered batches (query_stream.h). Level
// administration is not retried: a put or delete that failed for UNAVAILABLE
// may have happened.
//
// Security: TLS (a CA file, or the system's roots), mutual TLS (a client
// certificate and key), and a server name override for certificates that
// do not name the address dialled. Level changes go to the server's admin
// listener (admin_target) with an optional bearer token; reads of levels,
// queries and health go to target.
#ifndef COLLIDE_CLIENT_LIB_COLLIDE_CLIENT_H_
#define COLLIDE_CLIENT_LIB_COLLIDE_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "client/lib/query_stream.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide::client {

struct ClientOptions {
  // Where the server is: "host:port"; several "host:port" separated by
  // commas (IP literals of one family, one per replica: "127.0.0.1:50051,
  // 127.0.0.1:50052", "[::1]:50051,[::1]:50052"); or any gRPC target URI,
  // e.g. "dns:///collide.default.svc.cluster.local:50051", whose addresses
  // are all used.
  std::string target = "127.0.0.1:50051";
  // "round_robin" spreads calls and streams over every address;
  // "pick_first" uses one until it fails.
  std::string load_balancing = "round_robin";
  // Deadline of each unary call (each attempt of a retried one).
  absl::Duration call_timeout = absl::Seconds(10);
  // Attempts of a query batch on UNAVAILABLE or CANCELLED, the first
  // included (>= 1).
  int max_attempts = 3;
  // Largest message sent or received (bytes); levels can be large.
  int max_message_bytes = 64 << 20;
  // Keepalive: a connection is pinged after this long without activity and
  // closed when the ping gets no answer within keepalive_timeout, failing
  // its calls with UNAVAILABLE (so batches are retried on another replica)
  // instead of waiting out their deadline on a replica that hangs without
  // closing its connections. collide_server accepts pings once a second.
  absl::Duration keepalive_time = absl::Seconds(10);
  absl::Duration keepalive_timeout = absl::Seconds(5);
  // TLS: on when `tls` is set or any tls_* file is given; every channel
  // (queries and admin) uses it. Files are PEM, read by Connect.
  bool tls = false;
  // CAs that sign the server's certificate; empty: the system's roots.
  std::string tls_ca_file = "";
  // Client certificate chain and key, for servers that require them
  // (mutual TLS); both or neither.
  std::string tls_cert_file = "";
  std::string tls_key_file = "";
  // The name the server's certificate must carry (and the TLS SNI), when
  // it is not the host in target (an IP address, a load balancer's name).
  std::string tls_server_name = "";
  // Where level changes (PutLevel, DeleteLevel) go: the server's admin
  // listener (collide_server --admin_listen, 127.0.0.1:50052 by default),
  // in target's forms. Empty: target (a server whose admin_listen equals
  // its listen address).
  std::string admin_target = "";
  // Bearer token sent with level changes as "authorization: Bearer TOKEN"
  // (collide_server --admin_token_file); empty: none.
  std::string admin_token = "";
  // Metadata (key, value) sent with every call and stream, e.g. headers a
  // proxy in front of the server routes or authenticates by. Keys are
  // lower case ASCII; a key ending in "-bin" carries binary values.
  std::vector<std::pair<std::string, std::string>> metadata = {};
};

// "key:value" pairs of the tools' --metadata flags, the value's leading
// spaces dropped: INVALID_ARGUMENT naming the flag for one without a colon
// or with a key gRPC cannot send (upper case, "grpc-...", other characters).
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ParseMetadata(
    const std::vector<std::string>& pairs);

// True when `options` asks for TLS (tls, or any tls_* file or name).
bool UsesTls(const ClientOptions& options);

// The gRPC target and channel arguments for `options`: checks the address
// list (INVALID_ARGUMENT naming "target" when empty, mixed or malformed) and
// turns a list into an "ipv4:"/"ipv6:" target; the service config selects
// the load-balancing policy and the retry policy for queries. Credentials
// are TLS ones built from the tls_* files (FAILED_PRECONDITION naming the
// option when one cannot be read, INVALID_ARGUMENT for a certificate
// without its key), or insecure ones.
struct ChannelSpec {
  std::string target;
  grpc::ChannelArguments arguments;
  std::shared_ptr<grpc::ChannelCredentials> credentials;
};
absl::StatusOr<ChannelSpec> MakeChannelSpec(const ClientOptions& options);

// A level write's compare-and-set condition (see
// PutLevelRequest.expected_content_hash): empty / 0 set none.
struct LevelExpectation {
  // A LevelSummary.content_hash, or "absent" (PutLevel only: create only).
  std::string content_hash;
  // A LevelSummary.version.
  int64_t version = 0;
};

class CollideClient {
 public:
  // A client over a new channel to options.target (and one to
  // options.admin_target when set). Connection is lazy: an unreachable
  // server shows up as UNAVAILABLE on the first call.
  static absl::StatusOr<std::unique_ptr<CollideClient>> Connect(
      const ClientOptions& options);

  // A client over given stubs, e.g. the generated mocks in tests (whose
  // CollisionService stub has no callback interface: OpenStream then fails
  // with FAILED_PRECONDITION).
  // `admin_levels` serves level changes; null: `levels` does.
  CollideClient(
      std::unique_ptr<v1::CollisionService::StubInterface> queries,
      std::unique_ptr<v1::LevelService::StubInterface> levels,
      std::unique_ptr<grpc::health::v1::Health::StubInterface> health,
      ClientOptions options,
      std::unique_ptr<v1::LevelService::StubInterface> admin_levels = nullptr);

  // --- Levels. `level_id` is the {level_id} of "levels/{level_id}".
  // Level changes go to the admin stub with the admin token; the server
  // answers UNAUTHENTICATED without a token it needs, PERMISSION_DENIED for
  // a wrong one, UNIMPLEMENTED on a port that serves no level changes.
  // Writes may name what they expect to change (LevelExpectation); a level
  // that moved on refuses them with FAILED_PRECONDITION, changing nothing.
  // Creates or replaces the level (content.id is set to level_id).
  absl::StatusOr<v1::PutLevelResponse> PutLevel(
      absl::string_view level_id, v1::Level content,
      const LevelExpectation& expected = {});
  // Adds, replaces and removes shapes in one atomic step: `patch`'s
  // upserts, remove_ids and expected_* (its level is set to level_id).
  absl::StatusOr<v1::PatchLevelResponse> PatchLevel(
      absl::string_view level_id, v1::PatchLevelRequest patch);
  absl::StatusOr<v1::DeleteLevelResponse> DeleteLevel(
      absl::string_view level_id, const LevelExpectation& expected = {});
  // Every level, and the level directory files the server skipped.
  absl::StatusOr<v1::ListLevelsResponse> ListLevels();
  absl::StatusOr<v1::LevelSummary> DescribeLevel(absl::string_view level_id);
  // The level's shapes as the server holds them, with its summary.
  absl::StatusOr<v1::GetLevelResponse> GetLevel(absl::string_view level_id);

  // --- Queries.
  // One batch (1 to the server's max_batch_size queries), answered on one
  // level version. A batch refused as a whole is an error (NOT_FOUND,
  // INVALID_ARGUMENT, RESOURCE_EXHAUSTED); a bad query is not: its own
  // result carries its status.
  // `expected_content_hash` (optional) names the content the caller expects
  // (LevelSummary.content_hash): a server holding other content refuses
  // the batch with FAILED_PRECONDITION.
  absl::StatusOr<v1::RunQueriesResponse> RunQueries(
      absl::string_view level_id, absl::Span<const v1::Query> queries,
      absl::string_view expected_content_hash = "");
  // A prepared request, e.g. a packed batch (client/lib/packed_batch.h); its
  // level is set here. Retried as above.
  absl::StatusOr<v1::RunQueriesResponse> RunQueries(
      absl::string_view level_id, v1::RunQueriesRequest request);
  // One query; its own status, when not OK, becomes the error.
  absl::StatusOr<v1::QueryResult> RunQuery(absl::string_view level_id,
                                           const v1::Query& query);

  // A bidirectional stream of batches against level_id (query_stream.h).
  absl::StatusOr<std::unique_ptr<QueryStream>> OpenStream(
      absl::string_view level_id, QueryStreamOptions options = {});

  // OK when the server's health service says SERVING (for `service`, ""
  // meaning the whole server); UNAVAILABLE with the reported state
  // otherwise.
  absl::Status CheckHealth(absl::string_view service = "");

  const ClientOptions& options() const { return options_; }

 private:
  // A context carrying the call deadline.
  std::unique_ptr<grpc::ClientContext> NewContext() const;
  // NewContext() plus the admin token, for level changes.
  std::unique_ptr<grpc::ClientContext> NewAdminContext() const;
  // Runs rpc(context, &response) once with a fresh context; the gRPC status
  // becomes an absl::Status.
  template <typename Response, typename Rpc>
  absl::StatusOr<Response> Call(Rpc rpc) const;
  // Call() with NewAdminContext().
  template <typename Response, typename Rpc>
  absl::StatusOr<Response> AdminCall(Rpc rpc) const;

  std::unique_ptr<v1::CollisionService::StubInterface> queries_;
  std::unique_ptr<v1::LevelService::StubInterface> levels_;
  std::unique_ptr<grpc::health::v1::Health::StubInterface> health_;
  ClientOptions options_;
  // Null: levels_ takes level changes too.
  std::unique_ptr<v1::LevelService::StubInterface> admin_levels_;
};

// "levels/{level_id}"; `level_id` may itself be a full name
// ("levels/arena"), as `ListLevels` prints them: both name one level.
std::string LevelName(absl::string_view level_id);
// The {level_id} of "levels/{level_id}", or `level` itself when it is not
// a full name: "levels/arena" and "arena" both give "arena".
std::string LevelId(absl::string_view level);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_COLLIDE_CLIENT_H_
