#include "proto/formats/visibility_convert.h"

#include <cstdint>
#include <numbers>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/number_text.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "collide/visibility.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {
namespace {

absl::Status CheckPoint(const v1::Vec2& point, const FieldPath& field) {
  if (absl::Status s = CheckInRange(point.x(), FieldPath(field, ".x"));
      !s.ok()) {
    return s;
  }
  return CheckInRange(point.y(), FieldPath(field, ".y"));
}

// The cone of `cone`: direction non-zero, half-angle in [0, pi] (pi: the
// double nearest, std::numbers::pi). nullopt for pi, as MakeViewCone.
absl::StatusOr<std::optional<ViewCone>> ConeFromProto(const v1::ViewCone& cone,
                                                      const FieldPath& field) {
  const FieldPath direction(field, ".direction");
  if (absl::Status s = CheckPoint(cone.direction(), direction); !s.ok()) {
    return s;
  }
  if (cone.direction().x() == 0.0 && cone.direction().y() == 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat(direction.ToString(), " must not be (0, 0)"));
  }
  const double half = cone.half_angle_radians();
  if (!(half >= 0.0 && half <= std::numbers::pi)) {
    return absl::InvalidArgumentError(absl::StrCat(
        FieldPath(field, ".half_angle_radians").ToString(),
        " must be in [0, pi] (pi: 3.141592653589793), got ", NumberText(half)));
  }
  return MakeViewCone(FromProto(cone.direction()), half);
}

absl::StatusOr<Viewer> ViewerFromProto(const v1::Viewer& viewer,
                                       const FieldPath& field) {
  if (absl::Status s =
          CheckPoint(viewer.position(), FieldPath(field, ".position"));
      !s.ok()) {
    return s;
  }
  Viewer result{.position = FromProto(viewer.position()),
                .range = std::nullopt,
                .cone = std::nullopt};
  if (viewer.has_range()) {
    if (absl::Status s =
            CheckNonNegative(viewer.range(), FieldPath(field, ".range"));
        !s.ok()) {
      return s;
    }
    result.range = viewer.range();
  }
  if (viewer.has_cone()) {
    absl::StatusOr<std::optional<ViewCone>> cone =
        ConeFromProto(viewer.cone(), FieldPath(field, ".cone"));
    if (!cone.ok()) return cone.status();
    result.cone = *cone;
  }
  return result;
}

// The point a target is judged by under TARGET_RULE_CENTER (a circle's
// centre; under TARGET_RULE_ANY_PART the caller reads its radius from the
// query, checked here).
absl::StatusOr<Vec2> TargetFromProto(const v1::VisibilityTarget& target,
                                     const FieldPath& field) {
  switch (target.shape_case()) {
    case v1::VisibilityTarget::kPoint:
      if (absl::Status s =
              CheckPoint(target.point(), FieldPath(field, ".point"));
          !s.ok()) {
        return s;
      }
      return FromProto(target.point());
    case v1::VisibilityTarget::kCircle: {
      const FieldPath circle(field, ".circle");
      if (absl::Status s = CheckPoint(target.circle().center(),
                                      FieldPath(circle, ".center"));
          !s.ok()) {
        return s;
      }
      if (absl::Status s = CheckNonNegative(target.circle().radius(),
                                            FieldPath(circle, ".radius"));
          !s.ok()) {
        return s;
      }
      return FromProto(target.circle().center());
    }
    case v1::VisibilityTarget::SHAPE_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field.ToString(), " has no shape: set point or circle"));
}

}  // namespace

int64_t VisibilityPairs(const v1::VisibilityQuery& query) {
  const int64_t viewers = query.viewers_size();
  return query.targets_size() == 0 ? viewers
                                   : viewers * int64_t{query.targets_size()};
}

absl::StatusOr<VisibilityArgs> VisibilityFromProto(
    const v1::VisibilityQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<Viewer>& viewer_storage,
    std::vector<Vec2>& target_storage) {
  if (const int64_t pairs = VisibilityPairs(query);
      pairs > limits.max_visibility_pairs) {
    return absl::ResourceExhaustedError(
        absl::StrCat(field, " holds ", query.viewers_size(), " viewers x ",
                     query.targets_size(), " targets = ", pairs,
                     " pairs, more than max_visibility_pairs ",
                     limits.max_visibility_pairs));
  }
  const FieldPath root(field);
  switch (query.target_rule()) {
    case v1::TARGET_RULE_UNSPECIFIED:
    case v1::TARGET_RULE_CENTER:
    case v1::TARGET_RULE_ANY_PART:
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".target_rule must be a TargetRule, got ",
                       static_cast<int>(query.target_rule())));
  }
  viewer_storage.clear();
  const FieldPath viewers(root, ".viewers");
  for (int i = 0; i < query.viewers_size(); ++i) {
    absl::StatusOr<Viewer> viewer =
        ViewerFromProto(query.viewers(i), FieldPath(viewers, i));
    if (!viewer.ok()) return viewer.status();
    viewer_storage.push_back(*viewer);
  }
  target_storage.clear();
  const FieldPath targets(root, ".targets");
  for (int j = 0; j < query.targets_size(); ++j) {
    absl::StatusOr<Vec2> target =
        TargetFromProto(query.targets(j), FieldPath(targets, j));
    if (!target.ok()) return target.status();
    target_storage.push_back(*target);
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(query.filter(), limits, FieldPath(root, ".filter"));
  if (!filter.ok()) return filter.status();
  return VisibilityArgs{
      .viewers = viewer_storage,
      .targets = target_storage,
      .filter = *filter,
      .any_part = query.target_rule() == v1::TARGET_RULE_ANY_PART};
}

absl::StatusOr<VisibilityPolygonArgs> VisibilityPolygonFromProto(
    const v1::VisibilityPolygonQuery& query, const InputLimits& limits,
    absl::string_view field) {
  const FieldPath root(field);
  if (absl::Status s = CheckPoint(query.viewer(), FieldPath(root, ".viewer"));
      !s.ok()) {
    return s;
  }
  const FieldPath range(root, ".range");
  if (absl::Status s = CheckInRange(query.range(), range); !s.ok()) return s;
  if (!(query.range() > 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        range.ToString(), " must be > 0, got ", NumberText(query.range())));
  }
  VisibilityPolygonOptions options{.range = query.range()};
  if (const double arc = query.max_arc_angle_radians(); arc != 0.0) {
    // NaN fails both comparisons.
    if (!(arc >= VisibilityPolygonOptions::kMinArcAngle &&
          arc <= std::numbers::pi / 2)) {
      return absl::InvalidArgumentError(absl::StrCat(
          FieldPath(root, ".max_arc_angle_radians").ToString(),
          " must be 0 or in [0.001, pi / 2] (pi / 2: 1.5707963267948966), "
          "got ",
          NumberText(arc)));
    }
    options.max_arc_angle = arc;
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(query.filter(), limits, FieldPath(root, ".filter"));
  if (!filter.ok()) return filter.status();
  return VisibilityPolygonArgs{.viewer = FromProto(query.viewer()),
                               .options = options,
                               .filter = *filter};
}

}  // namespace collide::formats
