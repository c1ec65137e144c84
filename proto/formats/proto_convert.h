// Conversion between the wire messages (collide.v1) and lib/ types, with the
// validation the service boundary owes lib/: lib/ asserts its preconditions,
// so everything a caller sends is checked here first. Every error is an
// absl::Status naming the field path as the caller wrote it, e.g.
// "level.shapes[3].circle.radius must be >= 0" or
// "queries[2].polygon_cast.polygon.vertices[1].x must be finite":
// INVALID_ARGUMENT for bad values, RESOURCE_EXHAUSTED for input over a
// InputLimits limit.
#ifndef COLLIDE_FORMATS_PROTO_CONVERT_H_
#define COLLIDE_FORMATS_PROTO_CONVERT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/input_limits.h"

namespace collide::formats {

// --- Level names. A level id is 1 to kMaxLevelIdLength characters from
// [A-Za-z0-9_-] (safe as a file name); its resource name is
// "levels/{level_id}".
inline constexpr int kMaxLevelIdLength = 64;

// OK when `id` is a valid level id; else INVALID_ARGUMENT "{field} ...".
absl::Status ValidateLevelId(absl::string_view id, absl::string_view field);
// The level id in `name` ("levels/{level_id}"); INVALID_ARGUMENT naming
// `field` when name has another form or the id is invalid.
absl::StatusOr<std::string> ParseLevelName(absl::string_view name,
                                           absl::string_view field);
// "levels/{id}".
std::string LevelName(absl::string_view id);

// --- Plain values (no validation).
Vec2 FromProto(const v1::Vec2& v);
void ToProto(Vec2 v, v1::Vec2* out);
void ToProto(Aabb box, v1::Aabb* out);

// --- Levels. Validates every shape of `level` (finite numbers, radii >= 0,
// vertex counts, box half extents > 0, polygon simple, unique ids, a
// geometry set) and `level.cell_size`, checks the limits (max_level_shapes,
// max_vertices per shape, max_level_vertices: RESOURCE_EXHAUSTED), and
// builds the lib Level. Field paths start with "level.". level.id is not
// read (the caller names the level).
absl::StatusOr<Level> LevelFromProto(const v1::Level& level,
                                     const InputLimits& limits);

// A patched level (Level::Patch): `base` without `removed_ids`, plus
// `added`, each validated as LevelFromProto validates a level's shapes
// (field paths "{field_prefix}[i]...", e.g. "upserts[3].polygon.vertices";
// the limits apply to `added` alone). Level::Patch's own errors (unknown
// or repeated removed ids, an added id still in base) come back as
// INVALID_ARGUMENT "{field_prefix}: ...".
absl::StatusOr<Level> PatchedLevelFromProto(
    std::shared_ptr<const Level> base, absl::Span<const uint64_t> removed_ids,
    const google::protobuf::RepeatedPtrField<v1::Shape>& added,
    absl::string_view field_prefix, const InputLimits& limits);

// --- Queries. Each *FromProto validates one query message and converts it.
// `field` is the path of the message in the request (e.g.
// "queries[3].ray_cast") and prefixes every error. The results view the
// message (filter.ignore_ids), so it must outlive them.

// A query's filter: at most limits.max_ignore_ids ignore_ids
// (INVALID_ARGUMENT "{field}.ignore_ids holds ..." beyond). The result
// views filter.ignore_ids.
absl::StatusOr<QueryFilter> FilterFromProto(const v1::QueryFilter& filter,
                                            const InputLimits& limits,
                                            const FieldPath& field);

// A cast's options: the lib filter and options plus the mode.
struct CastSettings {
  QueryFilter filter;
  CastOptions options;
  // CAST_MODE_ALL; otherwise the closest hit only.
  bool all_hits = false;
  // For all_hits: the list capacity, 1..max_results_per_query.
  int32_t max_hits = 0;
};

// A cast's CastOptions (mode, filter, max_fraction, target_distance,
// stop_at_penetration, max_hits) with errors under `field` (e.g.
// "queries[3].ray_cast.options"). Shared by the per-query and the packed
// forms, so both refuse the same options.
absl::StatusOr<CastSettings> CastSettingsFromProto(
    const v1::CastOptions& options, const InputLimits& limits,
    const FieldPath& field);

struct RayCastArgs {
  RayInput ray;
  CastSettings settings;
};
struct CircleCastArgs {
  CircleCast cast;
  CastSettings settings;
};
struct PolygonCastArgs {
  PolygonCast cast;
  CastSettings settings;
};
struct CapsuleCastArgs {
  CapsuleCast cast;
  CastSettings settings;
};
struct OverlapArgs {
  std::variant<Circle, ConvexPolygon, Capsule> shape;
  QueryFilter filter;
  // 1..max_results_per_query.
  int32_t max_results = 0;
};
struct ClosestPointArgs {
  Vec2 point;
  // +infinity when the query gave none.
  double max_distance = 0.0;
  QueryFilter filter;
};

absl::StatusOr<RayCastArgs> RayCastFromProto(const v1::RayCastQuery& query,
                                             const InputLimits& limits,
                                             absl::string_view field);
absl::StatusOr<CircleCastArgs> CircleCastFromProto(
    const v1::CircleCastQuery& query, const InputLimits& limits,
    absl::string_view field);
// The polygon must be strictly convex with 3 to kMaxPolygonVertices
// vertices (INVALID_ARGUMENT "{field}.polygon: ..." otherwise).
absl::StatusOr<PolygonCastArgs> PolygonCastFromProto(
    const v1::PolygonCastQuery& query, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<CapsuleCastArgs> CapsuleCastFromProto(
    const v1::CapsuleCastQuery& query, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<OverlapArgs> OverlapFromProto(const v1::OverlapQuery& query,
                                             const InputLimits& limits,
                                             absl::string_view field);
absl::StatusOr<ClosestPointArgs> ClosestPointFromProto(
    const v1::ClosestPointQuery& query, const InputLimits& limits,
    absl::string_view field);

// --- Validation queries (collide/validate.h).

struct MoveValidationArgs {
  MoveClaim claim;
  QueryFilter filter;
  MoveOptions options;
};
struct HitValidationArgs {
  Shot shot;
  QueryFilter filter;
  // The targets in query order, viewing the caller's storage.
  absl::Span<const ShotTarget> targets;
};
// A pair whose segment deforms (MovingShape.segment_end): the point and the
// segment, and which of the pair the point is.
struct DeformingPair {
  RayInput point;
  DeformingSegment segment;
  bool point_is_a = true;
};
struct PairToiArgs {
  MovingShape a;
  MovingShape b;
  CastOptions options;
  // Set when a segment of the pair deforms; a and b are then unused.
  std::optional<DeformingPair> deforming;
};

// A move validation's options: skin (>= 0), max_slide_iterations
// (0..limits.max_slide_iterations, at most kMaxSlideIterations),
// max_exit_iterations (0 means 4; at most kMaxExitIterations) and the
// filter, with errors under `field` (".skin", ".max_slide_iterations", ...).
// Shared by the per-query and the packed forms.
struct MoveSettings {
  QueryFilter filter;
  MoveOptions options;
};
absl::StatusOr<MoveSettings> MoveSettingsFromProto(
    double skin, int32_t max_slide_iterations, int32_t max_exit_iterations,
    const v1::QueryFilter& filter, const InputLimits& limits,
    const FieldPath& field);

// The mover (exactly one of circle, capsule, polygon), translation, skin
// (>= 0), max_slide_iterations (0..limits.max_slide_iterations, at most
// kMaxSlideIterations), max_exit_iterations (0 means 4; at most
// kMaxExitIterations) and filter.
absl::StatusOr<MoveValidationArgs> MoveValidationFromProto(
    const v1::MoveValidationQuery& query, const InputLimits& limits,
    absl::string_view field);
// The shot (radius >= 0), at most limits.max_shot_targets targets (each
// with exactly one hitbox) and the filter. The targets are converted into
// `target_storage` (cleared first; a caller that keeps it across queries
// reuses its capacity instead of allocating), which the result views.
absl::StatusOr<HitValidationArgs> HitValidationFromProto(
    const v1::HitValidationQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<ShotTarget>& target_storage);
// A swing's body (exactly one of circle, capsule, polygon), errors under
// `field` ("queries[2].hit_validation.swing.capsule.radius ...").
absl::StatusOr<BodyShape> SwingBodyFromProto(const v1::Swing& swing,
                                             const FieldPath& field);
// Two moving shapes (exactly one of point, segment, circle, capsule,
// polygon each), max_fraction in [0, 1] when present, target_distance >= 0.
// A segment with segment_end (and no translation) against a point fills
// `deforming` (target_distance must be 0).
absl::StatusOr<PairToiArgs> PairToiFromProto(const v1::PairToiQuery& query,
                                             absl::string_view field);

// --- Results, lib -> proto (fills `out`, which the caller owns).
void ToProto(const WorldHit& hit, v1::CastHit* out);
void ToProto(const WorldClosestPoint& closest, v1::ClosestPointResult* out);
void ToProto(Feature feature, v1::Feature* out);
void ToProto(const MoveValidation& validation, v1::MoveValidationResult* out);
// A miss sets outcome SHOT_OUTCOME_MISS and target_index -1 only.
void ToProto(const std::optional<ShotHit>& hit, v1::HitValidationResult* out);
// A miss sets hit = false only.
void ToProto(const std::optional<Hit>& hit, v1::PairToiResult* out);
v1::MoveVerdict ToProto(MoveVerdict verdict);
v1::HitStatus ToProto(HitStatus status);
v1::FeatureType ToProto(FeatureType type);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_PROTO_CONVERT_H_
