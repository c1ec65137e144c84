#include "proto/formats/proto_convert.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/number_text.h"
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
namespace {

constexpr absl::string_view kLevelNamePrefix = "levels/";
// Echoed caller text is cut to this many bytes so an error stays readable.
constexpr size_t kMaxEchoBytes = 80;

std::string Echo(absl::string_view text) {
  std::string escaped = absl::CHexEscape(text.substr(0, kMaxEchoBytes));
  if (text.size() > kMaxEchoBytes) absl::StrAppend(&escaped, "...");
  return escaped;
}

absl::Status CheckInRange(const v1::Vec2& value, const FieldPath& field) {
  if (ABSL_PREDICT_TRUE(InExactRange(value.x()) && InExactRange(value.y()))) {
    return absl::OkStatus();
  }
  if (absl::Status s = CheckInRange(value.x(), FieldPath(field, ".x"));
      !s.ok()) {
    return s;
  }
  return CheckInRange(value.y(), FieldPath(field, ".y"));
}

absl::Status CheckVertices(
    const google::protobuf::RepeatedPtrField<v1::Vec2>& vertices,
    const FieldPath& field) {
  for (int i = 0; i < vertices.size(); ++i) {
    if (absl::Status s = CheckInRange(vertices[i], FieldPath(field, i));
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

// Level shapes: a vertex list between `minimum` and limits.max_vertices.
absl::Status CheckShapeVertexCount(int count, int minimum,
                                   const InputLimits& limits,
                                   const FieldPath& field) {
  if (count < minimum) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(), " must hold at least ", minimum,
                     " vertices, got ", count));
  }
  if (count > limits.max_vertices) {
    return absl::ResourceExhaustedError(absl::StrCat(
        field.ToString(), " holds ", count,
        " vertices, more than max_vertices ", limits.max_vertices));
  }
  return absl::OkStatus();
}

absl::Status CheckCircle(const v1::Circle& circle, const FieldPath& field) {
  if (absl::Status s =
          CheckInRange(circle.center(), FieldPath(field, ".center"));
      !s.ok()) {
    return s;
  }
  return CheckNonNegative(circle.radius(), FieldPath(field, ".radius"));
}

absl::Status CheckCapsule(const v1::Capsule& capsule, const FieldPath& field) {
  if (absl::Status s = CheckInRange(capsule.p1(), FieldPath(field, ".p1"));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckInRange(capsule.p2(), FieldPath(field, ".p2"));
      !s.ok()) {
    return s;
  }
  return CheckNonNegative(capsule.radius(), FieldPath(field, ".radius"));
}

absl::Status CheckBox(const v1::Box& box, const FieldPath& field) {
  if (absl::Status s = CheckInRange(box.center(), FieldPath(field, ".center"));
      !s.ok()) {
    return s;
  }
  const FieldPath half(field, ".half_extents");
  if (absl::Status s = CheckInRange(box.half_extents(), half); !s.ok())
    return s;
  if (!(box.half_extents().x() > 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(half.ToString(), ".x must be > 0, got ",
                     NumberText(box.half_extents().x())));
  }
  if (!(box.half_extents().y() > 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(half.ToString(), ".y must be > 0, got ",
                     NumberText(box.half_extents().y())));
  }
  return CheckAngle(box.angle_radians(), FieldPath(field, ".angle_radians"));
}

Circle CircleFromProto(const v1::Circle& circle) {
  return {FromProto(circle.center()), circle.radius()};
}

Capsule CapsuleFromProto(const v1::Capsule& capsule) {
  return {FromProto(capsule.p1()), FromProto(capsule.p2()), capsule.radius()};
}

// A query's convex polygon: 3..kMaxPolygonVertices finite vertices, strictly
// convex (MakeConvexPolygon's checks).
absl::StatusOr<ConvexPolygon> ConvexPolygonFromProto(const v1::Polygon& polygon,
                                                     const FieldPath& field) {
  const int count = polygon.vertices_size();
  if (count > kMaxPolygonVertices) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), ".vertices holds ", count, " vertices, more than ",
        kMaxPolygonVertices, " (the limit for a convex query polygon)"));
  }
  if (count < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(),
                     ".vertices must hold at least 3 vertices, got ", count));
  }
  if (absl::Status s =
          CheckVertices(polygon.vertices(), FieldPath(field, ".vertices"));
      !s.ok()) {
    return s;
  }
  Vec2 vertices[kMaxPolygonVertices];
  for (int i = 0; i < count; ++i) vertices[i] = FromProto(polygon.vertices(i));
  absl::StatusOr<ConvexPolygon> convex = MakeConvexPolygon(
      absl::MakeConstSpan(vertices, static_cast<size_t>(count)));
  if (!convex.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(), ": ", convex.status().message()));
  }
  return convex;
}

}  // namespace

absl::StatusOr<QueryFilter> FilterFromProto(const v1::QueryFilter& filter,
                                            const InputLimits& limits,
                                            const FieldPath& field) {
  if (filter.ignore_ids_size() > limits.max_ignore_ids) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), ".ignore_ids holds ", filter.ignore_ids_size(),
        " ids, more than max_ignore_ids ", limits.max_ignore_ids));
  }
  QueryFilter result;
  if (filter.has_mask_bits()) result.mask_bits = filter.mask_bits();
  if (filter.has_category_bits()) {
    result.category_bits = filter.category_bits();
  }
  result.group = filter.group();
  result.ignore_ids =
      absl::MakeConstSpan(filter.ignore_ids().data(),
                          static_cast<size_t>(filter.ignore_ids_size()));
  return result;
}

namespace {

// A list capacity: 0 means the limit; otherwise 1..limit.
absl::StatusOr<int32_t> ListCapacity(int32_t requested,
                                     const InputLimits& limits,
                                     const FieldPath& field) {
  if (requested < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(), " must be >= 0, got ", requested));
  }
  if (requested > limits.max_results_per_query) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), " ", requested,
        " is more than max_results_per_query ", limits.max_results_per_query));
  }
  return requested == 0 ? limits.max_results_per_query : requested;
}

// Rewrites an error of Level::Create or Level::Patch (paths relative to
// their arguments: "shapes[i]...", "options.cell_size") to the request's
// field paths: `shapes_field` names the request's shapes ("level.shapes",
// "upserts"), `level_field` the level ("level"). Every path in the message
// is rewritten ("shapes[1].id 1 duplicates shapes[0].id").
absl::Status LevelBuildError(const absl::Status& status,
                             absl::string_view shapes_field,
                             absl::string_view level_field) {
  absl::string_view message = status.message();
  if (absl::StartsWith(message, "shapes[")) {
    std::string rewritten;
    for (size_t at = 0; at < message.size();) {
      const size_t next = message.find("shapes[", at);
      const bool word_start =
          next != absl::string_view::npos &&
          (next == 0 || message[next - 1] == ' ' || message[next - 1] == '(');
      const size_t stop =
          next == absl::string_view::npos ? message.size() : next;
      absl::StrAppend(&rewritten, message.substr(at, stop - at));
      if (next == absl::string_view::npos) break;
      absl::StrAppend(&rewritten, word_start ? shapes_field : "shapes");
      at = next + absl::string_view("shapes").size();
    }
    return absl::Status(status.code(), rewritten);
  }
  if (absl::ConsumePrefix(&message, "options.")) {
    return absl::Status(status.code(), absl::StrCat(level_field, ".", message));
  }
  // Anything else concerns the level as a whole.
  return absl::Status(status.code(), absl::StrCat(level_field, ": ", message));
}

}  // namespace

absl::StatusOr<CastSettings> CastSettingsFromProto(
    const v1::CastOptions& options, const InputLimits& limits,
    const FieldPath& field) {
  CastSettings settings;
  switch (options.mode()) {
    case v1::CAST_MODE_UNSPECIFIED:
    case v1::CAST_MODE_CLOSEST:
      break;
    case v1::CAST_MODE_ALL:
      settings.all_hits = true;
      break;
    default:
      // proto3 enums are open: a newer client may send a value we lack.
      return absl::InvalidArgumentError(absl::StrCat(
          field.ToString(), ".mode ", static_cast<int>(options.mode()),
          " is not a known CastMode"));
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(options.filter(), limits, FieldPath(field, ".filter"));
  if (!filter.ok()) return filter.status();
  settings.filter = *filter;
  if (options.has_max_fraction()) {
    const double max_fraction = options.max_fraction();
    const FieldPath root(field);
    const FieldPath path(root, ".max_fraction");
    if (absl::Status s = CheckInRange(max_fraction, path); !s.ok()) return s;
    if (!(max_fraction >= 0.0 && max_fraction <= 1.0)) {
      return absl::InvalidArgumentError(absl::StrCat(path.ToString(),
                                                     " must be in [0, 1], got ",
                                                     NumberText(max_fraction)));
    }
    settings.options.max_fraction = max_fraction;
  }
  if (absl::Status s = CheckNonNegative(options.target_distance(),
                                        FieldPath(field, ".target_distance"));
      !s.ok()) {
    return s;
  }
  settings.options.target_distance = options.target_distance();
  settings.options.stop_at_penetration = options.stop_at_penetration();
  absl::StatusOr<int32_t> max_hits =
      ListCapacity(options.max_hits(), limits, FieldPath(field, ".max_hits"));
  if (!max_hits.ok()) return max_hits.status();
  settings.max_hits = *max_hits;
  return settings;
}

absl::Status ValidateLevelId(absl::string_view id, absl::string_view field) {
  if (id.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " must not be empty"));
  }
  if (id.size() > static_cast<size_t>(kMaxLevelIdLength)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " must be at most ", kMaxLevelIdLength,
                     " characters, got ", id.size()));
  }
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " \"", Echo(id),
                       "\" may hold only letters, digits, '_' and '-'"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ParseLevelName(absl::string_view name,
                                           absl::string_view field) {
  if (!absl::StartsWith(name, kLevelNamePrefix)) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must be \"levels/{level_id}\", got \"", Echo(name), "\""));
  }
  const absl::string_view id = name.substr(kLevelNamePrefix.size());
  // "level's {level_id} must not be empty": the field, then its part.
  if (absl::Status s =
          ValidateLevelId(id, absl::StrCat(field, "'s {level_id}"));
      !s.ok()) {
    return s;
  }
  return std::string(id);
}

std::string LevelName(absl::string_view id) {
  return absl::StrCat(kLevelNamePrefix, id);
}

Vec2 FromProto(const v1::Vec2& v) { return {v.x(), v.y()}; }

void ToProto(Vec2 v, v1::Vec2* out) {
  out->set_x(v.x);
  out->set_y(v.y);
}

void ToProto(Aabb box, v1::Aabb* out) {
  ToProto(box.lower, out->mutable_lower());
  ToProto(box.upper, out->mutable_upper());
}

namespace {

// A geometry's field name.
const char* GeometryCaseName(v1::Shape::GeometryCase geometry) {
  switch (geometry) {
    case v1::Shape::kSegment:
      return "segment";
    case v1::Shape::kPolyline:
      return "polyline";
    case v1::Shape::kPolygon:
      return "polygon";
    case v1::Shape::kCircle:
      return "circle";
    case v1::Shape::kBox:
      return "box";
    case v1::Shape::kCapsule:
      return "capsule";
    case v1::Shape::GEOMETRY_NOT_SET:
      break;
  }
  return "shape without geometry";
}

// LevelFromProto and PatchedLevelFromProto: validates `shapes` (field paths
// "{field}[i]...") and hands their descriptions to `build`.
absl::StatusOr<Level> ShapesFromProto(
    const google::protobuf::RepeatedPtrField<v1::Shape>& shapes,
    double cell_size, absl::string_view field_prefix, const InputLimits& limits,
    absl::FunctionRef<absl::StatusOr<Level>(absl::Span<const ShapeDesc>,
                                            const LevelOptions&)>
        build) {
  if (shapes.size() > limits.max_level_shapes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        field_prefix, " holds ", shapes.size(),
        " shapes, more than max_level_shapes ", limits.max_level_shapes));
  }
  if (!std::isfinite(cell_size) || cell_size < 0.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "level.cell_size must be finite and >= 0 (0 picks one), got ",
        NumberText(cell_size)));
  }

  // Pass 1: validate each shape with the request's paths, and count the
  // vertices so their storage is allocated once (the descs' spans point into
  // it and must not move).
  int64_t total_vertices = 0;
  Level::Size size{.shapes = shapes.size()};
  for (int i = 0; i < shapes.size(); ++i) {
    const v1::Shape& shape = shapes[i];
    const std::string field = absl::StrCat(field_prefix, "[", i, "]");
    absl::Status status;
    switch (shape.geometry_case()) {
      case v1::Shape::kSegment:
        status = CheckInRange(shape.segment().p1(), field + ".segment.p1");
        if (status.ok()) {
          status = CheckInRange(shape.segment().p2(), field + ".segment.p2");
        }
        break;
      case v1::Shape::kPolyline: {
        const std::string path = field + ".polyline.vertices";
        status = CheckShapeVertexCount(shape.polyline().vertices_size(),
                                       shape.polyline().closed() ? 3 : 2,
                                       limits, path);
        if (status.ok())
          status = CheckVertices(shape.polyline().vertices(), path);
        total_vertices += shape.polyline().vertices_size();
        break;
      }
      case v1::Shape::kPolygon: {
        const std::string path = field + ".polygon.vertices";
        status = CheckShapeVertexCount(shape.polygon().vertices_size(), 3,
                                       limits, path);
        if (status.ok())
          status = CheckVertices(shape.polygon().vertices(), path);
        total_vertices += shape.polygon().vertices_size();
        ++size.polygons;
        break;
      }
      case v1::Shape::kCircle:
        status = CheckCircle(shape.circle(), field + ".circle");
        break;
      case v1::Shape::kBox:
        status = CheckBox(shape.box(), field + ".box");
        ++size.polygons;
        break;
      case v1::Shape::kCapsule:
        status = CheckCapsule(shape.capsule(), field + ".capsule");
        break;
      case v1::Shape::GEOMETRY_NOT_SET:
        status = absl::InvalidArgumentError(absl::StrCat(
            field,
            " has no geometry: set one of segment, polyline, polygon, "
            "circle, box, capsule"));
        break;
    }
    if (status.ok() && shape.one_sided() &&
        shape.geometry_case() != v1::Shape::kSegment &&
        shape.geometry_case() != v1::Shape::kPolyline) {
      status = absl::InvalidArgumentError(
          absl::StrCat(field, ".one_sided needs a segment or polyline, got a ",
                       GeometryCaseName(shape.geometry_case())));
    }
    if (!status.ok()) return status;
    if (total_vertices > limits.max_level_vertices) {
      return absl::ResourceExhaustedError(absl::StrCat(
          field_prefix, " holds more than max_level_vertices ",
          limits.max_level_vertices, " vertices (exceeded at ", field, ")"));
    }
  }

  size.chain_vertices = total_vertices;
  const int64_t bound = Level::MemoryBound(size);
  if (bound > limits.max_level_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "level may need up to ", bound, " bytes (", size.shapes, " shapes, ",
        size.polygons, " polygons or boxes, ", size.chain_vertices,
        " polyline or polygon vertices), more than max_level_bytes ",
        limits.max_level_bytes));
  }

  // Pass 2: convert.
  std::vector<Vec2> vertices;
  vertices.reserve(static_cast<size_t>(total_vertices));
  std::vector<ShapeDesc> descs;
  descs.reserve(static_cast<size_t>(shapes.size()));
  auto copy_vertices =
      [&](const google::protobuf::RepeatedPtrField<v1::Vec2>& source) {
        const size_t begin = vertices.size();
        for (const v1::Vec2& v : source) vertices.push_back(FromProto(v));
        return absl::MakeConstSpan(vertices.data() + begin, source.size());
      };
  for (const v1::Shape& shape : shapes) {
    ShapeDesc desc;
    desc.id = shape.id();
    desc.category_bits = shape.has_category_bits() ? shape.category_bits() : 1;
    desc.user_data = shape.user_data();
    if (shape.has_mask_bits()) desc.mask_bits = shape.mask_bits();
    desc.group = shape.group();
    desc.one_sided = shape.one_sided();
    switch (shape.geometry_case()) {
      case v1::Shape::kSegment:
        desc.geometry = Segment{FromProto(shape.segment().p1()),
                                FromProto(shape.segment().p2())};
        break;
      case v1::Shape::kPolyline:
        desc.geometry = PolylineDesc{copy_vertices(shape.polyline().vertices()),
                                     shape.polyline().closed()};
        break;
      case v1::Shape::kPolygon:
        desc.geometry = PolygonDesc{copy_vertices(shape.polygon().vertices())};
        break;
      case v1::Shape::kCircle:
        desc.geometry = CircleFromProto(shape.circle());
        break;
      case v1::Shape::kBox:
        desc.geometry = BoxDesc{FromProto(shape.box().center()),
                                FromProto(shape.box().half_extents()),
                                shape.box().angle_radians()};
        break;
      case v1::Shape::kCapsule:
        desc.geometry = CapsuleFromProto(shape.capsule());
        break;
      case v1::Shape::GEOMETRY_NOT_SET:
        return absl::InternalError("shape without geometry passed validation");
    }
    descs.push_back(desc);
  }

  LevelOptions options;
  options.cell_size = cell_size;
  return build(descs, options);
}

}  // namespace

absl::StatusOr<Level> LevelFromProto(const v1::Level& level,
                                     const InputLimits& limits) {
  return ShapesFromProto(
      level.shapes(), level.cell_size(), "level.shapes", limits,
      [](absl::Span<const ShapeDesc> descs,
         const LevelOptions& options) -> absl::StatusOr<Level> {
        absl::StatusOr<Level> built = Level::Create(descs, options);
        if (!built.ok()) {
          return LevelBuildError(built.status(), "level.shapes", "level");
        }
        return built;
      });
}

absl::StatusOr<Level> PatchedLevelFromProto(
    std::shared_ptr<const Level> base, absl::Span<const uint64_t> removed_ids,
    const google::protobuf::RepeatedPtrField<v1::Shape>& added,
    absl::string_view field_prefix, const InputLimits& limits) {
  return ShapesFromProto(
      added, 0.0, field_prefix, limits,
      [&](absl::Span<const ShapeDesc> descs,
          const LevelOptions& options) -> absl::StatusOr<Level> {
        absl::StatusOr<Level> built =
            Level::Patch(std::move(base), removed_ids, descs, options);
        if (!built.ok()) {
          return LevelBuildError(built.status(), field_prefix, field_prefix);
        }
        return built;
      });
}

namespace {

// The parts every cast query shares, checked in field order: the
// translation, then the options.
template <typename CastQuery>
absl::StatusOr<CastSettings> MotionSettingsFromProto(const CastQuery& query,
                                                     const InputLimits& limits,
                                                     absl::string_view field) {
  if (absl::Status s =
          CheckInRange(query.translation(), FieldPath(field, ".translation"));
      !s.ok()) {
    return s;
  }
  if (!query.has_options() && limits.max_results_per_query >= 0 &&
      limits.max_ignore_ids >= 0) {
    // Most casts set no options: what CastSettingsFromProto makes of the
    // all-default message, without its checks (none of which can fail on
    // it under sane limits). proto_convert_test checks the two agree.
    CastSettings settings;
    settings.max_hits = limits.max_results_per_query;
    return settings;
  }
  return CastSettingsFromProto(query.options(), limits,
                               FieldPath(field, ".options"));
}

}  // namespace

absl::StatusOr<RayCastArgs> RayCastFromProto(const v1::RayCastQuery& query,
                                             const InputLimits& limits,
                                             absl::string_view field) {
  if (absl::Status s =
          CheckInRange(query.origin(), FieldPath(field, ".origin"));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<CastSettings> settings =
      MotionSettingsFromProto(query, limits, field);
  if (!settings.ok()) return settings.status();
  return RayCastArgs{
      .ray = {FromProto(query.origin()), FromProto(query.translation())},
      .settings = *settings};
}

absl::StatusOr<CircleCastArgs> CircleCastFromProto(
    const v1::CircleCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  if (absl::Status s = CheckCircle(query.circle(), FieldPath(field, ".circle"));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<CastSettings> settings =
      MotionSettingsFromProto(query, limits, field);
  if (!settings.ok()) return settings.status();
  return CircleCastArgs{
      .cast = {CircleFromProto(query.circle()), FromProto(query.translation())},
      .settings = *settings};
}

absl::StatusOr<PolygonCastArgs> PolygonCastFromProto(
    const v1::PolygonCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<ConvexPolygon> polygon =
      ConvexPolygonFromProto(query.polygon(), FieldPath(field, ".polygon"));
  if (!polygon.ok()) return polygon.status();
  absl::StatusOr<CastSettings> settings =
      MotionSettingsFromProto(query, limits, field);
  if (!settings.ok()) return settings.status();
  return PolygonCastArgs{.cast = {*polygon, FromProto(query.translation())},
                         .settings = *settings};
}

absl::StatusOr<CapsuleCastArgs> CapsuleCastFromProto(
    const v1::CapsuleCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  if (absl::Status s =
          CheckCapsule(query.capsule(), FieldPath(field, ".capsule"));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<CastSettings> settings =
      MotionSettingsFromProto(query, limits, field);
  if (!settings.ok()) return settings.status();
  return CapsuleCastArgs{.cast = {CapsuleFromProto(query.capsule()),
                                  FromProto(query.translation())},
                         .settings = *settings};
}

absl::StatusOr<OverlapArgs> OverlapFromProto(const v1::OverlapQuery& query,
                                             const InputLimits& limits,
                                             absl::string_view field) {
  OverlapArgs args;
  switch (query.shape_case()) {
    case v1::OverlapQuery::kCircle:
      if (absl::Status s =
              CheckCircle(query.circle(), FieldPath(field, ".circle"));
          !s.ok()) {
        return s;
      }
      args.shape = CircleFromProto(query.circle());
      break;
    case v1::OverlapQuery::kPolygon: {
      absl::StatusOr<ConvexPolygon> polygon =
          ConvexPolygonFromProto(query.polygon(), FieldPath(field, ".polygon"));
      if (!polygon.ok()) return polygon.status();
      args.shape = *polygon;
      break;
    }
    case v1::OverlapQuery::kCapsule:
      if (absl::Status s =
              CheckCapsule(query.capsule(), FieldPath(field, ".capsule"));
          !s.ok()) {
        return s;
      }
      args.shape = CapsuleFromProto(query.capsule());
      break;
    case v1::OverlapQuery::SHAPE_NOT_SET:
      return absl::InvalidArgumentError(absl::StrCat(
          field, " has no shape: set one of circle, polygon, capsule"));
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(query.filter(), limits, FieldPath(field, ".filter"));
  if (!filter.ok()) return filter.status();
  args.filter = *filter;
  absl::StatusOr<int32_t> max_results = ListCapacity(
      query.max_results(), limits, FieldPath(field, ".max_results"));
  if (!max_results.ok()) return max_results.status();
  args.max_results = *max_results;
  return args;
}

absl::StatusOr<ClosestPointArgs> ClosestPointFromProto(
    const v1::ClosestPointQuery& query, const InputLimits& limits,
    absl::string_view field) {
  if (absl::Status s = CheckInRange(query.point(), FieldPath(field, ".point"));
      !s.ok()) {
    return s;
  }
  ClosestPointArgs args;
  args.point = FromProto(query.point());
  args.max_distance = std::numeric_limits<double>::infinity();
  if (query.has_max_distance()) {
    if (absl::Status s = CheckNonNegative(query.max_distance(),
                                          FieldPath(field, ".max_distance"));
        !s.ok()) {
      return s;
    }
    args.max_distance = query.max_distance();
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(query.filter(), limits, FieldPath(field, ".filter"));
  if (!filter.ok()) return filter.status();
  args.filter = *filter;
  return args;
}

namespace {

absl::Status CheckSegment(const v1::Segment& segment, const FieldPath& field) {
  if (absl::Status s = CheckInRange(segment.p1(), FieldPath(field, ".p1"));
      !s.ok()) {
    return s;
  }
  return CheckInRange(segment.p2(), FieldPath(field, ".p2"));
}

// A body from a message whose oneof (named `what`: "mover", "hitbox") holds
// a circle, a capsule or a convex polygon.
template <typename Message>
absl::StatusOr<BodyShape> BodyFromProto(const Message& message,
                                        absl::string_view what,
                                        const FieldPath& field) {
  if (message.has_circle()) {
    if (absl::Status s =
            CheckCircle(message.circle(), FieldPath(field, ".circle"));
        !s.ok()) {
      return s;
    }
    return BodyShape(CircleFromProto(message.circle()));
  }
  if (message.has_capsule()) {
    if (absl::Status s =
            CheckCapsule(message.capsule(), FieldPath(field, ".capsule"));
        !s.ok()) {
      return s;
    }
    return BodyShape(CapsuleFromProto(message.capsule()));
  }
  if (message.has_polygon()) {
    absl::StatusOr<ConvexPolygon> polygon =
        ConvexPolygonFromProto(message.polygon(), FieldPath(field, ".polygon"));
    if (!polygon.ok()) return polygon.status();
    return BodyShape(*polygon);
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field.ToString(), " has no ", what,
                   ": set one of circle, capsule, polygon"));
}

absl::StatusOr<MovingShape> MovingShapeFromProto(const v1::MovingShape& shape,
                                                 const FieldPath& field) {
  MovingShape result;
  switch (shape.shape_case()) {
    case v1::MovingShape::kPoint:
      if (absl::Status s =
              CheckInRange(shape.point(), FieldPath(field, ".point"));
          !s.ok()) {
        return s;
      }
      result.shape = FromProto(shape.point());
      break;
    case v1::MovingShape::kSegment:
      if (absl::Status s =
              CheckSegment(shape.segment(), FieldPath(field, ".segment"));
          !s.ok()) {
        return s;
      }
      result.shape = Segment{FromProto(shape.segment().p1()),
                             FromProto(shape.segment().p2())};
      break;
    case v1::MovingShape::kCircle:
      if (absl::Status s =
              CheckCircle(shape.circle(), FieldPath(field, ".circle"));
          !s.ok()) {
        return s;
      }
      result.shape = CircleFromProto(shape.circle());
      break;
    case v1::MovingShape::kCapsule:
      if (absl::Status s =
              CheckCapsule(shape.capsule(), FieldPath(field, ".capsule"));
          !s.ok()) {
        return s;
      }
      result.shape = CapsuleFromProto(shape.capsule());
      break;
    case v1::MovingShape::kPolygon: {
      absl::StatusOr<ConvexPolygon> polygon =
          ConvexPolygonFromProto(shape.polygon(), FieldPath(field, ".polygon"));
      if (!polygon.ok()) return polygon.status();
      result.shape = *polygon;
      break;
    }
    case v1::MovingShape::SHAPE_NOT_SET:
      return absl::InvalidArgumentError(
          absl::StrCat(field.ToString(),
                       " has no shape: set one of point, segment, circle, "
                       "capsule, polygon"));
  }
  if (absl::Status s =
          CheckInRange(shape.translation(), FieldPath(field, ".translation"));
      !s.ok()) {
    return s;
  }
  result.translation = FromProto(shape.translation());
  return result;
}

}  // namespace

absl::StatusOr<MoveSettings> MoveSettingsFromProto(
    double skin, int32_t max_slide_iterations, int32_t max_exit_iterations,
    const v1::QueryFilter& filter, const InputLimits& limits,
    const FieldPath& field) {
  if (absl::Status s = CheckNonNegative(skin, FieldPath(field, ".skin"));
      !s.ok()) {
    return s;
  }
  const int32_t slide_limit =
      std::min(limits.max_slide_iterations, kMaxSlideIterations);
  if (max_slide_iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), ".max_slide_iterations must be >= 0, got ",
        max_slide_iterations));
  }
  if (max_slide_iterations > slide_limit) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), ".max_slide_iterations ", max_slide_iterations,
        " is more than max_slide_iterations ", slide_limit));
  }
  if (max_exit_iterations < 0 || max_exit_iterations > kMaxExitIterations) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(), ".max_exit_iterations must be in [0, ",
                     kMaxExitIterations, "], got ", max_exit_iterations));
  }
  absl::StatusOr<QueryFilter> query_filter =
      FilterFromProto(filter, limits, FieldPath(field, ".filter"));
  if (!query_filter.ok()) return query_filter.status();
  MoveSettings settings{
      .filter = *query_filter,
      .options = {.skin = skin, .max_slide_iterations = max_slide_iterations}};
  if (max_exit_iterations > 0) {
    settings.options.max_exit_iterations = max_exit_iterations;
  }
  return settings;
}

absl::StatusOr<MoveValidationArgs> MoveValidationFromProto(
    const v1::MoveValidationQuery& query, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<BodyShape> mover = BodyFromProto(query, "mover", field);
  if (!mover.ok()) return mover.status();
  if (absl::Status s =
          CheckInRange(query.translation(), FieldPath(field, ".translation"));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<MoveSettings> settings = MoveSettingsFromProto(
      query.skin(), query.max_slide_iterations(), query.max_exit_iterations(),
      query.filter(), limits, field);
  if (!settings.ok()) return settings.status();
  return MoveValidationArgs{
      .claim = {*std::move(mover), FromProto(query.translation())},
      .filter = settings->filter,
      .options = settings->options};
}

absl::StatusOr<HitValidationArgs> HitValidationFromProto(
    const v1::HitValidationQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<ShotTarget>& target_storage) {
  if (absl::Status s =
          CheckInRange(query.origin(), FieldPath(field, ".origin"));
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckInRange(query.translation(), FieldPath(field, ".translation"));
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckNonNegative(query.radius(), FieldPath(field, ".radius"));
      !s.ok()) {
    return s;
  }
  if (query.targets_size() > limits.max_shot_targets) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".targets holds ", query.targets_size(),
        " targets, more than max_shot_targets ", limits.max_shot_targets));
  }
  target_storage.clear();
  const FieldPath root(field);
  const FieldPath targets_path(root, ".targets");
  for (int i = 0; i < query.targets_size(); ++i) {
    const v1::ShotTarget& target = query.targets(i);
    const FieldPath path(targets_path, i);
    absl::StatusOr<BodyShape> hitbox = BodyFromProto(target, "hitbox", path);
    if (!hitbox.ok()) return hitbox.status();
    if (absl::Status s =
            CheckInRange(target.translation(), FieldPath(path, ".translation"));
        !s.ok()) {
      return s;
    }
    target_storage.push_back({.id = target.id(),
                              .hitbox = *std::move(hitbox),
                              .translation = FromProto(target.translation())});
  }
  absl::StatusOr<QueryFilter> filter =
      FilterFromProto(query.filter(), limits, FieldPath(field, ".filter"));
  if (!filter.ok()) return filter.status();
  return HitValidationArgs{
      .shot = {FromProto(query.origin()), FromProto(query.translation()),
               query.radius()},
      .filter = *filter,
      .targets = target_storage};
}

absl::StatusOr<BodyShape> SwingBodyFromProto(const v1::Swing& swing,
                                             const FieldPath& field) {
  return BodyFromProto(swing, "body", field);
}

absl::StatusOr<PairToiArgs> PairToiFromProto(const v1::PairToiQuery& query,
                                             absl::string_view field) {
  absl::StatusOr<MovingShape> a =
      MovingShapeFromProto(query.a(), FieldPath(field, ".a"));
  if (!a.ok()) return a.status();
  absl::StatusOr<MovingShape> b =
      MovingShapeFromProto(query.b(), FieldPath(field, ".b"));
  if (!b.ok()) return b.status();
  PairToiArgs args{.a = *std::move(a),
                   .b = *std::move(b),
                   .options = {},
                   .deforming = std::nullopt};
  if (query.has_max_fraction()) {
    const FieldPath root(field);
    const FieldPath path(root, ".max_fraction");
    if (absl::Status s = CheckInRange(query.max_fraction(), path); !s.ok()) {
      return s;
    }
    if (!(query.max_fraction() >= 0.0 && query.max_fraction() <= 1.0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.ToString(), " must be in [0, 1], got ",
                       NumberText(query.max_fraction())));
    }
    args.options.max_fraction = query.max_fraction();
  }
  if (absl::Status s = CheckNonNegative(query.target_distance(),
                                        FieldPath(field, ".target_distance"));
      !s.ok()) {
    return s;
  }
  args.options.target_distance = query.target_distance();
  const bool a_deforms = query.a().has_segment_end();
  const bool b_deforms = query.b().has_segment_end();
  if (!a_deforms && !b_deforms) return args;
  // One shape's segment deforms: it must be a segment without a
  // translation, the other a point, and there is no skin.
  const v1::MovingShape& segment = a_deforms ? query.a() : query.b();
  const v1::MovingShape& other = a_deforms ? query.b() : query.a();
  const FieldPath root(field);
  const FieldPath side(root, a_deforms ? ".a" : ".b");
  const FieldPath other_side(root, a_deforms ? ".b" : ".a");
  const std::string end_field = FieldPath(side, ".segment_end").ToString();
  if (!segment.has_segment()) {
    return absl::InvalidArgumentError(absl::StrCat(
        end_field, " is set but ", side.ToString(), " is not a segment"));
  }
  if (absl::Status s =
          CheckSegment(segment.segment_end(), FieldPath(side, ".segment_end"));
      !s.ok()) {
    return s;
  }
  if (segment.has_translation() &&
      (segment.translation().x() != 0.0 || segment.translation().y() != 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(side.ToString(), ".translation must be zero when ",
                     end_field, " gives the segment's end pose"));
  }
  if (!other.has_point()) {
    return absl::InvalidArgumentError(absl::StrCat(
        end_field, ": a deforming segment meets only a point, but ",
        other_side.ToString(), " is not one"));
  }
  if (args.options.target_distance != 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat(FieldPath(field, ".target_distance").ToString(),
                     " must be 0 with a deforming segment (", end_field, ")"));
  }
  args.deforming = DeformingPair{
      .point = {FromProto(other.point()), FromProto(other.translation())},
      .segment = {{FromProto(segment.segment().p1()),
                   FromProto(segment.segment().p2())},
                  {FromProto(segment.segment_end().p1()),
                   FromProto(segment.segment_end().p2())}},
      .point_is_a = b_deforms};
  return args;
}

v1::MoveVerdict ToProto(MoveVerdict verdict) {
  switch (verdict) {
    case MoveVerdict::kAllowed:
      return v1::MOVE_VERDICT_ALLOWED;
    case MoveVerdict::kBlocked:
      return v1::MOVE_VERDICT_BLOCKED;
    case MoveVerdict::kStartsInside:
      return v1::MOVE_VERDICT_STARTS_INSIDE;
  }
  return v1::MOVE_VERDICT_UNSPECIFIED;
}

void ToProto(const MoveValidation& validation, v1::MoveValidationResult* out) {
  out->set_verdict(ToProto(validation.verdict));
  if (validation.first_hit) {
    ToProto(*validation.first_hit, out->mutable_first_hit());
  }
  out->set_safe_fraction(validation.safe_fraction);
  ToProto(validation.safe_translation, out->mutable_safe_translation());
  out->set_claimed_end_reachable(validation.claimed_end_reachable);
  if (validation.slide) {
    const SlideResult& slide = *validation.slide;
    v1::SlideResult* proto = out->mutable_slide();
    ToProto(slide.translation, proto->mutable_translation());
    proto->set_iteration_count(slide.iterations);
    proto->set_out_of_iterations(slide.out_of_iterations);
    proto->mutable_contacts()->Reserve(slide.contact_count);
    for (int32_t i = 0; i < slide.contact_count; ++i) {
      const SlideContact& contact = slide.contacts[static_cast<size_t>(i)];
      v1::SlideContact* c = proto->add_contacts();
      ToProto(contact.translation, c->mutable_translation());
      ToProto(contact.point, c->mutable_point());
      ToProto(contact.normal, c->mutable_normal());
      c->set_shape_id(contact.shape_id);
      c->set_user_data(contact.user_data);
      ToProto(contact.feature, c->mutable_feature());
    }
  }
  if (validation.exit) {
    const ExitResult& exit = *validation.exit;
    v1::ExitResult* proto = out->mutable_exit();
    proto->set_separated(exit.separated);
    ToProto(exit.translation, proto->mutable_translation());
    proto->set_iteration_count(exit.iterations);
    proto->set_depth(exit.depth);
    proto->mutable_overlapped_shapes()->Reserve(exit.overlapped_count);
    for (int32_t i = 0; i < exit.overlapped_count; ++i) {
      const ShapeRef& ref = exit.overlapped[static_cast<size_t>(i)];
      v1::ShapeRef* r = proto->add_overlapped_shapes();
      r->set_shape_id(ref.shape_id);
      r->set_user_data(ref.user_data);
    }
    proto->set_overlapped_truncated(exit.overlapped_truncated);
  }
}

void ToProto(const std::optional<ShotHit>& hit, v1::HitValidationResult* out) {
  if (!hit) {
    out->set_outcome(v1::SHOT_OUTCOME_MISS);
    out->set_target_index(-1);
    return;
  }
  out->set_outcome(hit->kind == ShotHitKind::kWall ? v1::SHOT_OUTCOME_WALL
                                                   : v1::SHOT_OUTCOME_TARGET);
  out->set_id(hit->id);
  out->set_user_data(hit->user_data);
  out->set_target_index(hit->target_index);
  out->set_fraction(hit->hit.fraction);
  ToProto(hit->hit.point, out->mutable_point());
  ToProto(hit->hit.normal, out->mutable_normal());
  ToProto(hit->hit.feature, out->mutable_feature());
  out->set_status(ToProto(hit->hit.status));
}

void ToProto(const std::optional<Hit>& hit, v1::PairToiResult* out) {
  out->set_hit(hit.has_value());
  if (!hit) return;
  out->set_fraction(hit->fraction);
  ToProto(hit->point, out->mutable_point());
  ToProto(hit->normal, out->mutable_normal());
  ToProto(hit->feature, out->mutable_feature());
  out->set_status(ToProto(hit->status));
  out->set_depth(hit->depth);
}

v1::HitStatus ToProto(HitStatus status) {
  switch (status) {
    case HitStatus::kHit:
      return v1::HIT_STATUS_HIT;
    case HitStatus::kInitialOverlap:
      return v1::HIT_STATUS_INITIAL_OVERLAP;
  }
  return v1::HIT_STATUS_UNSPECIFIED;
}

v1::FeatureType ToProto(FeatureType type) {
  switch (type) {
    case FeatureType::kEdge:
      return v1::FEATURE_TYPE_EDGE;
    case FeatureType::kVertex:
      return v1::FEATURE_TYPE_VERTEX;
    case FeatureType::kSurface:
      return v1::FEATURE_TYPE_SURFACE;
  }
  return v1::FEATURE_TYPE_UNSPECIFIED;
}

void ToProto(Feature feature, v1::Feature* out) {
  out->set_type(ToProto(feature.type));
  out->set_index(feature.index);
}

void ToProto(const WorldHit& hit, v1::CastHit* out) {
  out->set_fraction(hit.hit.fraction);
  ToProto(hit.hit.point, out->mutable_point());
  ToProto(hit.hit.normal, out->mutable_normal());
  out->set_shape_id(hit.shape_id);
  out->set_user_data(hit.user_data);
  ToProto(hit.hit.feature, out->mutable_feature());
  out->set_status(ToProto(hit.hit.status));
  out->set_depth(hit.hit.depth);
}

void ToProto(const WorldClosestPoint& closest, v1::ClosestPointResult* out) {
  out->set_found(true);
  ToProto(closest.point, out->mutable_point());
  out->set_distance(closest.distance);
  ToProto(closest.normal, out->mutable_normal());
  out->set_shape_id(closest.shape_id);
  out->set_user_data(closest.user_data);
  ToProto(closest.feature, out->mutable_feature());
}

}  // namespace collide::formats
