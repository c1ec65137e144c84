#include "world/one_sided.h"

#include "collide/toi.h"
#include "collide/vec2.h"
#include "sweep/core.h"
#include "sweep/start_state.h"

namespace collide::internal {

bool OneSidedStartStands(const Core& mover, Vec2 d, Vec2 a, Vec2 b,
                         const CastOptions& options) {
  const Core segment(a, b, 0.0, FeatureMap::kSegment);
  return ClassifyStartExact(mover, Motion::Of(d), segment, options, nullptr)
             .kind == StartKind::kTouchingIn;
}

}  // namespace collide::internal
