// Level names as the API spells them, and request ids for a batch.
'use strict';

const LEVEL_PREFIX = 'levels/';

// "arena" and "levels/arena" both name the level levels/arena.
function levelName(level) {
  if (typeof level !== 'string' || level === '') {
    throw new TypeError(
        `a level name is a non-empty string, got ${JSON.stringify(level)}`);
  }
  return level.startsWith(LEVEL_PREFIX) ? level : LEVEL_PREFIX + level;
}

// The queries with request ids 1..n when none has one (a query's result
// carries its request id); as given when any has one. Copies: the caller's
// objects are left as they are.
function numbered(queries) {
  const list = Array.from(queries);
  const unset = (id) => id === undefined || id === null || Number(id) === 0;
  if (!list.every((query) => unset(query.request_id))) return list;
  return list.map((query, index) => ({...query, request_id: index + 1}));
}

module.exports = {
  LEVEL_PREFIX,
  levelName,
  numbered
};
