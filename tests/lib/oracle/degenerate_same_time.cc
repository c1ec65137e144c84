// The same-time families: a world cast (CastRay, CastCapsule of radius 0,
// CastPolygon and their lists) in a level of two shapes built to be first
// met at one exact time t* = p / q along different paths: a mover's vertex
// (a ray's origin) meets shape A's edge inside it, and shape B's vertex
// meets a mover's edge inside it (for a ray: the ray passes through B's
// vertex). In an integer frame scaled by q (so that every point at t* is
// an integer) each shape is placed touching the mover at t* only, on the
// side the motion goes to, so neither is met before; then an exact
// similarity (a Pythagorean rotation, a reflection, an offset of 0, 1e6 or
// 1e9). Pose 1 moves A's far end by one ulp, a long way from the contact,
// which turns its time by far less than an ulp of t*: two exact times that
// round to one double or to neighbours.
//
// The expected answer comes from rational arithmetic here (GMP: each
// shape's first contact as the entry of the motion into the Minkowski
// difference), checked against the oracle's bracket: the exactly earlier
// shape first, equal times by the smaller id (3 or 6, either way round),
// one exact time reported as one double, the list's fractions in the exact
// order, each within 1e-9 of the sweep of its exact time (a tie whose
// rounding contradicts the exact order is rewritten to the correct
// roundings: world/exact_ties.h).
#include <gmp.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
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

// A case in the integer frame: the mover's points (in order around it),
// the translation, and the two shapes' outlines (2 points: a segment; 3: a
// triangle).
struct Built {
  std::vector<Point> mover;
  Point d;
  std::vector<Point> a, b;
};

Point RandomPoint(Rng& rng, int span) {
  return {rng.Int(-span, span), rng.Int(-span, span)};
}

// Convex mover points in counter-clockwise order, none collinear.
bool MakeMover(MoverKind kind, Rng& rng, std::vector<Point>* out) {
  if (kind == MoverKind::kRay) {
    *out = {RandomPoint(rng, 10)};
    return true;
  }
  if (kind == MoverKind::kCapsule) {
    const Point p = RandomPoint(rng, 10);
    Point q = RandomPoint(rng, 10);
    if (q.x == p.x && q.y == p.y) q.x += 1;
    *out = {p, q};
    return true;
  }
  const int n = rng.Int(3, 4);
  std::vector<Point> v;
  for (int i = 0; i < n; ++i) v.push_back(RandomPoint(rng, 10));
  // Counter-clockwise around the first point's lowest neighbour: sort by
  // angle about the mean (small n), then require strict convexity.
  double mx = 0, my = 0;
  for (Point p : v) mx += p.x, my += p.y;
  mx /= n;
  my /= n;
  std::sort(v.begin(), v.end(), [&](Point a, Point b) {
    return std::atan2(a.y - my, a.x - mx) < std::atan2(b.y - my, b.x - mx);
  });
  for (int i = 0; i < n; ++i) {
    if (Cross(v[(i + 1) % n] - v[i], v[(i + 2) % n] - v[(i + 1) % n]) <= 0) {
      return false;
    }
  }
  *out = v;
  return true;
}

// Builds the case (false: this draw does not fit; the caller skips it).
bool Construct(MoverKind mover_kind, ObstacleKind obstacle_kind, Rng& rng,
               Built* c, int64_t* p_out, int64_t* q_out) {
  if (!MakeMover(mover_kind, rng, &c->mover)) return false;
  Point d = RandomPoint(rng, 20);
  if (d.x == 0 || d.y == 0) return false;
  const int64_t q = rng.Int(3, 97);
  const int64_t p = rng.Int(1, static_cast<int>(q) - 1);
  // Scale by S = 64 q: the mover at t* = p / q is S v + 64 p d, an integer.
  const int64_t s_scale = 64 * q;
  for (Point& v : c->mover) v = s_scale * v;
  c->d = s_scale * d;
  const Point shift = (64 * p) * d;
  const bool polygon_shapes = obstacle_kind == ObstacleKind::kPolygon;

  // Shape A: through the leading vertex's place at t*, along a line that
  // leaves the whole mover strictly on the side it comes from.
  size_t lead = 0;
  for (size_t i = 1; i < c->mover.size(); ++i) {
    if (Dot(c->mover[i], d) > Dot(c->mover[lead], d)) lead = i;
  }
  const Point at = c->mover[lead] + shift;
  Point dir;
  bool found = false;
  for (int tries = 0; tries < 40 && !found; ++tries) {
    dir = RandomPoint(rng, 6);
    const int back = Sign(Cross(dir, Point{-d.x, -d.y}));
    if (back == 0) continue;
    found = true;
    for (size_t i = 0; i < c->mover.size(); ++i) {
      if (i != lead && Sign(Cross(dir, c->mover[i] - c->mover[lead])) != back) {
        found = false;
      }
    }
  }
  if (!found) return false;
  c->a = {at - rng.Int(1, 5) * dir, at + rng.Int(1, 5) * dir};
  if (polygon_shapes) c->a.push_back(at + rng.Int(1, 3) * d);

  // Shape B: its vertex on a mover edge facing the motion (for a ray, on
  // the ray's path), the rest on the far side of that edge.
  Point vertex;
  Point edge;  // the mover edge's direction (ray: the motion's)
  if (mover_kind == MoverKind::kRay) {
    vertex = at;
    edge = d;
  } else {
    std::vector<std::pair<Point, Point>> facing;
    const size_t n = c->mover.size();
    for (size_t i = 0; i < n; ++i) {
      for (int way = 0; way < (n == 2 ? 2 : 1); ++way) {
        Point from = c->mover[i], to = c->mover[(i + 1) % n];
        if (way == 1) std::swap(from, to);
        if (n == 2 && i == 1) continue;
        if (Cross(to - from, d) < 0) facing.push_back({from, to});
      }
    }
    if (facing.empty()) return false;
    const auto [from, to] =
        facing[rng.Int(0, static_cast<int>(facing.size()) - 1)];
    // A point inside the edge, i / 64 of the way along: (S / 64) i (to - from)
    // / S... both ends are multiples of S, so (to - from) / 64 is an integer
    // multiple of q.
    const int64_t i = rng.Int(1, 63);
    vertex = from + Point{(to.x - from.x) / 64 * i, (to.y - from.y) / 64 * i} +
             shift;
    edge = to - from;
  }
  // The far side: for a ray, ahead of the point along d and on either side
  // of the path; for an edge, strictly to its right (outward).
  std::vector<Point> far;
  for (int tries = 0;
       tries < 80 && static_cast<int>(far.size()) < (polygon_shapes ? 2 : 1);
       ++tries) {
    const Point r = RandomPoint(rng, 6);
    if (mover_kind == MoverKind::kRay) {
      if (Cross(d, r) == 0) continue;
      if (polygon_shapes) {
        if (Dot(d, r) <= 0) continue;
        if (!far.empty() && Sign(Cross(d, r)) == Sign(Cross(d, far[0]))) {
          continue;
        }
      }
    } else {
      if (Cross(edge, r) >= 0) continue;
      if (!far.empty() && Cross(far[0], r) == 0) continue;
    }
    far.push_back(r);
  }
  if (static_cast<int>(far.size()) < (polygon_shapes ? 2 : 1)) return false;
  c->b = {vertex};
  for (Point r : far) c->b.push_back(vertex + r);
  *p_out = p;
  *q_out = q;
  return true;
}

// The exact similarity: x -> R x (+ offset for points), R a Pythagorean
// rotation, possibly reflected.
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

// Exact first contact of `mover` (convex hull of its points) translating by
// d with `obstacle`: the entry of t d into hull(obstacle) - hull(mover),
// over every edge's two normals and two directions (enough for flat hulls
// too); nullopt when it starts touching or never meets.
std::optional<mpq_class> EntryTime(const std::vector<Vec2>& mover,
                                   const std::vector<Vec2>& obstacle, Vec2 d) {
  const auto q = [](double v) { return mpq_class(v); };
  std::optional<mpq_class> enter, leave;
  for (const std::vector<Vec2>* shape : {&mover, &obstacle}) {
    const size_t n = shape->size();
    for (size_t i = 0; i + 1 < n + (n > 2 ? 1 : 0); ++i) {
      const Vec2 a = (*shape)[i], b = (*shape)[(i + 1) % n];
      const mpq_class ex = q(b.x) - q(a.x), ey = q(b.y) - q(a.y);
      if (ex == 0 && ey == 0) continue;
      const mpq_class axes[4][2] = {{ey, -ex}, {-ey, ex}, {ex, ey}, {-ex, -ey}};
      for (const auto& n_ : axes) {
        const mpq_class rate = n_[0] * q(d.x) + n_[1] * q(d.y);
        std::optional<mpq_class> hi, lo;
        for (Vec2 o : obstacle) {
          const mpq_class v = n_[0] * q(o.x) + n_[1] * q(o.y);
          if (!hi || v > *hi) hi = v;
        }
        for (Vec2 m : mover) {
          const mpq_class v = n_[0] * q(m.x) + n_[1] * q(m.y);
          if (!lo || v < *lo) lo = v;
        }
        const mpq_class support = *hi - *lo;
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
  }
  if (!enter || *enter <= 0 || (leave && *leave < *enter)) return std::nullopt;
  return enter;
}

ShapeDesc Shape(uint64_t id, const std::vector<Vec2>& outline) {
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

Disagreement CompareSameTime(const DegenerateFamily& family,
                             const DegenerateCase& c, int pose, bool* expected,
                             bool* touching, std::string* why) {
  // The case's own bits seed this construction: one draw per case and pose.
  uint64_t seed = family.seed;
  for (double v : {c.scene.translation.x, c.scene.translation.y,
                   c.scene.ray_origin.x, c.scene.circle.center.y}) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    seed = (seed ^ bits) * 0x9e3779b97f4a7c15u;
  }
  Rng rng(seed);
  Built k;
  int64_t p = 0, q = 0;
  if (!Construct(family.mover, family.obstacle, rng, &k, &p, &q)) {
    *why = "the draw does not fit the construction";
    return Disagreement::kSkipped;
  }
  const Frame frame = PickFrame(rng);
  const std::vector<Vec2> mover = MapAll(frame, k.mover);
  const Vec2 d = Map(frame, k.d, false);
  std::vector<Vec2> a = MapAll(frame, k.a);
  const std::vector<Vec2> b = MapAll(frame, k.b);
  if (pose == 1) {
    // A's far end moved a long way out along its edge, then by one ulp.
    const Vec2 near = a[0];
    const Vec2 dir = a[1] - a[0];
    double big = 0.0;
    for (Vec2 v : mover) big = std::max({big, std::abs(v.x), std::abs(v.y)});
    const double reach = std::max(std::abs(dir.x), std::abs(dir.y));
    const double k_far = std::ldexp(1.0, std::max(0, std::ilogb(big / reach)));
    Vec2 far = near + k_far * dir;  // exact: integers below 2^53
    const bool in_x = rng.Int(0, 1) == 1;
    const double toward = rng.Int(0, 1) == 1 ? 1e300 : -1e300;
    if (in_x) {
      far.x = std::nextafter(far.x, toward);
    } else {
      far.y = std::nextafter(far.y, toward);
    }
    a[1] = far;
  }
  const uint64_t id_a = rng.Int(0, 1) == 1 ? 3 : 6;
  const uint64_t id_b = id_a == 3 ? 6 : 3;

  const std::optional<mpq_class> ta = EntryTime(mover, a, d);
  const std::optional<mpq_class> tb = EntryTime(mover, b, d);
  if (!ta || !tb || *ta >= 1 || *tb >= 1) {
    *why = "a shape is not met after the start";
    return Disagreement::kSkipped;
  }
  mpq_class target(static_cast<long>(p), static_cast<long>(q));
  target.canonicalize();
  if (pose == 0 && (*ta != target || *tb != target)) {
    *why = "the construction missed t* = " + target.get_str() + " (a bug in " +
           "this file): A at " + ta->get_str() + ", B at " + tb->get_str() +
           "; mover " + Text(mover) + "A " + Text(a) + "B " + Text(b);
    return Disagreement::kOracleError;
  }
  // The oracle's bracket holds each exact time.
  for (const std::vector<Vec2>* shape : {&std::as_const(a), &b}) {
    ConvexCase oracle_case{Core{mover, 0.0}, d,   Core{*shape, 0.0},
                           Vec2{},           1.0, 0.0};
    const Verdict v = SolveExact(oracle_case);
    const mpq_class& t = shape == &a ? *ta : *tb;
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
  const bool a_first = order < 0 || (order == 0 && id_a < id_b);
  const uint64_t first_id = a_first ? id_a : id_b;
  const uint64_t second_id = a_first ? id_b : id_a;
  const double first_t = Rounded(a_first ? *ta : *tb);
  const double second_t = Rounded(a_first ? *tb : *ta);

  const absl::StatusOr<Level> level =
      Level::Create({Shape(id_a, a), Shape(id_b, b)});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  std::optional<WorldHit> closest;
  WorldHit hits[4];
  ListResult list{};
  switch (family.mover) {
    case MoverKind::kRay:
      closest = CastRay(RayInput{mover[0], d}, *level);
      list = CastRayAll(RayInput{mover[0], d}, *level, hits);
      break;
    case MoverKind::kCapsule:
      closest = CastCapsule(CapsuleCast{{mover[0], mover[1], 0.0}, d}, *level);
      list = CastCapsuleAll(CapsuleCast{{mover[0], mover[1], 0.0}, d}, *level,
                            hits);
      break;
    default: {
      const absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(mover);
      if (!polygon.ok()) {
        *why = "the mover does not build";
        return Disagreement::kSkipped;
      }
      closest = CastPolygon(PolygonCast{*polygon, d}, *level);
      list = CastPolygonAll(PolygonCast{*polygon, d}, *level, hits);
      break;
    }
  }
  char exact[400];
  std::snprintf(exact, sizeof exact,
                "; exact: shape %llu at %.17g, then shape %llu at %.17g (%s); "
                "mover %sd (%.17g, %.17g); A %s; B %s",
                static_cast<unsigned long long>(first_id), first_t,
                static_cast<unsigned long long>(second_id), second_t,
                order == 0 ? "equal" : "different", Text(mover).c_str(), d.x,
                d.y, Text(a).c_str(), Text(b).c_str());
  if (!closest || list.count != 2) {
    *why = std::string("closest or list missing a hit") + exact;
    return Disagreement::kHitMiss;
  }
  char got[200];
  std::snprintf(
      got, sizeof got,
      "got closest %llu at %.17g, list %llu at %.17g, %llu at %.17g",
      static_cast<unsigned long long>(closest->shape_id), closest->hit.fraction,
      static_cast<unsigned long long>(hits[0].shape_id), hits[0].hit.fraction,
      static_cast<unsigned long long>(hits[1].shape_id), hits[1].hit.fraction);
  if (closest->shape_id != first_id || hits[0].shape_id != first_id ||
      hits[1].shape_id != second_id) {
    *why = got + std::string(exact);
    return Disagreement::kStatus;
  }
  // One exact time is one double, its correct rounding (the tie was
  // examined); the list's fractions follow the exact order; each within
  // the promise (1e-9 of the sweep) of its exact time.
  const bool one_double = order != 0 || (hits[0].hit.fraction == first_t &&
                                         hits[1].hit.fraction == first_t &&
                                         closest->hit.fraction == first_t);
  const bool in_order = hits[0].hit.fraction <= hits[1].hit.fraction;
  const bool close = std::abs(closest->hit.fraction - first_t) <= 1e-9 &&
                     std::abs(hits[0].hit.fraction - first_t) <= 1e-9 &&
                     std::abs(hits[1].hit.fraction - second_t) <= 1e-9 &&
                     closest->hit.fraction == hits[0].hit.fraction;
  if (!one_double || !in_order || !close) {
    *why = std::string(!one_double ? "one exact time not one correctly "
                                     "rounded double: "
                       : !in_order ? "fractions out of the exact order: "
                                   : "a fraction off its exact time: ") +
           got + exact;
    return Disagreement::kFraction;
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
