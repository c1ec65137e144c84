// Internal: one name for the four movers' per-shape casts (CastRay,
// CastCircle, CastCapsule, CastPolygon), for code generic over the mover.
#ifndef COLLIDE_LIB_SRC_PAIRS_CAST_TO_H_
#define COLLIDE_LIB_SRC_PAIRS_CAST_TO_H_

#include <optional>

#include "collide/toi.h"

namespace collide::internal {

template <typename Target>
std::optional<Hit> CastTo(const RayInput& ray, const Target& target,
                          const CastOptions& options) {
  return CastRay(ray, target, options);
}
template <typename Target>
std::optional<Hit> CastTo(const CircleCast& cast, const Target& target,
                          const CastOptions& options) {
  return CastCircle(cast, target, options);
}
template <typename Target>
std::optional<Hit> CastTo(const CapsuleCast& cast, const Target& target,
                          const CastOptions& options) {
  return CastCapsule(cast, target, options);
}
template <typename Target>
std::optional<Hit> CastTo(const PolygonCast& cast, const Target& target,
                          const CastOptions& options) {
  return CastPolygon(cast, target, options);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_CAST_TO_H_
