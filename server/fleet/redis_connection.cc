#include "server/fleet/redis_connection.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace collide::server {
namespace {

constexpr absl::string_view kScheme = "redis://";
constexpr absl::string_view kDefaultPrefix = "collide";

absl::Status BadUrl(absl::string_view url, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("level_store \"", url, "\": ", why,
                   " (expected redis://host:port/prefix)"));
}

}  // namespace

absl::StatusOr<RedisAddress> ParseRedisUrl(absl::string_view url) {
  if (!absl::StartsWith(url, kScheme)) return BadUrl(url, "not redis://");
  absl::string_view rest = url.substr(kScheme.size());
  RedisAddress address;
  const size_t slash = rest.find('/');
  address.prefix = std::string(
      slash == absl::string_view::npos ? "" : rest.substr(slash + 1));
  if (address.prefix.empty()) address.prefix = std::string(kDefaultPrefix);
  if (absl::StrContains(address.prefix, ' ') ||
      absl::StrContains(address.prefix, '/')) {
    return BadUrl(url, "the prefix may not hold spaces or slashes");
  }
  absl::string_view host_port = rest.substr(0, slash);
  absl::string_view port;
  if (absl::StartsWith(host_port, "[")) {
    const size_t close = host_port.find(']');
    if (close == absl::string_view::npos) return BadUrl(url, "unclosed [");
    address.host = std::string(host_port.substr(1, close - 1));
    absl::string_view after = host_port.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return BadUrl(url, "junk after ]");
      port = after.substr(1);
    }
  } else {
    const size_t colon = host_port.rfind(':');
    address.host = std::string(host_port.substr(0, colon));
    if (colon != absl::string_view::npos) port = host_port.substr(colon + 1);
  }
  if (address.host.empty()) return BadUrl(url, "no host");
  if (!port.empty() && (!absl::SimpleAtoi(port, &address.port) ||
                        address.port < 1 || address.port > 65535)) {
    return BadUrl(url, "the port must be in [1, 65535]");
  }
  return address;
}

absl::StatusOr<std::unique_ptr<RedisConnection>> RedisConnection::Connect(
    const RedisAddress& address, absl::Duration timeout) {
  const timeval tv = absl::ToTimeval(timeout);
  redisContext* context =
      redisConnectWithTimeout(address.host.c_str(), address.port, tv);
  const std::string where = absl::StrCat(address.host, ":", address.port);
  if (context == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot connect to redis at ", where, ": out of memory"));
  }
  if (context->err != 0 || redisSetTimeout(context, tv) != REDIS_OK) {
    const std::string why = context->errstr;
    redisFree(context);
    return absl::UnavailableError(
        absl::StrCat("cannot connect to redis at ", where, ": ", why));
  }
  auto connection =
      std::unique_ptr<RedisConnection>(new RedisConnection(context, where));
  if (address.password.empty()) return connection;
  std::vector<std::string> auth = {"AUTH"};
  if (!address.username.empty()) auth.push_back(address.username);
  auth.push_back(address.password);
  absl::StatusOr<RedisReply> reply = connection->Command(auth);
  if (!reply.ok()) {
    // Command's text names the command and Redis' reply (WRONGPASS...),
    // never the arguments. UNAVAILABLE as for a Redis that cannot be
    // reached: the store is out of this replica's reach until the password
    // is fixed, and writes fail as they do then (not PERMISSION_DENIED,
    // which would blame the caller's admin credentials).
    return absl::UnavailableError(reply.status().message());
  }
  return connection;
}

absl::Status RedisConnection::IoError() const {
  return absl::UnavailableError(
      absl::StrCat("redis at ", address_, ": ",
                   context_->err != 0 ? context_->errstr : "no reply"));
}

absl::StatusOr<RedisReply> RedisConnection::Command(
    const std::vector<std::string>& args) {
  if (broken()) return IoError();
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  RedisReply reply(static_cast<redisReply*>(redisCommandArgv(
      context_, static_cast<int>(argv.size()), argv.data(), lengths.data())));
  if (reply == nullptr) return IoError();
  if (reply->type == REDIS_REPLY_ERROR) {
    return absl::InternalError(
        absl::StrCat("redis at ", address_, " refused ", args[0], ": ",
                     absl::string_view(reply->str, reply->len)));
  }
  return reply;
}

absl::Status RedisConnection::Send(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  if (redisAppendCommandArgv(context_, static_cast<int>(argv.size()),
                             argv.data(), lengths.data()) != REDIS_OK) {
    return IoError();
  }
  int done = 0;
  while (!done) {
    if (redisBufferWrite(context_, &done) != REDIS_OK) return IoError();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<RedisReply>> RedisConnection::NextReply(
    absl::Duration wait) {
  void* raw = nullptr;
  // A reply already read into the buffer comes first; reading the socket
  // only when the buffer holds none keeps the wait bounded by `wait`.
  if (redisGetReplyFromReader(context_, &raw) != REDIS_OK) return IoError();
  if (raw == nullptr) {
    pollfd fd{.fd = context_->fd, .events = POLLIN, .revents = 0};
    const int ready =
        poll(&fd, 1, static_cast<int>(absl::ToInt64Milliseconds(wait)));
    if (ready == 0) return std::nullopt;
    if (ready < 0) return std::nullopt;  // EINTR: the caller polls again
    if (redisBufferRead(context_) != REDIS_OK) return IoError();
    if (redisGetReplyFromReader(context_, &raw) != REDIS_OK) {
      return IoError();
    }
    if (raw == nullptr) return std::nullopt;  // part of a reply so far
  }
  return RedisReply(static_cast<redisReply*>(raw));
}

}  // namespace collide::server
