// What the Tiled importer (tiled_import.h) is told: which layers and
// properties mean collision, which way y points, how external tilesets are
// read. Apart so that the importer's own parts can take the options without
// including the importer.
#ifndef COLLIDE_FORMATS_TILED_OPTIONS_H_
#define COLLIDE_FORMATS_TILED_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace collide::formats {

// The first id given to shapes made from tiles. Tiled object ids are
// 32-bit, so ids from here up are free.
inline constexpr uint64_t kTiledTileShapeIdBase = uint64_t{1} << 32;

// Which way the level's y axis points.
enum class TiledYAxis {
  // Tiled's own: y grows downwards, the map's top-left corner is (0, 0).
  kDown,
  // y grows upwards: y_level = map_height_pixels - y_tiled, so the map's
  // bottom-left corner is (0, 0) (map_height_pixels = height * tileheight;
  // 0 for an infinite map, where the flip is y_level = -y_tiled). Box
  // angles change sign; polygons keep their vertex order (the winding
  // reverses, which levels accept).
  kUp,
};

// Returns the text of the external tileset file `source`, the path as the
// map writes it (relative to the map file's directory unless absolute).
using TiledFileReader =
    std::function<absl::StatusOr<std::string>(absl::string_view source)>;

struct TiledImportOptions {
  // The level's id (v1::Level.id); empty leaves it for the caller to set
  // (the server names a level after its file).
  std::string level_id;
  // Names of the layers (object, tile or group layers, compared ignoring
  // case) whose geometry is collision geometry. Empty: layers named
  // "collision".
  std::vector<std::string> collision_layers;
  // The bool custom property that marks a layer or an object as collision
  // (true) or not (false), overriding its name and its parent layers.
  std::string collision_property = "collision";
  // Integer custom properties giving a shape's category_bits and user_data.
  std::string category_bits_property = "category_bits";
  std::string user_data_property = "user_data";
  // An object's two-way filter and one-sidedness (ShapeDesc): an integer
  // mask_bits (as category_bits), an int group and a bool one_sided, which
  // only a polyline object may set (Tiled's polylines are chains of
  // segments; the front is the left of each segment in level coordinates).
  std::string mask_bits_property = "mask_bits";
  std::string group_property = "group";
  std::string one_sided_property = "one_sided";
  TiledYAxis y_axis = TiledYAxis::kDown;
  // A tile with no collision shapes in a collision layer is solid over its
  // whole rectangle (false: it adds nothing).
  bool solid_tiles_without_shapes = true;
  // Tiles' collision shapes count in every tile layer and for every tile
  // object, collision layer or not (a map whose collision comes from the
  // tileset's collision editor alone). Tiles without shapes outside
  // collision layers still add nothing.
  bool tile_shapes_in_every_layer = false;
  // Layers and objects hidden in the editor ("visible": false) add nothing.
  bool skip_hidden = false;
  // Reads external tilesets ("source": "walls.tsj"); null: a map that needs
  // one is an error (embed the tileset, or use ReadTiledMapFile).
  TiledFileReader read_tileset;
};

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_TILED_OPTIONS_H_
