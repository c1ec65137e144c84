// SeesDisc (collide/visible_disc.h): whether any point of a disc is seen.
//
// From a viewer v outside the disc D (centre c, radius r), the rays that
// meet D fill the closed arc of directions between its two tangents. Along
// one such ray the sight line to a point of D is blocked for every point
// past a blocked one (an occluder meeting (v, p) meets (v, p') for p'
// beyond p), so the ray shows part of D exactly when the sight line to its
// first point of D, N = v + s1 d, is open (and N is in range and the
// direction in the cone). The disc is seen exactly when one direction d of
// its arc passes that test, decided here exactly for d given as a vector
// of doubles: N's coordinates hold the square root of the ray's
// discriminant, and every sign taken at N has the form sign(alpha + s1
// beta) with alpha, beta polynomials in the inputs, settled in expansion
// arithmetic by one squaring (NearSign).
//
// Which directions: the set of open directions changes only at critical
// directions of the occluders (their vertices, their tangents, where their
// outlines cross the disc's circle) and of the view region (the disc's
// tangents, the cone's edges, where the range circle crosses the disc's).
// Those are computed in double and sorted; a direction inside each arc
// between neighbours stands for the arc, and the critical directions that
// are exact vectors (vertices, cone edges, the centre, the feet of the
// perpendiculars from c to the occluders' edges, where a disc touches a
// wall) are tried as they are, for the sight lines of zero width.
#include "collide/visible_disc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/visibility.h"
#include "exact/sign.h"
#include "visibility/occluders.h"

namespace collide {

// Friend of DiscSightScratch: the query's access to its arrays.
struct DiscSightAccess {
  using Occluder = DiscSightScratch::Occluder;
  static std::vector<Occluder>& occluders(DiscSightScratch& s) {
    return s.occluders_;
  }
  static std::vector<double>& angles(DiscSightScratch& s) { return s.angles_; }
  static std::vector<std::pair<double, double>>& blocked(DiscSightScratch& s) {
    return s.blocked_;
  }
  static int32_t& found(DiscSightScratch& s) { return s.occluders_found_; }
};

namespace {

using internal::Expansion;
using Occluder = DiscSightAccess::Occluder;

// Critical directions kept per occluder at most (a convex polygon's 8
// vertices and two crossings of each edge with the disc's circle; a
// concave polygon counts one occluder per edge).
constexpr int32_t kAnglesPerOccluder = 24;

struct ExactVec {
  Expansion x, y;
};

ExactVec Sub(Vec2 a, Vec2 b) {
  return {Expansion::Difference(a.x, b.x), Expansion::Difference(a.y, b.y)};
}
ExactVec Exact(Vec2 a) { return {Expansion(a.x), Expansion(a.y)}; }
Expansion Cross(const ExactVec& a, const ExactVec& b) {
  return a.x * b.y - a.y * b.x;
}
Expansion Dot(const ExactVec& a, const ExactVec& b) {
  return a.x * b.x + a.y * b.y;
}
Vec2 Estimate(const ExactVec& a) { return {a.x.Estimate(), a.y.Estimate()}; }

// sign(a - b sqrt(q)), q >= 0.
int SignMinusRoot(const Expansion& a, const Expansion& b, const Expansion& q) {
  const int sa = a.sign();
  const int sb = q.sign() == 0 ? 0 : -b.sign();
  if (sb == 0) return sa;
  if (sa == 0 || sa == sb) return sa == 0 ? sb : sa;
  // Opposite signs: the larger magnitude wins, compared squared.
  return sa * (a * a - b * b * q).sign();
}

// One ray from v along d that meets D: s1 = (wd - sqrt(delta)) / dd is
// the parameter of its first point N of D, with w = c - v, dd = |d|^2, wd =
// w . d and delta = wd^2 - dd (|w|^2 - r^2) >= 0.
struct NearRay {
  Vec2 v;
  Vec2 c;
  double r;
  ExactVec d;
  ExactVec w;
  Expansion dd, wd, ww_rr, delta;
};

// sign(alpha + s1 beta): alpha + s1 beta = (alpha dd + beta wd - beta
// sqrt(delta)) / dd with dd > 0.
int NearSign(const NearRay& ray, const Expansion& alpha,
             const Expansion& beta) {
  return SignMinusRoot(alpha * ray.dd + beta * ray.wd, beta, ray.delta);
}

// sign(Cross(b - a, N - a)): Cross(b - a, v - a) + s1 Cross(b - a, d).
int OrientNear(const NearRay& ray, Vec2 a, Vec2 b) {
  const ExactVec e = Sub(b, a);
  return NearSign(ray, Cross(e, Sub(ray.v, a)), Cross(e, ray.d));
}
// sign(Dot(e, N - a)).
int DotNear(const NearRay& ray, const ExactVec& e, Vec2 a) {
  return NearSign(ray, Dot(e, Sub(ray.v, a)), Dot(e, ray.d));
}
// sign(|N - o|^2 - rho^2): with s1^2 dd = 2 s1 wd - (|w|^2 - r^2),
// |N - o|^2 = |o - v|^2 - (|w|^2 - r^2) + 2 s1 (c - o) . d.
int DistanceNear(const NearRay& ray, Vec2 o, double rho) {
  const ExactVec ov = Sub(o, ray.v);
  const Expansion rho2 = Expansion(rho) * Expansion(rho);
  const ExactVec co = Sub(ray.c, o);
  return NearSign(ray, Dot(ov, ov) - ray.ww_rr - rho2,
                  Expansion(2.0) * Dot(co, ray.d));
}
// sign(Cross(d, q - v)): which side of the ray's line q lies on.
int SideOf(const NearRay& ray, Vec2 q) {
  return Cross(ray.d, Sub(q, ray.v)).sign();
}
// sign(Dot(d, q - v)).
int AheadOf(const NearRay& ray, Vec2 q) {
  return Dot(ray.d, Sub(q, ray.v)).sign();
}

// Whether the open segment (v, N) meets the closed segment [a, b]: the rule
// of segments and polyline edges.
bool SegmentBlocksNear(const NearRay& ray, Vec2 a, Vec2 b) {
  const int o1 = SideOf(ray, a);
  const int o2 = SideOf(ray, b);
  if (o1 == o2 && o1 != 0) return false;
  if (o1 == 0 && o2 == 0) {
    // Along the ray's line: [a, b] meets (v, N) when its farther end is
    // after v and its nearer end before N.
    if (AheadOf(ray, a) <= 0 && AheadOf(ray, b) <= 0) return false;
    const ExactVec d = ray.d;
    const Vec2 nearer = Dot(d, Sub(b, a)).sign() >= 0 ? a : b;
    if (AheadOf(ray, nearer) <= 0) return true;
    return DotNear(ray, d, nearer) > 0;  // Dot(d, N - nearer) > 0
  }
  // One meeting point, on [a, b]: inside (v, N) exactly when v and N lie
  // strictly on opposite sides of the line ab.
  return internal::Orient(a, b, ray.v) * OrientNear(ray, a, b) < 0;
}

// Whether (v, N) and (a, b) cross at one point interior to both.
bool CrossesProperlyNear(const NearRay& ray, Vec2 a, Vec2 b) {
  if (SideOf(ray, a) * SideOf(ray, b) >= 0) return false;
  return internal::Orient(a, b, ray.v) * OrientNear(ray, a, b) < 0;
}

// Whether the distance from o to the closed segment [v, N] is below rho.
bool CircleBlocksNear(const NearRay& ray, Vec2 o, double rho) {
  if (rho == 0.0) return false;
  if (internal::DistanceSquaredVs(ray.v, o, rho, 0.0, 0.0) < 0) return true;
  if (DistanceNear(ray, o, rho) < 0) return true;
  // The foot of the perpendicular from o strictly inside (v, N), and the
  // line within rho: Cross(d, o - v)^2 < rho^2 dd.
  if (AheadOf(ray, o) <= 0 || DotNear(ray, ray.d, o) <= 0) return false;
  const Expansion cross = Cross(ray.d, Sub(o, ray.v));
  const Expansion rho2 = Expansion(rho) * Expansion(rho);
  return (cross * cross - rho2 * ray.dd).sign() < 0;
}

// Whether N lies within rho of the open core (p1, p2) measured across it:
// its foot strictly inside and Cross(e, N - p1)^2 < rho^2 |e|^2. With X =
// alpha + s1 beta, dd (X^2 - rho^2 |e|^2) = alpha^2 dd - beta^2 (|w|^2 -
// r^2) - rho^2 |e|^2 dd + s1 (2 alpha beta dd + 2 beta^2 wd).
bool NearWithinCore(const NearRay& ray, Vec2 p1, Vec2 p2, double rho) {
  const ExactVec e = Sub(p2, p1);
  if (DotNear(ray, e, p1) <= 0) return false;
  const ExactVec back = Sub(p1, p2);
  if (DotNear(ray, back, p2) <= 0) return false;
  const Expansion alpha = Cross(e, Sub(ray.v, p1));
  const Expansion beta = Cross(e, ray.d);
  const Expansion rho2 = Expansion(rho) * Expansion(rho);
  const Expansion two(2.0);
  const Expansion a2 = alpha * alpha * ray.dd - beta * beta * ray.ww_rr -
                       rho2 * Dot(e, e) * ray.dd;
  const Expansion b2 = two * alpha * beta * ray.dd + two * beta * beta * ray.wd;
  return NearSign(ray, a2, b2) < 0;
}

bool CapsuleBlocksNear(const NearRay& ray, Vec2 p1, Vec2 p2, double rho) {
  if (rho == 0.0) return false;
  // Apart unless crossing properly, the segments are nearest at an end of
  // one of them.
  return CrossesProperlyNear(ray, p1, p2) || CircleBlocksNear(ray, p1, rho) ||
         CircleBlocksNear(ray, p2, rho) ||
         internal::WithinBelow(ray.v, p1, p2, rho) ||
         NearWithinCore(ray, p1, p2, rho);
}

// Whether (v, N) meets the interior of a convex polygon (counter-clockwise):
// the ray's line has vertices strictly on both sides, and v and N are not
// both on the closed outer side of one edge's line.
bool ConvexBlocksNear(const NearRay& ray, const ConvexPolygon& polygon) {
  const int n = polygon.count;
  bool left = false;
  bool right = false;
  for (int i = 0; i < n; ++i) {
    const int o = SideOf(ray, polygon.vertices[i]);
    left |= o > 0;
    right |= o < 0;
  }
  if (!left || !right) return false;
  for (int i = 0; i < n; ++i) {
    const Vec2 a = polygon.vertices[i];
    const Vec2 b = polygon.vertices[(i + 1) % n];
    if (internal::Orient(a, b, ray.v) <= 0 && OrientNear(ray, a, b) <= 0) {
      return false;
    }
  }
  return true;
}

// Whether direction d leaves vertex i of a simple polygon strictly into its
// interior. orientation: +1 counter-clockwise.
bool IntoInteriorAt(absl::Span<const Vec2> vertices, double orientation, int i,
                    const ExactVec& d) {
  const int n = static_cast<int>(vertices.size());
  Vec2 prev = vertices[(i + n - 1) % n];
  Vec2 next = vertices[(i + 1) % n];
  if (orientation < 0) std::swap(prev, next);
  const Vec2 u = vertices[i];
  // Interior to the left of prev -> u and of u -> next: both near a convex
  // corner, either near a reflex one.
  const bool left_in = Cross(Sub(u, prev), d).sign() > 0;
  const bool left_out = Cross(Sub(next, u), d).sign() > 0;
  const int turn = internal::Orient(prev, u, next);
  if (turn > 0) return left_in && left_out;
  if (turn < 0) return left_in || left_out;
  return left_out;
}

// Whether (v, N) meets the interior of a simple polygon. No edge crossed
// properly: it meets the outline only at vertices on the ray and along
// edges between them, so each piece between v, those vertices and N lies
// wholly inside or outside, as the direction leaving its start tells (v
// is not strictly inside: the viewer inside a solid sees nothing).
bool ConcaveBlocksNear(const NearRay& ray, const ConcavePolygon& polygon) {
  const absl::Span<const Vec2> vertices = polygon.vertices;
  const int n = static_cast<int>(vertices.size());
  for (int i = 0; i < n; ++i) {
    if (CrossesProperlyNear(ray, vertices[i], vertices[(i + 1) % n])) {
      return true;
    }
  }
  for (int i = 0; i < n; ++i) {
    const Vec2 u = vertices[i];
    if (u == ray.v) {
      if (IntoInteriorAt(vertices, polygon.orientation, i, ray.d)) return true;
      continue;
    }
    if (SideOf(ray, u) != 0 || AheadOf(ray, u) <= 0 ||
        DotNear(ray, ray.d, u) <= 0) {
      continue;
    }
    if (IntoInteriorAt(vertices, polygon.orientation, i, ray.d)) return true;
  }
  // v inside an edge: the piece after it is inside when d points to the
  // edge's inner side.
  for (int i = 0; i < n; ++i) {
    const Vec2 a = vertices[i];
    const Vec2 b = vertices[(i + 1) % n];
    if (a == ray.v || b == ray.v || internal::Orient(a, b, ray.v) != 0 ||
        internal::DotSign(a, b, a, ray.v) <= 0 ||
        internal::DotSign(b, a, b, ray.v) <= 0) {
      continue;
    }
    return Cross(Sub(b, a), ray.d).sign() * polygon.orientation > 0;
  }
  return false;
}

Aabb BoundsOf(const Level::Primitive& p) {
  switch (p.kind) {
    case Level::PrimitiveKind::kCircle:
      return {{p.a.x - p.radius, p.a.y - p.radius},
              {p.a.x + p.radius, p.a.y + p.radius}};
    case Level::PrimitiveKind::kConvexPolygon:
      return {p.a, p.b};
    default:
      return {{std::min(p.a.x, p.b.x) - p.radius,
               std::min(p.a.y, p.b.y) - p.radius},
              {std::max(p.a.x, p.b.x) + p.radius,
               std::max(p.a.y, p.b.y) + p.radius}};
  }
}

Aabb BoundsOf(absl::Span<const Vec2> vertices) {
  Aabb box{vertices[0], vertices[0]};
  for (const Vec2 u : vertices) {
    box.lower = {std::min(box.lower.x, u.x), std::min(box.lower.y, u.y)};
    box.upper = {std::max(box.upper.x, u.x), std::max(box.upper.y, u.y)};
  }
  return box;
}

// Whether occluder o cannot meet the ray's segment [v, v + reach dir], by
// doubles with a margin far beyond their rounding (dir of length 1): its
// box strictly on one side of the line, behind v or beyond reach.
bool SurelyApart(Vec2 v, Vec2 dir, double reach, const Aabb& box) {
  const Vec2 corners[4] = {box.lower,
                           {box.upper.x, box.lower.y},
                           box.upper,
                           {box.lower.x, box.upper.y}};
  const double scale = std::abs(v.x) + std::abs(v.y) +
                       std::max(std::abs(box.lower.x), std::abs(box.upper.x)) +
                       std::max(std::abs(box.lower.y), std::abs(box.upper.y)) +
                       reach;
  const double margin = 1e-9 * scale + std::numeric_limits<double>::min();
  int left = 0, right = 0, behind = 0, beyond = 0;
  for (const Vec2 q : corners) {
    const double side = Cross(dir, q - v);
    const double along = Dot(dir, q - v);
    left += side > margin;
    right += side < -margin;
    behind += along < -margin;
    beyond += along > reach + margin;
  }
  return left == 4 || right == 4 || behind == 4 || beyond == 4;
}

// Where a shape can block a sight line from v to D: within |w| of v (the
// first point of D on a ray is no farther than c's projection on it) and
// inside the cone of D's tangents. Misses answers, in double with a margin
// far beyond its rounding, whether a box lies surely outside.
class Wedge {
 public:
  Wedge(Vec2 v, Vec2 w, double r) : v_(v), w_(w) {
    reach_ = std::hypot(w.x, w.y);
    // Half the cone's angle, widened; a viewer nearly on the circle gets
    // the half plane in front.
    const double half =
        r >= reach_ ? std::numbers::pi / 2 : std::asin(r / reach_) + 1e-7;
    angular_ = half < std::numbers::pi / 2 - 1e-6;
    const double cos_h = std::cos(half);
    const double sin_h = std::sin(half);
    right_ = {w.x * cos_h + w.y * sin_h, w.y * cos_h - w.x * sin_h};
    left_ = {w.x * cos_h - w.y * sin_h, w.y * cos_h + w.x * sin_h};
  }

  bool Misses(const Aabb& b) const {
    const double margin =
        1e-9 * (std::abs(v_.x) + std::abs(v_.y) + std::abs(b.lower.x) +
                std::abs(b.lower.y) + std::abs(b.upper.x) +
                std::abs(b.upper.y) + reach_) +
        std::numeric_limits<double>::min();
    const double dx = std::max({0.0, b.lower.x - v_.x, v_.x - b.upper.x});
    const double dy = std::max({0.0, b.lower.y - v_.y, v_.y - b.upper.y});
    if (std::hypot(dx, dy) > reach_ + margin) return true;
    const Vec2 corners[4] = {
        b.lower, {b.upper.x, b.lower.y}, b.upper, {b.lower.x, b.upper.y}};
    int behind = 0, right = 0, left = 0;
    for (const Vec2 q : corners) {
      const Vec2 d = q - v_;
      behind += Dot(w_, d) < -margin * reach_;
      right += Cross(right_, d) < -margin * reach_;
      left += Cross(left_, d) > margin * reach_;
    }
    return behind == 4 || (angular_ && (right == 4 || left == 4));
  }

 private:
  Vec2 v_;
  Vec2 w_;
  Vec2 right_;
  Vec2 left_;
  double reach_ = 0.0;
  bool angular_ = false;
};

bool Overlap(const Aabb& a, const Aabb& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x &&
         a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}

bool BlocksNear(const NearRay& ray, const Occluder& o) {
  if (o.primitive == nullptr) {
    return ConcaveBlocksNear(ray, o.level->concave_polygon(o.shape));
  }
  const Level::Primitive& p = *o.primitive;
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
      return SegmentBlocksNear(ray, p.a, p.b);
    case Level::PrimitiveKind::kCircle:
      return CircleBlocksNear(ray, p.a, p.radius);
    case Level::PrimitiveKind::kCapsule:
      return CapsuleBlocksNear(ray, p.a, p.b, p.radius);
    case Level::PrimitiveKind::kConvexPolygon:
      return ConvexBlocksNear(ray, o.level->convex_polygon(p.shape));
    case Level::PrimitiveKind::kConcaveEdge:
      break;  // gathered as whole polygons
  }
  return false;
}

// Whether the exact direction d passes the cone (InViewRegion's rule on the
// direction alone).
bool InCone(const std::optional<ViewCone>& cone, const ExactVec& d) {
  if (!cone.has_value()) return true;
  const int from_right = Cross(Exact(cone->right), d).sign();
  const int from_left = Cross(Exact(cone->left), d).sign();
  const int turn = internal::CrossSign(cone->right, cone->left);
  if (turn > 0) return from_right >= 0 && from_left <= 0;
  if (turn < 0) return from_right >= 0 || from_left <= 0;
  if (internal::DotSign(cone->right, cone->left) < 0) return from_right >= 0;
  return from_right == 0 && Dot(Exact(cone->right), d).sign() >= 0;
}

struct Layer {
  const Level* level = nullptr;
  const uint64_t* removed = nullptr;
};

int LayersOf(const Level& level, Layer (&layers)[2]) {
  layers[0] = {&level, nullptr};
  if (const Level* base = level.base()) {
    layers[1] = {base, level.removed_from_base().data()};
    return 2;
  }
  return 1;
}

class DiscSight {
 public:
  DiscSight(const Viewer& viewer, Circle target,
            absl::Span<const Occluder> occluders)
      : viewer_(viewer), target_(target), occluders_(occluders) {
    w_ = Sub(target.center, viewer.position);
    ww_rr_ = Dot(w_, w_) - Expansion(target.radius) * Expansion(target.radius);
    w_estimate_ = target.center - viewer.position;
    reach_ = std::sqrt(LengthSquared(w_estimate_)) + target.radius;
  }

  // Whether the ray along d shows a point of D: it meets D, its first
  // point N of D is in range and d in the cone, and no occluder meets the
  // open sight line (v, N).
  bool SeenAlong(const ExactVec& d) {
    NearRay ray{
        viewer_.position, target_.center, target_.radius, d,          w_,
        Dot(d, d),        Dot(w_, d),     ww_rr_,         Expansion()};
    if (ray.dd.sign() == 0 || ray.wd.sign() <= 0) return false;
    ray.delta = ray.wd * ray.wd - ray.dd * ray.ww_rr;
    if (ray.delta.sign() < 0) return false;  // the ray misses D
    if (!InCone(viewer_.cone, d)) return false;
    if (viewer_.range.has_value() && !NearInRange(ray, *viewer_.range)) {
      return false;
    }
    const Vec2 dir = Unit(Estimate(d));
    // The occluder that blocked the last direction first: neighbouring
    // directions are mostly blocked by the same one.
    if (last_blocker_ >= 0 && BlocksNear(ray, occluders_[last_blocker_])) {
      return false;
    }
    for (int32_t k = 0; k < static_cast<int32_t>(occluders_.size()); ++k) {
      if (k == last_blocker_) continue;
      const Occluder& o = occluders_[k];
      if (SurelyApart(viewer_.position, dir, reach_, Box(o))) continue;
      if (BlocksNear(ray, o)) {
        last_blocker_ = k;
        return false;
      }
    }
    return true;
  }

 private:
  static Vec2 Unit(Vec2 d) {
    const double length = std::hypot(d.x, d.y);
    return length > 0.0 ? Vec2{d.x / length, d.y / length} : Vec2{1.0, 0.0};
  }

  static Aabb Box(const Occluder& o) {
    return o.primitive == nullptr
               ? BoundsOf(o.level->concave_polygon(o.shape).vertices)
               : BoundsOf(*o.primitive);
  }

  // |N - v| <= range. With u = wd / |d| (how far along the ray the
  // chord's middle lies) and h^2 = |w|^2 - u^2: |N - v| = u - sqrt(r^2 -
  // h^2) <= R holds when u <= R, and otherwise exactly when |w|^2 + R^2 -
  // r^2 <= 2 u R, squared: (|w|^2 + R^2 - r^2)^2 dd <= 4 R^2 wd^2.
  static bool NearInRange(const NearRay& ray, double range) {
    const Expansion r2 = Expansion(range) * Expansion(range);
    if ((ray.wd * ray.wd - r2 * ray.dd).sign() <= 0) return true;
    const Expansion k = ray.ww_rr + r2;
    if (k.sign() <= 0) return true;
    return (k * k * ray.dd - Expansion(4.0) * r2 * ray.wd * ray.wd).sign() <= 0;
  }

  const Viewer& viewer_;
  Circle target_;
  absl::Span<const Occluder> occluders_;
  ExactVec w_;
  Expansion ww_rr_;
  Vec2 w_estimate_;
  double reach_ = 0.0;
  int32_t last_blocker_ = -1;
};

// Critical directions, as angles from w = c - v in (-pi, pi], in double.
class Angles {
 public:
  Angles(Vec2 v, Vec2 w, std::vector<double>& out) : v_(v), w_(w), out_(out) {}

  void Point(Vec2 q) { Direction(q - v_); }
  void Direction(Vec2 d) {
    if (d.x == 0.0 && d.y == 0.0) return;
    Push(std::atan2(Cross(w_, d), Dot(w_, d)));
  }
  // Where the segment [a, b] crosses the circle (o, rho), at a + t e with
  // e = b - a: t^2 |e|^2 + 2 t (f.e) + |f|^2 - rho^2 = 0 for f = a - o.
  // The discriminant rho^2 |e|^2 - Cross(e, f)^2 and the constant term are
  // exact, and the roots taken without cancellation, so that a line
  // nearly tangent to the circle keeps its two crossings apart; directions
  // from v as (a - v) + t e, never through rounded far-off points.
  void SegmentCircle(Vec2 a, Vec2 b, Vec2 o, double rho) {
    const ExactVec e = Sub(b, a);
    const ExactVec f = Sub(a, o);
    const double ee = Dot(e, e).Estimate();
    if (ee == 0.0) return;
    const Expansion rho2 = Expansion(rho) * Expansion(rho);
    const Expansion cross = Cross(e, f);
    const Expansion disc = rho2 * Dot(e, e) - cross * cross;
    if (disc.sign() < 0) return;
    const double root = std::sqrt(disc.Estimate());
    const double fe = Dot(f, e).Estimate();
    const double constant = (Dot(f, f) - rho2).Estimate();
    const double q = fe >= 0.0 ? -(fe + root) : -(fe - root);
    const Vec2 from = Estimate(Sub(a, v_));
    const Vec2 along = Estimate(e);
    const auto at = [&](double t) {
      if (t >= -1e-9 && t <= 1.0 + 1e-9) Direction(from + t * along);
    };
    at(q / ee);
    if (q != 0.0) at(constant / q);
  }
  // Where the circles (o1, r1) and (o2, r2) cross: at o1 + a u +- h
  // perp(u), u the unit vector to o2, with a = (r1^2 - r2^2 + d^2) / 2d and
  // h^2 = ((r1 + r2)^2 - d^2)(d^2 - (r1 - r2)^2) / 4d^2, both factors
  // exact, so that circles nearly touching keep their crossings apart.
  void CircleCircle(Vec2 o1, double r1, Vec2 o2, double r2) {
    const ExactVec u = Sub(o2, o1);
    const Expansion d2 = Dot(u, u);
    const Expansion sum = Expansion::Sum(r1, r2);
    const Expansion difference = Expansion::Difference(r1, r2);
    const Expansion outer = sum * sum - d2;
    const Expansion inner = d2 - difference * difference;
    if (d2.sign() == 0 || outer.sign() < 0 || inner.sign() < 0) return;
    const double dist2 = d2.Estimate();
    const double dist = std::sqrt(dist2);
    const double a =
        (Expansion(r1) * Expansion(r1) - Expansion(r2) * Expansion(r2) + d2)
            .Estimate() /
        (2.0 * dist);
    const double h =
        std::sqrt(outer.Estimate() * (inner.Estimate() / (4.0 * dist2)));
    const Vec2 unit = Estimate(u) * (1.0 / dist);
    const Vec2 perp{-unit.y, unit.x};
    const Vec2 from = Estimate(Sub(o1, v_));
    Direction(from + a * unit + h * perp);
    Direction(from + a * unit - h * perp);
  }
  // The tangents from v to the circle (o, rho); from a viewer on the
  // circle, its tangent line there.
  void Tangents(Vec2 o, double rho) {
    const Vec2 d = o - v_;
    const double dist = std::hypot(d.x, d.y);
    if (dist == 0.0) return;
    const double middle = std::atan2(Cross(w_, d), Dot(w_, d));
    const double half =
        dist <= rho ? std::numbers::pi / 2 : std::asin(rho / dist);
    Push(middle - half);
    Push(middle + half);
  }
  void Edge(Vec2 a, Vec2 b, Vec2 c, double r) {
    Point(a);
    SegmentCircle(a, b, c, r);
  }

 private:
  void Push(double angle) {
    if (angle > std::numbers::pi) angle -= 2.0 * std::numbers::pi;
    if (angle < -std::numbers::pi) angle += 2.0 * std::numbers::pi;
    if (out_.size() < out_.capacity()) out_.push_back(angle);
  }
  Vec2 v_;
  Vec2 w_;
  std::vector<double>& out_;
};

void CriticalAngles(const Occluder& o, Vec2 c, double r, Angles& angles) {
  if (o.primitive == nullptr) {
    const absl::Span<const Vec2> vertices =
        o.level->concave_polygon(o.shape).vertices;
    const size_t n = vertices.size();
    for (size_t i = 0; i < n; ++i) {
      angles.Edge(vertices[i], vertices[(i + 1) % n], c, r);
    }
    return;
  }
  const Level::Primitive& p = *o.primitive;
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
      angles.Edge(p.a, p.b, c, r);
      angles.Point(p.b);
      return;
    case Level::PrimitiveKind::kCircle:
      angles.Tangents(p.a, p.radius);
      angles.CircleCircle(p.a, p.radius, c, r);
      return;
    case Level::PrimitiveKind::kCapsule: {
      angles.Tangents(p.a, p.radius);
      angles.Tangents(p.b, p.radius);
      angles.CircleCircle(p.a, p.radius, c, r);
      angles.CircleCircle(p.b, p.radius, c, r);
      const Vec2 e = p.b - p.a;
      const double length = std::hypot(e.x, e.y);
      if (length > 0.0) {
        const Vec2 n{-e.y / length * p.radius, e.x / length * p.radius};
        angles.SegmentCircle(p.a + n, p.b + n, c, r);
        angles.SegmentCircle(p.a - n, p.b - n, c, r);
      }
      return;
    }
    case Level::PrimitiveKind::kConvexPolygon: {
      const ConvexPolygon& polygon = o.level->convex_polygon(p.shape);
      for (int i = 0; i < polygon.count; ++i) {
        angles.Edge(polygon.vertices[i],
                    polygon.vertices[(i + 1) % polygon.count], c, r);
      }
      return;
    }
    case Level::PrimitiveKind::kConcaveEdge:
      return;
  }
}

// The exact directions tried as they are: occluder vertices and the feet
// of the perpendiculars from c to the occluders' edge lines (where a disc
// tangent to a wall touches it), each Dot(d, w) > 0.
// The root of a square given exactly, when it is a double; else 0.
double ExactRoot(const Expansion& square) {
  const double root = std::sqrt(square.Estimate());
  return (Expansion(root) * Expansion(root) - square).sign() == 0 ? root : 0.0;
}

// Where D touches the circle (o, rho), from outside or inside: q = o +
// rho (c - o) / |c - o|. Its direction (q - v) |c - o| is exact when |c -
// o| is a double (a Pythagorean distance); otherwise it is irrational and
// not tried (docs/visibility.md).
// The tangents from v to the circle (o, rho): (o - v) t +- perp(o - v)
// rho with t = sqrt(|o - v|^2 - rho^2), exact when t is a double (a
// Pythagorean construction); otherwise irrational and not tried.
template <typename Try>
bool RoundTangents(Vec2 o, double rho, Vec2 v, Try&& try_seen) {
  const ExactVec ov = Sub(o, v);
  const Expansion radius(rho);
  const Expansion square = Dot(ov, ov) - radius * radius;
  if (square.sign() <= 0) return false;
  const double t = ExactRoot(square);
  if (t == 0.0) return false;
  const Expansion along(t);
  return try_seen(ExactVec{ov.x * along - ov.y * radius,
                           ov.y * along + ov.x * radius}) ||
         try_seen(ExactVec{ov.x * along + ov.y * radius,
                           ov.y * along - ov.x * radius});
}

template <typename Try>
bool RoundTouch(Vec2 o, double rho, Vec2 v, Vec2 c, Try&& try_seen) {
  const ExactVec co = Sub(c, o);
  const double m = ExactRoot(Dot(co, co));
  if (m == 0.0 || rho == 0.0) return false;
  const ExactVec ov = Sub(o, v);
  const Expansion scale(m);
  const Expansion radius(rho);
  return try_seen(
      ExactVec{ov.x * scale + radius * co.x, ov.y * scale + radius * co.y});
}

// Where D touches a capsule's side: from f, the foot of c on the core's
// line, q = f + rho (c - f) / |c - f|. With e = p2 - p1, k = (c - p1) . e
// and x = Cross(e, c - p1): f = p1 + (k / |e|^2) e and |c - f| = |x| / |e|,
// so (q - v) |e|^2 |x| / |e| is exact when |e| is a double.
template <typename Try>
bool SideTouch(Vec2 p1, Vec2 p2, double rho, Vec2 v, Vec2 c, Try&& try_seen) {
  const ExactVec e = Sub(p2, p1);
  const Expansion ee = Dot(e, e);
  const double length = ExactRoot(ee);
  if (length == 0.0 || rho == 0.0) return false;
  const ExactVec cp = Sub(c, p1);
  const Expansion k = Dot(cp, e);
  Expansion x = Cross(e, cp);
  if (x.sign() == 0) return false;
  if (x.sign() < 0) x = -x;
  const ExactVec pv = Sub(p1, v);
  // (f - v) |e|^2 |x| + rho |e| ((c - p1) |e|^2 - k e).
  const Expansion side = Expansion(rho) * Expansion(length);
  return try_seen(
      ExactVec{(pv.x * ee + k * e.x) * x + side * (cp.x * ee - k * e.x),
               (pv.y * ee + k * e.y) * x + side * (cp.y * ee - k * e.y)});
}

template <typename Try>
bool TryExactDirections(const Occluder& o, Vec2 v, Vec2 c, Try&& try_seen) {
  const auto edge = [&](Vec2 a, Vec2 b) {
    if (try_seen(Sub(a, v))) return true;
    // foot - v = ((a - v) |e|^2 + ((c - a) . e) e) / |e|^2.
    const ExactVec e = Sub(b, a);
    const Expansion ee = Dot(e, e);
    if (ee.sign() == 0) return false;
    const ExactVec av = Sub(a, v);
    const Expansion t = Dot(Sub(c, a), e);
    return try_seen(ExactVec{av.x * ee + t * e.x, av.y * ee + t * e.y});
  };
  if (o.primitive == nullptr) {
    const absl::Span<const Vec2> vertices =
        o.level->concave_polygon(o.shape).vertices;
    const size_t n = vertices.size();
    for (size_t i = 0; i < n; ++i) {
      if (edge(vertices[i], vertices[(i + 1) % n])) return true;
    }
    return false;
  }
  const Level::Primitive& p = *o.primitive;
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
      return edge(p.a, p.b) || try_seen(Sub(p.b, v));
    case Level::PrimitiveKind::kConvexPolygon: {
      const ConvexPolygon& polygon = o.level->convex_polygon(p.shape);
      for (int i = 0; i < polygon.count; ++i) {
        if (edge(polygon.vertices[i],
                 polygon.vertices[(i + 1) % polygon.count])) {
          return true;
        }
      }
      return false;
    }
    case Level::PrimitiveKind::kCircle:
      return RoundTouch(p.a, p.radius, v, c, try_seen) ||
             (p.radius > 0.0 && RoundTangents(p.a, p.radius, v, try_seen));
    case Level::PrimitiveKind::kCapsule:
      if (p.radius > 0.0 && (RoundTangents(p.a, p.radius, v, try_seen) ||
                             RoundTangents(p.b, p.radius, v, try_seen))) {
        return true;
      }
      return RoundTouch(p.a, p.radius, v, c, try_seen) ||
             RoundTouch(p.b, p.radius, v, c, try_seen) ||
             SideTouch(p.a, p.b, p.radius, v, c, try_seen);
    default:
      return false;
  }
}

// The open arc of directions (angles from w) a convex occluder surely
// blocks for every point of D: one lying wholly nearer to v than D's
// nearest point (|w| - r) meets every ray strictly inside its angular span
// before the ray reaches D (a segment, which blocks when touched, every
// ray within its span). Computed in double and shrunk by a margin far
// beyond the rounding of the angles; none for concave polygons, for
// occluders not surely nearer, and for spans of a half turn or more.
std::optional<std::pair<double, double>> SurelyBlockedArc(const Occluder& o,
                                                          Vec2 v, Vec2 w,
                                                          double near) {
  if (o.primitive == nullptr) return std::nullopt;
  const Level::Primitive& p = *o.primitive;
  const Aabb box = BoundsOf(p);
  const double far_x =
      std::max(std::abs(box.lower.x - v.x), std::abs(box.upper.x - v.x));
  const double far_y =
      std::max(std::abs(box.lower.y - v.y), std::abs(box.upper.y - v.y));
  if (std::hypot(far_x, far_y) >= near) return std::nullopt;
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  const auto add = [&](double angle) {
    lo = std::min(lo, angle);
    hi = std::max(hi, angle);
  };
  const auto point = [&](Vec2 q) {
    // The viewer itself, a vertex: the other vertices bound the arc.
    if (q == v) return;
    const Vec2 d = q - v;
    add(std::atan2(Cross(w, d), Dot(w, d)));
  };
  const auto round = [&](Vec2 center, double rho) {
    const Vec2 d = center - v;
    const double dist = std::hypot(d.x, d.y);
    if (dist <= rho) {
      add(-4.0);  // more than a half turn: no arc
      add(4.0);
      return;
    }
    const double middle = std::atan2(Cross(w, d), Dot(w, d));
    const double half = std::asin(rho / dist);
    add(middle - half);
    add(middle + half);
  };
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
      point(p.a);
      point(p.b);
      break;
    case Level::PrimitiveKind::kCircle:
      if (p.radius == 0.0) return std::nullopt;
      round(p.a, p.radius);
      break;
    case Level::PrimitiveKind::kCapsule:
      if (p.radius == 0.0) return std::nullopt;
      round(p.a, p.radius);
      round(p.b, p.radius);
      break;
    case Level::PrimitiveKind::kConvexPolygon: {
      const ConvexPolygon& polygon = o.level->convex_polygon(p.shape);
      for (int i = 0; i < polygon.count; ++i) point(polygon.vertices[i]);
      break;
    }
    case Level::PrimitiveKind::kConcaveEdge:
      return std::nullopt;
  }
  constexpr double kMargin = 1e-9;
  if (hi - lo >= std::numbers::pi - kMargin) return std::nullopt;
  lo += kMargin;
  hi -= kMargin;
  if (!(lo < hi)) return std::nullopt;
  return std::make_pair(lo, hi);
}

bool ViewerInside(const Level& level, Vec2 v, const QueryFilter& filter) {
  Layer layers[2];
  const int count = LayersOf(level, layers);
  for (int i = 0; i < count; ++i) {
    if (internal::InsideOccluder(*layers[i].level, layers[i].removed, v,
                                 filter)) {
      return true;
    }
  }
  return false;
}

}  // namespace

DiscSightScratch::DiscSightScratch(int32_t max_occluders)
    : max_occluders_(std::max(max_occluders, int32_t{0})) {
  occluders_.reserve(max_occluders_);
  angles_.reserve(static_cast<size_t>(max_occluders_) * kAnglesPerOccluder +
                  16);
  blocked_.reserve(max_occluders_);
}

size_t DiscSightScratch::memory_bytes() const {
  return occluders_.capacity() * sizeof(Occluder) +
         angles_.capacity() * sizeof(double) +
         blocked_.capacity() * sizeof(std::pair<double, double>);
}

std::optional<bool> SeesDisc(const Level& level, const Viewer& viewer,
                             Circle target, DiscSightScratch& scratch,
                             const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(viewer.position) && IsValid(target));
  const Vec2 v = viewer.position;
  const Vec2 c = target.center;
  const double r = target.radius;
  int32_t& found = DiscSightAccess::found(scratch);
  found = 0;
  if (r == 0.0) return Sees(level, viewer, c, filter);
  if (ViewerInside(level, v, filter)) return false;
  // A viewer in the closed disc: its own position is a point of it.
  if (internal::DistanceSquaredVs(c, v, r, 0.0, 0.0) <= 0) return true;
  if (Sees(level, viewer, c, filter)) return true;
  // No point of D within range: |c - v| > range + r.
  if (viewer.range.has_value() &&
      internal::DistanceSquaredVs(c, v, *viewer.range, r, 0.0) > 0) {
    return false;
  }

  // The occluders in the box around v and D, clipped to the range's box.
  Aabb box{{std::min(v.x, c.x - r), std::min(v.y, c.y - r)},
           {std::max(v.x, c.x + r), std::max(v.y, c.y + r)}};
  if (viewer.range.has_value()) {
    const double range = *viewer.range;
    box.lower = {std::max(box.lower.x, v.x - range),
                 std::max(box.lower.y, v.y - range)};
    box.upper = {std::min(box.upper.x, v.x + range),
                 std::min(box.upper.y, v.y + range)};
  }
  // Widened far beyond the rounding of the shapes' bounds (a circle's
  // centre +- radius).
  const double slack = 1e-12 * (std::abs(box.lower.x) + std::abs(box.lower.y) +
                                std::abs(box.upper.x) + std::abs(box.upper.y));
  box.lower = {box.lower.x - slack, box.lower.y - slack};
  box.upper = {box.upper.x + slack, box.upper.y + slack};
  const Wedge wedge(v, c - v, r);
  std::vector<Occluder>& occluders = DiscSightAccess::occluders(scratch);
  occluders.clear();
  const int32_t max = scratch.max_occluders();
  Layer layers[2];
  const int layer_count = LayersOf(level, layers);
  for (int i = 0; i < layer_count; ++i) {
    const Layer layer = layers[i];
    layer.level->spatial_hash().VisitBox(box, [&](int32_t item) {
      const Level::Primitive& p = layer.level->primitive(item);
      // The hash's cells hold shapes beside the box too.
      if (p.kind == Level::PrimitiveKind::kConcaveEdge ||
          !Overlap(BoundsOf(p), box) || wedge.Misses(BoundsOf(p)) ||
          !internal::Occludes(*layer.level, p, v, filter, layer.removed)) {
        return true;
      }
      if (++found <= max) occluders.push_back({layer.level, &p, p.shape});
      return true;
    });
    layer.level->solids().VisitBox(box, [&](int32_t item) {
      const int32_t shape = layer.level->solid_shape(item);
      const Aabb bounds =
          BoundsOf(layer.level->concave_polygon(shape).vertices);
      if (!Overlap(bounds, box) || wedge.Misses(bounds) ||
          !internal::Occludes(*layer.level, shape, filter, layer.removed)) {
        return true;
      }
      // A concave polygon counts one occluder per edge.
      found += static_cast<int32_t>(
          layer.level->concave_polygon(shape).vertices.size());
      if (found <= max) occluders.push_back({layer.level, nullptr, shape});
      return true;
    });
  }
  if (found > max) return std::nullopt;

  // Arcs surely blocked, merged, sorted: a direction inside one needs no
  // exact test.
  const Vec2 w = c - v;
  std::vector<std::pair<double, double>>& blocked =
      DiscSightAccess::blocked(scratch);
  blocked.clear();
  const double length = std::hypot(w.x, w.y);
  const double near = (length - r) * (1.0 - 1e-9) -
                      1e-9 * (std::abs(v.x) + std::abs(v.y) + length);
  for (const Occluder& o : occluders) {
    if (const auto arc = SurelyBlockedArc(o, v, w, near)) {
      blocked.push_back(*arc);
    }
  }
  std::sort(blocked.begin(), blocked.end());
  size_t merged = 0;
  for (size_t k = 0; k < blocked.size(); ++k) {
    if (merged > 0 && blocked[k].first < blocked[merged - 1].second) {
      blocked[merged - 1].second =
          std::max(blocked[merged - 1].second, blocked[k].second);
    } else {
      blocked[merged++] = blocked[k];
    }
  }
  blocked.resize(merged);
  const auto surely_blocked = [&](const ExactVec& d) {
    const Vec2 e = Estimate(d);
    const double angle = std::atan2(Cross(w, e), Dot(w, e));
    auto it =
        std::upper_bound(blocked.begin(), blocked.end(), angle,
                         [](double a, const std::pair<double, double>& arc) {
                           return a < arc.first;
                         });
    return it != blocked.begin() && angle < (it - 1)->second;
  };

  DiscSight sight(viewer, target, occluders);
  const auto seen = [&](const ExactVec& d) {
    return !surely_blocked(d) && sight.SeenAlong(d);
  };
  // Exact directions: the cone's edges, the occluders' vertices and feet.
  if (viewer.cone.has_value() &&
      (seen(Exact(viewer.cone->right)) || seen(Exact(viewer.cone->left)))) {
    return true;
  }
  // D's own tangents, when exact.
  if (RoundTangents(c, r, v, seen)) return true;
  for (const Occluder& o : occluders) {
    if (TryExactDirections(o, v, c, seen)) return true;
  }

  // One direction inside each arc between neighbouring critical directions,
  // and the critical directions as rounded.
  std::vector<double>& list = DiscSightAccess::angles(scratch);
  list.clear();
  Angles angles(v, w, list);
  const double half =
      r >= length ? std::numbers::pi / 2 : std::asin(r / length);
  angles.Direction(w);
  list.push_back(-half);
  list.push_back(half);
  if (viewer.cone.has_value()) {
    angles.Direction(viewer.cone->right);
    angles.Direction(viewer.cone->left);
  }
  if (viewer.range.has_value()) {
    angles.CircleCircle(v, *viewer.range, c, r);
  }
  for (const Occluder& o : occluders) CriticalAngles(o, c, r, angles);
  // Only the arc of D's directions matters (a little wider, for rounding).
  const double window = half + 1e-7;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](double a) { return std::abs(a) > window; }),
             list.end());
  std::sort(list.begin(), list.end());
  const auto direction = [&](double angle) {
    const double cos_a = std::cos(angle);
    const double sin_a = std::sin(angle);
    return Exact(Vec2{w.x * cos_a - w.y * sin_a, w.x * sin_a + w.y * cos_a});
  };
  for (size_t k = 0; k < list.size(); ++k) {
    if (seen(direction(list[k]))) return true;
    if (k + 1 < list.size() && list[k + 1] > list[k] &&
        seen(direction(0.5 * (list[k] + list[k + 1])))) {
      return true;
    }
  }
  return false;
}

}  // namespace collide
