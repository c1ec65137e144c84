// The line-of-sight queries collide-cli takes on its command line: viewers
// ("x,y[,range[,dirx,diry,half]]"), targets ("x,y[,r]") and the visibility
// polygon's viewer, parsed into v1::Query messages. Errors are
// INVALID_ARGUMENT naming the flag, as cast_args.h's; the values are the
// server's to judge (a negative range reaches it and is refused there).
#ifndef COLLIDE_CLIENT_CLI_VISIBILITY_ARGS_H_
#define COLLIDE_CLIENT_CLI_VISIBILITY_ARGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/cli/cast_args.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::cli {

// "x,y" (sees everywhere), "x,y,range", or "x,y,range,dirx,diry,half" (a
// cone around (dirx, diry) of half-angle `half` radians); an empty range
// ("x,y,,1,0,0.5") is unlimited.
absl::StatusOr<v1::Viewer> ParseViewer(absl::string_view text);

// "x,y" a point, "x,y,r" a circle of radius r.
absl::StatusOr<v1::VisibilityTarget> ParseTarget(absl::string_view text);

// A visibility query (request_id 0) of every --viewer and --target, in
// order, with the filter of `filter` (mask, category, group, ignore) and
// `target_rule` (--any_part: TARGET_RULE_ANY_PART). At least one viewer
// (INVALID_ARGUMENT naming --viewer otherwise).
absl::StatusOr<v1::Query> MakeVisibilityQuery(
    const std::vector<std::string>& viewers,
    const std::vector<std::string>& targets, const CastArgs& filter,
    v1::TargetRule target_rule = v1::TARGET_RULE_UNSPECIFIED);

// A visibility polygon query from one --viewer "x,y" within `range`
// (required), with max_arc_angle_radians `max_arc_angle` (0: the server's
// default) and the filter of `filter`.
absl::StatusOr<v1::Query> MakeVisibilityPolygonQuery(
    const std::vector<std::string>& viewers, std::optional<double> range,
    double max_arc_angle, const CastArgs& filter);

}  // namespace collide::client::cli

#endif  // COLLIDE_CLIENT_CLI_VISIBILITY_ARGS_H_
