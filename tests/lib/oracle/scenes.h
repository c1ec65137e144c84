// Random TOI scenes for the oracle property tests: a deterministic PRNG, a
// generator per shape pair, the call into the core for a scene, the oracle's
// view of it, the per-case checks and a reproducer printout.
#ifndef COLLIDE_TESTS_LIB_ORACLE_SCENES_H_
#define COLLIDE_TESTS_LIB_ORACLE_SCENES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact_oracle.h"
#include "tests/support/splitmix64.h"

namespace collide::oracle {

// The scenes' random numbers: splitmix64 (the same numbers on every
// platform and standard library), with the two draws the generators add.
class Rng : public collide::testing::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  int Int(int lo, int hi);  // [lo, hi]
  Vec2 Direction();         // a unit vector
};

// Cases per family: 10,000, or COLLIDE_ORACLE_CASES from the environment.
int CasesPerFamily(int regular = 10000);

enum class MoverKind { kRay, kCircle, kCapsule, kPolygon };
enum class ObstacleKind {
  kPoint,
  kSegment,
  kCircle,
  kCapsule,
  kPolygon,
  kConcave
};

const char* MoverName(MoverKind kind);
const char* ObstacleName(ObstacleKind kind);

// One cast: the mover (the field of mover_kind), the obstacle (the field of
// obstacle_kind), static or translating, and the options.
struct Scene {
  MoverKind mover_kind = MoverKind::kRay;
  ObstacleKind obstacle_kind = ObstacleKind::kPoint;
  bool moving_obstacle = false;

  Vec2 ray_origin;
  Circle circle;
  Capsule capsule;
  ConvexPolygon polygon;
  Vec2 translation;

  Vec2 point;
  Segment segment;
  Circle obstacle_circle;
  Capsule obstacle_capsule;
  ConvexPolygon obstacle_polygon;
  std::vector<Vec2> concave;  // passed through MakeConcavePolygon per call
  Vec2 obstacle_translation;

  CastOptions options;
};

struct SceneParams {
  double min_log10_scale = -3.0;
  double max_log10_scale = 6.0;
  // Share of scenes placed up to 1e6 * scale away from the origin.
  double far_share = 0.3;
  // Round every position and radius to multiples of 2^-30 (so that adding
  // an offset that is itself such a multiple, below 2^20, is exact).
  bool quantize = false;
  bool allow_target_distance = true;
  // Share of scenes whose relative motion grazes the obstacle: the mover
  // passes it with a clearance of +-10^U(-10.5, -2) times the shapes' size
  // (hit or miss decided far below double precision of the raw inputs).
  double grazing_share = 0.25;
};

// A random scene of the given kinds; false when a shape factory rejected
// the random shape (draw again).
bool GenerateScene(MoverKind mover, ObstacleKind obstacle, bool moving,
                   const SceneParams& params, Rng& rng, Scene* scene);

// The core's answer for the scene.
std::optional<Hit> CastScene(const Scene& scene);

// The oracle's view of the scene.
Core MoverCore(const Scene& scene);
Core ObstacleCore(const Scene& scene);  // polygon outline for kConcave
Verdict SolveScene(const Scene& scene);

// The scene as C++ that reproduces the call (every double as %.17g).
std::string DescribeScene(const Scene& scene);
std::string DescribeHit(const std::optional<Hit>& hit);

// Checks the core's answer against the oracle's verdict. Returns "" when
// they agree, else what is wrong. *dt is set to |fraction - t*| (an upper
// bound) for agreeing hits, else 0.
std::string CheckAgainstOracle(const Scene& scene, const Verdict& verdict,
                               const std::optional<Hit>& hit, double* dt);

// Runs `cases` random scenes of one family through the core and the oracle,
// prints a one-line summary (and every disagreement, first ones in full),
// and records gtest failures.
struct FamilySpec {
  const char* name;
  MoverKind mover;
  ObstacleKind obstacle;
  bool moving;
  uint64_t seed;
};
void RunFamily(const FamilySpec& spec);

// The deforming-segment family: a point against a segment whose ends
// move independently.
void RunDeformingFamily(const char* name, uint64_t seed);

// Starts exactly in contact (built on integers, rotated by Pythagorean
// integer matrices, so touching is exact): moving in gives kInitialOverlap
// at 0 with depth 0; moving away or along gives no hit unless
// stop_at_penetration, which gives kInitialOverlap. Supported pairs: circle,
// capsule or polygon against a segment or a convex polygon.
void RunTouchingFamily(const char* name, MoverKind mover, ObstacleKind obstacle,
                       uint64_t seed);

// The largest share of near-tangent (skipped) cases a family may have.
inline constexpr double kMaxSkippedShare = 0.01;

// Tolerances the core is held to (see toi_oracle_test.cc).
inline constexpr double kFractionTol = 1e-9;  // |fraction - t*|
inline constexpr double kUnitTol = 1e-12;     // | |normal| - 1 |
inline constexpr double kPositionTol = 1e-9;  // times the length scale

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_SCENES_H_
