// The patch journal of a level directory: "{id}.patches" beside the
// server's level file "{id}.binpb", so that persisting a patch costs the
// patch's size, not the level's (the level file is rewritten only when the
// patches are folded in: a put, or a patch that rebuilds the level whole).
//
// The file is a sequence of records, each framed as a level file is
// (level_frame.h: magic, version, length, CRC-32) around a serialized
// PatchLevelRequest holding upserts and remove_ids, whose
// expected_content_hash is the content hash of the level it applies to.
// Reading replays records in order while each one's hash is the content
// hash reached so far; the first that is not (a journal left from before
// the level file was rewritten), or that is cut short by a crash, or does
// not apply, ends the replay, and the level is what was reached. Each
// append is fsynced before the patch is served, and an append that fails
// is cut off again, so a served patch is never lost by a restart.
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_JOURNAL_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_JOURNAL_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.pb.h"

namespace collide::server {

inline constexpr absl::string_view kJournalExtension = ".patches";

// Appends one record to the journal at `path` (created if missing):
// `patch`'s upserts and remove_ids, applying to content hash
// `applies_to`. Durable (fsync) when it returns OK; on error the file is
// left as it was.
absl::Status AppendJournalRecord(const std::string& path,
                                 const v1::PatchLevelRequest& patch,
                                 absl::string_view applies_to);

// What replaying a journal did.
struct JournalReplay {
  // Records applied.
  int applied = 0;
  // Whether every record of the file was applied (an absent or empty
  // journal is complete): the level directory then holds exactly the level
  // reached, and later patches may be appended.
  bool complete = true;
  // Why the replay stopped early (empty when complete).
  std::string stopped;
};

// Replays the journal at `path` (absent: nothing to do) onto `level`, the
// content of the level file it follows: replaced shapes keep their place,
// added ones go last. Linear in the level plus the journal. Errors: the
// journal cannot be read (other than absent) or is larger than max_bytes.
absl::StatusOr<JournalReplay> ReplayJournal(const std::string& path,
                                            int64_t max_bytes,
                                            v1::Level& level);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_JOURNAL_H_
