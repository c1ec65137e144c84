#include "client/lib/visibility_builders.h"

#include <bit>
#include <cstdint>

#include "client/lib/query_builders.h"

namespace collide::client {

v1::ViewCone ViewCone(Vec2 direction, double half_angle_radians) {
  v1::ViewCone cone;
  *cone.mutable_direction() = ToProto(direction);
  cone.set_half_angle_radians(half_angle_radians);
  return cone;
}

v1::Viewer Viewer(Vec2 position, const ViewerOptions& options) {
  v1::Viewer viewer;
  *viewer.mutable_position() = ToProto(position);
  if (options.range.has_value()) viewer.set_range(*options.range);
  if (options.cone.has_value()) *viewer.mutable_cone() = *options.cone;
  return viewer;
}

v1::VisibilityTarget PointTarget(Vec2 point) {
  v1::VisibilityTarget target;
  *target.mutable_point() = ToProto(point);
  return target;
}

v1::VisibilityTarget DiscTarget(Vec2 center, double radius) {
  v1::VisibilityTarget target;
  *target.mutable_circle()->mutable_center() = ToProto(center);
  target.mutable_circle()->set_radius(radius);
  return target;
}

v1::Query Visibility(absl::Span<const v1::Viewer> viewers,
                     absl::Span<const v1::VisibilityTarget> targets,
                     const v1::QueryFilter& filter,
                     v1::TargetRule target_rule) {
  v1::Query query;
  v1::VisibilityQuery* visibility = query.mutable_visibility();
  for (const v1::Viewer& viewer : viewers) *visibility->add_viewers() = viewer;
  for (const v1::VisibilityTarget& target : targets) {
    *visibility->add_targets() = target;
  }
  visibility->set_target_rule(target_rule);
  *visibility->mutable_filter() = filter;
  return query;
}

v1::Query VisibilityPolygon(Vec2 viewer, double range,
                            double max_arc_angle_radians,
                            const v1::QueryFilter& filter) {
  v1::Query query;
  v1::VisibilityPolygonQuery* polygon = query.mutable_visibility_polygon();
  *polygon->mutable_viewer() = ToProto(viewer);
  polygon->set_range(range);
  polygon->set_max_arc_angle_radians(max_arc_angle_radians);
  *polygon->mutable_filter() = filter;
  return query;
}

std::vector<std::vector<int>> VisibleSets(const v1::VisibilityResult& answer,
                                          int viewer_count) {
  const int per_viewer = answer.words_per_viewer();
  const int words = answer.visible_words_size();
  if (per_viewer <= 0) {
    return std::vector<std::vector<int>>(viewer_count > 0 ? viewer_count : 0);
  }
  std::vector<std::vector<int>> rows;
  rows.reserve(words / per_viewer);
  for (int start = 0; start + per_viewer <= words; start += per_viewer) {
    std::vector<int>& row = rows.emplace_back();
    for (int w = 0; w < per_viewer; ++w) {
      // Each pass takes the lowest set bit and clears it.
      for (uint64_t word = answer.visible_words(start + w); word != 0;
           word &= word - 1) {
        row.push_back(w * 64 + std::countr_zero(word));
      }
    }
  }
  return rows;
}

bool Sees(const v1::VisibilityResult& answer, int viewer_index,
          int target_index) {
  const int per_viewer = answer.words_per_viewer();
  if (viewer_index < 0 || target_index < 0 || per_viewer <= 0 ||
      target_index / 64 >= per_viewer ||
      viewer_index >= answer.visible_words_size() / per_viewer) {
    return false;
  }
  const uint64_t word =
      answer.visible_words(viewer_index * per_viewer + target_index / 64);
  return (word >> (target_index % 64) & 1) != 0;
}

std::vector<Vec2> PolygonPoints(const v1::VisibilityPolygonResult& answer) {
  std::vector<Vec2> points;
  points.reserve(answer.vertices_size());
  for (const v1::VisibilityPolygonVertex& vertex : answer.vertices()) {
    points.push_back(FromProto(vertex.point()));
  }
  return points;
}

}  // namespace collide::client
