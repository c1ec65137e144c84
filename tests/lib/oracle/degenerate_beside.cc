// The beside families: a world cast (CastCircle, CastCapsule, CastPolygon
// and their lists) in a level of two shapes, the case's obstacle (id 1)
// and a segment through the mover (id 2). The case starts touching the
// obstacle and moving in; backed off along the motion by a few ulps of its
// coordinates, the obstacle's first contact comes just after 0, a few ulps
// of the sweep when the translation is about as long as the coordinates
// are large: a time that rounds to 0 or next to it. The segment overlaps the
// mover from the start (checked exactly), so the answer is it, kInitialOverlap
// at 0, whatever the obstacle's time rounds to and although its id is the
// smaller.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

// The back-off, a share of the translation that moves the mover by k/2..k
// units in the last place of its largest coordinate (pose 0: the contact a
// few ulps of the sweep after 0 when the translation is as long as the
// coordinates are large) or 2^12 times that (pose 1), k in 1..8 from the
// case's bits; 0 for a mover at the origin or at rest.
double PickBackOff(const Scene& s, int pose) {
  uint64_t bits = 0;
  std::memcpy(&bits, &s.translation.y, sizeof bits);
  bits ^= bits >> 31;
  bits *= 0x9e3779b97f4a7c15u;
  const double k = static_cast<double>(1 + ((bits >> 50) & 7));
  double big = 0.0;
  for (Vec2 p : MoverCore(s).points) {
    big = std::max({big, std::abs(p.x), std::abs(p.y)});
  }
  const double reach =
      std::max(std::abs(s.translation.x), std::abs(s.translation.y));
  if (big == 0.0 || reach == 0.0) return 0.0;
  const double f = std::ldexp(
      k, std::ilogb(big) - 52 - std::ilogb(reach) + (pose == 0 ? 0 : 12));
  return f <= 0.25 ? f : 0.0;
}

// The mover moved by `shift` (each coordinate rounded); false when a
// polygon no longer builds.
bool MoveMover(Scene* s, Vec2 shift) {
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

// The obstacle as a level shape (id 1); `vertices` holds a polygon's
// outline for the returned description.
ShapeDesc ObstacleShape(const Scene& s, std::vector<Vec2>* vertices) {
  ShapeDesc desc{.id = 1, .category_bits = 1, .user_data = 0, .geometry = {}};
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      desc.geometry = Segment{s.point, s.point};
      break;
    case ObstacleKind::kSegment:
      desc.geometry = s.segment;
      break;
    case ObstacleKind::kCircle:
      desc.geometry = s.obstacle_circle;
      break;
    case ObstacleKind::kCapsule:
      desc.geometry = s.obstacle_capsule;
      break;
    case ObstacleKind::kPolygon:
      vertices->assign(
          s.obstacle_polygon.vertices.begin(),
          s.obstacle_polygon.vertices.begin() + s.obstacle_polygon.count);
      desc.geometry = PolygonDesc{*vertices};
      break;
    case ObstacleKind::kConcave:
      *vertices = s.concave;
      desc.geometry = PolygonDesc{*vertices};
      break;
  }
  return desc;
}

// The closest hit and the first of the list, for the scene's mover.
struct WorldAnswer {
  std::optional<WorldHit> closest;
  int listed = 0;
  WorldHit first;
};

WorldAnswer CastMover(const Scene& s, const Level& level) {
  WorldAnswer a;
  WorldHit hits[4];
  ListResult list{};
  switch (s.mover_kind) {
    case MoverKind::kRay:
      a.closest = CastRay(RayInput{s.ray_origin, s.translation}, level);
      list = CastRayAll(RayInput{s.ray_origin, s.translation}, level, hits);
      break;
    case MoverKind::kCircle:
      a.closest = CastCircle(CircleCast{s.circle, s.translation}, level);
      list = CastCircleAll(CircleCast{s.circle, s.translation}, level, hits);
      break;
    case MoverKind::kCapsule:
      a.closest = CastCapsule(CapsuleCast{s.capsule, s.translation}, level);
      list = CastCapsuleAll(CapsuleCast{s.capsule, s.translation}, level, hits);
      break;
    case MoverKind::kPolygon:
      a.closest = CastPolygon(PolygonCast{s.polygon, s.translation}, level);
      list = CastPolygonAll(PolygonCast{s.polygon, s.translation}, level, hits);
      break;
  }
  a.listed = list.count;
  if (list.count > 0) a.first = hits[0];
  return a;
}

std::string Describe(const WorldHit& h) {
  char text[160];
  std::snprintf(text, sizeof text, "shape %llu %s at %.17g (depth %.3g)",
                static_cast<unsigned long long>(h.shape_id),
                h.hit.status == HitStatus::kInitialOverlap ? "overlap" : "hit",
                h.hit.fraction, h.hit.depth);
  return text;
}

}  // namespace

Disagreement CompareBeside(const DegenerateCase& c, int pose, bool* expected,
                           bool* touching, std::string* why) {
  Scene s = c.scene;
  s.options = CastOptions{};  // the whole sweep, no skin
  const double back = PickBackOff(s, pose);
  if (!MoveMover(&s, -back * s.translation)) {
    *why = "the moved polygon does not build";
    return Disagreement::kSkipped;
  }
  // The obstacle: met after the start, or not at all.
  const Verdict v = SolveSceneExact(s);
  *touching = v.touching_start;
  if (!(v.outcome == Outcome::kMiss ||
        (v.outcome == Outcome::kHit && !v.touching_start && v.t_hi > 0.0))) {
    *why = std::string("obstacle: ") + DescribeVerdict(v);
    return Disagreement::kSkipped;
  }
  // The segment from the reflection of a core point through the core's
  // mean to that point: inside a polygon, the core of a capsule, the centre
  // of a circle.
  const Core mover = MoverCore(s);
  Vec2 mean{};
  for (Vec2 p : mover.points) mean = mean + p;
  mean = (1.0 / static_cast<double>(mover.points.size())) * mean;
  const Vec2 p0 = mover.points[0];
  const Segment beside{2.0 * mean - p0, p0};
  if (GapSign(mover, Core{{beside.p1, beside.p2}, 0.0}, 0.0) >= 0) {
    *why = "the segment does not overlap the mover";
    return Disagreement::kSkipped;
  }
  *expected = true;
  std::vector<Vec2> vertices;
  const absl::StatusOr<Level> level = Level::Create(
      {ObstacleShape(s, &vertices),
       ShapeDesc{
           .id = 2, .category_bits = 1, .user_data = 0, .geometry = beside}});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  const WorldAnswer got = CastMover(s, *level);
  char exact[200];
  std::snprintf(exact, sizeof exact,
                "; exact: shape 2 overlap at 0, shape 1 %s (back-off %.3g)",
                DescribeVerdict(v).c_str(), back);
  if (!got.closest || got.listed == 0) {
    *why = std::string("no hit") + exact;
    return Disagreement::kHitMiss;
  }
  for (const WorldHit* h : {&*got.closest, &got.first}) {
    if (h->shape_id != 2 || h->hit.status != HitStatus::kInitialOverlap ||
        h->hit.fraction != 0.0) {
      *why = std::string(h == &got.first ? "first listed " : "closest ") +
             Describe(*h) + exact;
      return Disagreement::kStatus;
    }
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
