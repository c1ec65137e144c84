// Building packed batches (collision_service.proto: PackedRayCasts,
// PackedCircleCasts, PackedMoveValidations): each builder appends a query's
// values straight onto the request's columns, so a batch costs no message
// per query and no copy. Reserve first when the count is known:
//
//   v1::StreamQueriesRequest request;
//   PackedRayBuilder rays(request.mutable_packed_rays());
//   rays.Reserve(256);
//   for (const Shot& s : shots) rays.Add(s.muzzle, s.travel);
//   rays.options()->mutable_filter()->set_mask_bits(kWalls);
//   stream->Send(std::move(request));
//
// Nothing is validated here; the server checks every value (a bad one is
// refused in that query's own entry of the results' errors).
#ifndef COLLIDE_CLIENT_LIB_PACKED_BATCH_H_
#define COLLIDE_CLIENT_LIB_PACKED_BATCH_H_

#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client {

// Ray casts: origin and translation per query (level units); options shared.
class PackedRayBuilder {
 public:
  // Appends to `rays`, which must outlive the builder.
  explicit PackedRayBuilder(v1::PackedRayCasts* rays) : rays_(rays) {}
  // Room for `count` queries in every column.
  void Reserve(int count);
  void Add(Vec2 origin, Vec2 translation);
  // Queries added so far.
  int size() const { return rays_->origin_x_size(); }
  // The options every query of the batch shares (closest hit only).
  v1::CastOptions* options() { return rays_->mutable_options(); }
  // Asks for the results' integer columns in fixed width (cheaper to send
  // and parse; PackedCastView reads either).
  void set_fixed_width_results(bool fixed) {
    rays_->set_fixed_width_results(fixed);
  }

 private:
  v1::PackedRayCasts* rays_;
};

// Circle casts: centre, radius (>= 0) and translation per query.
class PackedCircleBuilder {
 public:
  explicit PackedCircleBuilder(v1::PackedCircleCasts* circles)
      : circles_(circles) {}
  void Reserve(int count);
  void Add(Vec2 center, double radius, Vec2 translation);
  int size() const { return circles_->center_x_size(); }
  v1::CastOptions* options() { return circles_->mutable_options(); }
  // As PackedRayBuilder's.
  void set_fixed_width_results(bool fixed) {
    circles_->set_fixed_width_results(fixed);
  }

 private:
  v1::PackedCircleCasts* circles_;
};

// Move validations of circles: the mover's centre at its start pose,
// radius and claimed translation per query; skin, slide and exit
// iterations and filter shared (set them on message()).
class PackedMoveBuilder {
 public:
  explicit PackedMoveBuilder(v1::PackedMoveValidations* moves)
      : moves_(moves) {}
  void Reserve(int count);
  void Add(Vec2 center, double radius, Vec2 translation);
  int size() const { return moves_->center_x_size(); }
  // For the shared fields (skin, max_slide_iterations, ...).
  v1::PackedMoveValidations* message() { return moves_; }

 private:
  v1::PackedMoveValidations* moves_;
};

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_PACKED_BATCH_H_
