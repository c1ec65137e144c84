// Limits on what a caller may send: the conversions here (proto_convert.h)
// refuse input over them, and the server enforces the rest. The server's
// main.cc fills them from flags; conversions, handlers and the level store
// receive them and never read flags.
#ifndef COLLIDE_FORMATS_INPUT_LIMITS_H_
#define COLLIDE_FORMATS_INPUT_LIMITS_H_

#include <cstdint>

namespace collide::formats {

struct InputLimits {
  // Queries per batch (StreamQueriesRequest / RunQueriesRequest); more is
  // RESOURCE_EXHAUSTED for the whole batch.
  int32_t max_batch_size = 4096;
  // Vertices in one level polyline or polygon; more is RESOURCE_EXHAUSTED
  // naming the shape. (Query polygons are bounded by kMaxPolygonVertices.)
  int32_t max_vertices = 4096;
  // Shapes in one level; more is RESOURCE_EXHAUSTED.
  int32_t max_level_shapes = 1 << 20;
  // Vertices summed over all shapes of one level (bounds the memory a put
  // can ask for); more is RESOURCE_EXHAUSTED.
  int64_t max_level_vertices = int64_t{1} << 24;
  // Memory one level may need: its bound (collide::Level::MemoryBound:
  // bytes per shape, per polygon or box and per polyline or polygon vertex,
  // plus a constant), checked before it is built; more is
  // RESOURCE_EXHAUSTED. The default leaves room for the next version of a
  // level beside the one serving in a 1 GiB container.
  int64_t max_level_bytes = int64_t{384} << 20;
  // Entries an all-hits cast or an overlap query returns at most; also the
  // value of max_hits / max_results 0. A query asking for more is
  // INVALID_ARGUMENT in its own result.
  int32_t max_results_per_query = 256;
  // Entries of one query's filter.ignore_ids; more is INVALID_ARGUMENT in
  // that query's result (the list is scanned linearly per candidate).
  int32_t max_ignore_ids = 64;
  // Targets in one hit validation query; more is INVALID_ARGUMENT in that
  // query's result (each target costs one moving-vs-moving cast).
  int32_t max_shot_targets = 256;
  // The most slide iterations a move validation query may ask for, 0 to
  // collide::kMaxSlideIterations (32); more is INVALID_ARGUMENT in that
  // query's result (each iteration costs one world cast).
  int32_t max_slide_iterations = 16;
  // Viewer-target pairs in one visibility query (viewers x targets, or
  // viewers alone without targets); more is RESOURCE_EXHAUSTED in that
  // query's result. Each pair costs at most one line-of-sight test and
  // one bit of the answer; 65536 is 256 viewers x 256 targets.
  int32_t max_visibility_pairs = 65536;
  // Vertices of one visibility polygon; a polygon needing more is
  // RESOURCE_EXHAUSTED in that query's result. Each vertex costs about 30
  // bytes of the answer, and each thread answering polygons keeps room for
  // this many (40 bytes each).
  int32_t max_visibility_polygon_vertices = 16384;
  // Occluder edges within one visibility polygon's range (a round
  // occluder counts as up to 2 + 2 pi / max_arc_angle); more is
  // RESOURCE_EXHAUSTED in that query's result. Each thread answering
  // polygons keeps a collide::VisibilityPolygonScratch of this many
  // edges.
  int32_t max_visibility_polygon_edges = 16384;
  // Occluders (a concave polygon counts one per edge) that may block a
  // sight line from one viewer to one circle target judged under
  // TARGET_RULE_ANY_PART (collide::SeesDisc's count);
  // more is RESOURCE_EXHAUSTED in that query's result. The work of one
  // such pair grows as the square of this count; each thread answering
  // visibility keeps a collide::DiscSightScratch of this many (232 bytes
  // each).
  int32_t max_visibility_disc_occluders = 256;
  // Largest gRPC message the server receives or sends (bytes); also the
  // largest level file read.
  int32_t max_message_bytes = 64 << 20;
};

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_INPUT_LIMITS_H_
