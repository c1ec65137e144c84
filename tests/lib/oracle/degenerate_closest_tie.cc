// The closest-round-tie families: ClosestPoint (query.h) from a point in a
// level of two shapes at one exact distance, one of them round (a circle,
// or a capsule met on its side or its cap) and the other a segment met
// inside or at its end, or a circle. The round shape's centre lies a
// Pythagorean multiple away (so its distance is an integer while the
// per-shape arithmetic takes a square root); then an exact similarity (a
// Pythagorean rotation that scales lengths and radii by its hypotenuse, a
// reflection, an offset of 0, 1e6 or 1e9). Pose 1 turns the segment by
// moving its far end a long way out and then one ulp (a distance less than
// an ulp away), or moves the second circle's radius by one ulp.
//
// The expected answer comes from rational arithmetic here (GMP: each
// distance sqrt(S) - r, S the exact squared distance to the core, ordered
// by the signs of p + q sqrt(c1) + s sqrt(c2) after squarings): the exactly
// nearer shape, at one exact distance the smaller id (3 or 6, either way
// round); the distance within 1e-9 of its exact value, relative.
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
#include "collide/query.h"
#include "collide/shapes.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

// sign(p + q sqrt(c)), c >= 0.
int SignPlusRoot(const mpq_class& p, const mpq_class& q, const mpq_class& c) {
  const int sp = sgn(p);
  const int sq = c == 0 ? 0 : sgn(q);
  if (sq == 0) return sp;
  if (sp == 0 || sp == sq) return sq;
  return sp * sgn(p * p - q * q * c);
}

// sign(p + q sqrt(c1) + s sqrt(c2)), c1, c2 >= 0.
int SignPlusTwoRoots(const mpq_class& p, const mpq_class& q,
                     const mpq_class& c1, const mpq_class& s,
                     const mpq_class& c2) {
  const int sx = SignPlusRoot(p, q, c1);
  const int ss = c2 == 0 ? 0 : sgn(s);
  if (ss == 0) return sx;
  if (sx == 0 || sx == ss) return ss;
  return sx * SignPlusRoot(p * p + q * q * c1 - s * s * c2, 2 * p * q, c1);
}

// The exact squared distance from p to the segment [a, b].
mpq_class SquaredToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const mpq_class px(p.x), py(p.y), ax(a.x), ay(a.y), bx(b.x), by(b.y);
  const mpq_class ex = bx - ax, ey = by - ay;
  const mpq_class fx = px - ax, fy = py - ay;
  const mpq_class along = fx * ex + fy * ey;
  const mpq_class length = ex * ex + ey * ey;
  if (length == 0 || along <= 0) return fx * fx + fy * fy;
  if (along >= length) {
    const mpq_class gx = px - bx, gy = py - by;
    return gx * gx + gy * gy;
  }
  const mpq_class cross = ex * fy - ey * fx;
  return cross * cross / length;
}

// A distance sqrt(square) - radius.
struct Distance {
  mpq_class square;
  mpq_class radius;
  double Approx() const { return std::sqrt(square.get_d()) - radius.get_d(); }
};

// The sign of a - b: sqrt(Sa) + rb against sqrt(Sb) + ra, both >= 0, so
// the sign of their squares' difference, (Sa + rb^2 - Sb - ra^2) + 2 rb
// sqrt(Sa) - 2 ra sqrt(Sb).
int Compare(const Distance& a, const Distance& b) {
  return SignPlusTwoRoots(
      a.square + b.radius * b.radius - b.square - a.radius * a.radius,
      2 * b.radius, a.square, -2 * a.radius, b.square);
}

struct Frame {
  int64_t a = 1, b = 0, c = 1;
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
  f.c = kTriples[k][2];
  if (rng.Int(0, 1) == 1) f.b = -f.b;
  f.reflect = rng.Int(0, 1) == 1;
  static constexpr double kOffsets[] = {0.0, 1e6, 1e9};
  f.offset = kOffsets[rng.Int(0, 2)];
  return f;
}

Vec2 Map(const Frame& f, int64_t x, int64_t y) {
  if (f.reflect) y = -y;
  return {static_cast<double>(f.a * x - f.b * y) + f.offset,
          static_cast<double>(f.b * x + f.a * y) + f.offset};
}

// One shape of the case, in world coordinates.
struct Built {
  ShapeDesc desc;
  Distance distance;
  std::string text;
};

std::string Text(const char* kind, std::initializer_list<double> v) {
  std::string s = kind;
  char buf[40];
  for (double x : v) {
    std::snprintf(buf, sizeof buf, " %.17g", x);
    s += buf;
  }
  return s;
}

}  // namespace

Disagreement CompareClosestTie(const DegenerateFamily& family,
                               const DegenerateCase& c, int pose,
                               bool* expected, bool* touching,
                               std::string* why) {
  uint64_t seed = family.seed;
  for (double v : {c.scene.translation.x, c.scene.translation.y,
                   c.scene.ray_origin.x, c.scene.circle.center.y}) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    seed = (seed ^ bits) * 0x9e3779b97f4a7c15u;
  }
  Rng rng(seed);
  const Frame f = PickFrame(rng);
  // The point, and the round shape A: its core's nearest point m h away
  // along a Pythagorean direction (tx, ty) of length h, radius below that.
  static constexpr int64_t kDirections[][3] = {
      {3, 4, 5}, {4, 3, 5}, {5, 12, 13}, {12, 5, 13}, {8, 15, 17}, {7, 24, 25}};
  const int64_t px = rng.Int(-20, 20), py = rng.Int(-20, 20);
  const int k = rng.Int(0, 5);
  int64_t tx = kDirections[k][0], ty = kDirections[k][1];
  const int64_t h = kDirections[k][2];
  if (rng.Int(0, 1) == 1) tx = -tx;
  if (rng.Int(0, 1) == 1) ty = -ty;
  const int64_t m = rng.Int(1, 6);
  const int64_t ra = rng.Int(1, static_cast<int>(m * h) - 1);
  const int64_t gap = m * h - ra;  // the exact distance, before the frame
  const int64_t cx = px + m * tx, cy = py + m * ty;
  const Vec2 point = Map(f, px, py);
  const double ra_world = static_cast<double>(ra * f.c);
  Built a;
  if (family.obstacle == ObstacleKind::kCircle) {
    const Vec2 center = Map(f, cx, cy);
    a.desc.geometry = Circle{center, ra_world};
    a.distance = {SquaredToSegment(point, center, center), mpq_class(ra_world)};
    a.text = Text("circle", {center.x, center.y, ra_world});
  } else {
    // A capsule met on its side (its axis across the direction) or at a
    // cap (its axis going away along it).
    const int64_t j = rng.Int(1, 4);
    Vec2 p1, p2;
    if (rng.Int(0, 1) == 1) {
      p1 = Map(f, cx - j * ty, cy + j * tx);
      const int64_t i = rng.Int(1, 4);
      p2 = Map(f, cx + i * ty, cy - i * tx);
    } else {
      p1 = Map(f, cx, cy);
      p2 = Map(f, cx + j * tx, cy + j * ty);
    }
    a.desc.geometry = Capsule{p1, p2, ra_world};
    a.distance = {SquaredToSegment(point, p1, p2), mpq_class(ra_world)};
    a.text = Text("capsule", {p1.x, p1.y, p2.x, p2.y, ra_world});
  }
  // Shape B at the same distance: a segment along an axis met inside or at
  // its end, or a circle along another direction.
  Built b;
  const int b_kind = rng.Int(0, 2);
  const int64_t sign = rng.Int(0, 1) == 1 ? 1 : -1;
  if (b_kind == 2) {
    const int k2 = rng.Int(0, 5);
    int64_t ux = kDirections[k2][0], uy = kDirections[k2][1];
    const int64_t h2 = kDirections[k2][2];
    if (rng.Int(0, 1) == 1) ux = -ux;
    if (rng.Int(0, 1) == 1) uy = -uy;
    // m2 h2 > gap: the radius m2 h2 - gap is positive.
    const int64_t m2 = gap / h2 + rng.Int(1, 4);
    const Vec2 center = Map(f, px + m2 * ux, py + m2 * uy);
    double rb = static_cast<double>((m2 * h2 - gap) * f.c);
    if (pose == 1) {
      rb = std::nextafter(rb, rng.Int(0, 1) == 1 ? 1e300 : 0.0);
    }
    b.desc.geometry = Circle{center, rb};
    b.distance = {SquaredToSegment(point, center, center), mpq_class(rb)};
    b.text = Text("circle", {center.x, center.y, rb});
  } else {
    // The line y = py - gap (or + gap); inside: from left of px to right of
    // it; at an end: from (px, py -+ gap) away from the point.
    const int64_t y = py - sign * gap;
    Vec2 near, far;
    if (b_kind == 0) {
      near = Map(f, px - rng.Int(1, 9), y);
      far = Map(f, px + rng.Int(1, 9), y);
    } else {
      near = Map(f, px, y);
      far = Map(f, px + rng.Int(-9, 9), y - sign * rng.Int(1, 9));
    }
    if (pose == 1) {
      const Vec2 dir = far - near;
      const double big = std::max({std::abs(point.x), std::abs(point.y), 1.0});
      const double reach = std::max(std::abs(dir.x), std::abs(dir.y));
      const double k_far =
          std::ldexp(1.0, std::max(0, std::ilogb(big / reach) + 8));
      far = near + k_far * dir;
      const double toward = rng.Int(0, 1) == 1 ? 1e300 : -1e300;
      if (rng.Int(0, 1) == 1) {
        far.x = std::nextafter(far.x, toward);
      } else {
        far.y = std::nextafter(far.y, toward);
      }
    }
    b.desc.geometry = Segment{near, far};
    b.distance = {SquaredToSegment(point, near, far), mpq_class(0)};
    b.text = Text("segment", {near.x, near.y, far.x, far.y});
  }
  const uint64_t id_a = rng.Int(0, 1) == 1 ? 3 : 6;
  const uint64_t id_b = id_a == 3 ? 6 : 3;
  a.desc.id = id_a;
  b.desc.id = id_b;
  a.desc.category_bits = b.desc.category_bits = 1;

  const int order = Compare(a.distance, b.distance);
  if (pose == 0 && order != 0) {
    *why = "the construction missed one distance (a bug in this file): A " +
           a.text + ", B " + b.text;
    return Disagreement::kOracleError;
  }
  *expected = order == 0;
  const double da = a.distance.Approx(), db = b.distance.Approx();
  *touching = da == db;
  const bool a_first = order < 0 || (order == 0 && id_a < id_b);
  const uint64_t want = a_first ? id_a : id_b;
  const double want_distance = a_first ? da : db;

  const absl::StatusOr<Level> level = Level::Create({a.desc, b.desc});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  const double max_distance = 2.0 * std::max(da, db) + 1.0;
  const std::optional<WorldClosestPoint> got =
      ClosestPoint(point, *level, max_distance);
  char text[700];
  std::snprintf(text, sizeof text,
                "; exact: shape %llu at %.17g (%s); point (%.17g, %.17g); "
                "A %s; B %s",
                static_cast<unsigned long long>(want), want_distance,
                order == 0 ? "equal" : "different", point.x, point.y,
                a.text.c_str(), b.text.c_str());
  if (!got) {
    *why = std::string("no closest point") + text;
    return Disagreement::kHitMiss;
  }
  char got_text[120];
  std::snprintf(got_text, sizeof got_text, "got shape %llu at %.17g",
                static_cast<unsigned long long>(got->shape_id), got->distance);
  if (got->shape_id != want) {
    *why = got_text + std::string(text);
    return Disagreement::kStatus;
  }
  if (std::abs(got->distance - want_distance) >
      1e-9 * std::max(1.0, want_distance)) {
    *why = std::string("distance off: ") + got_text + text;
    return Disagreement::kGeometry;
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
