// Conversion of the line-of-sight queries (VisibilityQuery,
// VisibilityPolygonQuery) between the wire messages and
// collide/visibility.h, with the checks the service boundary owes lib/:
// every coordinate in range (field_checks.h), ranges >= 0 (a polygon's
// > 0), cone directions non-zero, half-angles in [0, pi], one shape per
// target, a known target rule, and the size limits. Each error
// is INVALID_ARGUMENT (RESOURCE_EXHAUSTED for a size limit) naming the
// field path under `field` with the value as sent.
#ifndef COLLIDE_FORMATS_VISIBILITY_CONVERT_H_
#define COLLIDE_FORMATS_VISIBILITY_CONVERT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "collide/query.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "collide/visibility.h"
#include "collide/visibility_polygon.h"
#include "proto/formats/input_limits.h"

namespace collide::formats {

// A visibility query converted: the viewers (cones built by MakeViewCone)
// and the targets' points (a circle's centre), viewing the caller's
// storage, and the filter, viewing the query. any_part: the query asks
// TARGET_RULE_ANY_PART, so a circle target of radius > 0 is judged by
// collide::SeesDisc with the radius the query holds (checked >= 0 here).
struct VisibilityArgs {
  absl::Span<const Viewer> viewers;
  absl::Span<const Vec2> targets;
  QueryFilter filter;
  bool any_part = false;
};

// viewers x targets (viewers alone when there are no targets): the count
// limits.max_visibility_pairs bounds.
int64_t VisibilityPairs(const v1::VisibilityQuery& query);

// Checks and converts `query`; the viewers and targets go into the
// storages (cleared first; a caller that keeps them reuses their
// capacity). RESOURCE_EXHAUSTED "{field} holds V viewers x T targets = P
// pairs, more than max_visibility_pairs L" before anything else is read.
absl::StatusOr<VisibilityArgs> VisibilityFromProto(
    const v1::VisibilityQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<Viewer>& viewer_storage,
    std::vector<Vec2>& target_storage);

// A visibility polygon query converted: range > 0, max_arc_angle 0 (the
// default, VisibilityPolygonOptions{}.max_arc_angle) or in
// [kMinArcAngle, pi / 2].
struct VisibilityPolygonArgs {
  Vec2 viewer;
  VisibilityPolygonOptions options;
  QueryFilter filter;
};
absl::StatusOr<VisibilityPolygonArgs> VisibilityPolygonFromProto(
    const v1::VisibilityPolygonQuery& query, const InputLimits& limits,
    absl::string_view field);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_VISIBILITY_CONVERT_H_
