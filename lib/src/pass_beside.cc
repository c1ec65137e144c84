// Whether a convex mover's straight motion can only touch a convex shape,
// never go into it: the contacts move validation does not count as blocking
// (a crate sliding along a floor of tiles touches each next tile's corner).
#include "convex_core.h"
#include "exact_sign.h"

namespace collide::internal {
namespace {

// The vertex of c with the least Cross(d, v) (side -1: the greatest), the
// comparisons exact so that a tie within rounding cannot pick a vertex that
// is not extreme.
int ExtremeAcross(const Core& c, Vec2 d, int side) {
  int best = 0;
  for (int i = 1; i < c.count(); ++i) {
    // Sign of Cross(d, v_i - v_best) = -Cross(v_i - v_best, d).
    const int across = -CrossSign(c.vertex(best), c.vertex(i), Vec2{}, d);
    if (side * across < 0) best = i;
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

}  // namespace

bool PassesBeside(const Core& a, Vec2 d, const Core& b) {
  if (d == Vec2{}) return false;
  // a's projection on the axis across d (Cross(d, .), widened by its radius
  // times |d|) does not change as it moves: a line along d separates the
  // two for the whole motion exactly when the projections meet at most at
  // an end. a on the left of b: a's least against b's greatest.
  if (LeftByAtLeast(b.vertex(ExtremeAcross(b, d, -1)),
                    a.vertex(ExtremeAcross(a, d, 1)), d, a.radius(),
                    b.radius())) {
    return true;
  }
  return LeftByAtLeast(a.vertex(ExtremeAcross(a, d, -1)),
                       b.vertex(ExtremeAcross(b, d, 1)), d, a.radius(),
                       b.radius());
}

}  // namespace collide::internal
