// The static families: overlap and closest point on the degenerate
// cases of the casts (degenerate.cc), at the two poses where those cases are
// exact by construction: the start (touching, inside the skin, one ulp off)
// and the end of the sweep (a contact at exactly max_fraction ends exactly
// on the surface).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {

const std::vector<DegenerateFamily>& StaticFamilies() {
  using M = MoverKind;
  using O = ObstacleKind;
  static const std::vector<DegenerateFamily> families = [] {
    std::vector<DegenerateFamily> f;
    static const std::vector<std::string> names = [] {
      std::vector<std::string> n;
      for (const char* m : {"ray", "circle", "capsule", "polygon"}) {
        for (const char* o :
             {"segment", "circle", "capsule", "polygon", "concave"}) {
          n.push_back(std::string("overlap-") + m + "-" + o);
        }
      }
      for (const char* o :
           {"segment", "circle", "capsule", "polygon", "concave"}) {
        n.push_back(std::string("closest-") + o);
      }
      for (const char* m : {"ray", "circle"}) {
        for (const char* o : {"segment", "circle", "capsule", "polygon"}) {
          n.push_back(std::string("shot-") + m + "-" + o);
        }
      }
      for (const char* m : {"circle", "capsule", "polygon"}) {
        for (const char* o : {"segment", "circle", "capsule", "polygon"}) {
          n.push_back(std::string("move-") + m + "-" + o);
        }
      }
      for (const char* m : {"circle", "capsule", "polygon"}) {
        for (const char* o :
             {"segment", "circle", "capsule", "polygon", "concave"}) {
          n.push_back(std::string("beside-") + m + "-" + o);
        }
      }
      for (const char* o : {"circle", "capsule"}) {
        n.push_back(std::string("closest-ulps-") + o);
      }
      for (const char* m : {"ray", "capsule", "polygon"}) {
        for (const char* o : {"segment", "polygon"}) {
          n.push_back(std::string("same-time-") + m + "-" + o);
        }
      }
      for (const char* o : {"circle", "capsule"}) {
        n.push_back(std::string("round-time-ray-") + o);
      }
      for (const char* m : {"circle", "capsule"}) {
        for (const char* o : {"segment", "polygon", "circle", "capsule"}) {
          n.push_back(std::string("round-time-") + m + "-" + o);
        }
      }
      for (const char* m : {"circle", "capsule", "polygon"}) {
        for (const char* o :
             {"segment", "circle", "capsule", "polygon", "concave"}) {
          n.push_back(std::string("touch-beside-") + m + "-" + o);
        }
      }
      for (const char* o : {"segment", "polygon"}) {
        n.push_back(std::string("shot-near-tie-") + o);
        n.push_back(std::string("shot-near-tie-moving-") + o);
      }
      for (const char* o : {"circle", "capsule"}) {
        n.push_back(std::string("closest-round-tie-") + o);
      }
      for (const char* m : {"ray", "circle", "capsule", "polygon"}) {
        for (const char* o : {"segment", "polygon", "circle", "capsule"}) {
          n.push_back(std::string("skin-tie-") + m + "-" + o);
        }
      }
      for (const char* m : {"circle", "capsule", "polygon"}) {
        n.push_back(std::string("concave-zero-") + m);
      }
      return n;
    }();
    const M movers[] = {M::kRay, M::kCircle, M::kCapsule, M::kPolygon};
    const O obstacles[] = {O::kSegment, O::kCircle, O::kCapsule, O::kPolygon,
                           O::kConcave};
    int i = 0;
    for (M m : movers) {
      for (O o : obstacles) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kOverlap});
        ++i;
      }
    }
    for (O o : obstacles) {
      f.push_back({names[i].c_str(), M::kCircle, o, false, false,
                   0xde9100u + static_cast<uint64_t>(i), Query::kClosest});
      ++i;
    }
    for (M m : {M::kRay, M::kCircle}) {
      for (O o : {O::kSegment, O::kCircle, O::kCapsule, O::kPolygon}) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kShot});
        ++i;
      }
    }
    for (M m : {M::kCircle, M::kCapsule, M::kPolygon}) {
      for (O o : {O::kSegment, O::kCircle, O::kCapsule, O::kPolygon}) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kMove});
        ++i;
      }
    }
    for (M m : {M::kCircle, M::kCapsule, M::kPolygon}) {
      for (O o : obstacles) {
        DegenerateFamily beside{names[i].c_str(),
                                m,
                                o,
                                false,
                                false,
                                0xde9100u + static_cast<uint64_t>(i),
                                Query::kBeside};
        beside.touching_in = true;
        f.push_back(beside);
        ++i;
      }
    }
    for (O o : {O::kCircle, O::kCapsule}) {
      f.push_back({names[i].c_str(), M::kCircle, o, false, false,
                   0xde9100u + static_cast<uint64_t>(i), Query::kClosestUlps});
      ++i;
    }
    for (M m : {M::kRay, M::kCapsule, M::kPolygon}) {
      for (O o : {O::kSegment, O::kPolygon}) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kSameTime});
        ++i;
      }
    }
    for (O o : {O::kCircle, O::kCapsule}) {
      f.push_back({names[i].c_str(), M::kRay, o, false, false,
                   0xde9100u + static_cast<uint64_t>(i), Query::kRoundTime});
      ++i;
    }
    for (M m : {M::kCircle, M::kCapsule}) {
      for (O o : {O::kSegment, O::kPolygon, O::kCircle, O::kCapsule}) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kRoundTime});
        ++i;
      }
    }
    for (M m : {M::kCircle, M::kCapsule, M::kPolygon}) {
      for (O o : obstacles) {
        DegenerateFamily touch{names[i].c_str(),
                               m,
                               o,
                               false,
                               false,
                               0xde9100u + static_cast<uint64_t>(i),
                               Query::kTouchBeside};
        touch.touching_in = true;
        f.push_back(touch);
        ++i;
      }
    }
    for (O o : {O::kSegment, O::kPolygon}) {
      for (bool moving : {false, true}) {
        f.push_back({names[i].c_str(), M::kRay, o, moving, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kShotTie});
        ++i;
      }
    }
    for (O o : {O::kCircle, O::kCapsule}) {
      f.push_back({names[i].c_str(), M::kRay, o, false, false,
                   0xde9100u + static_cast<uint64_t>(i), Query::kClosestTie});
      ++i;
    }
    for (M m : movers) {
      for (O o : {O::kSegment, O::kPolygon, O::kCircle, O::kCapsule}) {
        f.push_back({names[i].c_str(), m, o, false, false,
                     0xde9100u + static_cast<uint64_t>(i), Query::kSkinTie});
        ++i;
      }
    }
    for (M m : {M::kCircle, M::kCapsule, M::kPolygon}) {
      DegenerateFamily zero{names[i].c_str(),
                            m,
                            O::kConcave,
                            false,
                            false,
                            0xde9100u + static_cast<uint64_t>(i),
                            Query::kConcaveZero};
      zero.touching_in = true;
      f.push_back(zero);
      ++i;
    }
    return f;
  }();
  return families;
}

absl::StatusOr<Level> ObstacleLevel(const Scene& s, Vec2 shift) {
  ShapeDesc desc{.id = 7, .category_bits = 1, .user_data = 0, .geometry = {}};
  std::vector<Vec2> vertices;
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      desc.geometry = Segment{s.point + shift, s.point + shift};
      break;
    case ObstacleKind::kSegment:
      desc.geometry = Segment{s.segment.p1 + shift, s.segment.p2 + shift};
      break;
    case ObstacleKind::kCircle:
      desc.geometry =
          Circle{s.obstacle_circle.center + shift, s.obstacle_circle.radius};
      break;
    case ObstacleKind::kCapsule:
      desc.geometry =
          Capsule{s.obstacle_capsule.p1 + shift, s.obstacle_capsule.p2 + shift,
                  s.obstacle_capsule.radius};
      break;
    case ObstacleKind::kPolygon:
      vertices.assign(
          s.obstacle_polygon.vertices.begin(),
          s.obstacle_polygon.vertices.begin() + s.obstacle_polygon.count);
      break;
    case ObstacleKind::kConcave:
      vertices = s.concave;
      break;
  }
  for (Vec2& v : vertices) v = v + shift;
  if (!vertices.empty()) desc.geometry = PolygonDesc{vertices};
  return Level::Create({desc});
}

namespace {

std::string Fmt(const char* format, double a, double b) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, format, a, b);
  return buffer;
}

template <typename A, typename B>
bool OverlapsEitherOrder(const A& a, const B& b) {
  if constexpr (requires { Overlaps(a, b); }) {
    return Overlaps(a, b);
  } else {
    return Overlaps(b, a);
  }
}

// The obstacle as lib/ takes it (a concave polygon viewing scene.concave).
template <typename F>
auto WithObstacle(const Scene& s, F&& f) {
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      return f(s.point);
    case ObstacleKind::kSegment:
      return f(s.segment);
    case ObstacleKind::kCircle:
      return f(s.obstacle_circle);
    case ObstacleKind::kCapsule:
      return f(s.obstacle_capsule);
    case ObstacleKind::kPolygon:
      return f(s.obstacle_polygon);
    case ObstacleKind::kConcave:
      break;
  }
  return f(*MakeConcavePolygon(s.concave));
}

// The mover moved by `shift`; false when a polygon no longer builds.
bool ShiftMover(Scene* s, Vec2 shift) {
  switch (s->mover_kind) {
    case MoverKind::kRay:
      s->ray_origin = s->ray_origin + shift;
      return true;
    case MoverKind::kCircle:
      s->circle.center = s->circle.center + shift;
      return true;
    case MoverKind::kCapsule:
      s->capsule.p1 = s->capsule.p1 + shift;
      s->capsule.p2 = s->capsule.p2 + shift;
      return true;
    case MoverKind::kPolygon: {
      std::vector<Vec2> v(s->polygon.vertices.begin(),
                          s->polygon.vertices.begin() + s->polygon.count);
      for (Vec2& p : v) p = p + shift;
      absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
      if (!p.ok()) return false;
      s->polygon = *p;
      return true;
    }
  }
  return false;
}

// sign(distance - extra) of the mover's core (grown) and the obstacle.
int ExactGap(const Scene& s, const Core& mover, double extra, double* gap) {
  if (s.obstacle_kind == ObstacleKind::kConcave) {
    return GapSign(mover, s.concave, extra, gap);
  }
  return GapSign(mover, ObstacleCore(s), extra, gap);
}

Disagreement CompareOverlap(const Scene& s, bool* expected, bool* touching,
                            std::string* why) {
  const int sign = ExactGap(s, MoverCore(s), 0.0, nullptr);
  *expected = sign <= 0;
  *touching = sign == 0;
  const bool core = WithObstacle(s, [&](const auto& obstacle) {
    switch (s.mover_kind) {
      case MoverKind::kRay:
        return OverlapsEitherOrder(s.ray_origin, obstacle);
      case MoverKind::kCircle:
        return OverlapsEitherOrder(s.circle, obstacle);
      case MoverKind::kCapsule:
        return OverlapsEitherOrder(s.capsule, obstacle);
      case MoverKind::kPolygon:
        break;
    }
    return OverlapsEitherOrder(s.polygon, obstacle);
  });
  // The level's query (spatial hash, then the same test) must agree too.
  ShapeRef found[1];
  bool listed = false;
  const absl::StatusOr<Level> level = ObstacleLevel(s, {});
  if (level.ok()) {
    switch (s.mover_kind) {
      case MoverKind::kRay:
        listed = OverlapCircle({s.ray_origin, 0.0}, *level, found).count > 0;
        break;
      case MoverKind::kCircle:
        listed = OverlapCircle(s.circle, *level, found).count > 0;
        break;
      case MoverKind::kCapsule:
        listed = OverlapCapsule(s.capsule, *level, found).count > 0;
        break;
      case MoverKind::kPolygon:
        listed = OverlapPolygon(s.polygon, *level, found).count > 0;
        break;
    }
  }
  if (core == *expected && (!level.ok() || listed == *expected)) {
    return Disagreement::kNone;
  }
  *why = std::string("Overlaps says ") + (core ? "yes" : "no") +
         ", the level's query " + (listed ? "yes" : "no") +
         ", exact: " + (*expected ? "yes" : "no") +
         (*touching ? " (touching)" : "");
  return Disagreement::kHitMiss;
}

Disagreement CompareClosest(const Scene& s, bool* expected, bool* touching,
                            std::string* why) {
  const Vec2 point = s.circle.center;
  const double max_distance = s.circle.radius;
  const Core at{{point}, 0.0};
  double gap = 0.0;
  const int within = ExactGap(s, at, max_distance, nullptr);
  const bool inside = ExactGap(s, at, 0.0, &gap) <= 0;
  const double exact = inside ? 0.0 : gap;
  *expected = within <= 0;
  *touching = within == 0;
  const absl::StatusOr<Level> level = ObstacleLevel(s, {});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  const std::optional<WorldClosestPoint> got =
      ClosestPoint(point, *level, max_distance);
  if (got.has_value() != *expected) {
    *why = std::string("ClosestPoint ") + (got ? "found" : "found nothing") +
           Fmt(" (distance %.17g), exact distance %.17g",
               got ? got->distance : 0.0, exact) +
           (*touching ? " = max_distance" : "");
    return Disagreement::kHitMiss;
  }
  if (!got) return Disagreement::kNone;
  if ((got->distance == 0.0) != inside) {
    *why = Fmt("distance %.17g, exact %.17g", got->distance, exact) +
           (inside ? " (inside or on the shape)" : " (outside)");
    return Disagreement::kStatus;
  }
  // Scale: the query's reach and the obstacle's extent.
  const Core obstacle = s.obstacle_kind == ObstacleKind::kConcave
                            ? Core{s.concave, 0.0}
                            : ObstacleCore(s);
  double scale = max_distance + obstacle.radius;
  for (Vec2 p : obstacle.points) {
    scale = std::max(scale, Length(p - obstacle.points[0]));
  }
  const double tol = kPositionTol * std::max(scale, exact);
  // The reported point is rounded to its coordinates: a few units in their
  // last place far from the origin. The distance is not.
  const double magnitude =
      std::max({std::abs(point.x), std::abs(point.y), std::abs(got->point.x),
                std::abs(got->point.y)});
  const double point_tol = tol + 4.0 * magnitude * 0x1p-52;
  double on_surface = 0.0;
  ExactGap(s, Core{{got->point}, 0.0}, 0.0, &on_surface);
  if (std::abs(got->distance - exact) > tol ||
      std::abs(Length(point - got->point) - got->distance) > point_tol ||
      (!inside && std::abs(on_surface) > point_tol)) {
    *why = Fmt("distance %.17g, exact %.17g", got->distance, exact) +
           Fmt("; point (%.17g, %.17g)", got->point.x, got->point.y) +
           Fmt(" off the surface by %.3g (tolerance %.3g)", on_surface, tol);
    return Disagreement::kGeometry;
  }
  // Outside, however close: a unit normal (the proto allows a zero normal
  // only at distance 0), from the surface towards the point where the
  // rounded surface point still shows that direction.
  const Vec2 offset = point - got->point;
  if (!inside &&
      (std::abs(Length(got->normal) - 1.0) > 1e-12 ||
       (Length(offset) > 4.0 * point_tol && Dot(got->normal, offset) < 0.0))) {
    *why = Fmt("normal (%.17g, %.17g)", got->normal.x, got->normal.y) +
           Fmt(" at distance %.17g, exact %.17g", got->distance, exact);
    return Disagreement::kGeometry;
  }
  return Disagreement::kNone;
}

// A point a few ulps off a round obstacle's surface: a point of its core
// (a circle's centre; a capsule's end or axis midpoint) moved by the
// radius along a direction (an axis, a Pythagorean one or, on a capsule,
// its axis' normal), rounded, then by -1..4 ulps of its coordinates along
// each axis away from the core (pose 0) or -1..1 (pose 1). The query's
// max_distance is the radius (1024 ulps for a radius of 0). False when the
// obstacle is not round or the point is at the origin.
bool PointUlpsOff(const Scene& s, int pose, Vec2* point, double* max_distance) {
  uint64_t bits = 0;
  std::memcpy(&bits, &s.translation.x, sizeof bits);
  bits =
      (bits ^ (bits >> 29) ^ static_cast<uint64_t>(pose)) * 0x9e3779b97f4a7c15u;
  auto take = [&](int n) {
    const int r = static_cast<int>((bits >> 40) % static_cast<uint64_t>(n));
    bits = (bits ^ (bits >> 23)) * 0xbf58476d1ce4e5b9u;
    return r;
  };
  Vec2 core;
  double radius = 0.0;
  Vec2 axis{};
  if (s.obstacle_kind == ObstacleKind::kCircle) {
    core = s.obstacle_circle.center;
    radius = s.obstacle_circle.radius;
  } else if (s.obstacle_kind == ObstacleKind::kCapsule) {
    const Capsule& k = s.obstacle_capsule;
    const Vec2 ends[] = {k.p1, k.p2, 0.5 * (k.p1 + k.p2)};
    core = ends[take(3)];
    radius = k.radius;
    axis = k.p2 - k.p1;
  } else {
    return false;
  }
  Vec2 dir;
  static constexpr Vec2 kDirections[] = {
      {1, 0}, {0, 1}, {-1, 0}, {0, -1}, {0.6, 0.8}, {-0.8, 0.6}, {0.28, -0.96}};
  const int pick = take(8);
  if (pick < 7 || Length(axis) == 0.0) {
    dir = kDirections[pick % 7];
  } else {
    dir = (1.0 / Length(axis)) * Vec2{-axis.y, axis.x};
  }
  Vec2 p = core + radius * dir;
  const double big = std::max(std::abs(p.x), std::abs(p.y));
  if (big == 0.0) return false;
  const double ulp = std::ldexp(1.0, std::ilogb(big) - 52);
  auto steps = [&]() {
    return static_cast<double>(pose == 0 ? take(6) - 1 : take(3) - 1);
  };
  p.x += steps() * ulp * (dir.x < 0 ? -1.0 : 1.0);
  p.y += steps() * ulp * (dir.y < 0 ? -1.0 : 1.0);
  *point = p;
  *max_distance = radius > 0.0 ? radius : 1024.0 * ulp;
  return true;
}

}  // namespace

Disagreement CompareStatic(const DegenerateFamily& family,
                           const DegenerateCase& c, int pose, bool* expected,
                           bool* touching, std::string* why) {
  *expected = false;
  *touching = false;
  if (family.query == Query::kShot) {
    return CompareShot(c, pose, expected, touching, why);
  }
  if (family.query == Query::kMove) {
    return CompareMove(c, pose, expected, touching, why);
  }
  if (family.query == Query::kBeside) {
    return CompareBeside(c, pose, expected, touching, why);
  }
  if (family.query == Query::kSameTime) {
    return CompareSameTime(family, c, pose, expected, touching, why);
  }
  if (family.query == Query::kClosestTie) {
    return CompareClosestTie(family, c, pose, expected, touching, why);
  }
  if (family.query == Query::kShotTie) {
    return CompareShotTie(family, c, pose, expected, touching, why);
  }
  if (family.query == Query::kTouchBeside) {
    return CompareTouchBeside(c, pose, expected, touching, why);
  }
  if (family.query == Query::kRoundTime) {
    return CompareRoundTime(family, c, pose, expected, touching, why);
  }
  if (family.query == Query::kConcaveZero) {
    return CompareConcaveZero(c, pose, expected, touching, why);
  }
  if (family.query == Query::kSkinTie) {
    return CompareSkinTie(family, c, pose, expected, touching, why);
  }
  if (family.query == Query::kClosestUlps) {
    Scene s = c.scene;
    s.mover_kind = MoverKind::kCircle;
    if (!PointUlpsOff(s, pose, &s.circle.center, &s.circle.radius)) {
      *why = "not a round obstacle";
      return Disagreement::kSkipped;
    }
    return CompareClosest(s, expected, touching, why);
  }
  Scene s = c.scene;
  if (pose == 1 && !ShiftMover(&s, s.options.max_fraction * s.translation)) {
    *why = "the moved polygon does not build";
    return Disagreement::kSkipped;
  }
  return family.query == Query::kOverlap
             ? CompareOverlap(s, expected, touching, why)
             : CompareClosest(s, expected, touching, why);
}

}  // namespace collide::oracle
