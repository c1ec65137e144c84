// The frame around binary level files the server writes, so that a file cut
// short (a full disk, a crash mid-copy, a partial rsync) or damaged is
// refused whole instead of loading as a smaller level:
//
//   offset  size  field
//   0       8     magic "\x89CLDLVL\n" (0x89 is never the first byte of a
//                 Level in protobuf binary, '{' of JSON; "\n" catches
//                 newline translation)
//   8       4     format version, little-endian uint32 (kLevelFrameVersion)
//   12      8     payload length in bytes, little-endian uint64
//   20      4     CRC-32 (zlib's crc32) of the payload, little-endian
//   24      ...   payload: the level in deterministic protobuf binary
//
// Files without the magic are the unframed protobuf binary that servers
// before the frame wrote, and still load (without these checks).
#ifndef COLLIDE_FORMATS_LEVEL_FRAME_H_
#define COLLIDE_FORMATS_LEVEL_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace collide::formats {

// The first bytes of every framed level file.
inline constexpr absl::string_view kLevelFrameMagic{
    "\x89"
    "CLDLVL\n",
    8};
// The version this code writes, and the only one it reads.
inline constexpr uint32_t kLevelFrameVersion = 1;
// Magic, version, length and checksum.
inline constexpr size_t kLevelFrameHeaderBytes = 24;

// Whether `contents` starts like a framed file: the magic, or (for a file
// cut inside its magic) a non-empty prefix of it.
bool LooksFramed(absl::string_view contents);

// `payload` behind a header.
std::string FrameLevelPayload(absl::string_view payload);

// The payload of the framed file `contents` (a view into it). Errors are
// DATA_LOSS starting with `origin` and saying what is wrong: "truncated:
// header holds 10 of 24 bytes", "truncated: header says 5123 bytes, file
// holds 100", "trailing data: header says 100 bytes, file holds 120",
// "checksum mismatch: header says crc32 0x..., payload has 0x...";
// INVALID_ARGUMENT for a format version other than kLevelFrameVersion.
absl::StatusOr<absl::string_view> UnframeLevelPayload(
    absl::string_view contents, absl::string_view origin);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_LEVEL_FRAME_H_
