// Internal to the Tiled importer (tiled_import.cc): one Tiled object (a map
// object or a tile's collision object) read from its JSON, the affine
// transforms that place it, and its conversion to v1::Shape geometry.
// Everything here works in Tiled's frame: pixels, y pointing down, rotation
// in degrees clockwise on screen (which, with y down, is the mathematical
// rotation R(angle) = [cos -sin; sin cos] applied to coordinates).
//
// Includes nlohmann/json (tiled_json.h): only .cc files compiled without
// exceptions may include this header.
#ifndef COLLIDE_FORMATS_TILED_OBJECT_H_
#define COLLIDE_FORMATS_TILED_OBJECT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "proto/formats/tiled_json.h"

namespace collide::formats::tiled {

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
  std::optional<uint64_t> mask_bits;  // absent: blocks every query category
  int32_t group = 0;
  bool one_sided = false;  // segments and polylines only
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

}  // namespace collide::formats::tiled

#endif  // COLLIDE_FORMATS_TILED_OBJECT_H_
