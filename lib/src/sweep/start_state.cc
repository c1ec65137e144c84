#include "sweep/start_state.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "exact/within_distance.h"
#include "sweep/core.h"
#include "sweep/separation.h"

namespace collide::internal {
namespace {

// A start whose contact time is estimated below this share of the
// translation is reported at fraction 0 (see ClassifyStart).
constexpr double kNearStartFraction = 1e-10;
// ... when the shapes are in contact by this fraction (2^-30, within the
// fraction tolerance of toi.h) or by max_fraction if that is smaller.
constexpr double kNearStartReach = 0x1p-30;

// How the cores' point sets (radii not included) meet, exactly.
enum class CoreMeet { kApart, kTouching, kOverlapping };

struct CoreContact {
  CoreMeet meet = CoreMeet::kApart;
  // Touching only: core a moving by d overlaps b for every small t > 0.
  bool moving_in = false;
};

// Separating axes, exactly: every edge line of either core and each
// segment's direction. The cores are apart when one axis separates them
// strictly; otherwise they meet, and they only touch when some axis
// separates them weakly (a line through the contact with each core on its
// closed side). Such lines are supporting lines of the Minkowski difference
// at the contact, and among them are the lines of all its edges there, so a
// touching a moves in exactly when d crosses every one of them strictly
// inwards: d points into the interior of the tangent cone (at a vertex,
// strictly between its edges). Cores whose difference has no interior (two
// parallel segments, a point and a segment, two points) never overlap: a
// segment has no inside.
CoreContact ExactContact(const Core& a, const Motion& motion, const Core& b) {
  CoreContact result;
  if (a.count() == 1 && b.count() == 1) {
    if (a.vertex(0) == b.vertex(0)) result.meet = CoreMeet::kTouching;
    return result;
  }
  bool weak = false;
  bool in = true;
  // mover is +1 when x is a (moving by d), -1 when x is b (a approaching it
  // is x moving by -d).
  const auto edges_separate = [&](const Core& x, const Core& y, int mover) {
    for (int i = 0; i < x.edge_count(); ++i) {
      const Vec2 p = x.vertex(i);
      const Vec2 q = x.vertex(x.next(i));
      // y is outside when to the right of p -> q (x counter-clockwise).
      int most = -1;
      for (int k = 0; k < y.count() && most < 1; ++k) {
        most = std::max(most, Orient(p, q, y.vertex(k)));
      }
      if (most < 0) return true;
      if (most == 0) {
        weak = true;
        // x's outward normal is RightPerp(q - p): x closes on y across the
        // line when its motion has Cross(q - p, motion) < 0.
        if (mover * CrossSign(p, q, motion.from, motion.to) >= 0) in = false;
      }
    }
    return false;
  };
  const auto direction_separates = [&](const Core& x, const Core& y,
                                       int mover) {
    if (x.count() != 2) return false;
    const Vec2 p = x.vertex(0);
    const Vec2 q = x.vertex(1);
    int least = 1;  // y beyond q along q - p
    int most = -1;  // y before p
    for (int k = 0; k < y.count(); ++k) {
      least = std::min(least, DotSign(p, q, q, y.vertex(k)));
      most = std::max(most, DotSign(p, q, p, y.vertex(k)));
    }
    if (least > 0 || most < 0) return true;
    const int along = DotSign(p, q, motion.from, motion.to);
    if (least == 0) {
      weak = true;
      if (mover * along <= 0) in = false;
    }
    if (most == 0) {
      weak = true;
      if (mover * along >= 0) in = false;
    }
    return false;
  };
  if (edges_separate(a, b, 1) || edges_separate(b, a, -1) ||
      direction_separates(a, b, 1) || direction_separates(b, a, -1)) {
    return result;
  }
  const bool flat =
      a.count() <= 2 && b.count() <= 2 &&
      (a.count() == 1 || b.count() == 1 ||
       CrossSign(a.vertex(0), a.vertex(1), b.vertex(0), b.vertex(1)) == 0);
  if (flat) {
    result.meet = CoreMeet::kTouching;
  } else if (weak) {
    result.meet = CoreMeet::kTouching;
    result.moving_in = in;
  } else {
    result.meet = CoreMeet::kOverlapping;
  }
  return result;
}

// The unit direction of w (from b's point towards a's) for a candidate, to a
// few ulps: from the vertex offset, or the edge's own direction (never from
// the difference of nearly equal points).
Vec2 CandidateNormal(const Candidate& c) {
  if (!c.edge) return Normalize(c.p - c.e0);
  const Vec2 e = c.e1 - c.e0;
  const Vec2 towards_p =
      Normalize(Orient(c.e0, c.e1, c.p) > 0 ? LeftPerp(e) : RightPerp(e));
  return c.side * towards_p;
}

}  // namespace

// Exact comparison of two candidates' squared distances: the sign of
// dist(x)^2 - dist(y)^2, with a vertex pair's |p - e0|^2 and an edge's
// Cross(e1 - e0, p - e0)^2 / |e1 - e0|^2 compared without dividing.
int CompareCandidates(const Candidate& x, const Candidate& y) {
  const auto parts = [](const Candidate& c, Expansion* num, Expansion* den) {
    if (!c.edge) {
      const Expansion dx = Expansion::Difference(c.p.x, c.e0.x);
      const Expansion dy = Expansion::Difference(c.p.y, c.e0.y);
      *num = dx * dx + dy * dy;
      *den = Expansion(1.0);
      return;
    }
    const Expansion ux = Expansion::Difference(c.e1.x, c.e0.x);
    const Expansion uy = Expansion::Difference(c.e1.y, c.e0.y);
    const Expansion mx = Expansion::Difference(c.p.x, c.e0.x);
    const Expansion my = Expansion::Difference(c.p.y, c.e0.y);
    const Expansion cross = ux * my - uy * mx;
    *num = cross * cross;
    *den = ux * ux + uy * uy;
  };
  Expansion xn;
  Expansion xd;
  Expansion yn;
  Expansion yd;
  parts(x, &xn, &xd);
  parts(y, &yn, &yd);
  return (xn * yd - yn * xd).sign();
}

namespace {

// A candidate's squared distance as an interval certainly holding it.
Interval CandidateRange(const Candidate& c) {
  if (!c.edge) {
    const double dd = LengthSquared(c.p - c.e0);
    return {dd * (1.0 - kFilterRoundings), dd * (1.0 + kFilterRoundings)};
  }
  const Vec2 u = c.e1 - c.e0;
  const Vec2 m = c.p - c.e0;
  const double left = u.x * m.y;
  const double right = u.y * m.x;
  const double cross = std::abs(left - right);
  const double bound = kCrossErrorBound * (std::abs(left) + std::abs(right));
  const double low = std::max(0.0, cross - bound);
  const double high = cross + bound;
  const double uu = LengthSquared(u);
  return {low * low / uu * (1.0 - kFilterRoundings),
          high * high / uu * (1.0 + kFilterRoundings)};
}

// Calls visit(candidate) for every candidate pair of apart cores a and b
// (a moving by d).
template <typename Visit>
void ForEachCandidate(const Core& a, const Motion& motion, const Core& b,
                      Visit visit) {
  // A vertex p of `mover_side` core against the other core's edges; sign
  // +1 when p is a's (w = p - edge point), -1 when b's.
  const auto vertex_edges = [&](Vec2 p, const Core& other, int sign) {
    for (int j = 0; j < DistinctEdges(other); ++j) {
      const Vec2 e0 = other.vertex(j);
      const Vec2 e1 = other.vertex(other.next(j));
      if (DotSign(e0, e1, e0, p) <= 0 || DotSign(e0, e1, e1, p) >= 0) {
        continue;  // projects onto an end: a vertex pair
      }
      // |e|^2 d . w = Cross(e, m) Cross(e, d) for w the perpendicular from
      // the line to p.
      const int w_sign =
          sign * Orient(e0, e1, p) * CrossSign(e0, e1, motion.from, motion.to);
      visit(Candidate{p, e0, e1, true, w_sign, sign});
    }
  };
  for (int i = 0; i < a.count(); ++i) {
    for (int j = 0; j < b.count(); ++j) {
      visit(Candidate{a.vertex(i), b.vertex(j), b.vertex(j), false,
                      DotSign(b.vertex(j), a.vertex(i), motion.from, motion.to),
                      1});
    }
    vertex_edges(a.vertex(i), b, 1);
  }
  for (int j = 0; j < b.count(); ++j) vertex_edges(b.vertex(j), a, -1);
}

// Where apart cores stand against distance r1 + r2 + r3 > 0: some
// candidate nearer (below), one exactly at it (at, with its d . w sign), or
// all farther.
struct DistanceState {
  bool below = false;
  bool at = false;
  Candidate at_candidate;
};

DistanceState DistanceAgainst(const Core& a, const Motion& motion,
                              const Core& b, double r1, double r2, double r3) {
  DistanceState state;
  ForEachCandidate(a, motion, b, [&](const Candidate& c) {
    if (state.below) return;
    const int s = c.edge ? LineDistanceVs(c.e0, c.e1, c.p, r1, r2, r3)
                         : DistanceSquaredVs(c.p, c.e0, r1, r2, r3);
    if (s < 0) state.below = true;
    if (s == 0 && !state.at) {
      state.at = true;
      state.at_candidate = c;
    }
  });
  return state;
}

// A nearest candidate of apart cores, whose w_sign is the sign of d . w
// for w from b's nearest point to a's: the gap's derivative at t = 0. The
// nearest candidates are found by their certified distance ranges; only
// when those leave candidates of different signs in the running (or
// rank_all asks for the nearest pair itself, for its direction) are they
// compared exactly.
Candidate NearestCandidate(const Core& a, const Motion& motion, const Core& b,
                           bool rank_all = false) {
  constexpr int kMaxCandidates = 4 * kMaxPolygonVertices * kMaxPolygonVertices;
  Candidate candidates[kMaxCandidates];
  Interval ranges[kMaxCandidates];
  int n = 0;
  double best_upper = kInfinity;
  ForEachCandidate(a, motion, b, [&](const Candidate& c) {
    if (n == kMaxCandidates) return;
    candidates[n] = c;
    ranges[n] = CandidateRange(c);
    best_upper = std::min(best_upper, ranges[n].upper);
    ++n;
  });
  int best = -1;
  bool mixed = false;
  for (int i = 0; i < n; ++i) {
    if (ranges[i].lower > best_upper) continue;
    if (best < 0) {
      best = i;
    } else if (candidates[i].w_sign != candidates[best].w_sign) {
      mixed = true;
    }
  }
  if (!mixed && !rank_all) return candidates[best];
  best = -1;
  for (int i = 0; i < n; ++i) {
    if (ranges[i].lower > best_upper) continue;
    if (best < 0 || CompareCandidates(candidates[i], candidates[best]) < 0) {
      best = i;
    }
  }
  return candidates[best];
}

}  // namespace

StartState ClassifyStartExact(const Core& a, const Motion& motion,
                              const Core& b, const CastOptions& options,
                              Candidate* skin_nearest) {
  const Vec2 d = motion.d;
  const double contact = a.radius() + b.radius();
  StartState state;
  const bool radii = a.radius() > 0.0 || b.radius() > 0.0;
  const bool skin = options.target_distance > 0.0;
  const CoreContact meet = ExactContact(a, motion, b);
  // Apart cores' nearest pair, when found: its normal is exact to a few
  // ulps, where the nearest-point offset of a small gap is not.
  Candidate nearest{};
  bool have_nearest = false;
  bool in_skin = false;
  bool overlap_apart = false;  // overlapping by the radii, cores apart
  if (meet.meet == CoreMeet::kOverlapping ||
      (radii && meet.meet == CoreMeet::kTouching)) {
    state.kind = StartKind::kOverlap;
  } else if (meet.meet == CoreMeet::kTouching) {
    state.kind =
        meet.moving_in ? StartKind::kTouchingIn : StartKind::kTouchingLeaving;
  } else {
    // Apart cores: the gap against the radii, then against the skin.
    if (radii) {
      const DistanceState at_contact =
          DistanceAgainst(a, motion, b, a.radius(), b.radius(), 0.0);
      if (at_contact.below) {
        state.kind = StartKind::kOverlap;
        overlap_apart = true;
      } else if (at_contact.at) {
        state.kind = at_contact.at_candidate.w_sign < 0
                         ? StartKind::kTouchingIn
                         : StartKind::kTouchingLeaving;
        nearest = at_contact.at_candidate;
        have_nearest = true;
      }
    }
    if (state.kind == StartKind::kClear && skin) {
      const DistanceState at_skin = DistanceAgainst(
          a, motion, b, a.radius(), b.radius(), options.target_distance);
      in_skin = at_skin.below || at_skin.at;
    }
    if (in_skin) {
      nearest = NearestCandidate(a, motion, b);
      have_nearest = true;
      state.kind = nearest.w_sign < 0 ? StartKind::kSkinApproaching
                                      : StartKind::kSkinLeaving;
    }
  }
  if (state.kind == StartKind::kClear) {
    // Apart from the skin (or contact) by a few roundings of the shapes'
    // own scale and closing on it at first order: the exact contact time is
    // then within the sweeps' rounding of 0, where their formulas (a band's
    // line distance, a polygon's edge lines) may already see the start
    // inside and miss the contact altogether (a slide stopped at the skin
    // would turn back in). Reported as the hit at fraction 0 it is
    // to within the fraction tolerance. Only for a positive grow, where the
    // gap is smooth; the translation's length plays no part in "near".
    const double grow = contact + options.target_distance;
    if (grow > 0.0) {
      const Separation separation = Separate(a, b);
      const double excess = separation.gap - grow;
      const double scale = MaxAbs(a.vertex(0) - b.vertex(0)) + grow +
                           MaxAbs(a.vertex(a.count() - 1) - a.vertex(0)) +
                           MaxAbs(b.vertex(b.count() - 1) - b.vertex(0));
      const double closing = -Dot(d, separation.normal);
      // The hit at 0 stands for a contact that certainly comes within the
      // fraction tolerance and by max_fraction: exactly, the shapes are in
      // contact at that fraction (their gap is convex in time, so the
      // first contact comes by then).
      if (excess <= kTouchRoundings * scale && closing > 0.0 &&
          excess <= kNearStartFraction * closing &&
          HullsWithinAfter(HullOf(a), motion.from, motion.to,
                           std::min(options.max_fraction, kNearStartReach),
                           HullOf(b), options.target_distance)) {
        nearest = NearestCandidate(a, motion, b);
        if (nearest.w_sign < 0) {
          state.kind = StartKind::kSkinApproaching;
          state.separation = separation;
          state.separation.normal = CandidateNormal(nearest);
          state.gap = std::max(separation.gap - contact, 0.0);
          if (skin_nearest != nullptr) *skin_nearest = nearest;
        }
      }
    }
    return state;
  }
  // The reported separation (normal, point, feature, depth) is computed in
  // doubles; only the decisions above are exact.
  state.separation = Separate(a, b);
  state.gap = state.separation.gap - contact;
  if (overlap_apart &&
      state.separation.gap <=
          1e-6 * (MaxAbs(a.vertex(0)) + MaxAbs(b.vertex(0)) +
                  MaxAbs(a.vertex(a.count() - 1) - a.vertex(0)) +
                  MaxAbs(b.vertex(b.count() - 1) - b.vertex(0)))) {
    // Overlapping by the radii with the cores all but touching: the escape
    // direction is that of the nearest pair, ranked exactly. (A corner a
    // few ulps beside the other core and an edge beside it can be nearer
    // than rounding tells, and their directions differ entirely; farther
    // apart, the rounded separation's direction is good to 1e-10.)
    nearest = NearestCandidate(a, motion, b, /*rank_all=*/true);
    have_nearest = true;
  }
  if (have_nearest) state.separation.normal = CandidateNormal(nearest);
  if (in_skin && skin_nearest != nullptr) *skin_nearest = nearest;
  switch (state.kind) {
    case StartKind::kTouchingIn:
    case StartKind::kTouchingLeaving:
      state.gap = 0.0;
      break;
    case StartKind::kOverlap:
      state.gap = std::min(state.gap, 0.0);
      break;
    default:
      state.gap = std::max(state.gap, 0.0);
      break;
  }
  return state;
}

// The hit at fraction 0 a start state calls for, if any.
std::optional<Hit> StartHit(const StartState& state, const Core& b,
                            const CastOptions& options) {
  // Filled in place: a copy of a just-written Hit would stall on store
  // forwarding.
  std::optional<Hit> result;
  switch (state.kind) {
    case StartKind::kClear:
    case StartKind::kSkinLeaving:
      return result;
    case StartKind::kTouchingLeaving:
      if (!options.stop_at_penetration) return result;
      break;
    case StartKind::kSkinApproaching:
    case StartKind::kTouchingIn:
    case StartKind::kOverlap:
      break;
  }
  Hit& hit = result.emplace();
  hit.point =
      state.separation.point_on_b + b.radius() * state.separation.normal;
  hit.normal = state.separation.normal;
  hit.feature = state.separation.feature_b;
  if (state.kind != StartKind::kSkinApproaching) {
    hit.status = HitStatus::kInitialOverlap;
    hit.depth = std::max(0.0, -state.gap);
  }
  return result;
}

// Whether start state x makes a better fraction-0 answer than y (both
// giving a hit): deeper overlap first, then contact, then the nearest point
// within the skin.
bool BetterStart(const StartState& x, const StartState& y) {
  const auto rank = [](StartKind kind) {
    return kind == StartKind::kTouchingLeaving ? StartKind::kTouchingIn : kind;
  };
  if (rank(x.kind) != rank(y.kind)) return rank(x.kind) > rank(y.kind);
  return x.gap < y.gap;
}

}  // namespace collide::internal
