// FleetCopy on a real temporary directory: what is recorded and flushed
// comes back from Load, revisions only move forward unless forced, files
// the index does not name are removed, and a copy that is not this
// store's, malformed, or names an unsafe path is not used.
#include "server/fleet/fleet_copy.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"

namespace collide::server {
namespace {

constexpr int64_t kMaxBytes = 1 << 20;
const std::string kHashA(64, 'a');
const std::string kHashB(64, 'b');

// Loads `copy`, returning id -> bytes of every level it reported.
std::map<std::string, std::string> LoadLevels(
    FleetCopy& copy, std::vector<std::string>* notes = nullptr) {
  std::map<std::string, std::string> levels;
  absl::StatusOr<std::vector<std::string>> loaded = copy.Load(
      kMaxBytes,
      [&](const std::string& id, const std::string& b) { levels[id] = b; });
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (loaded.ok() && notes != nullptr) *notes = *loaded;
  return levels;
}

bool Exists(const std::string& path) { return std::filesystem::exists(path); }

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(FleetCopyTest, WhatIsFlushedComesBackFromLoad) {
  testing::TempDir dir;
  {
    FleetCopy copy(dir.path(), "fleet");
    LoadLevels(copy);
    copy.Reset("epoch1");
    copy.Record("doors", {3, kHashA}, [] { return std::string("bytes a"); });
    copy.Record("arena", {2, std::string(FleetCopy::kTombstone)},
                [] { return std::string("unused"); });
    ASSERT_TRUE(copy.Flush().ok());
  }
  FleetCopy again(dir.path(), "fleet");
  const std::map<std::string, std::string> levels = LoadLevels(again);
  EXPECT_EQ(again.epoch(), "epoch1");
  ASSERT_EQ(levels.size(), 1u);
  EXPECT_EQ(levels.at("doors"), "bytes a");
  const std::map<std::string, FleetCopy::Entry> entries = again.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries.at("doors").revision, 3);
  EXPECT_EQ(entries.at("doors").content_hash, kHashA);
  EXPECT_EQ(entries.at("arena").revision, 2);
  EXPECT_EQ(entries.at("arena").content_hash, FleetCopy::kTombstone);
}

TEST(FleetCopyTest, AnOlderRevisionDoesNotReplaceANewerOneUnlessForced) {
  FleetCopy copy("", "fleet");
  copy.Reset("epoch1");
  copy.Record("doors", {5, kHashA}, [] { return std::string(); });
  copy.Record("doors", {4, kHashB}, [] { return std::string(); });
  EXPECT_EQ(copy.entries().at("doors").content_hash, kHashA);
  copy.Record(
      "doors", {4, kHashB}, [] { return std::string(); },
      /*force=*/true);
  EXPECT_EQ(copy.entries().at("doors").revision, 4);
  EXPECT_EQ(copy.entries().at("doors").content_hash, kHashB);
  EXPECT_TRUE(copy.Flush().ok());  // memory only: nothing to write
}

TEST(FleetCopyTest, AReplacedLevelsFileGoesAtTheNextFlush) {
  testing::TempDir dir;
  FleetCopy copy(dir.path(), "fleet");
  LoadLevels(copy);
  copy.Reset("epoch1");
  copy.Record("doors", {1, kHashA}, [] { return std::string("a"); });
  ASSERT_TRUE(copy.Flush().ok());
  const std::string old_file =
      absl::StrCat(dir.path(), "/doors.", kHashA, ".binpb");
  ASSERT_TRUE(Exists(old_file));
  copy.Record("doors", {2, kHashB}, [] { return std::string("b"); });
  EXPECT_TRUE(Exists(old_file)) << "the index on disk still names it";
  ASSERT_TRUE(copy.Flush().ok());
  EXPECT_FALSE(Exists(old_file));
  EXPECT_TRUE(Exists(absl::StrCat(dir.path(), "/doors.", kHashB, ".binpb")));
}

TEST(FleetCopyTest, CopyFilesTheIndexDoesNotNameAreRemovedAtLoad) {
  testing::TempDir dir;
  {
    FleetCopy copy(dir.path(), "fleet");
    LoadLevels(copy);
    copy.Reset("epoch1");
    copy.Record("doors", {1, kHashA}, [] { return std::string("a"); });
    ASSERT_TRUE(copy.Flush().ok());
  }
  const std::string stray =
      absl::StrCat(dir.path(), "/doors.", kHashB, ".binpb");
  const std::string temporary = absl::StrCat(dir.path(), "/fleet.index.tmp.7");
  const std::string stray_temporary = stray + ".tmp.7";
  // Not the copy's own: a level directory's file, and anything else.
  const std::string level_file = absl::StrCat(dir.path(), "/doors.binpb");
  const std::string other = absl::StrCat(dir.path(), "/notes.txt");
  for (const std::string& path :
       {stray, temporary, stray_temporary, level_file, other}) {
    WriteText(path, "x");
  }
  FleetCopy copy(dir.path(), "fleet");
  EXPECT_EQ(LoadLevels(copy).size(), 1u);
  EXPECT_FALSE(Exists(stray));
  EXPECT_FALSE(Exists(temporary));
  EXPECT_FALSE(Exists(stray_temporary));
  EXPECT_TRUE(Exists(level_file));
  EXPECT_TRUE(Exists(other));
}

TEST(FleetCopyTest, AnEntryWhoseFileIsGoneIsDroppedWithANote) {
  testing::TempDir dir;
  {
    FleetCopy copy(dir.path(), "fleet");
    LoadLevels(copy);
    copy.Reset("epoch1");
    copy.Record("doors", {1, kHashA}, [] { return std::string("a"); });
    ASSERT_TRUE(copy.Flush().ok());
  }
  std::filesystem::remove(
      absl::StrCat(dir.path(), "/doors.", kHashA, ".binpb"));
  FleetCopy copy(dir.path(), "fleet");
  std::vector<std::string> notes;
  EXPECT_TRUE(LoadLevels(copy, &notes).empty());
  EXPECT_TRUE(copy.entries().empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("dropped level doors"), std::string::npos)
      << notes[0];
}

TEST(FleetCopyTest, ACopyOfAnotherPrefixIsNotUsed) {
  testing::TempDir dir;
  {
    FleetCopy copy(dir.path(), "fleet");
    LoadLevels(copy);
    copy.Reset("epoch1");
    copy.Record("arena", {2, std::string(FleetCopy::kTombstone)},
                [] { return std::string(); });
    ASSERT_TRUE(copy.Flush().ok());
  }
  FleetCopy other(dir.path(), "another");
  std::vector<std::string> notes;
  LoadLevels(other, &notes);
  EXPECT_EQ(other.epoch(), "");
  EXPECT_TRUE(other.entries().empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("prefix \"fleet\""), std::string::npos) << notes[0];
}

TEST(FleetCopyTest, AMalformedIndexIsDataLoss) {
  testing::TempDir dir;
  WriteText(absl::StrCat(dir.path(), "/fleet.index"),
            "collide fleet copy 1\nprefix fleet\nepoch e\ndoors three " +
                kHashA + "\n");
  FleetCopy copy(dir.path(), "fleet");
  absl::StatusOr<std::vector<std::string>> loaded =
      copy.Load(kMaxBytes, [](const std::string&, const std::string&) {});
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(loaded.status().message().find("line 4"), std::string::npos)
      << loaded.status();
}

TEST(FleetCopyTest, AnIdOrHashThatCouldNameAPathIsNotRecorded) {
  testing::TempDir dir;
  FleetCopy copy(dir.path(), "fleet");
  LoadLevels(copy);
  copy.Reset("epoch1");
  copy.Record("../escape", {1, kHashA}, [] { return std::string("x"); });
  copy.Record("doors", {1, "../../etc"}, [] { return std::string("x"); });
  EXPECT_TRUE(copy.entries().empty());
  EXPECT_FALSE(
      Exists(absl::StrCat(dir.path(), "/../escape.", kHashA, ".binpb")));
}

}  // namespace
}  // namespace collide::server
