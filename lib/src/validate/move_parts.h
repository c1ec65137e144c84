// Internal: the two loops ValidateMove is built from, each in its own file.
#ifndef COLLIDE_LIB_SRC_VALIDATE_MOVE_PARTS_H_
#define COLLIDE_LIB_SRC_VALIDATE_MOVE_PARTS_H_

#include <cstdint>
#include <optional>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/validate.h"
#include "collide/vec2.h"

namespace collide::internal {

// The gap the slide and the exit search keep: `skin`, or a floor of
// rounding size relative to the coordinates when that is larger (see
// validate/slide.cc).
// coordinate_scale is the largest coordinate magnitude the mover reaches
// (CoordinateScale of world/body_cast.h).
double KeptGap(double coordinate_scale, Vec2 translation, double skin);

// Collide-and-slide (SlideResult in validate.h) of `mover` along
// `translation`, at most max_iterations casts with KeptGap(...). `first_cast`
// is the first cast's answer when the caller has already computed it (the cast
// of the mover at its start along all of `translation` with the skin), so
// it is not cast twice.
SlideResult Slide(const BodyShape& mover, Vec2 translation, const Level& level,
                  const QueryFilter& filter, double skin,
                  int32_t max_iterations,
                  const std::optional<WorldHit>& first_cast);

// The exit search (ExitResult in validate.h). overlapped_count == 0 means
// the mover does not start inside anything (separated, no push).
ExitResult FindExit(const BodyShape& mover, const Level& level,
                    const QueryFilter& filter, double skin,
                    int32_t max_iterations);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VALIDATE_MOVE_PARTS_H_
