#include "client/svg/svg_render.h"

#include <algorithm>
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
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_geometry.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "client/svg/svg_style.h"
#include "client/svg/svg_turning.h"
#include "client/svg/svg_validation.h"
#include "client/svg/svg_visibility.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/unknown_field_set.h"

namespace collide::client {
namespace {

using svg_internal::Attributes;
using svg_internal::BoundsOf;
using svg_internal::Canvas;
using svg_internal::CastGeometry;
using svg_internal::EmptyBox;
using svg_internal::FormatNumber;
using svg_internal::FormatShort;
using svg_internal::Frame;
using svg_internal::FromProto;
using svg_internal::InRange;
using svg_internal::IsEmpty;
using svg_internal::kContactColour;
using svg_internal::kContactRadius;
using svg_internal::kInitialOverlapColour;
using svg_internal::kMissColour;
using svg_internal::kPalette;
using svg_internal::kPointRadius;
using svg_internal::kRoleClosest;
using svg_internal::kRoleContact;
using svg_internal::kRoleFiltered;
using svg_internal::kRoleInitialOverlap;
using svg_internal::kRoleLine;
using svg_internal::kRoleMiss;
using svg_internal::kRoleOneSided;
using svg_internal::kRoleOverlapped;
using svg_internal::kRoleSearch;
using svg_internal::kRoleSolid;
using svg_internal::kRoleStart;
using svg_internal::kRoleToi;
using svg_internal::Layer;
using svg_internal::LevelShapeKind;
using svg_internal::Projection;
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
// Length in pixels of the tick marking a one-sided segment's front.
constexpr double kFrontTick = 6.0;

// A shape's non-default filter fields for its tooltip, e.g. ", mask 0x4,
// group -2"; empty for a shape with the defaults.
std::string FilterText(const v1::Shape& shape) {
  std::string text;
  if (shape.has_category_bits()) {
    absl::StrAppend(&text, ", category 0x", absl::Hex(shape.category_bits()));
  }
  if (shape.has_mask_bits()) {
    absl::StrAppend(&text, ", mask 0x", absl::Hex(shape.mask_bits()));
  }
  if (shape.group() != 0) absl::StrAppend(&text, ", group ", shape.group());
  if (shape.one_sided()) absl::StrAppend(&text, ", one-sided");
  return text;
}

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

// The picture's frame for `view`: widened to the aspect limit, then to
// whole pixels of height.
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

// 1, 2 or 5 times a power of ten, the smallest at least `at_least`.
double RoundStep(double at_least) {
  const double power = std::pow(10.0, std::floor(std::log10(at_least)));
  for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
    if (multiple * power >= at_least) return multiple * power;
  }
  return 10.0 * power;
}

std::string StatusName(int code) {
  const std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? absl::StrCat("code ", code) : name;
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
      : level_(level), options_(options), canvas_(frame, options.labels) {
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
  const Projection& projection() const { return canvas_.projection(); }

  void DrawGrid() {
    const Aabb& view = canvas_.frame().view;
    const double extent =
        std::max(view.upper.x - view.lower.x, view.upper.y - view.lower.y);
    double cell = options_.grid_cell_size > 0.0 ? options_.grid_cell_size
                                                : RoundStep(extent / 20.0);
    if (extent / cell > kMaxGridLines) {
      cell *= std::ceil(extent / cell / kMaxGridLines);
    }
    grid_cell_ = cell;
    SvgLayer& grid = canvas_.layer(Layer::kGrid);
    // Label every `every`-th line, so labels stand at least 50 px apart.
    const double every = std::ceil(50.0 / projection().ToPixels(cell));
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
        const Vec2 a = projection().ToPicture(
            axis == 0 ? Vec2{value, view.lower.y} : Vec2{view.lower.x, value});
        const Vec2 b = projection().ToPicture(
            axis == 0 ? Vec2{value, view.upper.y} : Vec2{view.upper.x, value});
        const Vec2 line[2] = {a, b};
        grid.Chain(line, /*closed=*/false,
                   k == 0.0 ? " class=\"axis\"" : " class=\"grid\"", "");
        if (options_.labels && std::fmod(k, every) == 0.0) {
          const Vec2 at = axis == 0 ? Vec2{a.x + 2.0, a.y - 3.0}
                                    : Vec2{a.x + 2.0, a.y - 2.0};
          // With the labels, so shapes near the edge do not hide them.
          canvas_.layer(Layer::kLabels)
              .Label(at, FormatNumber(value), "tick", "");
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
      const bool one_sided = line && shape.one_sided();
      const bool filtered = shape.has_mask_bits() || shape.group() != 0;
      canvas_.Use(line ? kRoleLine : kRoleSolid);
      if (one_sided) canvas_.Use(kRoleOneSided);
      if (filtered) canvas_.Use(kRoleFiltered);
      const std::string classes =
          absl::StrCat(line ? "line" : "solid", one_sided ? " one-sided" : "",
                       filtered ? " filtered" : "");
      canvas_.Shape(
          Layer::kLevel, *geometry, absl::StrCat(" class=\"", classes, "\""),
          absl::StrCat("shape ", shape.id(), " (", LevelShapeKind(shape), ")",
                       FilterText(shape)));
      if (one_sided) DrawFronts(*geometry, filtered);
      const Aabb bounds = canvas_.PixelBounds(*geometry);
      // Shapes smaller than their id would be buried under it.
      if (options_.labels &&
          std::max(bounds.upper.x - bounds.lower.x,
                   bounds.upper.y - bounds.lower.y) >= kMinLabelledShape) {
        canvas_.layer(Layer::kLabels)
            .Label(0.5 * (bounds.lower + bounds.upper) + Vec2{0.0, 3.0},
                   absl::StrCat(shape.id()), "shape-id",
                   " text-anchor=\"middle\"");
      }
    }
  }

  // A tick from each segment's midpoint towards its front (the left of p1
  // -> p2 in level coordinates), kFrontTick pixels long whatever the zoom
  // and y axis; none for a zero-length segment, which has no front.
  void DrawFronts(const WorldShape& chain, bool filtered) {
    const Projection& projection = canvas_.projection();
    const size_t n = chain.points.size();
    const size_t segments = chain.closed ? n : n - 1;
    for (size_t i = 0; i < segments; ++i) {
      const Vec2 a = chain.points[i];
      const Vec2 b = chain.points[(i + 1) % n];
      if (a == b) continue;
      const Vec2 middle = projection.ToPicture(0.5 * (a + b));
      const Vec2 front = projection.Direction(Vec2{a.y - b.y, b.x - a.x});
      const Vec2 tick[2] = {middle, middle + kFrontTick * front};
      canvas_.layer(Layer::kLevel)
          .Chain(tick, false,
                 filtered ? " class=\"front filtered\"" : " class=\"front\"",
                 "");
    }
  }

  // `result`'s answer when it is OK and has one, else nullptr; notes a
  // missing answer (a failed query's error is noted by DrawQuery).
  template <typename Answer>
  const Answer* AnswerOf(absl::string_view tag, const v1::QueryResult& result,
                         bool has_answer, const Answer& answer,
                         absl::string_view what) {
    if (result.status().code() != 0) return nullptr;
    if (!has_answer) {
      canvas_.Note(absl::StrCat(tag, ": no ", what, " result"));
      return nullptr;
    }
    return &answer;
  }

  void DrawQuery(int index, const RenderedQuery& rendered) {
    const v1::Query& query = rendered.query;
    const v1::QueryResult& result = rendered.result;
    const std::string tag = absl::StrCat("#", query.request_id());
    if (result.status().code() != 0) {
      canvas_.Note(absl::StrCat(tag, ": ", StatusName(result.status().code()),
                                ": ", result.status().message()));
    }
    const char* colour = kPalette[index % std::size(kPalette)];
    switch (query.query_case()) {
      case v1::Query::kRayCast:
      case v1::Query::kCircleCast:
      case v1::Query::kPolygonCast:
      case v1::Query::kCapsuleCast: {
        const std::optional<CastGeometry> cast =
            svg_internal::CastGeometryOf(query);
        if (!cast) return NoteUndrawable(tag);
        DrawCast(
            tag, CastKind(query), *cast,
            svg_internal::TurnGeometryOf(query, cast->shape),
            AnswerOf(tag, result, result.has_cast(), result.cast(), "cast"),
            colour);
        return;
      }
      case v1::Query::kOverlap: {
        const std::optional<WorldShape> shape =
            svg_internal::OverlapShapeOf(query.overlap());
        if (!shape) return NoteUndrawable(tag);
        DrawOverlap(tag, *shape,
                    AnswerOf(tag, result, result.has_overlap(),
                             result.overlap(), "overlap"),
                    colour);
        return;
      }
      case v1::Query::kClosestPoint: {
        const v1::ClosestPointQuery& closest = query.closest_point();
        if (!InRange(closest.point())) return NoteUndrawable(tag);
        DrawClosestPoint(tag, closest,
                         AnswerOf(tag, result, result.has_closest_point(),
                                  result.closest_point(), "closest point"),
                         colour);
        return;
      }
      case v1::Query::kMoveValidation: {
        const std::optional<CastGeometry> move =
            svg_internal::MoveGeometryOf(query.move_validation());
        if (!move) return NoteUndrawable(tag);
        svg_internal::DrawMoveValidation(
            canvas_, tag, *move,
            AnswerOf(tag, result, result.has_move_validation(),
                     result.move_validation(), "move validation"),
            colour);
        return;
      }
      case v1::Query::kHitValidation: {
        const v1::HitValidationQuery& shot = query.hit_validation();
        if (!svg_internal::ShotGeometryOf(shot)) return NoteUndrawable(tag);
        svg_internal::DrawHitValidation(
            canvas_, tag, shot,
            AnswerOf(tag, result, result.has_hit_validation(),
                     result.hit_validation(), "hit validation"),
            colour);
        return;
      }
      case v1::Query::kPairToi: {
        const v1::PairToiQuery& pair = query.pair_toi();
        if (!svg_internal::MovingShapeGeometryOf(pair.a()) ||
            !svg_internal::MovingShapeGeometryOf(pair.b())) {
          return NoteUndrawable(tag);
        }
        svg_internal::DrawPairToi(canvas_, tag, pair,
                                  AnswerOf(tag, result, result.has_pair_toi(),
                                           result.pair_toi(), "pair TOI"),
                                  colour);
        return;
      }
      case v1::Query::kVisibility:
        svg_internal::DrawVisibility(
            canvas_, tag, query.visibility(),
            AnswerOf(tag, result, result.has_visibility(), result.visibility(),
                     "visibility"),
            colour);
        return;
      case v1::Query::kVisibilityPolygon:
        svg_internal::DrawVisibilityPolygon(
            canvas_, tag, query.visibility_polygon(),
            AnswerOf(tag, result, result.has_visibility_polygon(),
                     result.visibility_polygon(), "visibility polygon"),
            colour);
        return;
      case v1::Query::QUERY_NOT_SET:
        NoteUnknownKind(tag, query);
        return;
      default: {
        // A kind the proto knows but this renderer does not draw yet.
        const google::protobuf::FieldDescriptor* field =
            v1::Query::descriptor()->FindFieldByNumber(query.query_case());
        canvas_.Note(
            absl::StrCat(tag, ": not drawn: ", field ? field->name() : "this",
                         " queries are new to this renderer"));
        return;
      }
    }
  }

  void NoteUndrawable(absl::string_view tag) {
    canvas_.Note(
        absl::StrCat(tag,
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
      canvas_.Note(absl::StrCat(tag, ": no query set"));
    } else {
      canvas_.Note(absl::StrCat(tag,
                                ": not drawn: query kind unknown to this "
                                "renderer (field ",
                                absl::StrJoin(numbers, ", "), ")"));
    }
  }

  // `turn`: the cast turns; its swept arc, poses and contact poses are
  // drawn turned.
  void DrawCast(absl::string_view tag, const char* kind,
                const CastGeometry& cast,
                const std::optional<svg_internal::TurnGeometry>& turn,
                const v1::CastResult* result, const char* query_colour) {
    std::vector<const v1::CastHit*> hits;
    if (result != nullptr) {
      for (const v1::CastHit& hit : result->hits()) {
        if (InRange(hit.fraction()) && InRange(hit.point()) &&
            InRange(hit.normal())) {
          hits.push_back(&hit);
        } else {
          canvas_.Note(absl::StrCat(tag, ": a hit on shape ", hit.shape_id(),
                                    " has numbers out of range, not drawn"));
        }
      }
    }
    const char* colour = hits.empty() ? kMissColour : query_colour;
    canvas_.Use(hits.empty() ? kRoleMiss : kRoleStart);
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

    // A ray is solid up to the first hit, dashed beyond it.
    const Aabb start_bounds =
        turn ? svg_internal::DrawTurningMotion(
                   canvas_, cast.shape, cast.translation, *turn, colour, title)
             : canvas_.Motion(
                   cast.shape, cast.translation, colour, title,
                   {.as_ray = cast.is_ray,
                    .solid_until = hits.empty() ? 1.0 : hits[0]->fraction()});

    for (const v1::CastHit* hit : hits) {
      const bool initial = hit->status() == v1::HIT_STATUS_INITIAL_OVERLAP;
      canvas_.Use(initial ? kRoleInitialOverlap : kRoleContact);
      const std::string hit_title = absl::StrCat(
          tag, initial ? " initial overlap" : " hit", " with shape ",
          hit->shape_id(), " at t=", FormatNumber(hit->fraction()),
          initial ? absl::StrCat(", depth ", FormatNumber(hit->depth())) : "");
      if (!cast.is_ray) {
        const char* hit_colour = initial ? kInitialOverlapColour : colour;
        canvas_.Shape(
            Layer::kHits,
            turn ? svg_internal::Posed(cast.shape, cast.translation, *turn,
                                       hit->fraction())
                 : Translated(cast.shape, hit->fraction() * cast.translation),
            Attributes("toi", hit_colour, hit_colour), hit_title);
        if (!initial) canvas_.Use(kRoleToi);
      }
      canvas_.Contact(FromProto(hit->point()), FromProto(hit->normal()),
                      initial ? kInitialOverlapColour : kContactColour,
                      initial
                          ? std::string("overlap")
                          : absl::StrCat("t=", FormatShort(hit->fraction())),
                      initial ? kInitialOverlapColour : colour, hit_title);
    }
    canvas_.TagLabel(tag, start_bounds, colour);
  }

  void DrawOverlap(absl::string_view tag, const WorldShape& shape,
                   const v1::OverlapResult* result, const char* query_colour) {
    const bool any = result != nullptr && result->shapes_size() > 0;
    const char* colour = any ? query_colour : kMissColour;
    canvas_.Use(any ? kRoleStart : kRoleMiss);
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
          canvas_.Note(absl::StrCat(tag, ": overlapped shape ", ref.shape_id(),
                                    " is not drawn in this level"));
          continue;
        }
        canvas_.Use(kRoleOverlapped);
        // In the query's colour, so each overlap query's shapes stand out
        // as its own.
        canvas_.Shape(
            Layer::kOverlapped, *geometry,
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
    canvas_.Shape(Layer::kOutlines, shape, Attributes("probe", colour, colour),
                  title);
    canvas_.TagLabel(tag, canvas_.PixelBounds(shape), colour);
  }

  void DrawClosestPoint(absl::string_view tag,
                        const v1::ClosestPointQuery& query,
                        const v1::ClosestPointResult* result,
                        const char* query_colour) {
    const bool found =
        result != nullptr && result->found() && InRange(result->point());
    const char* colour = found ? query_colour : kMissColour;
    canvas_.Use(found ? kRoleClosest : kRoleMiss);
    SvgLayer& outlines = canvas_.layer(Layer::kOutlines);
    const Vec2 point = projection().ToPicture(FromProto(query.point()));
    if (query.has_max_distance() && InRange(query.max_distance()) &&
        query.max_distance() > 0.0) {
      canvas_.Use(kRoleSearch);
      const Vec2 center[1] = {point};
      outlines.Rounded(center, projection().ToPixels(query.max_distance()),
                       Attributes("search", "", colour), "");
    }
    std::string title = absl::StrCat(tag, " closest point: ");
    if (found) {
      absl::StrAppend(&title, "shape ", result->shape_id(), " at distance ",
                      FormatNumber(result->distance()));
      const Vec2 nearest = projection().ToPicture(FromProto(result->point()));
      const Vec2 line[2] = {point, nearest};
      outlines.Chain(line, /*closed=*/false, Attributes("closest", "", colour),
                     "");
      canvas_.layer(Layer::kMarkers)
          .Dot(nearest, kContactRadius,
               Attributes("contact", kContactColour, ""), title);
      if (options_.labels) {
        canvas_.layer(Layer::kLabels)
            .Label(0.5 * (point + nearest) + Vec2{4.0, -4.0},
                   absl::StrCat("d=", FormatShort(result->distance())), "label",
                   absl::StrCat(" fill=\"", colour, "\""));
      }
    } else {
      absl::StrAppend(&title, result == nullptr ? "no result" : "none found");
    }
    canvas_.layer(Layer::kMarkers)
        .Dot(point, kPointRadius, Attributes("start", "#ffffff", colour),
             title);
    canvas_.TagLabel(tag, BoundsOf(std::vector<Vec2>{point}, kPointRadius),
                     colour);
  }

  std::string Document(size_t query_count) {
    const Frame& frame = canvas_.frame();
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
    const svg_internal::Legend legend =
        svg_internal::DrawLegend({.summary = std::move(summary),
                                  .roles = canvas_.roles(),
                                  .notes = canvas_.notes()},
                                 frame.width, frame.height);
    const int total_height = frame.height + legend.height;
    return absl::StrCat(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"",
        frame.width, "\" height=\"", total_height, "\" viewBox=\"0 0 ",
        frame.width, " ", total_height, "\">\n<title>",
        svg_internal::EscapeXml(absl::StrCat("collide level ", level_.id(),
                                             ", ", query_count, " queries")),
        "</title>\n<style type=\"text/css\"><![CDATA[", svg_internal::kStyle,
        "]]></style>\n<rect x=\"0\" y=\"0\" width=\"", frame.width,
        "\" height=\"", total_height, "\" fill=\"#ffffff\"/>\n",
        // The drawing in its own viewport, which clips whatever reaches
        // past it (shapes are only cut to a margin around it).
        "<svg x=\"0\" y=\"0\" width=\"", frame.width, "\" height=\"",
        frame.height, "\">\n", canvas_.Groups(), "</svg>\n", legend.svg,
        "</svg>\n");
  }

  const v1::Level& level_;
  const RenderOptions& options_;
  Canvas canvas_;
  absl::flat_hash_map<uint64_t, int> shape_index_;
  int undrawn_shapes_ = 0;
  double grid_cell_ = 0.0;
};

// What the default view must hold: the level's shapes and every query's
// shapes, hit points and closest points (and for the validation queries,
// the poses their results name).
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
      if (const std::optional<svg_internal::TurnGeometry> turn =
              svg_internal::TurnGeometryOf(query, cast->shape)) {
        bounds = svg_internal::Union(
            bounds,
            svg_internal::TurningBounds(cast->shape, cast->translation, *turn));
      }
    } else if (query.has_overlap()) {
      if (std::optional<WorldShape> shape =
              svg_internal::OverlapShapeOf(query.overlap())) {
        bounds = svg_internal::Union(bounds, BoundsOf(*shape));
      }
    } else if (query.has_closest_point()) {
      add_point(query.closest_point().point());
    } else if (query.has_visibility() || query.has_visibility_polygon()) {
      bounds = svg_internal::Union(
          bounds, svg_internal::VisibilityBounds(query, rendered.result));
    } else {
      bounds = svg_internal::Union(
          bounds, svg_internal::ValidationBounds(query, rendered.result));
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
  Frame frame = FrameFor(view, options.width_px);
  const v1::YAxis y_axis = options.y_axis != v1::Y_AXIS_UNSPECIFIED
                               ? options.y_axis
                               : level.y_axis();
  frame.y_down = y_axis == v1::Y_AXIS_DOWN;
  return Renderer(level, options, frame).Render(queries);
}

}  // namespace collide::client
