// Symmetry and invariance of the TOI core, core against core, on random
// scenes (fixed seeds; COLLIDE_ORACLE_CASES overrides the 10,000 cases per
// pair, see toi_oracle_test.cc). The exact oracle only says which cases are
// near-tangent (within 1e-12 of the length scale of touching) and skipped.
//
// - A moving by d against B equals B moving by -d against A (for moving
//   obstacles: the translations swap): same hit or miss, same status,
//   fractions within 1e-9, normals opposite within 1e-9.
// - Translating the whole scene by an offset of up to 1e6 (local sizes 1 to
//   100, every coordinate on a 2^-30 grid so that the offset is exact):
//   same hit or miss and status, fractions within 1e-9; the normal stays
//   and a kHit's point moves with the scene (looser sanity bounds).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

constexpr double kNormalTol = 1e-9;
// Sanity bounds for the translated scene's point and normal.
constexpr double kTranslatedPointTol = 1e-8;  // times the length scale
constexpr double kTranslatedNormalTol = 1e-6;
constexpr int kPrintedFailures = 12;

using M = MoverKind;
using O = ObstacleKind;

// The obstacle as a mover, or nullopt when the core has no such mover.
std::optional<MoverKind> AsMover(ObstacleKind kind) {
  switch (kind) {
    case O::kPoint:
      return M::kRay;
    case O::kCircle:
      return M::kCircle;
    case O::kCapsule:
      return M::kCapsule;
    case O::kPolygon:
      return M::kPolygon;
    default:
      return std::nullopt;
  }
}

ObstacleKind AsObstacle(MoverKind kind) {
  switch (kind) {
    case M::kRay:
      return O::kPoint;
    case M::kCircle:
      return O::kCircle;
    case M::kCapsule:
      return O::kCapsule;
    case M::kPolygon:
      return O::kPolygon;
  }
  return O::kPoint;
}

// B moving against A: static obstacles get the reversed translation, moving
// ones swap translations.
Scene Swapped(const Scene& s) {
  Scene r;
  r.mover_kind = *AsMover(s.obstacle_kind);
  r.obstacle_kind = AsObstacle(s.mover_kind);
  r.moving_obstacle = s.moving_obstacle;
  r.options = s.options;
  switch (s.obstacle_kind) {
    case O::kPoint:
      r.ray_origin = s.point;
      break;
    case O::kCircle:
      r.circle = s.obstacle_circle;
      break;
    case O::kCapsule:
      r.capsule = s.obstacle_capsule;
      break;
    case O::kPolygon:
      r.polygon = s.obstacle_polygon;
      break;
    default:
      break;
  }
  switch (s.mover_kind) {
    case M::kRay:
      r.point = s.ray_origin;
      break;
    case M::kCircle:
      r.obstacle_circle = s.circle;
      break;
    case M::kCapsule:
      r.obstacle_capsule = s.capsule;
      break;
    case M::kPolygon:
      r.obstacle_polygon = s.polygon;
      break;
  }
  if (s.moving_obstacle) {
    r.translation = s.obstacle_translation;
    r.obstacle_translation = s.translation;
  } else {
    r.translation = -s.translation;
  }
  return r;
}

ConvexPolygon Shifted(const ConvexPolygon& p, Vec2 offset) {
  std::vector<Vec2> v;
  for (int i = 0; i < p.count; ++i) v.push_back(p.vertices[i] + offset);
  absl::StatusOr<ConvexPolygon> q = MakeConvexPolygon(v);
  EXPECT_TRUE(q.ok()) << q.status();
  return q.ok() ? *q : p;
}

Scene Translated(const Scene& s, Vec2 offset) {
  Scene t = s;
  t.ray_origin = s.ray_origin + offset;
  t.circle.center = s.circle.center + offset;
  t.capsule.p1 = s.capsule.p1 + offset;
  t.capsule.p2 = s.capsule.p2 + offset;
  if (s.mover_kind == M::kPolygon) t.polygon = Shifted(s.polygon, offset);
  t.point = s.point + offset;
  t.segment = {s.segment.p1 + offset, s.segment.p2 + offset};
  t.obstacle_circle.center = s.obstacle_circle.center + offset;
  t.obstacle_capsule.p1 = s.obstacle_capsule.p1 + offset;
  t.obstacle_capsule.p2 = s.obstacle_capsule.p2 + offset;
  if (s.obstacle_kind == O::kPolygon) {
    t.obstacle_polygon = Shifted(s.obstacle_polygon, offset);
  }
  for (Vec2& v : t.concave) v = v + offset;
  return t;
}

struct Pair {
  const char* name;
  MoverKind mover;
  ObstacleKind obstacle;
  bool moving;
};

struct Tally {
  int cases = 0;
  int compared = 0;
  int hits = 0;
  int skipped = 0;
  int failures = 0;
  double max_dt = 0.0;
  double max_dn = 0.0;
};

std::string Num(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

// Compares two core answers that must agree; `flip` when the normals must
// be opposite. Returns what differs, or "".
std::string Compare(const std::optional<Hit>& a, const std::optional<Hit>& b,
                    bool flip, double normal_tol, Tally& tally) {
  if (a.has_value() != b.has_value()) return "hit vs no hit";
  if (!a) return "";
  ++tally.hits;
  if (a->status != b->status) return "different status";
  const double dt = std::abs(a->fraction - b->fraction);
  tally.max_dt = std::max(tally.max_dt, dt);
  if (!(dt <= kFractionTol)) return "fractions differ by " + Num(dt);
  const Vec2 nb = flip ? -b->normal : b->normal;
  const double dn = Length(a->normal - nb);
  tally.max_dn = std::max(tally.max_dn, dn);
  if (!(dn <= normal_tol)) return "normals differ by " + Num(dn);
  return "";
}

void Summarize(const char* what, const Pair& p, const Tally& t,
               double seconds) {
  std::printf(
      "[%s] %-34s cases=%d compared=%d hits=%d near-tangent(skipped)=%d "
      "max|dt|=%.3g max|dn|=%.3g failures=%d time=%.2fs\n",
      what, p.name, t.cases, t.compared, t.hits, t.skipped, t.max_dt, t.max_dn,
      t.failures, seconds);
  std::fflush(stdout);
  EXPECT_EQ(t.failures, 0) << p.name;
  EXPECT_LE(t.skipped, kMaxSkippedShare * t.cases) << p.name;
}

void RunSymmetry(const Pair& p, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const int cases = CasesPerFamily();
  Rng rng(seed);
  Tally tally;
  SceneParams params;
  Scene s;
  for (int i = 0; i < cases; ++i) {
    while (!GenerateScene(p.mover, p.obstacle, p.moving, params, rng, &s)) {
    }
    ++tally.cases;
    const Verdict v = SolveScene(s);
    if (v.outcome == Outcome::kNearTangent ||
        v.outcome == Outcome::kOracleError) {
      ++tally.skipped;
      continue;
    }
    ++tally.compared;
    const Scene r = Swapped(s);
    const std::optional<Hit> a = CastScene(s);
    const std::optional<Hit> b = CastScene(r);
    const std::string why = Compare(a, b, /*flip=*/true, kNormalTol, tally);
    if (!why.empty() && ++tally.failures <= kPrintedFailures) {
      ADD_FAILURE() << p.name << " case " << i << ": " << why
                    << "\n  oracle: " << OutcomeName(v.outcome) << " t* in ("
                    << Num(v.t_lo) << ", " << Num(v.t_hi) << "]"
                    << "\n  A vs B: " << DescribeScene(s) << "\n    -> "
                    << DescribeHit(a) << "\n  B vs A: " << DescribeScene(r)
                    << "\n    -> " << DescribeHit(b);
    }
  }
  Summarize(
      "symmetry", p, tally,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
}

void RunTranslation(const Pair& p, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const int cases = CasesPerFamily();
  Rng rng(seed);
  Tally tally;
  SceneParams params;
  params.min_log10_scale = 0.0;
  params.max_log10_scale = 2.0;
  params.far_share = 0.0;
  params.quantize = true;
  Scene s;
  for (int i = 0; i < cases; ++i) {
    while (!GenerateScene(p.mover, p.obstacle, p.moving, params, rng, &s)) {
    }
    ++tally.cases;
    // An offset on the 2^-30 grid below 2^20 in each coordinate: every
    // translated coordinate is exact.
    const double r = std::pow(10.0, rng.Uniform(3.0, 6.0));
    const Vec2 u = rng.Direction();
    const Vec2 offset{std::ldexp(std::round(std::ldexp(r * u.x, 30)), -30),
                      std::ldexp(std::round(std::ldexp(r * u.y, 30)), -30)};
    const Verdict v = SolveScene(s);
    if (v.outcome == Outcome::kNearTangent ||
        v.outcome == Outcome::kOracleError) {
      ++tally.skipped;
      continue;
    }
    ++tally.compared;
    const Scene t = Translated(s, offset);
    const std::optional<Hit> a = CastScene(s);
    const std::optional<Hit> b = CastScene(t);
    std::string why =
        Compare(a, b, /*flip=*/false, kTranslatedNormalTol, tally);
    // (A start overlap's point is not specified, only its normal and depth.)
    if (why.empty() && a && a->status == HitStatus::kHit) {
      const double dp = Length((b->point - offset) - a->point);
      if (!(dp <= kTranslatedPointTol * v.length_scale)) {
        why = "points differ by " + Num(dp) + " after removing the offset";
      }
    }
    if (!why.empty() && ++tally.failures <= kPrintedFailures) {
      ADD_FAILURE() << p.name << " case " << i << ": " << why
                    << "\n  oracle: " << OutcomeName(v.outcome) << " t* in ("
                    << Num(v.t_lo) << ", " << Num(v.t_hi) << "]"
                    << "\n  local:   " << DescribeScene(s) << "\n    -> "
                    << DescribeHit(a) << "\n  shifted: " << DescribeScene(t)
                    << "\n    -> " << DescribeHit(b);
    }
  }
  Summarize(
      "translation", p, tally,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
}

TEST(ToiSymmetryTest, CircleVsPolygonEqualsPolygonVsCircleReversed) {
  RunSymmetry({"circle vs convex polygon", M::kCircle, O::kPolygon, false},
              0x5a001);
}
TEST(ToiSymmetryTest, PolygonVsPolygonEqualsReversed) {
  RunSymmetry({"polygon vs convex polygon", M::kPolygon, O::kPolygon, false},
              0x5a002);
}
TEST(ToiSymmetryTest, CapsuleVsCircleEqualsCircleVsCapsuleReversed) {
  RunSymmetry({"capsule vs circle", M::kCapsule, O::kCircle, false}, 0x5a003);
}
TEST(ToiSymmetryTest, CircleVsCircleEqualsReversed) {
  RunSymmetry({"circle vs circle", M::kCircle, O::kCircle, false}, 0x5a004);
}
TEST(ToiSymmetryTest, CapsuleVsCapsuleEqualsReversed) {
  RunSymmetry({"capsule vs capsule", M::kCapsule, O::kCapsule, false}, 0x5a005);
}
TEST(ToiSymmetryTest, CapsuleVsPolygonEqualsPolygonVsCapsuleReversed) {
  RunSymmetry({"capsule vs convex polygon", M::kCapsule, O::kPolygon, false},
              0x5a006);
}
TEST(ToiSymmetryTest, RayVsCircleEqualsCircleVsPointReversed) {
  RunSymmetry({"ray vs circle", M::kRay, O::kCircle, false}, 0x5a007);
}
TEST(ToiSymmetryTest, RayVsPolygonEqualsPolygonVsPointReversed) {
  RunSymmetry({"ray vs convex polygon", M::kRay, O::kPolygon, false}, 0x5a008);
}
TEST(ToiSymmetryTest, RayVsCapsuleEqualsCapsuleVsPointReversed) {
  RunSymmetry({"ray vs capsule", M::kRay, O::kCapsule, false}, 0x5a009);
}
TEST(ToiSymmetryTest, CircleVsMovingPolygonEqualsPolygonVsMovingCircle) {
  RunSymmetry(
      {"circle vs Moving<ConvexPolygon>", M::kCircle, O::kPolygon, true},
      0x5a00a);
}
TEST(ToiSymmetryTest, PolygonVsMovingPolygonEqualsSwapped) {
  RunSymmetry(
      {"polygon vs Moving<ConvexPolygon>", M::kPolygon, O::kPolygon, true},
      0x5a00b);
}
TEST(ToiSymmetryTest, CapsuleVsMovingCircleEqualsCircleVsMovingCapsule) {
  RunSymmetry({"capsule vs Moving<Circle>", M::kCapsule, O::kCircle, true},
              0x5a00c);
}

TEST(ToiTranslationTest, RayVsConvexPolygon) {
  RunTranslation({"ray vs convex polygon", M::kRay, O::kPolygon, false},
                 0x7a001);
}
TEST(ToiTranslationTest, RayVsConcavePolygon) {
  RunTranslation({"ray vs concave polygon", M::kRay, O::kConcave, false},
                 0x7a002);
}
TEST(ToiTranslationTest, CircleVsSegment) {
  RunTranslation({"circle vs segment", M::kCircle, O::kSegment, false},
                 0x7a003);
}
TEST(ToiTranslationTest, CircleVsCapsule) {
  RunTranslation({"circle vs capsule", M::kCircle, O::kCapsule, false},
                 0x7a004);
}
TEST(ToiTranslationTest, CapsuleVsConvexPolygon) {
  RunTranslation({"capsule vs convex polygon", M::kCapsule, O::kPolygon, false},
                 0x7a005);
}
TEST(ToiTranslationTest, PolygonVsConvexPolygon) {
  RunTranslation({"polygon vs convex polygon", M::kPolygon, O::kPolygon, false},
                 0x7a006);
}
TEST(ToiTranslationTest, PolygonVsConcavePolygon) {
  RunTranslation(
      {"polygon vs concave polygon", M::kPolygon, O::kConcave, false}, 0x7a007);
}
TEST(ToiTranslationTest, CircleVsMovingCircle) {
  RunTranslation({"circle vs Moving<Circle>", M::kCircle, O::kCircle, true},
                 0x7a008);
}
TEST(ToiTranslationTest, PolygonVsMovingConvexPolygon) {
  RunTranslation(
      {"polygon vs Moving<ConvexPolygon>", M::kPolygon, O::kPolygon, true},
      0x7a009);
}

}  // namespace
}  // namespace collide::oracle
