#include "server/rpc/visibility_handler.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "collide/visibility.h"
#include "collide/visibility_polygon.h"
#include "collide/visible_disc.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/visibility_convert.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

v1::VisibilityVertexKind ToProto(PolygonVertexKind kind) {
  switch (kind) {
    case PolygonVertexKind::kLevelVertex:
      return v1::VISIBILITY_VERTEX_KIND_LEVEL_VERTEX;
    case PolygonVertexKind::kRayHit:
      return v1::VISIBILITY_VERTEX_KIND_RAY_HIT;
    case PolygonVertexKind::kEdgeCrossing:
      return v1::VISIBILITY_VERTEX_KIND_EDGE_CROSSING;
    case PolygonVertexKind::kRoundPoint:
      return v1::VISIBILITY_VERTEX_KIND_ROUND_POINT;
    case PolygonVertexKind::kArc:
      return v1::VISIBILITY_VERTEX_KIND_ARC;
    case PolygonVertexKind::kArcEnd:
      return v1::VISIBILITY_VERTEX_KIND_ARC_END;
    case PolygonVertexKind::kViewer:
      return v1::VISIBILITY_VERTEX_KIND_VIEWER;
  }
  return v1::VISIBILITY_VERTEX_KIND_UNSPECIFIED;
}

absl::Status OverLimit(QueryLimit limit, absl::Status status) {
  RecordQueryOverLimit(limit, status.message());
  return status;
}

// Under TARGET_RULE_ANY_PART: a circle target of radius > 0 whose centre a
// viewer does not see is judged again by SeesDisc (a centre seen is a point
// of the disc seen, so those bits stand).
absl::Status SeeDiscsByAnyPart(const v1::VisibilityQuery& query,
                               const Level& level,
                               const formats::VisibilityArgs& args,
                               const formats::InputLimits& limits,
                               int32_t words, uint64_t* bits) {
  const int32_t max_occluders = limits.max_visibility_disc_occluders;
  thread_local DiscSightScratch scratch(max_occluders);
  if (scratch.max_occluders() != max_occluders) {
    scratch = DiscSightScratch(max_occluders);
  }
  for (int j = 0; j < query.targets_size(); ++j) {
    const v1::VisibilityTarget& target = query.targets(j);
    if (!target.has_circle() || !(target.circle().radius() > 0.0)) continue;
    const Circle disc{args.targets[j], target.circle().radius()};
    for (size_t i = 0; i < args.viewers.size(); ++i) {
      uint64_t& word = bits[i * words + (j >> 6)];
      const uint64_t bit = uint64_t{1} << (j & 63);
      if ((word & bit) != 0) continue;
      const std::optional<bool> seen =
          SeesDisc(level, args.viewers[i], disc, scratch, args.filter);
      if (!seen.has_value()) {
        return OverLimit(
            QueryLimit::kVisibilityDiscOccluders,
            absl::ResourceExhaustedError(absl::StrCat(
                "visibility.targets[", j, "] has ", scratch.occluders_found(),
                " occluders around it and viewers[", i,
                "], more than max_visibility_disc_occluders ",
                scratch.max_occluders(),
                " (TARGET_RULE_CENTER needs no such count)")));
      }
      if (*seen) word |= bit;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RunVisibility(const v1::VisibilityQuery& query, const Level& level,
                           const formats::InputLimits& limits,
                           v1::QueryResult* result) {
  // Grow-only per thread, as query_handler.cc's buffers: a steady stream
  // of ticks converts its viewers and targets without allocating.
  thread_local std::vector<Viewer> viewers;
  thread_local std::vector<Vec2> targets;
  const absl::StatusOr<formats::VisibilityArgs> args =
      formats::VisibilityFromProto(query, limits, "visibility", viewers,
                                   targets);
  if (!args.ok()) {
    return absl::IsResourceExhausted(args.status())
               ? OverLimit(QueryLimit::kVisibilityPairs, args.status())
               : args.status();
  }
  const int32_t words =
      VisibilityWords(static_cast<int32_t>(args->targets.size()));
  v1::VisibilityResult* out = result->mutable_visibility();
  out->set_words_per_viewer(words);
  const size_t total = args->viewers.size() * static_cast<size_t>(words);
  if (total == 0) return absl::OkStatus();
  // VisibleTargets writes every word straight into the result.
  google::protobuf::RepeatedField<uint64_t>* bits =
      out->mutable_visible_words();
  bits->Resize(static_cast<int>(total), 0);
  // One per thread, sized once (VisibilityScratch's defaults).
  thread_local VisibilityScratch scratch;
  VisibleTargets(level, args->viewers, args->targets,
                 absl::MakeSpan(bits->mutable_data(), total), scratch,
                 args->filter);
  if (!args->any_part) return absl::OkStatus();
  return SeeDiscsByAnyPart(query, level, *args, limits, words,
                           bits->mutable_data());
}

absl::Status RunVisibilityPolygon(const v1::VisibilityPolygonQuery& query,
                                  const Level& level,
                                  const formats::InputLimits& limits,
                                  v1::QueryResult* result) {
  const absl::StatusOr<formats::VisibilityPolygonArgs> args =
      formats::VisibilityPolygonFromProto(query, limits, "visibility_polygon");
  if (!args.ok()) return args.status();
  // Sized per thread from the limits, once for a server (its limits do
  // not change); the output holds the most vertices a polygon may have.
  const int32_t max_edges = limits.max_visibility_polygon_edges;
  thread_local VisibilityPolygonScratch scratch(max_edges);
  if (scratch.max_edges() != max_edges) {
    scratch = VisibilityPolygonScratch(max_edges);
  }
  thread_local std::vector<VisibilityPolygonVertex> vertices;
  vertices.resize(static_cast<size_t>(limits.max_visibility_polygon_vertices));
  const VisibilityPolygonResult polygon =
      VisibilityPolygon(level, args->viewer, args->options,
                        absl::MakeSpan(vertices), scratch, args->filter);
  switch (polygon.status) {
    case VisibilityPolygonStatus::kOk:
      break;
    case VisibilityPolygonStatus::kOutputTooSmall:
      return OverLimit(
          QueryLimit::kVisibilityPolygonVertices,
          absl::ResourceExhaustedError(absl::StrCat(
              "visibility_polygon needs ", polygon.needed,
              " vertices, more than max_visibility_polygon_vertices ",
              vertices.size(), " (a smaller range needs fewer)")));
    case VisibilityPolygonStatus::kScratchTooSmall:
      return OverLimit(
          QueryLimit::kVisibilityPolygonEdges,
          absl::ResourceExhaustedError(absl::StrCat(
              "visibility_polygon.range holds ", polygon.needed,
              " occluder edges, more than max_visibility_polygon_edges ",
              scratch.max_edges(), " (a smaller range holds fewer)")));
  }
  v1::VisibilityPolygonResult* out = result->mutable_visibility_polygon();
  out->mutable_vertices()->Reserve(polygon.vertex_count);
  for (int32_t i = 0; i < polygon.vertex_count; ++i) {
    const VisibilityPolygonVertex& vertex = vertices[static_cast<size_t>(i)];
    v1::VisibilityPolygonVertex* wire = out->add_vertices();
    wire->mutable_point()->set_x(vertex.point.x);
    wire->mutable_point()->set_y(vertex.point.y);
    wire->set_kind(ToProto(vertex.kind));
    wire->set_shape_id(vertex.shape_id.value_or(0));
  }
  return absl::OkStatus();
}

}  // namespace collide::server
