// Precondition checks for cast inputs, for callers at a trust boundary.
#include <cmath>

#include "collide/toi.h"

namespace collide {

bool IsValid(const RayInput& ray) {
  return IsFinite(ray.origin) && IsFinite(ray.translation);
}

bool IsValid(const CircleCast& cast) {
  return IsValid(cast.circle) && IsFinite(cast.translation);
}

bool IsValid(const CapsuleCast& cast) {
  return IsValid(cast.capsule) && IsFinite(cast.translation);
}

bool IsValid(const PolygonCast& cast) {
  return IsValid(cast.polygon) && IsFinite(cast.translation);
}

bool IsValid(const CastOptions& options) {
  return std::isfinite(options.max_fraction) && options.max_fraction >= 0.0 &&
         std::isfinite(options.target_distance) &&
         options.target_distance >= 0.0;
}

bool IsValid(const DeformingSegment& segment) {
  return IsValid(segment.start) && IsValid(segment.end);
}

}  // namespace collide
