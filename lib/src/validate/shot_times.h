// Internal: the exact contact times of a shot's wall and targets, for the
// near ties of ValidateShot that no double separates (both exact times in
// one interval between neighbouring doubles, or equal). A static wall's time
// is the world cast's (world/exact_ties.h); a moving target's is the entry
// of the relative motion, the exact difference of the two translations
// (not a double in general), into the grown Minkowski difference.
#ifndef COLLIDE_LIB_SRC_VALIDATE_SHOT_TIMES_H_
#define COLLIDE_LIB_SRC_VALIDATE_SHOT_TIMES_H_

#include <optional>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "exact/exact_time.h"

namespace collide::internal {

// The exact time of `wall`, the first hit of the shot's level cast: 0 for
// a start overlap or a touching start moving in; nullopt where it is not
// decided here (a hit at fraction 0 on a concave solid, a time not within
// kNearTie of the reported fraction).
std::optional<ExactTime> WallTime(const Shot& shot, const Level& level,
                                  const WorldHit& wall);

// The exact time of `hit`, the shot's cast against `target`: 0 for a start
// within the hitbox; nullopt where it is not decided here (a zero-radius
// shot at a zero-radius circle, a time not within kNearTie of the reported
// fraction).
std::optional<ExactTime> TargetTime(const Shot& shot, const ShotTarget& target,
                                    const Hit& hit);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VALIDATE_SHOT_TIMES_H_
