#include "degenerate_sight.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "collide/level.h"
#include "collide/visibility.h"

namespace collide::oracle {

const std::vector<SightFamily>& SightFamilies() {
  static const std::vector<SightFamily> families = {
      {"sight-vertex", SightConstruction::kVertex, 0x51601},
      {"sight-edge", SightConstruction::kEdge, 0x51602},
      {"sight-collinear", SightConstruction::kCollinear, 0x51603},
      {"sight-round", SightConstruction::kRound, 0x51604},
      {"sight-cone", SightConstruction::kCone, 0x51605},
      {"sight-range", SightConstruction::kRange, 0x51606},
  };
  return families;
}

namespace {

using Kind = SightOccluder::Kind;

double I(Rng& rng, int lo, int hi) { return rng.Int(lo, hi); }
Vec2 IV(Rng& rng, int lo, int hi) { return {I(rng, lo, hi), I(rng, lo, hi)}; }

SightOccluder Box(Vec2 lower, Vec2 size) {
  return {Kind::kPolygon,
          {lower,
           {lower.x + size.x, lower.y},
           lower + size,
           {lower.x, lower.y + size.y}}};
}

// A random occluder on small integers: a box, a triangle, an L-shaped
// concave polygon, a segment, a polyline, a circle or a capsule.
SightOccluder RandomOccluder(Rng& rng) {
  switch (rng.Int(0, 6)) {
    case 0:
      return Box(IV(rng, -6, 5), IV(rng, 1, 4));
    case 1: {
      for (;;) {
        const Vec2 a = IV(rng, -6, 6), b = IV(rng, -6, 6), c = IV(rng, -6, 6);
        if (Cross(b - a, c - a) != 0) return {Kind::kPolygon, {a, b, c}};
      }
    }
    case 2: {
      const Vec2 o = IV(rng, -6, 3);
      const double w = I(rng, 2, 4), h = I(rng, 2, 4);
      return {Kind::kPolygon,
              {o, o + Vec2{w, 0}, o + Vec2{w, 1}, o + Vec2{1, 1},
               o + Vec2{1, h}, o + Vec2{0, h}}};
    }
    case 3: {
      const Vec2 a = IV(rng, -6, 6);
      return {Kind::kSegment, {a, rng.Chance(0.1) ? a : IV(rng, -6, 6)}};
    }
    case 4: {
      SightOccluder o{Kind::kSegment, {}};
      const int n = rng.Int(3, 4);
      for (int i = 0; i < n; ++i) o.points.push_back(IV(rng, -6, 6));
      o.closed = rng.Chance(0.3);
      return o;
    }
    case 5: {
      SightOccluder o{Kind::kCircle, {IV(rng, -6, 6)}};
      o.radius = rng.Chance(0.5) ? 5 : I(rng, 0, 3);
      return o;
    }
    default: {
      SightOccluder o{Kind::kCapsule, {IV(rng, -6, 6), IV(rng, -6, 6)}};
      o.radius = I(rng, 0, 3);
      return o;
    }
  }
}

// The local case before the frame.
struct Local {
  std::vector<SightOccluder> occluders;
  SightViewer viewer;
  std::vector<Vec2> targets;
};

Vec2 PickVertex(Rng& rng, const Local& l) {
  const SightOccluder& o =
      l.occluders[rng.Int(0, static_cast<int>(l.occluders.size()) - 1)];
  return o.points[rng.Int(0, static_cast<int>(o.points.size()) - 1)];
}

// An edge of an occluder with two distinct ends (a capsule's axis counts),
// or a new segment's when none has one.
void PickEdge(Rng& rng, Local* l, Vec2* a, Vec2* b) {
  for (int tries = 0; tries < 16; ++tries) {
    const SightOccluder& o =
        l->occluders[rng.Int(0, static_cast<int>(l->occluders.size()) - 1)];
    const int n = static_cast<int>(o.points.size());
    if (n < 2) continue;
    const int i = rng.Int(0, n - 1);
    *a = o.points[i];
    *b = o.points[(i + 1) % n];
    if (*a != *b) return;
  }
  *a = IV(rng, -6, 6);
  *b = *a + IV(rng, 1, 4);
  l->occluders.push_back({Kind::kSegment, {*a, *b}});
}

void Construct(SightConstruction kind, Rng& rng, Local* l) {
  const int count = rng.Int(1, 3);
  for (int i = 0; i < count; ++i) l->occluders.push_back(RandomOccluder(rng));
  l->viewer.position = IV(rng, -10, 10);
  Vec2& v = l->viewer.position;
  switch (kind) {
    case SightConstruction::kVertex:
      for (int k = 0; k < 6; ++k) {
        const Vec2 w = PickVertex(rng, *l);
        if (w == v) continue;
        const double m = rng.Chance(0.3) ? 1 : I(rng, 2, 3);
        l->targets.push_back(v + m * (w - v));
      }
      break;
    case SightConstruction::kEdge: {
      Vec2 a, b;
      PickEdge(rng, l, &a, &b);
      v = a + I(rng, -2, 3) * (b - a);
      for (int k = 0; k < 6; ++k) {
        l->targets.push_back(a + 0.5 * I(rng, -4, 6) * (b - a));
      }
      break;
    }
    case SightConstruction::kCollinear: {
      // Boxes side by side, corner to corner, and segments end to end, the
      // sight line along their shared lines and through shared corners.
      l->occluders.clear();
      const Vec2 o = IV(rng, -4, 2);
      const double w = I(rng, 1, 3), h = I(rng, 1, 3);
      l->occluders.push_back(Box(o, {w, h}));
      switch (rng.Int(0, 2)) {
        case 0:
          l->occluders.push_back(Box(o + Vec2{w, 0}, {I(rng, 1, 3), h}));
          break;
        case 1:
          l->occluders.push_back(
              Box(o + Vec2{w, h}, {I(rng, 1, 3), I(rng, 1, 3)}));
          break;
        default:
          l->occluders.push_back(
              {Kind::kSegment, {o + Vec2{w, h}, o + Vec2{2 * w, 2 * h}}});
          l->occluders.push_back(
              {Kind::kSegment, {o + Vec2{2 * w, 2 * h}, o + Vec2{3 * w, h}}});
          break;
      }
      std::vector<Vec2> points;
      for (const SightOccluder& s : l->occluders) {
        for (Vec2 p : s.points) points.push_back(p);
      }
      const Vec2 a = points[rng.Int(0, static_cast<int>(points.size()) - 1)];
      Vec2 b = points[rng.Int(0, static_cast<int>(points.size()) - 1)];
      if (a == b) b = a + Vec2{1, 0};
      v = a + I(rng, -3, -1) * (b - a);
      for (int k = 0; k < 6; ++k) {
        l->targets.push_back(a + 0.5 * I(rng, -1, 8) * (b - a));
      }
      break;
    }
    case SightConstruction::kRound: {
      // Tangent lines at C + (3, 4) k of a circle or capsule cap of radius
      // 5 k, and lines along a capsule's side.
      l->occluders.clear();
      const Vec2 c = IV(rng, -4, 4);
      const double k = I(rng, 1, 2);
      const Vec2 n = Vec2{3 * k, 4 * k};
      SightOccluder round{Kind::kCircle, {c}};
      round.radius = 5 * k;
      if (rng.Chance(0.5)) {
        round.kind = Kind::kCapsule;
        round.points.push_back(c + IV(rng, -3, 3));
      }
      l->occluders.push_back(round);
      if (rng.Chance(0.5)) l->occluders.push_back(RandomOccluder(rng));
      const Vec2 p = c + n;
      const Vec2 along{-4, 3};
      v = p + I(rng, -3, 3) * along;
      for (int j = 0; j < 6; ++j) {
        l->targets.push_back(p + I(rng, -4, 4) * along);
      }
      if (round.kind == Kind::kCapsule) {
        // Along the side: offset from the axis by the radius, when the
        // axis is a Pythagorean direction.
        const Vec2 axis = round.points[1] - c;
        const double len = std::sqrt(LengthSquared(axis));
        if (len > 0 && len == std::floor(len) &&
            std::fmod(round.radius, len) == 0) {
          const Vec2 side = (round.radius / len) * Vec2{-axis.y, axis.x};
          l->targets.push_back(c + side + 2.0 * axis);
          l->targets.push_back(c + side - axis);
          v = c + side + 3.0 * axis;
        }
      }
      break;
    }
    case SightConstruction::kCone: {
      const Vec2 right = IV(rng, -3, 3);
      const Vec2 left = IV(rng, -3, 3);
      if (right == Vec2{} || left == Vec2{}) {
        l->viewer.cone = std::make_pair(Vec2{1, -1}, Vec2{1, 1});
      } else {
        l->viewer.cone = std::make_pair(right, left);
      }
      for (int j = 0; j < 6; ++j) {
        const Vec2 e =
            rng.Chance(0.5) ? l->viewer.cone->first : l->viewer.cone->second;
        l->targets.push_back(v + I(rng, 1, 4) * e);
      }
      break;
    }
    case SightConstruction::kRange: {
      const double k = I(rng, 1, 3);
      l->viewer.range = 5 * k;
      static constexpr double kLegs[][2] = {{3, 4}, {4, 3}, {5, 0}, {0, 5}};
      for (int j = 0; j < 6; ++j) {
        const auto& leg = kLegs[rng.Int(0, 3)];
        const double sx = rng.Chance(0.5) ? 1 : -1,
                     sy = rng.Chance(0.5) ? 1 : -1;
        l->targets.push_back(v + Vec2{sx * leg[0] * k, sy * leg[1] * k});
      }
      if (rng.Chance(0.3)) {
        const Vec2 left = IV(rng, -3, 3);
        l->viewer.cone =
            std::make_pair(IV(rng, 1, 3), left == Vec2{} ? Vec2{0, 1} : left);
      }
      break;
    }
  }
  // A few plain integer targets beside the constructed ones.
  for (int j = 0; j < 2; ++j) l->targets.push_back(IV(rng, -12, 12));
}

struct Frame {
  double a = 1, b = 0, c = 1;
  bool reflect = false;
  int e = 0;
  Vec2 offset;
};

Vec2 Linear(const Frame& f, Vec2 v) {
  const double x = v.x, y = f.reflect ? -v.y : v.y;
  return {std::ldexp(f.a * x - f.b * y, f.e),
          std::ldexp(f.b * x + f.a * y, f.e)};
}
double Length(const Frame& f, double l) { return std::ldexp(l * f.c, f.e); }
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

bool MapPoint(const Frame& f, Vec2 p, Vec2* out) {
  const Vec2 w = Linear(f, p);
  if (!ExactWith(w.x, f.offset.x) || !ExactWith(w.y, f.offset.y)) return false;
  *out = w + f.offset;
  return true;
}

bool MapCase(const Local& l, const Frame& f, SightCase* c) {
  for (const SightOccluder& o : l.occluders) {
    SightOccluder m = o;
    for (Vec2& p : m.points) {
      if (!MapPoint(f, p, &p)) return false;
    }
    m.radius = Length(f, o.radius);
    c->occluders.push_back(m);
  }
  if (!MapPoint(f, l.viewer.position, &c->viewer.position)) return false;
  if (l.viewer.range) c->viewer.range = Length(f, *l.viewer.range);
  if (l.viewer.cone) {
    c->viewer.cone = std::make_pair(Linear(f, l.viewer.cone->first),
                                    Linear(f, l.viewer.cone->second));
  }
  for (Vec2 t : l.targets) {
    Vec2 m;
    if (!MapPoint(f, t, &m)) return false;
    c->targets.push_back(m);
  }
  return true;
}

// A disc in the local frame.
struct LocalDisc {
  Vec2 center;
  double radius = 0.0;
  std::vector<Vec2> witnesses;
};

// The integer length of v, or 0 when |v| is not an integer.
double IntegerLength(Vec2 v) {
  const double length = std::sqrt(LengthSquared(v));
  return length == std::floor(length) && length * length == LengthSquared(v)
             ? length
             : 0.0;
}

Vec2 Perp(Vec2 v) { return {-v.y, v.x}; }

// A direction of integer length: an axis or a Pythagorean one, any sign.
Vec2 IntegerDirection(Rng& rng) {
  static constexpr double kLegs[][2] = {{3, 4}, {4, 3}, {5, 0},  {0, 5},
                                        {1, 0}, {0, 1}, {5, 12}, {12, 5}};
  const auto& leg = kLegs[rng.Int(0, 7)];
  return {(rng.Chance(0.5) ? 1 : -1) * leg[0],
          (rng.Chance(0.5) ? 1 : -1) * leg[1]};
}

// The disc of radius k |d| touching the line through p along d (|d| an
// integer) at p, on either side.
LocalDisc Touching(Rng& rng, Vec2 p, Vec2 d, double length) {
  const double k = I(rng, 1, 3);
  const double side = rng.Chance(0.5) ? 1 : -1;
  return {p + side * k * Perp(d), k * length, {p}};
}

void ConstructDiscs(Rng& rng, Local* l, std::vector<LocalDisc>* discs) {
  const int count = rng.Int(1, 3);
  for (int i = 0; i < count; ++i) l->occluders.push_back(RandomOccluder(rng));
  Vec2& v = l->viewer.position;
  // Half the viewers see a vertex in an integer direction, for discs
  // touching the sight line through it.
  v = rng.Chance(0.5)
          ? PickVertex(rng, *l) - I(rng, 1, 2) * IntegerDirection(rng)
          : IV(rng, -10, 10);
  if (rng.Chance(0.3)) l->viewer.range = 5 * I(rng, 1, 3);
  if (rng.Chance(0.3)) {
    l->viewer.cone =
        std::make_pair(IntegerDirection(rng), IntegerDirection(rng));
  }
  for (int k = 0; k < 6; ++k) {
    switch (rng.Int(0, 6)) {
      case 0: {  // touching an edge's line, at or beside the edge
        Vec2 a, b;
        PickEdge(rng, l, &a, &b);
        const double length = IntegerLength(b - a);
        if (length == 0.0) break;
        discs->push_back(
            Touching(rng, a + 0.5 * I(rng, -2, 4) * (b - a), b - a, length));
        break;
      }
      case 1: {  // through a vertex
        const Vec2 w = PickVertex(rng, *l);
        const Vec2 d = IntegerDirection(rng);
        const double m = I(rng, 1, 2);
        discs->push_back({w + m * d, m * IntegerLength(d), {w}});
        break;
      }
      case 2: {  // touching the range circle, from outside or inside
        if (!l->viewer.range) break;
        const Vec2 d = IntegerDirection(rng);
        const double length = IntegerLength(d);
        const double r = length * I(rng, 1, 2);
        if (std::fmod(*l->viewer.range, length) != 0.0) break;
        const double reach = *l->viewer.range / length;
        const Vec2 touch = v + reach * d;
        const Vec2 center = rng.Chance(0.7) ? touch + (r / length) * d
                                            : touch - (r / length) * d;
        discs->push_back({center, r, {touch}});
        break;
      }
      case 3: {  // touching a cone edge
        if (!l->viewer.cone) break;
        const Vec2 e =
            rng.Chance(0.5) ? l->viewer.cone->first : l->viewer.cone->second;
        discs->push_back(
            Touching(rng, v + I(rng, 1, 4) * e, e, IntegerLength(e)));
        break;
      }
      case 4: {  // radius 0 on a sight line through a vertex
        const Vec2 w = PickVertex(rng, *l);
        discs->push_back({v + I(rng, 1, 2) * (w - v), 0.0, {}});
        break;
      }
      case 5: {  // the viewer on the circle
        const Vec2 d = IntegerDirection(rng);
        discs->push_back({v + d, IntegerLength(d), {v}});
        break;
      }
      default: {  // touching the sight line through a vertex, beyond it
        const Vec2 w = PickVertex(rng, *l);
        const double length = IntegerLength(w - v);
        if (length == 0.0) break;
        discs->push_back(
            Touching(rng, v + I(rng, 1, 3) * (w - v), w - v, length));
        break;
      }
    }
  }
  if (discs->empty()) discs->push_back({v + Vec2{5, 0}, 3, {}});
}

}  // namespace

SightDiscCase GenerateSightDiscs(Rng& rng) {
  for (;;) {
    Local l;
    std::vector<LocalDisc> local_discs;
    ConstructDiscs(rng, &l, &local_discs);
    const Frame f = RandomFrame(rng);
    SightDiscCase c;
    if (!MapCase(l, f, &c.sight)) continue;
    c.sight.offset = std::max(std::abs(f.offset.x), std::abs(f.offset.y));
    bool exact = true;
    for (const LocalDisc& d : local_discs) {
      SightDisc disc;
      exact = exact && MapPoint(f, d.center, &disc.circle.center);
      disc.circle.radius = Length(f, d.radius);
      for (const Vec2 w : d.witnesses) {
        Vec2 m;
        if (MapPoint(f, w, &m)) disc.witnesses.push_back(m);
      }
      c.discs.push_back(disc);
    }
    if (!exact) continue;
    // Each also one ulp larger and smaller (radius 0 only larger).
    const size_t n = c.discs.size();
    for (size_t j = 0; j < n; ++j) {
      SightDisc larger = c.discs[j];
      larger.circle.radius = std::nextafter(larger.circle.radius, HUGE_VAL);
      c.discs.push_back(larger);
      if (c.discs[j].circle.radius > 0.0) {
        SightDisc smaller = c.discs[j];
        smaller.circle.radius =
            std::nextafter(smaller.circle.radius, -HUGE_VAL);
        c.discs.push_back(smaller);
      }
    }
    return c;
  }
}

std::vector<ShapeDesc> SightLevelShapes(const SightCase& c) {
  std::vector<ShapeDesc> shapes;
  uint64_t id = 1;
  for (const SightOccluder& o : c.occluders) {
    ShapeDesc desc;
    desc.id = id++;
    switch (o.kind) {
      case Kind::kSegment:
        if (o.points.size() == 2) {
          desc.geometry = Segment{o.points[0], o.points[1]};
        } else {
          desc.geometry = PolylineDesc{o.points, o.closed};
        }
        break;
      case Kind::kPolygon:
        desc.geometry = PolygonDesc{o.points};
        break;
      case Kind::kCircle:
        desc.geometry = Circle{o.points[0], o.radius};
        break;
      case Kind::kCapsule:
        desc.geometry = Capsule{o.points[0], o.points[1], o.radius};
        break;
    }
    shapes.push_back(desc);
  }
  return shapes;
}

SightCase GenerateSight(const SightFamily& family, Rng& rng) {
  for (;;) {
    Local l;
    Construct(family.construction, rng, &l);
    const Frame f = RandomFrame(rng);
    SightCase c;
    if (!MapCase(l, f, &c)) continue;
    c.offset = std::max(std::abs(f.offset.x), std::abs(f.offset.y));
    // Each constructed target also one ulp off, in x or y, either way.
    const size_t n = c.targets.size();
    for (size_t j = 0; j < n; ++j) {
      Vec2 t = c.targets[j];
      double& x = rng.Chance(0.5) ? t.x : t.y;
      x = std::nextafter(x, rng.Chance(0.5) ? HUGE_VAL : -HUGE_VAL);
      c.targets.push_back(t);
    }
    return c;
  }
}

std::string DescribeSight(const SightCase& c) {
  std::string s = absl::StrFormat("viewer (%.17g, %.17g)", c.viewer.position.x,
                                  c.viewer.position.y);
  if (c.viewer.range) s += absl::StrFormat(" range %.17g", *c.viewer.range);
  if (c.viewer.cone) {
    s += absl::StrFormat(" cone (%.17g, %.17g)-(%.17g, %.17g)",
                         c.viewer.cone->first.x, c.viewer.cone->first.y,
                         c.viewer.cone->second.x, c.viewer.cone->second.y);
  }
  for (const SightOccluder& o : c.occluders) {
    static constexpr const char* kNames[] = {"segment", "polygon", "circle",
                                             "capsule"};
    s += absl::StrFormat(" | %s%s r=%.17g:", kNames[static_cast<int>(o.kind)],
                         o.closed ? " closed" : "", o.radius);
    for (Vec2 p : o.points) s += absl::StrFormat(" (%.17g, %.17g)", p.x, p.y);
  }
  return s;
}

void RunSightFamily(const SightFamily& family, int cases, int show,
                    int* disagreements) {
  const auto start = std::chrono::steady_clock::now();
  Rng rng(family.seed);
  int64_t pairs = 0, seen = 0, skipped = 0, wrong_batch = 0, wrong_single = 0;
  int at_1e6 = 0, at_1e9 = 0, shown = 0;
  VisibilityScratch scratch;
  for (int i = 0; i < cases; ++i) {
    const SightCase c = GenerateSight(family, rng);
    const std::vector<ShapeDesc> shapes = SightLevelShapes(c);
    absl::StatusOr<Level> level = Level::Create(shapes);
    if (!level.ok()) {
      ++skipped;
      continue;
    }
    at_1e6 += c.offset == 1e6;
    at_1e9 += c.offset == 1e9;
    Viewer viewer{c.viewer.position, c.viewer.range, std::nullopt};
    if (c.viewer.cone) {
      viewer.cone = ViewCone{c.viewer.cone->first, c.viewer.cone->second};
    }
    const int32_t n = static_cast<int32_t>(c.targets.size());
    std::vector<uint64_t> bits(VisibilityWords(n));
    VisibleTargets(*level, {&viewer, 1}, c.targets, absl::MakeSpan(bits),
                   scratch);
    for (int32_t j = 0; j < n; ++j) {
      const bool expected = SeesExact(c.occluders, c.viewer, c.targets[j]);
      const bool batch = (bits[j / 64] >> (j % 64)) & 1;
      const bool single = Sees(*level, viewer, c.targets[j]);
      ++pairs;
      seen += expected;
      wrong_batch += batch != expected;
      wrong_single += single != expected;
      if ((batch != expected || single != expected) && shown < show) {
        ++shown;
        std::printf(
            "    #%d target %d (%.17g, %.17g): oracle %s, "
            "VisibleTargets %s, Sees %s\n      %s\n",
            i, j, c.targets[j].x, c.targets[j].y, expected ? "seen" : "hidden",
            batch ? "seen" : "hidden", single ? "seen" : "hidden",
            DescribeSight(c).c_str());
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  *disagreements += static_cast<int>(wrong_batch + wrong_single);
  std::printf(
      "[sight] %-16s cases=%d pairs=%lld oracle: seen=%lld hidden=%lld "
      "skipped=%lld | disagree: VisibleTargets=%lld Sees=%lld "
      "at-1e6=%d at-1e9=%d time=%.1fs\n",
      family.name, cases, static_cast<long long>(pairs),
      static_cast<long long>(seen), static_cast<long long>(pairs - seen),
      static_cast<long long>(skipped), static_cast<long long>(wrong_batch),
      static_cast<long long>(wrong_single), at_1e6, at_1e9, seconds);
  std::fflush(stdout);
}

}  // namespace collide::oracle
