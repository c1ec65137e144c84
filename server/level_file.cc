#include "server/level_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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
#include "server/tiled_import.h"

namespace collide::server {
namespace {

// Closes a file descriptor on every path out of a scope.
class FileCloser {
 public:
  explicit FileCloser(int fd) : fd_(fd) {}
  FileCloser(const FileCloser&) = delete;
  FileCloser& operator=(const FileCloser&) = delete;
  ~FileCloser() {
    if (fd_ >= 0) close(fd_);
  }
  // Closes now, reporting the error close() can carry (deferred write
  // errors on some file systems).
  int Close() {
    const int result = close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

absl::Status ErrnoError(int error, absl::string_view what,
                        absl::string_view path) {
  return absl::ErrnoToStatus(error, absl::StrCat(what, " ", path));
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

absl::Status WriteAll(int fd, absl::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t written = write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  return absl::OkStatus();
}

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

absl::StatusOr<std::string> ReadFileContents(const std::string& path,
                                             int64_t max_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "cannot open", path);
  FileCloser closer(fd);
  struct stat info;
  if (fstat(fd, &info) != 0) return ErrnoError(errno, "cannot stat", path);
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a regular file"));
  }
  if (info.st_size > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": ", info.st_size, " bytes, more than the limit ", max_bytes));
  }
  std::string contents;
  contents.resize(static_cast<size_t>(info.st_size));
  size_t filled = 0;
  while (filled < contents.size()) {
    const ssize_t got =
        read(fd, contents.data() + filled, contents.size() - filled);
    if (got < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "cannot read", path);
    }
    if (got == 0) break;  // the file shrank while we read it
    filled += static_cast<size_t>(got);
  }
  contents.resize(filled);
  return contents;
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

absl::Status WriteLevelFile(const std::string& path, const v1::Level& level) {
  const std::string bytes = SerializeLevel(level);
  // Same directory, so rename() is atomic; the pid keeps two processes
  // sharing a directory from writing one temporary file.
  const std::string temp = absl::StrCat(path, ".tmp.", getpid());
  const int fd =
      open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "cannot create", temp);
  FileCloser closer(fd);
  absl::Status status = WriteAll(fd, bytes, temp);
  if (status.ok() && fsync(fd) != 0)
    status = ErrnoError(errno, "cannot fsync", temp);
  if (status.ok() && closer.Close() != 0) {
    status = ErrnoError(errno, "cannot close", temp);
  }
  if (status.ok() && rename(temp.c_str(), path.c_str()) != 0) {
    status = ErrnoError(errno, "cannot rename to", path);
  }
  if (!status.ok()) {
    unlink(temp.c_str());
    return status;
  }
  // The rename itself is durable only once the directory entry is synced.
  const std::string directory = DirectoryOf(path);
  const int dir_fd =
      open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return ErrnoError(errno, "cannot open directory", directory);
  FileCloser dir_closer(dir_fd);
  if (fsync(dir_fd) != 0) {
    return ErrnoError(errno, "cannot fsync directory", directory);
  }
  return absl::OkStatus();
}

}  // namespace collide::server
