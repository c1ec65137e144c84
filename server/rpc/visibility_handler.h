// The line-of-sight queries: a VisibilityQuery answered by
// collide::VisibleTargets (its bits copied whole into the result; under
// TARGET_RULE_ANY_PART each circle target whose centre a viewer does not
// see is judged again by collide::SeesDisc), and a
// VisibilityPolygonQuery. Converted and checked by
// proto/formats/visibility_convert.h. Each returns the error of a bad
// query (its field paths relative to the query) and leaves `result` to
// the caller then. A query over a size limit (max_visibility_pairs,
// max_visibility_polygon_vertices, max_visibility_polygon_edges,
// max_visibility_disc_occluders) is RESOURCE_EXHAUSTED naming it,
// counted in collide_queries_over_limit_total and logged at most every
// 10 s.
//
// Memory: each thread answering them keeps one collide::VisibilityScratch
// of the default capacity (1.6 MiB, allocated on its first visibility
// query) and grow-only viewer and target buffers bounded by
// max_visibility_pairs, and under TARGET_RULE_ANY_PART a
// collide::DiscSightScratch of max_visibility_disc_occluders (58 KiB at
// the default); one answering polygons also a
// collide::VisibilityPolygonScratch of max_visibility_polygon_edges
// (2.8 MiB at the default) and room for max_visibility_polygon_vertices
// vertices (40 bytes each).
#ifndef COLLIDE_SERVER_RPC_VISIBILITY_HANDLER_H_
#define COLLIDE_SERVER_RPC_VISIBILITY_HANDLER_H_

#include "absl/status/status.h"
#include "collide/level.h"
#include "collide/v1/collision_service.pb.h"
#include "proto/formats/input_limits.h"

namespace collide::server {

absl::Status RunVisibility(const v1::VisibilityQuery& query, const Level& level,
                           const formats::InputLimits& limits,
                           v1::QueryResult* result);

absl::Status RunVisibilityPolygon(const v1::VisibilityPolygonQuery& query,
                                  const Level& level,
                                  const formats::InputLimits& limits,
                                  v1::QueryResult* result);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_VISIBILITY_HANDLER_H_
