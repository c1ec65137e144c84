// Sees (collide/visibility.h) and the walk it shares with VisibleTargets.
#include "visibility/sight_line.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/visibility.h"
#include "visibility/occluders.h"

namespace collide {
namespace internal {

bool ViewerInside(const Level& level, Vec2 v, const QueryFilter& filter) {
  SightLayer layers[2];
  const int count = SightLayers(level, layers);
  for (int i = 0; i < count; ++i) {
    if (InsideOccluder(*layers[i].level, layers[i].removed, v, filter)) {
      return true;
    }
  }
  return false;
}

SightBlocker WalkBlocked(const Level& level, Vec2 v, Vec2 from, Vec2 t,
                         const QueryFilter& filter, int64_t& tests) {
  SightLayer layers[2];
  const int count = SightLayers(level, layers);
  // A box an ulp-scale wider than the start, so that the walk along the
  // rounded t - from covers the exact segment; wider when `from` is itself
  // rounded.
  const double scale =
      std::abs(v.x) + std::abs(v.y) + std::abs(t.x) + std::abs(t.y);
  const double slack = (from == v ? 4e-16 : 4e-15) * scale +
                       std::numeric_limits<double>::denorm_min();
  const Aabb start{{from.x - slack, from.y - slack},
                   {from.x + slack, from.y + slack}};
  for (int i = 0; i < count; ++i) {
    const SightLayer layer = layers[i];
    // Most levels need no shape record read to know every shape occludes.
    const bool all_occlude = EveryShapeOccludes(layer, filter);
    SightBlocker found;
    layer.level->spatial_hash().VisitSweep(
        start, t - from, 1.0, [&](int32_t item) {
          const Level::Primitive& p = layer.level->primitive(item);
          if (!all_occlude &&
              !Occludes(*layer.level, p, v, filter, layer.removed)) {
            return 1.0;
          }
          ++tests;
          if (BlocksFast(*layer.level, p, v, t)) {
            found = {layer.level, &p};
            return -1.0;
          }
          return 1.0;
        });
    if (found.primitive != nullptr) return found;
  }
  return {};
}

}  // namespace internal

bool Sees(const Level& level, const Viewer& viewer, Vec2 target,
          const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(viewer.position) && IsValid(target));
  if (!InViewRegion(viewer, target)) return false;
  if (internal::ViewerInside(level, viewer.position, filter)) return false;
  if (target == viewer.position) return true;
  int64_t tests = 0;
  return internal::WalkBlocked(level, viewer.position, viewer.position, target,
                               filter, tests)
             .primitive == nullptr;
}

}  // namespace collide
