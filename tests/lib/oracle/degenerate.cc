#include "degenerate.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "scene_support.h"

namespace collide::oracle {

const char* ConstructionName(Construction c) {
  switch (c) {
    case Construction::kInteger:
      return "integer";
    case Construction::kGraze:
      return "graze";
    case Construction::kVertexAim:
      return "vertex-aim";
    case Construction::kCollinear:
      return "collinear";
    case Construction::kTouching:
      return "touching";
    case Construction::kEndOnSurface:
      return "end-on-surface";
    case Construction::kNearParallel:
      return "near-parallel";
    case Construction::kLong:
      return "long";
    case Construction::kTinyReach:
      return "tiny-reach";
    case Construction::kShortSweep:
      return "short-sweep";
    case Construction::kSubnormal:
      return "subnormal";
    case Construction::kNearReach:
      return "near-reach";
    case Construction::kCount:
      break;
  }
  return "?";
}

const char* DisagreementName(Disagreement d) {
  switch (d) {
    case Disagreement::kNone:
      return "none";
    case Disagreement::kHitMiss:
      return "hit/miss";
    case Disagreement::kStatus:
      return "status";
    case Disagreement::kFraction:
      return "fraction";
    case Disagreement::kFeature:
      return "feature";
    case Disagreement::kGeometry:
      return "geometry";
    case Disagreement::kOracleError:
      return "oracle-error";
    case Disagreement::kSkipped:
      return "no-verdict";
    case Disagreement::kCount:
      break;
  }
  return "?";
}

const std::vector<DegenerateFamily>& DegenerateFamilies() {
  using M = MoverKind;
  using O = ObstacleKind;
  static const std::vector<DegenerateFamily> families{
      {"ray-segment", M::kRay, O::kSegment, false, false, 0xde9001},
      {"ray-circle", M::kRay, O::kCircle, false, false, 0xde9002},
      {"ray-capsule", M::kRay, O::kCapsule, false, false, 0xde9003},
      {"ray-polygon", M::kRay, O::kPolygon, false, false, 0xde9004},
      {"ray-concave", M::kRay, O::kConcave, false, false, 0xde9005},
      {"circle-segment", M::kCircle, O::kSegment, false, false, 0xde9011},
      {"circle-circle", M::kCircle, O::kCircle, false, false, 0xde9012},
      {"circle-capsule", M::kCircle, O::kCapsule, false, false, 0xde9013},
      {"circle-polygon", M::kCircle, O::kPolygon, false, false, 0xde9014},
      {"circle-concave", M::kCircle, O::kConcave, false, false, 0xde9015},
      {"capsule-segment", M::kCapsule, O::kSegment, false, false, 0xde9021},
      {"capsule-circle", M::kCapsule, O::kCircle, false, false, 0xde9022},
      {"capsule-capsule", M::kCapsule, O::kCapsule, false, false, 0xde9023},
      {"capsule-polygon", M::kCapsule, O::kPolygon, false, false, 0xde9024},
      {"capsule-concave", M::kCapsule, O::kConcave, false, false, 0xde9025},
      {"polygon-segment", M::kPolygon, O::kSegment, false, false, 0xde9031},
      {"polygon-circle", M::kPolygon, O::kCircle, false, false, 0xde9032},
      {"polygon-capsule", M::kPolygon, O::kCapsule, false, false, 0xde9033},
      {"polygon-polygon", M::kPolygon, O::kPolygon, false, false, 0xde9034},
      {"polygon-concave", M::kPolygon, O::kConcave, false, false, 0xde9035},
      {"pair-circle-circle", M::kCircle, O::kCircle, true, false, 0xde9041},
      {"pair-point-segment", M::kRay, O::kSegment, true, false, 0xde9042},
      {"pair-point-deforming", M::kRay, O::kSegment, false, true, 0xde9043},
      {"pair-polygon-polygon", M::kPolygon, O::kPolygon, true, false, 0xde9044},
      {"pair-capsule-polygon", M::kCapsule, O::kPolygon, true, false, 0xde9045},
      {"pair-polygon-capsule", M::kPolygon, O::kCapsule, true, false, 0xde9046},
      {"pair-circle-polygon", M::kCircle, O::kPolygon, true, false, 0xde9047},
      {"pair-polygon-segment", M::kPolygon, O::kSegment, true, false, 0xde9048},
      {"pair-polygon-concave", M::kPolygon, O::kConcave, true, false, 0xde9049},
      {"pair-circle-concave", M::kCircle, O::kConcave, true, false, 0xde904a},
      {"graze-circle-segment", M::kCircle, O::kSegment, false, false, 0xde9051,
       Query::kCast, true},
      {"graze-circle-capsule", M::kCircle, O::kCapsule, false, false, 0xde9052,
       Query::kCast, true},
      {"graze-capsule-segment", M::kCapsule, O::kSegment, false, false,
       0xde9053, Query::kCast, true},
      {"graze-capsule-capsule", M::kCapsule, O::kCapsule, false, false,
       0xde9054, Query::kCast, true},
      {"graze-circle-polygon", M::kCircle, O::kPolygon, false, false, 0xde9055,
       Query::kCast, true},
      {"graze-capsule-polygon", M::kCapsule, O::kPolygon, false, false,
       0xde9056, Query::kCast, true},
      {"vertex-far-polygon-polygon", M::kPolygon, O::kPolygon, false, false,
       0xde9061, Query::kCast, false, false, true},
      {"vertex-far-pair-polygon-polygon", M::kPolygon, O::kPolygon, true, false,
       0xde9062, Query::kCast, false, false, true},
  };
  return families;
}

namespace {

// ---------------------------------------------------------------------------
// The local frame: small integers (and dyadic fractions of them).

struct Local {
  std::vector<Vec2> m;  // mover core points
  double mr = 0.0;      // mover radius
  std::vector<Vec2> o;  // obstacle core points (polygon outline)
  double orad = 0.0;
  Vec2 d;   // mover translation relative to the obstacle
  Vec2 od;  // obstacle translation
  double max_fraction = 1.0;
  double target = 0.0;
  bool stop = false;
  bool long_graze = false;   // the family's long_grazes
  bool touching_in = false;  // the family's touching_in
  bool edge_end = false;     // the family's edge_ends_far
};

double Int(Rng& rng, int lo, int hi) {
  return static_cast<double>(rng.Int(lo, hi));
}

Vec2 IntVec(Rng& rng, int lo, int hi) {
  return {Int(rng, lo, hi), Int(rng, lo, hi)};
}

double Support(const std::vector<Vec2>& pts, double radius, Vec2 n) {
  double m = -std::numeric_limits<double>::infinity();
  for (Vec2 p : pts) m = std::max(m, Dot(p, n));
  return m + radius;
}

void Shift(std::vector<Vec2>& pts, Vec2 s) {
  for (Vec2& p : pts) p = p + s;
}

std::vector<Vec2> Turn(std::vector<Vec2> v, int quarter) {
  for (Vec2& p : v) {
    for (int i = 0; i < quarter; ++i) p = {-p.y, p.x};
  }
  return v;
}

void MakeObstacle(ObstacleKind kind, Rng& rng, Local* l) {
  auto segment = [&]() -> std::vector<Vec2> {
    const int pick = rng.Int(0, 9);
    if (pick == 0) {  // zero length
      const Vec2 p = IntVec(rng, -3, 3);
      return {p, p};
    }
    if (pick <= 3) {  // horizontal
      return {{Int(rng, -8, -1), 0}, {Int(rng, 1, 8), 0}};
    }
    if (pick <= 5) {  // vertical
      return {{0, Int(rng, -8, -1)}, {0, Int(rng, 1, 8)}};
    }
    Vec2 a = IntVec(rng, -8, 8), b = IntVec(rng, -8, 8);
    if (a.x == b.x && a.y == b.y) b.x += 1;
    return {a, b};
  };
  switch (kind) {
    case ObstacleKind::kPoint:
      l->o = {IntVec(rng, -2, 2)};
      break;
    case ObstacleKind::kSegment:
      l->o = segment();
      break;
    case ObstacleKind::kCircle:
      l->o = {IntVec(rng, -2, 2)};
      l->orad = rng.Chance(0.1) ? 0.0 : Int(rng, 1, 8);
      break;
    case ObstacleKind::kCapsule:
      l->o = segment();
      l->orad = rng.Chance(0.1) ? 0.0 : Int(rng, 1, 4);
      break;
    case ObstacleKind::kPolygon: {
      const double w = Int(rng, 1, 8), h = Int(rng, 1, 8);
      switch (rng.Int(0, 4)) {
        case 0:  // box
          l->o = {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
          break;
        case 1:  // triangle with a top vertex
          l->o = {{-w, -h}, {w, -h}, {Int(rng, -3, 3), h}};
          break;
        case 2: {  // trapezoid
          const double s = Int(rng, 1, 4);
          l->o = {{-w - s, -h}, {w + s, -h}, {w, h}, {-w, h}};
          break;
        }
        case 3:  // diamond
          l->o = {{0, -h}, {w, 0}, {0, h}, {-w, 0}};
          break;
        default:  // octagon-ish
          l->o = {{-w, -2 * h}, {w, -2 * h}, {2 * w, -h}, {2 * w, h},
                  {w, 2 * h},   {-w, 2 * h}, {-2 * w, h}, {-2 * w, -h}};
          break;
      }
      l->o = Turn(std::move(l->o), rng.Int(0, 3));
      break;
    }
    case ObstacleKind::kConcave: {
      const double w = Int(rng, 2, 8), h = Int(rng, 2, 8);
      const double t = Int(rng, 1, static_cast<int>(std::min(w, h)) - 1);
      switch (rng.Int(0, 2)) {
        case 0:  // L
          l->o = {{-w, -h},         {w, -h},     {w, -h + t},
                  {-w + t, -h + t}, {-w + t, h}, {-w, h}};
          break;
        case 1:  // U (a pocket open upwards)
          l->o = {{-w, -h},        {w, -h},          {w, h},      {w - t, h},
                  {w - t, -h + t}, {-w + t, -h + t}, {-w + t, h}, {-w, h}};
          break;
        default:  // arrow / chevron
          l->o = {{-w, -h}, {0, -h + t}, {w, -h}, {0, h}};
          break;
      }
      l->o = Turn(std::move(l->o), rng.Int(0, 3));
      if (rng.Chance(0.5)) std::reverse(l->o.begin(), l->o.end());
      break;
    }
  }
}

void MakeMover(MoverKind kind, Rng& rng, Local* l) {
  switch (kind) {
    case MoverKind::kRay:
      l->m = {{0, 0}};
      break;
    case MoverKind::kCircle:
      l->m = {{0, 0}};
      l->mr = rng.Chance(0.1) ? 0.0 : Int(rng, 1, 4);
      break;
    case MoverKind::kCapsule: {
      Vec2 b = IntVec(rng, -3, 3);
      if (rng.Chance(0.3)) b = {Int(rng, -3, 3), 0};
      if (rng.Chance(0.05)) b = {};
      l->m = {{0, 0}, b};
      l->mr = rng.Chance(0.05) ? 0.0 : Int(rng, 1, 3);
      break;
    }
    case MoverKind::kPolygon: {
      const double w = Int(rng, 1, 3), h = Int(rng, 1, 3);
      switch (rng.Int(0, 2)) {
        case 0:
          l->m = {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
          break;
        case 1:
          l->m = {{-w, -h}, {w, -h}, {0, h}};
          break;
        default:
          l->m = {{0, -h}, {w, 0}, {0, h}, {-w, 0}};
          break;
      }
      l->m = Turn(std::move(l->m), rng.Int(0, 3));
      break;
    }
  }
}

const Vec2 kAxes[4] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

// Places the mover exactly touching the obstacle from the side n (supports
// along n meet), at a lateral position along u that may or may not overlap.
void PlaceTouching(Rng& rng, Vec2 n, Vec2 u, double gap, Local* l) {
  const double normal =
      Support(l->o, l->orad, n) + gap + Support(l->m, l->mr, -n);
  const double lo = -Support(l->o, l->orad, -u) - Support(l->m, l->mr, u);
  const double hi = Support(l->o, l->orad, u) + Support(l->m, l->mr, -u);
  // Integers from just outside to just inside the lateral overlap; the ends
  // put corners on corners.
  double lateral;
  switch (rng.Int(0, 3)) {
    case 0:
      lateral = lo;
      break;
    case 1:
      lateral = hi;
      break;
    default:
      lateral =
          std::floor(lo) +
          Int(rng, -1, static_cast<int>(std::ceil(hi) - std::floor(lo)) + 1);
      break;
  }
  Shift(l->m, normal * n + lateral * u);
}

// An edge of the obstacle's core (false for a single point).
bool PickEdge(Rng& rng, const Local& l, Vec2* a, Vec2* b) {
  if (l.o.size() < 2) return false;
  const int n = static_cast<int>(l.o.size());
  const int i = rng.Int(0, n == 2 ? 0 : n - 1);
  *a = l.o[i];
  *b = l.o[(i + 1) % n];
  return a->x != b->x || a->y != b->y;
}

const double kDyadic[] = {-2.0, -1.0, 0.0, 0.25, 0.5, 1.0, 2.0};

// Twice the signed area of a polygon outline (> 0 counter-clockwise).
double TwiceArea(const std::vector<Vec2>& v) {
  double a = 0.0;
  for (size_t i = 0; i < v.size(); ++i) {
    a += Cross(v[i], v[(i + 1) % v.size()]);
  }
  return a;
}

// A vertex of one polygon (mover or obstacle) meeting an edge of the other
// at t = 1/2, at lambda of the way along the edge: at or near an end (0,
// 1/16, 1/8, 1/4 from either), or 1/16 past it (the edge's corner or
// nothing is then met). The motion goes into the edge, tilted along it by
// -1/2..1/2 of its length. Which of the polygons' features meets first is
// the oracle's to say.
void AimAtAnEdgeEnd(Rng& rng, Local* l) {
  static constexpr double kLambdas[] = {-0.0625, 0.0,   0.0625, 0.125, 0.25,
                                        0.75,    0.875, 0.9375, 1.0,   1.0625};
  static constexpr double kTilts[] = {-0.5, -0.25, 0.0, 0.25, 0.5};
  const bool mover_vertex = rng.Chance(0.5);
  const std::vector<Vec2>& vs = mover_vertex ? l->m : l->o;
  const std::vector<Vec2>& es = mover_vertex ? l->o : l->m;
  const int n = static_cast<int>(es.size());
  const int i = rng.Int(0, n - 1);
  const Vec2 a = es[i], b = es[(i + 1) % n];
  const Vec2 e = b - a;
  // The edge's outward normal (unnormalized).
  const Vec2 out = TwiceArea(es) > 0 ? Vec2{e.y, -e.x} : Vec2{-e.y, e.x};
  const Vec2 q = a + kLambdas[rng.Int(0, 9)] * e;
  const Vec2 v = vs[rng.Int(0, static_cast<int>(vs.size()) - 1)];
  const Vec2 w = Int(rng, 1, 2) * out + kTilts[rng.Int(0, 4)] * e;
  // Relative motion of the mover: into the obstacle's edge, or its own
  // edge onto the obstacle's vertex.
  l->d = mover_vertex ? -1.0 * w : w;
  Shift(l->m, mover_vertex ? q - v - 0.5 * l->d : v - q - 0.5 * l->d);
}

void Construct(Construction kind, Rng& rng, Local* l) {
  const int axis = rng.Int(0, 3);
  const Vec2 n = kAxes[axis];
  const Vec2 u = kAxes[(axis + (rng.Chance(0.5) ? 1 : 3)) % 4];
  switch (kind) {
    case Construction::kInteger: {
      Shift(l->m, IntVec(rng, -12, 12));
      l->d = rng.Chance(0.05) ? Vec2{} : IntVec(rng, -16, 16);
      break;
    }
    case Construction::kGraze: {
      if (rng.Chance(0.15)) l->target = Int(rng, 1, 2);
      const double normal =
          Support(l->o, l->orad, n) + l->target + Support(l->m, l->mr, -n);
      const double g = Int(rng, 1, 4);
      const double along =
          -Support(l->o, l->orad, -u) - Support(l->m, l->mr, u) - g;
      Shift(l->m, normal * n + along * u);
      const double span = Support(l->o, l->orad, u) +
                          Support(l->o, l->orad, -u) + Support(l->m, l->mr, u) +
                          Support(l->m, l->mr, -u);
      l->d = (span + g * Int(rng, 1, 3)) * u;
      break;
    }
    case Construction::kVertexAim: {
      if (l->edge_end) {
        AimAtAnEdgeEnd(rng, l);
        break;
      }
      const Vec2 v = l->o[rng.Int(0, static_cast<int>(l->o.size()) - 1)];
      const Vec2 target = v + l->orad * n;  // on the obstacle's surface
      const Vec2 p = l->m[rng.Int(0, static_cast<int>(l->m.size()) - 1)];
      Vec2 w = IntVec(rng, -6, 6);
      if (w.x == 0 && w.y == 0) w = -n;
      if (l->mr > 0) w = -n * Int(rng, 1, 6);  // the leading point is exact
      const Vec2 lead = p - l->mr * n;         // the leading point
      // The leading point reaches the target at t = 1 / q.
      const double q = std::ldexp(1.0, rng.Int(0, 2));
      Shift(l->m, target - lead - w);
      l->d = q * w;
      break;
    }
    case Construction::kCollinear:
    case Construction::kNearParallel: {
      if (kind == Construction::kNearParallel && l->long_graze) {
        // Touching at t = 1/2 after a sweep of 2^10..2^30 along the
        // surface, closing on it by 1 to 3 units over the whole sweep: the
        // side's rate a tiny share of the motion, which a rounded rate
        // would spoil.
        PlaceTouching(rng, n, u, 0.0, l);
        const double len = std::ldexp(1.0, rng.Int(10, 30));
        l->d = (rng.Chance(0.5) ? len : -len) * u - Int(rng, 1, 3) * n;
        Shift(l->m, -0.5 * l->d);
        break;
      }
      Vec2 a, b;
      if (!PickEdge(rng, *l, &a, &b)) {
        Construct(Construction::kGraze, rng, l);
        return;
      }
      const Vec2 e = b - a;
      const Vec2 p = l->m[rng.Int(0, static_cast<int>(l->m.size()) - 1)];
      if (kind == Construction::kCollinear) {
        const double lambda = kDyadic[rng.Int(0, 6)];
        Vec2 side{};
        const bool axis_aligned = e.x == 0 || e.y == 0;
        if (axis_aligned && rng.Chance(0.7)) {
          const double len = std::abs(e.x) + std::abs(e.y);
          const Vec2 perp{-e.y / len, e.x / len};
          side = (rng.Chance(0.5) ? 1.0 : -1.0) * (l->mr + l->orad) * perp;
        }
        Shift(l->m, a + lambda * e + side - p);
        l->d = (rng.Chance(0.5) ? 1.0 : -1.0) * kDyadic[rng.Int(3, 6)] * e;
        if (l->d.x == 0 && l->d.y == 0) l->d = e;
      } else {
        // Crossing the edge's midpoint at t = 1/2 along e * 2^s + a small
        // integer skew.
        const Vec2 x = a + 0.5 * e;
        Vec2 skew = IntVec(rng, -1, 1);
        if (skew.x == 0 && skew.y == 0) skew = {1, 0};
        const Vec2 w = std::ldexp(1.0, rng.Int(3, 24)) * e + skew;
        Shift(l->m, x - 0.5 * w - p);
        l->d = w;
      }
      break;
    }
    case Construction::kTouching: {
      if (l->touching_in) {
        PlaceTouching(rng, n, u, 0.0, l);
        l->d = -Int(rng, 1, 4) * n + Int(rng, -6, 6) * u;
        break;
      }
      // One in five starts inside the skin (or exactly at its edge) instead
      // of touching: kHit at 0 when moving closer, no hit otherwise.
      double gap = 0.0;
      if (rng.Chance(0.2)) {
        l->target = Int(rng, 1, 3);
        gap = Int(rng, 1, static_cast<int>(l->target));
      }
      PlaceTouching(rng, n, u, gap, l);
      const double a = Int(rng, 1, 4), b = Int(rng, -6, 6);
      switch (rng.Int(0, 3)) {
        case 0:
          l->d = -a * n + b * u;  // in
          break;
        case 1:
          l->d = (b == 0 ? 1.0 : b) * u;  // along
          break;
        case 2:
          l->d = a * n + b * u;  // away
          break;
        default:
          l->d = a * n + Int(rng, 8, 64) * (rng.Chance(0.5) ? u : -u);
          break;  // away, nearly along
      }
      break;
    }
    case Construction::kEndOnSurface: {
      PlaceTouching(rng, n, u, 0.0, l);
      static constexpr double kFractions[] = {1.0, 1.0, 0.5, 0.75, 0.25};
      const double f = kFractions[rng.Int(0, 4)];
      l->d = -Int(rng, 1, 4) * n + Int(rng, -3, 3) * u;
      Shift(l->m, -f * l->d);
      l->max_fraction = f;
      break;
    }
    case Construction::kLong: {
      PlaceTouching(rng, n, u, Int(rng, 1, 8), l);
      const double len =
          rng.Chance(0.3) ? 1e15 : std::ldexp(1.0, rng.Int(30, 52));
      l->d = -len * n + (rng.Chance(0.3) ? Int(rng, -3, 3) : 0.0) * u;
      break;
    }
    case Construction::kTinyReach:
    case Construction::kNearReach:
      PlaceTouching(rng, n, u, 0.0, l);
      l->d = -Int(rng, 1, 4) * n + Int(rng, -3, 3) * u;
      break;
    case Construction::kShortSweep: {
      PlaceTouching(rng, n, u, 0.0, l);
      const double scale = std::ldexp(1.0, -rng.Int(20, 40));
      l->d = scale * (-Int(rng, 1, 4) * n + Int(rng, -3, 3) * u);
      Shift(l->m, -0.5 * l->d);
      break;
    }
    case Construction::kSubnormal: {
      // A motion along an axis (in the local frame) for
      // GenerateDegenerate to tilt by a subnormal.
      static constexpr Construction kAlong[] = {
          Construction::kGraze, Construction::kTouching,
          Construction::kCollinear, Construction::kEndOnSurface};
      Construct(kAlong[rng.Int(0, 3)], rng, l);
      break;
    }
    case Construction::kCount:
      std::abort();
  }
}

// A subnormal of a few significant bits, either sign: the smallest
// translation component a caller can send short of 0.
double SubnormalComponent(Rng& rng) {
  const double magnitude =
      rng.Chance(0.2) ? 0x1p-1064 : Int(rng, 1, 3) * 0x1p-1074;
  return rng.Chance(0.5) ? magnitude : -magnitude;
}

// Tilts one zero component of the translation by a subnormal; false when
// neither is 0.
bool TiltByASubnormal(Rng& rng, Vec2* translation) {
  double* zero[2];
  int count = 0;
  if (translation->x == 0.0) zero[count++] = &translation->x;
  if (translation->y == 0.0) zero[count++] = &translation->y;
  if (count == 0) return false;
  *zero[rng.Int(0, count - 1)] = SubnormalComponent(rng);
  return true;
}

// ---------------------------------------------------------------------------
// The similarity into world coordinates.

struct Frame {
  double a = 1, b = 0, c = 1;
  bool reflect = false;
  int e = 0;
  Vec2 offset;
};

Vec2 FV(const Frame& f, Vec2 v) {
  const double x = v.x, y = f.reflect ? -v.y : v.y;
  return {std::ldexp(f.a * x - f.b * y, f.e),
          std::ldexp(f.b * x + f.a * y, f.e)};
}
double FL(const Frame& f, double l) { return std::ldexp(l * f.c, f.e); }

bool ExactWith(double x, double off) { return (x + off) - off == x; }

Frame RandomFrame(Rng& rng) {
  static constexpr int kTriples[][3] = {{1, 0, 1},   {0, 1, 1},    {-1, 0, 1},
                                        {0, -1, 1},  {3, 4, 5},    {4, -3, 5},
                                        {5, 12, 13}, {-12, 5, 13}, {8, 15, 17}};
  Frame f;
  const auto& t = kTriples[rng.Chance(0.5) ? rng.Int(0, 3) : rng.Int(4, 8)];
  f.a = t[0];
  f.b = t[1];
  f.c = t[2];
  f.reflect = rng.Chance(0.5);
  // One frame in ten is at an end of the service's range: coordinates near
  // 2^120..2^140 (the longest translations near 2^192, within the 1e60
  // bound), where the forms of degree 6 to 12 leave double's range, or near
  // 2^-190..2^-199, just above the least magnitude the service takes
  // (formats' kMinCoordinate, 1e-60), where the short sweeps' and subnormal
  // constructions' products of four lengths come near the bottom of
  // double's normal range. The far ones take the offsets too: the big
  // coordinates absorb them, a local 0 keeps them, so a shape's own
  // coordinates span 2^110 (1e9 beside 2^140) and its edges tilt off their
  // rounded directions by far less than a rounding. The tiny ones do not:
  // an offset there is the whole coordinate. A scene drawn far below 1e-60
  // (at 2^-1000, squares underflowing) is refused by the service and not
  // exact in lib/.
  if (rng.Chance(0.1)) {
    static constexpr int kEnds[] = {120, 140, -190, -199};
    f.e = kEnds[rng.Int(0, 3)];
    if (f.e < 0) return f;
  } else {
    f.e = rng.Chance(0.4) ? 0 : rng.Int(-12, 12);
  }
  static constexpr double kOffsets[] = {0.0, 1e6, 1e9};
  const double off = kOffsets[rng.Int(0, 2)];
  if (off != 0.0) {
    switch (rng.Int(0, 2)) {
      case 0:
        f.offset = {off, 0};
        break;
      case 1:
        f.offset = {0, -off};
        break;
      default:
        f.offset = {-off, off};
        break;
    }
  }
  return f;
}

std::optional<ConvexPolygon> Polygon(const std::vector<Vec2>& v) {
  absl::StatusOr<ConvexPolygon> p = MakeConvexPolygon(v);
  if (!p.ok()) return std::nullopt;
  return *p;
}

// World points of a local point set; false if the offset is not exact.
bool Map(const Frame& f, const std::vector<Vec2>& in, std::vector<Vec2>* out) {
  out->clear();
  for (Vec2 p : in) {
    const Vec2 v = FV(f, p);
    if (!ExactWith(v.x, f.offset.x) || !ExactWith(v.y, f.offset.y)) {
      return false;
    }
    out->push_back(v + f.offset);
  }
  return true;
}

bool BuildScene(const DegenerateFamily& fam, const Local& l, const Frame& f,
                Scene* s) {
  *s = Scene{};
  s->mover_kind = fam.mover;
  s->obstacle_kind = fam.obstacle;
  s->moving_obstacle = fam.moving;
  std::vector<Vec2> m, o;
  if (!Map(f, l.m, &m) || !Map(f, l.o, &o)) return false;
  switch (fam.mover) {
    case MoverKind::kRay:
      s->ray_origin = m[0];
      break;
    case MoverKind::kCircle:
      s->circle = {m[0], FL(f, l.mr)};
      break;
    case MoverKind::kCapsule:
      s->capsule = {m[0], m[1], FL(f, l.mr)};
      break;
    case MoverKind::kPolygon: {
      const std::optional<ConvexPolygon> p = Polygon(m);
      if (!p) return false;
      s->polygon = *p;
      break;
    }
  }
  switch (fam.obstacle) {
    case ObstacleKind::kPoint:
      s->point = o[0];
      break;
    case ObstacleKind::kSegment:
      s->segment = {o[0], o[1]};
      break;
    case ObstacleKind::kCircle:
      s->obstacle_circle = {o[0], FL(f, l.orad)};
      break;
    case ObstacleKind::kCapsule:
      s->obstacle_capsule = {o[0], o[1], FL(f, l.orad)};
      break;
    case ObstacleKind::kPolygon: {
      const std::optional<ConvexPolygon> p = Polygon(o);
      if (!p) return false;
      s->obstacle_polygon = *p;
      break;
    }
    case ObstacleKind::kConcave:
      if (!MakeConcavePolygon(o).ok()) return false;
      s->concave = o;
      break;
  }
  const Vec2 od = fam.moving ? FV(f, l.od) : Vec2{};
  s->obstacle_translation = od;
  s->translation = FV(f, l.d) + od;
  if (fam.moving && !(s->translation - od == FV(f, l.d))) return false;
  s->options.max_fraction = l.max_fraction;
  s->options.target_distance = FL(f, l.target);
  s->options.stop_at_penetration = l.stop;
  return true;
}

// One unit in the last place of the largest coordinate of the mover.
bool Nudge(Rng& rng, Scene* s) {
  const Core core = MoverCore(*s);
  double big = 0.0;
  for (Vec2 p : core.points)
    big = std::max({big, std::abs(p.x), std::abs(p.y)});
  // At the origin one ulp would be subnormal: the oracle scales every input
  // to an integer, which needs exponents within double range.
  if (big == 0.0) return false;
  int e = 0;
  std::frexp(big, &e);
  const double ulp = std::ldexp(1.0, e - 53);
  const Vec2 delta = ulp * Vec2{Int(rng, -1, 1), Int(rng, -1, 1)};
  if (delta.x == 0 && delta.y == 0) return false;
  auto move = [&](Vec2 p, Vec2* out) {
    const Vec2 q = p + delta;
    if (q - delta != p) return false;
    *out = q;
    return true;
  };
  switch (s->mover_kind) {
    case MoverKind::kRay:
      return move(s->ray_origin, &s->ray_origin);
    case MoverKind::kCircle:
      return move(s->circle.center, &s->circle.center);
    case MoverKind::kCapsule:
      return move(s->capsule.p1, &s->capsule.p1) &&
             move(s->capsule.p2, &s->capsule.p2);
    case MoverKind::kPolygon: {
      std::vector<Vec2> v(s->polygon.count);
      for (int i = 0; i < s->polygon.count; ++i) {
        if (!move(s->polygon.vertices[i], &v[i])) return false;
      }
      const std::optional<ConvexPolygon> p = Polygon(v);
      if (!p) return false;
      s->polygon = *p;
      return true;
    }
  }
  return false;
}

// Moves the mover back along the relative motion by a fraction f of it,
// 2^4..2^16 ulps of its coordinates, each coordinate rounded, and puts
// max_fraction within that rounding of f (kNearReach): its touching start
// becomes a contact at about f, which the rounding puts just before or
// just after max_fraction. False where that is not possible (a still mover, a
// polygon that the rounding leaves invalid).
bool BackOff(Rng& rng, Scene* s) {
  double big = 0.0;
  for (Vec2 p : MoverCore(*s).points)
    big = std::max({big, std::abs(p.x), std::abs(p.y)});
  const Vec2 d = s->moving_obstacle ? s->translation - s->obstacle_translation
                                    : s->translation;
  const double reach = std::max(std::abs(d.x), std::abs(d.y));
  if (big == 0.0 || reach == 0.0) return false;
  // An odd multiple of 2^-10 of a power of two: the back-off is not a
  // whole number of ulps, so that the start rounds.
  const int ulps = rng.Int(4, 15);
  const double fraction =
      std::ldexp(1.0 + (2 * rng.Int(0, 511) + 1) * 0x1p-10,
                 std::ilogb(big) - 52 + ulps - std::ilogb(reach));
  if (!(fraction >= 0x1p-1000 && fraction <= 0.25)) return false;
  const Vec2 delta = -fraction * d;
  auto move = [&](Vec2* p) { *p = *p + delta; };
  switch (s->mover_kind) {
    case MoverKind::kRay:
      move(&s->ray_origin);
      break;
    case MoverKind::kCircle:
      move(&s->circle.center);
      break;
    case MoverKind::kCapsule:
      move(&s->capsule.p1);
      move(&s->capsule.p2);
      break;
    case MoverKind::kPolygon: {
      std::vector<Vec2> v(s->polygon.vertices.begin(),
                          s->polygon.vertices.begin() + s->polygon.count);
      for (Vec2& p : v) move(&p);
      const std::optional<ConvexPolygon> p = Polygon(v);
      if (!p) return false;
      s->polygon = *p;
      break;
    }
  }
  // The back-off's rounding moves the contact by about 2^-(ulps + 1) of it.
  s->options.max_fraction =
      fraction * (1.0 + Int(rng, -3, 3) * std::ldexp(1.0, -ulps - 1));
  return true;
}

// ---------------------------------------------------------------------------
// Point vs deforming segment.

void GenerateDeformingLocal(Rng& rng, Construction kind, Local* l,
                            std::vector<Vec2>* seg) {
  // seg = {a0, b0, a1, b1}; l->m[0] the point, l->d its translation.
  Vec2 a0 = IntVec(rng, -8, 8), b0 = IntVec(rng, -8, 8);
  if (a0.x == b0.x && a0.y == b0.y) b0.x += 2;
  Vec2 a1, b1;
  switch (rng.Int(0, 3)) {
    case 0: {  // rigid translation
      const Vec2 v = IntVec(rng, -6, 6);
      a1 = a0 + v;
      b1 = b0 + v;
      break;
    }
    case 1:  // swinging about a fixed end
      a1 = a0;
      b1 = IntVec(rng, -8, 8);
      break;
    default:
      a1 = IntVec(rng, -8, 8);
      b1 = IntVec(rng, -8, 8);
      break;
  }
  *seg = {a0, b0, a1, b1};
  auto at = [&](double t, double lambda) {
    const Vec2 a = a0 + t * (a1 - a0), b = b0 + t * (b1 - b0);
    return a + lambda * (b - a);
  };
  Vec2 d = IntVec(rng, -12, 12);
  if (d.x == 0 && d.y == 0) d = {3, 1};
  static constexpr double kLambdas[] = {0.0, 1.0, 0.5, 0.25, -0.5, 1.5};
  const double lambda = kLambdas[rng.Int(0, 5)];
  switch (kind) {
    case Construction::kTouching:  // starts on the segment
      l->m = {at(0.0, lambda)};
      l->d = d;
      break;
    case Construction::kEndOnSurface: {
      static constexpr double kFractions[] = {1.0, 0.5, 0.75};
      const double f = kFractions[rng.Int(0, 2)];
      l->max_fraction = f;
      l->m = {at(f, lambda) - f * d};
      l->d = d;
      break;
    }
    case Construction::kCollinear: {
      // Rigid motion, the point on the segment's line, relative motion along
      // it.
      const Vec2 v = IntVec(rng, -6, 6);
      *seg = {a0, b0, a0 + v, b0 + v};
      const Vec2 e = b0 - a0;
      l->m = {a0 + kDyadic[rng.Int(0, 6)] * e};
      l->d = v + kDyadic[rng.Int(3, 6)] * (rng.Chance(0.5) ? e : -e);
      break;
    }
    case Construction::kInteger:
      l->m = {IntVec(rng, -12, 12)};
      l->d = d;
      break;
    case Construction::kSubnormal: {
      // Contact at t = 1/2 moving along an axis, for GenerateDegenerate to
      // tilt by a subnormal.
      const double along = Int(rng, 1, 12) * (rng.Chance(0.5) ? 1.0 : -1.0);
      l->d = rng.Chance(0.5) ? Vec2{along, 0.0} : Vec2{0.0, along};
      l->m = {at(0.5, lambda) - 0.5 * l->d};
      break;
    }
    default: {  // contact at t = 1/2 at a chosen point of the segment
      l->m = {at(0.5, lambda) - 0.5 * d};
      l->d = d;
      break;
    }
  }
}

}  // namespace

DegenerateCase GenerateDegenerate(const DegenerateFamily& fam, Rng& rng) {
  DegenerateCase c;
  c.deforming = fam.deforming;
  for (int attempt = 0;; ++attempt) {
    const Construction kind =
        fam.long_grazes   ? Construction::kNearParallel
        : fam.touching_in ? Construction::kTouching
        : fam.edge_ends_far
            ? Construction::kVertexAim
            : static_cast<Construction>(
                  rng.Int(0, static_cast<int>(Construction::kCount) - 1));
    c.construction = kind;
    Frame f = RandomFrame(rng);
    if (fam.edge_ends_far) {
      // Coordinates about 1e9: the offset on one axis or both, small
      // scales, the rotations kept.
      f.e = rng.Int(-2, 3);
      static constexpr Vec2 kFar[] = {{1e9, 0}, {0, -1e9}, {-1e9, 1e9}};
      f.offset = kFar[rng.Int(0, 2)];
    }
    Local l;
    l.long_graze = fam.long_grazes;
    l.touching_in = fam.touching_in;
    l.edge_end = fam.edge_ends_far;
    if (fam.deforming) {
      std::vector<Vec2> seg, world;
      GenerateDeformingLocal(rng, kind, &l, &seg);
      l.stop = rng.Chance(0.25);
      if (!Map(f, seg, &world) || !Map(f, l.m, &l.o)) {
        f.offset = {};
        Map(f, seg, &world);
        Map(f, l.m, &l.o);
      }
      c.offset = std::max(std::abs(f.offset.x), std::abs(f.offset.y));
      c.ray = {l.o[0], FV(f, l.d)};
      c.segment = {{world[0], world[1]}, {world[2], world[3]}};
      c.options = {.max_fraction = l.max_fraction,
                   .target_distance = 0.0,
                   .stop_at_penetration = l.stop};
      c.nudged = false;
      if (kind == Construction::kSubnormal &&
          !TiltByASubnormal(rng, &c.ray.translation)) {
        continue;
      }
      if ((kind == Construction::kVertexAim || kind == Construction::kGraze) &&
          rng.Chance(0.5) && (c.ray.origin.x != 0 || c.ray.origin.y != 0)) {
        const Vec2 o = c.ray.origin;
        const double ulp = std::ldexp(
            1.0, std::ilogb(std::max(std::abs(o.x), std::abs(o.y))) - 52);
        const Vec2 q{o.x + ulp, o.y};
        if (q.x - ulp == o.x) {
          c.ray.origin = q;
          c.nudged = true;
        }
      }
      return c;
    }
    MakeObstacle(fam.obstacle, rng, &l);
    MakeMover(fam.mover, rng, &l);
    Construct(kind, rng, &l);
    l.stop = rng.Chance(0.25);
    if (fam.moving) {
      l.od = rng.Chance(0.2) ? Vec2{} : IntVec(rng, -6, 6);
    }
    if (!BuildScene(fam, l, f, &c.scene)) {
      if (fam.edge_ends_far) continue;  // only at 1e9
      f.offset = {};
      if (!BuildScene(fam, l, f, &c.scene)) continue;
    }
    c.offset = std::max(std::abs(f.offset.x), std::abs(f.offset.y));
    c.nudged = false;
    if (kind == Construction::kSubnormal) {
      // The mover's own translation (the obstacle's, for a pair, keeps its
      // components: the relative motion is what tilts).
      if (!TiltByASubnormal(rng, &c.scene.translation)) continue;
      return c;
    }
    if (kind == Construction::kNearReach) {
      if (!BackOff(rng, &c.scene)) continue;
      return c;
    }
    if (kind == Construction::kTinyReach) {
      static constexpr int kExponents[] = {30, 45, 52, 56, 60, 80, 100};
      c.scene.options.max_fraction =
          std::ldexp(1.0, -kExponents[rng.Int(0, 6)]);
      Scene nudged = c.scene;
      if (Nudge(rng, &nudged)) {
        c.scene = nudged;
        c.nudged = true;
      }
      return c;
    }
    if ((kind == Construction::kVertexAim || kind == Construction::kGraze ||
         kind == Construction::kNearParallel) &&
        rng.Chance(0.5)) {
      Scene nudged = c.scene;
      if (Nudge(rng, &nudged)) {
        c.scene = nudged;
        c.nudged = true;
      }
    }
    return c;
  }
}

Verdict SolveSceneExact(const Scene& s) {
  const Vec2 obstacle_translation =
      s.moving_obstacle ? s.obstacle_translation : Vec2{};
  if (s.obstacle_kind == ObstacleKind::kConcave) {
    return SolveExact(ConcaveCase{MoverCore(s), s.translation, s.concave,
                                  obstacle_translation, s.options.max_fraction,
                                  s.options.target_distance});
  }
  return SolveExact(ConvexCase{MoverCore(s), s.translation, ObstacleCore(s),
                               obstacle_translation, s.options.max_fraction,
                               s.options.target_distance});
}

Verdict SolveDegenerate(const DegenerateCase& c) {
  if (!c.deforming) return SolveSceneExact(c.scene);
  return SolveExact(DeformingCase{
      c.ray.origin, c.ray.translation, c.segment.start.p1, c.segment.start.p2,
      c.segment.end.p1, c.segment.end.p2, c.options.max_fraction});
}

std::optional<Hit> CastDegenerate(const DegenerateCase& c) {
  if (!c.deforming) return CastScene(c.scene);
  return CastRay(c.ray, c.segment, c.options);
}

std::string DescribeDegenerate(const DegenerateCase& c) {
  if (!c.deforming) return DescribeScene(c.scene);
  return "CastRay(RayInput{" + V(c.ray.origin) + ", " + V(c.ray.translation) +
         "}, DeformingSegment{Segment{" + V(c.segment.start.p1) + ", " +
         V(c.segment.start.p2) + "}, Segment{" + V(c.segment.end.p1) + ", " +
         V(c.segment.end.p2) + "}}, " +
         Fmt("{.max_fraction = %.17g, .stop_at_penetration = %s})",
             c.options.max_fraction,
             c.options.stop_at_penetration ? "true" : "false");
}

std::string DescribeVerdict(const Verdict& v) {
  std::string r = OutcomeName(v.outcome);
  if (v.outcome == Outcome::kHit) {
    r += Fmt(" at t* in (%.17g, %.17g]", v.t_lo, v.t_hi);
  }
  if (v.touching_start) r += " (touching start)";
  if (*v.note != '\0') r += Fmt(" [%s]", v.note);
  return r;
}

}  // namespace collide::oracle
