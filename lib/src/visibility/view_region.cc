#include <cmath>
#include <numbers>
#include <optional>

#include "collide/visibility.h"
#include "exact/sign.h"

namespace collide {

std::optional<ViewCone> MakeViewCone(Vec2 direction, double half_angle) {
  if (half_angle >= std::numbers::pi) return std::nullopt;
  const double angle = half_angle > 0.0 ? half_angle : 0.0;
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  const Vec2 right{c * direction.x + s * direction.y,
                   c * direction.y - s * direction.x};
  const Vec2 left{c * direction.x - s * direction.y,
                  c * direction.y + s * direction.x};
  return ViewCone{right, left};
}

bool InViewRegion(const Viewer& viewer, Vec2 target) {
  const Vec2 v = viewer.position;
  if (target == v) return true;
  if (viewer.range.has_value() &&
      internal::DistanceSquaredVs(target, v, *viewer.range, 0.0, 0.0) > 0) {
    return false;
  }
  if (!viewer.cone.has_value()) return true;
  const Vec2 right = viewer.cone->right;
  const Vec2 left = viewer.cone->left;
  // Signs of Cross(edge, target - v), exact.
  const int from_right = internal::CrossSign(Vec2{}, right, v, target);
  const int from_left = internal::CrossSign(Vec2{}, left, v, target);
  const int turn = internal::CrossSign(right, left);
  if (turn > 0) return from_right >= 0 && from_left <= 0;
  if (turn < 0) return from_right >= 0 || from_left <= 0;
  if (internal::DotSign(right, left) < 0) return from_right >= 0;  // half plane
  // One ray.
  return from_right == 0 && internal::DotSign(Vec2{}, right, v, target) >= 0;
}

}  // namespace collide
