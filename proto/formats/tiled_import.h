// Levels from Tiled maps: converts a map of the Tiled editor saved
// as JSON (.tmj, or .json; orthogonal orientation) into a v1::Level, the
// level file format. The server loads such maps directly (level_file.h);
// `collide-cli import-tiled` writes them out as level files.
//
// What counts as collision geometry: every object and tile of a "collision
// layer" (a layer named "collision", any case, or one named in
// collision_layers; a group marks everything inside it), overridden by a
// bool custom property `collision` on a layer or an object. Objects map to
// shapes: rectangle -> box (angle from the rotation), ellipse with
// width == height -> circle (any other ellipse is an error), capsule ->
// capsule, polygon -> polygon (solid, either winding), polyline -> open
// polyline, point -> nothing; a tile object or a tile of a tile layer ->
// the collision shapes of its tile in the tileset (Tiled's tile collision
// editor), or the tile's whole rectangle when it has none. Text objects and
// template instances are errors. Invisible layers and objects count unless
// skip_hidden (a collision layer is often hidden in the editor).
//
// Coordinates: Tiled's pixels, y pointing down, unchanged by default (the
// game server that also reads the map queries with the same numbers); layer
// offsets (offsetx/offsety, accumulated through groups), object rotations
// (clockwise about the object's x, y) and tile flips are applied, parallax
// is not (it only moves the picture).
//
// Ids: a shape made from an object has the object's id (unique in a map);
// each shape made from a tile (tile layer cell or tile object) gets the
// next id from kTiledTileShapeIdBase, in file order (layers bottom to top,
// cells row by row), so tile shapes never collide with object ids.
// user_data and category_bits: the custom integer property `user_data` /
// `category_bits` of the nearest owner (a tile's collision object, the tile
// in its tileset, the map object, then the layers outwards); without one,
// user_data is the object id (for a tile object's shapes too) or the tile's
// gid (without flip flags) for a tile layer cell, and category_bits is
// absent (the default category 1).
//
// Every error is INVALID_ARGUMENT naming the layer, the object (or cell and
// tile) and the field, e.g. `layer "walls" object 12: ellipse of width 32
// and height 16 is not a circle ...`.
#ifndef COLLIDE_FORMATS_TILED_IMPORT_H_
#define COLLIDE_FORMATS_TILED_IMPORT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/tiled_options.h"

namespace collide::formats {

// Converts the Tiled map `json` (the text of a .tmj file) into a level.
// Only the Tiled format is checked: validate the level with LevelFromProto
// (limits, ids) before serving it.
absl::StatusOr<v1::Level> LevelFromTiledMap(absl::string_view json,
                                            const TiledImportOptions& options);

// Whether `contents` is a JSON object with a top-level "tiledversion" or
// "orientation" key: a Tiled map or tileset, never a protobuf JSON Level
// (which has neither field). Reads without building a document.
bool LooksLikeTiledMap(absl::string_view contents);

// A TiledFileReader that reads a source relative to the directory of
// `map_path`, refusing files larger than max_bytes.
TiledFileReader TilesetReaderBeside(const std::string& map_path,
                                    int64_t max_bytes);

// For `collide-cli import-tiled MAP.tmj -o LEVEL.json`: reads the map at
// `path` (at most max_bytes, as every tileset it references), resolving
// external tilesets beside it unless options.read_tileset is set, and
// converts it. The level id is options.level_id, or else the file name
// without its extension ("maps/arena.tmj" -> "arena"). Errors start with
// `path`; a missing file is NOT_FOUND. Write the result with LevelToJson or
// WriteLevelFile (level_file.h).
absl::StatusOr<v1::Level> ReadTiledMapFile(const std::string& path,
                                           TiledImportOptions options,
                                           int64_t max_bytes = 64 << 20);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_TILED_IMPORT_H_
