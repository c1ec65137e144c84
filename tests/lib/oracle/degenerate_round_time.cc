// The round-time families: a world cast of a ray, a circle or a capsule in
// a level of two shapes first met at one exact time t* = p / q along
// different paths, where a shape is round (the mover's radius, a circle's,
// a capsule's): shape A's flat side (a segment, a triangle's edge or a
// capsule's side) tangent to the mover at t*, and shape B's vertex, circle
// or capsule cap touching it there. The times of round contacts are roots
// of quadratics; here every contact normal is a Pythagorean direction of
// length 65, so that t* is rational although the per-shape arithmetic
// takes square roots. In an integer frame scaled by q each contact is
// built tangent at t* on the side the motion goes to (so neither shape is
// met before), then an exact similarity (a Pythagorean rotation, which
// scales radii by 1, 5, 13 or 17, a reflection, an offset of 0, 1e6 or
// 1e9). Pose 1 moves A's far end a long way out and then by one ulp, which
// turns its time by far less than an ulp of t*: two exact times that round
// to one double or to neighbours, whose order is decided here exactly (at
// t* A's core is nearer, as far or farther than the sum of the radii).
//
// The skin-tie families build the same with a skin (target_distance, a
// multiple of 65 too) added to every contact's reach, which makes every
// shape round, a ray, a segment and a polygon mover included; in one draw
// in four t* = 0: both shapes start exactly a skin apart and close on it
// (a hit at fraction 0 each), and the turned A starts a sub-ulp amount
// inside the skin (a hit at exactly 0 too) or outside it (met a sub-ulp
// time later).
//
// The expected answer: the exactly earlier shape first, equal times by the
// smaller id (3 or 6, either way round), one exact time reported as one
// double, the list's fractions in the exact order, each within 1e-9 of the
// sweep of its exact time (t*, or the oracle's bracket for the turned A).
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
int64_t Dot(Point a, Point b) { return a.x * b.x + a.y * b.y; }
int64_t Cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }
Point Perp(Point a) { return {-a.y, a.x}; }

// Every integer vector of length 65.
std::vector<Point> Normals() {
  std::vector<Point> out;
  static constexpr int64_t kLegs[][2] = {
      {65, 0}, {16, 63}, {25, 60}, {33, 56}, {39, 52}};
  for (const auto& leg : kLegs) {
    for (int swap = 0; swap < 2; ++swap) {
      for (int sx : {1, -1}) {
        for (int sy : {1, -1}) {
          const int64_t x = swap == 0 ? leg[0] : leg[1];
          const int64_t y = swap == 0 ? leg[1] : leg[0];
          const Point p{sx * x, sy * y};
          bool seen = false;
          for (Point o : out) seen = seen || (o.x == p.x && o.y == p.y);
          if (!seen) out.push_back(p);
        }
      }
    }
  }
  return out;
}

// A shape in the integer frame: its core (1 to 3 points) and radius (a
// multiple of 65).
struct Body {
  std::vector<Point> core;
  int64_t radius = 0;
};

struct Built {
  Body mover;
  Point d;
  Body a, b;
};

Point RandomPoint(Rng& rng, int span) {
  return {rng.Int(-span, span), rng.Int(-span, span)};
}

// A contact normal u at mover core point i: facing the motion and, on a
// capsule or a triangle, where point i is the only nearest to a point
// beyond it along u (the outer half of a capsule's cap, a vertex's cone).
bool PickContact(const Built& c, Rng& rng, const std::vector<Point>& normals,
                 size_t* index, Point* u) {
  for (int tries = 0; tries < 40; ++tries) {
    const size_t i = static_cast<size_t>(
        rng.Int(0, static_cast<int>(c.mover.core.size()) - 1));
    const Point n = normals[static_cast<size_t>(
        rng.Int(0, static_cast<int>(normals.size()) - 1))];
    if (Dot(n, c.d) <= 0) continue;
    bool outer = true;
    for (size_t j = 0; j < c.mover.core.size(); ++j) {
      if (j != i && Dot(n, c.mover.core[i] - c.mover.core[j]) <= 0) {
        outer = false;
      }
    }
    if (!outer) continue;
    *index = i;
    *u = n;
    return true;
  }
  return false;
}

// A direction strictly on u's side.
bool Beyond(Rng& rng, Point u, Point* w) {
  for (int tries = 0; tries < 40; ++tries) {
    *w = RandomPoint(rng, 6);
    if (Dot(*w, u) > 0) return true;
  }
  return false;
}

// skin: the skin's multiple of 65 (0: none); at_start: t* = 0.
bool Construct(MoverKind mover_kind, ObstacleKind obstacle_kind, int64_t skin,
               bool at_start, Rng& rng, Built* c, int64_t* p_out,
               int64_t* q_out) {
  static const std::vector<Point> normals = Normals();
  const int64_t q = rng.Int(3, 97);
  const int64_t p = at_start ? 0 : rng.Int(1, static_cast<int>(q) - 1);
  c->d = q * RandomPoint(rng, 20);
  if (c->d.x == 0 || c->d.y == 0) return false;
  c->mover.core = {q * RandomPoint(rng, 10)};
  if (mover_kind == MoverKind::kCapsule) {
    Point other = q * RandomPoint(rng, 10);
    if (other.x == c->mover.core[0].x && other.y == c->mover.core[0].y) {
      other.x += q;
    }
    c->mover.core.push_back(other);
  }
  if (mover_kind == MoverKind::kPolygon) {
    const Point u = q * RandomPoint(rng, 10);
    const Point v = q * RandomPoint(rng, 10);
    if (Cross(u - c->mover.core[0], v - c->mover.core[0]) == 0) return false;
    c->mover.core.push_back(u);
    c->mover.core.push_back(v);
  }
  const int64_t radius =
      mover_kind == MoverKind::kRay || mover_kind == MoverKind::kPolygon
          ? 0
          : rng.Int(1, 3);
  c->mover.radius = 65 * radius;
  // Each contact's reach from the mover's core: its radius and the skin.
  const int64_t g = radius + skin;
  // The mover at t*: core + (p / q) d, d a multiple of q.
  const Point shift{p * (c->d.x / q), p * (c->d.y / q)};
  const bool round_obstacles = obstacle_kind == ObstacleKind::kCircle ||
                               obstacle_kind == ObstacleKind::kCapsule;

  // A: a flat side tangent at t* (a segment, a triangle's edge, a capsule's
  // side), reaching both ways past the contact.
  size_t ia = 0;
  Point ua;
  if (!PickContact(*c, rng, normals, &ia, &ua)) return false;
  const Point at_a = c->mover.core[ia] + shift + g * ua;
  const Point w = Perp(ua);
  const int64_t ha = round_obstacles ? rng.Int(1, 3) : 0;
  const Point base = at_a + ha * ua;
  c->a.core = {base - rng.Int(1, 5) * w, base + rng.Int(1, 5) * w};
  c->a.radius = 65 * ha;
  if (obstacle_kind == ObstacleKind::kPolygon) {
    c->a.core.push_back(base + rng.Int(-3, 3) * w + rng.Int(1, 3) * ua);
  }

  // B: a vertex, a circle or a capsule's cap touching at t*.
  size_t ib = 0;
  Point ub;
  if (!PickContact(*c, rng, normals, &ib, &ub)) return false;
  const Point at_b = c->mover.core[ib] + shift + g * ub;
  const int64_t hb = round_obstacles ? rng.Int(1, 3) : 0;
  const Point centre = at_b + hb * ub;
  c->b.core = {centre};
  c->b.radius = 65 * hb;
  if (obstacle_kind != ObstacleKind::kCircle) {
    Point w1, w2;
    if (!Beyond(rng, ub, &w1)) return false;
    c->b.core.push_back(centre + w1);
    if (obstacle_kind == ObstacleKind::kPolygon) {
      if (!Beyond(rng, ub, &w2) || Cross(w1, w2) == 0) return false;
      c->b.core.push_back(centre + w2);
    }
  }
  *p_out = p;
  *q_out = q;
  return true;
}

// The exact similarity: x -> R x (+ offset for points), R a Pythagorean
// rotation (scaling by `scale`), possibly reflected.
struct Frame {
  int64_t a = 1, b = 0, scale = 1;
  bool reflect = false;
  double offset = 0.0;
};

Frame PickFrame(Rng& rng) {
  static constexpr int64_t kTriples[][3] = {
      {1, 0, 1}, {0, 1, 1}, {3, 4, 5}, {4, 3, 5}, {5, 12, 13}, {8, 15, 17}};
  Frame f;
  const int k = rng.Int(0, 5);
  f.a = kTriples[k][0];
  f.b = kTriples[k][1];
  f.scale = kTriples[k][2];
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

Core MapBody(const Frame& f, const Body& body) {
  Core out;
  for (Point p : body.core) out.points.push_back(Map(f, p, true));
  out.radius = static_cast<double>(body.radius * f.scale);
  return out;
}

// Exact squared distances, in rationals.
struct Q2 {
  mpq_class x, y;
};
Q2 Exact(Vec2 v) { return {mpq_class(v.x), mpq_class(v.y)}; }

mpq_class PointSegment(const Q2& p, const Q2& a, const Q2& b) {
  const mpq_class ex = b.x - a.x, ey = b.y - a.y;
  const mpq_class px = p.x - a.x, py = p.y - a.y;
  const mpq_class len = ex * ex + ey * ey;
  const mpq_class along = px * ex + py * ey;
  if (len == 0 || along <= 0) return px * px + py * py;
  if (along >= len) {
    const mpq_class bx = p.x - b.x, by = p.y - b.y;
    return bx * bx + by * by;
  }
  const mpq_class cross = ex * py - ey * px;
  return cross * cross / len;
}

// The squared distance between two cores of 1 to 3 points (points,
// segments, triangles) known not to intersect: the least over point-to-edge
// distances both ways.
mpq_class CoreDistance(const std::vector<Q2>& u, const std::vector<Q2>& v) {
  std::optional<mpq_class> best;
  const auto edges = [](const std::vector<Q2>& c, size_t i) {
    return std::pair<const Q2&, const Q2&>{c[i], c[(i + 1) % c.size()]};
  };
  for (int way = 0; way < 2; ++way) {
    const std::vector<Q2>& from = way == 0 ? u : v;
    const std::vector<Q2>& to = way == 0 ? v : u;
    for (const Q2& p : from) {
      for (size_t i = 0; i < to.size(); ++i) {
        const auto [a, b] = edges(to, i);
        const mpq_class d2 = PointSegment(p, a, b);
        if (!best || d2 < *best) best = d2;
      }
    }
  }
  return *best;
}

std::vector<Q2> Moved(const Core& c, const mpq_class& t, Vec2 d) {
  std::vector<Q2> out;
  for (Vec2 p : c.points) {
    out.push_back({mpq_class(p.x) + t * mpq_class(d.x),
                   mpq_class(p.y) + t * mpq_class(d.y)});
  }
  return out;
}

std::vector<Q2> Still(const Core& c) {
  std::vector<Q2> out;
  for (Vec2 p : c.points) out.push_back(Exact(p));
  return out;
}

ShapeDesc Shape(uint64_t id, const Core& c) {
  ShapeDesc desc{.id = id, .category_bits = 1, .user_data = 0, .geometry = {}};
  if (c.points.size() == 1) {
    desc.geometry = Circle{c.points[0], c.radius};
  } else if (c.points.size() == 2 && c.radius > 0.0) {
    desc.geometry = Capsule{c.points[0], c.points[1], c.radius};
  } else if (c.points.size() == 2) {
    desc.geometry = Segment{c.points[0], c.points[1]};
  } else {
    desc.geometry = PolygonDesc{c.points};
  }
  return desc;
}

std::string Text(const Core& c) {
  std::string s;
  char buf[80];
  for (Vec2 p : c.points) {
    std::snprintf(buf, sizeof buf, "(%.17g, %.17g) ", p.x, p.y);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "r %.17g", c.radius);
  return s + buf;
}

// A round-time question (with_skin: a skin-tie one); see the file comment.
Disagreement CompareTie(const DegenerateFamily& family, const DegenerateCase& c,
                        int pose, bool with_skin, bool* expected,
                        bool* touching, std::string* why) {
  // The case's own bits seed this construction: one draw per case and pose.
  uint64_t seed = family.seed ^ 0x5a17u;
  for (double v : {c.scene.translation.x, c.scene.translation.y,
                   c.scene.ray_origin.x, c.scene.circle.center.y}) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    seed = (seed ^ bits) * 0x9e3779b97f4a7c15u;
  }
  Rng rng(seed);
  Built k;
  int64_t p = 0, q = 0;
  const int64_t skin_units = with_skin ? rng.Int(1, 3) : 0;
  const bool at_start = with_skin && rng.Int(0, 3) == 0;
  if (!Construct(family.mover, family.obstacle, skin_units, at_start, rng, &k,
                 &p, &q)) {
    *why = "the draw does not fit the construction";
    return Disagreement::kSkipped;
  }
  const Frame frame = PickFrame(rng);
  const double skin = static_cast<double>(65 * skin_units * frame.scale);
  const Core mover = MapBody(frame, k.mover);
  const Vec2 d = Map(frame, k.d, false);
  Core a = MapBody(frame, k.a);
  const Core b = MapBody(frame, k.b);
  if (pose == 1) {
    // A's far end moved a long way out along its side, then by one ulp.
    const Vec2 near = a.points[0];
    const Vec2 dir = a.points[1] - a.points[0];
    double big = 0.0;
    for (Vec2 v : mover.points) {
      big = std::max({big, std::abs(v.x), std::abs(v.y)});
    }
    const double reach = std::max(std::abs(dir.x), std::abs(dir.y));
    const double k_far = std::ldexp(1.0, std::max(0, std::ilogb(big / reach)));
    Vec2 far = near + k_far * dir;  // exact: integers below 2^53
    const double toward = rng.Int(0, 1) == 1 ? 1e300 : -1e300;
    if (rng.Int(0, 1) == 1) {
      far.x = std::nextafter(far.x, toward);
    } else {
      far.y = std::nextafter(far.y, toward);
    }
    a.points[1] = far;
  }
  const uint64_t id_a = rng.Int(0, 1) == 1 ? 3 : 6;
  const uint64_t id_b = id_a == 3 ? 6 : 3;
  mpq_class target(static_cast<long>(p), static_cast<long>(q));
  target.canonicalize();

  // A's order against t*: its core's squared distance from the mover's
  // core at t* against the squared sum of the radii and the skin (the
  // distance is convex in t and A is apart at the start). At t* = 0, A
  // within the skin is met at 0 too (it closes on it), and A outside it
  // later.
  const mpq_class reach_a =
      mpq_class(mover.radius) + mpq_class(a.radius) + mpq_class(skin);
  const mpq_class reach_b =
      mpq_class(mover.radius) + mpq_class(b.radius) + mpq_class(skin);
  const std::vector<Q2> start_pose = Moved(mover, 0, d);
  const std::vector<Q2> at_target = Moved(mover, target, d);
  if (!at_start && CoreDistance(start_pose, Still(a)) <= reach_a * reach_a) {
    *why = "A is not apart at the start";
    return Disagreement::kSkipped;
  }
  const mpq_class gap_a = CoreDistance(at_target, Still(a)) - reach_a * reach_a;
  const mpq_class gap_b = CoreDistance(at_target, Still(b)) - reach_b * reach_b;
  if (gap_b != 0 || (pose == 0 && gap_a != 0)) {
    *why = "the construction missed t* = " + target.get_str() +
           " (a bug in this file); mover " + Text(mover) + "; A " + Text(a) +
           "; B " + Text(b);
    return Disagreement::kOracleError;
  }
  // The oracle's bracket holds each exact time (A's, when turned, is only
  // known by it).
  // A start within the skin, closing on it, is met at exactly 0.
  Verdict verdict_a;
  for (const Core* shape : {&std::as_const(a), &b}) {
    ConvexCase oracle_case{mover, d, *shape, Vec2{}, 1.0, skin};
    Verdict v = SolveExact(oracle_case);
    if (v.outcome == Outcome::kSkinHit) {
      v.outcome = Outcome::kHit;
      v.t_lo = v.t_hi = 0.0;
    }
    if (shape == &a) verdict_a = v;
    if (shape == &a && pose == 1) {
      if (v.outcome != Outcome::kHit) {
        *why = "the turned A is not met: " + DescribeVerdict(v);
        return Disagreement::kSkipped;
      }
      continue;
    }
    const bool holds =
        at_start ? v.t_hi == 0.0
                 : mpq_class(v.t_lo) < target && target <= mpq_class(v.t_hi);
    if (v.outcome != Outcome::kHit || !holds) {
      *why = "the oracle's bracket does not hold t*: " + DescribeVerdict(v);
      return Disagreement::kOracleError;
    }
  }
  // A before B exactly where A's core is within reach at t* (at t* = 0,
  // with B where A's is).
  const int order =
      at_start ? (gap_a <= 0 ? 0 : 1) : (gap_a < 0 ? -1 : (gap_a == 0 ? 0 : 1));
  *expected = order == 0;
  const double t_star = Rounded(target);
  const double a_lo = pose == 0 ? t_star : verdict_a.t_lo;
  const double a_hi = pose == 0 ? t_star : verdict_a.t_hi;
  *touching = order == 0 || (a_lo <= t_star && t_star <= a_hi);
  const bool a_first = order < 0 || (order == 0 && id_a < id_b);
  const uint64_t first_id = a_first ? id_a : id_b;
  const uint64_t second_id = a_first ? id_b : id_a;

  const absl::StatusOr<Level> level =
      Level::Create({Shape(id_a, a), Shape(id_b, b)});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  std::optional<WorldHit> closest;
  WorldHit hits[4];
  ListResult list{};
  const CastOptions options{.target_distance = skin};
  const QueryFilter all;
  switch (family.mover) {
    case MoverKind::kRay:
      closest = CastRay(RayInput{mover.points[0], d}, *level, all, options);
      list =
          CastRayAll(RayInput{mover.points[0], d}, *level, hits, all, options);
      break;
    case MoverKind::kCircle: {
      const CircleCast cast{Circle{mover.points[0], mover.radius}, d};
      closest = CastCircle(cast, *level, all, options);
      list = CastCircleAll(cast, *level, hits, all, options);
      break;
    }
    case MoverKind::kPolygon: {
      const absl::StatusOr<ConvexPolygon> polygon =
          MakeConvexPolygon(mover.points);
      if (!polygon.ok()) {
        *why = "the mover does not build";
        return Disagreement::kSkipped;
      }
      const PolygonCast cast{*polygon, d};
      closest = CastPolygon(cast, *level, all, options);
      list = CastPolygonAll(cast, *level, hits, all, options);
      break;
    }
    default: {
      const CapsuleCast cast{
          Capsule{mover.points[0], mover.points[1], mover.radius}, d};
      closest = CastCapsule(cast, *level, all, options);
      list = CastCapsuleAll(cast, *level, hits, all, options);
      break;
    }
  }
  char exact[1000];
  std::snprintf(exact, sizeof exact,
                "; exact: shape %llu first, then shape %llu (%s; t* = %s = "
                "%.17g, A in [%.17g, %.17g]); mover %s d (%.17g, %.17g) skin "
                "%.17g; A %s; B %s",
                static_cast<unsigned long long>(first_id),
                static_cast<unsigned long long>(second_id),
                order == 0 ? "equal" : "different", target.get_str().c_str(),
                t_star, a_lo, a_hi, Text(mover).c_str(), d.x, d.y, skin,
                Text(a).c_str(), Text(b).c_str());
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
  // Neither starts touching or overlapping: every answer is a hit.
  if (closest->shape_id != first_id || hits[0].shape_id != first_id ||
      hits[1].shape_id != second_id || closest->hit.status != HitStatus::kHit ||
      hits[0].hit.status != HitStatus::kHit ||
      hits[1].hit.status != HitStatus::kHit) {
    *why = got + std::string(exact);
    return Disagreement::kStatus;
  }
  // One exact time is one double, its correct rounding (the tie was
  // examined); the list's fractions follow the exact order; each within
  // the promise (1e-9 of the sweep) of its exact time.
  const auto near = [](double f, double lo, double hi) {
    return f >= lo - 1e-9 && f <= hi + 1e-9;
  };
  const double a_fraction =
      a_first ? hits[0].hit.fraction : hits[1].hit.fraction;
  const double b_fraction =
      a_first ? hits[1].hit.fraction : hits[0].hit.fraction;
  const bool one_double = order != 0 || (hits[0].hit.fraction == t_star &&
                                         hits[1].hit.fraction == t_star &&
                                         closest->hit.fraction == t_star);
  const bool in_order = hits[0].hit.fraction <= hits[1].hit.fraction;
  const bool close = near(a_fraction, a_lo, a_hi) &&
                     near(b_fraction, t_star, t_star) &&
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

}  // namespace

Disagreement CompareRoundTime(const DegenerateFamily& family,
                              const DegenerateCase& c, int pose, bool* expected,
                              bool* touching, std::string* why) {
  return CompareTie(family, c, pose, /*with_skin=*/false, expected, touching,
                    why);
}

Disagreement CompareSkinTie(const DegenerateFamily& family,
                            const DegenerateCase& c, int pose, bool* expected,
                            bool* touching, std::string* why) {
  return CompareTie(family, c, pose, /*with_skin=*/true, expected, touching,
                    why);
}

}  // namespace collide::oracle
