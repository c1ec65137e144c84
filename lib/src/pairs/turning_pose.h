// Internal: a turning shape as a convex vertex cloud with a radius, and its
// pose at a fraction of the step with a rigorous bound on the pose's
// rounding.
//
// Every shape is the set of points within radius of the convex hull of at
// most kMaxPolygonVertices vertices: a point (1 vertex), a segment (2), a
// circle (1, radius), a capsule (2, radius), a polygon (3 to 8,
// counter-clockwise). Poses are computed in a frame whose origin is the
// mover's pivot at fraction 0, so rounding scales with the pair's extent,
// not with its distance from the level's origin.
//
// Error model: u = 2^-53 is the unit roundoff of round-to-nearest double
// operations. std::sin and std::cos are taken to be within 1 ulp of the
// exact value of their double argument (glibc's documented bound on x86_64
// and aarch64); the bound below doubles that and adds the rounding of
// angle * t, so a trigonometric value is within 2^-51 + 2^-52 |angle t| of
// the true cos or sin of the exact angle * t.
#ifndef COLLIDE_LIB_SRC_PAIRS_TURNING_POSE_H_
#define COLLIDE_LIB_SRC_PAIRS_TURNING_POSE_H_

#include <array>
#include <cmath>
#include <cstdint>

#include "collide/shapes.h"
#include "collide/vec2.h"

namespace collide::internal {

inline constexpr double kUnitRoundoff = 0x1p-53;

inline double L1(Vec2 a) { return std::fabs(a.x) + std::fabs(a.y); }

// std::fmax and std::fmin (a NaN operand yields the other), without the
// library call GCC emits for them unless math is assumed finite.
inline double Max(double a, double b) { return a > b || b != b ? a : b; }
inline double Min(double a, double b) { return a < b || b != b ? a : b; }

// A shape and its motion, with the vertices as offsets from the pivot.
struct TurnBody {
  std::array<Vec2, kMaxPolygonVertices> offsets;
  int32_t count = 0;
  double radius = 0.0;
  Vec2 translation;
  double angle = 0.0;
  // Euclidean bound on |offsets[i] - (vertex i - pivot)| (the subtraction's
  // rounding).
  double offset_error = 0.0;
  // >= the largest true |vertex - pivot|: the speed of the fastest hull
  // point is at most |translation| + |angle| * reach.
  double reach = 0.0;
  double largest_offset_l1 = 0.0;
};

inline TurnBody MakeTurnBody(const Vec2* vertices, int32_t count, double radius,
                             Vec2 pivot, Vec2 translation, double angle) {
  TurnBody body;
  body.count = count;
  body.radius = radius;
  body.translation = translation;
  body.angle = angle;
  double largest_squared = 0.0;
  for (int32_t i = 0; i < count; ++i) {
    const Vec2 offset = vertices[i] - pivot;
    body.offsets[i] = offset;
    const double squared = LengthSquared(offset);
    const double l1 = L1(offset);
    largest_squared = squared > largest_squared ? squared : largest_squared;
    body.largest_offset_l1 =
        l1 > body.largest_offset_l1 ? l1 : body.largest_offset_l1;
  }
  body.offset_error = kUnitRoundoff * body.largest_offset_l1;
  body.reach = std::sqrt(largest_squared) * (1.0 + 0x1p-45) + body.offset_error;
  return body;
}

// A body's vertices at one fraction, in the pair's frame, each within
// `error` (Euclidean) of the true position.
struct TurnPose {
  std::array<Vec2, kMaxPolygonVertices> vertices;
  int32_t count = 0;
  double radius = 0.0;
  double error = 0.0;
  double largest_l1 = 0.0;  // max over vertices of |x| + |y|
  Vec2 pivot;               // where the pivot is at this fraction
};

// The pose of `body` at fraction t whose pivot started at `base` in the
// pair's frame (`base_error` bounds the rounding of base itself), written
// into `out` (its vertices past body.count are left as they were).
inline void PoseInto(const TurnBody& body, Vec2 base, double base_error,
                     double t, TurnPose* out) {
  TurnPose& pose = *out;
  pose.count = body.count;
  pose.radius = body.radius;
  // A shape that does not turn keeps cos 1 and sin 0 exactly.
  const double phi = body.angle * t;
  double c = 1.0;
  double s = 0.0;
  double trig_error = 0.0;
  if (phi != 0.0) {
    c = std::cos(phi);
    s = std::sin(phi);
    trig_error = 0x1p-51 + 0x1p-52 * std::fabs(phi);
  }
  const Vec2 moved = body.translation * t;
  const Vec2 pivot = base + moved;
  pose.pivot = pivot;
  double largest = 0.0;
  for (int32_t i = 0; i < body.count; ++i) {
    const Vec2 o = body.offsets[i];
    const Vec2 v{pivot.x + (c * o.x - s * o.y), pivot.y + (s * o.x + c * o.y)};
    pose.vertices[i] = v;
    const double l1 = L1(v);
    largest = l1 > largest ? l1 : largest;
  }
  pose.largest_l1 = largest;
  // Per coordinate: the trigonometric error times |o.x| + |o.y|, four
  // roundings in the rotation and the sum (each <= u times an operand
  // bounded by the L1 norms below), and the pivot's rounding; the factor
  // 2 turns a per-coordinate bound into a Euclidean one with room to spare.
  const double o1 = body.largest_offset_l1;
  pose.error = base_error + body.offset_error +
               2.0 * ((trig_error + 8.0 * kUnitRoundoff) * o1 +
                      4.0 * kUnitRoundoff * (L1(base) + L1(moved) + largest));
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_TURNING_POSE_H_
