#include "sweep/only_touches.h"

#include "absl/types/span.h"
#include "exact/sign.h"
#include "sweep/core.h"

namespace collide::internal {
namespace {

// A concave polygon's vertices read as a core's (radius 0).
struct VertexList {
  absl::Span<const Vec2> vertices;

  int count() const { return static_cast<int>(vertices.size()); }
  Vec2 vertex(int i) const { return vertices[i]; }
  double radius() const { return 0.0; }
};

// The vertex of c with the least Cross(d, v) (side -1: the greatest), the
// comparisons exact so that a tie within rounding cannot pick a vertex that
// is not extreme.
template <typename Points>
Vec2 ExtremeAcross(const Points& c, Vec2 d, int side) {
  Vec2 best = c.vertex(0);
  for (int i = 1; i < c.count(); ++i) {
    // Sign of Cross(d, v - best) = -Cross(v - best, d).
    const Vec2 v = c.vertex(i);
    if (side * -CrossSign(best, v, Vec2{}, d) < 0) best = v;
  }
  return best;
}

// Whether Cross(d, to - from) >= r |d| for r = r1 + r2 (not rounded), d not
// zero: `to` lies at least r to the left of the line through `from` along
// d.
bool LeftByAtLeast(Vec2 from, Vec2 to, Vec2 d, double r1, double r2) {
  const int across = -CrossSign(from, to, Vec2{}, d);
  if (r1 == 0.0 && r2 == 0.0) return across >= 0;
  return across > 0 && DirectionDistanceVs(from, d, to, r1, r2, 0.0) >= 0;
}

// a's projection on the axis across d (Cross(d, .), widened by its radius
// times |d|) does not change as it moves: a line along d separates the two
// for the whole motion exactly when the projections meet at most at an
// end. a on the left of b: a's least against b's greatest.
template <typename Points>
bool ApartAcross(const Core& a, Vec2 d, const Points& b) {
  if (d == Vec2{}) return false;
  if (LeftByAtLeast(ExtremeAcross(b, d, -1), ExtremeAcross(a, d, 1), d,
                    a.radius(), b.radius())) {
    return true;
  }
  return LeftByAtLeast(ExtremeAcross(a, d, -1), ExtremeAcross(b, d, 1), d,
                       a.radius(), b.radius());
}

}  // namespace

bool PassesBeside(const Core& a, Vec2 d, const Core& b) {
  return ApartAcross(a, d, b);
}

bool PassesBeside(const Core& a, Vec2 d, const ConcavePolygon& b) {
  return ApartAcross(a, d, VertexList{b.vertices});
}

}  // namespace collide::internal
