// Internal: the exact time at which a translating convex set of points
// (a ray's origin, a capsule's ends, a polygon's vertices), possibly grown
// by a radius, first touches another (a segment, a polygon, a circle's
// centre, a capsule's axis), as exact expansions, and the comparisons and
// rounding that world queries use to break their ties on exact values
// (world/exact_ties.h).
//
// Where both shapes are zero-radius, the first contact is where the ray t * d
// enters the Minkowski difference M = obstacle - mover, a convex polygon
// whose edges are parallel to the two shapes' edges: for each outward
// normal n of M, the ray stays outside until n . (t d) = h(n), the support
// of M along n, so the entry is t = max over n with n . d < 0 of
// h(n) / (n . d), a ratio of polynomials of degree 2 in the inputs. The
// normals are perpendiculars of exact edge differences, so nothing is
// rounded. Costs a few hundred expansion operations: asked only for
// candidates whose rounded times are within kNearTie of each other.
#ifndef COLLIDE_LIB_SRC_EXACT_EXACT_TIME_H_
#define COLLIDE_LIB_SRC_EXACT_EXACT_TIME_H_

#include <optional>

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/sign.h"

namespace collide::internal {

// Rounded times (fractions of the sweep) this close are a near tie: their
// order, and whether they are equal, is decided on exact values. Wider than
// the rounding of any zero-radius time (the contract allows 1e-9 of the
// sweep; measured below 1e-11), so two contacts at one exact time are always
// within it.
inline constexpr double kNearTie = 0x1p-28;

// The time (numerator - root_scale * sqrt(radicand)) / denominator, with
// denominator > 0, root_scale >= 0 and radicand >= 0: a ratio when
// root_scale is 0 (every zero-radius time, every squared distance), the
// smaller root of a quadratic when a shape is round.
struct ExactTime {
  Expansion numerator;
  Expansion denominator;
  Expansion root_scale{};
  Expansion radicand{};
};

// The points of a convex zero-radius shape: 1 (a point), 2 (a segment,
// possibly of zero length) or up to kMaxPolygonVertices (a convex polygon,
// in order around it).
struct Corners {
  Vec2 points[kMaxPolygonVertices];
  int count = 0;
};

// The exact first contact of `mover` translating by `d` with `obstacle`,
// when it comes after the start (> 0); nullopt when they touch or overlap
// at the start, never meet, or both are single points. The motion is exact:
// a relative motion d1 - d2 that is no double (a shot against a moving
// target) is passed as Difference(d1, d2).
std::optional<ExactTime> FirstContactTime(const Corners& mover,
                                          const Corners& obstacle,
                                          const ExactVec& d);
inline std::optional<ExactTime> FirstContactTime(const Corners& mover,
                                                 const Corners& obstacle,
                                                 Vec2 d) {
  return FirstContactTime(mover, obstacle,
                          ExactVec{Expansion(d.x), Expansion(d.y)});
}

// The exact first contact of `mover` grown by mover_radius translating by d
// with `obstacle` grown by obstacle_radius, kept `skin` apart (radii and
// skin >= 0, at least one positive: a skin makes every shape round), when
// it comes after the start (> 0); nullopt when they are within the skin
// (touch or overlap, for no skin) at the start or never meet. The grown
// difference obstacle - mover is the union of capsules of radius R = the
// two radii plus the skin, summed exactly, around the
// segments o_i - m_j .. o_i+1 - m_j and o_i - m_j .. o_i - m_j+1, whose
// outline it bounds; so the entry of t d into it is the earliest entry into
// a disc of radius R around a vertex o_i - m_j (t = (b - sqrt(b^2 - a c)) /
// a) or through a capsule's flat side (t = (s - R |n|) / rate), a side's
// only where it lands on that side. Each candidate is placed in long
// double from exact coefficients (relative error far below 2^-50), and only
// those within 2^-50 of the earliest are compared exactly.
std::optional<ExactTime> FirstRoundContactTime(const Corners& mover,
                                               double mover_radius,
                                               const Corners& obstacle,
                                               double obstacle_radius,
                                               double skin, const ExactVec& d);
inline std::optional<ExactTime> FirstRoundContactTime(const Corners& mover,
                                                      double mover_radius,
                                                      const Corners& obstacle,
                                                      double obstacle_radius,
                                                      double skin, Vec2 d) {
  return FirstRoundContactTime(mover, mover_radius, obstacle, obstacle_radius,
                               skin, ExactVec{Expansion(d.x), Expansion(d.y)});
}

// Whether the two shapes (each grown by its radius, radii and skin >= 0)
// are at most `skin` apart at the start (touch or overlap, for no skin),
// exactly: the origin within R (the radii plus the skin) of obstacle -
// mover.
bool StartsWithin(const Corners& mover, double mover_radius,
                  const Corners& obstacle, double obstacle_radius, double skin);

// The sign of a - b, exactly: a difference of two square-root forms is
// decided on polynomial signs after at most two squarings, each guarded by
// the signs of its sides (degree 16 in the inputs at most: exact while the
// nonzero inputs lie within 2^130 of one another in magnitude; beyond, the
// expansions' 48 terms keep a form's leading 3,000 bits).
int CompareTimes(const ExactTime& a, const ExactTime& b);

// The time correctly rounded to double (to nearest, ties to even), for a
// time in [0, 1e300): one exact value is always reported as one double.
double RoundTime(const ExactTime& t);

// Whether two rounded values contradict the exact order of what they round
// (order: the sign of exact a - exact b): equal exact values reported as
// two doubles, or the exactly smaller reported as the larger. Closest-point
// ties rewrite both distances to their correct roundings only then, so that
// a point nearest a vertex two edges share keeps its per-shape value; cast
// ties also rewrite equal exact times that round alike (exact_ties.h).
inline bool RoundingContradicts(int order, double a, double b) {
  return order == 0 ? a != b : (order < 0 ? a > b : a < b);
}

// Distances, for closest-point ties: the squared distance from p to the
// segment [a, b] (a point when a == b), exactly, as a ratio (to an end:
// |p - end|^2 / 1; to the inside: Cross(b - a, p - a)^2 / |b - a|^2).
ExactTime SquaredDistanceToSegment(Vec2 p, Vec2 a, Vec2 b);

// The square root of a positive ratio, correctly rounded to double (to
// nearest, ties to even): one exact distance is always one double.
double RoundSquareRoot(const ExactTime& square);

// A distance to a round shape: sqrt(square) - radius (square a ratio, the
// squared distance to the shape's core; radius >= 0), as the root form
// (-radius D + sqrt(N D)) / D that CompareTimes orders exactly against
// another such form.
ExactTime DistanceLessRadius(const ExactTime& square, double radius);

// sqrt(square) - radius, for a positive value, correctly rounded to double
// (to nearest, ties to even): one exact distance is always one double.
double RoundDistanceLessRadius(const ExactTime& square, double radius);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_EXACT_TIME_H_
