#include "server/fleet/redis_level_sync.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "server/ops/log.h"

namespace collide::server {
namespace {

constexpr absl::string_view kDeleted = "deleted";

// The compare-and-set write. KEYS: index, level key. ARGV: id, expected
// content hash ("" any, "absent" none), new content hash ("deleted": a
// delete), framed level bytes, channel. Returns {1, revision} or {0, the
// content hash held ("absent" for none)}.
constexpr char kWriteScript[] = R"lua(
local entry = redis.call('HGET', KEYS[1], ARGV[1])
local revision, hash = 0, 'absent'
if entry then
  local space = string.find(entry, ' ', 1, true)
  revision = tonumber(string.sub(entry, 1, space - 1))
  hash = string.sub(entry, space + 1)
  if hash == 'deleted' then hash = 'absent' end
end
if ARGV[2] ~= '' and ARGV[2] ~= hash then return {0, hash} end
revision = revision + 1
if ARGV[3] == 'deleted' then
  redis.call('DEL', KEYS[2])
else
  redis.call('SET', KEYS[2], ARGV[4])
end
redis.call('HSET', KEYS[1], ARGV[1], revision .. ' ' .. ARGV[3])
redis.call('PUBLISH', ARGV[5], ARGV[1])
return {1, revision}
)lua";

// Writes a level only if the index has no entry for it (not even a
// tombstone). ARGV: id, content hash, framed bytes, channel. Returns
// {1, revision} or {0, the entry held}.
constexpr char kSeedScript[] = R"lua(
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if entry then return {0, entry} end
redis.call('SET', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], '1 ' .. ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return {1, 1}
)lua";

// A level's index entry and content, read together.
constexpr char kReadScript[] = R"lua(
return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2])}
)lua";

// An index entry: "{revision} {content_hash}".
struct IndexEntry {
  int64_t revision = 0;
  std::string content_hash;
};

std::optional<IndexEntry> ParseEntry(absl::string_view text) {
  const size_t space = text.find(' ');
  IndexEntry entry;
  if (space == absl::string_view::npos ||
      !absl::SimpleAtoi(text.substr(0, space), &entry.revision)) {
    return std::nullopt;
  }
  entry.content_hash = std::string(text.substr(space + 1));
  return entry;
}

absl::string_view Text(const redisReply* reply) {
  return reply->str == nullptr ? absl::string_view()
                               : absl::string_view(reply->str, reply->len);
}

// A script's {flag, value} reply.
absl::StatusOr<std::pair<bool, const redisReply*>> FlagReply(
    const redisReply* reply) {
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
      reply->element[0]->type != REDIS_REPLY_INTEGER) {
    return absl::InternalError("redis: unexpected reply to a level script");
  }
  return std::make_pair(reply->element[0]->integer == 1, reply->element[1]);
}

}  // namespace

RedisLevelSync::RedisLevelSync(LevelStore& store, RedisAddress address)
    : store_(store),
      address_(std::move(address)),
      index_key_(absl::StrCat(address_.prefix, ":index")),
      channel_(absl::StrCat(address_.prefix, ":changes")) {}

RedisLevelSync::~RedisLevelSync() { Stop(); }

std::string RedisLevelSync::url() const {
  const bool v6 = address_.host.find(':') != std::string::npos;
  return absl::StrCat("redis://", v6 ? "[" : "", address_.host, v6 ? "]" : "",
                      ":", address_.port, "/", address_.prefix);
}

absl::StatusOr<RedisReply> RedisLevelSync::Command(
    const std::vector<std::string>& args) {
  absl::MutexLock lock(&command_mutex_);
  if (command_ == nullptr || command_->broken()) {
    command_.reset();
    absl::StatusOr<std::unique_ptr<RedisConnection>> connected =
        RedisConnection::Connect(address_, kTimeout);
    if (!connected.ok()) return connected.status();
    command_ = *std::move(connected);
  }
  return command_->Command(args);
}

bool RedisLevelSync::TakeRevision(absl::string_view id, int64_t revision) {
  absl::MutexLock lock(&revisions_mutex_);
  int64_t& applied = revisions_[id];
  if (revision <= applied) return false;
  applied = revision;
  return true;
}

absl::Status RedisLevelSync::Write(absl::string_view id,
                                   absl::string_view applies_to,
                                   const LevelSnapshot* written) {
  const std::string level_key = absl::StrCat(address_.prefix, ":level:", id);
  std::string frame;
  if (written != nullptr) {
    frame = written->patch == nullptr
                ? formats::EncodeLevelFile(*written->source)
                : formats::EncodeLevelFile(ContentOf(*written));
  }
  absl::StatusOr<RedisReply> reply = Command(
      {"EVAL", kWriteScript, "2", index_key_, level_key, std::string(id),
       std::string(applies_to),
       written != nullptr ? written->content_hash : std::string(kDeleted),
       std::move(frame), channel_});
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::pair<bool, const redisReply*>> result =
      FlagReply(reply->get());
  if (!result.ok()) return result.status();
  if (!result->first) {
    const absl::string_view held = Text(result->second);
    return absl::AbortedError(absl::StrCat(
        "the fleet's level store (", url(), ") holds ",
        held == kAbsent ? absl::StrCat("no level ", formats::LevelName(id))
                        : absl::StrCat(formats::LevelName(id),
                                       " with content_hash ", held)));
  }
  TakeRevision(id, result->second->integer);
  return absl::OkStatus();
}

absl::Status RedisLevelSync::Refresh(absl::string_view id) { return Apply(id); }

absl::Status RedisLevelSync::Apply(absl::string_view id) {
  const std::string level_key = absl::StrCat(address_.prefix, ":level:", id);
  absl::StatusOr<RedisReply> reply = Command(
      {"EVAL", kReadScript, "2", index_key_, level_key, std::string(id)});
  if (!reply.ok()) return reply.status();
  const redisReply* both = reply->get();
  if (both->type != REDIS_REPLY_ARRAY || both->elements != 2) {
    return absl::InternalError("redis: unexpected reply to a level read");
  }
  // No entry: Redis lost its data; the next resync seeds it.
  if (both->element[0]->type != REDIS_REPLY_STRING) return absl::OkStatus();
  const std::string origin =
      absl::StrCat(url(), " level ", formats::LevelName(id));
  std::optional<IndexEntry> entry = ParseEntry(Text(both->element[0]));
  if (!entry) {
    return absl::DataLossError(absl::StrCat(origin, ": bad index entry"));
  }
  if (entry->content_hash == kDeleted) {
    const LevelStore::SyncResult removed = store_.UnloadLevel(
        id, [&] { return TakeRevision(id, entry->revision); });
    if (removed.change == LevelStore::SyncChange::kRemoved) {
      LogAt(LogSeverity::kInfo, {{"level_id", id}, {"origin", url()}},
            "level store: level %s deleted by the fleet",
            LogValue(formats::LevelName(id)));
    }
    return absl::OkStatus();
  }
  if (both->element[1]->type != REDIS_REPLY_STRING) {
    return absl::DataLossError(absl::StrCat(origin, ": no content"));
  }
  absl::StatusOr<v1::Level> level = formats::ParseLevel(
      Text(both->element[1]), formats::LevelFileFormat::kBinary, origin);
  if (!level.ok()) return level.status();
  level->set_id(std::string(id));
  absl::StatusOr<LevelStore::SyncResult> synced = store_.SyncLevel(
      *std::move(level), [&] { return TakeRevision(id, entry->revision); });
  if (!synced.ok()) {
    return absl::Status(synced.status().code(),
                        absl::StrCat(origin, ": ", synced.status().message()));
  }
  if (synced->change == LevelStore::SyncChange::kCreated ||
      synced->change == LevelStore::SyncChange::kReplaced) {
    const LevelSnapshot& served = *synced->snapshot;
    LogAt(LogSeverity::kInfo,
          {{"level_id", served.id},
           {"origin", url()},
           {"version", served.version},
           {"content_hash", served.content_hash}},
          "level store: loaded level %s from %s: version %d, content_hash %s",
          LogValue(formats::LevelName(served.id)), LogValue(url()),
          served.version, served.content_hash);
  }
  return absl::OkStatus();
}

absl::Status RedisLevelSync::Seed(const std::string& id) {
  std::shared_ptr<const LevelSnapshot> served = store_.Find(id);
  if (served == nullptr) return absl::OkStatus();
  absl::StatusOr<RedisReply> reply = Command(
      {"EVAL", kSeedScript, "2", index_key_,
       absl::StrCat(address_.prefix, ":level:", id), id, served->content_hash,
       formats::EncodeLevelFile(ContentOf(*served)), channel_});
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::pair<bool, const redisReply*>> result =
      FlagReply(reply->get());
  if (!result.ok()) return result.status();
  if (!result->first) return Apply(id);  // another replica was first
  TakeRevision(id, result->second->integer);
  Log("level store: wrote level %s to %s (it held none)",
      LogValue(formats::LevelName(id)), LogValue(url()));
  return absl::OkStatus();
}

absl::Status RedisLevelSync::Resync() {
  absl::StatusOr<RedisReply> reply = Command({"HGETALL", index_key_});
  if (!reply.ok()) return reply.status();
  // Redis may have restarted empty, numbering revisions from 1 again: what
  // this replica applied before says nothing about them.
  {
    absl::MutexLock lock(&revisions_mutex_);
    revisions_.clear();
  }
  std::set<std::string, std::less<>> known;
  const redisReply* index = reply->get();
  for (size_t i = 0; i + 1 < index->elements; i += 2) {
    const std::string id(Text(index->element[i]));
    known.insert(id);
    std::optional<IndexEntry> entry = ParseEntry(Text(index->element[i + 1]));
    std::shared_ptr<const LevelSnapshot> served = store_.Find(id);
    absl::Status status;
    if (entry && served != nullptr &&
        served->content_hash == entry->content_hash) {
      TakeRevision(id, entry->revision);
    } else if (!entry || entry->content_hash != kDeleted || served != nullptr) {
      status = Apply(id);
    }
    if (absl::IsUnavailable(status)) return status;
    if (!status.ok()) {
      // One bad level must not keep the others from loading.
      LogAt(LogSeverity::kWarning, {{"level_id", id}, {"status", status}},
            "level store: cannot load level %s: %s",
            LogValue(formats::LevelName(id)), LogValue(status));
    }
  }
  for (const std::shared_ptr<const LevelSnapshot>& served : store_.List()) {
    if (known.contains(served->id)) continue;
    if (absl::Status s = Seed(served->id); !s.ok()) return s;
  }
  return absl::OkStatus();
}

bool RedisLevelSync::SleepUnlessStopping(absl::Duration wait) {
  absl::MutexLock lock(&stop_mutex_);
  stop_mutex_.AwaitWithTimeout(absl::Condition(&stopping_), wait);
  return stopping_;
}

void RedisLevelSync::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void RedisLevelSync::Stop() {
  {
    absl::MutexLock lock(&stop_mutex_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void RedisLevelSync::Run() {
  absl::Duration backoff = kMinBackoff;
  bool down = false;
  while (!SleepUnlessStopping(absl::ZeroDuration())) {
    absl::StatusOr<std::unique_ptr<RedisConnection>> subscriber =
        RedisConnection::Connect(address_, kTimeout);
    absl::Status status = subscriber.ok()
                              ? (*subscriber)->Send({"SUBSCRIBE", channel_})
                              : subscriber.status();
    // Subscribed before resynchronising, so no change falls between.
    for (absl::Time give_up = absl::Now() + kTimeout; status.ok();) {
      absl::StatusOr<std::optional<RedisReply>> confirmed =
          (*subscriber)->NextReply(kPollWait);
      if (!confirmed.ok()) {
        status = confirmed.status();
      } else if (confirmed->has_value()) {
        break;
      } else if (absl::Now() > give_up) {
        status = absl::UnavailableError("redis: no reply to SUBSCRIBE");
      }
    }
    if (status.ok()) status = Resync();
    if (!status.ok()) {
      if (!down) {
        LogAt(LogSeverity::kWarning, {{"status", status}},
              "level store: %s unreachable, serving the levels held, level "
              "changes refused until it returns: %s",
              LogValue(url()), LogValue(status));
        down = true;
      }
      if (SleepUnlessStopping(backoff)) return;
      backoff = std::min(backoff * 2, kMaxBackoff);
      continue;
    }
    if (down)
      Log("level store: %s is back, levels resynchronised", LogValue(url()));
    down = false;
    backoff = kMinBackoff;
    while (!SleepUnlessStopping(absl::ZeroDuration())) {
      absl::StatusOr<std::optional<RedisReply>> next =
          (*subscriber)->NextReply(kPollWait);
      if (!next.ok()) {
        status = next.status();
        break;
      }
      if (!next->has_value()) continue;
      const redisReply* message = next->value().get();
      // ["message", channel, id]
      if (message->type != REDIS_REPLY_ARRAY || message->elements != 3 ||
          Text(message->element[0]) != "message") {
        continue;
      }
      status = Apply(Text(message->element[2]));
      if (absl::IsUnavailable(status)) break;
      if (!status.ok()) {
        LogAt(LogSeverity::kWarning, {{"status", status}},
              "level store: cannot apply a change: %s", LogValue(status));
      }
    }
    if (!status.ok()) {
      LogAt(LogSeverity::kWarning, {{"status", status}},
            "level store: lost %s, serving the levels held, level changes "
            "refused until it returns: %s",
            LogValue(url()), LogValue(status));
      down = true;
    }
  }
}

}  // namespace collide::server
