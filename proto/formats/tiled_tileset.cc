#include "proto/formats/tiled_tileset.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "proto/formats/tiled_json.h"
#include "proto/formats/tiled_object.h"

namespace collide::formats::tiled {
namespace {

absl::Status MapError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("map: ", message));
}

}  // namespace

absl::Status TilesetTable::Read(const Json& map) {
  const auto list = map.find("tilesets");
  if (list == map.end()) return absl::OkStatus();
  if (!list->is_array()) return MapError("field \"tilesets\" must be an array");
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    const std::string name = absl::StrCat("tilesets[", i, "]");
    if (!entry.is_object()) {
      return MapError(absl::StrCat(name, " must be an object"));
    }
    auto tileset = std::make_unique<Tileset>();
    tileset->index = static_cast<int>(i);
    const auto first_gid = entry.find("firstgid");
    if (first_gid == entry.end() || !first_gid->is_number_integer() ||
        first_gid->get<int64_t>() < 1 ||
        first_gid->get<int64_t>() > int64_t{kGidMask}) {
      return MapError(
          absl::StrCat(name, ".firstgid must be an integer in [1, 2^28)"));
    }
    tileset->first_gid = first_gid->get<int64_t>();
    const auto source = entry.find("source");
    if (source != entry.end()) {
      if (!source->is_string()) {
        return MapError(absl::StrCat(name, ".source must be a string"));
      }
      tileset->source = source->get<std::string>();
      tileset->name = tileset->source;
    } else {
      tileset->embedded = &entry;
    }
    tilesets_.push_back(std::move(tileset));
  }
  std::stable_sort(
      tilesets_.begin(), tilesets_.end(),
      [](const auto& a, const auto& b) { return a->first_gid < b->first_gid; });
  return absl::OkStatus();
}

absl::StatusOr<Tileset*> TilesetTable::Find(uint32_t gid_with_flags,
                                            const Where& where) {
  const int64_t gid = gid_with_flags & kGidMask;
  Tileset* owner = nullptr;
  for (const auto& tileset : tilesets_) {
    if (tileset->first_gid > gid) break;
    owner = tileset.get();
  }
  if (owner == nullptr) {
    return Invalid(where, absl::StrCat("gid ", gid,
                                       " belongs to no tileset of the "
                                       "map"));
  }
  if (!owner->loaded) {
    if (absl::Status s = Load(*owner); !s.ok()) return s;
  }
  return owner;
}

absl::Status TilesetTable::Load(Tileset& tileset) {
  const std::string label =
      absl::StrCat("tileset \"", tileset.name, "\" (tilesets[", tileset.index,
                   "], firstgid ", tileset.first_gid, ")");
  const auto fail = [&](absl::string_view message) {
    return absl::InvalidArgumentError(absl::StrCat(label, ": ", message));
  };
  const Json* data = tileset.embedded;
  if (data == nullptr) {
    if (absl::EndsWithIgnoreCase(tileset.source, ".tsx")) {
      return fail(
          "XML tilesets are not supported: save the tileset as JSON "
          "(.tsj) in Tiled and point the map at it");
    }
    if (!options_.read_tileset) {
      return fail(
          "the tileset is an external file and no reader was given "
          "(embed the tileset in the map, or import the map from its "
          "file)");
    }
    absl::StatusOr<std::string> text = options_.read_tileset(tileset.source);
    if (!text.ok()) {
      return absl::Status(text.status().code(),
                          absl::StrCat(label, ": ", text.status().message()));
    }
    absl::StatusOr<Json> parsed = ParseJson(*text, "the file");
    if (!parsed.ok()) return fail(parsed.status().message());
    tileset.external = *std::move(parsed);
    data = &tileset.external;
    if (!data->is_object()) return fail("the file is not a JSON object");
  }
  const auto number =
      [&](const char* field,
          std::optional<double> fallback) -> absl::StatusOr<double> {
    const auto it = data->find(field);
    if (it == data->end()) {
      if (fallback.has_value()) return *fallback;
      return fail(absl::StrCat("field \"", field, "\" is missing"));
    }
    if (!it->is_number()) {
      return fail(absl::StrCat("field \"", field, "\" must be a number"));
    }
    return it->get<double>();
  };
  if (const auto name = data->find("name");
      name != data->end() && name->is_string() && tileset.source.empty()) {
    tileset.name = name->get<std::string>();
  }
  absl::StatusOr<double> tile_width = number("tilewidth", std::nullopt);
  if (!tile_width.ok()) return tile_width.status();
  absl::StatusOr<double> tile_height = number("tileheight", std::nullopt);
  if (!tile_height.ok()) return tile_height.status();
  if (!(*tile_width > 0.0) || !(*tile_height > 0.0)) {
    return fail("fields \"tilewidth\" and \"tileheight\" must be > 0");
  }
  tileset.tile_width = *tile_width;
  tileset.tile_height = *tile_height;
  if (const auto offset = data->find("tileoffset"); offset != data->end()) {
    if (!offset->is_object())
      return fail("field \"tileoffset\" must be an object");
    for (auto [field, value] : {std::pair{"x", &tileset.offset_x},
                                std::pair{"y", &tileset.offset_y}}) {
      const auto it = offset->find(field);
      if (it == offset->end()) continue;
      if (!it->is_number()) {
        return fail(
            absl::StrCat("field \"tileoffset.", field, "\" must be a number"));
      }
      *value = it->get<double>();
    }
  }
  // Where a tile object's origin sits on its tile ("unspecified" is
  // bottom-left on orthogonal maps).
  static const std::map<std::string, std::pair<double, double>> kAlignments = {
      {"unspecified", {0.0, 1.0}}, {"topleft", {0.0, 0.0}},
      {"top", {0.5, 0.0}},         {"topright", {1.0, 0.0}},
      {"left", {0.0, 0.5}},        {"center", {0.5, 0.5}},
      {"right", {1.0, 0.5}},       {"bottomleft", {0.0, 1.0}},
      {"bottom", {0.5, 1.0}},      {"bottomright", {1.0, 1.0}}};
  if (const auto alignment = data->find("objectalignment");
      alignment != data->end()) {
    const auto known = alignment->is_string()
                           ? kAlignments.find(alignment->get<std::string>())
                           : kAlignments.end();
    if (known == kAlignments.end()) {
      return fail(absl::StrCat("field \"objectalignment\" ", alignment->dump(),
                               " is not one of Tiled's alignments"));
    }
    tileset.align_x = known->second.first;
    tileset.align_y = known->second.second;
  }
  if (const auto render = data->find("tilerendersize"); render != data->end()) {
    if (*render == "grid") {
      tileset.render_at_grid_size = true;
      const auto fill = data->find("fillmode");
      if (fill != data->end() && *fill != "stretch" &&
          (tileset.tile_width != grid_width_ ||
           tileset.tile_height != grid_height_)) {
        return fail(
            "field \"fillmode\" other than \"stretch\" with "
            "\"tilerendersize\" \"grid\" is not supported");
      }
    } else if (*render != "tile") {
      return fail(absl::StrCat("field \"tilerendersize\" ", render->dump(),
                               " is not \"tile\" or \"grid\""));
    }
  }
  if (const auto tiles = data->find("tiles"); tiles != data->end()) {
    if (!tiles->is_array()) {
      return fail(
          "field \"tiles\" must be an array (the object form of "
          "Tiled before 1.2 is not supported: re-save the tileset)");
    }
    for (size_t i = 0; i < tiles->size(); ++i) {
      const Json& tile = (*tiles)[i];
      const auto id = tile.is_object() ? tile.find("id") : tile.end();
      if (!tile.is_object() || id == tile.end() || !id->is_number_integer()) {
        return fail(absl::StrCat("tiles[", i,
                                 "] must be an object with an "
                                 "integer \"id\""));
      }
      tileset.tiles[id->get<int64_t>()] = &tile;
    }
  }
  tileset.loaded = true;
  return absl::OkStatus();
}

absl::StatusOr<const TileInfo*> TilesetTable::Info(Tileset& tileset,
                                                   int64_t tile_id,
                                                   const Where& where) {
  if (const auto cached = tileset.infos.find(tile_id);
      cached != tileset.infos.end()) {
    return &cached->second;
  }
  TileInfo info;
  info.width = tileset.tile_width;
  info.height = tileset.tile_height;
  const auto definition = tileset.tiles.find(tile_id);
  if (definition != tileset.tiles.end()) {
    const Json& tile = *definition->second;
    Where at = where;
    at.tileset = tileset.name;
    at.tile_id = tile_id;
    // An image-collection tile has its own image size; a tile cut from a
    // sub-rectangle (Tiled 1.9) its own width and height.
    for (auto [w, h] : {std::pair{"imagewidth", "imageheight"},
                        std::pair{"width", "height"}}) {
      absl::StatusOr<double> tile_w = NumberField(tile, w, at, 0.0);
      if (!tile_w.ok()) return tile_w.status();
      absl::StatusOr<double> tile_h = NumberField(tile, h, at, 0.0);
      if (!tile_h.ok()) return tile_h.status();
      if (*tile_w > 0.0 && *tile_h > 0.0) {
        info.width = *tile_w;
        info.height = *tile_h;
        break;
      }
    }
    absl::StatusOr<std::optional<uint64_t>> category =
        Uint64Property(tile, options_.category_bits_property, at);
    if (!category.ok()) return category.status();
    info.category_bits = *category;
    absl::StatusOr<std::optional<uint64_t>> user_data =
        Uint64Property(tile, options_.user_data_property, at);
    if (!user_data.ok()) return user_data.status();
    info.user_data = *user_data;
    if (const auto group = tile.find("objectgroup"); group != tile.end()) {
      const auto objects =
          group->is_object() ? group->find("objects") : group->end();
      if (!group->is_object() ||
          (objects != group->end() && !objects->is_array())) {
        return Invalid(at,
                       "field \"objectgroup\" must be an object "
                       "layer");
      }
      if (objects != group->end()) {
        for (size_t i = 0; i < objects->size(); ++i) {
          const Json& json = (*objects)[i];
          at.collision_index = static_cast<int64_t>(i);
          absl::StatusOr<TiledObject> object = ReadObject(json, at);
          if (!object.ok()) return object.status();
          if (object->id >= 0) at.collision_index = object->id;
          info.has_collision_objects = true;
          if (object->kind == ObjectKind::kTile) {
            return Invalid(at,
                           "a tile's collision object cannot be "
                           "a tile");
          }
          if (object->kind == ObjectKind::kPoint ||
              (options_.skip_hidden && !object->visible)) {
            continue;
          }
          TileInfo::CollisionObject entry;
          entry.object = *std::move(object);
          absl::StatusOr<std::optional<bool>> collision =
              BoolProperty(json, options_.collision_property, at);
          if (!collision.ok()) return collision.status();
          entry.collision = *collision;
          absl::StatusOr<std::optional<uint64_t>> bits =
              Uint64Property(json, options_.category_bits_property, at);
          if (!bits.ok()) return bits.status();
          entry.category_bits = *bits;
          absl::StatusOr<std::optional<uint64_t>> data =
              Uint64Property(json, options_.user_data_property, at);
          if (!data.ok()) return data.status();
          entry.user_data = *data;
          info.objects.push_back(std::move(entry));
        }
      }
    }
  }
  return &tileset.infos.emplace(tile_id, std::move(info)).first->second;
}

}  // namespace collide::formats::tiled
