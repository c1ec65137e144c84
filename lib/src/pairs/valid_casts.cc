// Precondition checks for cast inputs, for callers at a trust boundary.
#include <cmath>

#include "collide/toi.h"

namespace collide {

bool IsValid(const RayInput& ray) {
  return IsInRange(ray.origin) && IsInRange(ray.translation);
}

bool IsValid(const CircleCast& cast) {
  return IsValid(cast.circle) && IsInRange(cast.translation);
}

bool IsValid(const CapsuleCast& cast) {
  return IsValid(cast.capsule) && IsInRange(cast.translation);
}

bool IsValid(const PolygonCast& cast) {
  return IsValid(cast.polygon) && IsInRange(cast.translation);
}

bool IsValid(const CastOptions& options) {
  return options.max_fraction >= 0.0 &&
         options.max_fraction <= kMaxCoordinate &&
         options.target_distance >= 0.0 &&
         options.target_distance <= kMaxCoordinate;
}

bool IsValid(const DeformingSegment& segment) {
  return IsValid(segment.start) && IsValid(segment.end);
}

}  // namespace collide
