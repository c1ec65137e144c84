// A blocking connection to Redis (hiredis), as the shared level store uses
// it: one for commands (scripts, reads) and one subscribed to the change
// channel. Every wait is bounded: connecting and each command time out, so
// a Redis that is down or unreachable makes calls fail with UNAVAILABLE
// instead of hanging an admin call or the subscriber thread.
//
// hiredis cannot reuse a context after an I/O error or timeout; such a
// connection reports broken() and the owner connects again.
#ifndef COLLIDE_SERVER_FLEET_REDIS_CONNECTION_H_
#define COLLIDE_SERVER_FLEET_REDIS_CONNECTION_H_

#include <hiredis/hiredis.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace collide::server {

// Where a fleet's levels live: --level_store=redis://host:port/prefix.
struct RedisAddress {
  std::string host;
  int port = 6379;
  // Start of every key and channel name ("{prefix}:index", ...), so
  // several fleets can share one Redis.
  std::string prefix;
  // Credentials sent with AUTH on every new connection, before any other
  // command (--level_store_user, --level_store_password_file): an ACL user
  // and its password, or the password alone (Redis' default user,
  // requirepass). Empty password: no AUTH. Never in the URL, so never in a
  // log line.
  std::string username;
  std::string password;
};

// Parses "redis://host:port/prefix" (port optional, 6379; prefix optional,
// "collide"; host may be a name, an IPv4 address or "[IPv6]").
// INVALID_ARGUMENT naming level_store and what is wrong.
absl::StatusOr<RedisAddress> ParseRedisUrl(absl::string_view url);

struct RedisReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;

class RedisConnection {
 public:
  // Connects within `timeout` and authenticates with address.password when
  // set; each command then waits at most `timeout` for its reply.
  // UNAVAILABLE naming the address when it cannot connect, or with Redis'
  // reply (not the password) when AUTH is refused.
  static absl::StatusOr<std::unique_ptr<RedisConnection>> Connect(
      const RedisAddress& address, absl::Duration timeout);

  ~RedisConnection() { redisFree(context_); }
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends `args` (binary-safe) and waits for the reply. UNAVAILABLE on an
  // I/O error or timeout (the connection is then broken); an error reply
  // ("-ERR ...") is INTERNAL with its text: our scripts and commands are
  // fixed, so an error reply is our bug or a Redis that is not Redis.
  absl::StatusOr<RedisReply> Command(const std::vector<std::string>& args);

  // Sends `args` without waiting (SUBSCRIBE), for NextReply to read.
  absl::Status Send(const std::vector<std::string>& args);

  // The next reply (a pushed message, on a subscribed connection), waiting
  // at most `wait`: nullopt when none came (the connection stays usable).
  // UNAVAILABLE when the connection failed or Redis closed it.
  absl::StatusOr<std::optional<RedisReply>> NextReply(absl::Duration wait);

  bool broken() const { return context_->err != 0; }

 private:
  RedisConnection(redisContext* context, std::string address)
      : context_(context), address_(std::move(address)) {}
  absl::Status IoError() const;

  redisContext* const context_;
  // "host:port", for messages.
  const std::string address_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_FLEET_REDIS_CONNECTION_H_
