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

v1::Query WithRequestId(v1::Query query, uint64_t request_id) {
  query.set_request_id(request_id);
  return query;
}

}  // namespace collide::client
