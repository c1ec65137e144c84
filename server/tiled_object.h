// Internal to the Tiled importer (tiled_import.cc): one Tiled object (a map
// object or a tile's collision object) read from its JSON, the affine
// transforms that place it, and its conversion to v1::Shape geometry.
// Everything here works in Tiled's frame: pixels, y pointing down, rotation
// in degrees clockwise on screen (which, with y down, is the mathematical
// rotation R(angle) = [cos -sin; sin cos] applied to coordinates).
//
// Includes nlohmann/json: only .cc files compiled without exceptions may
// include this header (see server/CMakeLists.txt).
#ifndef COLLIDE_SERVER_TILED_OBJECT_H_
#define COLLIDE_SERVER_TILED_OBJECT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "nlohmann/json.hpp"

namespace collide::server::tiled {

using Json = nlohmann::json;

// p -> (a x + b y + tx, c x + d y + ty).
struct Affine {
  double a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0;

  Vec2 Apply(Vec2 p) const {
    return {a * p.x + b * p.y + tx, c * p.x + d * p.y + ty};
  }
  // The images of the unit x and y directions.
  Vec2 XAxis() const { return {a, c}; }
  Vec2 YAxis() const { return {b, d}; }
};

// outer after inner: Compose(o, i).Apply(p) == o.Apply(i.Apply(p)).
Affine Compose(const Affine& outer, const Affine& inner);
Affine Translation(double x, double y);
Affine Scaling(double sx, double sy);
// Tiled's rotation: `degrees` clockwise on a y-down screen. Exact for
// multiples of 90 degrees, so unrotated and right-angled objects keep exact
// coordinates.
Affine RotationDegrees(double degrees);

// The shape kinds a Tiled object can have.
enum class ObjectKind {
  kRectangle,
  kEllipse,
  kCapsule,
  kPolygon,
  kPolyline,
  kPoint,  // no area, never collision geometry
  kTile,   // a tile object (gid): geometry from the tileset
};

// Where an object is, for error messages: `layer "outer/walls" object 12`.
// Pieces that do not apply are left empty / negative.
struct Where {
  std::string layer;             // the layer path, group names joined by '/'
  int64_t object_id = -1;        // the map object
  int64_t cell_x = 0;            // the tile layer cell (with has_cell)
  int64_t cell_y = 0;            //
  bool has_cell = false;         //
  uint32_t gid = 0;              // the tile's global id (flags cleared)
  std::string tileset;           // the tileset's name, for tile shapes
  int64_t tile_id = -1;          // the tile's id in its tileset
  int64_t collision_index = -1;  // the collision object in the tile

  std::string ToString() const;
};

// A Where naming only the layer at `path`.
Where InLayer(absl::string_view path);

// INVALID_ARGUMENT "{where}: {message}".
absl::Status Invalid(const Where& where, absl::string_view message);

// The JSON type of a value, in words ("a string", "an array").
std::string JsonTypeName(const Json& value);

// Field readers: a missing field gives `fallback` (or an error naming the
// field when there is none); a field of the wrong type is an error naming
// it and the type found.
absl::StatusOr<double> NumberField(const Json& owner, const char* field,
                                   const Where& where,
                                   std::optional<double> fallback);
absl::StatusOr<int64_t> IntegerField(const Json& owner, const char* field,
                                     const Where& where,
                                     std::optional<int64_t> fallback);
absl::StatusOr<bool> BoolField(const Json& owner, const char* field,
                               const Where& where, bool fallback);
absl::StatusOr<std::string> StringField(const Json& owner, const char* field,
                                        const Where& where,
                                        absl::string_view fallback);

// Custom properties ("properties": [{"name", "type", "value"}], or the
// object form {"name": value} of Tiled before 1.2). nullopt when `owner`
// has no property `name`; an error when it has one of another type.
absl::StatusOr<std::optional<bool>> BoolProperty(const Json& owner,
                                                 absl::string_view name,
                                                 const Where& where);
// An unsigned 64-bit integer: a non-negative int property, or a string of
// decimal digits (Tiled's int properties are 32-bit).
absl::StatusOr<std::optional<uint64_t>> Uint64Property(const Json& owner,
                                                       absl::string_view name,
                                                       const Where& where);

// What the importer reads from one object.
struct TiledObject {
  int64_t id = -1;  // -1 when the object has none (tile collision objects)
  ObjectKind kind = ObjectKind::kRectangle;
  double width = 0.0;
  double height = 0.0;
  // Polygon and polyline points, relative to the object's origin.
  std::vector<Vec2> points;
  // The global tile id with its flip flags (kTile only).
  uint32_t gid_with_flags = 0;
  bool visible = true;
  // Local frame (origin at the object's x, y, rotated) -> parent frame.
  Affine to_parent;
};

// Reads `object` (must be a JSON object). Errors name `where` and the field:
// templates and text objects are rejected (no geometry the importer can
// read), as are fields of the wrong type.
absl::StatusOr<TiledObject> ReadObject(const Json& object, const Where& where);

// Shape identity and filtering for one emitted shape.
struct ShapeTags {
  uint64_t id = 0;
  std::optional<uint64_t> category_bits;  // absent: the default category 1
  uint64_t user_data = 0;
};

// Appends to `out` the shapes of a rectangle, ellipse, capsule, polygon or
// polyline `object` whose local frame maps to the level by `to_level`
// (including the object's own to_parent). Rectangles become boxes when
// `to_level` keeps right angles (else polygons); ellipses must be circles,
// and capsules and circles need a transform that scales both axes alike.
// Points add nothing. kTile is the caller's (tiles carry their own shapes).
absl::Status AppendShape(const TiledObject& object, const Affine& to_level,
                         const ShapeTags& tags, const Where& where,
                         v1::Level& out);

// Appends a solid rectangle [0, width] x [0, height] of the frame `to_level`
// maps (a tile with no collision shapes of its own).
absl::Status AppendRectangle(double width, double height,
                             const Affine& to_level, const ShapeTags& tags,
                             const Where& where, v1::Level& out);

}  // namespace collide::server::tiled

#endif  // COLLIDE_SERVER_TILED_OBJECT_H_
