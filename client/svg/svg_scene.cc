#include "client/svg/svg_scene.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "client/svg/svg_geometry.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "google/protobuf/repeated_field.h"

namespace collide::client::svg_internal {
namespace {

bool InRangeRadius(double radius) { return InRange(radius) && radius >= 0.0; }

std::optional<std::vector<Vec2>> PointsOf(
    const google::protobuf::RepeatedPtrField<v1::Vec2>& vertices, int minimum) {
  if (vertices.size() < minimum) return std::nullopt;
  std::vector<Vec2> points;
  points.reserve(vertices.size());
  for (const v1::Vec2& vertex : vertices) {
    if (!InRange(vertex)) return std::nullopt;
    points.push_back(FromProto(vertex));
  }
  return points;
}

std::optional<WorldShape> RoundedOf(std::vector<Vec2> points, double radius) {
  if (!InRangeRadius(radius)) return std::nullopt;
  return WorldShape{.kind = WorldShape::Kind::kRounded,
                    .points = std::move(points),
                    .radius = radius};
}

std::optional<WorldShape> CircleOf(const v1::Circle& circle) {
  if (!InRange(circle.center())) return std::nullopt;
  return RoundedOf({FromProto(circle.center())}, circle.radius());
}

std::optional<WorldShape> CapsuleOf(const v1::Capsule& capsule) {
  if (!InRange(capsule.p1()) || !InRange(capsule.p2())) return std::nullopt;
  return RoundedOf({FromProto(capsule.p1()), FromProto(capsule.p2())},
                   capsule.radius());
}

std::optional<WorldShape> ConvexPolygonOf(const v1::Polygon& polygon) {
  std::optional<std::vector<Vec2>> points = PointsOf(polygon.vertices(), 3);
  if (!points) return std::nullopt;
  return RoundedOf(*std::move(points), 0.0);
}

std::optional<WorldShape> BoxOf(const v1::Box& box) {
  if (!InRange(box.center()) || !InRangeRadius(box.half_extents().x()) ||
      !InRangeRadius(box.half_extents().y()) ||
      !std::isfinite(box.angle_radians())) {
    return std::nullopt;
  }
  const Vec2 center = FromProto(box.center());
  const Vec2 half = FromProto(box.half_extents());
  const double c = std::cos(box.angle_radians());
  const double s = std::sin(box.angle_radians());
  WorldShape shape;
  shape.kind = WorldShape::Kind::kPolygon;
  for (const Vec2 corner : {Vec2{-half.x, -half.y}, Vec2{half.x, -half.y},
                            Vec2{half.x, half.y}, Vec2{-half.x, half.y}}) {
    shape.points.push_back(center + Vec2{c * corner.x - s * corner.y,
                                         s * corner.x + c * corner.y});
  }
  return shape;
}

// `shape` moving by `translation`, or nullopt when either is missing.
std::optional<CastGeometry> Moving(std::optional<WorldShape> shape,
                                   const v1::Vec2& translation,
                                   bool is_ray = false) {
  if (!shape || !InRange(translation)) return std::nullopt;
  return CastGeometry{.shape = *std::move(shape),
                      .translation = FromProto(translation),
                      .is_ray = is_ray};
}

}  // namespace

bool InRange(double value) {
  return std::isfinite(value) && std::abs(value) <= kMaxCoordinate;
}

bool InRange(const v1::Vec2& point) {
  return InRange(point.x()) && InRange(point.y());
}

Vec2 FromProto(const v1::Vec2& point) { return {point.x(), point.y()}; }

WorldShape Translated(const WorldShape& shape, Vec2 offset) {
  WorldShape moved = shape;
  for (Vec2& p : moved.points) p = p + offset;
  return moved;
}

Aabb BoundsOf(const WorldShape& shape) {
  return BoundsOf(shape.points, shape.radius);
}

Aabb EmptyBox() { return {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}}; }

bool IsEmpty(const Aabb& box) {
  return !(box.lower.x <= box.upper.x && box.lower.y <= box.upper.y);
}

Aabb Union(const Aabb& a, const Aabb& b) {
  return {{std::min(a.lower.x, b.lower.x), std::min(a.lower.y, b.lower.y)},
          {std::max(a.upper.x, b.upper.x), std::max(a.upper.y, b.upper.y)}};
}

std::optional<WorldShape> LevelShapeGeometry(const v1::Shape& shape) {
  switch (shape.geometry_case()) {
    case v1::Shape::kSegment: {
      const v1::Segment& segment = shape.segment();
      if (!InRange(segment.p1()) || !InRange(segment.p2())) return std::nullopt;
      return WorldShape{
          .kind = WorldShape::Kind::kChain,
          .points = {FromProto(segment.p1()), FromProto(segment.p2())}};
    }
    case v1::Shape::kPolyline: {
      const v1::Polyline& polyline = shape.polyline();
      std::optional<std::vector<Vec2>> points =
          PointsOf(polyline.vertices(), polyline.closed() ? 3 : 2);
      if (!points) return std::nullopt;
      return WorldShape{.kind = WorldShape::Kind::kChain,
                        .points = *std::move(points),
                        .closed = polyline.closed()};
    }
    case v1::Shape::kPolygon: {
      std::optional<std::vector<Vec2>> points =
          PointsOf(shape.polygon().vertices(), 3);
      if (!points) return std::nullopt;
      return WorldShape{.kind = WorldShape::Kind::kPolygon,
                        .points = *std::move(points)};
    }
    case v1::Shape::kCircle:
      return CircleOf(shape.circle());
    case v1::Shape::kBox:
      return BoxOf(shape.box());
    case v1::Shape::kCapsule:
      return CapsuleOf(shape.capsule());
    case v1::Shape::GEOMETRY_NOT_SET:
      break;
  }
  return std::nullopt;
}

const char* LevelShapeKind(const v1::Shape& shape) {
  switch (shape.geometry_case()) {
    case v1::Shape::kSegment:
      return "segment";
    case v1::Shape::kPolyline:
      return shape.polyline().closed() ? "closed polyline" : "polyline";
    case v1::Shape::kPolygon:
      return "polygon";
    case v1::Shape::kCircle:
      return "circle";
    case v1::Shape::kBox:
      return "box";
    case v1::Shape::kCapsule:
      return "capsule";
    case v1::Shape::GEOMETRY_NOT_SET:
      break;
  }
  return "none";
}

std::optional<CastGeometry> CastGeometryOf(const v1::Query& query) {
  std::optional<WorldShape> shape;
  const v1::Vec2* translation = nullptr;
  bool is_ray = false;
  switch (query.query_case()) {
    case v1::Query::kRayCast:
      if (InRange(query.ray_cast().origin())) {
        shape = RoundedOf({FromProto(query.ray_cast().origin())}, 0.0);
      }
      translation = &query.ray_cast().translation();
      is_ray = true;
      break;
    case v1::Query::kCircleCast:
      shape = CircleOf(query.circle_cast().circle());
      translation = &query.circle_cast().translation();
      break;
    case v1::Query::kPolygonCast:
      shape = ConvexPolygonOf(query.polygon_cast().polygon());
      translation = &query.polygon_cast().translation();
      break;
    case v1::Query::kCapsuleCast:
      shape = CapsuleOf(query.capsule_cast().capsule());
      translation = &query.capsule_cast().translation();
      break;
    default:
      return std::nullopt;
  }
  return Moving(std::move(shape), *translation, is_ray);
}

std::optional<WorldShape> OverlapShapeOf(const v1::OverlapQuery& overlap) {
  switch (overlap.shape_case()) {
    case v1::OverlapQuery::kCircle:
      return CircleOf(overlap.circle());
    case v1::OverlapQuery::kPolygon:
      return ConvexPolygonOf(overlap.polygon());
    case v1::OverlapQuery::kCapsule:
      return CapsuleOf(overlap.capsule());
    case v1::OverlapQuery::SHAPE_NOT_SET:
      break;
  }
  return std::nullopt;
}

std::optional<CastGeometry> MoveGeometryOf(
    const v1::MoveValidationQuery& move) {
  std::optional<WorldShape> mover;
  switch (move.mover_case()) {
    case v1::MoveValidationQuery::kCircle:
      mover = CircleOf(move.circle());
      break;
    case v1::MoveValidationQuery::kCapsule:
      mover = CapsuleOf(move.capsule());
      break;
    case v1::MoveValidationQuery::kPolygon:
      mover = ConvexPolygonOf(move.polygon());
      break;
    case v1::MoveValidationQuery::MOVER_NOT_SET:
      break;
  }
  return Moving(std::move(mover), move.translation());
}

std::optional<CastGeometry> ShotGeometryOf(const v1::HitValidationQuery& shot) {
  if (!InRange(shot.origin())) return std::nullopt;
  return Moving(RoundedOf({FromProto(shot.origin())}, shot.radius()),
                shot.translation(), /*is_ray=*/shot.radius() == 0.0);
}

std::optional<CastGeometry> TargetGeometryOf(const v1::ShotTarget& target) {
  std::optional<WorldShape> hitbox;
  switch (target.hitbox_case()) {
    case v1::ShotTarget::kCircle:
      hitbox = CircleOf(target.circle());
      break;
    case v1::ShotTarget::kCapsule:
      hitbox = CapsuleOf(target.capsule());
      break;
    case v1::ShotTarget::kPolygon:
      hitbox = ConvexPolygonOf(target.polygon());
      break;
    case v1::ShotTarget::HITBOX_NOT_SET:
      break;
  }
  return Moving(std::move(hitbox), target.translation());
}

std::optional<CastGeometry> MovingShapeGeometryOf(
    const v1::MovingShape& shape) {
  std::optional<WorldShape> geometry;
  bool is_point = false;
  switch (shape.shape_case()) {
    case v1::MovingShape::kPoint:
      if (InRange(shape.point())) {
        geometry = RoundedOf({FromProto(shape.point())}, 0.0);
      }
      is_point = true;
      break;
    case v1::MovingShape::kSegment:
      if (InRange(shape.segment().p1()) && InRange(shape.segment().p2())) {
        geometry = RoundedOf(
            {FromProto(shape.segment().p1()), FromProto(shape.segment().p2())},
            0.0);
      }
      break;
    case v1::MovingShape::kCircle:
      geometry = CircleOf(shape.circle());
      break;
    case v1::MovingShape::kCapsule:
      geometry = CapsuleOf(shape.capsule());
      break;
    case v1::MovingShape::kPolygon:
      geometry = ConvexPolygonOf(shape.polygon());
      break;
    case v1::MovingShape::SHAPE_NOT_SET:
      break;
  }
  return Moving(std::move(geometry), shape.translation(), is_point);
}

}  // namespace collide::client::svg_internal
