// Degenerate-by-construction TOI cases for every query family, judged by the
// exact oracle's exact mode (SolveExact in exact_oracle.h), and the
// comparison of the core's answer with it. Nothing in this file fails a
// test by itself; degenerate_report.cc prints the measurements, and its
// ctests fail on the disagreements they are asked to.
//
// Every case is built on small integers in a local frame (so that tangents,
// vertex hits, collinear motion, touching starts and contacts at exactly
// max_fraction are exact), then mapped by an exact similarity: a quarter
// turn or a Pythagorean rotation (a, -b; b, a) that scales lengths by c, an
// optional reflection, a power of two 2^e (|e| <= 12, or 2^120 or 2^140
// without an offset in one frame in twenty), and an offset of 0, 1e6 or 1e9
// per axis (kept only where x + offset - offset == x for every coordinate).
// Some cases then move the mover by one unit in the last place (the
// smallest representable amount) so that a vertex or a tangent is passed on
// either side.
#ifndef COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_H_
#define COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/toi.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {

// How a case was built (local frame, before the similarity).
enum class Construction {
  kInteger,       // random small integers
  kGraze,         // sliding exactly tangent past the obstacle (touch = hit)
  kVertexAim,     // a mover point aimed exactly at an obstacle vertex
  kCollinear,     // moving along an obstacle edge's line (either end, inside)
  kTouching,      // starts exactly touching; moves in, along or away
  kEndOnSurface,  // first contact at exactly t = max_fraction
  kNearParallel,  // nearly parallel lines that cross inside the sweep
  kLong,          // translation of 2^30..2^52 or 1e15, tiny fraction
  kTinyReach,     // touching, nudged 1 ulp, max_fraction 2^-30..2^-100:
                  // a contact within rounding of the start, before or
                  // after max_fraction
  kShortSweep,    // touching at t = 1/2 of a translation 2^-20..2^-40 of
                  // the shapes' size: the time from differences far
                  // smaller than the coordinates
  kSubnormal,     // a graze, touching start, collinear slide or contact at
                  // max_fraction whose translation has a component of 0,
                  // made a subnormal of a few bits (1..3 x 2^-1074, or
                  // 2^-1064) either way: the only motion across the axis
  kNearReach,     // touching and moving in, then backed off along the
                  // motion by 2^4..2^16 ulps of the coordinates (each
                  // rounded), max_fraction within that rounding of the
                  // contact: a contact within rounding of the start, just
                  // before or just after max_fraction
  kCount,
};
const char* ConstructionName(Construction c);

// What a family asks of the core.
enum class Query {
  kCast,     // the cast (or pair TOI) of the case
  kOverlap,  // Overlaps() of the mover, at the sweep's start and end, and
             // the obstacle
  kClosest,  // ClosestPoint() from a circle mover's centre at the start and
             // end, max_distance its radius, in a level of the obstacle
  kShot,     // ValidateShot() of a ray or circle mover, the obstacle both a
             // wall and a target (degenerate_shot.cc)
  kMove,     // ValidateMove() of the mover against the obstacle (no skin,
             // no slide; degenerate_move.cc)
  kBeside,   // a world cast of the mover in a level of the obstacle (first
             // met just after the start) and a segment the mover overlaps
             // at the start (degenerate_beside.cc)
  // ClosestPoint() from points a few ulps off a round obstacle's surface,
  // either side.
  kClosestUlps,
  // A world cast of a zero-radius mover in a level of two shapes first met
  // at one exact time along different paths, or at exact times less than
  // an ulp apart (degenerate_same_time.cc).
  kSameTime,
  // The same where a shape is round: a ray, circle or capsule in a level
  // of two shapes met at one rational time, one on a flat side, one at a
  // vertex, a circle or a cap (degenerate_round_time.cc).
  kRoundTime,
  // A world cast of the mover in a level of the obstacle (first met just
  // after the start) and a segment the mover touches at the start and
  // moves into (degenerate_beside.cc).
  kTouchBeside,
  // ValidateShot() of a ray against a wall and a target (static or
  // moving), or two targets, met at one exact time along different paths,
  // or at exact times less than an ulp apart (degenerate_shot_tie.cc).
  kShotTie,
  // ClosestPoint() from a point at one exact distance from two shapes, one
  // round, or at distances less than an ulp apart
  // (degenerate_closest_tie.cc).
  kClosestTie,
  // The round-time construction with a skin: a ray, circle, capsule or
  // polygon cast with target_distance > 0 in a level of two shapes whose
  // gaps first equal the skin at one exact time, or at the start
  // (degenerate_round_time.cc).
  kSkinTie,
  // A world cast of the mover in a level of a concave polygon and its copy
  // moved on along the motion by 2^-52..2^-59 of the sweep, both first met
  // within a few ulps of the start (often both at fraction 0), the unmoved
  // one with the larger id, then the smaller (degenerate_beside.cc).
  kConcaveZero,
};

struct DegenerateFamily {
  const char* name;
  MoverKind mover = MoverKind::kRay;
  ObstacleKind obstacle = ObstacleKind::kSegment;
  bool moving = false;     // the obstacle translates too (pair TOI)
  bool deforming = false;  // point vs deforming segment (mover/obstacle unused)
  uint64_t seed = 0;
  Query query = Query::kCast;
  // Every case a long graze of a round shape (Construction::kNearParallel
  // closing on the surface by a few units over a sweep of 2^10..2^30).
  bool long_grazes = false;
  // Every case starts exactly touching the obstacle and moves into it
  // (Construction::kTouching).
  bool touching_in = false;
  // Every case a polygon's vertex meeting the other polygon's edge near
  // that edge's end (Construction::kVertexAim), at offset 1e9.
  bool edge_ends_far = false;
};

// The casts (ray, circle, capsule, polygon x segment, circle, capsule,
// convex polygon, concave polygon) and the pair TOI families (circle-circle,
// point-moving segment, point-deforming segment, polygon-polygon,
// capsule-polygon, polygon-capsule, circle-polygon, polygon-segment,
// polygon-concave, circle-concave), the long-graze families (round
// movers and obstacles sliding nearly parallel to a surface) and the
// far vertex-first families (polygon casts and pairs at 1e9).
const std::vector<DegenerateFamily>& DegenerateFamilies();

struct DegenerateCase {
  Construction construction = Construction::kInteger;
  double offset = 0.0;  // the offset kept (0 when it was not exact)
  bool nudged = false;  // moved by one ulp after the similarity
  bool deforming = false;
  Scene scene;  // when !deforming
  // When deforming:
  RayInput ray;
  DeformingSegment segment;
  CastOptions options;
};

// The overlap families (every mover against every static obstacle) and the
// closest-point families (a circle's centre and radius against every static
// obstacle), built on the same degenerate cases as the casts; the shot and
// move families; the beside families (an overlap beside a shape touched a
// few ulps later) and the closest-ulps families (points a few ulps off a
// circle or a capsule).
const std::vector<DegenerateFamily>& StaticFamilies();

// A case of the family (deterministic in rng).
DegenerateCase GenerateDegenerate(const DegenerateFamily& family, Rng& rng);

Verdict SolveSceneExact(const Scene& scene);
Verdict SolveDegenerate(const DegenerateCase& c);
std::optional<Hit> CastDegenerate(const DegenerateCase& c);
// The call that reproduces the case (every double as %.17g).
std::string DescribeDegenerate(const DegenerateCase& c);
std::string DescribeVerdict(const Verdict& v);

enum class Disagreement {
  kNone,
  kHitMiss,   // one answers a hit (or overlap), the other none
  kStatus,    // kHit vs kInitialOverlap, or a start answer not at 0
  kFraction,  // |fraction - t*| > kFractionTol (1e-9 of the sweep)
  kFeature,   // the feature named is not where the contact point is
  kGeometry,  // normal, point or depth off (CheckAgainstOracle)
  kOracleError,
  kSkipped,  // the oracle gave no verdict (kNearTangent)
  kCount,
};
const char* DisagreementName(Disagreement d);

// The expected answer is the verdict, with one rule of toi.h applied: a
// touching start with stop_at_penetration is kInitialOverlap at 0. *dt is
// |fraction - t*| (upper bound) when both hit, else 0.
Disagreement CompareDegenerate(const DegenerateCase& c, const Verdict& v,
                               const std::optional<Hit>& hit, double* dt,
                               std::string* why);

// An overlap or closest-point family's question at one pose of the case's
// mover (0: the start, 1: the end of the sweep, start + max_fraction *
// translation), against the exact answer. *expected is whether they overlap
// (closest: whether a point lies within max_distance), *touching whether
// exactly at the limit. Kinds: kHitMiss (the yes/no answer), kStatus
// (closest: distance 0 inside or on the shape and only there), kGeometry
// (closest: distance or point off by more than kPositionTol of the scale),
// kSkipped (the pose could not be built: a polygon that rounding made
// invalid).
// A shot family's question (pose 0: wall and target tie; 1: the wall moved
// along the shot by +-2^-k of its translation). Kinds: kHitMiss (met
// something or nothing), kStatus (the wrong one of wall and target),
// kFraction, kSkipped (the answer is not known by construction).
Disagreement CompareShot(const DegenerateCase& c, int pose, bool* expected,
                         bool* touching, std::string* why);

// A move family's question (pose 0: the case's whole translation; 1: its
// max_fraction of it, when exact). Kinds: kHitMiss (allowed or not),
// kStatus (blocked against starts inside), kFraction (first_hit).
Disagreement CompareMove(const DegenerateCase& c, int pose, bool* expected,
                         bool* touching, std::string* why);

// A beside family's question (pose 0: the mover backed off from its
// touching start by a few ulps of its coordinates; 1: by 2^12 times that).
// Kinds: kHitMiss (no hit), kStatus (not the overlapped segment, or not
// kInitialOverlap, first), kSkipped (the obstacle not met after the start, or
// the segment not overlapped).
Disagreement CompareBeside(const DegenerateCase& c, int pose, bool* expected,
                           bool* touching, std::string* why);

// A same-time family's question (pose 0: both shapes met at one exact time
// t* = p / q; 1: one shape's edge turned so that its time moves by far
// less than an ulp). *expected: the exact times are equal; *touching: they
// round to one double. Kinds: kHitMiss (a hit missing), kStatus (the wrong
// shape first: the exactly earlier, then the smaller id), kFraction (one
// exact time as two doubles, fractions out of the exact order, or one off
// its exact time by more than 1e-9 of the sweep), kOracleError (the
// oracle's bracket excludes the exact time), kSkipped (a draw that does not
// fit the construction).
Disagreement CompareSameTime(const DegenerateFamily& family,
                             const DegenerateCase& c, int pose, bool* expected,
                             bool* touching, std::string* why);

// A round-time family's question (pose 0: both shapes met at one exact
// time t* = p / q, a shape round; 1: the flat one turned so that its time
// moves by far less than an ulp). Kinds as CompareSameTime's.
Disagreement CompareRoundTime(const DegenerateFamily& family,
                              const DegenerateCase& c, int pose, bool* expected,
                              bool* touching, std::string* why);

// A skin-tie family's question (poses as CompareRoundTime's; at t* = 0 both
// shapes start a skin apart, and the turned one a sub-ulp amount inside or
// outside it). Kinds as CompareSameTime's; kStatus also for an answer
// that is not kHit.
Disagreement CompareSkinTie(const DegenerateFamily& family,
                            const DegenerateCase& c, int pose, bool* expected,
                            bool* touching, std::string* why);

// A shot-near-tie family's question (pose 0: the wall, or a second
// target, and the target met at one exact time t* = p / q; 1: one shape's
// edge turned so that its time moves by far less than an ulp). *expected:
// the exact times are equal; *touching: they round to one double. Kinds:
// kHitMiss (nothing met), kStatus (the wrong one first: the exactly
// earlier, at one time the wall, between targets the smaller id),
// kFraction (off its exact time by more than 1e-9 of the sweep),
// kOracleError, kSkipped (a draw that does not fit the construction).
Disagreement CompareShotTie(const DegenerateFamily& family,
                            const DegenerateCase& c, int pose, bool* expected,
                            bool* touching, std::string* why);

// A closest-round-tie family's question (pose 0: two shapes at one exact
// distance from the point, one round; 1: one moved by far less than an ulp
// of it, or a circle's radius by one ulp). *expected: the exact distances
// are equal. Kinds: kHitMiss (no closest point), kStatus (not the exactly
// nearer, at one distance the smaller id), kGeometry (the distance off by
// more than 1e-9 of it), kOracleError.
Disagreement CompareClosestTie(const DegenerateFamily& family,
                               const DegenerateCase& c, int pose,
                               bool* expected, bool* touching,
                               std::string* why);

// A touch-beside family's question (poses as CompareBeside's). Kinds:
// kHitMiss (a hit missing), kStatus (not the touched segment, a hit at 0,
// first), kFraction (the obstacle after it off its exact time), kSkipped.
Disagreement CompareTouchBeside(const DegenerateCase& c, int pose,
                                bool* expected, bool* touching,
                                std::string* why);

// A concave-zero family's question (pose 0: the unmoved polygon has id 2,
// its copy id 1; pose 1: the other way). Kinds as CompareTouchBeside's.
Disagreement CompareConcaveZero(const DegenerateCase& c, int pose,
                                bool* expected, bool* touching,
                                std::string* why);

// A level of the scene's obstacle alone (shape id 7), moved by `shift`.
absl::StatusOr<Level> ObstacleLevel(const Scene& s, Vec2 shift);

Disagreement CompareStatic(const DegenerateFamily& family,
                           const DegenerateCase& c, int pose, bool* expected,
                           bool* touching, std::string* why);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_H_
