// Internal: a cheap test between a world cast's swept-box rejection
// (world/caster.h) and its per-shape cast. The mover (with its skin) lies in a
// disc, so whatever it touches for t in [0, limit] lies in the stadium that
// disc sweeps; a target whose projection onto the motion's normal, or onto
// the motion itself, stays outside the stadium's cannot be hit. The swept
// box test is exact for boxes (so this one is not asked of them); it lets
// through a segment that only its bounding box puts in the way, which this
// test rejects for a few products where a round mover's per-shape cast
// costs hundreds of instructions.
#ifndef COLLIDE_LIB_SRC_SWEEP_OUT_OF_REACH_H_
#define COLLIDE_LIB_SRC_SWEEP_OUT_OF_REACH_H_

#include <algorithm>
#include <cmath>

#include "collide/vec2.h"

namespace collide::internal {

class MotionBand {
 public:
  // A band that rejects nothing.
  MotionBand() = default;

  // The mover lies in the disc (center, radius) at t = 0 and moves by
  // `translation`.
  MotionBand(Vec2 center, double radius, Vec2 translation)
      : center_(center),
        d_(translation),
        normal_{-translation.y, translation.x},
        band_(radius * Length(translation)),
        length_squared_(LengthSquared(translation)),
        motion_scale_(std::abs(translation.x) + std::abs(translation.y)),
        center_scale_(std::abs(center.x) + std::abs(center.y) + radius) {}

  // Whether the segment a-b thickened by `thickness` (0 for a segment; a
  // circle is a == b) lies wholly outside the stadium swept up to `limit`.
  bool MissesSegment(Vec2 a, Vec2 b, double thickness, double limit) const {
    const Vec2 da = a - center_;
    const Vec2 db = b - center_;
    const double reach = band_ + thickness * std::sqrt(length_squared_);
    const double margin = Margin(std::abs(a.x) + std::abs(a.y) + std::abs(b.x) +
                                 std::abs(b.y) + thickness);
    const double side_a = Dot(da, normal_);
    const double side_b = Dot(db, normal_);
    const double near = reach + margin;
    if (std::min(side_a, side_b) > near || std::max(side_a, side_b) < -near) {
      return true;
    }
    const double along_a = Dot(da, d_);
    const double along_b = Dot(db, d_);
    return std::max(along_a, along_b) < -near ||
           std::min(along_a, along_b) > limit * length_squared_ + near;
  }

 private:
  // Covers, far beyond need, the rounding of the projections above, whose
  // terms are each at most (coordinates' size) x (motion's size); never a
  // share of the distances themselves, so a grazing target is kept.
  static constexpr double kMarginShare = 1e-9;
  double Margin(double target_scale) const {
    return kMarginShare * (target_scale + center_scale_) * motion_scale_;
  }

  Vec2 center_;
  Vec2 d_;
  Vec2 normal_;        // d_ turned a quarter, so |normal_| = |d_|
  double band_ = 0.0;  // radius * |d_|: the stadium's half-width, times |d_|
  double length_squared_ = 0.0;
  double motion_scale_ = 0.0;  // |d_.x| + |d_.y|
  double center_scale_ = 0.0;  // |center_.x| + |center_.y| + radius
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_OUT_OF_REACH_H_
