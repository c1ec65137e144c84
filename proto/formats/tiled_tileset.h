// Internal to the Tiled importer: a map's tilesets, embedded or external
// (read through TiledImportOptions::read_tileset when a tile first needs
// one, so a map whose tiles add no collision loads without its tileset
// files), and each tile's collision shapes, read once.
//
// Includes nlohmann/json (tiled_json.h): only .cc files compiled without
// exceptions may include this header.
#ifndef COLLIDE_FORMATS_TILED_TILESET_H_
#define COLLIDE_FORMATS_TILED_TILESET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/formats/tiled_json.h"
#include "proto/formats/tiled_object.h"
#include "proto/formats/tiled_options.h"

namespace collide::formats::tiled {

// The top bits of a gid say how the tile is flipped (Tiled's JSON format).
inline constexpr uint32_t kFlippedHorizontally = 0x80000000u;
inline constexpr uint32_t kFlippedVertically = 0x40000000u;
inline constexpr uint32_t kFlippedDiagonally = 0x20000000u;
inline constexpr uint32_t kRotatedHexagonal120 = 0x10000000u;
inline constexpr uint32_t kGidMask = 0x0FFFFFFFu;

// One tile's collision data, read from its tileset once.
struct TileInfo {
  // The tile's image size in pixels: the frame of its collision objects.
  double width = 0.0;
  double height = 0.0;
  // The tile has an objectgroup with objects (then its rectangle is not
  // solid by itself, whatever those objects are).
  bool has_collision_objects = false;
  struct CollisionObject {
    TiledObject object;
    std::optional<bool> collision;
    std::optional<uint64_t> category_bits;
    std::optional<uint64_t> user_data;
  };
  std::vector<CollisionObject> objects;
  std::optional<uint64_t> category_bits;
  std::optional<uint64_t> user_data;
};

// One entry of the map's "tilesets": what placing its tiles needs.
struct Tileset {
  int64_t first_gid = 0;
  int index = 0;       // in the map's "tilesets"
  std::string source;  // external file, or empty when embedded
  const Json* embedded = nullptr;
  bool loaded = false;
  Json external;     // an external tileset's document
  std::string name;  // for messages
  double tile_width = 0.0;
  double tile_height = 0.0;
  double offset_x = 0.0;  // "tileoffset": where tiles are drawn
  double offset_y = 0.0;
  // A tile object's alignment point as a fraction of its size.
  double align_x = 0.0;
  double align_y = 1.0;
  bool render_at_grid_size = false;      // "tilerendersize": "grid"
  std::map<int64_t, const Json*> tiles;  // local id -> tile definition
  std::map<int64_t, TileInfo> infos;     // read on first use
};

// The map's tilesets, sorted by first gid.
class TilesetTable {
 public:
  // `options` (property names, skip_hidden, read_tileset) must outlive the
  // table; the grid is the map's cell size (tilewidth x tileheight).
  TilesetTable(const TiledImportOptions& options, double grid_width,
               double grid_height)
      : options_(options), grid_width_(grid_width), grid_height_(grid_height) {}

  // Takes the map's "tilesets" list (reading no external file yet). The
  // map document must outlive the table.
  absl::Status Read(const Json& map);

  // The tileset holding `gid_with_flags` (flags ignored), loaded on first
  // use. Errors name `where`, or the tileset for errors inside it.
  absl::StatusOr<Tileset*> Find(uint32_t gid_with_flags, const Where& where);

  // The collision data of tile `tile_id` of `tileset` (a tile without a
  // definition has none and the tileset's tile size).
  absl::StatusOr<const TileInfo*> Info(Tileset& tileset, int64_t tile_id,
                                       const Where& where);

 private:
  absl::Status Load(Tileset& tileset);

  const TiledImportOptions& options_;
  double grid_width_;
  double grid_height_;
  std::vector<std::unique_ptr<Tileset>> tilesets_;  // by first_gid
};

}  // namespace collide::formats::tiled

#endif  // COLLIDE_FORMATS_TILED_TILESET_H_
