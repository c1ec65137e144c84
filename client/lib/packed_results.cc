#include "client/lib/packed_results.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client {
namespace {

// INTERNAL naming the first column whose length is not `count`.
absl::Status CheckColumns(
    absl::string_view message, int count,
    std::initializer_list<std::pair<absl::string_view, int>> columns) {
  for (const auto& [name, size] : columns) {
    if (size != count) {
      return absl::InternalError(absl::StrCat("the server answered ", size,
                                              " values in ", message, ".", name,
                                              " for ", count, " queries"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PackedQueryStatus(
    const google::protobuf::RepeatedPtrField<v1::PackedQueryError>& errors,
    int index) {
  const auto it = std::lower_bound(
      errors.begin(), errors.end(), index,
      [](const v1::PackedQueryError& e, int i) { return e.index() < i; });
  if (it == errors.end() || it->index() != index) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(it->status().code()),
                      it->status().message());
}

absl::StatusOr<PackedCastView> PackedCastView::Read(
    const v1::PackedCastResults& r, int count) {
  if (absl::Status s = CheckColumns("packed_casts", count,
                                    {{"fraction", r.fraction_size()},
                                     {"point_x", r.point_x_size()},
                                     {"point_y", r.point_y_size()},
                                     {"normal_x", r.normal_x_size()},
                                     {"normal_y", r.normal_y_size()},
                                     {"depth", r.depth_size()}});
      !s.ok()) {
    return s;
  }
  // The integer columns the server filled (PackedCastRow reads the same).
  const absl::Status integers =
      r.hit_status_fixed().empty()
          ? CheckColumns("packed_casts", count,
                         {{"hit_status", r.hit_status_size()},
                          {"shape_id", r.shape_id_size()},
                          {"user_data", r.user_data_size()},
                          {"feature_type", r.feature_type_size()},
                          {"feature_index", r.feature_index_size()}})
          : CheckColumns(
                "packed_casts", count,
                {{"hit_status_fixed", r.hit_status_fixed_size()},
                 {"shape_id_fixed", r.shape_id_fixed_size()},
                 {"user_data_fixed", r.user_data_fixed_size()},
                 {"feature_type_fixed", r.feature_type_fixed_size()},
                 {"feature_index_fixed", r.feature_index_fixed_size()}});
  if (!integers.ok()) return integers;
  return PackedCastView(&r, count);
}

absl::StatusOr<PackedMoveView> PackedMoveView::Read(
    const v1::PackedMoveResults& r, int count) {
  if (absl::Status s = CheckColumns(
          "packed_moves", count,
          {{"verdict", r.verdict_size()},
           {"first_hit_status", r.first_hit_status_size()},
           {"first_hit_fraction", r.first_hit_fraction_size()},
           {"first_hit_point_x", r.first_hit_point_x_size()},
           {"first_hit_point_y", r.first_hit_point_y_size()},
           {"first_hit_normal_x", r.first_hit_normal_x_size()},
           {"first_hit_normal_y", r.first_hit_normal_y_size()},
           {"first_hit_shape_id", r.first_hit_shape_id_size()},
           {"safe_fraction", r.safe_fraction_size()},
           {"safe_translation_x", r.safe_translation_x_size()},
           {"safe_translation_y", r.safe_translation_y_size()},
           {"claimed_end_reachable", r.claimed_end_reachable_size()},
           {"slide_translation_x", r.slide_translation_x_size()},
           {"slide_translation_y", r.slide_translation_y_size()},
           {"exit_separated", r.exit_separated_size()},
           {"exit_translation_x", r.exit_translation_x_size()},
           {"exit_translation_y", r.exit_translation_y_size()}});
      !s.ok()) {
    return s;
  }
  return PackedMoveView(&r, count);
}

}  // namespace collide::client
