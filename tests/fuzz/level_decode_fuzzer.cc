// Fuzz target: level files as a server or a tool reads them. The first byte
// picks the decoder (protobuf binary, protobuf JSON, Tiled map JSON through
// ParseLevel, LevelFromTiledMap with fuzzed options, or the format
// DetectLevelFileFormat picks for a ".json" file); the rest is the file.
// A level that parses is round-tripped (binary and JSON must re-read) and
// built with LevelFromProto under the default InputLimits, which builds the
// lib Level and its spatial hash; a built level stays within
// Level::MemoryBound for its size.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/level.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "proto/formats/tiled_import.h"
#include "proto/formats/tiled_options.h"
#include "tests/fuzz/fuzz_check.h"

namespace collide::fuzz {
namespace {

using formats::LevelFileFormat;

// LevelFromTiledMap with options taken from the bits of `flags`. External
// tilesets resolve to the map's own text, so tileset parsing sees fuzzed
// JSON too.
absl::StatusOr<v1::Level> ParseTiledWithOptions(absl::string_view contents,
                                                uint8_t flags) {
  formats::TiledImportOptions options;
  options.y_axis =
      (flags & 1) != 0 ? formats::TiledYAxis::kUp : formats::TiledYAxis::kDown;
  options.skip_hidden = (flags & 2) != 0;
  options.solid_tiles_without_shapes = (flags & 4) == 0;
  options.tile_shapes_in_every_layer = (flags & 8) != 0;
  if ((flags & 16) != 0) options.collision_layers = {"walls", "collision"};
  if ((flags & 32) != 0) {
    options.read_tileset =
        [contents](absl::string_view) -> absl::StatusOr<std::string> {
      return std::string(contents);
    };
  }
  return formats::LevelFromTiledMap(contents, options);
}

absl::StatusOr<v1::Level> Decode(uint8_t selector, absl::string_view contents) {
  switch (selector % 5) {
    case 0:
      return formats::ParseLevel(contents, LevelFileFormat::kBinary, "fuzz");
    case 1:
      return formats::ParseLevel(contents, LevelFileFormat::kJson, "fuzz");
    case 2:
      return formats::ParseLevel(contents, LevelFileFormat::kTiledJson, "fuzz");
    case 3:
      return ParseTiledWithOptions(contents, selector / 5);
    default:
      return formats::ParseLevel(
          contents, formats::DetectLevelFileFormat("fuzz.json", contents),
          "fuzz");
  }
}

// Writing a parsed level as the server does and reading it back gives the
// same level. (The file is framed: a level that serializes to no bytes, one
// with no id and no shapes, is still a non-empty file, where raw empty
// bytes are refused as a truncated file.)
void CheckRoundTrips(const v1::Level& level) {
  const std::string file = formats::EncodeLevelFile(level);
  const absl::StatusOr<v1::Level> from_binary =
      formats::ParseLevel(file, LevelFileFormat::kBinary, "round trip");
  FUZZ_CHECK(from_binary.ok());
  FUZZ_CHECK(formats::SerializeLevel(*from_binary) ==
             formats::SerializeLevel(level));
  const absl::StatusOr<std::string> json = formats::LevelToJson(level);
  if (json.ok()) {
    const absl::StatusOr<v1::Level> from_json =
        formats::ParseLevel(*json, LevelFileFormat::kJson, "round trip");
    FUZZ_CHECK(from_json.ok());
  }
}

// The size Level::MemoryBound reads, counted from the message.
Level::Size SizeOf(const v1::Level& level) {
  Level::Size size;
  size.shapes = level.shapes_size();
  for (const v1::Shape& shape : level.shapes()) {
    if (shape.has_polygon()) {
      ++size.polygons;
      size.chain_vertices += shape.polygon().vertices_size();
    } else if (shape.has_box()) {
      ++size.polygons;
    } else if (shape.has_polyline()) {
      size.chain_vertices += shape.polyline().vertices_size();
    }
  }
  return size;
}

}  // namespace
}  // namespace collide::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const absl::string_view contents(reinterpret_cast<const char*>(data + 1),
                                   size - 1);
  const absl::StatusOr<collide::v1::Level> level =
      collide::fuzz::Decode(data[0], contents);
  if (!level.ok()) return 0;
  collide::fuzz::CheckRoundTrips(*level);
  // Built or refused; either way bounded in time (what the fuzzer
  // measures) and, once built, in memory.
  const absl::StatusOr<collide::Level> built =
      collide::formats::LevelFromProto(*level, collide::formats::InputLimits{});
  if (built.ok()) {
    FUZZ_CHECK(static_cast<int64_t>(built->memory_bytes()) <=
               collide::Level::MemoryBound(collide::fuzz::SizeOf(*level)));
  }
  return 0;
}
