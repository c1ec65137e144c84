#include "client/cli/cast_args.h"

#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "client/lib/query_builders.h"

namespace collide::client::cli {

namespace {

absl::Status Invalid(absl::string_view flag, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", what));
}

absl::StatusOr<v1::CastOptions> MakeOptions(const CastArgs& args) {
  v1::CastOptions options;
  options.set_mode(args.all ? v1::CAST_MODE_ALL : v1::CAST_MODE_CLOSEST);
  absl::StatusOr<v1::QueryFilter> filter = MakeFilter(args);
  if (!filter.ok()) return filter.status();
  *options.mutable_filter() = *std::move(filter);
  if (args.max_fraction.has_value()) {
    options.set_max_fraction(*args.max_fraction);
  }
  options.set_target_distance(args.skin);
  options.set_stop_at_penetration(args.stop_at_penetration);
  return options;
}

// The translation from `to` or `by`, for a shape whose reference point
// (what `to` moves) is `start`.
absl::StatusOr<Vec2> Translation(const CastArgs& args, Vec2 start) {
  if (args.to.empty() == args.by.empty()) {
    return Invalid("to", "give exactly one of --to=x,y and --by=dx,dy");
  }
  if (!args.by.empty()) return ParsePoint(args.by, "by");
  absl::StatusOr<Vec2> to = ParsePoint(args.to, "to");
  if (!to.ok()) return to.status();
  return Vec2{to->x - start.x, to->y - start.y};
}

// The radius a circle or capsule must be given (the server checks its sign).
absl::StatusOr<double> RequiredRadius(const CastArgs& args) {
  if (!args.radius.has_value()) {
    return Invalid("radius", absl::StrCat("a ", args.kind,
                                          " needs its radius (--radius=R)"));
  }
  return *args.radius;
}

absl::StatusOr<std::vector<Vec2>> CapsuleAxis(const CastArgs& args) {
  absl::StatusOr<std::vector<Vec2>> axis = ParsePoints(args.points, "points");
  if (axis.ok() && axis->size() != 2) {
    return Invalid("points", "a capsule's axis is two points \"x,y x,y\"");
  }
  return axis;
}

// Adds the turn of --angle and --pivot to a circle, polygon or capsule cast.
absl::Status AddTurn(const CastArgs& args, v1::Query& query) {
  if (!args.angle.has_value()) {
    if (!args.pivot.empty()) {
      return Invalid("pivot", "a pivot needs --angle=RADIANS");
    }
    return absl::OkStatus();
  }
  v1::Turn turn;
  turn.set_angle(*args.angle);
  if (!args.pivot.empty()) {
    absl::StatusOr<Vec2> pivot = ParsePoint(args.pivot, "pivot");
    if (!pivot.ok()) return pivot.status();
    *turn.mutable_pivot() = ToProto(*pivot);
  }
  switch (query.query_case()) {
    case v1::Query::kCircleCast:
      *query.mutable_circle_cast()->mutable_turn() = turn;
      break;
    case v1::Query::kPolygonCast:
      *query.mutable_polygon_cast()->mutable_turn() = turn;
      break;
    case v1::Query::kCapsuleCast:
      *query.mutable_capsule_cast()->mutable_turn() = turn;
      break;
    default:
      return Invalid("angle",
                     "a ray does not turn (a circle, polygon or "
                     "capsule does)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::QueryFilter> MakeFilter(const CastArgs& args) {
  v1::QueryFilter filter;
  if (args.mask.has_value()) filter.set_mask_bits(*args.mask);
  if (args.category.has_value()) filter.set_category_bits(*args.category);
  filter.set_group(args.group);
  for (absl::string_view id :
       absl::StrSplit(args.ignore, ',', absl::SkipWhitespace())) {
    uint64_t value = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(id), &value)) {
      return Invalid("ignore", absl::StrCat("\"", id, "\" is not a shape id"));
    }
    filter.add_ignore_ids(value);
  }
  return filter;
}

absl::StatusOr<Vec2> ParsePoint(absl::string_view text,
                                absl::string_view flag) {
  if (text.empty()) return Invalid(flag, "required (x,y)");
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  Vec2 point;
  if (parts.size() != 2 ||
      !absl::SimpleAtod(absl::StripAsciiWhitespace(parts[0]), &point.x) ||
      !absl::SimpleAtod(absl::StripAsciiWhitespace(parts[1]), &point.y) ||
      !std::isfinite(point.x) || !std::isfinite(point.y)) {
    return Invalid(
        flag,
        absl::StrCat("\"", text, "\" is not a point x,y of finite numbers"));
  }
  return point;
}

absl::StatusOr<std::vector<Vec2>> ParsePoints(absl::string_view text,
                                              absl::string_view flag) {
  std::vector<Vec2> points;
  for (absl::string_view part :
       absl::StrSplit(text, absl::ByAnyChar(" ;"), absl::SkipWhitespace())) {
    absl::StatusOr<Vec2> point = ParsePoint(part, flag);
    if (!point.ok()) return point.status();
    points.push_back(*point);
  }
  if (points.empty()) return Invalid(flag, "no points given (\"x,y x,y ...\")");
  return points;
}

namespace {

// The cast of --points / --from, --to / --by and the options, no turn.
absl::StatusOr<v1::Query> MakeTranslatingCast(const CastArgs& args) {
  absl::StatusOr<v1::CastOptions> options = MakeOptions(args);
  if (!options.ok()) return options.status();
  if (args.kind == "ray" || args.kind == "circle") {
    absl::StatusOr<Vec2> from = ParsePoint(args.from, "from");
    if (!from.ok()) return from.status();
    absl::StatusOr<Vec2> by = Translation(args, *from);
    if (!by.ok()) return by.status();
    if (args.kind == "ray") {
      if (args.radius.has_value()) {
        return Invalid("radius", "a ray has no radius (cast circle has)");
      }
      return RayCast(*from, *by, *options);
    }
    absl::StatusOr<double> radius = RequiredRadius(args);
    if (!radius.ok()) return radius.status();
    return CircleCast(*from, *radius, *by, *options);
  }
  if (args.kind == "polygon") {
    absl::StatusOr<std::vector<Vec2>> points =
        ParsePoints(args.points, "points");
    if (!points.ok()) return points.status();
    absl::StatusOr<Vec2> by = Translation(args, points->front());
    if (!by.ok()) return by.status();
    return PolygonCast(*points, *by, *options);
  }
  if (args.kind == "capsule") {
    absl::StatusOr<std::vector<Vec2>> axis = CapsuleAxis(args);
    if (!axis.ok()) return axis.status();
    absl::StatusOr<double> radius = RequiredRadius(args);
    if (!radius.ok()) return radius.status();
    absl::StatusOr<Vec2> by = Translation(args, axis->front());
    if (!by.ok()) return by.status();
    return CapsuleCast((*axis)[0], (*axis)[1], *radius, *by, *options);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("cast: unknown shape \"", args.kind,
                   "\" (ray, circle, polygon or capsule)"));
}

}  // namespace

absl::StatusOr<v1::Query> MakeCastQuery(const CastArgs& args) {
  absl::StatusOr<v1::Query> query = MakeTranslatingCast(args);
  if (!query.ok()) return query.status();
  if (absl::Status s = AddTurn(args, *query); !s.ok()) return s;
  return query;
}

absl::StatusOr<v1::Query> MakeOverlapQuery(const CastArgs& args) {
  absl::StatusOr<v1::QueryFilter> filter = MakeFilter(args);
  if (!filter.ok()) return filter.status();
  v1::Query query;
  v1::OverlapQuery* overlap = query.mutable_overlap();
  *overlap->mutable_filter() = *filter;
  if (args.kind == "circle") {
    absl::StatusOr<Vec2> from = ParsePoint(args.from, "from");
    if (!from.ok()) return from.status();
    absl::StatusOr<double> radius = RequiredRadius(args);
    if (!radius.ok()) return radius.status();
    *overlap->mutable_circle()->mutable_center() = ToProto(*from);
    overlap->mutable_circle()->set_radius(*radius);
  } else if (args.kind == "polygon") {
    absl::StatusOr<std::vector<Vec2>> points =
        ParsePoints(args.points, "points");
    if (!points.ok()) return points.status();
    for (Vec2 v : *points) {
      *overlap->mutable_polygon()->add_vertices() = ToProto(v);
    }
  } else if (args.kind == "capsule") {
    absl::StatusOr<std::vector<Vec2>> axis = CapsuleAxis(args);
    if (!axis.ok()) return axis.status();
    absl::StatusOr<double> radius = RequiredRadius(args);
    if (!radius.ok()) return radius.status();
    *overlap->mutable_capsule()->mutable_p1() = ToProto((*axis)[0]);
    *overlap->mutable_capsule()->mutable_p2() = ToProto((*axis)[1]);
    overlap->mutable_capsule()->set_radius(*radius);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("overlap: unknown shape \"", args.kind,
                     "\" (circle, polygon or capsule)"));
  }
  return query;
}

absl::StatusOr<v1::Query> MakeMoveQuery(const CastArgs& args,
                                        int slide_iterations) {
  // The mover and its translation, as the matching cast would have them.
  absl::StatusOr<v1::Query> cast = MakeCastQuery(args);
  if (!cast.ok()) return cast.status();
  absl::StatusOr<v1::QueryFilter> filter = MakeFilter(args);
  if (!filter.ok()) return filter.status();
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  switch (cast->query_case()) {
    case v1::Query::kCircleCast:
      *move->mutable_circle() = cast->circle_cast().circle();
      *move->mutable_translation() = cast->circle_cast().translation();
      if (cast->circle_cast().has_turn()) {
        *move->mutable_turn() = cast->circle_cast().turn();
      }
      break;
    case v1::Query::kCapsuleCast:
      *move->mutable_capsule() = cast->capsule_cast().capsule();
      *move->mutable_translation() = cast->capsule_cast().translation();
      if (cast->capsule_cast().has_turn()) {
        *move->mutable_turn() = cast->capsule_cast().turn();
      }
      break;
    case v1::Query::kPolygonCast:
      *move->mutable_polygon() = cast->polygon_cast().polygon();
      *move->mutable_translation() = cast->polygon_cast().translation();
      if (cast->polygon_cast().has_turn()) {
        *move->mutable_turn() = cast->polygon_cast().turn();
      }
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("move: a mover is a circle, capsule or polygon, not \"",
                       args.kind, "\""));
  }
  move->set_skin(args.skin);
  move->set_max_slide_iterations(slide_iterations);
  *move->mutable_filter() = *std::move(filter);
  return query;
}

absl::StatusOr<v1::Query> MakeClosestPointQuery(const CastArgs& args,
                                                double max_distance) {
  absl::StatusOr<Vec2> from = ParsePoint(args.from, "from");
  if (!from.ok()) return from.status();
  absl::StatusOr<v1::QueryFilter> filter = MakeFilter(args);
  if (!filter.ok()) return filter.status();
  return ClosestPoint(*from, max_distance, *filter);
}

}  // namespace collide::client::cli
