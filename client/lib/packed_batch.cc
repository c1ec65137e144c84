#include "client/lib/packed_batch.h"

#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client {
namespace {

// The five columns of a circle batch (casts and moves share their names).
template <typename Circles>
void ReserveCircles(int count, Circles* circles) {
  circles->mutable_center_x()->Reserve(count);
  circles->mutable_center_y()->Reserve(count);
  circles->mutable_radius()->Reserve(count);
  circles->mutable_translation_x()->Reserve(count);
  circles->mutable_translation_y()->Reserve(count);
}

template <typename Circles>
void AddCircle(Vec2 center, double radius, Vec2 translation, Circles* circles) {
  circles->add_center_x(center.x);
  circles->add_center_y(center.y);
  circles->add_radius(radius);
  circles->add_translation_x(translation.x);
  circles->add_translation_y(translation.y);
}

}  // namespace

void PackedRayBuilder::Reserve(int count) {
  rays_->mutable_origin_x()->Reserve(count);
  rays_->mutable_origin_y()->Reserve(count);
  rays_->mutable_translation_x()->Reserve(count);
  rays_->mutable_translation_y()->Reserve(count);
}

void PackedRayBuilder::Add(Vec2 origin, Vec2 translation) {
  rays_->add_origin_x(origin.x);
  rays_->add_origin_y(origin.y);
  rays_->add_translation_x(translation.x);
  rays_->add_translation_y(translation.y);
}

void PackedCircleBuilder::Reserve(int count) {
  ReserveCircles(count, circles_);
}

void PackedCircleBuilder::Add(Vec2 center, double radius, Vec2 translation) {
  AddCircle(center, radius, translation, circles_);
}

void PackedMoveBuilder::Reserve(int count) { ReserveCircles(count, moves_); }

void PackedMoveBuilder::Add(Vec2 center, double radius, Vec2 translation) {
  AddCircle(center, radius, translation, moves_);
}

}  // namespace collide::client
