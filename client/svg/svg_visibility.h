// Drawing the line-of-sight queries of collision_service.proto (visibility,
// visibility polygon) with their results for the SVG renderer
// (svg_render.h), and what of them the default view must hold. `colour` is
// the query's own; a query with no result is drawn in grey.
#ifndef COLLIDE_CLIENT_SVG_SVG_VISIBILITY_H_
#define COLLIDE_CLIENT_SVG_SVG_VISIBILITY_H_

#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// Each viewer as a dot, its range as a dotted circle and its cone as its
// two edges (to the range, or a fixed length without one), labelled "v0",
// "v1", ...; each target as a dot (a circle target as its outline) with
// "t0", "t1", ... With `result`: a line of sight from each viewer to each
// target it sees, seen targets filled in the query's colour and the others
// hollow grey. Viewers and targets with numbers out of range are noted,
// not drawn. `result` nullptr: the query alone, in grey.
void DrawVisibility(Canvas& canvas, absl::string_view tag,
                    const v1::VisibilityQuery& query,
                    const v1::VisibilityResult* result,
                    absl::string_view colour);

// The viewer as a dot and its range as a dotted circle; with `result`, the
// visible region filled faintly and outlined in the query's colour. An
// empty polygon (the viewer inside a solid) is noted.
void DrawVisibilityPolygon(Canvas& canvas, absl::string_view tag,
                           const v1::VisibilityPolygonQuery& query,
                           const v1::VisibilityPolygonResult* result,
                           absl::string_view colour);

// The box (world) holding a line-of-sight query's viewers with their
// ranges, its targets and, when its result is OK, the polygon; empty
// (EmptyBox) for other kinds of query.
Aabb VisibilityBounds(const v1::Query& query, const v1::QueryResult& result);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_VISIBILITY_H_
