#include "client/lib/query_builders.h"

#include <utility>

namespace collide::client {

v1::Vec2 ToProto(Vec2 v) {
  v1::Vec2 out;
  out.set_x(v.x);
  out.set_y(v.y);
  return out;
}

Vec2 FromProto(const v1::Vec2& v) { return {v.x(), v.y()}; }

v1::Query RayCast(Vec2 origin, Vec2 translation,
                  const v1::CastOptions& options) {
  v1::Query query;
  v1::RayCastQuery* ray = query.mutable_ray_cast();
  *ray->mutable_origin() = ToProto(origin);
  *ray->mutable_translation() = ToProto(translation);
  *ray->mutable_options() = options;
  return query;
}

v1::Query CircleCast(Vec2 center, double radius, Vec2 translation,
                     const v1::CastOptions& options) {
  v1::Query query;
  v1::CircleCastQuery* cast = query.mutable_circle_cast();
  *cast->mutable_circle()->mutable_center() = ToProto(center);
  cast->mutable_circle()->set_radius(radius);
  *cast->mutable_translation() = ToProto(translation);
  *cast->mutable_options() = options;
  return query;
}

v1::Query PolygonCast(absl::Span<const Vec2> vertices, Vec2 translation,
                      const v1::CastOptions& options) {
  v1::Query query;
  v1::PolygonCastQuery* cast = query.mutable_polygon_cast();
  for (Vec2 v : vertices) *cast->mutable_polygon()->add_vertices() = ToProto(v);
  *cast->mutable_translation() = ToProto(translation);
  *cast->mutable_options() = options;
  return query;
}

v1::Query CapsuleCast(Vec2 p1, Vec2 p2, double radius, Vec2 translation,
                      const v1::CastOptions& options) {
  v1::Query query;
  v1::CapsuleCastQuery* cast = query.mutable_capsule_cast();
  *cast->mutable_capsule()->mutable_p1() = ToProto(p1);
  *cast->mutable_capsule()->mutable_p2() = ToProto(p2);
  cast->mutable_capsule()->set_radius(radius);
  *cast->mutable_translation() = ToProto(translation);
  *cast->mutable_options() = options;
  return query;
}

v1::Query OverlapCircle(Vec2 center, double radius,
                        const v1::QueryFilter& filter) {
  v1::Query query;
  v1::OverlapQuery* overlap = query.mutable_overlap();
  *overlap->mutable_circle()->mutable_center() = ToProto(center);
  overlap->mutable_circle()->set_radius(radius);
  *overlap->mutable_filter() = filter;
  return query;
}

v1::Query ClosestPoint(Vec2 point, double max_distance,
                       const v1::QueryFilter& filter) {
  v1::Query query;
  v1::ClosestPointQuery* closest = query.mutable_closest_point();
  *closest->mutable_point() = ToProto(point);
  if (max_distance >= 0) closest->set_max_distance(max_distance);
  *closest->mutable_filter() = filter;
  return query;
}

v1::Query MoveCircle(Vec2 center, double radius, Vec2 translation, double skin,
                     int slide_iterations) {
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  *move->mutable_circle()->mutable_center() = ToProto(center);
  move->mutable_circle()->set_radius(radius);
  *move->mutable_translation() = ToProto(translation);
  move->set_skin(skin);
  move->set_max_slide_iterations(slide_iterations);
  return query;
}

v1::Query Shot(Vec2 origin, Vec2 translation, double radius,
               absl::Span<const v1::ShotTarget> targets) {
  v1::Query query;
  v1::HitValidationQuery* shot = query.mutable_hit_validation();
  *shot->mutable_origin() = ToProto(origin);
  *shot->mutable_translation() = ToProto(translation);
  shot->set_radius(radius);
  for (const v1::ShotTarget& target : targets) *shot->add_targets() = target;
  return query;
}

v1::ShotTarget CircleTarget(uint64_t id, Vec2 center, double radius,
                            Vec2 translation) {
  v1::ShotTarget target;
  target.set_id(id);
  *target.mutable_circle()->mutable_center() = ToProto(center);
  target.mutable_circle()->set_radius(radius);
  *target.mutable_translation() = ToProto(translation);
  return target;
}

v1::ShotTarget CapsuleTarget(uint64_t id, Vec2 p1, Vec2 p2, double radius,
                             Vec2 translation) {
  v1::ShotTarget target;
  target.set_id(id);
  *target.mutable_capsule()->mutable_p1() = ToProto(p1);
  *target.mutable_capsule()->mutable_p2() = ToProto(p2);
  target.mutable_capsule()->set_radius(radius);
  *target.mutable_translation() = ToProto(translation);
  return target;
}

v1::ShotTarget PolygonTarget(uint64_t id, absl::Span<const Vec2> vertices,
                             Vec2 translation) {
  v1::ShotTarget target;
  target.set_id(id);
  for (Vec2 v : vertices)
    *target.mutable_polygon()->add_vertices() = ToProto(v);
  *target.mutable_translation() = ToProto(translation);
  return target;
}

namespace {

// A hit validation whose shot is `swing`'s body, moving by `translation`;
// origin stays unset and radius 0, as the server requires of a swing.
v1::Query SwingQuery(v1::Swing swing, Vec2 translation,
                     absl::Span<const v1::ShotTarget> targets) {
  v1::Query query;
  v1::HitValidationQuery* shot = query.mutable_hit_validation();
  *shot->mutable_swing() = std::move(swing);
  *shot->mutable_translation() = ToProto(translation);
  for (const v1::ShotTarget& target : targets) *shot->add_targets() = target;
  return query;
}

v1::Turn MakeTurn(double angle, std::optional<Vec2> pivot) {
  v1::Turn turn;
  turn.set_angle(angle);
  if (pivot.has_value()) *turn.mutable_pivot() = ToProto(*pivot);
  return turn;
}

}  // namespace

v1::Query CapsuleSwing(Vec2 p1, Vec2 p2, double radius, Vec2 translation,
                       absl::Span<const v1::ShotTarget> targets) {
  v1::Swing swing;
  *swing.mutable_capsule()->mutable_p1() = ToProto(p1);
  *swing.mutable_capsule()->mutable_p2() = ToProto(p2);
  swing.mutable_capsule()->set_radius(radius);
  return SwingQuery(std::move(swing), translation, targets);
}

v1::Query PolygonSwing(absl::Span<const Vec2> vertices, Vec2 translation,
                       absl::Span<const v1::ShotTarget> targets) {
  v1::Swing swing;
  for (Vec2 v : vertices) *swing.mutable_polygon()->add_vertices() = ToProto(v);
  return SwingQuery(std::move(swing), translation, targets);
}

v1::Query WithTurn(v1::Query query, double angle, std::optional<Vec2> pivot) {
  const v1::Turn turn = MakeTurn(angle, pivot);
  switch (query.query_case()) {
    case v1::Query::kCircleCast:
      *query.mutable_circle_cast()->mutable_turn() = turn;
      break;
    case v1::Query::kPolygonCast:
      *query.mutable_polygon_cast()->mutable_turn() = turn;
      break;
    case v1::Query::kCapsuleCast:
      *query.mutable_capsule_cast()->mutable_turn() = turn;
      break;
    case v1::Query::kMoveValidation:
      *query.mutable_move_validation()->mutable_turn() = turn;
      break;
    case v1::Query::kRayCast: {
      if (angle == 0) break;
      // A ray is a circle of radius 0 (CircleCastQuery), which can turn.
      v1::RayCastQuery ray = std::move(*query.mutable_ray_cast());
      v1::CircleCastQuery* cast = query.mutable_circle_cast();
      *cast->mutable_circle()->mutable_center() = ray.origin();
      cast->mutable_circle()->set_radius(0);
      *cast->mutable_translation() = ray.translation();
      *cast->mutable_options() = ray.options();
      *cast->mutable_turn() = turn;
      break;
    }
    case v1::Query::kHitValidation: {
      v1::HitValidationQuery* shot = query.mutable_hit_validation();
      if (!shot->has_swing()) {
        if (angle == 0) break;
        // The shot's disc becomes the swing's body; a swing leaves origin
        // unset and radius 0.
        v1::Circle* body = shot->mutable_swing()->mutable_circle();
        *body->mutable_center() = shot->origin();
        body->set_radius(shot->radius());
        shot->clear_origin();
        shot->clear_radius();
      }
      *shot->mutable_swing()->mutable_turn() = turn;
      break;
    }
    default:
      break;
  }
  return query;
}

v1::ShotTarget WithTurn(v1::ShotTarget target, double angle,
                        std::optional<Vec2> pivot) {
  *target.mutable_turn() = MakeTurn(angle, pivot);
  return target;
}

v1::QueryFilter Filter(const FilterOptions& options) {
  v1::QueryFilter filter;
  if (options.mask_bits.has_value()) filter.set_mask_bits(*options.mask_bits);
  if (options.category_bits.has_value()) {
    filter.set_category_bits(*options.category_bits);
  }
  filter.set_group(options.group);
  for (uint64_t id : options.ignore_ids) filter.add_ignore_ids(id);
  return filter;
}

v1::Query WithFilter(v1::Query query, const v1::QueryFilter& filter) {
  switch (query.query_case()) {
    case v1::Query::kRayCast:
      *query.mutable_ray_cast()->mutable_options()->mutable_filter() = filter;
      break;
    case v1::Query::kCircleCast:
      *query.mutable_circle_cast()->mutable_options()->mutable_filter() =
          filter;
      break;
    case v1::Query::kPolygonCast:
      *query.mutable_polygon_cast()->mutable_options()->mutable_filter() =
          filter;
      break;
    case v1::Query::kCapsuleCast:
      *query.mutable_capsule_cast()->mutable_options()->mutable_filter() =
          filter;
      break;
    case v1::Query::kOverlap:
      *query.mutable_overlap()->mutable_filter() = filter;
      break;
    case v1::Query::kClosestPoint:
      *query.mutable_closest_point()->mutable_filter() = filter;
      break;
    case v1::Query::kMoveValidation:
      *query.mutable_move_validation()->mutable_filter() = filter;
      break;
    case v1::Query::kHitValidation:
      *query.mutable_hit_validation()->mutable_filter() = filter;
      break;
    case v1::Query::kVisibility:
      *query.mutable_visibility()->mutable_filter() = filter;
      break;
    case v1::Query::kVisibilityPolygon:
      *query.mutable_visibility_polygon()->mutable_filter() = filter;
      break;
    default:
      break;
  }
  return query;
}

v1::Query WithFilter(v1::Query query, const FilterOptions& options) {
  return WithFilter(std::move(query), Filter(options));
}

v1::Query WithRequestId(v1::Query query, uint64_t request_id) {
  query.set_request_id(request_id);
  return query;
}

}  // namespace collide::client
