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
//
// The touch-beside families: the obstacle backed off by a few ulps (both
// poses), (pose 0) beside a
// segment (id 2) that the mover touches at the start and moves into, from
// a point that leads along the motion outwards: an initial overlap of depth
// 0 at exactly 0, so the answer is it, then the obstacle, whatever the
// obstacle's time rounds to; (pose 1) beside a copy of itself moved on
// along the motion by 2^-52..2^-59 of the sweep (exactly), met that much
// later: two contacts a few ulps after the start that may both round to 0,
// the unmoved first whatever the ids.
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

namespace {

// A point on the mover's outline that leads along the motion (a polygon's
// or capsule's farthest core point, a circle's rim point), and the outward
// direction there; false when no such point is exact in doubles.
bool LeadingPoint(const Scene& s, Vec2* point, Vec2* outward) {
  const Core core = MoverCore(s);
  const Vec2 d = s.translation;
  size_t lead = 0;
  for (size_t i = 1; i < core.points.size(); ++i) {
    if (Dot(core.points[i], d) > Dot(core.points[lead], d)) lead = i;
  }
  const Vec2 p = core.points[lead];
  if (core.radius == 0.0) {
    *point = p;
    *outward = d;
    return true;
  }
  // The rim point along the axis the motion leads most on, exact.
  const bool along_x = std::abs(d.x) >= std::abs(d.y);
  const double sign = (along_x ? d.x : d.y) > 0 ? 1.0 : -1.0;
  const Vec2 axis = along_x ? Vec2{sign, 0.0} : Vec2{0.0, sign};
  const Vec2 rim = p + core.radius * axis;
  const long double exact_x = static_cast<long double>(p.x) +
                              static_cast<long double>(core.radius * axis.x);
  const long double exact_y = static_cast<long double>(p.y) +
                              static_cast<long double>(core.radius * axis.y);
  if (static_cast<long double>(rim.x) != exact_x ||
      static_cast<long double>(rim.y) != exact_y) {
    return false;
  }
  // On a capsule, the rim point must face away from the other end.
  for (Vec2 q : core.points) {
    if (Dot(axis, p - q) < 0.0) return false;
  }
  *point = rim;
  *outward = axis;
  return true;
}

// a + b when exact (two-sum error 0).
bool ExactSum(double a, double b, double* out) {
  const double sum = a + b;
  const double bv = sum - a;
  const double err = (a - (sum - bv)) + (b - bv);
  *out = sum;
  return err == 0.0;
}

bool ExactShift(Vec2 p, Vec2 shift, Vec2* out) {
  return ExactSum(p.x, shift.x, &out->x) && ExactSum(p.y, shift.y, &out->y);
}

// The scene's obstacle moved by `shift` as shape `id`, when every
// coordinate moves exactly.
std::optional<ShapeDesc> ShiftedObstacle(const Scene& s, Vec2 shift,
                                         uint64_t id,
                                         std::vector<Vec2>* vertices) {
  Scene moved = s;
  bool exact = true;
  const auto move = [&](Vec2& p) { exact = ExactShift(p, shift, &p) && exact; };
  switch (s.obstacle_kind) {
    case ObstacleKind::kPoint:
      move(moved.point);
      break;
    case ObstacleKind::kSegment:
      move(moved.segment.p1);
      move(moved.segment.p2);
      break;
    case ObstacleKind::kCircle:
      move(moved.obstacle_circle.center);
      break;
    case ObstacleKind::kCapsule:
      move(moved.obstacle_capsule.p1);
      move(moved.obstacle_capsule.p2);
      break;
    case ObstacleKind::kPolygon: {
      std::vector<Vec2> v(
          s.obstacle_polygon.vertices.begin(),
          s.obstacle_polygon.vertices.begin() + s.obstacle_polygon.count);
      for (Vec2& p : v) move(p);
      const absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(v);
      if (!polygon.ok()) return std::nullopt;
      moved.obstacle_polygon = *polygon;
      break;
    }
    case ObstacleKind::kConcave:
      for (Vec2& p : moved.concave) move(p);
      break;
  }
  if (!exact) return std::nullopt;
  ShapeDesc desc = ObstacleShape(moved, vertices);
  desc.id = id;
  return desc;
}

// A touch-beside question: copy false, the touched segment (pose 0);
// copy true, the obstacle beside its copy moved on (pose 1), the unmoved
// one's id `first` (1 or 2; 0: drawn from the case's bits).
Disagreement TouchBeside(const DegenerateCase& c, bool copy, uint64_t first,
                         bool* expected, bool* touching, std::string* why) {
  const int pose = copy ? 1 : 0;
  Scene s = c.scene;
  s.options = CastOptions{};              // the whole sweep, no skin
  const double back = PickBackOff(s, 0);  // the contact a few ulps on
  if (!MoveMover(&s, -back * s.translation)) {
    *why = "the moved polygon does not build";
    return Disagreement::kSkipped;
  }
  const Verdict v = SolveSceneExact(s);
  *touching = v.touching_start;
  if (!(v.outcome == Outcome::kMiss ||
        (v.outcome == Outcome::kHit && !v.touching_start && v.t_hi > 0.0))) {
    *why = std::string("obstacle: ") + DescribeVerdict(v);
    return Disagreement::kSkipped;
  }
  std::vector<Vec2> vertices, shifted_vertices;
  std::vector<ShapeDesc> shapes;
  uint64_t first_id = 2;
  if (pose == 0) {
    // A segment from a leading point of the mover outwards and ahead:
    // touched at the start and entered as the mover moves on (checked
    // exactly), so an initial overlap of depth 0.
    Vec2 at, outward;
    if (!LeadingPoint(s, &at, &outward)) {
      *why = "no exact leading point";
      return Disagreement::kSkipped;
    }
    const Segment touched{at, at + (s.translation + outward)};
    ConvexCase touch_case{
        MoverCore(s), s.translation, Core{{touched.p1, touched.p2}, 0.0},
        Vec2{},       1.0,           0.0};
    const Verdict touch = SolveExact(touch_case);
    if (touch.outcome != Outcome::kInitialOverlap || !touch.touching_start) {
      *why = "the segment is not a touching start moving in: " +
             DescribeVerdict(touch);
      return Disagreement::kSkipped;
    }
    shapes = {
        ObstacleShape(s, &vertices),
        ShapeDesc{
            .id = 2, .category_bits = 1, .user_data = 0, .geometry = touched}};
  } else {
    // The obstacle again, moved on along the motion by 2^-k of the sweep
    // (exactly, or the case is skipped): met exactly that much later, both
    // times within a few ulps of 0. The unmoved one first, whichever id.
    if (v.outcome != Outcome::kHit) {
      *why = "the obstacle is not met";
      return Disagreement::kSkipped;
    }
    uint64_t bits = 0;
    std::memcpy(&bits, &s.translation.x, sizeof bits);
    const int k = 52 + static_cast<int>((bits >> 7) % 8);
    const double share = std::ldexp(1.0, -k);
    if (!(v.t_hi + share < 1.0)) {
      *why = "the moved obstacle may be met after the sweep";
      return Disagreement::kSkipped;
    }
    const std::optional<ShapeDesc> later =
        ShiftedObstacle(s, share * s.translation, 0, &shifted_vertices);
    if (!later) {
      *why = "the moved obstacle is not exact";
      return Disagreement::kSkipped;
    }
    first_id = first != 0 ? first : ((bits >> 11) % 2 == 0 ? 1 : 2);
    shapes = {ObstacleShape(s, &vertices), *later};
    shapes[0].id = first_id;
    shapes[1].id = 3 - first_id;
  }
  *expected = v.outcome == Outcome::kHit;
  const absl::StatusOr<Level> level = Level::Create(shapes);
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  WorldHit hits[4];
  ListResult list{};
  std::optional<WorldHit> closest;
  switch (s.mover_kind) {
    case MoverKind::kCircle:
      closest = CastCircle(CircleCast{s.circle, s.translation}, *level);
      list = CastCircleAll(CircleCast{s.circle, s.translation}, *level, hits);
      break;
    case MoverKind::kCapsule:
      closest = CastCapsule(CapsuleCast{s.capsule, s.translation}, *level);
      list =
          CastCapsuleAll(CapsuleCast{s.capsule, s.translation}, *level, hits);
      break;
    default:
      closest = CastPolygon(PolygonCast{s.polygon, s.translation}, *level);
      list =
          CastPolygonAll(PolygonCast{s.polygon, s.translation}, *level, hits);
      break;
  }
  char exact[240];
  std::snprintf(
      exact, sizeof exact,
      pose == 0 ? "; exact: shape 2 overlap at 0 (touching start "
                  "moving in), shape 1 %s (back-off %.3g)"
                : "; exact: shape %s first, the same moved on along "
                  "the motion after it (back-off %.3g)",
      pose == 0 ? DescribeVerdict(v).c_str() : std::to_string(first_id).c_str(),
      back);
  const int want = v.outcome == Outcome::kHit ? 2 : 1;
  if (!closest || list.count != want) {
    *why = std::string("closest or list missing a hit") + exact;
    return Disagreement::kHitMiss;
  }
  for (const WorldHit* h : {&*closest, &hits[0]}) {
    const bool right = pose == 0
                           ? h->shape_id == 2 &&
                                 h->hit.status == HitStatus::kInitialOverlap &&
                                 h->hit.fraction == 0.0
                           : h->shape_id == first_id;
    if (!right) {
      *why = std::string(h == &hits[0] ? "first listed " : "closest ") +
             Describe(*h) + exact;
      return Disagreement::kStatus;
    }
  }
  if (want == 2 && (hits[1].shape_id != 3 - first_id ||
                    hits[1].hit.fraction < hits[0].hit.fraction ||
                    hits[1].hit.fraction > v.t_hi + 1e-9)) {
    *why = "second listed " + Describe(hits[1]) + exact;
    return Disagreement::kFraction;
  }
  return Disagreement::kNone;
}

}  // namespace

Disagreement CompareTouchBeside(const DegenerateCase& c, int pose,
                                bool* expected, bool* touching,
                                std::string* why) {
  return TouchBeside(c, pose == 1, 0, expected, touching, why);
}

Disagreement CompareConcaveZero(const DegenerateCase& c, int pose,
                                bool* expected, bool* touching,
                                std::string* why) {
  return TouchBeside(c, true, pose == 0 ? 2 : 1, expected, touching, why);
}

}  // namespace collide::oracle
