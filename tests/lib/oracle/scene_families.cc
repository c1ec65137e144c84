// The property-test families: random scenes of one mover and obstacle
// kind against the oracle (RunFamily), the deforming segment, and touching
// starts (RunTouchingFamily), each with its counts and reproducers.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "scene_support.h"
#include "scenes.h"

namespace collide::oracle {

// ---------------------------------------------------------------------------
// Running a family.

namespace {

struct Stats {
  int cases = 0;
  int hits = 0;
  int misses = 0;
  int overlaps = 0;
  int skin = 0;
  int near = 0;
  int failures = 0;
  double max_dt = 0.0;
  std::map<std::string, int> near_notes;
};

constexpr int kPrintedFailures = 12;

void Report(const char* name, const Stats& st, double seconds) {
  std::printf(
      "[oracle] %-36s cases=%d hits=%d misses=%d overlaps=%d skin=%d "
      "near-tangent(skipped)=%d (%.3f%%) max|dt|=%.3g failures=%d "
      "time=%.2fs\n",
      name, st.cases, st.hits, st.misses, st.overlaps, st.skin, st.near,
      100.0 * st.near / std::max(1, st.cases), st.max_dt, st.failures, seconds);
  for (const auto& [note, count] : st.near_notes) {
    std::printf("[oracle]     skipped: %-58s %d\n", note.c_str(), count);
  }
  std::fflush(stdout);
  EXPECT_EQ(st.failures, 0) << name;
  EXPECT_LE(st.near, kMaxSkippedShare * st.cases) << name;
  EXPECT_GE(st.hits, st.cases / 10) << name << ": too few hits to test";
}

void Count(Stats& st, const Verdict& v) {
  ++st.cases;
  switch (v.outcome) {
    case Outcome::kHit:
      ++st.hits;
      break;
    case Outcome::kMiss:
      ++st.misses;
      break;
    case Outcome::kInitialOverlap:
      ++st.overlaps;
      break;
    case Outcome::kSkinHit:
      ++st.skin;
      break;
    case Outcome::kNearTangent:
      ++st.near;
      ++st.near_notes[v.note];
      break;
    case Outcome::kOracleError:
      break;
  }
}

}  // namespace

void RunFamily(const FamilySpec& spec) {
  const auto start = std::chrono::steady_clock::now();
  const int cases = CasesPerFamily();
  Rng rng(spec.seed);
  Stats st;
  SceneParams params;
  Scene scene;
  for (int i = 0; i < cases; ++i) {
    while (!GenerateScene(spec.mover, spec.obstacle, spec.moving, params, rng,
                          &scene)) {
    }
    const Verdict v = SolveScene(scene);
    Count(st, v);
    if (v.outcome == Outcome::kNearTangent) continue;
    const std::optional<Hit> hit = CastScene(scene);
    double dt = 0.0;
    const std::string why = CheckAgainstOracle(scene, v, hit, &dt);
    st.max_dt = std::max(st.max_dt, dt);
    if (!why.empty()) {
      ++st.failures;
      if (st.failures <= kPrintedFailures) {
        ADD_FAILURE() << spec.name << " case " << i << " (seed " << spec.seed
                      << "): " << why << "\n  L = " << v.length_scale << "\n  "
                      << DescribeScene(scene);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  Report(spec.name, st, seconds);
}

// ---------------------------------------------------------------------------
// Deforming segment.

namespace {

struct DeformingScene {
  RayInput ray;
  DeformingSegment segment;
  CastOptions options;
};

DeformingScene GenerateDeforming(Rng& rng) {
  DeformingScene s;
  const double scale = std::pow(10.0, rng.Uniform(-3.0, 6.0));
  const double size = scale * std::exp2(rng.Uniform(-2.0, 2.0));
  Vec2 c;
  if (rng.Chance(0.3)) {
    c = scale * std::pow(10.0, rng.Uniform(0.0, 6.0)) * rng.Direction();
  } else {
    c = scale * Vec2{rng.Uniform(-3.0, 3.0), rng.Uniform(-3.0, 3.0)};
  }
  const Vec2 u = rng.Direction();
  const Vec2 ha = -size * rng.Uniform(0.3, 1.0) * u;
  const Vec2 hb = size * rng.Uniform(0.3, 1.0) * u;
  const double turn = rng.Uniform(-0.5, 0.5) * std::numbers::pi;
  const double stretch = rng.Uniform(0.5, 1.5);
  const Vec2 drift =
      size * Vec2{rng.Uniform(-1.5, 1.5), rng.Uniform(-1.5, 1.5)};
  const Vec2 c1 = c + drift;
  s.segment.start = {c + ha, c + hb};
  if (rng.Chance(0.2)) {
    // Only one end moves (a swinging segment).
    s.segment.end = {c + ha, c1 + stretch * Rotate(hb, turn)};
  } else {
    s.segment.end = {c1 + stretch * Rotate(ha, turn),
                     c1 + stretch * Rotate(hb, turn)};
  }
  const Vec2 origin = c + size * rng.Uniform(0.2, 3.0) * rng.Direction();
  const Vec2 aim = c + rng.Uniform(0.0, 1.0) * drift +
                   size * Vec2{rng.Uniform(-1.0, 1.0), rng.Uniform(-1.0, 1.0)};
  Vec2 d = (aim - origin) * rng.Uniform(0.3, 2.5);
  if (rng.Chance(0.05)) d = {};
  s.ray = {origin, d};
  s.options.max_fraction = rng.Chance(0.25) ? rng.Uniform(0.05, 1.0) : 1.0;
  s.options.stop_at_penetration = rng.Chance(0.5);
  return s;
}

std::string DescribeDeforming(const DeformingScene& s) {
  return "CastRay(RayInput{" + V(s.ray.origin) + ", " + V(s.ray.translation) +
         "}, DeformingSegment{Segment{" + V(s.segment.start.p1) + ", " +
         V(s.segment.start.p2) + "}, Segment{" + V(s.segment.end.p1) + ", " +
         V(s.segment.end.p2) + "}}, " +
         Fmt("{.max_fraction = %.17g, .stop_at_penetration = %s})",
             s.options.max_fraction,
             s.options.stop_at_penetration ? "true" : "false");
}

std::string CheckDeforming(const DeformingScene& s, const Verdict& v,
                           const std::optional<Hit>& hit, double* dt_out) {
  *dt_out = 0.0;
  switch (v.outcome) {
    case Outcome::kNearTangent:
      return "";
    case Outcome::kMiss:
      return hit ? "oracle: miss; core: " + DescribeHit(hit) : "";
    case Outcome::kHit:
      break;
    default:
      return std::string("unexpected oracle outcome ") +
             OutcomeName(v.outcome) + " " + v.note;
  }
  if (!hit || hit->status != HitStatus::kHit) {
    return Fmt("oracle: hit at t* in (%.17g, %.17g]; core: ", v.t_lo, v.t_hi) +
           DescribeHit(hit);
  }
  const double dt = std::max(std::abs(hit->fraction - v.t_lo),
                             std::abs(hit->fraction - v.t_hi));
  if (!(dt <= kFractionTol)) {
    return Fmt("oracle: hit at t* in (%.17g, %.17g]; |dt| = %.3g; core: ",
               v.t_lo, v.t_hi, dt) +
           DescribeHit(hit);
  }
  *dt_out = dt;
  const Vec2 n = hit->normal;
  if (!(std::abs(Length(n) - 1.0) <= kUnitTol)) {
    return Fmt("normal not unit: |n| - 1 = %.3g; core: ", Length(n) - 1.0) +
           DescribeHit(hit);
  }
  // Geometry at the core's fraction, relative to start.p1.
  const LD f = hit->fraction;
  const Vec2 o = s.segment.start.p1;
  const LV a = RelativeLV(s.segment.start.p1, o, f,
                          s.segment.end.p1 - s.segment.start.p1);
  const LV b = RelativeLV(s.segment.start.p2, o, f,
                          s.segment.end.p2 - s.segment.start.p2);
  const LV p = RelativeLV(s.ray.origin, o, f, s.ray.translation);
  const LV ab = b - a;
  const LD len = Len(ab);
  // The normal is the segment's normal towards the side the point came from.
  const LV expected = (static_cast<LD>(v.side) / len) * LV{-ab.y, ab.x};
  const LV nl{n.x, n.y};
  if (!(Dot(nl, expected) > 0) || !(std::abs(Cross(nl, expected)) <= 1e-6)) {
    return Fmt("normal {%.17g, %.17g}, expected about {%.17Lg, %.17Lg}; core: ",
               n.x, n.y, expected.x, expected.y) +
           DescribeHit(hit);
  }
  const double L = v.length_scale;
  const double speed = Length(s.ray.translation) +
                       Length(s.segment.end.p1 - s.segment.start.p1) +
                       Length(s.segment.end.p2 - s.segment.start.p2);
  const LD tol = kPositionTol * L + speed * dt;
  const LV point = RelativeLV(hit->point, o, 0, {});
  const LD off_segment = SegmentDistance(a, b, point);
  const LD off_ray = Len(point - p);
  if (!(off_segment <= tol) || !(off_ray <= tol)) {
    return Fmt("point %.3Lg off the segment and %.3Lg off the moving point "
               "(tol %.3Lg); core: ",
               off_segment, off_ray, tol) +
           DescribeHit(hit);
  }
  return "";
}

}  // namespace

void RunDeformingFamily(const char* name, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const int cases = CasesPerFamily();
  Rng rng(seed);
  Stats st;
  for (int i = 0; i < cases; ++i) {
    const DeformingScene s = GenerateDeforming(rng);
    const Verdict v = Solve(DeformingCase{
        s.ray.origin, s.ray.translation, s.segment.start.p1, s.segment.start.p2,
        s.segment.end.p1, s.segment.end.p2, s.options.max_fraction});
    Count(st, v);
    if (v.outcome == Outcome::kNearTangent) continue;
    const std::optional<Hit> hit = CastRay(s.ray, s.segment, s.options);
    double dt = 0.0;
    const std::string why = CheckDeforming(s, v, hit, &dt);
    st.max_dt = std::max(st.max_dt, dt);
    if (!why.empty()) {
      ++st.failures;
      if (st.failures <= kPrintedFailures) {
        ADD_FAILURE() << name << " case " << i << " (seed " << seed
                      << "): " << why << "\n  L = " << v.length_scale << "\n  "
                      << DescribeDeforming(s);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  Report(name, st, seconds);
}

// ---------------------------------------------------------------------------
// Exactly touching starts.

namespace {

enum class Motion { kInto, kAway, kAlong };

struct Touching {
  Scene scene;
  Motion motion = Motion::kInto;
};

// Local frame: the obstacle lies below y = 0 with its top face on the
// x-axis, the mover above touching it. Everything is an integer times
// 2^scale_exp, rotated by (a, -b; b, a) for a Pythagorean (a, b, c), which
// scales lengths by c and keeps every value exact.
bool GenerateTouching(MoverKind mover, ObstacleKind obstacle, Rng& rng,
                      Touching* t) {
  static constexpr int kTriples[][3] = {{1, 0, 1},   {0, 1, 1},    {3, 4, 5},
                                        {4, -3, 5},  {5, 12, 13},  {-12, 5, 13},
                                        {8, 15, 17}, {-15, -8, 17}};
  const auto& tri = kTriples[rng.Int(0, 7)];
  const double ra = tri[0], rb = tri[1], rc = tri[2];
  const int e = rng.Int(-12, 12);
  const Vec2 offset{std::ldexp(std::round(rng.Uniform(-1e6, 1e6)), e),
                    std::ldexp(std::round(rng.Uniform(-1e6, 1e6)), e)};
  auto at = [&](double x, double y) {  // x, y small integers
    return Vec2{std::ldexp(ra * x - rb * y, e) + offset.x,
                std::ldexp(rb * x + ra * y, e) + offset.y};
  };
  auto vec = [&](double x, double y) {
    return Vec2{std::ldexp(ra * x - rb * y, e), std::ldexp(rb * x + ra * y, e)};
  };
  auto len = [&](double l) { return std::ldexp(l * rc, e); };
  auto integer = [&](int lo, int hi) {
    return static_cast<double>(rng.Int(lo, hi));
  };

  Scene& s = t->scene;
  s = Scene{};
  s.mover_kind = mover;
  s.obstacle_kind = obstacle;
  // Obstacle: top face from x = -w1 to x = w2 at y = 0.
  const double w1 = integer(8, 64), w2 = integer(8, 64), h = integer(8, 64);
  switch (obstacle) {
    case ObstacleKind::kSegment:
      s.segment = {at(-w1, 0), at(w2, 0)};
      break;
    case ObstacleKind::kPolygon: {
      // A trapezoid or box under the face.
      const double s1 = integer(0, 6), s2 = integer(0, 6);
      std::vector<Vec2> v{at(-w1, 0), at(-w1 - s1, -h), at(w2 + s2, -h),
                          at(w2, 0)};
      absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
      if (!p.ok()) return false;
      s.obstacle_polygon = *p;
      break;
    }
    default:
      std::abort();
  }
  // Mover touching from above at x0 within the face.
  const double x0 =
      integer(static_cast<int>(-w1) + 2, static_cast<int>(w2) - 2);
  switch (mover) {
    case MoverKind::kCircle: {
      const double r = integer(1, 32);
      s.circle = {at(x0, r), len(r)};
      break;
    }
    case MoverKind::kCapsule: {
      const double r = integer(1, 16);
      const double dx = integer(-16, 16),
                   dy = rng.Chance(0.5) ? 0 : integer(1, 16);
      s.capsule = {at(x0, r), at(x0 + dx, r + dy), len(r)};
      break;
    }
    case MoverKind::kPolygon: {
      std::vector<Vec2> v;
      if (rng.Chance(0.5)) {  // a box face down on the face
        const double w = integer(1, 8), hh = integer(1, 16);
        v = {at(x0, 0), at(x0 + w, 0), at(x0 + w, hh), at(x0, hh)};
      } else {  // a triangle standing on a vertex
        const double l = integer(1, 16), r = integer(1, 16),
                     hh = integer(1, 16);
        v = {at(x0, 0), at(x0 + r, hh), at(x0 - l, hh)};
      }
      absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
      if (!p.ok()) return false;
      s.polygon = *p;
      break;
    }
    default:
      std::abort();
  }
  const double dx = integer(-40, 40), dy = integer(1, 40);
  switch (rng.Int(0, 2)) {
    case 0:
      t->motion = Motion::kInto;
      s.translation = vec(dx, -dy);
      break;
    case 1:
      t->motion = Motion::kAway;
      s.translation = vec(dx, dy);
      break;
    default:
      t->motion = Motion::kAlong;
      s.translation = vec(dx == 0 ? 1 : dx, 0);
      break;
  }
  s.options.stop_at_penetration = rng.Chance(0.5);
  return true;
}

const char* MotionName(Motion m) {
  switch (m) {
    case Motion::kInto:
      return "into";
    case Motion::kAway:
      return "away";
    case Motion::kAlong:
      return "along";
  }
  return "?";
}

}  // namespace

void RunTouchingFamily(const char* name, MoverKind mover, ObstacleKind obstacle,
                       uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const int cases = CasesPerFamily();
  Rng rng(seed);
  int failures = 0, overlaps = 0, misses = 0, oracle_disagrees = 0;
  Touching t;
  for (int i = 0; i < cases; ++i) {
    while (!GenerateTouching(mover, obstacle, rng, &t)) {
    }
    const Scene& s = t.scene;
    // The oracle sees exact contact at the start.
    const Verdict v = SolveScene(s);
    if (v.outcome != Outcome::kNearTangent ||
        std::string(v.note) != "touching at the start") {
      ++oracle_disagrees;
      if (oracle_disagrees <= kPrintedFailures) {
        ADD_FAILURE() << name << " case " << i << ": oracle does not see an "
                      << "exact touch: " << OutcomeName(v.outcome) << " "
                      << v.note << "\n  " << DescribeScene(s);
      }
      continue;
    }
    const bool expect_hit =
        t.motion == Motion::kInto || s.options.stop_at_penetration;
    const std::optional<Hit> hit = CastScene(s);
    std::string why;
    if (expect_hit) {
      ++overlaps;
      if (!hit || hit->status != HitStatus::kInitialOverlap ||
          hit->fraction != 0.0) {
        why = "expected kInitialOverlap at 0 with depth 0";
      } else if (!(std::abs(hit->depth) <= kPositionTol * v.length_scale)) {
        why = "expected depth 0";
      } else if (!(std::abs(Length(hit->normal) - 1.0) <= kUnitTol)) {
        why = "normal not unit";
      } else {
        // The normal separates the touching shapes (gap 0 along it).
        const Core a = MoverCore(s), b = ObstacleCore(s);
        const Vec2 o = b.points[0];
        const LV n{hit->normal.x, hit->normal.y};
        LD g = std::numeric_limits<LD>::infinity();
        for (Vec2 pa : a.points) {
          for (Vec2 pb : b.points) {
            g = std::min(
                g, Dot(n, RelativeLV(pa, o, 0, {}) - RelativeLV(pb, o, 0, {})));
          }
        }
        g -= static_cast<LD>(a.radius) + b.radius;
        if (!(g >= -kPositionTol * v.length_scale)) {
          why =
              Fmt("normal does not separate the touching shapes (gap "
                  "%.3Lg)",
                  g);
        }
      }
    } else {
      ++misses;
      if (hit) why = "expected no hit (moving away or along a touched surface)";
    }
    if (!why.empty() && ++failures <= kPrintedFailures) {
      ADD_FAILURE() << name << " case " << i << " (moving "
                    << MotionName(t.motion) << "): " << why
                    << "; core: " << DescribeHit(hit) << "\n  "
                    << DescribeScene(s);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "[touching] %-34s cases=%d expect-overlap=%d expect-miss=%d "
      "failures=%d oracle-disagrees=%d time=%.2fs\n",
      name, cases, overlaps, misses, failures, oracle_disagrees, seconds);
  std::fflush(stdout);
  EXPECT_EQ(failures, 0) << name;
  EXPECT_EQ(oracle_disagrees, 0) << name;
}

}  // namespace collide::oracle
