// The oracle's two modes agree: wherever the band mode (Solve) gives a
// verdict, the exact mode (SolveExact) gives the same one, on the random
// scenes of the property tests and on the degenerate cases; and
// the exact mode is never in error on either. No core call: this holds the
// oracle to itself.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "degenerate.h"
#include "exact_oracle.h"
#include "gtest/gtest.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

// "" when the verdicts agree.
std::string Agree(const Verdict& band, const Verdict& exact) {
  if (exact.outcome == Outcome::kOracleError) {
    return std::string("exact mode error: ") + exact.note;
  }
  if (band.outcome == Outcome::kNearTangent ||
      band.outcome == Outcome::kOracleError) {
    return "";
  }
  if (band.outcome != exact.outcome) {
    return std::string("band ") + OutcomeName(band.outcome) + ", exact " +
           DescribeVerdict(exact);
  }
  if (band.outcome == Outcome::kHit) {
    // Both brackets hold t*: they overlap, up to the band mode's rounding
    // (it rounds its rational bracket ends towards zero, so its t_hi can be
    // an ulp below t*).
    const double slack = 4e-16 * std::max(1.0, band.t_hi);
    if (!(exact.t_lo < band.t_hi + slack && band.t_lo < exact.t_hi + slack)) {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer,
                    "brackets (%.17g, %.17g] and (%.17g, %.17g] are disjoint",
                    band.t_lo, band.t_hi, exact.t_lo, exact.t_hi);
      return buffer;
    }
  }
  return "";
}

struct Family {
  const char* name;
  MoverKind mover;
  ObstacleKind obstacle;
  bool moving;
};

constexpr Family kFamilies[] = {
    {"ray-segment", MoverKind::kRay, ObstacleKind::kSegment, false},
    {"ray-circle", MoverKind::kRay, ObstacleKind::kCircle, false},
    {"ray-polygon", MoverKind::kRay, ObstacleKind::kPolygon, false},
    {"ray-concave", MoverKind::kRay, ObstacleKind::kConcave, false},
    {"circle-point", MoverKind::kCircle, ObstacleKind::kPoint, false},
    {"circle-capsule", MoverKind::kCircle, ObstacleKind::kCapsule, true},
    {"circle-concave", MoverKind::kCircle, ObstacleKind::kConcave, false},
    {"capsule-polygon", MoverKind::kCapsule, ObstacleKind::kPolygon, true},
    {"polygon-polygon", MoverKind::kPolygon, ObstacleKind::kPolygon, false},
    {"polygon-concave", MoverKind::kPolygon, ObstacleKind::kConcave, true},
};

TEST(OracleModesTest, ExactModeAgreesWithBandModeOnRandomScenes) {
  const int cases = CasesPerFamily(1000);
  uint64_t seed = 0x30de5000;
  for (const Family& f : kFamilies) {
    Rng rng(++seed);
    SceneParams params;
    Scene scene;
    int failures = 0;
    for (int i = 0; i < cases; ++i) {
      while (
          !GenerateScene(f.mover, f.obstacle, f.moving, params, rng, &scene)) {
      }
      const std::string why = Agree(SolveScene(scene), SolveSceneExact(scene));
      if (!why.empty() && ++failures <= 5) {
        ADD_FAILURE() << f.name << " case " << i << ": " << why << "\n  "
                      << DescribeScene(scene);
      }
    }
    EXPECT_EQ(failures, 0) << f.name;
  }
}

TEST(OracleModesTest, ExactModeAgreesWithBandModeOnDegenerateCases) {
  const int cases = CasesPerFamily(300);
  for (const DegenerateFamily& f : DegenerateFamilies()) {
    Rng rng(f.seed ^ 0x5a5a);
    int failures = 0;
    for (int i = 0; i < cases; ++i) {
      const DegenerateCase c = GenerateDegenerate(f, rng);
      Verdict band;
      if (c.deforming) {
        band = Solve(DeformingCase{c.ray.origin, c.ray.translation,
                                   c.segment.start.p1, c.segment.start.p2,
                                   c.segment.end.p1, c.segment.end.p2,
                                   c.options.max_fraction});
      } else {
        band = SolveScene(c.scene);
      }
      const std::string why = Agree(band, SolveDegenerate(c));
      if (!why.empty() && ++failures <= 5) {
        ADD_FAILURE() << f.name << " case " << i << ": " << why << "\n  "
                      << DescribeDegenerate(c);
      }
    }
    EXPECT_EQ(failures, 0) << f.name;
  }
}

}  // namespace
}  // namespace collide::oracle
