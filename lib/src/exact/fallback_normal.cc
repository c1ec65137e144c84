#include "exact/fallback_normal.h"

namespace collide::internal {

Vec2 PerpendicularOnSide(Vec2 n, Vec2 d) {
  return Normalize(Cross(d, n) > 0.0 ? LeftPerp(d) : RightPerp(d));
}

}  // namespace collide::internal
