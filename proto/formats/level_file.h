// Level files: a v1::Level message as protobuf JSON (human-written) or
// protobuf binary, or a Tiled map (tiled_import.h). Reading accepts all
// three; the server writes binary in a checksummed frame (level_frame.h),
// and binary without the frame (what older servers wrote) still reads.
#ifndef COLLIDE_FORMATS_LEVEL_FILE_H_
#define COLLIDE_FORMATS_LEVEL_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"

namespace collide::formats {

enum class LevelFileFormat {
  kJson,
  kBinary,
  // A Tiled map saved as JSON, converted with LevelFromTiledMap's default
  // options (layers named "collision", y pointing down).
  kTiledJson,
};

// The extension the server gives binary level files it writes.
inline constexpr absl::string_view kBinaryLevelExtension = ".binpb";

// The format of a level file: ".tmj" is a Tiled map; ".json" is JSON, a
// Tiled map when LooksLikeTiledMap(contents) (a top-level "tiledversion" or
// "orientation" key, which no Level has); ".binpb" and ".pb" are binary; any
// other name is JSON (or a Tiled map, as for ".json") when the first
// non-blank byte of `contents` is '{' (never the first byte of a binary
// Level), else binary.
LevelFileFormat DetectLevelFileFormat(absl::string_view path,
                                      absl::string_view contents);

// Parses a level. JSON is strict (unknown fields are errors, so typos are
// caught). A Tiled map is converted (its level id left empty); it cannot
// name external tilesets here (ReadLevelFile reads those). Errors are
// INVALID_ARGUMENT starting with `origin` (a file name, for messages), except
// for binary that is empty (0 bytes) or framed and truncated or corrupted:
// DATA_LOSS saying what is wrong (UnframeLevelPayload). Only
// the syntax is checked: validate the level with LevelFromProto /
// MakeLevelSnapshot.
absl::StatusOr<v1::Level> ParseLevel(absl::string_view contents,
                                     LevelFileFormat format,
                                     absl::string_view origin);

// Reads and parses the file at `path` (format from DetectLevelFileFormat).
// NOT_FOUND when it does not exist, another errno-derived code when it
// cannot be read, RESOURCE_EXHAUSTED when larger than max_bytes, else as
// ParseLevel. A Tiled map's external tilesets are read relative to `path`
// (each at most max_bytes). The id is the file's (possibly empty; always
// empty for a Tiled map): the caller decides what a file's level is called.
absl::StatusOr<v1::Level> ReadLevelFile(const std::string& path,
                                        int64_t max_bytes);

// The level as protobuf binary (deterministic serialization) or as
// protobuf JSON (indented, field names in lowerCamelCase).
std::string SerializeLevel(const v1::Level& level);
// The bytes of a binary level file as WriteLevelFile writes them:
// SerializeLevel(level) in the frame of level_frame.h.
std::string EncodeLevelFile(const v1::Level& level);
absl::StatusOr<std::string> LevelToJson(const v1::Level& level);

// Writes EncodeLevelFile(level) to `path` atomically (WriteFileAtomically in
// file_io.h): on any error the old file at `path` is left as it was.
absl::Status WriteLevelFile(const std::string& path, const v1::Level& level);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_LEVEL_FILE_H_
