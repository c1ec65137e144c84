#include "server/levels/level_journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "proto/formats/file_io.h"
#include "proto/formats/level_frame.h"
#include "server/levels/content_hash.h"

namespace collide::server {
namespace {

// The payload length a frame header at the start of `bytes` announces.
uint64_t FramePayloadLength(absl::string_view bytes) {
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) {
    length = (length << 8) | static_cast<unsigned char>(bytes[12 + i]);
  }
  return length;
}

absl::Status WriteAll(int fd, absl::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, "write");
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AppendJournalRecord(const std::string& path,
                                 const v1::PatchLevelRequest& patch,
                                 absl::string_view applies_to) {
  v1::PatchLevelRequest record;
  *record.mutable_upserts() = patch.upserts();
  *record.mutable_remove_ids() = patch.remove_ids();
  record.set_expected_content_hash(std::string(applies_to));
  const std::string bytes =
      formats::FrameLevelPayload(record.SerializeAsString());

  struct stat before;
  const bool existed = stat(path.c_str(), &before) == 0;
  const int fd =
      open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", path));
  }
  absl::Status status = WriteAll(fd, bytes);
  if (status.ok() && fsync(fd) != 0) {
    status = absl::ErrnoToStatus(errno, "fsync");
  }
  if (!status.ok()) {
    // Cut off what part of the record made it, so the next append does not
    // follow a torn record (which would end every replay before it).
    if (ftruncate(fd, existed ? before.st_size : 0) == 0) fsync(fd);
  }
  close(fd);
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("cannot append to ", path,
                                                    ": ", status.message()));
  }
  if (!existed) {
    // A new file's name must be durable too.
    const std::string dir = path.substr(0, path.rfind('/'));
    const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0 || fsync(dir_fd) != 0) {
      const absl::Status error = absl::ErrnoToStatus(
          errno, absl::StrCat("cannot sync directory ", dir));
      if (dir_fd >= 0) close(dir_fd);
      return error;
    }
    close(dir_fd);
  }
  return absl::OkStatus();
}

namespace {

// A level message being patched record by record: shapes by id, slots
// emptied by removals, the shape hash sum kept up to date.
class PatchedMessage {
 public:
  explicit PatchedMessage(v1::Level& level) : level_(level) {
    slots_.reserve(static_cast<size_t>(level.shapes_size()));
    for (v1::Shape& shape : *level.mutable_shapes()) {
      index_[shape.id()] = slots_.size();
      AddShapeHash(sum_, ShapeHash(shape));
      slots_.push_back(std::move(shape));
    }
  }

  std::string content_hash() const { return ContentHash(level_, sum_); }

  // Applies `patch` as PatchLevel does, or changes nothing and says why.
  absl::Status Apply(const v1::PatchLevelRequest& patch) {
    absl::flat_hash_set<uint64_t> ids;
    for (const v1::Shape& shape : patch.upserts()) {
      if (!ids.insert(shape.id()).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("upserts repeat id ", shape.id()));
      }
    }
    for (const uint64_t id : patch.remove_ids()) {
      if (!ids.insert(id).second || !index_.contains(id)) {
        return absl::InvalidArgumentError(
            absl::StrCat("remove_ids ", id, " is repeated or not held"));
      }
    }
    for (const uint64_t id : patch.remove_ids()) {
      const auto it = index_.find(id);
      SubtractShapeHash(sum_, ShapeHash(*slots_[it->second]));
      slots_[it->second].reset();
      index_.erase(it);
    }
    for (const v1::Shape& shape : patch.upserts()) {
      AddShapeHash(sum_, ShapeHash(shape));
      if (const auto it = index_.find(shape.id()); it != index_.end()) {
        SubtractShapeHash(sum_, ShapeHash(*slots_[it->second]));
        slots_[it->second] = shape;
      } else {
        index_[shape.id()] = slots_.size();
        slots_.push_back(shape);
      }
    }
    return absl::OkStatus();
  }

  // Writes the shapes back into the level.
  void Finish() {
    level_.clear_shapes();
    level_.mutable_shapes()->Reserve(static_cast<int>(index_.size()));
    for (std::optional<v1::Shape>& slot : slots_) {
      if (slot) *level_.add_shapes() = std::move(*slot);
    }
  }

 private:
  v1::Level& level_;
  std::vector<std::optional<v1::Shape>> slots_;
  absl::flat_hash_map<uint64_t, size_t> index_;
  ShapeHashSum sum_{};
};

}  // namespace

absl::StatusOr<JournalReplay> ReplayJournal(const std::string& path,
                                            int64_t max_bytes,
                                            v1::Level& level) {
  JournalReplay replay;
  absl::StatusOr<std::string> contents =
      formats::ReadFileContents(path, max_bytes);
  if (absl::IsNotFound(contents.status())) return replay;
  if (!contents.ok()) return contents.status();
  absl::string_view rest = *contents;
  PatchedMessage patched(level);
  const auto stop = [&](absl::string_view why) {
    replay.complete = false;
    replay.stopped = std::string(why);
  };
  while (!rest.empty()) {
    const std::string origin =
        absl::StrCat(path, " record ", replay.applied + 1);
    const size_t frame_bytes =
        rest.size() < formats::kLevelFrameHeaderBytes
            ? rest.size()
            : formats::kLevelFrameHeaderBytes +
                  static_cast<size_t>(std::min<uint64_t>(
                      FramePayloadLength(rest), rest.size()));
    absl::StatusOr<absl::string_view> payload =
        formats::UnframeLevelPayload(rest.substr(0, frame_bytes), origin);
    v1::PatchLevelRequest record;
    if (!payload.ok()) {
      stop(payload.status().message());
      break;
    }
    if (!record.ParseFromArray(payload->data(),
                               static_cast<int>(payload->size()))) {
      stop(absl::StrCat(origin, ": not a patch"));
      break;
    }
    if (record.expected_content_hash() != patched.content_hash()) {
      stop(absl::StrCat(origin,
                        ": applies to other content (left from before the "
                        "level file was rewritten)"));
      break;
    }
    if (absl::Status s = patched.Apply(record); !s.ok()) {
      stop(absl::StrCat(origin, ": ", s.message()));
      break;
    }
    ++replay.applied;
    rest.remove_prefix(frame_bytes);
  }
  patched.Finish();
  return replay;
}

}  // namespace collide::server
