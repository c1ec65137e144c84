// The map walk: layers (groups recursively), which of them are collision,
// tile layer data (CSV arrays or uncompressed base64, fixed-size or in
// chunks) and the placement of tiles. Objects' geometry is
// tiled_object.cc's, tilesets are tiled_tileset.cc's.
#include "proto/formats/tiled_import.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/file_io.h"
#include "proto/formats/tiled_json.h"
#include "proto/formats/tiled_object.h"
#include "proto/formats/tiled_tileset.h"

namespace collide::formats {
namespace {

using tiled::Affine;
using tiled::Compose;
using tiled::Json;
using tiled::kFlippedDiagonally;
using tiled::kFlippedHorizontally;
using tiled::kFlippedVertically;
using tiled::kGidMask;
using tiled::kRotatedHexagonal120;
using tiled::ObjectKind;
using tiled::ShapeTags;
using tiled::TiledObject;
using tiled::TileInfo;
using tiled::Tileset;
using tiled::TilesetTable;
using tiled::Where;

// Group layers nest; deeper than this is a broken or hostile file.
constexpr int kMaxGroupDepth = 64;

// Map-level errors (no layer or object to name).
absl::Status MapError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("map: ", message));
}

// What a layer passes on to what it holds.
struct Scope {
  std::string path;  // layer names from the root, joined by '/'
  Affine to_level;   // the layer's frame -> the level
  bool collision = false;
  bool hidden = false;
  std::optional<uint64_t> category_bits;
  std::optional<uint64_t> user_data;
};

// What a tile's owner (a cell or a tile object) passes on to its shapes.
struct TilePlacement {
  bool owner_is_collision = false;
  std::optional<uint64_t> category_bits;
  std::optional<uint64_t> user_data;
  uint64_t default_user_data = 0;
};

class Importer {
 public:
  Importer(const TiledImportOptions& options, v1::Level& level)
      : options_(options), level_(level) {}

  absl::Status Import(const Json& map);

 private:
  absl::Status ImportLayers(const Json& layers, const Scope& parent, int depth);
  absl::Status ImportLayer(const Json& layer, const Scope& parent, int depth);
  absl::Status ImportObjects(const Json& layer, const Scope& scope);
  // An object's mask_bits, group and one_sided properties into `tags`.
  absl::Status ReadFilterTags(const Json& json, const TiledObject& object,
                              const Where& where, ShapeTags& tags) const;
  absl::Status ImportTileObject(const TiledObject& object, bool collision,
                                const ShapeTags& tags, const Scope& scope,
                                const Where& where);
  absl::Status ImportTileLayer(const Json& layer, const Scope& scope);
  absl::Status ImportCells(const Json& data, absl::string_view encoding,
                           absl::string_view compression, int64_t x0,
                           int64_t y0, int64_t width, int64_t height,
                           const Scope& scope, const Where& where);
  absl::Status AppendTile(uint32_t gid_with_flags, double width, double height,
                          Vec2 top_left, bool sized_by_grid,
                          const Affine& to_level,
                          const TilePlacement& placement, Where where);
  absl::Status CheckUniqueId(int64_t id, const Where& where);
  bool IsCollisionLayerName(absl::string_view name) const;

  const TiledImportOptions& options_;
  v1::Level& level_;
  double grid_width_ = 0.0;
  double grid_height_ = 0.0;
  bool infinite_ = false;
  std::optional<TilesetTable> tilesets_;  // once the grid is known
  std::unordered_map<int64_t, std::string> object_layers_;  // id -> layer
  uint64_t next_tile_shape_id_ = kTiledTileShapeIdBase;
};

absl::Status Importer::Import(const Json& map) {
  if (!map.is_object()) {
    return MapError(absl::StrCat("the document must be a JSON object, got ",
                                 tiled::JsonTypeName(map)));
  }
  Where where;
  where.whole_map = true;
  absl::StatusOr<std::string> type =
      tiled::StringField(map, "type", where, "map");
  if (!type.ok()) return type.status();
  if (*type != "map") {
    return MapError(absl::StrCat("\"type\" is \"", *type,
                                 "\": this is a Tiled ", *type,
                                 " file, not a map"));
  }
  const auto orientation = map.find("orientation");
  if (orientation == map.end()) {
    return MapError("field \"orientation\" is missing");
  }
  if (!orientation->is_string() || *orientation != "orthogonal") {
    return MapError(absl::StrCat(
        "field \"orientation\" is ", orientation->dump(),
        ": only orthogonal maps are supported (isometric, staggered and "
        "hexagonal maps place objects in a projected frame)"));
  }
  absl::StatusOr<bool> infinite =
      tiled::BoolField(map, "infinite", where, false);
  if (!infinite.ok()) return infinite.status();
  infinite_ = *infinite;
  for (auto [field, value] : {std::pair{"tilewidth", &grid_width_},
                              std::pair{"tileheight", &grid_height_}}) {
    const auto it = map.find(field);
    if (it == map.end() || !it->is_number() || !(it->get<double>() > 0.0)) {
      return MapError(absl::StrCat("field \"", field,
                                   "\" must be a number > 0, got ",
                                   it == map.end() ? "nothing" : it->dump()));
    }
    *value = it->get<double>();
  }

  Scope root;
  if (options_.y_axis == TiledYAxis::kUp) {
    double height_pixels = 0.0;
    if (!infinite_) {
      const auto rows = map.find("height");
      if (rows == map.end() || !rows->is_number()) {
        return MapError("field \"height\" (rows) must be a number");
      }
      height_pixels = rows->get<double>() * grid_height_;
    }
    root.to_level = {.d = -1.0, .ty = height_pixels};
  }

  tilesets_.emplace(options_, grid_width_, grid_height_);
  if (absl::Status s = tilesets_->Read(map); !s.ok()) return s;
  const auto layers = map.find("layers");
  if (layers == map.end() || !layers->is_array()) {
    return MapError("field \"layers\" must be an array");
  }
  return ImportLayers(*layers, root, 0);
}

bool Importer::IsCollisionLayerName(absl::string_view name) const {
  if (options_.collision_layers.empty()) {
    return absl::EqualsIgnoreCase(name, "collision");
  }
  for (const std::string& chosen : options_.collision_layers) {
    if (absl::EqualsIgnoreCase(name, chosen)) return true;
  }
  return false;
}

absl::Status Importer::ImportLayers(const Json& layers, const Scope& parent,
                                    int depth) {
  if (depth > kMaxGroupDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("layer \"", parent.path, "\": groups nest deeper than ",
                     kMaxGroupDepth, " levels"));
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    const Json& layer = layers[i];
    if (!layer.is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "layer \"", parent.path, "\": layers[", i, "] must be an object"));
    }
    if (absl::Status s = ImportLayer(layer, parent, depth); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Importer::ImportLayer(const Json& layer, const Scope& parent,
                                   int depth) {
  Where where = tiled::InLayer(parent.path);
  absl::StatusOr<std::string> name =
      tiled::StringField(layer, "name", where, "");
  if (!name.ok()) return name.status();
  Scope scope = parent;
  scope.path =
      parent.path.empty() ? *name : absl::StrCat(parent.path, "/", *name);
  where.layer = scope.path;

  absl::StatusOr<std::string> type =
      tiled::StringField(layer, "type", where, "");
  if (!type.ok()) return type.status();
  absl::StatusOr<bool> visible =
      tiled::BoolField(layer, "visible", where, true);
  if (!visible.ok()) return visible.status();
  scope.hidden = parent.hidden || !*visible;
  if (options_.skip_hidden && scope.hidden) return absl::OkStatus();

  absl::StatusOr<std::optional<bool>> marked =
      tiled::BoolProperty(layer, options_.collision_property, where);
  if (!marked.ok()) return marked.status();
  scope.collision = marked->has_value()
                        ? **marked
                        : (parent.collision || IsCollisionLayerName(*name));
  absl::StatusOr<std::optional<uint64_t>> category =
      tiled::Uint64Property(layer, options_.category_bits_property, where);
  if (!category.ok()) return category.status();
  if (category->has_value()) scope.category_bits = *category;
  absl::StatusOr<std::optional<uint64_t>> user_data =
      tiled::Uint64Property(layer, options_.user_data_property, where);
  if (!user_data.ok()) return user_data.status();
  if (user_data->has_value()) scope.user_data = *user_data;

  absl::StatusOr<double> offset_x =
      tiled::NumberField(layer, "offsetx", where, 0.0);
  if (!offset_x.ok()) return offset_x.status();
  absl::StatusOr<double> offset_y =
      tiled::NumberField(layer, "offsety", where, 0.0);
  if (!offset_y.ok()) return offset_y.status();
  scope.to_level =
      Compose(parent.to_level, tiled::Translation(*offset_x, *offset_y));

  if (*type == "group") {
    const auto children = layer.find("layers");
    if (children == layer.end()) return absl::OkStatus();
    if (!children->is_array()) {
      return tiled::Invalid(where, "field \"layers\" must be an array");
    }
    return ImportLayers(*children, scope, depth + 1);
  }
  if (*type == "objectgroup") return ImportObjects(layer, scope);
  if (*type == "tilelayer") return ImportTileLayer(layer, scope);
  if (*type == "imagelayer") return absl::OkStatus();  // a picture only
  return tiled::Invalid(where,
                        absl::StrCat("field \"type\" is \"", *type,
                                     "\", not one of tilelayer, objectgroup, "
                                     "imagelayer, group"));
}

absl::Status Importer::CheckUniqueId(int64_t id, const Where& where) {
  if (id < 1 || id >= static_cast<int64_t>(kTiledTileShapeIdBase)) {
    return tiled::Invalid(
        where, absl::StrCat("field \"id\" must be in [1, 2^32), got ", id));
  }
  auto [it, inserted] = object_layers_.try_emplace(id, where.layer);
  if (!inserted) {
    return tiled::Invalid(
        where, absl::StrCat("field \"id\" ", id,
                            " is also the id of an object in layer \"",
                            it->second, "\" (object ids are unique in a map)"));
  }
  return absl::OkStatus();
}

absl::Status Importer::ImportObjects(const Json& layer, const Scope& scope) {
  const auto objects = layer.find("objects");
  Where where = tiled::InLayer(scope.path);
  if (objects == layer.end()) return absl::OkStatus();
  if (!objects->is_array()) {
    return tiled::Invalid(where, "field \"objects\" must be an array");
  }
  for (size_t i = 0; i < objects->size(); ++i) {
    const Json& json = (*objects)[i];
    where.object_id = -1;
    if (!json.is_object()) {
      return tiled::Invalid(
          where, absl::StrCat("objects[", i, "] must be an object, got ",
                              tiled::JsonTypeName(json)));
    }
    // Name the object by id in every message once it has a usable one.
    if (const auto id = json.find("id");
        id != json.end() && id->is_number_integer()) {
      where.object_id = id->get<int64_t>();
    }
    absl::StatusOr<std::optional<bool>> own =
        tiled::BoolProperty(json, options_.collision_property, where);
    if (!own.ok()) return own.status();
    const bool collision = own->value_or(scope.collision);
    // Outside collision, only a tile object's own tile shapes can count.
    if (!collision &&
        !(options_.tile_shapes_in_every_layer && json.contains("gid"))) {
      continue;
    }
    absl::StatusOr<TiledObject> object = tiled::ReadObject(json, where);
    if (!object.ok()) return object.status();
    if (options_.skip_hidden && !object->visible) continue;
    if (object->kind == ObjectKind::kPoint) continue;
    if (object->id < 0) {
      return tiled::Invalid(
          where, absl::StrCat("objects[", i, "] field \"id\" is missing"));
    }
    ShapeTags tags;
    absl::StatusOr<std::optional<uint64_t>> category =
        tiled::Uint64Property(json, options_.category_bits_property, where);
    if (!category.ok()) return category.status();
    tags.category_bits =
        category->has_value() ? *category : scope.category_bits;
    absl::StatusOr<std::optional<uint64_t>> user_data =
        tiled::Uint64Property(json, options_.user_data_property, where);
    if (!user_data.ok()) return user_data.status();
    tags.user_data =
        user_data->has_value()
            ? **user_data
            : scope.user_data.value_or(static_cast<uint64_t>(object->id));
    if (absl::Status s = ReadFilterTags(json, *object, where, tags); !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckUniqueId(object->id, where); !s.ok()) return s;
    if (object->kind == ObjectKind::kTile) {
      if (absl::Status s =
              ImportTileObject(*object, collision, tags, scope, where);
          !s.ok()) {
        return s;
      }
      continue;
    }
    tags.id = static_cast<uint64_t>(object->id);
    if (absl::Status s = tiled::AppendShape(
            *object, Compose(scope.to_level, object->to_parent), tags, where,
            level_);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Importer::ReadFilterTags(const Json& json,
                                      const TiledObject& object,
                                      const Where& where,
                                      ShapeTags& tags) const {
  absl::StatusOr<std::optional<uint64_t>> mask =
      tiled::Uint64Property(json, options_.mask_bits_property, where);
  if (!mask.ok()) return mask.status();
  absl::StatusOr<std::optional<int32_t>> group =
      tiled::Int32Property(json, options_.group_property, where);
  if (!group.ok()) return group.status();
  absl::StatusOr<std::optional<bool>> one_sided =
      tiled::BoolProperty(json, options_.one_sided_property, where);
  if (!one_sided.ok()) return one_sided.status();
  // A tile object's shapes come from its tileset, which has no such
  // properties: refused rather than dropped.
  if (object.kind == ObjectKind::kTile &&
      (mask->has_value() || group->has_value() || one_sided->has_value())) {
    return tiled::Invalid(
        where, absl::StrCat("properties \"", options_.mask_bits_property,
                            "\", \"", options_.group_property, "\" and \"",
                            options_.one_sided_property,
                            "\" apply to shape objects, not tile objects"));
  }
  if (one_sided->value_or(false) && object.kind != ObjectKind::kPolyline) {
    return tiled::Invalid(
        where, absl::StrCat("property \"", options_.one_sided_property,
                            "\" needs a polyline object"));
  }
  tags.mask_bits = *mask;
  tags.group = group->value_or(0);
  tags.one_sided = one_sided->value_or(false);
  return absl::OkStatus();
}

absl::Status Importer::ImportTileObject(const TiledObject& object,
                                        bool collision, const ShapeTags& tags,
                                        const Scope& scope,
                                        const Where& where) {
  absl::StatusOr<Tileset*> tileset =
      tilesets_->Find(object.gid_with_flags, where);
  if (!tileset.ok()) return tileset.status();
  const int64_t tile_id =
      static_cast<int64_t>(object.gid_with_flags & kGidMask) -
      (*tileset)->first_gid;
  absl::StatusOr<const TileInfo*> info =
      tilesets_->Info(**tileset, tile_id, where);
  if (!info.ok()) return info.status();
  // A tile object is drawn at its own size (Tiled scales the tile to it),
  // placed by the tileset's alignment about the object's origin.
  const double width = object.width > 0.0 ? object.width : (*info)->width;
  const double height = object.height > 0.0 ? object.height : (*info)->height;
  const Vec2 top_left{-(*tileset)->align_x * width,
                      -(*tileset)->align_y * height};
  const TilePlacement placement{.owner_is_collision = collision,
                                .category_bits = tags.category_bits,
                                .user_data = tags.user_data,
                                .default_user_data = tags.user_data};
  return AppendTile(object.gid_with_flags, width, height, top_left,
                    /*sized_by_grid=*/false,
                    Compose(scope.to_level, object.to_parent), placement,
                    where);
}

absl::Status Importer::ImportTileLayer(const Json& layer, const Scope& scope) {
  if (!scope.collision && !options_.tile_shapes_in_every_layer) {
    return absl::OkStatus();
  }
  const Where where = tiled::InLayer(scope.path);
  absl::StatusOr<std::string> encoding =
      tiled::StringField(layer, "encoding", where, "csv");
  if (!encoding.ok()) return encoding.status();
  absl::StatusOr<std::string> compression =
      tiled::StringField(layer, "compression", where, "");
  if (!compression.ok()) return compression.status();
  if (!infinite_) {
    absl::StatusOr<int64_t> width =
        tiled::IntegerField(layer, "width", where, std::nullopt);
    if (!width.ok()) return width.status();
    absl::StatusOr<int64_t> height =
        tiled::IntegerField(layer, "height", where, std::nullopt);
    if (!height.ok()) return height.status();
    const auto data = layer.find("data");
    if (data == layer.end()) {
      return tiled::Invalid(where, "field \"data\" is missing");
    }
    return ImportCells(*data, *encoding, *compression, 0, 0, *width, *height,
                       scope, where);
  }
  const auto chunks = layer.find("chunks");
  if (chunks == layer.end()) return absl::OkStatus();  // an empty layer
  if (!chunks->is_array()) {
    return tiled::Invalid(where, "field \"chunks\" must be an array");
  }
  for (size_t i = 0; i < chunks->size(); ++i) {
    const Json& chunk = (*chunks)[i];
    const std::string name = absl::StrCat("chunks[", i, "]");
    if (!chunk.is_object()) {
      return tiled::Invalid(where, absl::StrCat(name, " must be an object"));
    }
    int64_t fields[4];
    const char* names[] = {"x", "y", "width", "height"};
    for (int f = 0; f < 4; ++f) {
      const auto it = chunk.find(names[f]);
      if (it == chunk.end() || !it->is_number_integer()) {
        return tiled::Invalid(
            where, absl::StrCat(name, ".", names[f], " must be an integer"));
      }
      fields[f] = it->get<int64_t>();
    }
    const auto data = chunk.find("data");
    if (data == chunk.end()) {
      return tiled::Invalid(where, absl::StrCat(name, ".data is missing"));
    }
    if (absl::Status s =
            ImportCells(*data, *encoding, *compression, fields[0], fields[1],
                        fields[2], fields[3], scope, where);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Importer::ImportCells(const Json& data, absl::string_view encoding,
                                   absl::string_view compression, int64_t x0,
                                   int64_t y0, int64_t width, int64_t height,
                                   const Scope& scope, const Where& where) {
  constexpr int64_t kMaxSide = int64_t{1} << 30;
  if (width < 0 || height < 0 || width > kMaxSide || height > kMaxSide ||
      x0 < -kMaxSide || x0 > kMaxSide || y0 < -kMaxSide || y0 > kMaxSide) {
    return tiled::Invalid(
        where, absl::StrCat("tile data of ", width, " x ", height,
                            " cells at (", x0, ", ", y0, ") is out of range"));
  }
  const int64_t count = width * height;
  std::vector<uint32_t> gids;
  if (data.is_array()) {
    if (static_cast<int64_t>(data.size()) != count) {
      return tiled::Invalid(where,
                            absl::StrCat("field \"data\" holds ", data.size(),
                                         " gids, not ", width, " x ", height));
    }
    gids.reserve(static_cast<size_t>(count));
    for (size_t i = 0; i < data.size(); ++i) {
      const Json& gid = data[i];
      if (!gid.is_number_integer() || gid.get<int64_t>() < 0 ||
          gid.get<int64_t>() > int64_t{0xFFFFFFFF}) {
        return tiled::Invalid(where,
                              absl::StrCat("field \"data[", i,
                                           "]\" must be a gid in [0, 2^32), "
                                           "got ",
                                           gid.dump()));
      }
      gids.push_back(static_cast<uint32_t>(gid.get<int64_t>()));
    }
  } else if (data.is_string()) {
    if (encoding != "base64") {
      return tiled::Invalid(where, absl::StrCat("field \"data\" is a string "
                                                "but \"encoding\" is \"",
                                                encoding, "\", not base64"));
    }
    if (!compression.empty()) {
      return tiled::Invalid(
          where, absl::StrCat("field \"compression\" \"", compression,
                              "\" is not supported: save the layer with the "
                              "CSV or uncompressed Base64 tile layer format"));
    }
    const std::string& text = data.get_ref<const std::string&>();
    std::string bytes;
    // Base64 grows 3 bytes into 4, so a well-formed text is this long; a
    // mismatch fails before decoding anything large.
    if (static_cast<int64_t>(text.size()) < 4 * count / 3 ||
        !absl::Base64Unescape(text, &bytes)) {
      return tiled::Invalid(where, "field \"data\" is not valid base64");
    }
    if (static_cast<int64_t>(bytes.size()) != 4 * count) {
      return tiled::Invalid(
          where, absl::StrCat("field \"data\" decodes to ", bytes.size(),
                              " bytes, not 4 x ", width, " x ", height));
    }
    gids.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      const auto* p =
          reinterpret_cast<const unsigned char*>(bytes.data() + 4 * i);
      gids.push_back(uint32_t{p[0]} | uint32_t{p[1]} << 8 |
                     uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
    }
  } else {
    return tiled::Invalid(where,
                          absl::StrCat("field \"data\" must be an array "
                                       "of gids or a base64 string, got ",
                                       tiled::JsonTypeName(data)));
  }

  for (int64_t row = 0; row < height; ++row) {
    for (int64_t column = 0; column < width; ++column) {
      const uint32_t gid = gids[static_cast<size_t>(row * width + column)];
      if ((gid & kGidMask) == 0) continue;  // an empty cell
      Where cell = where;
      cell.has_cell = true;
      cell.cell_x = x0 + column;
      cell.cell_y = y0 + row;
      const TilePlacement placement{.owner_is_collision = scope.collision,
                                    .category_bits = scope.category_bits,
                                    .user_data = scope.user_data,
                                    .default_user_data = gid & kGidMask};
      // Tiles larger than the grid stand on their cell's bottom edge, left
      // aligned (Tiled's orthogonal renderer).
      const Vec2 cell_bottom_left{
          static_cast<double>(cell.cell_x) * grid_width_,
          static_cast<double>(cell.cell_y + 1) * grid_height_};
      if (absl::Status s = AppendTile(gid, 0.0, 0.0, cell_bottom_left,
                                      /*sized_by_grid=*/true, scope.to_level,
                                      placement, cell);
          !s.ok()) {
        return s;
      }
    }
  }
  return absl::OkStatus();
}

// `width` x `height` is the size the tile is drawn at, its top-left corner
// at `top_left` in the frame `to_level` maps. For a cell (sized_by_grid)
// the size comes from the tile and `top_left` is the cell's bottom-left.
absl::Status Importer::AppendTile(uint32_t gid_with_flags, double width,
                                  double height, Vec2 top_left,
                                  bool sized_by_grid, const Affine& to_level,
                                  const TilePlacement& placement, Where where) {
  where.gid = gid_with_flags & kGidMask;
  if (gid_with_flags & kRotatedHexagonal120) {
    return tiled::Invalid(where,
                          "the gid's hexagonal 120-degree rotation "
                          "flag is set (only orthogonal maps are "
                          "supported)");
  }
  absl::StatusOr<Tileset*> found = tilesets_->Find(gid_with_flags, where);
  if (!found.ok()) return found.status();
  Tileset& tileset = **found;
  const int64_t tile_id = static_cast<int64_t>(where.gid) - tileset.first_gid;
  where.tileset = tileset.name;
  where.tile_id = tile_id;
  absl::StatusOr<const TileInfo*> found_info =
      tilesets_->Info(tileset, tile_id, where);
  if (!found_info.ok()) return found_info.status();
  const TileInfo& info = **found_info;
  const bool solid_rectangle = placement.owner_is_collision &&
                               !info.has_collision_objects &&
                               options_.solid_tiles_without_shapes;
  if (!solid_rectangle && info.objects.empty()) return absl::OkStatus();

  if (sized_by_grid) {
    width = tileset.render_at_grid_size ? grid_width_ : info.width;
    height = tileset.render_at_grid_size ? grid_height_ : info.height;
    top_left.y -= height;
  }
  // Tile pixels -> the owner's frame: flip within the tile (diagonal
  // first: a swap of x and y, then horizontal, then vertical, as Tiled
  // renders), scale to the drawn size, move to the drawn position plus the
  // tileset's drawing offset.
  Affine flip;
  if (gid_with_flags & kFlippedDiagonally) {
    if (info.width != info.height) {
      return tiled::Invalid(where,
                            "a diagonally flipped (rotated) tile must "
                            "be square");
    }
    flip = Compose({.a = 0.0, .b = 1.0, .c = 1.0, .d = 0.0}, flip);
  }
  if (gid_with_flags & kFlippedHorizontally) {
    flip = Compose({.a = -1.0, .tx = info.width}, flip);
  }
  if (gid_with_flags & kFlippedVertically) {
    flip = Compose({.d = -1.0, .ty = info.height}, flip);
  }
  const Affine tile_to_level = Compose(
      to_level,
      Compose(tiled::Translation(top_left.x + tileset.offset_x,
                                 top_left.y + tileset.offset_y),
              Compose(tiled::Scaling(width / info.width, height / info.height),
                      flip)));

  const auto next_tags = [&](std::optional<uint64_t> category,
                             std::optional<uint64_t> user_data) {
    ShapeTags tags;
    tags.id = next_tile_shape_id_++;
    tags.category_bits = category.has_value() ? category
                         : info.category_bits.has_value()
                             ? info.category_bits
                             : placement.category_bits;
    tags.user_data =
        user_data.has_value() ? *user_data
        : info.user_data.has_value()
            ? *info.user_data
            : placement.user_data.value_or(placement.default_user_data);
    return tags;
  };
  if (solid_rectangle) {
    return tiled::AppendRectangle(info.width, info.height, tile_to_level,
                                  next_tags(std::nullopt, std::nullopt), where,
                                  level_);
  }
  for (const TileInfo::CollisionObject& shape : info.objects) {
    if (!shape.collision.value_or(true)) continue;
    Where at = where;
    at.collision_index = shape.object.id;
    if (absl::Status s = tiled::AppendShape(
            shape.object, Compose(tile_to_level, shape.object.to_parent),
            next_tags(shape.category_bits, shape.user_data), at, level_);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

std::string FileStem(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  const size_t dot = path.rfind('.');
  return std::string(
      dot == absl::string_view::npos || dot == 0 ? path : path.substr(0, dot));
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

absl::StatusOr<v1::Level> LevelFromTiledMap(absl::string_view json,
                                            const TiledImportOptions& options) {
  absl::StatusOr<Json> map = tiled::ParseJson(json, "the map");
  if (!map.ok()) return map.status();
  v1::Level level;
  level.set_id(options.level_id);
  level.set_y_axis(options.y_axis == TiledYAxis::kUp ? v1::Y_AXIS_UP
                                                     : v1::Y_AXIS_DOWN);
  Importer importer(options, level);
  if (absl::Status s = importer.Import(*map); !s.ok()) return s;
  return level;
}

bool LooksLikeTiledMap(absl::string_view contents) {
  return tiled::HasTiledTopLevelKey(contents);
}

TiledFileReader TilesetReaderBeside(const std::string& map_path,
                                    int64_t max_bytes) {
  return
      [directory = DirectoryOf(map_path), max_bytes](absl::string_view source) {
        const std::string path = absl::StartsWith(source, "/")
                                     ? std::string(source)
                                     : absl::StrCat(directory, "/", source);
        return ReadFileContents(path, max_bytes);
      };
}

absl::StatusOr<v1::Level> ReadTiledMapFile(const std::string& path,
                                           TiledImportOptions options,
                                           int64_t max_bytes) {
  absl::StatusOr<std::string> contents = ReadFileContents(path, max_bytes);
  if (!contents.ok()) return contents.status();
  if (!options.read_tileset) {
    options.read_tileset = TilesetReaderBeside(path, max_bytes);
  }
  if (options.level_id.empty()) options.level_id = FileStem(path);
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(*contents, options);
  if (!level.ok()) {
    return absl::Status(level.status().code(),
                        absl::StrCat(path, ": ", level.status().message()));
  }
  return level;
}

}  // namespace collide::formats
