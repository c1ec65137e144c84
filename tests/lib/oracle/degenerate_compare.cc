// The core's answer on a degenerate case against the oracle's exact verdict
// (CompareDegenerate in degenerate.h): the kind of disagreement, if any, and
// why, to within a few ulps of the case's own coordinates.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "degenerate.h"
#include "scene_support.h"
#include "scenes.h"

namespace collide::oracle {

namespace {

double SegDist(Vec2 a, Vec2 b, Vec2 p) {
  using LD = long double;
  const LD ex = static_cast<LD>(b.x) - a.x, ey = static_cast<LD>(b.y) - a.y;
  const LD wx = static_cast<LD>(p.x) - a.x, wy = static_cast<LD>(p.y) - a.y;
  const LD l2 = ex * ex + ey * ey;
  LD u = l2 == 0 ? 0 : (wx * ex + wy * ey) / l2;
  u = std::clamp(u, LD{0}, LD{1});
  return static_cast<double>(std::hypot(wx - u * ex, wy - u * ey));
}

// The reported feature is where the contact point is: a vertex index names
// a point at that vertex (at the radius for a capsule), an edge index a
// point on that edge. "" when consistent.
std::string CheckFeature(const Scene& s, const Hit& hit, double tol) {
  const Vec2 shift =
      s.moving_obstacle ? hit.fraction * s.obstacle_translation : Vec2{};
  std::vector<Vec2> pts;
  double radius = 0.0;
  bool closed = false;
  switch (s.obstacle_kind) {
    case ObstacleKind::kCircle:
      if (hit.feature.type != FeatureType::kSurface) {
        return "circle feature is not kSurface";
      }
      return "";
    case ObstacleKind::kPoint:
      return "";
    case ObstacleKind::kSegment:
      pts = {s.segment.p1, s.segment.p2};
      break;
    case ObstacleKind::kCapsule:
      pts = {s.obstacle_capsule.p1, s.obstacle_capsule.p2};
      radius = s.obstacle_capsule.radius;
      break;
    case ObstacleKind::kPolygon:
      pts.assign(
          s.obstacle_polygon.vertices.begin(),
          s.obstacle_polygon.vertices.begin() + s.obstacle_polygon.count);
      closed = true;
      break;
    case ObstacleKind::kConcave:
      pts = s.concave;
      closed = true;
      break;
  }
  for (Vec2& p : pts) p = p + shift;
  const int n = static_cast<int>(pts.size());
  const int i = hit.feature.index;
  const Vec2 q = hit.point;
  if (hit.feature.type == FeatureType::kVertex) {
    if (i < 0 || i >= n) return Fmt("vertex index %d out of range", i);
    const double dist = Length(q - pts[i]);
    if (!(std::abs(dist - radius) <= tol)) {
      return Fmt("vertex %d is %.3g from the contact point (radius %.3g)", i,
                 dist, radius);
    }
    return "";
  }
  if (hit.feature.type == FeatureType::kEdge) {
    const int edges = closed ? n : 1;
    if (i < 0 || i >= edges) return Fmt("edge index %d out of range", i);
    const double dist = SegDist(pts[i], pts[(i + 1) % n], q);
    if (!(std::abs(dist - radius) <= tol)) {
      return Fmt("edge %d is %.3g from the contact point (radius %.3g)", i,
                 dist, radius);
    }
    return "";
  }
  return "kSurface on a shape with edges";
}

double Ulp(double x) {
  if (x == 0.0) return 0.0;
  return std::ldexp(1.0, std::ilogb(x) - 52);
}

double MaxCoordinate(const DegenerateCase& c) {
  double m = 0.0;
  auto add = [&](Vec2 p) { m = std::max({m, std::abs(p.x), std::abs(p.y)}); };
  if (c.deforming) {
    add(c.ray.origin);
    add(c.segment.start.p1);
    add(c.segment.start.p2);
    add(c.segment.end.p1);
    add(c.segment.end.p2);
    return m;
  }
  for (Vec2 p : MoverCore(c.scene).points) add(p);
  for (Vec2 p : ObstacleCore(c.scene).points) {
    add(p);
    add(p + c.scene.obstacle_translation);
  }
  return m;
}

}  // namespace

Disagreement CompareDegenerate(const DegenerateCase& c, const Verdict& v,
                               const std::optional<Hit>& hit, double* dt,
                               std::string* why) {
  *dt = 0.0;
  why->clear();
  if (v.outcome == Outcome::kOracleError) {
    *why = std::string("oracle error: ") + v.note;
    return Disagreement::kOracleError;
  }
  if (v.outcome == Outcome::kNearTangent) {
    *why = std::string("no verdict: ") + v.note;
    return Disagreement::kSkipped;
  }
  const bool stop = c.deforming ? c.options.stop_at_penetration
                                : c.scene.options.stop_at_penetration;
  Outcome expected = v.outcome;
  if (v.touching_start && stop) expected = Outcome::kInitialOverlap;
  const std::string oracle =
      "oracle: " + DescribeVerdict(v) +
      (expected != v.outcome ? " -> kInitialOverlap (stop_at_penetration)"
                             : "") +
      "; core: " + DescribeHit(hit);
  if (expected == Outcome::kMiss) {
    if (!hit) return Disagreement::kNone;
    *why = oracle;
    return Disagreement::kHitMiss;
  }
  if (!hit) {
    *why = oracle;
    return Disagreement::kHitMiss;
  }
  switch (expected) {
    case Outcome::kInitialOverlap:
      if (hit->status != HitStatus::kInitialOverlap || hit->fraction != 0.0) {
        *why = oracle;
        return Disagreement::kStatus;
      }
      break;
    case Outcome::kSkinHit:
      if (hit->status != HitStatus::kHit || hit->fraction != 0.0) {
        *why = oracle;
        return Disagreement::kStatus;
      }
      break;
    case Outcome::kHit: {
      if (hit->status != HitStatus::kHit) {
        *why = oracle;
        return Disagreement::kStatus;
      }
      const double e = std::max(std::abs(hit->fraction - v.t_lo),
                                std::abs(hit->fraction - v.t_hi));
      *dt = e;
      if (!(e <= kFractionTol)) {
        *why = Fmt("|dt| = %.3g; ", e) + oracle;
        return Disagreement::kFraction;
      }
      break;
    }
    default:
      break;
  }
  // Decisions agree; now the labels and the geometry.
  // The contact point is a double: where coordinates are large next to the
  // case (offsets of 1e9), it cannot be nearer than about one ulp of them.
  const double repr = 4.0 * Ulp(MaxCoordinate(c));
  const double tol = repr + kPositionTol * v.length_scale +
                     (c.deforming ? Length(c.ray.translation)
                                  : Length(c.scene.translation) +
                                        Length(c.scene.obstacle_translation)) *
                         *dt;
  if (c.deforming) {
    if (hit->status == HitStatus::kHit) {
      const double f = hit->fraction;
      const DeformingSegment& g = c.segment;
      const Vec2 a = g.start.p1 + f * (g.end.p1 - g.start.p1);
      const Vec2 b = g.start.p2 + f * (g.end.p2 - g.start.p2);
      const double off = SegDist(a, b, hit->point);
      const double tol_d =
          tol +
          (Length(g.end.p1 - g.start.p1) + Length(g.end.p2 - g.start.p2)) * *dt;
      if (!(off <= tol_d)) {
        *why = Fmt("contact point %.3g off the segment; ", off) + oracle;
        return Disagreement::kGeometry;
      }
    }
    return Disagreement::kNone;
  }
  if (hit->status == HitStatus::kHit) {
    const std::string f = CheckFeature(c.scene, *hit, tol);
    if (!f.empty()) {
      *why = f + "; " + oracle;
      return Disagreement::kFeature;
    }
  }
  // CheckAgainstOracle holds points to 1e-9 of the length scale, which a
  // double cannot represent next to a large offset: only where it can.
  if (expected == v.outcome && repr <= 1e-3 * kPositionTol * v.length_scale) {
    double unused = 0.0;
    const std::string g = CheckAgainstOracle(c.scene, v, hit, &unused);
    if (!g.empty()) {
      *why = g;
      return Disagreement::kGeometry;
    }
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
