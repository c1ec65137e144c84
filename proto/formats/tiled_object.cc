#include "proto/formats/tiled_object.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/number_text.h"
#include "collide/shapes.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"

namespace collide::formats::tiled {
namespace {

// Two lengths count as equal (a circle's width and height, a transform's
// x and y scale) within this relative difference: Tiled stores what the
// editor computed in doubles, so a drawn circle may be off in the last bits.
constexpr double kRelativeTolerance = 1e-9;

bool NearlyEqual(double p, double q) {
  return std::abs(p - q) <=
         kRelativeTolerance * std::max(std::abs(p), std::abs(q));
}

// Whether `t` keeps right angles (a rectangle stays a rectangle).
bool KeepsRightAngles(const Affine& t) {
  const Vec2 x = t.XAxis();
  const Vec2 y = t.YAxis();
  return std::abs(Dot(x, y)) <= kRelativeTolerance * Length(x) * Length(y);
}

// Whether `t` is a similarity (a circle stays a circle), and its scale.
std::optional<double> SimilarityScale(const Affine& t) {
  const double sx = Length(t.XAxis());
  const double sy = Length(t.YAxis());
  if (!KeepsRightAngles(t) || !NearlyEqual(sx, sy)) return std::nullopt;
  return 0.5 * (sx + sy);
}

void SetVec2(Vec2 v, v1::Vec2* out) {
  out->set_x(v.x);
  out->set_y(v.y);
}

absl::Status CheckInRange(Vec2 p, const Where& where) {
  if (IsInRange(p)) return absl::OkStatus();
  return Invalid(where, absl::StrCat("a coordinate (", NumberText(p.x), ", ",
                                     NumberText(p.y), ") is beyond +-",
                                     NumberText(kMaxCoordinate)));
}

v1::Shape* AddShape(const ShapeTags& tags, v1::Level& out) {
  v1::Shape* shape = out.add_shapes();
  shape->set_id(tags.id);
  if (tags.category_bits.has_value()) {
    shape->set_category_bits(*tags.category_bits);
  }
  shape->set_user_data(tags.user_data);
  if (tags.mask_bits.has_value()) shape->set_mask_bits(*tags.mask_bits);
  shape->set_group(tags.group);
  shape->set_one_sided(tags.one_sided);
  return shape;
}

absl::Status CheckPositive(double value, const char* field,
                           absl::string_view kind, const Where& where) {
  if (value > 0.0) return absl::OkStatus();
  return Invalid(where,
                 absl::StrCat(kind, " field \"", field, "\" must be > 0, got ",
                              NumberText(value)));
}

// Points of a "polygon" or "polyline" array: [{"x": 1, "y": 2}, ...].
absl::StatusOr<std::vector<Vec2>> ReadPoints(const Json& array,
                                             const char* field,
                                             const Where& where) {
  if (!array.is_array()) {
    return Invalid(where, absl::StrCat("field \"", field,
                                       "\" must be an array of points, got ",
                                       JsonTypeName(array)));
  }
  std::vector<Vec2> points;
  points.reserve(array.size());
  for (size_t i = 0; i < array.size(); ++i) {
    const Json& point = array[i];
    const std::string name = absl::StrCat(field, "[", i, "]");
    if (!point.is_object()) {
      return Invalid(where, absl::StrCat("field \"", name,
                                         "\" must be an object {x, y}, got ",
                                         JsonTypeName(point)));
    }
    Vec2 p;
    for (const char* axis : {"x", "y"}) {
      const auto it = point.find(axis);
      if (it == point.end() || !it->is_number()) {
        return Invalid(
            where, absl::StrCat(
                       "field \"", name, ".", axis, "\" ",
                       it == point.end() ? "is missing" : "must be a number"));
      }
      (axis[0] == 'x' ? p.x : p.y) = it->get<double>();
    }
    points.push_back(p);
  }
  return points;
}

}  // namespace

Affine Compose(const Affine& o, const Affine& i) {
  return {.a = o.a * i.a + o.b * i.c,
          .b = o.a * i.b + o.b * i.d,
          .c = o.c * i.a + o.d * i.c,
          .d = o.c * i.b + o.d * i.d,
          .tx = o.a * i.tx + o.b * i.ty + o.tx,
          .ty = o.c * i.tx + o.d * i.ty + o.ty};
}

Affine Translation(double x, double y) { return {.tx = x, .ty = y}; }

Affine Scaling(double sx, double sy) { return {.a = sx, .d = sy}; }

Affine RotationDegrees(double degrees) {
  double turned = std::fmod(degrees, 360.0);
  if (turned < 0.0) turned += 360.0;
  double cosine;
  double sine;
  // Quarter turns exactly (std::cos(pi / 2) is 6e-17, not 0).
  if (turned == 0.0) {
    cosine = 1.0;
    sine = 0.0;
  } else if (turned == 90.0) {
    cosine = 0.0;
    sine = 1.0;
  } else if (turned == 180.0) {
    cosine = -1.0;
    sine = 0.0;
  } else if (turned == 270.0) {
    cosine = 0.0;
    sine = -1.0;
  } else {
    const double radians = turned * (std::numbers::pi / 180.0);
    cosine = std::cos(radians);
    sine = std::sin(radians);
  }
  // Clockwise on a y-down screen is R(angle) on the coordinates.
  return {.a = cosine, .b = -sine, .c = sine, .d = cosine};
}

absl::StatusOr<TiledObject> ReadObject(const Json& object, const Where& where) {
  if (!object.is_object()) {
    return Invalid(where, absl::StrCat("an object must be a JSON object, got ",
                                       JsonTypeName(object)));
  }
  if (object.contains("template")) {
    return Invalid(where,
                   "field \"template\": template instances are not supported "
                   "(their fields live in the template file); detach the "
                   "template in Tiled (Object > Detach Template)");
  }
  if (object.contains("text")) {
    return Invalid(where,
                   "field \"text\": a text object has no collision geometry; "
                   "move it to another layer or give it the collision "
                   "property false");
  }
  TiledObject result;
  absl::StatusOr<int64_t> id = IntegerField(object, "id", where, -1);
  if (!id.ok()) return id.status();
  result.id = *id;
  absl::StatusOr<double> x = NumberField(object, "x", where, std::nullopt);
  if (!x.ok()) return x.status();
  absl::StatusOr<double> y = NumberField(object, "y", where, std::nullopt);
  if (!y.ok()) return y.status();
  absl::StatusOr<double> rotation = NumberField(object, "rotation", where, 0.0);
  if (!rotation.ok()) return rotation.status();
  absl::StatusOr<double> width = NumberField(object, "width", where, 0.0);
  if (!width.ok()) return width.status();
  absl::StatusOr<double> height = NumberField(object, "height", where, 0.0);
  if (!height.ok()) return height.status();
  absl::StatusOr<bool> visible = BoolField(object, "visible", where, true);
  if (!visible.ok()) return visible.status();
  result.width = *width;
  result.height = *height;
  result.visible = *visible;
  // Every object turns about its own origin (x, y): the top-left corner of
  // a rectangle or an ellipse's bounding box, the reference point of a
  // polygon's points, the alignment point of a tile.
  result.to_parent = Compose(Translation(*x, *y), RotationDegrees(*rotation));

  absl::StatusOr<bool> point = BoolField(object, "point", where, false);
  if (!point.ok()) return point.status();
  absl::StatusOr<bool> ellipse = BoolField(object, "ellipse", where, false);
  if (!ellipse.ok()) return ellipse.status();
  absl::StatusOr<bool> capsule = BoolField(object, "capsule", where, false);
  if (!capsule.ok()) return capsule.status();
  if (*point) {
    result.kind = ObjectKind::kPoint;
  } else if (*ellipse) {
    result.kind = ObjectKind::kEllipse;
  } else if (*capsule) {
    result.kind = ObjectKind::kCapsule;
  } else if (const auto polygon = object.find("polygon");
             polygon != object.end()) {
    result.kind = ObjectKind::kPolygon;
    absl::StatusOr<std::vector<Vec2>> points =
        ReadPoints(*polygon, "polygon", where);
    if (!points.ok()) return points.status();
    result.points = *std::move(points);
  } else if (const auto polyline = object.find("polyline");
             polyline != object.end()) {
    result.kind = ObjectKind::kPolyline;
    absl::StatusOr<std::vector<Vec2>> points =
        ReadPoints(*polyline, "polyline", where);
    if (!points.ok()) return points.status();
    result.points = *std::move(points);
  } else if (object.contains("gid")) {
    result.kind = ObjectKind::kTile;
    absl::StatusOr<int64_t> gid = IntegerField(object, "gid", where, 0);
    if (!gid.ok()) return gid.status();
    if (*gid <= 0 || *gid > int64_t{0xFFFFFFFF}) {
      return Invalid(where, absl::StrCat("field \"gid\" must be in [1, 2^32), "
                                         "got ",
                                         *gid));
    }
    result.gid_with_flags = static_cast<uint32_t>(*gid);
  } else {
    result.kind = ObjectKind::kRectangle;
  }
  return result;
}

absl::Status AppendRectangle(double width, double height,
                             const Affine& to_level, const ShapeTags& tags,
                             const Where& where, v1::Level& out) {
  if (absl::Status s = CheckPositive(width, "width", "rectangle", where);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckPositive(height, "height", "rectangle", where);
      !s.ok()) {
    return s;
  }
  const Vec2 corners[] = {
      to_level.Apply({0.0, 0.0}), to_level.Apply({width, 0.0}),
      to_level.Apply({width, height}), to_level.Apply({0.0, height})};
  for (const Vec2 corner : corners) {
    if (absl::Status s = CheckInRange(corner, where); !s.ok()) return s;
  }
  if (!KeepsRightAngles(to_level)) {
    // A non-uniformly scaled tile turned by its collision object: the
    // rectangle became a parallelogram.
    v1::Polygon* polygon = AddShape(tags, out)->mutable_polygon();
    for (const Vec2 corner : corners) SetVec2(corner, polygon->add_vertices());
    return absl::OkStatus();
  }
  const Vec2 x_axis = to_level.XAxis();
  v1::Box* box = AddShape(tags, out)->mutable_box();
  SetVec2(to_level.Apply({0.5 * width, 0.5 * height}), box->mutable_center());
  SetVec2(
      {0.5 * width * Length(x_axis), 0.5 * height * Length(to_level.YAxis())},
      box->mutable_half_extents());
  // The box's local x axis is the image of the rectangle's; its y axis may
  // point the other way (a mirrored frame), which a box, symmetric about
  // both axes, does not notice.
  box->set_angle_radians(std::atan2(x_axis.y, x_axis.x));
  return absl::OkStatus();
}

absl::Status AppendShape(const TiledObject& object, const Affine& to_level,
                         const ShapeTags& tags, const Where& where,
                         v1::Level& out) {
  const double w = object.width;
  const double h = object.height;
  switch (object.kind) {
    case ObjectKind::kPoint:
      return absl::OkStatus();
    case ObjectKind::kTile:
      return absl::InternalError("AppendShape called on a tile object");
    case ObjectKind::kRectangle:
      return AppendRectangle(w, h, to_level, tags, where, out);
    case ObjectKind::kEllipse: {
      if (absl::Status s = CheckPositive(w, "width", "ellipse", where);
          !s.ok()) {
        return s;
      }
      if (absl::Status s = CheckPositive(h, "height", "ellipse", where);
          !s.ok()) {
        return s;
      }
      if (!NearlyEqual(w, h)) {
        return Invalid(where,
                       absl::StrCat("ellipse of width ", NumberText(w),
                                    " and height ", NumberText(h),
                                    " is not a circle (collide has circles "
                                    "only: make width equal height, or draw "
                                    "a polygon)"));
      }
      const std::optional<double> scale = SimilarityScale(to_level);
      if (!scale.has_value()) {
        return Invalid(where,
                       "circle scaled unevenly by its tile object (an "
                       "ellipse): give the tile object its tile's aspect "
                       "ratio");
      }
      v1::Circle* circle = AddShape(tags, out)->mutable_circle();
      const Vec2 center = to_level.Apply({0.5 * w, 0.5 * h});
      if (absl::Status s = CheckInRange(center, where); !s.ok()) return s;
      SetVec2(center, circle->mutable_center());
      circle->set_radius(0.25 * (w + h) * *scale);
      return absl::OkStatus();
    }
    case ObjectKind::kCapsule: {
      if (absl::Status s = CheckPositive(w, "width", "capsule", where);
          !s.ok()) {
        return s;
      }
      if (absl::Status s = CheckPositive(h, "height", "capsule", where);
          !s.ok()) {
        return s;
      }
      const std::optional<double> scale = SimilarityScale(to_level);
      if (!scale.has_value()) {
        return Invalid(where,
                       "capsule scaled unevenly by its tile object: give the "
                       "tile object its tile's aspect ratio");
      }
      // The stadium inscribed in the w x h box: its axis runs along the
      // longer side, inset by the radius at both ends.
      const double radius = 0.5 * std::min(w, h);
      const Vec2 p1 = w >= h ? Vec2{radius, 0.5 * h} : Vec2{0.5 * w, radius};
      const Vec2 p2 =
          w >= h ? Vec2{w - radius, 0.5 * h} : Vec2{0.5 * w, h - radius};
      v1::Capsule* capsule = AddShape(tags, out)->mutable_capsule();
      for (const Vec2 end : {to_level.Apply(p1), to_level.Apply(p2)}) {
        if (absl::Status s = CheckInRange(end, where); !s.ok()) return s;
      }
      SetVec2(to_level.Apply(p1), capsule->mutable_p1());
      SetVec2(to_level.Apply(p2), capsule->mutable_p2());
      capsule->set_radius(radius * *scale);
      return absl::OkStatus();
    }
    case ObjectKind::kPolygon:
    case ObjectKind::kPolyline: {
      const bool is_polygon = object.kind == ObjectKind::kPolygon;
      const size_t minimum = is_polygon ? 3 : 2;
      const char* field = is_polygon ? "polygon" : "polyline";
      if (object.points.size() < minimum) {
        return Invalid(
            where,
            absl::StrCat("field \"", field, "\" needs at least ", minimum,
                         " points, got ", object.points.size()));
      }
      std::vector<Vec2> vertices;
      vertices.reserve(object.points.size());
      for (const Vec2 p : object.points) {
        vertices.push_back(to_level.Apply(p));
        if (absl::Status s = CheckInRange(vertices.back(), where); !s.ok()) {
          return s;
        }
      }
      if (is_polygon) {
        // What the level will require (simple, non-zero area), checked here
        // so the error names the Tiled object instead of a shape index.
        absl::StatusOr<ConcavePolygon> simple = MakeConcavePolygon(vertices);
        if (!simple.ok()) {
          return Invalid(where, absl::StrCat("field \"polygon\": ",
                                             simple.status().message()));
        }
      }
      v1::Shape* shape = AddShape(tags, out);
      auto* list = is_polygon ? shape->mutable_polygon()->mutable_vertices()
                              : shape->mutable_polyline()->mutable_vertices();
      list->Reserve(static_cast<int>(vertices.size()));
      for (const Vec2 v : vertices) SetVec2(v, list->Add());
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown object kind");
}

}  // namespace collide::formats::tiled
