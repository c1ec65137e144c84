// The stateless pair query: two shapes translating during one step, reduced
// to the moving-vs-moving casts of toi.h (a point against a moving segment,
// two moving circles, and the rest through the relative motion).
#include <optional>
#include <variant>

#include "collide/dcheck.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "world/query_common.h"

namespace collide {
namespace {

// Shape a as the mover of a toi.h cast. A segment is a capsule of radius 0
// (toi.h's features are the obstacle's, so a's numbering never shows).
RayInput AsMover(Vec2 point, Vec2 translation) { return {point, translation}; }
CapsuleCast AsMover(Segment segment, Vec2 translation) {
  return {Capsule{segment.p1, segment.p2, 0.0}, translation};
}
CircleCast AsMover(Circle circle, Vec2 translation) {
  return {circle, translation};
}
CapsuleCast AsMover(const Capsule& capsule, Vec2 translation) {
  return {capsule, translation};
}
PolygonCast AsMover(const ConvexPolygon& polygon, Vec2 translation) {
  return {polygon, translation};
}

// The per-shape cast for any mover and target (world/query_common.h's CastTo),
// except that toi.h has no point-vs-point ray: a point is a circle of
// radius 0.
template <typename Mover, typename Target>
std::optional<Hit> CastMover(const Mover& mover, const Target& target,
                             const CastOptions& options) {
  return internal::CastTo(mover, target, options);
}
std::optional<Hit> CastMover(const RayInput& mover, const Moving<Vec2>& target,
                             const CastOptions& options) {
  return CastCircle(CircleCast{Circle{mover.origin, 0.0}, mover.translation},
                    target, options);
}

bool IsValidPairShape(Vec2 point) { return IsInRange(point); }
template <typename Shape>
bool IsValidPairShape(const Shape& shape) {
  return IsValid(shape);
}

}  // namespace

bool IsValid(const MovingShape& shape) {
  return IsInRange(shape.translation) &&
         std::visit([](const auto& s) { return IsValidPairShape(s); },
                    shape.shape);
}

std::optional<Hit> CastPair(const MovingShape& a, const MovingShape& b,
                            const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(a) && IsValid(b) && IsValid(options));
  return std::visit(
      [&](const auto& shape_a, const auto& shape_b) {
        using B = std::decay_t<decltype(shape_b)>;
        return CastMover(AsMover(shape_a, a.translation),
                         Moving<B>{shape_b, b.translation}, options);
      },
      a.shape, b.shape);
}

}  // namespace collide
