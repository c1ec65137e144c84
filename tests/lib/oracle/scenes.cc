#include "scenes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "scene_support.h"

namespace collide::oracle {

int Rng::Int(int lo, int hi) {
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int>(Next() % span);
}

Vec2 Rng::Direction() {
  const double a = Uniform(0.0, 2.0 * std::numbers::pi);
  return {std::cos(a), std::sin(a)};
}

int CasesPerFamily(int regular) {
  const char* env = std::getenv("COLLIDE_ORACLE_CASES");
  if (env == nullptr || *env == '\0') return regular;
  const long n = std::strtol(env, nullptr, 10);
  return n > 0 ? static_cast<int>(n) : regular;
}

const char* MoverName(MoverKind kind) {
  switch (kind) {
    case MoverKind::kRay:
      return "ray";
    case MoverKind::kCircle:
      return "circle";
    case MoverKind::kCapsule:
      return "capsule";
    case MoverKind::kPolygon:
      return "polygon";
  }
  return "?";
}

const char* ObstacleName(ObstacleKind kind) {
  switch (kind) {
    case ObstacleKind::kPoint:
      return "point";
    case ObstacleKind::kSegment:
      return "segment";
    case ObstacleKind::kCircle:
      return "circle";
    case ObstacleKind::kCapsule:
      return "capsule";
    case ObstacleKind::kPolygon:
      return "convex polygon";
    case ObstacleKind::kConcave:
      return "concave polygon";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Generation.

namespace {

class Placer {
 public:
  Placer(const SceneParams& params, Vec2 center)
      : quantize_(params.quantize), center_(center) {}
  double Q(double x) const {
    return quantize_ ? std::ldexp(std::round(std::ldexp(x, 30)), -30) : x;
  }
  // center + local, rounded like every position.
  Vec2 At(Vec2 local) const {
    return {Q(center_.x + local.x), Q(center_.y + local.y)};
  }
  Vec2 center() const { return center_; }

 private:
  bool quantize_;
  Vec2 center_;
};

// 3..8 points on a random ellipse of semi-axis up to `size`, sorted by
// angle, through MakeConvexPolygon.
std::optional<ConvexPolygon> RandomConvexPolygon(const Placer& at, double size,
                                                 Rng& rng) {
  const int n = rng.Int(3, kMaxPolygonVertices);
  const double a = size * rng.Uniform(0.5, 1.0);
  const double b = a * rng.Uniform(0.3, 1.0);
  const double rot = rng.Uniform(0.0, 2.0 * std::numbers::pi);
  std::vector<Vec2> v;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * std::numbers::pi * (i + rng.Uniform(0.1, 0.9)) / n;
    v.push_back(at.At(Rotate({a * std::cos(t), b * std::sin(t)}, rot)));
  }
  if (rng.Chance(0.5)) std::reverse(v.begin(), v.end());  // either winding
  absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
  if (!p.ok()) return std::nullopt;
  return *p;
}

// A star-shaped simple polygon of 5..12 vertices, radii up to `size`.
std::optional<std::vector<Vec2>> RandomConcavePolygon(const Placer& at,
                                                      double size, Rng& rng) {
  const int n = rng.Int(5, 12);
  const double rot = rng.Uniform(0.0, 2.0 * std::numbers::pi);
  std::vector<Vec2> v;
  for (int i = 0; i < n; ++i) {
    const double t =
        rot + 2.0 * std::numbers::pi * (i + rng.Uniform(0.1, 0.9)) / n;
    const double r = size * rng.Uniform(0.3, 1.0);
    v.push_back(at.At({r * std::cos(t), r * std::sin(t)}));
  }
  if (rng.Chance(0.5)) std::reverse(v.begin(), v.end());
  if (!MakeConcavePolygon(v).ok()) return std::nullopt;
  return v;
}

// Two ends at +-half along a random direction.
std::pair<Vec2, Vec2> RandomSegment(const Placer& at, double half, Rng& rng,
                                    bool degenerate) {
  if (degenerate) {
    const Vec2 p = at.At({});
    return {p, p};
  }
  const Vec2 u = rng.Direction();
  return {at.At(-half * u), at.At(half * u)};
}

}  // namespace

namespace {

// Moves the mover by `shift` (positions rounded like the generator's).
bool ShiftMover(const SceneParams& params, Vec2 shift, Scene* s) {
  const Placer at(params, shift);
  switch (s->mover_kind) {
    case MoverKind::kRay:
      s->ray_origin = at.At(s->ray_origin);
      break;
    case MoverKind::kCircle:
      s->circle.center = at.At(s->circle.center);
      break;
    case MoverKind::kCapsule:
      s->capsule.p1 = at.At(s->capsule.p1);
      s->capsule.p2 = at.At(s->capsule.p2);
      break;
    case MoverKind::kPolygon: {
      std::vector<Vec2> v;
      for (int i = 0; i < s->polygon.count; ++i) {
        v.push_back(at.At(s->polygon.vertices[i]));
      }
      absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
      if (!p.ok()) return false;
      s->polygon = *p;
      break;
    }
  }
  return true;
}

double Support(const Core& core, Vec2 n) {
  double m = -std::numeric_limits<double>::infinity();
  for (Vec2 p : core.points) m = std::max(m, Dot(p, n));
  return m + core.radius;
}

// Re-aims the scene so that the mover passes the obstacle on one side with
// a tiny clearance (or overlap) across its whole sweep.
bool MakeGrazing(const SceneParams& params, Vec2 c, double reach, Rng& rng,
                 Scene* s) {
  const Vec2 u = rng.Direction();
  const Vec2 n = rng.Chance(0.5) ? LeftPerp(u) : RightPerp(u);
  const Core mover = MoverCore(*s);
  const Core obstacle = ObstacleCore(*s);
  const double clearance = (rng.Chance(0.5) ? 1.0 : -1.0) *
                           std::pow(10.0, rng.Uniform(-10.5, -2.0)) * reach;
  // Lateral: the mover's lowest point along n sits clearance above the
  // obstacle's highest plus the skin. Along u: start behind the obstacle.
  const double lateral = Support(obstacle, n) + s->options.target_distance +
                         clearance + Support(mover, -n);
  const double along =
      Dot(c, u) - reach * rng.Uniform(1.3, 2.5) - Dot(mover.points[0], u);
  if (!ShiftMover(params, lateral * n + along * u, s)) return false;
  const Vec2 rel = reach * rng.Uniform(2.8, 5.0) * u;
  s->translation = s->moving_obstacle ? s->obstacle_translation + rel : rel;
  return true;
}

}  // namespace

bool GenerateScene(MoverKind mover, ObstacleKind obstacle, bool moving,
                   const SceneParams& params, Rng& rng, Scene* s) {
  *s = Scene{};
  s->mover_kind = mover;
  s->obstacle_kind = obstacle;
  s->moving_obstacle = moving;
  const double scale = std::pow(
      10.0, rng.Uniform(params.min_log10_scale, params.max_log10_scale));
  const double so = scale * std::exp2(rng.Uniform(-2.0, 2.0));
  const double sm = scale * std::exp2(rng.Uniform(-2.0, 2.0));
  Vec2 c;
  if (rng.Chance(params.far_share)) {
    c = scale * std::pow(10.0, rng.Uniform(0.0, 6.0)) * rng.Direction();
  } else {
    c = scale * Vec2{rng.Uniform(-3.0, 3.0), rng.Uniform(-3.0, 3.0)};
  }
  const Placer obstacle_at(params, c);
  auto q = [&](double x) { return obstacle_at.Q(x); };

  switch (obstacle) {
    case ObstacleKind::kPoint:
      s->point = obstacle_at.At({});
      break;
    case ObstacleKind::kSegment: {
      const auto [a, b] = RandomSegment(obstacle_at, so * rng.Uniform(0.4, 1.0),
                                        rng, rng.Chance(0.02));
      s->segment = {a, b};
      break;
    }
    case ObstacleKind::kCircle:
      s->obstacle_circle = {
          obstacle_at.At({}),
          rng.Chance(0.02) ? 0.0 : q(so * rng.Uniform(0.3, 1.0))};
      break;
    case ObstacleKind::kCapsule: {
      const auto [a, b] = RandomSegment(obstacle_at, so * rng.Uniform(0.3, 0.8),
                                        rng, rng.Chance(0.02));
      s->obstacle_capsule = {a, b, q(so * rng.Uniform(0.1, 0.5))};
      break;
    }
    case ObstacleKind::kPolygon: {
      const std::optional<ConvexPolygon> p =
          RandomConvexPolygon(obstacle_at, so, rng);
      if (!p) return false;
      s->obstacle_polygon = *p;
      break;
    }
    case ObstacleKind::kConcave: {
      std::optional<std::vector<Vec2>> p =
          RandomConcavePolygon(obstacle_at, so, rng);
      if (!p) return false;
      s->concave = std::move(*p);
      break;
    }
  }

  // The mover starts clear of the obstacle's bounding circle, or (one in
  // eight) close to or inside it.
  const double reach = so + sm;
  const double start_distance = rng.Chance(0.12)
                                    ? reach * rng.Uniform(0.0, 0.8)
                                    : reach * rng.Uniform(1.05, 3.0);
  const Vec2 m0 = c + start_distance * rng.Direction();
  const Placer mover_at(params, m0);
  switch (mover) {
    case MoverKind::kRay:
      s->ray_origin = mover_at.At({});
      break;
    case MoverKind::kCircle:
      s->circle = {mover_at.At({}),
                   rng.Chance(0.02) ? 0.0 : q(sm * rng.Uniform(0.2, 1.0))};
      break;
    case MoverKind::kCapsule: {
      const auto [a, b] = RandomSegment(mover_at, sm * rng.Uniform(0.3, 0.8),
                                        rng, rng.Chance(0.02));
      s->capsule = {a, b, q(sm * rng.Uniform(0.1, 0.5))};
      break;
    }
    case MoverKind::kPolygon: {
      const std::optional<ConvexPolygon> p =
          RandomConvexPolygon(mover_at, sm, rng);
      if (!p) return false;
      s->polygon = *p;
      break;
    }
  }

  // Relative translation: mostly aimed at the obstacle, some in a random
  // direction, a few zero or tiny.
  const Vec2 aim =
      c + so * Vec2{rng.Uniform(-1.2, 1.2), rng.Uniform(-1.2, 1.2)};
  Vec2 rel = (aim - m0) * rng.Uniform(0.3, 2.5);
  if (rng.Chance(0.15)) rel = Length(rel) * rng.Direction();
  const double r = rng.Uniform();
  bool zero = false;
  if (r < 0.03) {
    rel = {};
    zero = true;
  } else if (r < 0.07) {
    rel = 1e-4 * rel;
  }
  if (moving) {
    const double speed = zero ? reach * rng.Uniform(0.0, 1.0)
                              : Length(rel) * rng.Uniform(0.0, 1.5);
    s->obstacle_translation = speed * rng.Direction();
    s->translation =
        zero ? s->obstacle_translation : s->obstacle_translation + rel;
  } else {
    s->translation = rel;
  }

  s->options.max_fraction = rng.Chance(0.25) ? rng.Uniform(0.05, 1.0) : 1.0;
  s->options.target_distance = params.allow_target_distance && rng.Chance(0.2)
                                   ? q(so * rng.Uniform(0.0, 0.4))
                                   : 0.0;
  s->options.stop_at_penetration = rng.Chance(0.5);
  if (rng.Chance(params.grazing_share)) {
    return MakeGrazing(params, c, reach, rng, s);
  }
  return true;
}

// ---------------------------------------------------------------------------
// The core, through the overload for the scene's pair.

namespace {

template <typename Obstacle>
std::optional<Hit> CastMover(const Scene& s, const Obstacle& obstacle) {
  const CastOptions& o = s.options;
  switch (s.mover_kind) {
    case MoverKind::kRay:
      if constexpr (requires { CastRay(RayInput{}, obstacle, o); }) {
        return CastRay(RayInput{s.ray_origin, s.translation}, obstacle, o);
      }
      break;
    case MoverKind::kCircle:
      if constexpr (requires { CastCircle(CircleCast{}, obstacle, o); }) {
        return CastCircle(CircleCast{s.circle, s.translation}, obstacle, o);
      }
      break;
    case MoverKind::kCapsule:
      if constexpr (requires { CastCapsule(CapsuleCast{}, obstacle, o); }) {
        return CastCapsule(CapsuleCast{s.capsule, s.translation}, obstacle, o);
      }
      break;
    case MoverKind::kPolygon:
      if constexpr (requires { CastPolygon(PolygonCast{}, obstacle, o); }) {
        return CastPolygon(PolygonCast{s.polygon, s.translation}, obstacle, o);
      }
      break;
  }
  std::fprintf(stderr, "no core overload for %s vs %s\n",
               MoverName(s.mover_kind), ObstacleName(s.obstacle_kind));
  std::abort();
}

template <typename Shape>
std::optional<Hit> CastMaybeMoving(const Scene& s, const Shape& shape) {
  if (s.moving_obstacle) {
    return CastMover(s, Moving<Shape>{shape, s.obstacle_translation});
  }
  return CastMover(s, shape);
}

}  // namespace

std::optional<Hit> CastScene(const Scene& s) {
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      return CastMaybeMoving(s, s.point);
    case ObstacleKind::kSegment:
      return CastMaybeMoving(s, s.segment);
    case ObstacleKind::kCircle:
      return CastMaybeMoving(s, s.obstacle_circle);
    case ObstacleKind::kCapsule:
      return CastMaybeMoving(s, s.obstacle_capsule);
    case ObstacleKind::kPolygon:
      return CastMaybeMoving(s, s.obstacle_polygon);
    case ObstacleKind::kConcave: {
      const absl::StatusOr<ConcavePolygon> p = MakeConcavePolygon(s.concave);
      if (!p.ok()) std::abort();
      return CastMaybeMoving(s, *p);
    }
  }
  std::abort();
}

// ---------------------------------------------------------------------------
// The oracle's view.

Core MoverCore(const Scene& s) {
  switch (s.mover_kind) {
    case MoverKind::kRay:
      return {{s.ray_origin}, 0.0};
    case MoverKind::kCircle:
      return {{s.circle.center}, s.circle.radius};
    case MoverKind::kCapsule:
      return {{s.capsule.p1, s.capsule.p2}, s.capsule.radius};
    case MoverKind::kPolygon:
      return {{s.polygon.vertices.begin(),
               s.polygon.vertices.begin() + s.polygon.count},
              0.0};
  }
  std::abort();
}

Core ObstacleCore(const Scene& s) {
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      return {{s.point}, 0.0};
    case ObstacleKind::kSegment:
      return {{s.segment.p1, s.segment.p2}, 0.0};
    case ObstacleKind::kCircle:
      return {{s.obstacle_circle.center}, s.obstacle_circle.radius};
    case ObstacleKind::kCapsule:
      return {{s.obstacle_capsule.p1, s.obstacle_capsule.p2},
              s.obstacle_capsule.radius};
    case ObstacleKind::kPolygon:
      return {{s.obstacle_polygon.vertices.begin(),
               s.obstacle_polygon.vertices.begin() + s.obstacle_polygon.count},
              0.0};
    case ObstacleKind::kConcave:
      return {s.concave, 0.0};
  }
  std::abort();
}

Verdict SolveScene(const Scene& s) {
  const Vec2 obstacle_translation =
      s.moving_obstacle ? s.obstacle_translation : Vec2{};
  if (s.obstacle_kind == ObstacleKind::kConcave) {
    return Solve(ConcaveCase{MoverCore(s), s.translation, s.concave,
                             obstacle_translation, s.options.max_fraction,
                             s.options.target_distance});
  }
  return Solve(ConvexCase{MoverCore(s), s.translation, ObstacleCore(s),
                          obstacle_translation, s.options.max_fraction,
                          s.options.target_distance});
}

// ---------------------------------------------------------------------------
// Printing.

namespace {

std::string Points(const Vec2* begin, const Vec2* end) {
  std::string r = "{";
  for (const Vec2* p = begin; p != end; ++p) {
    if (p != begin) r += ", ";
    r += V(*p);
  }
  return r + "}";
}

std::string PolygonText(const ConvexPolygon& p) {
  return "*MakeConvexPolygon(std::vector<Vec2>" +
         Points(p.vertices.data(), p.vertices.data() + p.count) + ")";
}

}  // namespace

std::string DescribeScene(const Scene& s) {
  std::string mover;
  switch (s.mover_kind) {
    case MoverKind::kRay:
      mover =
          "CastRay(RayInput{" + V(s.ray_origin) + ", " + V(s.translation) + "}";
      break;
    case MoverKind::kCircle:
      mover = "CastCircle(CircleCast{Circle{" + V(s.circle.center) +
              Fmt(", %.17g}, ", s.circle.radius) + V(s.translation) + "}";
      break;
    case MoverKind::kCapsule:
      mover = "CastCapsule(CapsuleCast{Capsule{" + V(s.capsule.p1) + ", " +
              V(s.capsule.p2) + Fmt(", %.17g}, ", s.capsule.radius) +
              V(s.translation) + "}";
      break;
    case MoverKind::kPolygon:
      mover = "CastPolygon(PolygonCast{" + PolygonText(s.polygon) + ", " +
              V(s.translation) + "}";
      break;
  }
  std::string obstacle, type;
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      type = "Vec2";
      obstacle = "Vec2" + V(s.point);
      break;
    case ObstacleKind::kSegment:
      type = "Segment";
      obstacle = "Segment{" + V(s.segment.p1) + ", " + V(s.segment.p2) + "}";
      break;
    case ObstacleKind::kCircle:
      type = "Circle";
      obstacle = "Circle{" + V(s.obstacle_circle.center) +
                 Fmt(", %.17g}", s.obstacle_circle.radius);
      break;
    case ObstacleKind::kCapsule:
      type = "Capsule";
      obstacle = "Capsule{" + V(s.obstacle_capsule.p1) + ", " +
                 V(s.obstacle_capsule.p2) +
                 Fmt(", %.17g}", s.obstacle_capsule.radius);
      break;
    case ObstacleKind::kPolygon:
      type = "ConvexPolygon";
      obstacle = PolygonText(s.obstacle_polygon);
      break;
    case ObstacleKind::kConcave:
      type = "ConcavePolygon";
      obstacle = "*MakeConcavePolygon(/*vertices=*/std::vector<Vec2>" +
                 Points(s.concave.data(), s.concave.data() + s.concave.size()) +
                 ")";
      break;
  }
  if (s.moving_obstacle) {
    obstacle = "Moving<" + type + ">{" + obstacle + ", " +
               V(s.obstacle_translation) + "}";
  }
  return mover + ", " + obstacle +
         Fmt(", {.max_fraction = %.17g, .target_distance = %.17g, "
             ".stop_at_penetration = %s})",
             s.options.max_fraction, s.options.target_distance,
             s.options.stop_at_penetration ? "true" : "false");
}

std::string DescribeHit(const std::optional<Hit>& hit) {
  if (!hit) return "no hit";
  return Fmt(
      "%s fraction=%.17g point={%.17g, %.17g} normal={%.17g, %.17g} "
      "depth=%.17g feature=%d/%d",
      hit->status == HitStatus::kHit ? "kHit" : "kInitialOverlap",
      hit->fraction, hit->point.x, hit->point.y, hit->normal.x, hit->normal.y,
      hit->depth, static_cast<int>(hit->feature.type), hit->feature.index);
}

// ---------------------------------------------------------------------------
// Checks, in long double on positions relative to the obstacle's first
// point (so that far-away scenes lose nothing to the check itself).

namespace {

// Signed distance from p to the convex hull of the core points (negative
// inside; points are a polygon's vertices in order, or 1-2 points).
LD CoreSignedDistance(const std::vector<LV>& pts, LV p) {
  const size_t n = pts.size();
  if (n == 1) return Len(p - pts[0]);
  if (n == 2) return SegmentDistance(pts[0], pts[1], p);
  // Orientation of the ring.
  LD area = 0;
  for (size_t i = 0; i < n; ++i) area += Cross(pts[i], pts[(i + 1) % n]);
  const LD sign = area >= 0 ? 1 : -1;
  bool inside = true;
  LD best = std::numeric_limits<LD>::infinity();
  for (size_t i = 0; i < n; ++i) {
    const LV a = pts[i], b = pts[(i + 1) % n];
    if (sign * Cross(b - a, p - a) < 0) inside = false;
    best = std::min(best, SegmentDistance(a, b, p));
  }
  return inside ? -best : best;
}

LD RingDistance(const std::vector<LV>& pts, LV p) {
  LD best = std::numeric_limits<LD>::infinity();
  for (size_t i = 0; i < pts.size(); ++i) {
    best =
        std::min(best, SegmentDistance(pts[i], pts[(i + 1) % pts.size()], p));
  }
  return best;
}

}  // namespace

std::string CheckAgainstOracle(const Scene& s, const Verdict& v,
                               const std::optional<Hit>& hit, double* dt_out) {
  *dt_out = 0.0;
  const double L = v.length_scale;
  const Core mover = MoverCore(s);
  const Core obstacle = ObstacleCore(s);
  const bool concave = s.obstacle_kind == ObstacleKind::kConcave;
  const Vec2 dm = s.translation;
  const Vec2 dob = s.moving_obstacle ? s.obstacle_translation : Vec2{};
  const Vec2 drel = dm - dob;
  const double target = s.options.target_distance;

  switch (v.outcome) {
    case Outcome::kNearTangent:
      return "";
    case Outcome::kOracleError:
      return std::string("oracle error: ") + v.note;
    case Outcome::kMiss:
      if (hit) return "oracle: miss; core: " + DescribeHit(hit);
      return "";
    case Outcome::kInitialOverlap:
      if (!hit || hit->status != HitStatus::kInitialOverlap ||
          hit->fraction != 0.0) {
        return Fmt("oracle: initial overlap (core distance %.17g, depth "
                   "%.17g); core: ",
                   v.start_core_distance, v.depth) +
               DescribeHit(hit);
      }
      break;
    case Outcome::kSkinHit:
      if (!hit || hit->status != HitStatus::kHit || hit->fraction != 0.0) {
        return Fmt("oracle: start inside the skin moving closer (gap %.17g): "
                   "kHit at 0; core: ",
                   v.start_core_distance - mover.radius - obstacle.radius) +
               DescribeHit(hit);
      }
      break;
    case Outcome::kHit: {
      if (!hit || hit->status != HitStatus::kHit) {
        return Fmt("oracle: hit at t* in (%.17g, %.17g]; core: ", v.t_lo,
                   v.t_hi) +
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
      break;
    }
  }

  // A hit the oracle agrees with: check the normal, the point and the depth.
  const Vec2 n = hit->normal;
  const double len = Length(n);
  if (!(std::abs(len - 1.0) <= kUnitTol)) {
    return Fmt("normal not unit: |n| - 1 = %.3g; core: ", len - 1.0) +
           DescribeHit(hit);
  }
  const LD f = hit->fraction;
  const LD dt = *dt_out;
  const LD tol = kPositionTol * L + (Length(dm) + Length(dob)) * dt;
  const Vec2 origin = obstacle.points[0];
  std::vector<LV> a, b;
  for (Vec2 p : mover.points) a.push_back(RelativeLV(p, origin, f, dm));
  for (Vec2 p : obstacle.points) b.push_back(RelativeLV(p, origin, f, dob));
  const LV nl{n.x, n.y};

  if (v.outcome == Outcome::kHit && hit->fraction > 0.0) {
    // Approaching: the normal faces against the relative motion.
    const double along = Dot(n, drel);
    if (!(along <= 1e-9 * Length(drel))) {
      return Fmt("normal faces along the motion: n . d = %.3g (|d| = %.3g); "
                 "core: ",
                 along, Length(drel)) +
             DescribeHit(hit);
    }
  }
  // The gap the normal should see: target distance at contact, the start
  // gap in the skin, minus the depth in overlap.
  const double expected_gap =
      v.outcome == Outcome::kHit
          ? target
          : v.start_core_distance - mover.radius - obstacle.radius;
  if (!concave) {
    // The normal separates the shapes by the expected gap:
    // min over a, b of n . (a - b) - radii >= gap - tol (equality for the
    // true normal, less for any other direction).
    LD g = std::numeric_limits<LD>::infinity();
    for (const LV& pa : a) {
      for (const LV& pb : b) g = std::min(g, Dot(nl, pa - pb));
    }
    g -= static_cast<LD>(mover.radius) + obstacle.radius;
    if (!(g >= expected_gap - tol)) {
      return Fmt("normal does not separate: gap along n %.17Lg, expected "
                 "%.17g (tol %.3Lg); core: ",
                 g, expected_gap, tol) +
             DescribeHit(hit);
    }
  }
  if (v.outcome == Outcome::kInitialOverlap) {
    if (!concave && !(std::abs(hit->depth - v.depth) <= kPositionTol * L)) {
      return Fmt("depth %.17g, oracle %.17g; core: ", hit->depth, v.depth) +
             DescribeHit(hit);
    }
    return "";
  }
  // The point is on the obstacle's surface at that fraction, and the mover
  // is the expected gap away from it, beyond the tangent line.
  const LV p = RelativeLV(hit->point, origin, 0, {});
  const LD on_obstacle =
      concave ? RingDistance(b, p) : CoreSignedDistance(b, p) - obstacle.radius;
  if (!(std::abs(on_obstacle) <= tol)) {
    return Fmt("point off the obstacle's surface by %.3Lg (tol %.3Lg); core: ",
               on_obstacle, tol) +
           DescribeHit(hit);
  }
  const LD to_mover = CoreSignedDistance(a, p) - mover.radius;
  if (!(std::abs(to_mover - expected_gap) <= tol)) {
    return Fmt("point is %.17Lg from the mover, expected %.17g (tol %.3Lg); "
               "core: ",
               to_mover, expected_gap, tol) +
           DescribeHit(hit);
  }
  LD beyond = std::numeric_limits<LD>::infinity();
  for (const LV& pa : a) beyond = std::min(beyond, Dot(nl, pa - p));
  beyond -= mover.radius;
  if (!(beyond >= expected_gap - tol)) {
    return Fmt("mover reaches %.17Lg past the contact's tangent line "
               "(expected gap %.17g, tol %.3Lg); core: ",
               expected_gap - beyond, expected_gap, tol) +
           DescribeHit(hit);
  }
  return "";
}

}  // namespace collide::oracle
