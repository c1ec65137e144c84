// An exact-arithmetic time-of-impact oracle for the property tests.
//
// It shares no formula with lib/: every convex shape is a core (a finite
// point set: a point, a segment's or capsule's two ends, a polygon's
// vertices, a circle's centre) grown by a radius, and every question is
// answered with GMP integers on the exact values of the double inputs.
//
// - Hit or miss: the Minkowski difference H = hull{a - b} of the mover's and
//   the obstacle's cores, swept by the relative translation over
//   [0, max_fraction], is an exact rational convex polygon K. The sweep comes
//   within R = radii + target_distance iff the signed distance s from the
//   origin to K is <= R. Cases with |s - R| <= 1e-12 * L (L the case's
//   length scale) are near-tangent: no verdict.
// - Time of impact: bisection over dyadic fractions on the exact predicate
//   dist(mover(t), obstacle) <= R, which holds on an interval of t because
//   the distance between convex sets under translation is convex in t.
// - Concave (solid) polygons: the minimum over edges, plus an exact
//   crossing-number test for a mover that starts inside.
// - Deforming segment: exact root isolation of the quadratic
//   cross(b(t) - a(t), p(t) - a(t)) = 0 in rationals.
#ifndef COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_H_
#define COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_H_

#include <limits>
#include <vector>

#include "collide/vec2.h"

namespace collide::oracle {

// Relative width of the band around tangency where the oracle gives no
// verdict (relative to the case's length scale).
inline constexpr double kTangencyEps = 1e-12;

// A convex shape: the convex hull of `points` grown by `radius`.
struct Core {
  std::vector<Vec2> points;
  double radius = 0.0;
};

// A convex mover against a convex obstacle, both translating over the step.
struct ConvexCase {
  Core mover;
  Vec2 mover_translation;
  Core obstacle;
  Vec2 obstacle_translation;
  double max_fraction = 1.0;
  double target_distance = 0.0;
};

// A convex mover against a solid simple polygon (either orientation).
struct ConcaveCase {
  Core mover;
  Vec2 mover_translation;
  std::vector<Vec2> polygon;
  Vec2 obstacle_translation;
  double max_fraction = 1.0;
  double target_distance = 0.0;
};

// A point moving from origin by translation against a segment whose ends
// move linearly from start_p1/start_p2 to end_p1/end_p2 over the step.
struct DeformingCase {
  Vec2 origin;
  Vec2 translation;
  Vec2 start_p1;
  Vec2 start_p2;
  Vec2 end_p1;
  Vec2 end_p2;
  double max_fraction = 1.0;
};

enum class Outcome {
  kMiss,            // no contact within [0, max_fraction]
  kHit,             // first contact from outside, at t* in (t_lo, t_hi]
  kInitialOverlap,  // overlapping at t = 0 by more than the margin
  kSkinHit,         // inside the skin, not touching, moving closer: t = 0
  kNearTangent,     // within the tangency margin somewhere: no verdict
  kOracleError,     // the oracle could not certify its own answer (a bug)
};

const char* OutcomeName(Outcome outcome);

struct Verdict {
  Outcome outcome = Outcome::kMiss;
  // kHit: the exact TOI t* satisfies t_lo < t* <= t_hi, t_hi - t_lo < 1e-13.
  double t_lo = 0.0;
  double t_hi = 0.0;
  // Signed distance between the cores at t = 0 (negative when the cores
  // overlap), rounded to double. Radii are not subtracted.
  double start_core_distance = 0.0;
  // kInitialOverlap of convex shapes: radii - start_core_distance; NaN for
  // concave obstacles.
  double depth = std::numeric_limits<double>::quiet_NaN();
  double length_scale = 0.0;
  // Deforming segment, kHit: the sign of cross(b - a, p - a) just before
  // contact (+1: the point comes from the left of p1 -> p2).
  int side = 0;
  // Exact mode: the mover starts exactly touching (distance == radii). With
  // kInitialOverlap it moves in (depth 0); with kMiss (or a later kHit on a
  // concave obstacle) it moves away from or along every touched feature, so
  // stop_at_penetration turns it into kInitialOverlap at 0.
  bool touching_start = false;
  const char* note = "";  // why near-tangent or an oracle error
};

// The case's length scale L: the largest of |relative translation| *
// max_fraction, the radii plus target distance, the extents of both shapes
// and the distance between the cores' first points.
double LengthScale(const ConvexCase& c);
double LengthScale(const ConcaveCase& c);
double LengthScale(const DeformingCase& c);

Verdict Solve(const ConvexCase& c);
Verdict Solve(const ConcaveCase& c);
Verdict Solve(const DeformingCase& c);

// Exact mode: the same questions without the tangency band, for cases exact
// by construction (tangents, vertex-aimed and vertex-grazing sweeps,
// collinear motion, touching starts, contacts at exactly max_fraction).
// Touching counts as a hit. A start at distance exactly radii is a touching
// start: it moves in (kInitialOverlap, depth 0, touching_start) when the
// shapes overlap for every small t > 0, otherwise it moves away or along
// (kMiss with touching_start for a convex obstacle; a concave obstacle's
// untouched edges are still swept, and a contact with one counts unless the
// mover then still touches a touched edge and does not move into the solid
// right after: sliding off the end of a surface at a convex corner is not a
// hit, sliding into a reflex corner is). A start inside the skin (gap <=
// target_distance, not touching) is kSkinHit when the gap shrinks at t = 0,
// else kMiss. Hit or miss is decided on signs of exact polynomials; the TOI
// is bracketed by exact bisection (t_lo < t* <= t_hi, width < 1e-13).
// Deforming segments: the contact is the first root of the quadratic
// cross(b - a, p - a) in (0, max_fraction] at which p is on the segment,
// decided with x + y sqrt(D) signs (collinear motion with irrational entry
// times is kNearTangent, noted); a point starting on the segment is a
// touching start and is not a hit at 0.
// kNearTangent is otherwise never returned; kOracleError is a bug.
Verdict SolveExact(const ConvexCase& c);
Verdict SolveExact(const ConcaveCase& c);
Verdict SolveExact(const DeformingCase& c);

// Static questions (overlap, closest point), exactly: the sign of
// dist(hull(a.points), hull(b.points)) - (a.radius + b.radius + extra):
// -1 when the grown shapes overlap by more than touching, 0 when they touch
// exactly, +1 when apart. *gap (optional) is that difference rounded to
// double (the cores' signed distance less the radii and extra: negative
// inside).
int GapSign(const Core& a, const Core& b, double extra, double* gap = nullptr);
// The same against a solid simple polygon (either orientation): -1 also
// when a's core lies inside it.
int GapSign(const Core& a, const std::vector<Vec2>& polygon, double extra,
            double* gap = nullptr);

// Whether some line along d keeps a and b apart (they may touch across
// it), exactly: the sign of dist(line through 0 along d, H) - (a.radius +
// b.radius) with H = hull(a.points - b.points), signed negative when the
// line crosses H's interior. >= 0: a move of a by any multiple of d at
// most touches b (passes beside it); < 0: a contact goes in. d != 0.
int LineGapSign(const Core& a, Vec2 d, const Core& b);

// Exact crossing-number test: true when p is strictly inside the simple
// polygon, false when strictly outside; `on_boundary` is set when p lies on
// an edge (the result is then false).
bool InsidePolygon(const std::vector<Vec2>& polygon, Vec2 p,
                   bool* on_boundary = nullptr);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_H_
