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

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
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
// "{field}.{column}[{index}] ..." for the first bad one.
absl::StatusOr<RayInput> PackedRayAt(const v1::PackedRayCasts& rays, int index,
                                     absl::string_view field);
absl::StatusOr<CircleCast> PackedCircleAt(const v1::PackedCircleCasts& circles,
                                          int index, absl::string_view field);
absl::StatusOr<MoveClaim> PackedMoveAt(const v1::PackedMoveValidations& moves,
                                       int index, absl::string_view field);

// --- Results. Resize* gives every column `count` zero values (a miss, or
// a refused query, in every row); Set* writes row `index` with exactly the
// values ToProto(WorldHit) / ToProto(MoveValidation) write into the
// per-query messages.
void ResizePackedResults(int count, v1::PackedCastResults* out);
void SetPackedHit(int index, const WorldHit& hit, v1::PackedCastResults* out);
void ResizePackedResults(int count, v1::PackedMoveResults* out);
void SetPackedMove(int index, const MoveValidation& validation,
                   v1::PackedMoveResults* out);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_PACKED_CONVERT_H_
