// The Lua scripts RedisLevelSync runs on Redis (EVAL), each one atomic
// there. Keys: {prefix}:epoch (string), {prefix}:index (hash: id ->
// "{revision} {content_hash}", content_hash "deleted" for a tombstone),
// {prefix}:restored (hash: id -> the entry a replica wrote back from its
// copy, until a write replaces it), {prefix}:level:{id} (framed bytes).
// Every script that writes first checks the epoch, so no write lands in a
// store that lost its data (reply {2, epoch held, or false}).
#ifndef COLLIDE_SERVER_FLEET_REDIS_LEVEL_SCRIPTS_H_
#define COLLIDE_SERVER_FLEET_REDIS_LEVEL_SCRIPTS_H_

namespace collide::server::redis_scripts {

// The compare-and-set write. KEYS: index, level key, epoch, restored.
// ARGV: id, expected content hash ("" any, "absent" none), new content
// hash ("deleted": a delete), framed level bytes, channel, epoch. Returns
// {1, revision}, {0, the content hash held ("absent" for none)} or {2, _}.
inline constexpr char kWrite[] = R"lua(
if redis.call('GET', KEYS[3]) ~= ARGV[6] then
  return {2, redis.call('GET', KEYS[3])}
end
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
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('PUBLISH', ARGV[5], ARGV[1])
return {1, revision}
)lua";

// Writes a base level only if the index has no entry for it (not even a
// tombstone). KEYS: index, level key, epoch. ARGV: id, content hash, framed
// bytes, channel, epoch. Returns {1, revision}, {0, the entry held} or
// {2, _}.
inline constexpr char kSeed[] = R"lua(
if redis.call('GET', KEYS[3]) ~= ARGV[5] then
  return {2, redis.call('GET', KEYS[3])}
end
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if entry then return {0, entry} end
redis.call('SET', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], '1 ' .. ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return {1, 1}
)lua";

// A level's index entry, content and the epoch, read together. KEYS:
// index, level key, epoch. ARGV: id.
inline constexpr char kRead[] = R"lua(
return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2]),
        redis.call('GET', KEYS[3])}
)lua";

// The epoch and the whole index, read together. KEYS: epoch, index.
inline constexpr char kList[] = R"lua(
return {redis.call('GET', KEYS[1]), redis.call('HGETALL', KEYS[2])}
)lua";

// Initialises a store that has no epoch. KEYS: epoch, index, restored, then
// one level key per level. ARGV: epoch, channel, "restore" or "seed", then
// per level: id, entry ("{revision} {content_hash}"), framed bytes ("" for
// a tombstone). With no epoch and no index: sets the epoch, writes every
// level (marked restored when restoring), publishes each id, returns
// {1, epoch}. With no epoch but an index (a store older than epochs): sets
// the epoch only, returns {3, epoch}. With an epoch: {0, that epoch}.
inline constexpr char kInitialise[] = R"lua(
local held = redis.call('GET', KEYS[1])
if held then return {0, held} end
redis.call('SET', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then return {3, ARGV[1]} end
for i = 4, #KEYS do
  local a = 4 + (i - 4) * 3
  if ARGV[a + 2] ~= '' then redis.call('SET', KEYS[i], ARGV[a + 2]) end
  redis.call('HSET', KEYS[2], ARGV[a], ARGV[a + 1])
  if ARGV[3] == 'restore' then
    redis.call('HSET', KEYS[3], ARGV[a], ARGV[a + 1])
  end
  redis.call('PUBLISH', ARGV[2], ARGV[a])
end
return {1, ARGV[1]}
)lua";

// Writes back one entry of a replica's copy into a store of the same epoch
// that lacks it, or holds a lower revision still marked restored. KEYS:
// epoch, index, restored, level key. ARGV: epoch, id, revision, content
// hash ("deleted": a tombstone), framed bytes, channel. Returns {1, _}
// when written, {0, _} when not, {2, _} when the epoch differs.
inline constexpr char kRestoreEntry[] = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return {2, redis.call('GET', KEYS[1])}
end
local held = redis.call('HGET', KEYS[2], ARGV[2])
if held then
  if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 0 then return {0, held} end
  local space = string.find(held, ' ', 1, true)
  if tonumber(string.sub(held, 1, space - 1)) >= tonumber(ARGV[3]) then
    return {0, held}
  end
end
local entry = ARGV[3] .. ' ' .. ARGV[4]
if ARGV[4] == 'deleted' then
  redis.call('DEL', KEYS[4])
else
  redis.call('SET', KEYS[4], ARGV[5])
end
redis.call('HSET', KEYS[2], ARGV[2], entry)
redis.call('HSET', KEYS[3], ARGV[2], entry)
redis.call('PUBLISH', ARGV[6], ARGV[2])
return {1, entry}
)lua";

}  // namespace collide::server::redis_scripts

#endif  // COLLIDE_SERVER_FLEET_REDIS_LEVEL_SCRIPTS_H_
