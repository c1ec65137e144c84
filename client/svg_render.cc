#include "client/svg_render.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/svg_geometry.h"
#include "client/svg_layer.h"
#include "client/svg_legend.h"
#include "client/svg_scene.h"
#include "client/svg_style.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/unknown_field_set.h"

namespace collide::client {
namespace {

using svg_internal::Attributes;
using svg_internal::BoundsOf;
using svg_internal::CastGeometry;
using svg_internal::ConvexHull;
using svg_internal::EmptyBox;
using svg_internal::FormatNumber;
using svg_internal::FormatPixels;
using svg_internal::FromProto;
using svg_internal::InRange;
using svg_internal::IsEmpty;
using svg_internal::kArrowHead;
using svg_internal::kContactColour;
using svg_internal::kContactRadius;
using svg_internal::kCurveTolerance;
using svg_internal::kInitialOverlapColour;
using svg_internal::kMissColour;
using svg_internal::kNormalLength;
using svg_internal::kPalette;
using svg_internal::kPointRadius;
using svg_internal::kRoleClosest;
using svg_internal::kRoleContact;
using svg_internal::kRoleCount;
using svg_internal::kRoleEnd;
using svg_internal::kRoleInitialOverlap;
using svg_internal::kRoleLine;
using svg_internal::kRoleMiss;
using svg_internal::kRoleOverlapped;
using svg_internal::kRoleSearch;
using svg_internal::kRoleSolid;
using svg_internal::kRoleStart;
using svg_internal::kRoleSwept;
using svg_internal::kRoleToi;
using svg_internal::LevelShapeKind;
using svg_internal::SvgLayer;
using svg_internal::Translated;
using svg_internal::WorldShape;

constexpr int kMinWidth = 64;
constexpr int kMaxWidth = 16384;
constexpr double kMinViewExtent = 1e-9;
constexpr double kMaxAspect = 4.0;
constexpr int kMaxGridLines = 200;
// Shapes smaller than this (pixels) get no id label: it would bury them.
constexpr double kMinLabelledShape = 12.0;

absl::Status CheckOptions(const RenderOptions& options) {
  if (options.width_px < kMinWidth || options.width_px > kMaxWidth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "options.width_px must be in [", kMinWidth, ", ", kMaxWidth, "]"));
  }
  if (!std::isfinite(options.grid_cell_size) || options.grid_cell_size < 0.0) {
    return absl::InvalidArgumentError(
        "options.grid_cell_size must be finite and >= 0");
  }
  if (options.view.has_value()) {
    const v1::Aabb& view = *options.view;
    const struct {
      const char* name;
      double value;
    } numbers[] = {{"lower.x", view.lower().x()},
                   {"lower.y", view.lower().y()},
                   {"upper.x", view.upper().x()},
                   {"upper.y", view.upper().y()}};
    for (const auto& [name, value] : numbers) {
      if (!InRange(value)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "options.view.", name, " must be finite and within +-1e60"));
      }
    }
    if (!(view.upper().x() - view.lower().x() >= kMinViewExtent)) {
      return absl::InvalidArgumentError(
          "options.view.upper.x must exceed options.view.lower.x by at least "
          "1e-9");
    }
    if (!(view.upper().y() - view.lower().y() >= kMinViewExtent)) {
      return absl::InvalidArgumentError(
          "options.view.upper.y must exceed options.view.lower.y by at least "
          "1e-9");
    }
  }
  return absl::OkStatus();
}

// The default view: `content` plus a margin of 5% of its larger side, at
// least a millionth of its distance from the origin (so a view far from the
// origin has a width its coordinates can resolve), and one unit around a
// lone point.
Aabb WithMargin(Aabb content) {
  if (IsEmpty(content)) return {{-10.0, -10.0}, {10.0, 10.0}};
  const double extent = std::max(content.upper.x - content.lower.x,
                                 content.upper.y - content.lower.y);
  const double magnitude =
      std::max({std::abs(content.lower.x), std::abs(content.lower.y),
                std::abs(content.upper.x), std::abs(content.upper.y)});
  const double margin = std::max(
      {0.05 * extent, 1e-6 * magnitude, extent == 0.0 ? 1.0 : kMinViewExtent});
  content.lower = content.lower - Vec2{margin, margin};
  content.upper = content.upper + Vec2{margin, margin};
  return content;
}

// The picture's frame: the view (widened to the aspect limit, then to whole
// pixels of height), its scale and its size.
struct Frame {
  Aabb view;
  double scale = 1.0;  // pixels per level unit
  int width = 0;
  int height = 0;
};

Frame FrameFor(Aabb view, int width) {
  const Vec2 center = 0.5 * (view.lower + view.upper);
  double view_width = view.upper.x - view.lower.x;
  double view_height = view.upper.y - view.lower.y;
  view_width = std::max(view_width, view_height / kMaxAspect);
  view_height = std::max(view_height, view_width / kMaxAspect);
  Frame frame;
  frame.width = width;
  frame.scale = width / view_width;
  frame.height =
      std::max(1, static_cast<int>(std::lround(view_height * frame.scale)));
  view_height = frame.height / frame.scale;
  frame.view = {center - 0.5 * Vec2{view_width, view_height},
                center + 0.5 * Vec2{view_width, view_height}};
  return frame;
}

// World to picture coordinates. World y points up and SVG's y points down,
// so y is flipped here, in double precision, rather than with an SVG
// transform: renderers apply transforms in single precision (a level at
// 1e30 would collapse), and a flipping transform would mirror the text.
class Projection {
 public:
  explicit Projection(const Frame& frame)
      : left_(frame.view.lower.x),
        top_(frame.view.upper.y),
        scale_(frame.scale) {}

  Vec2 ToPicture(Vec2 world) const {
    return {(world.x - left_) * scale_, (top_ - world.y) * scale_};
  }
  std::vector<Vec2> ToPicture(absl::Span<const Vec2> world) const {
    std::vector<Vec2> picture;
    picture.reserve(world.size());
    for (const Vec2 p : world) picture.push_back(ToPicture(p));
    return picture;
  }
  // A direction (not a position): only the flip applies.
  static Vec2 Direction(Vec2 world) { return Normalize({world.x, -world.y}); }
  double ToPixels(double length) const { return length * scale_; }

 private:
  double left_;
  double top_;
  double scale_;
};

// 1, 2 or 5 times a power of ten, the smallest at least `at_least`.
double RoundStep(double at_least) {
  const double power = std::pow(10.0, std::floor(std::log10(at_least)));
  for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
    if (multiple * power >= at_least) return multiple * power;
  }
  return 10.0 * power;
}

// A number for a label in the drawing: 4 significant digits are enough to
// tell hits apart at a glance; titles and the legend carry 6.
std::string FormatShort(double value) { return absl::StrFormat("%.4g", value); }

std::string StatusName(int code) {
  const std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? absl::StrCat("code ", code) : name;
}

Vec2 Centroid(absl::Span<const Vec2> points) {
  Vec2 sum;
  for (const Vec2 p : points) sum = sum + p;
  return (1.0 / static_cast<double>(points.size())) * sum;
}

const char* CastKind(const v1::Query& query) {
  switch (query.query_case()) {
    case v1::Query::kRayCast:
      return "ray cast";
    case v1::Query::kCircleCast:
      return "circle cast";
    case v1::Query::kPolygonCast:
      return "polygon cast";
    case v1::Query::kCapsuleCast:
      return "capsule cast";
    default:
      return "cast";
  }
}

class Renderer {
 public:
  Renderer(const v1::Level& level, const RenderOptions& options,
           const Frame& frame)
      : level_(level),
        options_(options),
        frame_(frame),
        projection_(frame),
        grid_(Clip(), kCurveTolerance),
        shapes_(Clip(), kCurveTolerance),
        overlapped_(Clip(), kCurveTolerance),
        swept_(Clip(), kCurveTolerance),
        outlines_(Clip(), kCurveTolerance),
        hits_(Clip(), kCurveTolerance),
        markers_(Clip(), kCurveTolerance),
        labels_(Clip(), kCurveTolerance) {
    for (int i = 0; i < level.shapes_size(); ++i) {
      shape_index_.try_emplace(level.shapes(i).id(), i);
    }
  }

  std::string Render(absl::Span<const RenderedQuery> queries) {
    if (options_.draw_grid) DrawGrid();
    DrawLevel();
    for (size_t i = 0; i < queries.size(); ++i) {
      DrawQuery(static_cast<int>(i), queries[i]);
    }
    return Document(queries.size());
  }

 private:
  // Shapes are cut to the picture plus a margin as large as the picture:
  // their cut edges stay out of sight, and every coordinate stays within a
  // few times the picture's size.
  Aabb Clip() const {
    const double margin = std::max(frame_.width, frame_.height);
    return {{-margin, -margin},
            {frame_.width + margin, frame_.height + margin}};
  }

  void Note(std::string note) { notes_.push_back(std::move(note)); }

  void DrawWorldShape(SvgLayer& layer, const WorldShape& shape,
                      absl::string_view attributes, absl::string_view title) {
    switch (shape.kind) {
      case WorldShape::Kind::kChain:
        layer.Chain(projection_.ToPicture(shape.points), shape.closed,
                    attributes, title);
        break;
      case WorldShape::Kind::kPolygon:
        layer.Polygon(projection_.ToPicture(shape.points), attributes, title);
        break;
      case WorldShape::Kind::kRounded:
        layer.Rounded(ConvexHull(projection_.ToPicture(shape.points)),
                      projection_.ToPixels(shape.radius), attributes, title);
        break;
    }
  }

  void DrawGrid() {
    const Aabb& view = frame_.view;
    const double extent =
        std::max(view.upper.x - view.lower.x, view.upper.y - view.lower.y);
    double cell = options_.grid_cell_size > 0.0 ? options_.grid_cell_size
                                                : RoundStep(extent / 20.0);
    if (extent / cell > kMaxGridLines) {
      cell *= std::ceil(extent / cell / kMaxGridLines);
    }
    grid_cell_ = cell;
    // Label every `every`-th line, so labels stand at least 50 px apart.
    const double every = std::ceil(50.0 / projection_.ToPixels(cell));
    for (int axis = 0; axis < 2; ++axis) {
      const double lower = axis == 0 ? view.lower.x : view.lower.y;
      const double upper = axis == 0 ? view.upper.x : view.upper.y;
      const double first = std::ceil(lower / cell);
      // Capped: far from the origin, lower / cell and upper / cell may
      // differ by rounding alone.
      const double count = std::min<double>(
          std::floor(upper / cell) - first + 1.0, kMaxGridLines + 1);
      for (int i = 0; i < count; ++i) {
        const double k = first + i;
        const double value = k * cell;
        const Vec2 a = projection_.ToPicture(
            axis == 0 ? Vec2{value, view.lower.y} : Vec2{view.lower.x, value});
        const Vec2 b = projection_.ToPicture(
            axis == 0 ? Vec2{value, view.upper.y} : Vec2{view.upper.x, value});
        const Vec2 line[2] = {a, b};
        grid_.Chain(line, /*closed=*/false,
                    k == 0.0 ? " class=\"axis\"" : " class=\"grid\"", "");
        if (options_.labels && std::fmod(k, every) == 0.0) {
          const Vec2 at = axis == 0 ? Vec2{a.x + 2.0, a.y - 3.0}
                                    : Vec2{a.x + 2.0, a.y - 2.0};
          // With the labels, so shapes near the edge do not hide them.
          labels_.Label(at, FormatNumber(value), "tick", "");
        }
      }
    }
  }

  void DrawLevel() {
    for (const v1::Shape& shape : level_.shapes()) {
      const std::optional<WorldShape> geometry =
          svg_internal::LevelShapeGeometry(shape);
      if (!geometry) {
        ++undrawn_shapes_;
        continue;
      }
      const bool line = geometry->kind == WorldShape::Kind::kChain;
      used_.set(line ? kRoleLine : kRoleSolid);
      DrawWorldShape(
          shapes_, *geometry, line ? " class=\"line\"" : " class=\"solid\"",
          absl::StrCat("shape ", shape.id(), " (", LevelShapeKind(shape), ")"));
      const Aabb bounds = BoundsOf(projection_.ToPicture(geometry->points),
                                   projection_.ToPixels(geometry->radius));
      // Shapes smaller than their id would be buried under it.
      if (options_.labels &&
          std::max(bounds.upper.x - bounds.lower.x,
                   bounds.upper.y - bounds.lower.y) >= kMinLabelledShape) {
        labels_.Label(0.5 * (bounds.lower + bounds.upper) + Vec2{0.0, 3.0},
                      absl::StrCat(shape.id()), "shape-id",
                      " text-anchor=\"middle\"");
      }
    }
  }

  void DrawQuery(int index, const RenderedQuery& rendered) {
    const v1::Query& query = rendered.query;
    const v1::QueryResult& result = rendered.result;
    const std::string tag = absl::StrCat("#", query.request_id());
    const bool failed = result.status().code() != 0;
    if (failed) {
      Note(absl::StrCat(tag, ": ", StatusName(result.status().code()), ": ",
                        result.status().message()));
    }
    const char* colour = kPalette[index % std::size(kPalette)];
    switch (query.query_case()) {
      case v1::Query::kRayCast:
      case v1::Query::kCircleCast:
      case v1::Query::kPolygonCast:
      case v1::Query::kCapsuleCast: {
        const std::optional<CastGeometry> cast =
            svg_internal::CastGeometryOf(query);
        if (!cast) {
          NoteUndrawable(tag);
          return;
        }
        const v1::CastResult* cast_result = nullptr;
        if (!failed) {
          if (result.has_cast()) {
            cast_result = &result.cast();
          } else {
            Note(absl::StrCat(tag, ": no cast result"));
          }
        }
        DrawCast(tag, CastKind(query), *cast, cast_result, colour);
        return;
      }
      case v1::Query::kOverlap: {
        const std::optional<WorldShape> shape =
            svg_internal::OverlapShapeOf(query.overlap());
        if (!shape) {
          NoteUndrawable(tag);
          return;
        }
        const v1::OverlapResult* overlap_result = nullptr;
        if (!failed) {
          if (result.has_overlap()) {
            overlap_result = &result.overlap();
          } else {
            Note(absl::StrCat(tag, ": no overlap result"));
          }
        }
        DrawOverlap(tag, *shape, overlap_result, colour);
        return;
      }
      case v1::Query::kClosestPoint: {
        const v1::ClosestPointQuery& closest = query.closest_point();
        if (!InRange(closest.point())) {
          NoteUndrawable(tag);
          return;
        }
        const v1::ClosestPointResult* closest_result = nullptr;
        if (!failed) {
          if (result.has_closest_point()) {
            closest_result = &result.closest_point();
          } else {
            Note(absl::StrCat(tag, ": no closest point result"));
          }
        }
        DrawClosestPoint(tag, closest, closest_result, colour);
        return;
      }
      case v1::Query::QUERY_NOT_SET:
        NoteUnknownKind(tag, query);
        return;
      default: {
        // A kind the proto knows but this renderer does not draw yet.
        const google::protobuf::FieldDescriptor* field =
            v1::Query::descriptor()->FindFieldByNumber(query.query_case());
        Note(absl::StrCat(tag, ": not drawn: ", field ? field->name() : "this",
                          " queries are new to this renderer"));
        return;
      }
    }
  }

  void NoteUndrawable(absl::string_view tag) {
    Note(absl::StrCat(tag,
                      ": not drawn (no shape, a number not finite or beyond "
                      "1e60, or too few vertices)"));
  }

  // A query whose kind is newer than this renderer's proto arrives with its
  // fields unknown.
  void NoteUnknownKind(absl::string_view tag, const v1::Query& query) {
    const google::protobuf::UnknownFieldSet& unknown =
        query.GetReflection()->GetUnknownFields(query);
    std::vector<int> numbers;
    for (int i = 0; i < unknown.field_count(); ++i) {
      numbers.push_back(unknown.field(i).number());
    }
    if (numbers.empty()) {
      Note(absl::StrCat(tag, ": no query set"));
    } else {
      Note(absl::StrCat(tag,
                        ": not drawn: query kind unknown to this renderer "
                        "(field ",
                        absl::StrJoin(numbers, ", "), ")"));
    }
  }

  // The contact point and normal arrow of one hit in `colour`, and its
  // fraction in `label_colour`.
  void DrawContact(const v1::CastHit& hit, absl::string_view colour,
                   absl::string_view label_colour, absl::string_view title) {
    const Vec2 contact = projection_.ToPicture(FromProto(hit.point()));
    const Vec2 normal = Projection::Direction(FromProto(hit.normal()));
    const Vec2 tip = contact + kNormalLength * normal;
    markers_.Arrow(contact, tip, kArrowHead, Attributes("normal", "", colour));
    markers_.Dot(contact, kContactRadius, Attributes("contact", colour, ""),
                 title);
    if (options_.labels) {
      const bool initial = hit.status() == v1::HIT_STATUS_INITIAL_OVERLAP;
      // Beyond the arrow's tip, on the side it points to.
      const Vec2 at = tip + Vec2{6.0 * normal.x, normal.y > 0.3 ? 10.0 : -3.0};
      const char* anchor = normal.x > 0.3    ? "start"
                           : normal.x < -0.3 ? "end"
                                             : "middle";
      labels_.Label(at,
                    initial ? std::string("overlap")
                            : absl::StrCat("t=", FormatShort(hit.fraction())),
                    "label",
                    absl::StrCat(" fill=\"", label_colour, "\" text-anchor=\"",
                                 anchor, "\""));
    }
  }

  void DrawQueryLabel(absl::string_view tag, const Aabb& bounds,
                      absl::string_view colour) {
    if (!options_.labels) return;
    labels_.Label(Vec2{bounds.upper.x + 3.0, bounds.lower.y - 3.0}, tag,
                  "label", absl::StrCat(" fill=\"", colour, "\""));
  }

  void DrawCast(absl::string_view tag, const char* kind,
                const CastGeometry& cast, const v1::CastResult* result,
                const char* query_colour) {
    std::vector<const v1::CastHit*> hits;
    if (result != nullptr) {
      for (const v1::CastHit& hit : result->hits()) {
        if (InRange(hit.fraction()) && InRange(hit.point()) &&
            InRange(hit.normal())) {
          hits.push_back(&hit);
        } else {
          Note(absl::StrCat(tag, ": a hit on shape ", hit.shape_id(),
                            " has numbers out of range, not drawn"));
        }
      }
    }
    const char* colour = hits.empty() ? kMissColour : query_colour;
    used_.set(hits.empty() ? kRoleMiss : kRoleStart);
    std::string title = absl::StrCat(tag, " ", kind, ": ");
    if (result == nullptr) {
      absl::StrAppend(&title, "no result");
    } else if (hits.empty()) {
      absl::StrAppend(&title, "miss");
    } else {
      absl::StrAppend(&title, "hit shape ", hits[0]->shape_id(),
                      " at t=", FormatNumber(hits[0]->fraction()));
      if (hits.size() > 1) absl::StrAppend(&title, " (", hits.size(), " hits)");
    }

    const WorldShape& start = cast.shape;
    const WorldShape end = Translated(start, cast.translation);
    const std::vector<Vec2> start_hull =
        ConvexHull(projection_.ToPicture(start.points));
    const std::vector<Vec2> end_hull =
        ConvexHull(projection_.ToPicture(end.points));
    const double radius = projection_.ToPixels(start.radius);

    if (cast.is_ray) {
      const Vec2 origin = start_hull[0];
      const Vec2 finish = end_hull[0];
      // Solid up to the first hit, dashed beyond it.
      const Vec2 stop =
          hits.empty()
              ? finish
              : projection_.ToPicture(start.points[0] +
                                      hits[0]->fraction() * cast.translation);
      const Vec2 solid[2] = {origin, stop};
      outlines_.Chain(solid, /*closed=*/false, Attributes("ray", "", colour),
                      title);
      if (stop != finish) {
        const Vec2 rest[2] = {stop, finish};
        outlines_.Chain(rest, /*closed=*/false, Attributes("end", "", colour),
                        "");
        used_.set(kRoleEnd);
      }
      const Vec2 direction = Normalize(finish - origin);
      if (direction != Vec2{}) {
        outlines_.Arrow(finish - direction, finish, kArrowHead,
                        Attributes("ray", "", colour));
      }
      outlines_.Dot(origin, kPointRadius,
                    Attributes("start", "#ffffff", colour), "");
    } else {
      std::vector<Vec2> both = start_hull;
      both.insert(both.end(), end_hull.begin(), end_hull.end());
      swept_.Rounded(ConvexHull(both), radius,
                     Attributes("swept", colour, colour), "");
      outlines_.Rounded(start_hull, radius, Attributes("start", "", colour),
                        title);
      outlines_.Rounded(end_hull, radius, Attributes("end", "", colour), "");
      const Vec2 from = Centroid(start_hull);
      const Vec2 to = Centroid(end_hull);
      if (Length(to - from) > 2.0 * kArrowHead) {
        outlines_.Arrow(from, to, kArrowHead, Attributes("path", "", colour));
      }
      used_.set(kRoleSwept);
      used_.set(kRoleEnd);
    }

    for (const v1::CastHit* hit : hits) {
      const bool initial = hit->status() == v1::HIT_STATUS_INITIAL_OVERLAP;
      used_.set(initial ? kRoleInitialOverlap : kRoleContact);
      const std::string hit_title = absl::StrCat(
          tag, initial ? " initial overlap" : " hit", " with shape ",
          hit->shape_id(), " at t=", FormatNumber(hit->fraction()),
          initial ? absl::StrCat(", depth ", FormatNumber(hit->depth())) : "");
      if (!cast.is_ray) {
        const WorldShape at_hit =
            Translated(start, hit->fraction() * cast.translation);
        const char* hit_colour = initial ? kInitialOverlapColour : colour;
        hits_.Rounded(ConvexHull(projection_.ToPicture(at_hit.points)), radius,
                      Attributes("toi", hit_colour, hit_colour), hit_title);
        if (!initial) used_.set(kRoleToi);
      }
      DrawContact(*hit, initial ? kInitialOverlapColour : kContactColour,
                  initial ? kInitialOverlapColour : colour, hit_title);
    }
    DrawQueryLabel(tag, BoundsOf(start_hull, radius), colour);
  }

  void DrawOverlap(absl::string_view tag, const WorldShape& shape,
                   const v1::OverlapResult* result, const char* query_colour) {
    const bool any = result != nullptr && result->shapes_size() > 0;
    const char* colour = any ? query_colour : kMissColour;
    used_.set(any ? kRoleStart : kRoleMiss);
    std::vector<std::string> ids;
    if (result != nullptr) {
      for (const v1::ShapeRef& ref : result->shapes()) {
        ids.push_back(absl::StrCat(ref.shape_id()));
        const auto found = shape_index_.find(ref.shape_id());
        const std::optional<WorldShape> geometry =
            found == shape_index_.end() ? std::nullopt
                                        : svg_internal::LevelShapeGeometry(
                                              level_.shapes(found->second));
        if (!geometry) {
          Note(absl::StrCat(tag, ": overlapped shape ", ref.shape_id(),
                            " is not drawn in this level"));
          continue;
        }
        used_.set(kRoleOverlapped);
        // In the query's colour, so each overlap query's shapes stand out
        // as its own.
        DrawWorldShape(
            overlapped_, *geometry,
            geometry->kind == WorldShape::Kind::kChain
                ? Attributes("overlapped chain", "", query_colour)
                : Attributes("overlapped", query_colour, query_colour),
            absl::StrCat(tag, " overlaps shape ", ref.shape_id()));
      }
    }
    const std::string title = absl::StrCat(
        tag, " overlap: ",
        result == nullptr ? "no result"
        : ids.empty()     ? "no shapes"
                          : absl::StrCat("shapes ", absl::StrJoin(ids, ", ")));
    DrawWorldShape(outlines_, shape, Attributes("probe", colour, colour),
                   title);
    DrawQueryLabel(tag,
                   BoundsOf(projection_.ToPicture(shape.points),
                            projection_.ToPixels(shape.radius)),
                   colour);
  }

  void DrawClosestPoint(absl::string_view tag,
                        const v1::ClosestPointQuery& query,
                        const v1::ClosestPointResult* result,
                        const char* query_colour) {
    const bool found =
        result != nullptr && result->found() && InRange(result->point());
    const char* colour = found ? query_colour : kMissColour;
    used_.set(found ? kRoleClosest : kRoleMiss);
    const Vec2 point = projection_.ToPicture(FromProto(query.point()));
    if (query.has_max_distance() && InRange(query.max_distance()) &&
        query.max_distance() > 0.0) {
      used_.set(kRoleSearch);
      const Vec2 center[1] = {point};
      outlines_.Rounded(center, projection_.ToPixels(query.max_distance()),
                        Attributes("search", "", colour), "");
    }
    std::string title = absl::StrCat(tag, " closest point: ");
    if (found) {
      absl::StrAppend(&title, "shape ", result->shape_id(), " at distance ",
                      FormatNumber(result->distance()));
      const Vec2 nearest = projection_.ToPicture(FromProto(result->point()));
      const Vec2 line[2] = {point, nearest};
      outlines_.Chain(line, /*closed=*/false, Attributes("closest", "", colour),
                      "");
      markers_.Dot(nearest, kContactRadius,
                   Attributes("contact", kContactColour, ""), title);
      if (options_.labels) {
        labels_.Label(0.5 * (point + nearest) + Vec2{4.0, -4.0},
                      absl::StrCat("d=", FormatShort(result->distance())),
                      "label", absl::StrCat(" fill=\"", colour, "\""));
      }
    } else {
      absl::StrAppend(&title, result == nullptr ? "no result" : "none found");
    }
    markers_.Dot(point, kPointRadius, Attributes("start", "#ffffff", colour),
                 title);
    DrawQueryLabel(tag, BoundsOf(std::vector<Vec2>{point}, kPointRadius),
                   colour);
  }

  std::string Document(size_t query_count) {
    std::string summary = absl::StrCat(
        "level ", level_.id().empty() ? "(no id)" : level_.id(), ": ",
        level_.shapes_size(), level_.shapes_size() == 1 ? " shape" : " shapes",
        ", ", query_count, query_count == 1 ? " query" : " queries");
    if (undrawn_shapes_ > 0) {
      absl::StrAppend(&summary, " (", undrawn_shapes_, " shapes not drawn: ",
                      "no geometry or numbers out of range)");
    }
    if (grid_cell_ > 0.0) {
      absl::StrAppend(&summary, "; grid ", FormatNumber(grid_cell_), " units");
    }
    const svg_internal::Legend legend = svg_internal::DrawLegend(
        {.summary = std::move(summary), .roles = used_, .notes = notes_},
        frame_.width, frame_.height);
    const int total_height = frame_.height + legend.height;
    std::string svg = absl::StrCat(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"",
        frame_.width, "\" height=\"", total_height, "\" viewBox=\"0 0 ",
        frame_.width, " ", total_height, "\">\n<title>",
        svg_internal::EscapeXml(absl::StrCat("collide level ", level_.id(),
                                             ", ", query_count, " queries")),
        "</title>\n<style type=\"text/css\"><![CDATA[", svg_internal::kStyle,
        "]]></style>\n<rect x=\"0\" y=\"0\" width=\"", frame_.width,
        "\" height=\"", total_height, "\" fill=\"#ffffff\"/>\n",
        // The drawing in its own viewport, which clips whatever reaches
        // past it (shapes are only cut to a margin around it).
        "<svg x=\"0\" y=\"0\" width=\"", frame_.width, "\" height=\"",
        frame_.height, "\">\n");
    const std::pair<const char*, const SvgLayer*> layers[] = {
        {"grid", &grid_},
        {"level", &shapes_},
        {"overlapped", &overlapped_},
        {"swept", &swept_},
        {"outlines", &outlines_},
        {"hits", &hits_},
        {"markers", &markers_},
        {"labels", &labels_}};
    for (const auto& [id, layer] : layers) {
      absl::StrAppend(&svg, "<g id=\"", id, "\">\n", layer->svg(), "</g>\n");
    }
    absl::StrAppend(&svg, "</svg>\n", legend.svg, "</svg>\n");
    return svg;
  }

  const v1::Level& level_;
  const RenderOptions& options_;
  const Frame frame_;
  const Projection projection_;
  SvgLayer grid_;
  SvgLayer shapes_;
  SvgLayer overlapped_;
  SvgLayer swept_;
  SvgLayer outlines_;
  SvgLayer hits_;
  SvgLayer markers_;
  SvgLayer labels_;
  absl::flat_hash_map<uint64_t, int> shape_index_;
  std::bitset<kRoleCount> used_;
  std::vector<std::string> notes_;
  int undrawn_shapes_ = 0;
  double grid_cell_ = 0.0;
};

// What the default view must hold: the level's shapes and every query's
// shapes, hit points and closest points.
Aabb ContentBounds(const v1::Level& level,
                   absl::Span<const RenderedQuery> queries) {
  Aabb bounds = EmptyBox();
  for (const v1::Shape& shape : level.shapes()) {
    if (std::optional<WorldShape> geometry =
            svg_internal::LevelShapeGeometry(shape)) {
      bounds = svg_internal::Union(bounds, BoundsOf(*geometry));
    }
  }
  auto add_point = [&bounds](const v1::Vec2& point) {
    if (InRange(point)) {
      const Vec2 p = FromProto(point);
      bounds = svg_internal::Union(bounds, {p, p});
    }
  };
  for (const RenderedQuery& rendered : queries) {
    const v1::Query& query = rendered.query;
    if (std::optional<CastGeometry> cast =
            svg_internal::CastGeometryOf(query)) {
      bounds = svg_internal::Union(bounds, BoundsOf(cast->shape));
      bounds = svg_internal::Union(
          bounds, BoundsOf(Translated(cast->shape, cast->translation)));
    } else if (query.has_overlap()) {
      if (std::optional<WorldShape> shape =
              svg_internal::OverlapShapeOf(query.overlap())) {
        bounds = svg_internal::Union(bounds, BoundsOf(*shape));
      }
    } else if (query.has_closest_point()) {
      add_point(query.closest_point().point());
    }
    // A failed query's result is not drawn, so it does not widen the view.
    if (rendered.result.status().code() != 0) continue;
    if (rendered.result.has_cast()) {
      for (const v1::CastHit& hit : rendered.result.cast().hits()) {
        add_point(hit.point());
      }
    } else if (rendered.result.has_closest_point() &&
               rendered.result.closest_point().found()) {
      add_point(rendered.result.closest_point().point());
    }
  }
  return bounds;
}

}  // namespace

absl::StatusOr<std::string> RenderSvg(const v1::Level& level,
                                      absl::Span<const RenderedQuery> queries,
                                      const RenderOptions& options) {
  if (absl::Status status = CheckOptions(options); !status.ok()) {
    return status;
  }
  Aabb view;
  if (options.view.has_value()) {
    view = {FromProto(options.view->lower()), FromProto(options.view->upper())};
  } else {
    view = WithMargin(ContentBounds(level, queries));
  }
  const Frame frame = FrameFor(view, options.width_px);
  return Renderer(level, options, frame).Render(queries);
}

}  // namespace collide::client
