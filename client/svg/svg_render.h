// Drawing a level and a set of queries with their results as a standalone
// SVG 1.1 picture (collide-cli render): the level's shapes, and for
// each cast its start and end (dashed) outlines, the region it sweeps, the
// shape at each hit's fraction (the time-of-impact position), contact points
// and normals; overlap queries with the level shapes they overlap; closest
// point queries with a line to the point found; move validation with its
// safe position, slide path or way out; hit validation with its targets
// over the tick; pair TOI with both shapes at contact (svg_validation.h);
// visibility with its viewers, cones, ranges, lines of sight and targets
// seen or not, and visibility polygons filled (svg_visibility.h).
// A legend under the drawing names what is shown and lists what could not
// be drawn.
#ifndef COLLIDE_CLIENT_SVG_SVG_RENDER_H_
#define COLLIDE_CLIENT_SVG_SVG_RENDER_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"

namespace collide::client {

// A query and the server's answer to it. A default (empty) result draws the
// query alone; a result whose status is not OK draws the query in grey and
// lists the error in the legend.
struct RenderedQuery {
  v1::Query query;
  v1::QueryResult result;
};

// How to draw.
struct RenderOptions {
  // Width of the drawing in pixels, in [64, 16384]. Its height follows from
  // the view's aspect; the legend adds a band below it.
  int width_px = 800;
  // The part of the world to show (level units). Absent: the bounds of the
  // level's shapes and of the queries (start and end shapes, hit and closest
  // points) plus a 5% margin. Either way, the shorter side is widened about
  // the centre so the picture is at most 4 times as tall as wide or wide as
  // tall. When given: finite, within +-1e60, and at least 1e-9 wide and
  // high (INVALID_ARGUMENT naming the field otherwise).
  std::optional<v1::Aabb> view;
  // A grid of lines at multiples of grid_cell_size, with the axes darker.
  bool draw_grid = true;
  // Spacing of the grid lines (level units): 0 picks a round number (1, 2 or
  // 5 times a power of ten) giving about 10 to 20 lines across; otherwise
  // finite and > 0, coarsened to a multiple of itself if it would draw more
  // than 200 lines.
  double grid_cell_size = 0.0;
  // Text in the drawing: request ids next to queries, fractions next to
  // hits, level shape ids, grid coordinates. The legend is always drawn.
  bool labels = true;
  // Which way world y points in the picture: Y_AXIS_UNSPECIFIED takes the
  // level's own y_axis (a Tiled import's is Y_AXIS_DOWN, so maps look as
  // Tiled shows them); Y_AXIS_UP or Y_AXIS_DOWN overrides it.
  v1::YAxis y_axis = v1::Y_AXIS_UNSPECIFIED;
};

// The SVG document (UTF-8, standalone, no external resources) for `level`
// and `queries`, drawn in order with a colour per query. World y points up
// (the picture is flipped so up is up) unless the options or the level say
// it points down. Strokes, markers and text have fixed
// pixel sizes whatever the zoom; shapes are cut to (a margin around) the
// view, so every coordinate in the file stays small even for huge levels.
//
// Never fails on the level or the queries: a level shape or query with no
// geometry, a number that is not finite or beyond +-1e60, a negative radius
// or too few vertices is not drawn, and the legend counts it; a query kind
// this renderer does not know (a newer proto) is noted in the legend.
// Returns INVALID_ARGUMENT naming the field for bad `options`.
absl::StatusOr<std::string> RenderSvg(const v1::Level& level,
                                      absl::Span<const RenderedQuery> queries,
                                      const RenderOptions& options);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_SVG_SVG_RENDER_H_
