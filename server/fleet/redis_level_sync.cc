#include "server/fleet/redis_level_sync.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
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
#include "server/fleet/redis_level_scripts.h"
#include "server/levels/content_hash.h"
#include "server/ops/log.h"

namespace collide::server {
namespace {

constexpr absl::string_view kDeleted = FleetCopy::kTombstone;

// How many times Resync starts over after changing the store itself.
constexpr int kResyncPasses = 4;

// A fresh store epoch: 128 random bits as hex.
std::string NewEpoch() {
  std::random_device random;
  std::string epoch;
  for (int i = 0; i < 4; ++i) {
    absl::StrAppend(&epoch, absl::Hex(random(), absl::kZeroPad8));
  }
  return epoch;
}

// The store as replied to the list script: its epoch ("" for none) and its
// index, id -> entry text.
struct StoreState {
  std::string epoch;
  std::map<std::string, std::string, std::less<>> index;
};

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
absl::StatusOr<std::pair<int64_t, const redisReply*>> FlagReply(
    const redisReply* reply) {
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
      reply->element[0]->type != REDIS_REPLY_INTEGER) {
    return absl::InternalError("redis: unexpected reply to a level script");
  }
  return std::make_pair(reply->element[0]->integer, reply->element[1]);
}

// Flag 2 of a writing script: the store's epoch is not the one written
// under.
constexpr int64_t kEpochGone = 2;

}  // namespace

RedisLevelSync::RedisLevelSync(LevelStore& store, RedisAddress address,
                               BaseLevels base, std::string copy_dir)
    : store_(store),
      address_(std::move(address)),
      base_(std::move(base)),
      index_key_(absl::StrCat(address_.prefix, ":index")),
      epoch_key_(absl::StrCat(address_.prefix, ":epoch")),
      restored_key_(absl::StrCat(address_.prefix, ":restored")),
      channel_(absl::StrCat(address_.prefix, ":changes")),
      copy_(std::move(copy_dir), address_.prefix) {}

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

void RedisLevelSync::RequestResync() { resync_requested_.store(true); }

absl::StatusOr<std::vector<std::string>> RedisLevelSync::LoadCopy(
    int64_t max_file_bytes) {
  std::vector<std::string> lines;
  int levels = 0;
  absl::StatusOr<std::vector<std::string>> notes = copy_.Load(
      max_file_bytes, [&](const std::string& id, const std::string& framed) {
        const std::string origin =
            absl::StrCat("the fleet copy's level ", formats::LevelName(id));
        absl::StatusOr<v1::Level> level = formats::ParseLevel(
            framed, formats::LevelFileFormat::kBinary, origin);
        absl::Status status = level.status();
        if (level.ok()) {
          level->set_id(id);
          status =
              store_.SyncLevel(*std::move(level), [] { return true; }).status();
        }
        if (status.ok()) {
          ++levels;
        } else {
          lines.push_back(
              absl::StrCat("cannot serve ", origin, ": ", status.ToString()));
        }
      });
  if (!notes.ok()) return notes.status();
  lines.insert(lines.end(), notes->begin(), notes->end());
  int deletions = 0;
  for (const auto& [id, entry] : copy_.entries()) {
    if (entry.content_hash != kDeleted) continue;
    ++deletions;
    store_.UnloadLevel(id, [] { return true; });
  }
  if (!copy_.epoch().empty()) {
    lines.push_back(absl::StrCat("served the fleet copy of epoch ",
                                 copy_.epoch(), ": ", levels, " level(s), ",
                                 deletions, " deletion(s)"));
  }
  return lines;
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
  const std::string hash =
      written != nullptr ? written->content_hash : std::string(kDeleted);
  absl::StatusOr<RedisReply> reply =
      Command({"EVAL", redis_scripts::kWrite, "4", index_key_, level_key,
               epoch_key_, restored_key_, std::string(id),
               std::string(applies_to), hash, frame, channel_, copy_.epoch()});
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::pair<int64_t, const redisReply*>> result =
      FlagReply(reply->get());
  if (!result.ok()) return result.status();
  if (result->first == kEpochGone) {
    RequestResync();
    return absl::UnavailableError(
        absl::StrCat("the fleet's level store (", url(),
                     ") lost its data or was initialised anew; this replica is "
                     "resynchronising with it: retry"));
  }
  if (result->first != 1) {
    const absl::string_view held = Text(result->second);
    return absl::AbortedError(absl::StrCat(
        "the fleet's level store (", url(), ") holds ",
        held == kAbsent ? absl::StrCat("no level ", formats::LevelName(id))
                        : absl::StrCat(formats::LevelName(id),
                                       " with content_hash ", held)));
  }
  const int64_t revision = result->second->integer;
  TakeRevision(id, revision);
  copy_.Record(std::string(id), {revision, hash}, [&] { return frame; });
  if (absl::Status s = copy_.Flush(); !s.ok()) {
    LogAt(LogSeverity::kWarning, {{"status", s}},
          "level store: cannot write the fleet copy: %s", LogValue(s));
  }
  return absl::OkStatus();
}

absl::Status RedisLevelSync::Refresh(absl::string_view id) { return Apply(id); }

absl::Status RedisLevelSync::Apply(absl::string_view id, bool in_resync) {
  const std::string level_key = absl::StrCat(address_.prefix, ":level:", id);
  absl::StatusOr<RedisReply> reply =
      Command({"EVAL", redis_scripts::kRead, "3", index_key_, level_key,
               epoch_key_, std::string(id)});
  if (!reply.ok()) return reply.status();
  const redisReply* both = reply->get();
  if (both->type != REDIS_REPLY_ARRAY || both->elements != 3) {
    return absl::InternalError("redis: unexpected reply to a level read");
  }
  if (Text(both->element[2]) != copy_.epoch() ||
      both->element[2]->type != REDIS_REPLY_STRING) {
    RequestResync();
    return absl::UnavailableError(
        absl::StrCat(url(), " lost its data or was initialised anew"));
  }
  // No entry: only a store older than epochs, or one edited by hand.
  if (both->element[0]->type != REDIS_REPLY_STRING) return absl::OkStatus();
  const std::string origin =
      absl::StrCat(url(), " level ", formats::LevelName(id));
  std::optional<IndexEntry> entry = ParseEntry(Text(both->element[0]));
  if (!entry) {
    return absl::DataLossError(absl::StrCat(origin, ": bad index entry"));
  }
  const auto record = [&](absl::string_view framed) {
    // In a resynchronisation the store is the truth, even where the copy
    // holds a newer revision (RestoreLost found it superseded).
    copy_.Record(
        std::string(id), {entry->revision, entry->content_hash},
        [&] { return std::string(framed); }, in_resync);
    if (in_resync) return;
    if (absl::Status s = copy_.Flush(); !s.ok()) {
      LogAt(LogSeverity::kWarning, {{"status", s}},
            "level store: cannot write the fleet copy: %s", LogValue(s));
    }
  };
  // Recorded under the store's writers' lock right before the swap, so
  // what the replica serves is in its copy (a replica killed right after
  // serving a change restores it).
  bool recorded = false;
  if (entry->content_hash == kDeleted) {
    const LevelStore::SyncResult removed = store_.UnloadLevel(id, [&] {
      if (!TakeRevision(id, entry->revision)) return false;
      record("");
      recorded = true;
      return true;
    });
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
  const absl::string_view framed = Text(both->element[1]);
  absl::StatusOr<v1::Level> level =
      formats::ParseLevel(framed, formats::LevelFileFormat::kBinary, origin);
  if (!level.ok()) return level.status();
  level->set_id(std::string(id));
  absl::StatusOr<LevelStore::SyncResult> synced =
      store_.SyncLevel(*std::move(level), [&] {
        if (!TakeRevision(id, entry->revision)) return false;
        record(framed);
        recorded = true;
        return true;
      });
  if (!synced.ok()) {
    return absl::Status(synced.status().code(),
                        absl::StrCat(origin, ": ", synced.status().message()));
  }
  // Served already (no swap): the copy only learns the revision.
  if (!recorded && synced->change == LevelStore::SyncChange::kUnchanged) {
    record(framed);
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
  const auto base = base_.find(id);
  if (base == base_.end()) return absl::OkStatus();
  absl::StatusOr<RedisReply> reply = Command(
      {"EVAL", redis_scripts::kSeed, "3", index_key_,
       absl::StrCat(address_.prefix, ":level:", id), epoch_key_, id,
       ContentHash(*base->second), formats::EncodeLevelFile(*base->second),
       channel_, copy_.epoch()});
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::pair<int64_t, const redisReply*>> result =
      FlagReply(reply->get());
  if (!result.ok()) return result.status();
  if (result->first == kEpochGone) {
    return absl::UnavailableError(
        absl::StrCat(url(), " lost its data or was initialised anew"));
  }
  if (result->first == 1) {
    Log("level store: wrote level %s to %s (it had no entry for it)",
        LogValue(formats::LevelName(id)), LogValue(url()));
  }
  return Apply(id, /*in_resync=*/true);
}

absl::Status RedisLevelSync::Initialise() {
  std::string epoch = copy_.epoch();
  const bool restore = !epoch.empty();
  std::vector<std::string> keys = {epoch_key_, index_key_, restored_key_};
  std::vector<std::string> values;
  int levels = 0;
  int deletions = 0;
  const auto add = [&](const std::string& id, int64_t revision,
                       const std::string& hash, std::string framed) {
    keys.push_back(absl::StrCat(address_.prefix, ":level:", id));
    values.push_back(id);
    values.push_back(absl::StrCat(revision, " ", hash));
    values.push_back(std::move(framed));
    ++(hash == kDeleted ? deletions : levels);
  };
  if (restore) {
    for (const auto& [id, entry] : copy_.entries()) {
      if (entry.content_hash == kDeleted) {
        add(id, entry.revision, entry.content_hash, "");
        continue;
      }
      std::shared_ptr<const LevelSnapshot> served = store_.Find(id);
      if (served == nullptr || served->content_hash != entry.content_hash) {
        LogAt(LogSeverity::kWarning, {{"level_id", id}},
              "level store: cannot restore level %s: this replica no longer "
              "serves the content its copy names",
              LogValue(formats::LevelName(id)));
        continue;
      }
      add(id, entry.revision, entry.content_hash,
          formats::EncodeLevelFile(ContentOf(*served)));
    }
  } else {
    epoch = NewEpoch();
    for (const auto& [id, level] : base_) {
      add(id, 1, ContentHash(*level), formats::EncodeLevelFile(*level));
    }
  }
  std::vector<std::string> args = {"EVAL", redis_scripts::kInitialise,
                                   absl::StrCat(keys.size())};
  args.insert(args.end(), keys.begin(), keys.end());
  args.push_back(epoch);
  args.push_back(channel_);
  args.push_back(restore ? "restore" : "seed");
  args.insert(args.end(), std::make_move_iterator(values.begin()),
              std::make_move_iterator(values.end()));
  absl::StatusOr<RedisReply> reply = Command(args);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::pair<int64_t, const redisReply*>> result =
      FlagReply(reply->get());
  if (!result.ok()) return result.status();
  if (result->first == 1 && restore) {
    LogAt(LogSeverity::kWarning, {{"origin", url()}, {"epoch", epoch}},
          "level store: %s had lost its data: restored it from this "
          "replica's copy (epoch %s): %d level(s), %d deletion(s)",
          LogValue(url()), epoch, levels, deletions);
  } else if (result->first == 1) {
    Log("level store: %s was empty: initialised it (epoch %s) with %d base "
        "level(s)",
        LogValue(url()), epoch, levels);
  } else if (result->first == 3) {
    Log("level store: %s held levels but no epoch: gave it epoch %s",
        LogValue(url()), epoch);
  }
  return absl::OkStatus();
}

absl::Status RedisLevelSync::RestoreLost(
    const std::map<std::string, std::string, std::less<>>& index, bool& again) {
  int written = 0;
  for (const auto& [id, mine] : copy_.entries()) {
    const auto theirs = index.find(id);
    if (theirs != index.end()) {
      std::optional<IndexEntry> entry = ParseEntry(theirs->second);
      if (!entry || entry->revision >= mine.revision) continue;
    }
    std::string framed;
    if (mine.content_hash != kDeleted) {
      std::shared_ptr<const LevelSnapshot> served = store_.Find(id);
      if (served == nullptr || served->content_hash != mine.content_hash) {
        continue;
      }
      framed = formats::EncodeLevelFile(ContentOf(*served));
    }
    absl::StatusOr<RedisReply> reply = Command(
        {"EVAL", redis_scripts::kRestoreEntry, "4", epoch_key_, index_key_,
         restored_key_, absl::StrCat(address_.prefix, ":level:", id),
         copy_.epoch(), id, absl::StrCat(mine.revision), mine.content_hash,
         std::move(framed), channel_});
    if (!reply.ok()) return reply.status();
    absl::StatusOr<std::pair<int64_t, const redisReply*>> result =
        FlagReply(reply->get());
    if (!result.ok()) return result.status();
    if (result->first == kEpochGone) {
      again = true;
      return absl::OkStatus();
    }
    if (result->first == 1) ++written;
  }
  if (written > 0) {
    LogAt(LogSeverity::kWarning, {{"origin", url()}},
          "level store: wrote back %d entr%s %s had lost, from this "
          "replica's copy",
          written, written == 1 ? "y" : "ies", LogValue(url()));
    again = true;
  }
  return absl::OkStatus();
}

absl::Status RedisLevelSync::ApplyIndex(
    const std::map<std::string, std::string, std::less<>>& index) {
  // Redis may have been replaced, numbering revisions anew: what this
  // replica applied before says nothing about them.
  {
    absl::MutexLock lock(&revisions_mutex_);
    revisions_.clear();
  }
  for (const auto& [id, text] : index) {
    std::optional<IndexEntry> entry = ParseEntry(text);
    std::shared_ptr<const LevelSnapshot> served = store_.Find(id);
    absl::Status status;
    if (entry && served != nullptr &&
        served->content_hash == entry->content_hash) {
      TakeRevision(id, entry->revision);
      copy_.Record(
          id, {entry->revision, entry->content_hash},
          [&] { return formats::EncodeLevelFile(ContentOf(*served)); },
          /*force=*/true);
    } else {
      status = Apply(id, /*in_resync=*/true);
    }
    if (absl::IsUnavailable(status)) return status;
    if (!status.ok()) {
      // One bad level must not keep the others from loading.
      LogAt(LogSeverity::kWarning, {{"level_id", id}, {"status", status}},
            "level store: cannot load level %s: %s",
            LogValue(formats::LevelName(id)), LogValue(status));
    }
  }
  std::set<std::string, std::less<>> unknown;
  for (const std::shared_ptr<const LevelSnapshot>& served : store_.List()) {
    if (!index.contains(served->id)) unknown.insert(served->id);
  }
  for (const auto& [id, level] : base_) {
    if (!index.contains(id)) unknown.insert(id);
  }
  for (const std::string& id : unknown) {
    if (base_.contains(id)) {
      if (absl::Status s = Seed(id); !s.ok()) return s;
      continue;
    }
    // A level of another store's copy: the fleet no longer has it.
    if (store_.UnloadLevel(id, [] { return true; }).change ==
        LevelStore::SyncChange::kRemoved) {
      Log("level store: stopped serving level %s: %s does not hold it",
          LogValue(formats::LevelName(id)), LogValue(url()));
    }
  }
  return absl::OkStatus();
}

absl::Status RedisLevelSync::ResyncOnce(bool& again) {
  again = false;
  absl::StatusOr<RedisReply> reply =
      Command({"EVAL", redis_scripts::kList, "2", epoch_key_, index_key_});
  if (!reply.ok()) return reply.status();
  const redisReply* both = reply->get();
  if (both->type != REDIS_REPLY_ARRAY || both->elements != 2 ||
      both->element[1]->type != REDIS_REPLY_ARRAY) {
    return absl::InternalError("redis: unexpected reply to the index read");
  }
  StoreState state;
  state.epoch = std::string(Text(both->element[0]));
  const redisReply* index = both->element[1];
  for (size_t i = 0; i + 1 < index->elements; i += 2) {
    state.index[std::string(Text(index->element[i]))] =
        std::string(Text(index->element[i + 1]));
  }
  if (state.epoch.empty()) {
    again = true;
    return Initialise();
  }
  if (state.epoch != copy_.epoch()) {
    if (!copy_.epoch().empty()) {
      LogAt(LogSeverity::kWarning, {{"origin", url()}},
            "level store: %s is another store than this replica's copy "
            "(epoch %s, the copy's %s): serving its levels",
            LogValue(url()), LogValue(state.epoch), LogValue(copy_.epoch()));
    }
    copy_.Reset(state.epoch);
  } else {
    if (absl::Status s = RestoreLost(state.index, again); !s.ok()) return s;
    if (again) return absl::OkStatus();
  }
  absl::Status status = ApplyIndex(state.index);
  if (absl::Status s = copy_.Flush(); !s.ok()) {
    LogAt(LogSeverity::kWarning, {{"status", s}},
          "level store: cannot write the fleet copy: %s", LogValue(s));
  }
  return status;
}

absl::Status RedisLevelSync::Resync() {
  absl::MutexLock lock(&resync_mutex_);
  resync_requested_.store(false);
  for (int pass = 0; pass < kResyncPasses; ++pass) {
    bool again = false;
    if (absl::Status s = ResyncOnce(again); !s.ok()) return s;
    if (!again) return absl::OkStatus();
  }
  return absl::UnavailableError(
      absl::StrCat(url(), " kept changing while this replica resynchronised"));
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
    absl::Time next_check = absl::Now() + kEpochCheckInterval;
    bool resync = false;
    while (!SleepUnlessStopping(absl::ZeroDuration())) {
      if (resync_requested_.load()) {
        resync = true;
        break;
      }
      if (absl::Now() >= next_check) {
        // A store that lost its data keeps the connections: only its
        // missing epoch tells.
        next_check = absl::Now() + kEpochCheckInterval;
        absl::StatusOr<RedisReply> epoch = Command({"GET", epoch_key_});
        if (!epoch.ok()) {
          status = epoch.status();
          break;
        }
        if ((*epoch)->type != REDIS_REPLY_STRING ||
            Text(epoch->get()) != copy_.epoch()) {
          resync = true;
          break;
        }
      }
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
      if (absl::IsUnavailable(status)) {
        if (resync_requested_.load()) {
          resync = true;
          status = absl::OkStatus();
        }
        break;
      }
      if (!status.ok()) {
        LogAt(LogSeverity::kWarning, {{"status", status}},
              "level store: cannot apply a change: %s", LogValue(status));
      }
    }
    if (resync) {
      LogAt(LogSeverity::kWarning, {{"origin", url()}},
            "level store: %s lost its data or was initialised anew: "
            "resynchronising",
            LogValue(url()));
      continue;
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
