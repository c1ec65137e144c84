// The packed batch form (collision_service.proto: PackedRayCasts,
// PackedCircleCasts, PackedMoveValidations and their result columns)
// decoded straight into lib/ query structs and lib/ answers written straight
// into result columns: no per-query message is built on either side.
//
// Values are checked with the per-query form's rules (field_checks.h, and
// CastSettingsFromProto / MoveSettingsFromProto for the shared options), so
// a value one form refuses the other refuses too; errors name the column
// and the index ("packed_rays.origin_x[17] must be finite").
#ifndef COLLIDE_FORMATS_PACKED_CONVERT_H_
#define COLLIDE_FORMATS_PACKED_CONVERT_H_

#include <cmath>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {

// --- Batch level: column lengths, the query count and the shared options.
// `field` names the packed message in the request ("packed_rays").
// Errors: INVALID_ARGUMENT for an empty batch ("{field}.origin_x must not
// be empty"), a column of another length than the first ("{field}.origin_y
// holds 3 values, but origin_x holds 4: every column holds one value per
// query"), bad shared options ("{field}.options.max_fraction ...", a mode
// other than closest); RESOURCE_EXHAUSTED for more than max_batch_size
// queries.

struct PackedCastBatch {
  // N, the number of queries (1..max_batch_size).
  int count = 0;
  // The shared options; all_hits is always false.
  CastSettings settings;
  // The request's fixed_width_results: which integer columns the results
  // fill (ResizePackedResults, SetPackedHit).
  bool fixed_width_results = false;
};
struct PackedMoveBatch {
  int count = 0;
  MoveSettings settings;
};

absl::StatusOr<PackedCastBatch> PackedRaysFromProto(
    const v1::PackedRayCasts& rays, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<PackedCastBatch> PackedCirclesFromProto(
    const v1::PackedCircleCasts& circles, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<PackedMoveBatch> PackedMovesFromProto(
    const v1::PackedMoveValidations& moves, const InputLimits& limits,
    absl::string_view field);

// --- Query `index` (0 <= index < the batch's count, checked by the batch
// functions above): its values checked in the per-query form's field order
// (origin or centre, radius, translation), INVALID_ARGUMENT
// "{field}.{column}[{index}] ..." for the first bad one. Inline: a batch
// answers hundreds of queries, and the common case (all values in range)
// is a few compares; only a refused value takes the call out of line.
inline absl::StatusOr<RayInput> PackedRayAt(const v1::PackedRayCasts& rays,
                                            int index, absl::string_view field);
inline absl::StatusOr<CircleCast> PackedCircleAt(
    const v1::PackedCircleCasts& circles, int index, absl::string_view field);
inline absl::StatusOr<MoveClaim> PackedMoveAt(
    const v1::PackedMoveValidations& moves, int index, absl::string_view field);

// --- Results. Resize* gives every column `count` zero values (a miss, or
// a refused query, in every row); Set* writes row `index` with exactly the
// values ToProto(WorldHit) / ToProto(MoveValidation) write into the
// per-query messages. For casts, `fixed_width` (the batch's
// fixed_width_results) picks the *_fixed integer columns instead of the
// varint ones; the other set stays empty.
void ResizePackedResults(int count, bool fixed_width,
                         v1::PackedCastResults* out);
void SetPackedHit(int index, const WorldHit& hit, bool fixed_width,
                  v1::PackedCastResults* out);
void ResizePackedResults(int count, v1::PackedMoveResults* out);
void SetPackedMove(int index, const MoveValidation& validation,
                   v1::PackedMoveResults* out);

// --- Implementation details of the inline functions above.
namespace packed_internal {

// Why query `index` was refused: the first of its values out of range, in
// the per-query form's field order. Only called when one is.
absl::Status RefusedRay(const v1::PackedRayCasts& rays, int index,
                        absl::string_view field);
absl::Status RefusedCircle(double cx, double cy, double r, double tx, double ty,
                           int index, absl::string_view field);

// CircleCast and MoveClaim's circle come from the same five columns.
struct CircleMotion {
  Circle circle;
  Vec2 translation;
};
template <typename Circles>
absl::StatusOr<CircleMotion> PackedCircleMotion(const Circles& circles,
                                                int index,
                                                absl::string_view field) {
  const double cx = circles.center_x(index);
  const double cy = circles.center_y(index);
  const double r = circles.radius(index);
  const double tx = circles.translation_x(index);
  const double ty = circles.translation_y(index);
  if (ABSL_PREDICT_FALSE(!(InExactRange(cx) && InExactRange(cy) &&
                           InExactRange(r) && r >= 0.0 && InExactRange(tx) &&
                           InExactRange(ty)))) {
    return RefusedCircle(cx, cy, r, tx, ty, index, field);
  }
  return CircleMotion{Circle{{cx, cy}, r}, Vec2{tx, ty}};
}

}  // namespace packed_internal

inline absl::StatusOr<RayInput> PackedRayAt(const v1::PackedRayCasts& rays,
                                            int index,
                                            absl::string_view field) {
  const double ox = rays.origin_x(index);
  const double oy = rays.origin_y(index);
  const double tx = rays.translation_x(index);
  const double ty = rays.translation_y(index);
  if (ABSL_PREDICT_FALSE(!(InExactRange(ox) && InExactRange(oy) &&
                           InExactRange(tx) && InExactRange(ty)))) {
    return packed_internal::RefusedRay(rays, index, field);
  }
  return RayInput{{ox, oy}, {tx, ty}};
}

inline absl::StatusOr<CircleCast> PackedCircleAt(
    const v1::PackedCircleCasts& circles, int index, absl::string_view field) {
  absl::StatusOr<packed_internal::CircleMotion> motion =
      packed_internal::PackedCircleMotion(circles, index, field);
  if (!motion.ok()) return motion.status();
  return CircleCast{motion->circle, motion->translation};
}

inline absl::StatusOr<MoveClaim> PackedMoveAt(
    const v1::PackedMoveValidations& moves, int index,
    absl::string_view field) {
  absl::StatusOr<packed_internal::CircleMotion> motion =
      packed_internal::PackedCircleMotion(moves, index, field);
  if (!motion.ok()) return motion.status();
  return MoveClaim{BodyShape(motion->circle), motion->translation};
}

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_PACKED_CONVERT_H_
