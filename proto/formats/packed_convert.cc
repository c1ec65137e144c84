#include "proto/formats/packed_convert.h"

#include <cstdint>
#include <initializer_list>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {
namespace {

struct Column {
  absl::string_view name;
  int size;
};

// The query count: the first column's length, which every other column must
// have, and which must be 1..max_batch_size.
absl::StatusOr<int> CountQueries(absl::string_view field,
                                 std::initializer_list<Column> columns,
                                 const InputLimits& limits) {
  const Column& first = *columns.begin();
  for (const Column& column : columns) {
    if (column.size != first.size) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", column.name, " holds ", column.size,
                       " values, but ", first.name, " holds ", first.size,
                       ": every column holds one value per query"));
    }
  }
  if (first.size == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".", first.name, " must not be empty"));
  }
  if (first.size > limits.max_batch_size) {
    return absl::ResourceExhaustedError(absl::StrCat(
        field, " holds ", first.size, " queries, more than max_batch_size ",
        limits.max_batch_size));
  }
  return first.size;
}

// The shared options of a packed cast batch: CastSettingsFromProto's, and
// the closest hit only (a packed result holds one hit per query).
absl::StatusOr<CastSettings> PackedCastSettings(const v1::CastOptions& options,
                                                const InputLimits& limits,
                                                absl::string_view field) {
  const FieldPath root(field);
  const FieldPath path(root, ".options");
  absl::StatusOr<CastSettings> settings =
      CastSettingsFromProto(options, limits, path);
  if (!settings.ok()) return settings.status();
  if (settings->all_hits) {
    return absl::InvalidArgumentError(absl::StrCat(
        path.ToString(),
        ".mode must be CAST_MODE_CLOSEST in a packed batch (its results hold "
        "one hit per query; use the per-query form for CAST_MODE_ALL)"));
  }
  return settings;
}

// One value of query `index` in column `column` of `field`, as CheckInRange
// (nonnegative: CheckNonNegative) sees it, named "{field}.{column}[{index}]".
absl::Status CheckColumnValue(double value, absl::string_view field,
                              absl::string_view column, int index,
                              bool nonnegative = false) {
  const FieldPath root(field);
  const FieldPath named(root, column);
  const FieldPath path(named, index);
  return nonnegative ? CheckNonNegative(value, path)
                     : CheckInRange(value, path);
}

// The first refused value among `values` (name, value, nonnegative), in
// order; only called when some value is out of range.
struct NamedValue {
  absl::string_view column;
  double value;
  bool nonnegative = false;
};
absl::Status FirstBadValue(absl::string_view field, int index,
                           std::initializer_list<NamedValue> values) {
  for (const NamedValue& v : values) {
    if (absl::Status s =
            CheckColumnValue(v.value, field, v.column, index, v.nonnegative);
        !s.ok()) {
      return s;
    }
  }
  return absl::InternalError(
      absl::StrCat(field, "[", index, "]: a value was refused without reason"));
}

}  // namespace

absl::StatusOr<PackedCastBatch> PackedRaysFromProto(
    const v1::PackedRayCasts& rays, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<int> count =
      CountQueries(field,
                   {{"origin_x", rays.origin_x_size()},
                    {"origin_y", rays.origin_y_size()},
                    {"translation_x", rays.translation_x_size()},
                    {"translation_y", rays.translation_y_size()}},
                   limits);
  if (!count.ok()) return count.status();
  absl::StatusOr<CastSettings> settings =
      PackedCastSettings(rays.options(), limits, field);
  if (!settings.ok()) return settings.status();
  return PackedCastBatch{.count = *count,
                         .settings = *settings,
                         .fixed_width_results = rays.fixed_width_results()};
}

absl::StatusOr<PackedCastBatch> PackedCirclesFromProto(
    const v1::PackedCircleCasts& circles, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<int> count =
      CountQueries(field,
                   {{"center_x", circles.center_x_size()},
                    {"center_y", circles.center_y_size()},
                    {"radius", circles.radius_size()},
                    {"translation_x", circles.translation_x_size()},
                    {"translation_y", circles.translation_y_size()}},
                   limits);
  if (!count.ok()) return count.status();
  absl::StatusOr<CastSettings> settings =
      PackedCastSettings(circles.options(), limits, field);
  if (!settings.ok()) return settings.status();
  return PackedCastBatch{.count = *count,
                         .settings = *settings,
                         .fixed_width_results = circles.fixed_width_results()};
}

absl::StatusOr<PackedMoveBatch> PackedMovesFromProto(
    const v1::PackedMoveValidations& moves, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<int> count =
      CountQueries(field,
                   {{"center_x", moves.center_x_size()},
                    {"center_y", moves.center_y_size()},
                    {"radius", moves.radius_size()},
                    {"translation_x", moves.translation_x_size()},
                    {"translation_y", moves.translation_y_size()}},
                   limits);
  if (!count.ok()) return count.status();
  absl::StatusOr<MoveSettings> settings = MoveSettingsFromProto(
      moves.skin(), moves.max_slide_iterations(), moves.max_exit_iterations(),
      moves.filter(), limits, field);
  if (!settings.ok()) return settings.status();
  return PackedMoveBatch{.count = *count, .settings = *settings};
}

namespace packed_internal {

absl::Status RefusedRay(const v1::PackedRayCasts& rays, int index,
                        absl::string_view field) {
  return FirstBadValue(field, index,
                       {{".origin_x", rays.origin_x(index)},
                        {".origin_y", rays.origin_y(index)},
                        {".translation_x", rays.translation_x(index)},
                        {".translation_y", rays.translation_y(index)}});
}

absl::Status RefusedCircle(double cx, double cy, double r, double tx, double ty,
                           int index, absl::string_view field) {
  return FirstBadValue(field, index,
                       {{".center_x", cx},
                        {".center_y", cy},
                        {".radius", r, /*nonnegative=*/true},
                        {".translation_x", tx},
                        {".translation_y", ty}});
}

}  // namespace packed_internal

void ResizePackedResults(int count, bool fixed_width,
                         v1::PackedCastResults* out) {
  if (fixed_width) {
    out->mutable_hit_status_fixed()->Resize(count, v1::HIT_STATUS_UNSPECIFIED);
    out->mutable_shape_id_fixed()->Resize(count, 0);
    out->mutable_user_data_fixed()->Resize(count, 0);
    out->mutable_feature_type_fixed()->Resize(count,
                                              v1::FEATURE_TYPE_UNSPECIFIED);
    out->mutable_feature_index_fixed()->Resize(count, 0);
  } else {
    out->mutable_hit_status()->Resize(count, v1::HIT_STATUS_UNSPECIFIED);
    out->mutable_shape_id()->Resize(count, 0);
    out->mutable_user_data()->Resize(count, 0);
    out->mutable_feature_type()->Resize(count, v1::FEATURE_TYPE_UNSPECIFIED);
    out->mutable_feature_index()->Resize(count, 0);
  }
  out->mutable_fraction()->Resize(count, 0.0);
  out->mutable_point_x()->Resize(count, 0.0);
  out->mutable_point_y()->Resize(count, 0.0);
  out->mutable_normal_x()->Resize(count, 0.0);
  out->mutable_normal_y()->Resize(count, 0.0);
  out->mutable_depth()->Resize(count, 0.0);
}

void SetPackedHit(int index, const WorldHit& hit, bool fixed_width,
                  v1::PackedCastResults* out) {
  if (fixed_width) {
    out->set_hit_status_fixed(index, ToProto(hit.hit.status));
    out->set_shape_id_fixed(index, hit.shape_id);
    out->set_user_data_fixed(index, hit.user_data);
    out->set_feature_type_fixed(index, ToProto(hit.hit.feature.type));
    out->set_feature_index_fixed(index, hit.hit.feature.index);
  } else {
    out->set_hit_status(index, ToProto(hit.hit.status));
    out->set_shape_id(index, hit.shape_id);
    out->set_user_data(index, hit.user_data);
    out->set_feature_type(index, ToProto(hit.hit.feature.type));
    out->set_feature_index(index, hit.hit.feature.index);
  }
  out->set_fraction(index, hit.hit.fraction);
  out->set_point_x(index, hit.hit.point.x);
  out->set_point_y(index, hit.hit.point.y);
  out->set_normal_x(index, hit.hit.normal.x);
  out->set_normal_y(index, hit.hit.normal.y);
  out->set_depth(index, hit.hit.depth);
}

void ResizePackedResults(int count, v1::PackedMoveResults* out) {
  out->mutable_verdict()->Resize(count, v1::MOVE_VERDICT_UNSPECIFIED);
  out->mutable_first_hit_status()->Resize(count, v1::HIT_STATUS_UNSPECIFIED);
  out->mutable_first_hit_fraction()->Resize(count, 0.0);
  out->mutable_first_hit_point_x()->Resize(count, 0.0);
  out->mutable_first_hit_point_y()->Resize(count, 0.0);
  out->mutable_first_hit_normal_x()->Resize(count, 0.0);
  out->mutable_first_hit_normal_y()->Resize(count, 0.0);
  out->mutable_first_hit_shape_id()->Resize(count, 0);
  out->mutable_first_hit_user_data()->Resize(count, 0);
  out->mutable_first_hit_feature_type()->Resize(count,
                                                v1::FEATURE_TYPE_UNSPECIFIED);
  out->mutable_first_hit_feature_index()->Resize(count, 0);
  out->mutable_first_hit_depth()->Resize(count, 0.0);
  out->mutable_safe_fraction()->Resize(count, 0.0);
  out->mutable_safe_translation_x()->Resize(count, 0.0);
  out->mutable_safe_translation_y()->Resize(count, 0.0);
  out->mutable_claimed_end_reachable()->Resize(count, false);
  out->mutable_slide_translation_x()->Resize(count, 0.0);
  out->mutable_slide_translation_y()->Resize(count, 0.0);
  out->mutable_slide_iteration_count()->Resize(count, 0);
  out->mutable_slide_out_of_iterations()->Resize(count, false);
  out->mutable_exit_separated()->Resize(count, false);
  out->mutable_exit_translation_x()->Resize(count, 0.0);
  out->mutable_exit_translation_y()->Resize(count, 0.0);
  out->mutable_exit_iteration_count()->Resize(count, 0);
  out->mutable_exit_depth()->Resize(count, 0.0);
}

void SetPackedMove(int index, const MoveValidation& validation,
                   v1::PackedMoveResults* out) {
  out->set_verdict(index, ToProto(validation.verdict));
  if (validation.first_hit) {
    const WorldHit& hit = *validation.first_hit;
    out->set_first_hit_status(index, ToProto(hit.hit.status));
    out->set_first_hit_fraction(index, hit.hit.fraction);
    out->set_first_hit_point_x(index, hit.hit.point.x);
    out->set_first_hit_point_y(index, hit.hit.point.y);
    out->set_first_hit_normal_x(index, hit.hit.normal.x);
    out->set_first_hit_normal_y(index, hit.hit.normal.y);
    out->set_first_hit_shape_id(index, hit.shape_id);
    out->set_first_hit_user_data(index, hit.user_data);
    out->set_first_hit_feature_type(index, ToProto(hit.hit.feature.type));
    out->set_first_hit_feature_index(index, hit.hit.feature.index);
    out->set_first_hit_depth(index, hit.hit.depth);
  }
  out->set_safe_fraction(index, validation.safe_fraction);
  out->set_safe_translation_x(index, validation.safe_translation.x);
  out->set_safe_translation_y(index, validation.safe_translation.y);
  out->set_claimed_end_reachable(index, validation.claimed_end_reachable);
  if (validation.slide) {
    out->set_slide_translation_x(index, validation.slide->translation.x);
    out->set_slide_translation_y(index, validation.slide->translation.y);
    out->set_slide_iteration_count(index, validation.slide->iterations);
    out->set_slide_out_of_iterations(index,
                                     validation.slide->out_of_iterations);
  }
  if (validation.exit) {
    out->set_exit_separated(index, validation.exit->separated);
    out->set_exit_translation_x(index, validation.exit->translation.x);
    out->set_exit_translation_y(index, validation.exit->translation.y);
    out->set_exit_iteration_count(index, validation.exit->iterations);
    out->set_exit_depth(index, validation.exit->depth);
  }
}

}  // namespace collide::formats
