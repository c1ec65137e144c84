#include "proto/formats/level_frame.h"

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace collide::formats {
namespace {

void AppendLittleEndian(uint64_t value, int bytes, std::string& out) {
  for (int i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

uint64_t ReadLittleEndian(absl::string_view bytes) {
  uint64_t value = 0;
  for (size_t i = bytes.size(); i > 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i - 1]);
  }
  return value;
}

// zlib's crc32 takes at most 4 GiB - 1 per call (uInt), so feed it chunks.
uint32_t Crc32(absl::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  constexpr size_t kChunk = size_t{1} << 30;
  while (!data.empty()) {
    const size_t n = std::min(data.size(), kChunk);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data()),
                static_cast<uInt>(n));
    data.remove_prefix(n);
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace

bool LooksFramed(absl::string_view contents) {
  if (contents.empty()) return false;
  const size_t n = std::min(contents.size(), kLevelFrameMagic.size());
  return contents.substr(0, n) == kLevelFrameMagic.substr(0, n);
}

std::string FrameLevelPayload(absl::string_view payload) {
  std::string out;
  out.reserve(kLevelFrameHeaderBytes + payload.size());
  out.append(kLevelFrameMagic.data(), kLevelFrameMagic.size());
  AppendLittleEndian(kLevelFrameVersion, 4, out);
  AppendLittleEndian(payload.size(), 8, out);
  AppendLittleEndian(Crc32(payload), 4, out);
  out.append(payload.data(), payload.size());
  return out;
}

absl::StatusOr<absl::string_view> UnframeLevelPayload(
    absl::string_view contents, absl::string_view origin) {
  if (contents.size() < kLevelFrameHeaderBytes) {
    return absl::DataLossError(
        absl::StrCat(origin, ": truncated: header holds ", contents.size(),
                     " of ", kLevelFrameHeaderBytes, " bytes"));
  }
  if (contents.substr(0, kLevelFrameMagic.size()) != kLevelFrameMagic) {
    return absl::DataLossError(
        absl::StrCat(origin, ": not a framed level file (bad magic)"));
  }
  const uint64_t version = ReadLittleEndian(contents.substr(8, 4));
  if (version != kLevelFrameVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ": level file format version ", version,
                     " is not supported (this server reads version ",
                     kLevelFrameVersion, ")"));
  }
  const uint64_t length = ReadLittleEndian(contents.substr(12, 8));
  const uint32_t expected_crc =
      static_cast<uint32_t>(ReadLittleEndian(contents.substr(20, 4)));
  const absl::string_view payload = contents.substr(kLevelFrameHeaderBytes);
  if (payload.size() < length) {
    return absl::DataLossError(
        absl::StrCat(origin, ": truncated: header says ", length,
                     " payload bytes, file holds ", payload.size()));
  }
  if (payload.size() > length) {
    return absl::DataLossError(
        absl::StrCat(origin, ": trailing data: header says ", length,
                     " payload bytes, file holds ", payload.size()));
  }
  const uint32_t actual_crc = Crc32(payload);
  if (actual_crc != expected_crc) {
    return absl::DataLossError(absl::StrFormat(
        "%s: corrupted: checksum mismatch: header says crc32 0x%08x, payload "
        "has 0x%08x",
        origin, expected_crc, actual_crc));
  }
  return payload;
}

}  // namespace collide::formats
