// Pixel-space geometry for the SVG renderer (svg_render.h): convex hulls,
// rounded outlines and clipping. Everything here works on picture
// coordinates (pixels, y down) after the world-to-picture mapping; none of
// it is collision geometry.
//
// Why clip at all: SVG renderers draw in single precision (cairo, behind
// rsvg, even in 24.8 fixed point), so a shape far larger than the picture
// (a 40-unit wall in a view zoomed to a contact, a circle of radius 1e50)
// would be drawn wrongly or not at all. Shapes are therefore cut to a
// rectangle somewhat larger than the picture before they are written, which
// bounds every number in the file.
#ifndef COLLIDE_CLIENT_SVG_SVG_GEOMETRY_H_
#define COLLIDE_CLIENT_SVG_SVG_GEOMETRY_H_

#include <vector>

#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// The convex hull of `points`, counter-clockwise in the mathematical sense
// of the coordinates given (Cross > 0 turns), starting from the smallest
// (x, y). Duplicate and collinear points are dropped, so a degenerate input
// gives 1 point (all equal) or 2 (all on a line; the extreme ends). Empty in,
// empty out.
std::vector<Vec2> ConvexHull(absl::Span<const Vec2> points);

// Distance from `point` to the convex polygon `hull` (as ConvexHull returns:
// 1 point, a segment of 2, or a counter-clockwise polygon); 0 inside.
double DistanceToConvex(absl::Span<const Vec2> hull, Vec2 point);

// The smallest box holding `points` grown by `radius` on every side.
Aabb BoundsOf(absl::Span<const Vec2> points, double radius);

// Whether `inner` lies inside `outer` (boundaries included), and whether the
// two share any point.
bool Contains(const Aabb& outer, const Aabb& inner);
bool Overlaps(const Aabb& a, const Aabb& b);

// Sutherland-Hodgman: the part of the closed polygon `polygon` (any simple
// polygon, either winding) inside `rect`. A concave polygon may come back
// with zero-width spikes along the rectangle's sides; they are invisible when
// the rectangle extends beyond the picture. Every returned coordinate lies
// within `rect`. Fewer than 3 points means nothing is inside.
std::vector<Vec2> ClipPolygon(absl::Span<const Vec2> polygon, const Aabb& rect);

// Liang-Barsky: the parts of the chain through `points` (closed: with the
// edge from the last point back to the first) inside `rect`, as separate
// open chains of at least 2 points each, in order. Every returned coordinate
// lies within `rect`.
std::vector<std::vector<Vec2>> ClipChain(absl::Span<const Vec2> points,
                                         bool closed, const Aabb& rect);

// The outline of the rounded convex shape {p : DistanceToConvex(hull, p) <=
// radius} (a circle, a stadium, a rounded polygon) as a polygon, for
// clipping with ClipPolygon where the shape is too large to write exactly.
// Arcs are sampled so the chords stray at most `tolerance` from the curve,
// but only where they come near `rect`: elsewhere a chord cuts the arc,
// which changes nothing inside `rect` (every omitted piece spans at most a
// quarter turn, so its chord stays in its own sector, away from `rect`).
// hull as ConvexHull returns; radius > 0.
std::vector<Vec2> RoundedOutline(absl::Span<const Vec2> hull, double radius,
                                 const Aabb& rect, double tolerance);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_GEOMETRY_H_
