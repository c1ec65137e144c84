// World casts of turning shapes: a circle, capsule or convex polygon that
// turns about a pivot while it translates (the motion model of turning.h),
// swept through a whole Level.
//
// Broad phase: every pose of the mover lies in the disc about the moving
// pivot whose radius is the mover's reach (its farthest point from the
// pivot, radius included), so the level's spatial hash is walked over the
// swept box of that disc (SpatialHash::VisitSweep), in order of the time
// the disc's box reaches each cell; a turning shape visits the cells of a
// translating disc of its reach, a bounded set. Narrow phase: CastTurning
// (turning.h) of the mover against each primitive passing the filter: a
// segment, circle, capsule or convex polygon shape as itself, a polyline
// segment by segment, a concave polygon edge by edge plus a containment
// test of the mover's start pose (a mover wholly inside a solid concave
// polygon overlaps it at fraction 0).
//
// Between shapes the order is that of query.h on fraction_lo: the smallest
// fraction_lo first, then an initial overlap before any other status, then
// the smallest shape id, then the lowest part. Brackets of two shapes that
// overlap (contacts within kTurnBracketWidth of each other) are ordered by
// that rule; which of them truly comes first is not certified. The world
// answer keeps the per-pair guarantee: the mover is disjoint from every
// shape passing the filter for all fractions before the reported
// fraction_lo, and the reported shape's status (kHit, kInitialOverlap,
// kNearContact, kUndecided) says what happens at it. kNearContact and
// kUndecided are not misses: a caller that must not let a contact through
// treats them as a hit at fraction_lo. A miss (nullopt, or an empty list)
// means no shape passing the filter is touched in [0, max_fraction].
//
// angle == 0 is a pure translation and is answered by the translating
// world casts of query.h (CastCircle, CastCapsule, CastPolygon and their
// All variants) with CastOptions{.max_fraction = options.max_fraction}, bit
// for bit: each bracket is then [hit.fraction, hit.fraction], its status
// kHit or kInitialOverlap.
//
// Queries never allocate. Preconditions (COLLIDE_DCHECK): IsValid(mover)
// and IsValid(options) of turning.h.
#ifndef COLLIDE_TURNING_QUERY_H_
#define COLLIDE_TURNING_QUERY_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/turning.h"

namespace collide {

// What a world hit of a turning mover adds to WorldHit: the bracket's end,
// the status, and the pair's gap bound and work. The WorldHit beside it
// holds fraction = fraction_lo, point and normal (approximate, where the
// shapes are nearest at fraction_lo), depth (kInitialOverlap), feature
// {kSurface, 0} (the pair casts name no feature; the translating path's
// own feature on angle 0), and status kInitialOverlap for kInitialOverlap,
// else kHit.
struct TurnBracket {
  TurnStatus status = TurnStatus::kHit;
  double fraction_hi = 0.0;
  double gap_bound = 0.0;
  int32_t iterations = 0;
};

struct WorldTurnHit {
  WorldHit hit;
  TurnBracket bracket;
};

// The first shape passing `filter` that the turning mover meets within
// options.max_fraction (see the file comment), or nullopt.
std::optional<WorldTurnHit> CastTurning(
    const Turning<Circle>& mover, const Level& level,
    const QueryFilter& filter = {},
    const TurnOptions& options = kDefaultTurnOptions);
std::optional<WorldTurnHit> CastTurning(
    const Turning<Capsule>& mover, const Level& level,
    const QueryFilter& filter = {},
    const TurnOptions& options = kDefaultTurnOptions);
std::optional<WorldTurnHit> CastTurning(
    const Turning<ConvexPolygon>& mover, const Level& level,
    const QueryFilter& filter = {},
    const TurnOptions& options = kDefaultTurnOptions);

// Every shape the turning mover meets within max_fraction, once each (its
// earliest part), in the order of the file comment: hit i in hits[i], its
// bracket in brackets[i]. Precondition: brackets.size() == hits.size().
// When more shapes are met than hits holds, the earliest ones and
// truncated are set, as in query.h.
ListResult CastTurningAll(const Turning<Circle>& mover, const Level& level,
                          absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter = {},
                          const TurnOptions& options = kDefaultTurnOptions);
ListResult CastTurningAll(const Turning<Capsule>& mover, const Level& level,
                          absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter = {},
                          const TurnOptions& options = kDefaultTurnOptions);
ListResult CastTurningAll(const Turning<ConvexPolygon>& mover,
                          const Level& level, absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter = {},
                          const TurnOptions& options = kDefaultTurnOptions);

}  // namespace collide

#endif  // COLLIDE_TURNING_QUERY_H_
