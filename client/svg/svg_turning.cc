#include "client/svg/svg_turning.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "client/svg/svg_style.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

// Poses drawn between the start and the end, and points on the arc.
constexpr int kPoseSteps = 8;
constexpr int kArcSteps = 64;

Vec2 ShapeCentroid(const WorldShape& shape) {
  const std::vector<Vec2>& p = shape.points;
  if (p.size() == 1) return p[0];
  if (p.size() == 2) return 0.5 * (p[0] + p[1]);
  double area2 = 0.0;
  Vec2 sum;
  for (size_t i = 1; i + 1 < p.size(); ++i) {
    const Vec2 a = p[i] - p[0];
    const Vec2 b = p[i + 1] - p[0];
    const double cross = Cross(a, b);
    area2 += cross;
    sum = sum + cross * (a + b);
  }
  if (area2 == 0.0) return Centroid(p);
  return p[0] + (1.0 / (3.0 * area2)) * sum;
}

Vec2 Rotated(Vec2 v, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

std::optional<TurnGeometry> FromTurn(const v1::Turn& turn,
                                     const WorldShape& shape) {
  const double angle = turn.angle();
  if (angle == 0.0 || !InRange(angle)) return std::nullopt;
  if (turn.has_pivot() && !InRange(turn.pivot())) return std::nullopt;
  return TurnGeometry{
      angle, turn.has_pivot() ? FromProto(turn.pivot()) : ShapeCentroid(shape)};
}

// The start point farthest from the pivot (for a round shape, its centre
// pushed out by the radius).
Vec2 FarthestPoint(const WorldShape& shape, Vec2 pivot) {
  Vec2 far = shape.points[0];
  for (const Vec2 p : shape.points) {
    if (Length(p - pivot) > Length(far - pivot)) far = p;
  }
  const Vec2 out = Normalize(far - pivot);
  return far + shape.radius * out;
}

}  // namespace

std::optional<TurnGeometry> TurnGeometryOf(const v1::Query& query,
                                           const WorldShape& shape) {
  switch (query.query_case()) {
    case v1::Query::kCircleCast:
      if (!query.circle_cast().has_turn()) return std::nullopt;
      return FromTurn(query.circle_cast().turn(), shape);
    case v1::Query::kPolygonCast:
      if (!query.polygon_cast().has_turn()) return std::nullopt;
      return FromTurn(query.polygon_cast().turn(), shape);
    case v1::Query::kCapsuleCast:
      if (!query.capsule_cast().has_turn()) return std::nullopt;
      return FromTurn(query.capsule_cast().turn(), shape);
    case v1::Query::kMoveValidation:
      if (!query.move_validation().has_turn()) return std::nullopt;
      return FromTurn(query.move_validation().turn(), shape);
    default:
      return std::nullopt;
  }
}

WorldShape Posed(const WorldShape& shape, Vec2 translation,
                 const TurnGeometry& turn, double t) {
  WorldShape posed = shape;
  const double angle = t * turn.angle;
  for (Vec2& p : posed.points) {
    p = turn.pivot + Rotated(p - turn.pivot, angle) + t * translation;
  }
  return posed;
}

Aabb TurningBounds(const WorldShape& shape, Vec2 translation,
                   const TurnGeometry& turn) {
  Aabb bounds = EmptyBox();
  for (int i = 0; i <= kArcSteps; ++i) {
    const double t = static_cast<double>(i) / kArcSteps;
    bounds = Union(bounds, BoundsOf(Posed(shape, translation, turn, t)));
  }
  return bounds;
}

Aabb DrawTurningMotion(Canvas& canvas, const WorldShape& start,
                       Vec2 translation, const TurnGeometry& turn,
                       absl::string_view colour, absl::string_view title) {
  for (int i = 1; i < kPoseSteps; ++i) {
    const double t = static_cast<double>(i) / kPoseSteps;
    canvas.Shape(Layer::kSwept, Posed(start, translation, turn, t),
                 Attributes("swept", colour, colour), "");
  }
  canvas.Use(kRoleSwept);
  canvas.Shape(Layer::kOutlines, start, Attributes("start", "", colour), title);
  canvas.Shape(Layer::kOutlines, Posed(start, translation, turn, 1.0),
               Attributes("end", "", colour), "");
  canvas.Use(kRoleEnd);
  // The arc of the farthest point and the pivot's straight path.
  const Projection& projection = canvas.projection();
  const Vec2 far = FarthestPoint(start, turn.pivot);
  std::vector<Vec2> arc;
  for (int i = 0; i <= kArcSteps; ++i) {
    const double t = static_cast<double>(i) / kArcSteps;
    arc.push_back(projection.ToPicture(
        turn.pivot + Rotated(far - turn.pivot, t * turn.angle) +
        t * translation));
  }
  SvgLayer& outlines = canvas.layer(Layer::kOutlines);
  outlines.Chain(arc, /*closed=*/false, Attributes("path", "", colour), "");
  const Vec2 pivot_path[2] = {projection.ToPicture(turn.pivot),
                              projection.ToPicture(turn.pivot + translation)};
  outlines.Chain(pivot_path, /*closed=*/false, Attributes("path", "", colour),
                 "");
  outlines.Dot(pivot_path[0], kPointRadius,
               Attributes("start", "#ffffff", colour), "pivot");
  return canvas.PixelBounds(start);
}

}  // namespace collide::client::svg_internal
