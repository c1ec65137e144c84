// Internal: the angular sector a blade swinging in place can reach, for the
// broad phase of turning world casts (world/turning_cast.cc).
//
// A capsule turning about one end of its axis without translating (a sword
// swung about the hand) sweeps a sector, not the whole disc of its reach:
// over the fractions [0, limit] its axis turns from its start direction
// through angle * limit. Every point of the capsule farther than twice its
// radius from the pivot lies within 30 degrees of the axis direction (its
// offset from the axis is at most the radius, less than half its
// distance), so every pose lies in the disc of twice the radius about the
// pivot or in the wedge of directions from 30 degrees before the start
// direction to 30 degrees past the end one. A primitive whose box misses
// both is disjoint from the mover for every fraction in [0, limit], so the
// pair cast would answer it as a miss and is skipped.
//
// Rounding: the wedge tested is widened to 32 degrees on each side; the
// rotated directions, the corners' offsets from the pivot and the cross
// products are each within a few ulps of their exact values, which moves a
// tested direction by about 1e-15 radians, far inside the 2-degree margin.
// The disc's radius carries a margin of 2^-20 of the blade's length, so a
// skipped primitive stays apart from every pose by far more than the
// rounding of the pair cast, which answers such a pair as a miss: leaving
// it out does not change the world cast's answer.
#ifndef COLLIDE_LIB_SRC_WORLD_SWING_SECTOR_H_
#define COLLIDE_LIB_SRC_WORLD_SWING_SECTOR_H_

#include <cmath>
#include <numbers>
#include <optional>

#include "collide/shapes.h"
#include "collide/turning.h"
#include "collide/vec2.h"

namespace collide::internal {

class SwingSector {
 public:
  // The sector of `mover` when it turns in place about an end of its axis
  // (translation exactly zero, pivot exactly p1 or p2, axis not a point);
  // nullopt for any other motion, which the disc of its reach bounds.
  static std::optional<SwingSector> For(const Turning<Capsule>& mover) {
    if (!(mover.translation == Vec2{}) || mover.angle == 0.0) {
      return std::nullopt;
    }
    Vec2 far;
    if (mover.pivot == mover.shape.p1) {
      far = mover.shape.p2;
    } else if (mover.pivot == mover.shape.p2) {
      far = mover.shape.p1;
    } else {
      return std::nullopt;
    }
    const Vec2 axis = far - mover.pivot;
    const double length = Length(axis);
    if (!(length > 0.0)) return std::nullopt;
    SwingSector sector;
    sector.pivot_ = mover.pivot;
    sector.direction_ = axis * (1.0 / length);
    sector.angle_ = mover.angle;
    sector.inner_radius_ =
        2.0 * mover.shape.radius * (1.0 + 0x1p-20) + 0x1p-20 * length;
    return sector;
  }

  // True when no pose over the fractions [0, limit] meets `box`.
  bool Misses(const Aabb& box, double limit) {
    if (limit != limit_) SetLimit(limit);
    if (!cull_) return false;
    const Vec2 corners[4] = {box.lower,
                             {box.upper.x, box.lower.y},
                             box.upper,
                             {box.lower.x, box.upper.y}};
    bool before_start = true;  // every corner clockwise of start_
    bool past_end = true;      // every corner counter-clockwise of end_
    for (const Vec2 c : corners) {
      const Vec2 d = c - pivot_;
      before_start = before_start && Cross(start_, d) < 0.0;
      past_end = past_end && Cross(end_, d) > 0.0;
    }
    // A wedge under a half turn is the intersection of the two half
    // planes, so a box outside either misses it; a wider one misses a box
    // only when the box lies in the convex cone left outside it.
    const bool outside = span_ < std::numbers::pi ? before_start || past_end
                                                  : before_start && past_end;
    return outside && PointBoxDistance(pivot_, box) > inner_radius_;
  }

 private:
  static constexpr double kWiden = 32.0 * std::numbers::pi / 180.0;

  static Vec2 Rotate(Vec2 v, double phi) {
    const double c = std::cos(phi);
    const double s = std::sin(phi);
    return {c * v.x - s * v.y, s * v.x + c * v.y};
  }

  // The distance from p to the box, rounded down: the differences, the
  // squares, the sum and the root each round by half an ulp, which the
  // factor 1 - 2^-50 covers.
  static double PointBoxDistance(Vec2 p, const Aabb& box) {
    const double dx =
        std::fmax(std::fmax(box.lower.x - p.x, p.x - box.upper.x), 0.0);
    const double dy =
        std::fmax(std::fmax(box.lower.y - p.y, p.y - box.upper.y), 0.0);
    return std::sqrt(dx * dx + dy * dy) * (1.0 - 0x1p-50);
  }

  // The wedge from start_ counter-clockwise through span_ radians to end_.
  void SetLimit(double limit) {
    limit_ = limit;
    const double turn = angle_ * limit;
    span_ = std::fabs(turn) + 2.0 * kWiden;
    // A wedge within 0.05 radians of a full turn leaves too thin a cone
    // outside it to be worth testing.
    cull_ = span_ < 2.0 * std::numbers::pi - 0.05;
    if (!cull_) return;
    const double from = turn >= 0.0 ? -kWiden : turn - kWiden;
    start_ = Rotate(direction_, from);
    end_ = Rotate(direction_, from + span_);
  }

  Vec2 pivot_;
  Vec2 direction_;  // unit, from the pivot along the axis
  double angle_ = 0.0;
  double inner_radius_ = 0.0;
  double limit_ = -1.0;
  double span_ = 0.0;
  bool cull_ = false;
  Vec2 start_;
  Vec2 end_;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_SWING_SECTOR_H_
