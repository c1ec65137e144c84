#include "client/cli/visibility_args.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "client/cli/cast_args.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::cli {
namespace {

absl::Status Invalid(absl::string_view flag, absl::string_view text,
                     absl::string_view form) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", flag, ": \"", text, "\" is not ", form));
}

// The comma-separated numbers of `text`; an empty field is nullopt. False
// when a field is neither empty nor a finite number.
bool Numbers(absl::string_view text, std::vector<std::optional<double>>& out) {
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) {
      out.push_back(std::nullopt);
      continue;
    }
    double value = 0.0;
    if (!absl::SimpleAtod(part, &value) || !std::isfinite(value)) return false;
    out.push_back(value);
  }
  return true;
}

void SetPoint(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

}  // namespace

absl::StatusOr<v1::Viewer> ParseViewer(absl::string_view text) {
  constexpr absl::string_view kForm =
      "a viewer x,y[,range[,dirx,diry,half]] of finite numbers";
  std::vector<std::optional<double>> numbers;
  if (!Numbers(text, numbers) ||
      (numbers.size() != 2 && numbers.size() != 3 && numbers.size() != 6) ||
      !numbers[0] || !numbers[1]) {
    return Invalid("viewer", text, kForm);
  }
  v1::Viewer viewer;
  SetPoint(viewer.mutable_position(), *numbers[0], *numbers[1]);
  if (numbers.size() >= 3 && numbers[2]) viewer.set_range(*numbers[2]);
  if (numbers.size() == 6) {
    if (!numbers[3] || !numbers[4] || !numbers[5]) {
      return Invalid("viewer", text, kForm);
    }
    SetPoint(viewer.mutable_cone()->mutable_direction(), *numbers[3],
             *numbers[4]);
    viewer.mutable_cone()->set_half_angle_radians(*numbers[5]);
  }
  return viewer;
}

absl::StatusOr<v1::VisibilityTarget> ParseTarget(absl::string_view text) {
  std::vector<std::optional<double>> numbers;
  if (!Numbers(text, numbers) || (numbers.size() != 2 && numbers.size() != 3)) {
    return Invalid("target", text, "a target x,y[,r] of finite numbers");
  }
  for (const std::optional<double>& number : numbers) {
    if (!number) {
      return Invalid("target", text, "a target x,y[,r] of finite numbers");
    }
  }
  v1::VisibilityTarget target;
  if (numbers.size() == 2) {
    SetPoint(target.mutable_point(), *numbers[0], *numbers[1]);
  } else {
    SetPoint(target.mutable_circle()->mutable_center(), *numbers[0],
             *numbers[1]);
    target.mutable_circle()->set_radius(*numbers[2]);
  }
  return target;
}

absl::StatusOr<v1::Query> MakeVisibilityQuery(
    const std::vector<std::string>& viewers,
    const std::vector<std::string>& targets, const CastArgs& filter,
    v1::TargetRule target_rule) {
  if (viewers.empty()) {
    return absl::InvalidArgumentError(
        "--viewer: required (x,y[,range[,dirx,diry,half]]; repeat it for "
        "more viewers)");
  }
  v1::Query query;
  v1::VisibilityQuery* sight = query.mutable_visibility();
  for (const std::string& text : viewers) {
    absl::StatusOr<v1::Viewer> viewer = ParseViewer(text);
    if (!viewer.ok()) return viewer.status();
    *sight->add_viewers() = *std::move(viewer);
  }
  for (const std::string& text : targets) {
    absl::StatusOr<v1::VisibilityTarget> target = ParseTarget(text);
    if (!target.ok()) return target.status();
    *sight->add_targets() = *std::move(target);
  }
  absl::StatusOr<v1::QueryFilter> made = MakeFilter(filter);
  if (!made.ok()) return made.status();
  *sight->mutable_filter() = *std::move(made);
  sight->set_target_rule(target_rule);
  return query;
}

absl::StatusOr<v1::Query> MakeVisibilityPolygonQuery(
    const std::vector<std::string>& viewers, std::optional<double> range,
    double max_arc_angle, const CastArgs& filter) {
  if (viewers.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--viewer: give exactly one (x,y), got ", viewers.size()));
  }
  if (!range.has_value()) {
    return absl::InvalidArgumentError("--range: required (how far it sees)");
  }
  std::vector<std::optional<double>> numbers;
  if (!Numbers(viewers[0], numbers) || numbers.size() != 2 || !numbers[0] ||
      !numbers[1]) {
    return Invalid("viewer", viewers[0], "a point x,y of finite numbers");
  }
  v1::Query query;
  v1::VisibilityPolygonQuery* polygon = query.mutable_visibility_polygon();
  SetPoint(polygon->mutable_viewer(), *numbers[0], *numbers[1]);
  polygon->set_range(*range);
  polygon->set_max_arc_angle_radians(max_arc_angle);
  absl::StatusOr<v1::QueryFilter> made = MakeFilter(filter);
  if (!made.ok()) return made.status();
  *polygon->mutable_filter() = *std::move(made);
  return query;
}

}  // namespace collide::client::cli
