// Turning families: exact-by-construction configurations (integer and
// dyadic coordinates, lattice points of one circle) shifted by 0, 1e6 or
// 1e9, where shifted coordinates stay exact.
#include "turning_families.h"

#include <cmath>
#include <functional>
#include <numbers>

#include "collide/shapes.h"
#include "tests/support/splitmix64.h"

namespace collide::oracle {
namespace {

using std::numbers::pi;
using testing::SplitMix64;

// The integer points of the circle of radius 5.
constexpr Vec2 kLattice[12] = {{5, 0},   {4, 3},  {3, 4},  {0, 5},
                               {-3, 4},  {-4, 3}, {-5, 0}, {-4, -3},
                               {-3, -4}, {0, -5}, {3, -4}, {4, -3}};

double Offset(uint64_t index) {
  constexpr double kOffsets[3] = {0.0, 1e6, 1e9};
  return kOffsets[index % 3];
}

void Shift(TurnShape* s, double offset) {
  for (Vec2& v : s->vertices) v = v + Vec2{offset, -offset};
  s->pivot = s->pivot + Vec2{offset, -offset};
}

// Counter-clockwise order as MakeConvexPolygon keeps it; false if the
// vertices do not make a strictly convex polygon.
bool MakePolygon(std::vector<Vec2> vertices, TurnShape* s) {
  absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(vertices);
  if (!p.ok()) return false;
  s->vertices.assign(p->vertices.begin(), p->vertices.begin() + p->count);
  return true;
}

int Integer(SplitMix64& rng, int lo, int hi) {
  return lo + rng.Below(hi - lo + 1);
}
Vec2 IntegerPoint(SplitMix64& rng, int lo, int hi) {
  return {static_cast<double>(Integer(rng, lo, hi)),
          static_cast<double>(Integer(rng, lo, hi))};
}
double Sign(SplitMix64& rng) { return rng.Chance(0.5) ? 1.0 : -1.0; }

// A random shape of the given kind about `center`, integer coordinates.
bool RandomShape(SplitMix64& rng, ShapeKind kind, Vec2 center, TurnShape* s) {
  s->vertices.clear();
  switch (kind) {
    case ShapeKind::kPoint:
      s->vertices = {center};
      return true;
    case ShapeKind::kCircle:
      s->vertices = {center};
      s->radius = Integer(rng, 1, 4) * 0.5;
      return true;
    case ShapeKind::kSegment:
    case ShapeKind::kCapsule:
      s->vertices = {center + IntegerPoint(rng, -3, 3),
                     center + IntegerPoint(rng, -3, 3)};
      if (kind == ShapeKind::kCapsule) s->radius = Integer(rng, 1, 3) * 0.25;
      return true;
    case ShapeKind::kPolygon: {
      std::vector<Vec2> v;
      const int n = Integer(rng, 3, 6);
      for (int i = 0; i < n; ++i)
        v.push_back(center + IntegerPoint(rng, -3, 3));
      return MakePolygon(v, s);
    }
  }
  return false;
}

ShapeKind AnyKind(SplitMix64& rng) {
  return static_cast<ShapeKind>(rng.Below(5));
}

// A blade from the hand to a lattice tip swinging about the hand; a
// triangle outside the tip's circle touching it only at a lattice vertex:
// the tip passes exactly through that vertex (or stops short of it).
bool BladeGrazesVertex(SplitMix64& rng, TurnCase* c) {
  const double k = Integer(rng, 1, 8) * 0.5;
  const Vec2 hand = IntegerPoint(rng, -20, 20);
  const int from = rng.Below(12);
  const int to = (from + 1 + rng.Below(11)) % 12;
  const Vec2 tip = kLattice[from];
  const Vec2 at = kLattice[to];
  c->a_kind = ShapeKind::kSegment;
  c->a.vertices = {hand, hand + k * tip};
  c->a.pivot = hand;
  double turn = std::atan2(Cross(tip, at), Dot(tip, at));
  if (turn < 0) turn += 2 * pi;
  const double direction = Sign(rng);
  if (direction < 0) turn = 2 * pi - turn;
  c->a.angle = direction * turn * rng.Uniform(0.8, 1.25);
  c->b_kind = ShapeKind::kPolygon;
  const Vec2 v = hand + k * at;
  return MakePolygon(
      {v, v + k * (at + LeftPerp(at)), v + k * (at + RightPerp(at))}, &c->b);
}

// A square turning about its centre whose corner's circle passes exactly
// through a vertex of a static triangle.
bool VertexThroughVertex(SplitMix64& rng, TurnCase* c) {
  const double k = Integer(rng, 1, 4) * 0.5;
  const Vec2 center = IntegerPoint(rng, -20, 20);
  const Vec2 corner = kLattice[rng.Below(12)];
  c->a_kind = ShapeKind::kPolygon;
  if (!MakePolygon({center + k * corner, center + k * LeftPerp(corner),
                    center - k * corner, center + k * RightPerp(corner)},
                   &c->a)) {
    return false;
  }
  c->a.pivot = center;
  c->a.angle = Sign(rng) * rng.Uniform(0.3, 7.0);
  c->b_kind = ShapeKind::kPolygon;
  const Vec2 v = center + k * kLattice[rng.Below(12)];
  return MakePolygon(
      {v, v + IntegerPoint(rng, -6, 6), v + IntegerPoint(rng, -6, 6)}, &c->b);
}

bool PureRotationInPlace(SplitMix64& rng, TurnCase* c) {
  const Vec2 center = IntegerPoint(rng, -20, 20);
  c->a_kind = rng.Chance(0.5) ? ShapeKind::kPolygon : ShapeKind::kCapsule;
  if (!RandomShape(rng, c->a_kind, center, &c->a)) return false;
  c->a.pivot = c->a.vertices[0];
  if (c->a_kind == ShapeKind::kPolygon) {
    Vec2 sum{};
    for (const Vec2 v : c->a.vertices) sum = sum + v;
    // The vertex mean, rounded to a dyadic of 1/8: inside or near it.
    c->a.pivot = {std::round(sum.x / c->a.vertices.size() * 8) / 8,
                  std::round(sum.y / c->a.vertices.size() * 8) / 8};
  } else {
    c->a.pivot = 0.5 * (c->a.vertices[0] + c->a.vertices[1]);
  }
  c->a.angle = Sign(rng) * rng.Uniform(0.1, 2 * pi);
  c->b_kind = AnyKind(rng);
  return RandomShape(rng, c->b_kind, center + IntegerPoint(rng, -6, 6), &c->b);
}

// An arm of radius r turning by exactly 2 pi (the double), or 2 pi plus a
// sliver, about its end, around a target within or beyond its reach.
bool FullTurn(SplitMix64& rng, TurnCase* c) {
  const Vec2 hand = IntegerPoint(rng, -20, 20);
  c->a_kind = rng.Chance(0.5) ? ShapeKind::kCapsule : ShapeKind::kSegment;
  c->a.vertices = {hand, hand + IntegerPoint(rng, -5, 5)};
  if (c->a.vertices[1] == hand) c->a.vertices[1] = hand + Vec2{3, 0};
  c->a.radius = c->a_kind == ShapeKind::kCapsule ? 0.25 : 0.0;
  c->a.pivot = hand;
  constexpr double kSliver[4] = {0.0, 1e-9, 1e-12, 0x1p-40};
  c->a.angle = Sign(rng) * (2 * pi + kSliver[rng.Below(4)]);
  c->b_kind = AnyKind(rng);
  return RandomShape(rng, c->b_kind, hand + IntegerPoint(rng, -7, 7), &c->b);
}

// Both shapes turning and translating; the mover's pivot inside, on a
// vertex of, or far outside the shape.
bool Pivots(SplitMix64& rng, TurnCase* c) {
  const Vec2 center = IntegerPoint(rng, -20, 20);
  c->a_kind = AnyKind(rng);
  c->b_kind = AnyKind(rng);
  if (!RandomShape(rng, c->a_kind, center, &c->a)) return false;
  if (!RandomShape(rng, c->b_kind, center + IntegerPoint(rng, -8, 8), &c->b)) {
    return false;
  }
  switch (rng.Below(3)) {
    case 0:
      c->a.pivot = center;
      break;
    case 1:
      c->a.pivot = c->a.vertices[rng.Below(c->a.vertices.size())];
      break;
    default:
      c->a.pivot = center + IntegerPoint(rng, -30, 30);
  }
  c->b.pivot = c->b.vertices[0] + IntegerPoint(rng, -2, 2);
  c->a.angle = Sign(rng) * rng.Uniform(0.05, 4.0);
  c->b.angle = rng.Chance(0.5) ? 0.0 : Sign(rng) * rng.Uniform(0.05, 2.0);
  c->a.translation = IntegerPoint(rng, -6, 6);
  c->b.translation = IntegerPoint(rng, -2, 2);
  return true;
}

// A box resting exactly on a floor (a segment or a polygon's top edge),
// or on one corner of it, turning about a bottom corner into, along or
// away from the floor.
bool TouchingStart(SplitMix64& rng, TurnCase* c) {
  const Vec2 base = IntegerPoint(rng, -20, 20);
  const double w = Integer(rng, 1, 4);
  const double h = Integer(rng, 1, 4);
  c->a_kind = ShapeKind::kPolygon;
  if (!MakePolygon(
          {base, base + Vec2{w, 0}, base + Vec2{w, h}, base + Vec2{0, h}},
          &c->a)) {
    return false;
  }
  // A bottom corner (which stays on the floor), or a point off the box
  // (both corners lift, or one digs in).
  switch (rng.Below(3)) {
    case 0:
      c->a.pivot = base;
      break;
    case 1:
      c->a.pivot = base + Vec2{w, 0};
      break;
    default:
      c->a.pivot = base + IntegerPoint(rng, -4, 6);
  }
  c->a.angle = Sign(rng) * rng.Uniform(0.01, 1.0);
  switch (rng.Below(4)) {
    case 0:
      c->a.translation = {Sign(rng) * Integer(rng, 1, 4), 0};  // along
      break;
    case 1:
      c->a.translation = {0, Sign(rng) * Integer(rng, 1, 4)};  // away, in
      break;
    default:
      break;
  }
  const double x0 = base.x - Integer(rng, 0, 5);
  const double x1 = base.x + w + Integer(rng, 0, 5);
  if (rng.Chance(0.5)) {
    c->b_kind = ShapeKind::kSegment;
    c->b.vertices = {{x0, base.y}, {x1, base.y}};
    return true;
  }
  c->b_kind = ShapeKind::kPolygon;
  return MakePolygon(
      {{x0, base.y - 2}, {x1, base.y - 2}, {x1, base.y}, {x0, base.y}}, &c->b);
}

// A triangle turning a little about its lowest vertex while that vertex
// translates onto a floor exactly at max_fraction (0.5, 0.75 or 1).
bool ContactAtMaxFraction(SplitMix64& rng, TurnCase* c) {
  constexpr double kMax[3] = {0.5, 0.75, 1.0};
  constexpr double kHeight[3] = {1.0, 3.0, 2.0};
  const int m = rng.Below(3);
  c->max_fraction = kMax[m];
  const Vec2 v{static_cast<double>(Integer(rng, -20, 20)), kHeight[m]};
  c->a_kind = ShapeKind::kPolygon;
  if (!MakePolygon({v, v + Vec2{1, 2}, v + Vec2{-1, 2}}, &c->a)) return false;
  c->a.pivot = v;
  c->a.angle = Sign(rng) * rng.Uniform(0.0, 0.4);
  c->a.translation = {static_cast<double>(Integer(rng, -3, 3)),
                      -kHeight[m] / kMax[m]};
  c->b_kind = rng.Chance(0.5) ? ShapeKind::kSegment : ShapeKind::kCapsule;
  c->b.vertices = {{-40, 0}, {40, 0}};
  if (c->b_kind == ShapeKind::kCapsule) {
    // The same floor surface: a capsule of radius 1 one unit lower.
    c->b.vertices = {{-40, -1}, {40, -1}};
    c->b.radius = 1.0;
  }
  return true;
}

bool RandomPairs(SplitMix64& rng, TurnCase* c) {
  const Vec2 center = IntegerPoint(rng, -20, 20);
  c->a_kind = AnyKind(rng);
  c->b_kind = AnyKind(rng);
  if (!RandomShape(rng, c->a_kind, center, &c->a)) return false;
  if (!RandomShape(rng, c->b_kind, center + IntegerPoint(rng, -10, 10),
                   &c->b)) {
    return false;
  }
  c->a.pivot = center + IntegerPoint(rng, -4, 4);
  c->b.pivot = c->b.vertices[0];
  c->a.angle = rng.Uniform(-6.0, 6.0);
  c->b.angle = rng.Chance(0.5) ? 0.0 : rng.Uniform(-3.0, 3.0);
  c->a.translation = IntegerPoint(rng, -10, 10);
  c->b.translation = IntegerPoint(rng, -3, 3);
  return true;
}

using Generator = bool (*)(SplitMix64&, TurnCase*);
struct Family {
  const char* name;
  Generator make;
};
constexpr Family kFamilies[] = {
    {"blade-grazes-vertex", BladeGrazesVertex},
    {"vertex-through-vertex", VertexThroughVertex},
    {"contact-at-max-fraction", ContactAtMaxFraction},
    {"pure-rotation-in-place", PureRotationInPlace},
    {"full-turn-2pi", FullTurn},
    {"pivot-inside-on-outside", Pivots},
    {"touching-start", TouchingStart},
    {"random-pairs", RandomPairs},
};

template <typename Shape>
Turning<Shape> Typed(const Shape& shape, const TurnShape& s) {
  return Turning<Shape>{shape, s.translation, s.angle, s.pivot};
}

template <typename F>
TurnResult WithShape(ShapeKind kind, const TurnShape& s, F f) {
  switch (kind) {
    case ShapeKind::kPoint:
      return f(Typed(s.vertices[0], s));
    case ShapeKind::kSegment:
      return f(Typed(Segment{s.vertices[0], s.vertices[1]}, s));
    case ShapeKind::kCircle:
      return f(Typed(Circle{s.vertices[0], s.radius}, s));
    case ShapeKind::kCapsule:
      return f(Typed(Capsule{s.vertices[0], s.vertices[1], s.radius}, s));
    case ShapeKind::kPolygon:
      break;
  }
  return f(Typed(*MakeConvexPolygon(s.vertices), s));
}

}  // namespace

const std::vector<std::string>& TurningFamilyNames() {
  static const std::vector<std::string>* names = [] {
    auto* v = new std::vector<std::string>;
    for (const Family& f : kFamilies) v->push_back(f.name);
    return v;
  }();
  return *names;
}

bool MakeTurningCase(const std::string& family, uint64_t index, TurnCase* out) {
  for (const Family& f : kFamilies) {
    if (family != f.name) continue;
    // A rejected draw (a degenerate polygon) moves on to the next seed.
    for (uint64_t attempt = 0;; ++attempt) {
      SplitMix64 rng(index * 1000003u + attempt * 7919u + 17u);
      TurnCase c;
      if (!f.make(rng, &c)) continue;
      Shift(&c.a, Offset(index));
      Shift(&c.b, Offset(index));
      *out = c;
      return true;
    }
  }
  return false;
}

TurnResult RunService(const TurnCase& c) {
  const TurnOptions options{.max_fraction = c.max_fraction};
  return WithShape(c.a_kind, c.a, [&](const auto& a) {
    return WithShape(c.b_kind, c.b,
                     [&](const auto& b) { return CastTurning(a, b, options); });
  });
}

std::function<TurnResult()> BindService(const TurnCase& c) {
  const TurnOptions options{.max_fraction = c.max_fraction};
  std::function<TurnResult()> bound;
  WithShape(c.a_kind, c.a, [&](const auto& a) {
    return WithShape(c.b_kind, c.b, [&](const auto& b) {
      bound = [a, b, options] { return CastTurning(a, b, options); };
      return TurnResult{};
    });
  });
  return bound;
}

Verdict Compare(const TurnResult& s, const OracleAnswer& o) {
  Verdict v;
  if (o.judged_from > 0.0 && s.fraction_hi < o.judged_from &&
      s.status != TurnStatus::kMiss) {
    // A contact the service places before the oracle's window.
    v.oracle_certain = false;
    return v;
  }
  v.oracle_certain = o.kind == OracleKind::kHit || o.kind == OracleKind::kMiss;
  switch (s.status) {
    case TurnStatus::kMiss:
      v.disagree = o.kind == OracleKind::kHit || o.kind == OracleKind::kNear;
      break;
    case TurnStatus::kHit:
    case TurnStatus::kInitialOverlap:
      v.width = s.fraction_hi - s.fraction_lo;
      v.disagree = v.width > kTurnBracketWidth || o.kind == OracleKind::kMiss ||
                   s.fraction_hi < o.lo ||
                   (o.kind == OracleKind::kHit && s.fraction_lo > o.hi);
      break;
    case TurnStatus::kNearContact:
    case TurnStatus::kUndecided:
      // Not wrong unless it skipped a contact or a near-zero gap the
      // oracle found: the service certified disjoint on [0, lo).
      v.disagree = (o.kind == OracleKind::kHit && s.fraction_lo > o.hi) ||
                   (o.kind == OracleKind::kNear && s.fraction_lo > o.lo);
      break;
  }
  return v;
}

}  // namespace collide::oracle
