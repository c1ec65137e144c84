#include "client/svg/svg_visibility.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "client/svg/svg_style.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

// A cone edge's length without a range (pixels).
constexpr double kConeEdgePixels = 60.0;
// At most this many lines of sight and labels per query: a 256 x 256 tick
// would otherwise bury the level (the rest are counted in a note).
constexpr int kMaxSightLines = 2048;
constexpr int kMaxLabels = 64;

// The viewer's range, when set and drawable.
std::optional<double> RangeOf(const v1::Viewer& viewer) {
  if (!viewer.has_range() || !InRange(viewer.range()) || viewer.range() < 0) {
    return std::nullopt;
  }
  return viewer.range();
}

// A target's outline: a point (radius 0) or a circle; nullopt when it has
// no shape or numbers out of range.
std::optional<WorldShape> TargetShape(const v1::VisibilityTarget& target) {
  WorldShape shape;
  if (target.has_point() && InRange(target.point())) {
    shape.points = {FromProto(target.point())};
    return shape;
  }
  if (target.has_circle() && InRange(target.circle().center()) &&
      InRange(target.circle().radius()) && target.circle().radius() >= 0) {
    shape.points = {FromProto(target.circle().center())};
    shape.radius = target.circle().radius();
    return shape;
  }
  return std::nullopt;
}

// `direction` turned by `angle` radians counter-clockwise.
Vec2 Rotated(Vec2 direction, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return {c * direction.x - s * direction.y, s * direction.x + c * direction.y};
}

// The viewer's dot, range circle and cone edges.
void DrawViewer(Canvas& canvas, const v1::Viewer& viewer, absl::string_view id,
                absl::string_view colour) {
  const Vec2 at = FromProto(viewer.position());
  const std::optional<double> range = RangeOf(viewer);
  const std::string title = absl::StrCat("viewer ", id);
  canvas.Use(kRoleViewer);
  if (range.has_value() && *range > 0) {
    WorldShape circle;
    circle.points = {at};
    circle.radius = *range;
    canvas.Shape(Layer::kOutlines, circle, Attributes("range", "", colour),
                 absl::StrCat(title, " range ", FormatNumber(*range)));
  }
  if (viewer.has_cone() && InRange(viewer.cone().direction()) &&
      std::isfinite(viewer.cone().half_angle_radians()) &&
      std::abs(viewer.cone().half_angle_radians()) < M_PI) {
    const Vec2 direction = Normalize(FromProto(viewer.cone().direction()));
    const double length =
        range.has_value() ? *range : kConeEdgePixels / canvas.frame().scale;
    const double half = viewer.cone().half_angle_radians();
    for (const double angle : {-half, half}) {
      const Vec2 edge[2] = {at, at + length * Rotated(direction, angle)};
      canvas.layer(Layer::kOutlines)
          .Chain(canvas.projection().ToPicture(edge), false,
                 Attributes("cone", "", colour), title);
    }
  }
  const Vec2 dot = canvas.projection().ToPicture(at);
  canvas.layer(Layer::kMarkers)
      .Dot(dot, kPointRadius + 1.0, Attributes("viewer", colour, ""), title);
}

// Whether `result` holds one row of the right width per viewer.
bool WellFormed(const v1::VisibilityQuery& query,
                const v1::VisibilityResult& result) {
  const int64_t words = (int64_t{query.targets_size()} + 63) / 64;
  return result.words_per_viewer() == words &&
         result.visible_words_size() == words * query.viewers_size();
}

bool Sees(const v1::VisibilityResult& result, int viewer, int target) {
  const int64_t word =
      int64_t{viewer} * result.words_per_viewer() + target / 64;
  return (result.visible_words(static_cast<int>(word)) >> (target % 64)) & 1;
}

}  // namespace

void DrawVisibility(Canvas& canvas, absl::string_view tag,
                    const v1::VisibilityQuery& query,
                    const v1::VisibilityResult* result,
                    absl::string_view colour) {
  if (result != nullptr && !WellFormed(query, *result)) {
    canvas.Note(absl::StrCat(tag, ": the result's rows do not fit ",
                             query.viewers_size(), " viewers x ",
                             query.targets_size(), " targets, not drawn"));
    result = nullptr;
  }
  if (result == nullptr) colour = kMissColour;
  std::vector<bool> drawable(static_cast<size_t>(query.viewers_size()));
  int undrawable = 0;
  for (int i = 0; i < query.viewers_size(); ++i) {
    const v1::Viewer& viewer = query.viewers(i);
    if (!InRange(viewer.position())) {
      ++undrawable;
      continue;
    }
    drawable[static_cast<size_t>(i)] = true;
    DrawViewer(canvas, viewer, absl::StrCat(tag, " v", i), colour);
    if (i < kMaxLabels) {
      WorldShape dot;
      dot.points = {FromProto(viewer.position())};
      canvas.TagLabel(i == 0 ? absl::StrCat(tag, " v0") : absl::StrCat("v", i),
                      canvas.PixelBounds(dot), colour);
    }
  }
  int sight_lines = 0;
  int skipped_lines = 0;
  for (int j = 0; j < query.targets_size(); ++j) {
    const std::optional<WorldShape> target = TargetShape(query.targets(j));
    if (!target.has_value()) {
      ++undrawable;
      continue;
    }
    bool seen = false;
    for (int i = 0; result != nullptr && i < query.viewers_size(); ++i) {
      if (!Sees(*result, i, j)) continue;
      seen = true;
      if (!drawable[static_cast<size_t>(i)]) continue;
      if (sight_lines == kMaxSightLines) {
        ++skipped_lines;
        continue;
      }
      ++sight_lines;
      canvas.Use(kRoleSight);
      const Vec2 line[2] = {FromProto(query.viewers(i).position()),
                            target->points[0]};
      canvas.layer(Layer::kSwept)
          .Chain(canvas.projection().ToPicture(line), false,
                 Attributes("sight", "", colour),
                 absl::StrCat("v", i, " sees t", j));
    }
    const std::string title = absl::StrCat(tag, " t", j,
                                           result == nullptr ? ""
                                           : seen            ? " seen"
                                                             : " not seen");
    const std::string attributes = seen ? Attributes("seen", colour, colour)
                                        : Attributes("unseen", "", kMissColour);
    canvas.Use(seen ? kRoleSeen : kRoleUnseen);
    if (target->radius > 0) {
      canvas.Shape(Layer::kHits, *target, attributes, title);
    } else {
      canvas.layer(Layer::kHits)
          .Dot(canvas.projection().ToPicture(target->points[0]), kPointRadius,
               attributes, title);
    }
    if (j < kMaxLabels) {
      canvas.TagLabel(absl::StrCat("t", j), canvas.PixelBounds(*target),
                      seen ? colour : kMissColour);
    }
  }
  if (undrawable > 0) {
    canvas.Note(absl::StrCat(tag, ": ", undrawable,
                             " viewers or targets not drawn (no shape, or a "
                             "number not finite or beyond 1e60)"));
  }
  if (skipped_lines > 0) {
    canvas.Note(absl::StrCat(tag, ": ", skipped_lines,
                             " more lines of sight not drawn"));
  }
}

void DrawVisibilityPolygon(Canvas& canvas, absl::string_view tag,
                           const v1::VisibilityPolygonQuery& query,
                           const v1::VisibilityPolygonResult* result,
                           absl::string_view colour) {
  if (!InRange(query.viewer())) {
    canvas.Note(absl::StrCat(tag,
                             ": viewer not drawn (a number not finite "
                             "or beyond 1e60)"));
    return;
  }
  if (result == nullptr) colour = kMissColour;
  v1::Viewer viewer;
  *viewer.mutable_position() = query.viewer();
  if (InRange(query.range()) && query.range() > 0) {
    viewer.set_range(query.range());
  }
  DrawViewer(canvas, viewer, tag, colour);
  WorldShape dot;
  dot.points = {FromProto(query.viewer())};
  canvas.TagLabel(tag, canvas.PixelBounds(dot), colour);
  if (result == nullptr) return;
  if (result->vertices().empty()) {
    canvas.Note(absl::StrCat(tag, ": sees nothing (inside a solid)"));
    return;
  }
  std::vector<Vec2> outline;
  outline.reserve(static_cast<size_t>(result->vertices_size()));
  for (const v1::VisibilityPolygonVertex& vertex : result->vertices()) {
    if (!InRange(vertex.point())) {
      canvas.Note(absl::StrCat(tag,
                               ": the polygon has numbers out of range, "
                               "not drawn"));
      return;
    }
    outline.push_back(FromProto(vertex.point()));
  }
  canvas.Use(kRoleVisible);
  canvas.layer(Layer::kSwept)
      .Polygon(
          canvas.projection().ToPicture(outline),
          Attributes("visible", colour, colour),
          absl::StrCat(tag, " visible region, ", outline.size(), " vertices"));
}

Aabb VisibilityBounds(const v1::Query& query, const v1::QueryResult& result) {
  Aabb bounds = EmptyBox();
  const auto add = [&bounds](Vec2 point, double radius) {
    bounds = Union(
        bounds, {point - Vec2{radius, radius}, point + Vec2{radius, radius}});
  };
  if (query.has_visibility()) {
    for (const v1::Viewer& viewer : query.visibility().viewers()) {
      if (!InRange(viewer.position())) continue;
      add(FromProto(viewer.position()), RangeOf(viewer).value_or(0.0));
    }
    for (const v1::VisibilityTarget& target : query.visibility().targets()) {
      if (std::optional<WorldShape> shape = TargetShape(target)) {
        add(shape->points[0], shape->radius);
      }
    }
  } else if (query.has_visibility_polygon()) {
    const v1::VisibilityPolygonQuery& polygon = query.visibility_polygon();
    if (InRange(polygon.viewer())) {
      add(FromProto(polygon.viewer()),
          InRange(polygon.range()) && polygon.range() > 0 ? polygon.range()
                                                          : 0.0);
    }
    if (result.status().code() == 0) {
      for (const v1::VisibilityPolygonVertex& vertex :
           result.visibility_polygon().vertices()) {
        if (InRange(vertex.point())) add(FromProto(vertex.point()), 0.0);
      }
    }
  }
  return bounds;
}

}  // namespace collide::client::svg_internal
