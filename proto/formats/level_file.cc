#include "proto/formats/level_file.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "proto/formats/file_io.h"
#include "proto/formats/level_frame.h"
#include "proto/formats/tiled_import.h"

namespace collide::formats {
namespace {

// A Tiled map converted, its errors starting with `origin`.
absl::StatusOr<v1::Level> TiledMapFromText(absl::string_view contents,
                                           const TiledImportOptions& options,
                                           absl::string_view origin) {
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(contents, options);
  if (!level.ok()) {
    return absl::Status(level.status().code(),
                        absl::StrCat(origin, ": ", level.status().message()));
  }
  return level;
}

}  // namespace

LevelFileFormat DetectLevelFileFormat(absl::string_view path,
                                      absl::string_view contents) {
  if (absl::EndsWith(path, ".tmj")) return LevelFileFormat::kTiledJson;
  if (absl::EndsWith(path, ".json")) {
    return LooksLikeTiledMap(contents) ? LevelFileFormat::kTiledJson
                                       : LevelFileFormat::kJson;
  }
  if (absl::EndsWith(path, kBinaryLevelExtension) ||
      absl::EndsWith(path, ".pb")) {
    return LevelFileFormat::kBinary;
  }
  // '{' would start field 15 with wire type 3 (a group), which a binary
  // Level never holds, so sniffing cannot mistake a binary file for JSON.
  for (const char c : contents) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c != '{') return LevelFileFormat::kBinary;
    return LooksLikeTiledMap(contents) ? LevelFileFormat::kTiledJson
                                       : LevelFileFormat::kJson;
  }
  return LevelFileFormat::kBinary;
}

absl::StatusOr<v1::Level> ParseLevel(absl::string_view contents,
                                     LevelFileFormat format,
                                     absl::string_view origin) {
  v1::Level level;
  if (format == LevelFileFormat::kTiledJson) {
    return TiledMapFromText(contents, TiledImportOptions(), origin);
  }
  if (format == LevelFileFormat::kJson) {
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(contents.data(), contents.size()), &level,
        options);
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(origin, ": not a valid level in protobuf JSON: ",
                       std::string(status.message())));
    }
    return level;
  }
  if (contents.empty()) {
    return absl::DataLossError(absl::StrCat(
        origin, ": empty file (0 bytes): no level, not even an id"));
  }
  if (LooksFramed(contents)) {
    absl::StatusOr<absl::string_view> payload =
        UnframeLevelPayload(contents, origin);
    if (!payload.ok()) return payload.status();
    contents = *payload;
  }
  if (contents.size() > static_cast<size_t>(INT32_MAX)) {
    return absl::ResourceExhaustedError(
        absl::StrCat(origin, ": larger than 2 GiB"));
  }
  google::protobuf::io::ArrayInputStream stream(
      contents.data(), static_cast<int>(contents.size()));
  google::protobuf::io::CodedInputStream input(&stream);
  if (!level.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ": not a valid level in protobuf binary"));
  }
  return level;
}

absl::StatusOr<v1::Level> ReadLevelFile(const std::string& path,
                                        int64_t max_bytes) {
  absl::StatusOr<std::string> contents = ReadFileContents(path, max_bytes);
  if (!contents.ok()) return contents.status();
  const LevelFileFormat format = DetectLevelFileFormat(path, *contents);
  if (format == LevelFileFormat::kTiledJson) {
    TiledImportOptions options;
    options.read_tileset = TilesetReaderBeside(path, max_bytes);
    return TiledMapFromText(*contents, options, path);
  }
  return ParseLevel(*contents, format, path);
}

std::string SerializeLevel(const v1::Level& level) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream output(&stream);
    // Deterministic, so the same level always gives the same file bytes.
    output.SetSerializationDeterministic(true);
    level.SerializeToCodedStream(&output);
  }
  return bytes;
}

absl::StatusOr<std::string> LevelToJson(const v1::Level& level) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  std::string json;
  const auto status =
      google::protobuf::util::MessageToJsonString(level, &json, options);
  if (!status.ok()) {
    return absl::InternalError(absl::StrCat("cannot print level as JSON: ",
                                            std::string(status.message())));
  }
  return json;
}

std::string EncodeLevelFile(const v1::Level& level) {
  return FrameLevelPayload(SerializeLevel(level));
}

absl::Status WriteLevelFile(const std::string& path, const v1::Level& level) {
  return WriteFileAtomically(path, EncodeLevelFile(level));
}

}  // namespace collide::formats
