// The patch journal (server/levels/level_journal.h): records replay onto the
// level file they follow, and a replay stops, keeping what it reached, at a
// torn record or at records left from an older level file.
#include "server/levels/level_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "collide/v1/level_service.pb.h"
#include "gtest/gtest.h"
#include "proto/formats/file_io.h"
#include "server/levels/content_hash.h"
#include "tests/support/temp_dir.h"

namespace collide::server {
namespace {

v1::Shape Circle(uint64_t id, double x) {
  v1::Shape shape;
  shape.set_id(id);
  shape.mutable_circle()->mutable_center()->set_x(x);
  shape.mutable_circle()->set_radius(1);
  return shape;
}

class LevelJournalTest : public ::testing::Test {
 protected:
  LevelJournalTest() : path_(absl::StrCat(dir_.path(), "/a.patches")) {
    for (uint64_t id = 1; id <= 3; ++id) {
      *level_.add_shapes() = Circle(id, static_cast<double>(id));
    }
  }

  // Appends {remove 1, replace 2, add 9} to level_'s content; returns the
  // content it leads to.
  v1::Level AppendFirst() {
    v1::PatchLevelRequest patch;
    patch.add_remove_ids(1);
    *patch.add_upserts() = Circle(2, 20);
    *patch.add_upserts() = Circle(9, 90);
    EXPECT_TRUE(AppendJournalRecord(path_, patch, ContentHash(level_)).ok());
    v1::Level after;
    *after.add_shapes() = Circle(2, 20);
    *after.add_shapes() = Circle(3, 3);
    *after.add_shapes() = Circle(9, 90);
    return after;
  }

  testing::TempDir dir_;
  std::string path_;
  v1::Level level_;
};

TEST_F(LevelJournalTest, AbsentJournalIsCompleteAndChangesNothing) {
  v1::Level level = level_;
  absl::StatusOr<JournalReplay> replay = ReplayJournal(path_, 1 << 20, level);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_TRUE(replay->complete);
  EXPECT_EQ(replay->applied, 0);
  EXPECT_EQ(level.SerializeAsString(), level_.SerializeAsString());
}

TEST_F(LevelJournalTest, RecordsReplayInOrderOntoTheLevelFile) {
  v1::Level after = AppendFirst();
  v1::PatchLevelRequest second;
  second.add_remove_ids(3);
  ASSERT_TRUE(AppendJournalRecord(path_, second, ContentHash(after)).ok());
  after.mutable_shapes()->DeleteSubrange(1, 1);

  v1::Level level = level_;
  absl::StatusOr<JournalReplay> replay = ReplayJournal(path_, 1 << 20, level);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_TRUE(replay->complete) << replay->stopped;
  EXPECT_EQ(replay->applied, 2);
  // Replaced shapes keep their place, added ones go last.
  EXPECT_EQ(level.SerializeAsString(), after.SerializeAsString());
}

TEST_F(LevelJournalTest, TornLastRecordEndsTheReplayWithWhatWasReached) {
  const v1::Level after = AppendFirst();
  v1::PatchLevelRequest second;
  second.add_remove_ids(3);
  ASSERT_TRUE(AppendJournalRecord(path_, second, ContentHash(after)).ok());
  // A crash in the middle of the second append.
  absl::StatusOr<std::string> bytes = formats::ReadFileContents(path_, 1 << 20);
  ASSERT_TRUE(bytes.ok());
  ASSERT_EQ(truncate(path_.c_str(), static_cast<off_t>(bytes->size() - 3)), 0);

  v1::Level level = level_;
  absl::StatusOr<JournalReplay> replay = ReplayJournal(path_, 1 << 20, level);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_FALSE(replay->complete);
  EXPECT_EQ(replay->applied, 1);
  EXPECT_NE(replay->stopped.find("record 2: truncated"), std::string::npos)
      << replay->stopped;
  EXPECT_EQ(level.SerializeAsString(), after.SerializeAsString());
}

TEST_F(LevelJournalTest, RecordsForOtherContentAreNotApplied) {
  AppendFirst();
  // The level file was rewritten (a put) but the old journal stayed.
  v1::Level other = level_;
  other.mutable_shapes(0)->set_user_data(5);
  const v1::Level before = other;
  absl::StatusOr<JournalReplay> replay = ReplayJournal(path_, 1 << 20, other);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_FALSE(replay->complete);
  EXPECT_EQ(replay->applied, 0);
  EXPECT_NE(replay->stopped.find("applies to other content"),
            std::string::npos);
  EXPECT_EQ(other.SerializeAsString(), before.SerializeAsString());
}

}  // namespace
}  // namespace collide::server
