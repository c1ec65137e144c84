// Whole files in and out, for level files and the tilesets they name:
// bounded reads of regular files, and atomic replacement that never leaves a
// half-written file under the final name.
#ifndef COLLIDE_FORMATS_FILE_IO_H_
#define COLLIDE_FORMATS_FILE_IO_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace collide::formats {

// The bytes of the regular file at `path`. Errors name `path`: NOT_FOUND
// when it does not exist, another errno-derived code when it cannot be
// read, INVALID_ARGUMENT when it is not a regular file, RESOURCE_EXHAUSTED
// when larger than max_bytes.
absl::StatusOr<std::string> ReadFileContents(const std::string& path,
                                             int64_t max_bytes);

// The secret in a token file (an admin bearer token): its contents without
// surrounding whitespace, one token of printable ASCII, at most 64 KiB.
// FAILED_PRECONDITION, the message starting "{flag}: ", when it cannot be
// read, is empty, or holds spaces or control characters.
absl::StatusOr<std::string> ReadTokenFile(
    const std::string& path, absl::string_view flag = "admin_token_file");

// Replaces the file at `path` with `bytes` atomically: a temporary file in
// the same directory ("{path}.tmp.{pid}"), fsync, rename over `path`, fsync
// the directory. On any error the old file at `path` is left as it was and
// the temporary removed.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_FILE_IO_H_
