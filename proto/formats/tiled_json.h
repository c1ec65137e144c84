// Internal to the Tiled importer: reading Tiled's JSON without exceptions.
// nlohmann/json aborts (instead of throwing) where the project's
// -fno-exceptions code would meet an error, so every reader here checks a
// value's type before taking it, and every error names where in the map it
// is (layer, object, cell, tile) and the field.
//
// Includes nlohmann/json: only .cc files compiled without exceptions may
// include this header (see server/CMakeLists.txt).
#ifndef COLLIDE_FORMATS_TILED_JSON_H_
#define COLLIDE_FORMATS_TILED_JSON_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace collide::formats::tiled {

using Json = nlohmann::json;

// Parses `text` without exceptions. INVALID_ARGUMENT "{what} is not valid
// JSON: {nlohmann's message, with line and column}".
absl::StatusOr<Json> ParseJson(absl::string_view text, absl::string_view what);

// Whether `text` is a JSON object with a top-level key "tiledversion" or
// "orientation" (scanned without building a document; stops at the first).
bool HasTiledTopLevelKey(absl::string_view text);

// Where an object is, for error messages: `layer "outer/walls" object 12`.
// Pieces that do not apply are left empty / negative.
struct Where {
  bool whole_map = false;        // nothing smaller than the map to name
  std::string layer;             // the layer path, group names joined by '/'
  int64_t object_id = -1;        // the map object
  int64_t cell_x = 0;            // the tile layer cell (with has_cell)
  int64_t cell_y = 0;            //
  bool has_cell = false;         //
  uint32_t gid = 0;              // the tile's global id (flags cleared)
  std::string tileset;           // the tileset's name, for tile shapes
  int64_t tile_id = -1;          // the tile's id in its tileset
  int64_t collision_index = -1;  // the tile's collision object: its id
                                 // (or index in the tile's objectgroup)

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

// A signed 32-bit integer: an int property in [-2^31, 2^31).
absl::StatusOr<std::optional<int32_t>> Int32Property(const Json& owner,
                                                     absl::string_view name,
                                                     const Where& where);

}  // namespace collide::formats::tiled

#endif  // COLLIDE_FORMATS_TILED_JSON_H_
