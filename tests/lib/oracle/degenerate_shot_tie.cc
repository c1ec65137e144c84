// The shot-near-tie families: ValidateShot (validate.h) with a ray shot
// against a static wall and a target (segments or triangles; the target at
// rest or translating over the tick), or against two targets, built to be
// met at one exact time t* = p / q along different paths (the shot's
// origin on a wall edge, on a target's edge or at its vertex, a moving
// target's relative to the target's own motion). In an integer frame scaled
// by q every position at t* is an integer; then an exact similarity (a
// Pythagorean rotation, a reflection, an offset of 0, 1e6 or 1e9). Pose 1
// moves one shape's far end a long way out along its edge, then by one ulp,
// which turns its time by far less than an ulp of t*: two exact times that
// round to one double or to neighbours.
//
// The expected answer comes from rational arithmetic here (GMP: each
// contact as the entry of the relative motion into the Minkowski
// difference), checked against the oracle's bracket: the exactly earlier
// first; at one exact time the wall, between two targets the smaller id
// (3 or 6, either way round); the fraction within 1e-9 of the sweep of its
// exact time.
#include <gmp.h>
#include <gmpxx.h>

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
#include "collide/shapes.h"
#include "collide/validate.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "rounding.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

struct Point {
  int64_t x = 0, y = 0;
};
Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
Point operator*(int64_t k, Point a) { return {k * a.x, k * a.y}; }
int64_t Cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }
int64_t Dot(Point a, Point b) { return a.x * b.x + a.y * b.y; }
int Sign(int64_t v) { return (v > 0) - (v < 0); }

Point RandomPoint(Rng& rng, int span) {
  return {rng.Int(-span, span), rng.Int(-span, span)};
}

// A shape met at `at` first by a point moving along `r` (all integers):
// through `at` along an edge that r crosses, or with a vertex at `at` and
// the rest ahead on both sides of the path (a segment: off the path). Two
// points: a segment; three: a triangle. Index 1 is the edge's far end (an
// edge contact) for the one-ulp turn of pose 1.
bool ShapeAt(Point at, Point r, bool polygon, bool edge, Rng& rng,
             std::vector<Point>* out) {
  if (edge) {
    for (int tries = 0; tries < 40; ++tries) {
      const Point dir = RandomPoint(rng, 6);
      if (Cross(dir, r) == 0) continue;
      *out = {at - rng.Int(1, 5) * dir, at + rng.Int(1, 5) * dir};
      if (polygon) out->push_back(at + rng.Int(1, 3) * r);
      return true;
    }
    return false;
  }
  std::vector<Point> far;
  for (int tries = 0; tries < 80 && far.size() < (polygon ? 2u : 1u); ++tries) {
    const Point w = RandomPoint(rng, 6);
    if (Cross(r, w) == 0) continue;
    if (polygon &&
        (Dot(r, w) <= 0 ||
         (!far.empty() && Sign(Cross(r, w)) == Sign(Cross(r, far[0]))))) {
      continue;
    }
    far.push_back(w);
  }
  if (far.size() < (polygon ? 2u : 1u)) return false;
  *out = {at};
  for (Point w : far) out->push_back(at + w);
  return true;
}

struct Frame {
  int64_t a = 1, b = 0;
  bool reflect = false;
  double offset = 0.0;
};

Frame PickFrame(Rng& rng) {
  static constexpr int64_t kTriples[][2] = {{1, 0}, {0, 1},  {3, 4},
                                            {4, 3}, {5, 12}, {8, 15}};
  Frame f;
  const int k = rng.Int(0, 5);
  f.a = kTriples[k][0];
  f.b = kTriples[k][1];
  if (rng.Int(0, 1) == 1) f.b = -f.b;
  f.reflect = rng.Int(0, 1) == 1;
  static constexpr double kOffsets[] = {0.0, 1e6, 1e9};
  f.offset = kOffsets[rng.Int(0, 2)];
  return f;
}

Vec2 Map(const Frame& f, Point p, bool is_point) {
  const int64_t y = f.reflect ? -p.y : p.y;
  const double o = is_point ? f.offset : 0.0;
  return {static_cast<double>(f.a * p.x - f.b * y) + o,
          static_cast<double>(f.b * p.x + f.a * y) + o};
}

std::vector<Vec2> MapAll(const Frame& f, const std::vector<Point>& points) {
  std::vector<Vec2> out;
  for (Point p : points) out.push_back(Map(f, p, true));
  return out;
}

// Pose 1: the far end (index 1) moved a long way out along the edge from
// index 0, then by one ulp along an axis.
void TurnFarEnd(std::vector<Vec2>* shape, double big, Rng& rng) {
  const Vec2 near = (*shape)[0];
  const Vec2 dir = (*shape)[1] - (*shape)[0];
  const double reach = std::max(std::abs(dir.x), std::abs(dir.y));
  const double k_far = std::ldexp(1.0, std::max(0, std::ilogb(big / reach)));
  Vec2 far = near + k_far * dir;
  const double toward = rng.Int(0, 1) == 1 ? 1e300 : -1e300;
  if (rng.Int(0, 1) == 1) {
    far.x = std::nextafter(far.x, toward);
  } else {
    far.y = std::nextafter(far.y, toward);
  }
  (*shape)[1] = far;
}

// Exact first contact of the point `origin` moving by `d` with the hull
// of `obstacle`: the entry of t d into obstacle - origin; nullopt when it
// starts touching or never meets.
std::optional<mpq_class> EntryTime(Vec2 origin,
                                   const std::vector<Vec2>& obstacle,
                                   const mpq_class dx, const mpq_class dy) {
  const auto q = [](double v) { return mpq_class(v); };
  std::optional<mpq_class> enter, leave;
  const size_t n = obstacle.size();
  for (size_t i = 0; i + 1 < n + (n > 2 ? 1 : 0); ++i) {
    const Vec2 a = obstacle[i], b = obstacle[(i + 1) % n];
    const mpq_class ex = q(b.x) - q(a.x), ey = q(b.y) - q(a.y);
    const mpq_class axes[4][2] = {{ey, -ex}, {-ey, ex}, {ex, ey}, {-ex, -ey}};
    for (const auto& m : axes) {
      const mpq_class rate = m[0] * dx + m[1] * dy;
      std::optional<mpq_class> hi;
      for (Vec2 o : obstacle) {
        const mpq_class v = m[0] * q(o.x) + m[1] * q(o.y);
        if (!hi || v > *hi) hi = v;
      }
      const mpq_class support = *hi - (m[0] * q(origin.x) + m[1] * q(origin.y));
      if (rate == 0) {
        if (support < 0) return std::nullopt;
        continue;
      }
      const mpq_class t = support / rate;
      if (rate > 0) {
        if (!leave || t < *leave) leave = t;
      } else if (!enter || t > *enter) {
        enter = t;
      }
    }
  }
  if (!enter || *enter <= 0 || (leave && *leave < *enter)) return std::nullopt;
  return enter;
}

std::optional<BodyShape> Hitbox(const std::vector<Vec2>& outline) {
  if (outline.size() == 2) return Capsule{outline[0], outline[1], 0.0};
  const absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(outline);
  if (!polygon.ok()) return std::nullopt;
  return *polygon;
}

ShapeDesc WallShape(uint64_t id, const std::vector<Vec2>& outline) {
  ShapeDesc desc{.id = id, .category_bits = 1, .user_data = 0, .geometry = {}};
  if (outline.size() == 2) {
    desc.geometry = Segment{outline[0], outline[1]};
  } else {
    desc.geometry = PolygonDesc{outline};
  }
  return desc;
}

std::string Text(const std::vector<Vec2>& points) {
  std::string s;
  char buf[80];
  for (Vec2 p : points) {
    std::snprintf(buf, sizeof buf, "(%.17g, %.17g) ", p.x, p.y);
    s += buf;
  }
  return s;
}

}  // namespace

Disagreement CompareShotTie(const DegenerateFamily& family,
                            const DegenerateCase& c, int pose, bool* expected,
                            bool* touching, std::string* why) {
  uint64_t seed = family.seed;
  for (double v : {c.scene.translation.x, c.scene.translation.y,
                   c.scene.ray_origin.x, c.scene.circle.center.y}) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    seed = (seed ^ bits) * 0x9e3779b97f4a7c15u;
  }
  Rng rng(seed);
  const bool polygon = family.obstacle == ObstacleKind::kPolygon;
  // Shape A is the wall, or in one case in four a second target (at rest).
  const bool two_targets = rng.Int(0, 3) == 0;
  const Point o = RandomPoint(rng, 10);
  const Point a = RandomPoint(rng, 20);
  const Point u = family.moving ? RandomPoint(rng, 20) : Point{};
  const Point r = a - u;  // the shot relative to target B
  if (a.x == 0 || a.y == 0 || (r.x == 0 && r.y == 0)) {
    *why = "the draw does not fit the construction";
    return Disagreement::kSkipped;
  }
  const int64_t q = rng.Int(3, 97);
  const int64_t p = rng.Int(1, static_cast<int>(q) - 1);
  const int64_t scale = 64 * q;  // positions at t* = p / q are integers
  std::vector<Point> ka, kb;
  const bool b_edge = rng.Int(0, 1) == 1;
  if (!ShapeAt(scale * o + (64 * p) * a, a, polygon, true, rng, &ka) ||
      !ShapeAt(scale * o + (64 * p) * r, r, polygon, b_edge, rng, &kb)) {
    *why = "the draw does not fit the construction";
    return Disagreement::kSkipped;
  }
  const Frame frame = PickFrame(rng);
  const Vec2 origin = Map(frame, scale * o, true);
  const Vec2 ds = Map(frame, scale * a, false);
  const Vec2 dt = Map(frame, scale * u, false);
  std::vector<Vec2> wa = MapAll(frame, ka);
  std::vector<Vec2> wb = MapAll(frame, kb);
  if (pose == 1) {
    const double big = std::max({std::abs(origin.x), std::abs(origin.y), 1.0});
    TurnFarEnd(b_edge && rng.Int(0, 1) == 1 ? &wb : &wa, big, rng);
  }
  const uint64_t id_a = rng.Int(0, 1) == 1 ? 3 : 6;
  const uint64_t id_b = id_a == 3 ? 6 : 3;

  const mpq_class rx = mpq_class(ds.x) - mpq_class(dt.x);
  const mpq_class ry = mpq_class(ds.y) - mpq_class(dt.y);
  const std::optional<mpq_class> ta =
      EntryTime(origin, wa, mpq_class(ds.x), mpq_class(ds.y));
  const std::optional<mpq_class> tb = EntryTime(origin, wb, rx, ry);
  if (!ta || !tb || *ta >= 1 || *tb >= 1) {
    *why = "a shape is not met after the start";
    return Disagreement::kSkipped;
  }
  mpq_class target_time(static_cast<long>(p), static_cast<long>(q));
  target_time.canonicalize();
  if (pose == 0 && (*ta != target_time || *tb != target_time)) {
    *why = "the construction missed t* = " + target_time.get_str() +
           " (a bug in this file): A at " + ta->get_str() + ", B at " +
           tb->get_str() + "; A " + Text(wa) + "B " + Text(wb);
    return Disagreement::kOracleError;
  }
  // The oracle's bracket holds each exact time.
  for (int k = 0; k < 2; ++k) {
    const ConvexCase oracle_case{
        Core{{origin}, 0.0},  ds,  Core{k == 0 ? wa : wb, 0.0},
        k == 0 ? Vec2{} : dt, 1.0, 0.0};
    const Verdict v = SolveExact(oracle_case);
    const mpq_class& t = k == 0 ? *ta : *tb;
    if (v.outcome != Outcome::kHit || !(mpq_class(v.t_lo) < t) ||
        !(t <= mpq_class(v.t_hi))) {
      *why = "the oracle's bracket does not hold the exact time: " +
             DescribeVerdict(v);
      return Disagreement::kOracleError;
    }
  }
  const int order = cmp(*ta, *tb);
  *expected = order == 0;
  *touching = Rounded(*ta) == Rounded(*tb);

  const std::optional<BodyShape> hitbox_a = Hitbox(wa);
  const std::optional<BodyShape> hitbox_b = Hitbox(wb);
  if (!hitbox_a || !hitbox_b) {
    *why = "a triangle does not build";
    return Disagreement::kSkipped;
  }
  // A far wall keeps the level from being empty when A is a target.
  const Vec2 far{origin.x - 4 * ds.x, origin.y - 4 * ds.y};
  const absl::StatusOr<Level> level =
      two_targets ? Level::Create({WallShape(9, {far, far + Vec2{1.0, 0.0}})})
                  : Level::Create({WallShape(id_a, wa)});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  std::vector<ShotTarget> targets;
  if (two_targets) targets.push_back({id_a, *hitbox_a, Vec2{}});
  targets.push_back({id_b, *hitbox_b, dt});
  const bool a_first =
      order < 0 || (order == 0 && (!two_targets || id_a < id_b));
  const std::optional<ShotHit> got =
      ValidateShot(Shot{origin, ds, 0.0}, *level, targets);
  char exact[600];
  std::snprintf(
      exact, sizeof exact,
      "; exact: %s %llu at %.17g, %s %llu at %.17g (%s); shot (%.17g, "
      "%.17g) by (%.17g, %.17g); A %s; B %s moving (%.17g, %.17g)",
      two_targets ? "target" : "wall", static_cast<unsigned long long>(id_a),
      Rounded(*ta), "target", static_cast<unsigned long long>(id_b),
      Rounded(*tb), order == 0 ? "equal" : "different", origin.x, origin.y,
      ds.x, ds.y, Text(wa).c_str(), Text(wb).c_str(), dt.x, dt.y);
  if (!got) {
    *why = std::string("ValidateShot met nothing") + exact;
    return Disagreement::kHitMiss;
  }
  const bool got_a = two_targets
                         ? got->kind == ShotHitKind::kTarget && got->id == id_a
                         : got->kind == ShotHitKind::kWall;
  char text[120];
  std::snprintf(text, sizeof text, "ValidateShot met %s %llu at %.17g",
                got->kind == ShotHitKind::kWall ? "the wall" : "target",
                static_cast<unsigned long long>(got->id), got->hit.fraction);
  if (got_a != a_first ||
      (!got_a && (got->kind != ShotHitKind::kTarget || got->id != id_b))) {
    *why = text + std::string(exact);
    return Disagreement::kStatus;
  }
  if (std::abs(got->hit.fraction - Rounded(a_first ? *ta : *tb)) > 1e-9) {
    *why = std::string("a fraction off its exact time: ") + text + exact;
    return Disagreement::kFraction;
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
