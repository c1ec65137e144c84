// LevelDirWatcher against a real directory: files that appear, change,
// vanish, are bad and then fixed, a Kubernetes ConfigMap's symlink swap,
// and the server's own puts, which must not come back as reloads. The
// watcher polls every few milliseconds on its own thread; every wait is
// bounded (5 s) and waits for a state or a number of completed polls, never
// for a time.
#include "server/levels/level_dir_watcher.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "collide/v1/geometry.pb.h"
#include "e2e_helpers.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/level_file.h"
#include "server/levels/level_store.h"

namespace collide::server {
namespace {

using testing::WallLevel;

constexpr auto kWaitLimit = std::chrono::seconds(5);

// True once `condition` holds, false if it still does not after kWaitLimit.
bool WaitFor(const std::function<bool()>& condition) {
  const auto give_up = std::chrono::steady_clock::now() + kWaitLimit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

// Writes `contents` to `path` as editors and kubectl do: a temporary file
// renamed over it.
void ReplaceFile(const std::string& path, const std::string& contents) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << contents;
  }
  ASSERT_EQ(rename(temporary.c_str(), path.c_str()), 0) << path;
}

std::string Json(const v1::Level& level) {
  absl::StatusOr<std::string> json = formats::LevelToJson(level);
  EXPECT_TRUE(json.ok()) << json.status();
  return json.ok() ? *json : "";
}

// A level as people write it: JSON with no id (the file name gives it).
std::string WallJson(double wall_x, uint64_t tag) {
  return Json(WallLevel("", wall_x, tag));
}

class LevelDirWatcherTest : public ::testing::Test {
 protected:
  LevelDirWatcherTest() : store_(formats::InputLimits{}, dir_.path()) {}
  ~LevelDirWatcherTest() override {
    if (watcher_ != nullptr) watcher_->Stop();
  }

  // Starts a watcher polling every 2 ms, primed as the server primes it.
  void StartWatcher(std::map<std::string, BaseLevel, std::less<>> base = {}) {
    LevelDirWatcherOptions options;
    options.level_dir = dir_.path();
    options.poll_interval = absl::Milliseconds(2);
    options.base_levels = std::move(base);
    options.skipped = &skipped_;
    watcher_ = std::make_unique<LevelDirWatcher>(store_, std::move(options));
    watcher_->Prime();
    ASSERT_TRUE(store_.LoadDirectory().ok());
    watcher_->Start();
  }

  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_.path(), "/", name);
  }

  // The tag (first shape's user_data) of the level served as `id`, or 0
  // when none is.
  uint64_t ServedTag(const std::string& id) const {
    const auto snapshot = store_.Find(id);
    if (snapshot == nullptr || snapshot->source->shapes_size() == 0) return 0;
    return snapshot->source->shapes(0).user_data();
  }
  int64_t ServedVersion(const std::string& id) const {
    const auto snapshot = store_.Find(id);
    return snapshot == nullptr ? 0 : snapshot->version;
  }

  // Waits until `polls` more polls have completed: enough for any change
  // made before the call to have been seen and applied.
  bool WaitForPolls(int polls = 3) {
    const int64_t target = watcher_->polls_completed() + polls;
    return WaitFor([&] { return watcher_->polls_completed() >= target; });
  }

  testing::TempDir dir_;
  LevelStore store_;
  SkippedLevelFiles skipped_;
  std::unique_ptr<LevelDirWatcher> watcher_;
};

TEST_F(LevelDirWatcherTest, ANewFileIsLoadedUnderItsFileName) {
  ASSERT_FALSE(dir_.path().empty());
  StartWatcher();
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  ASSERT_TRUE(WaitFor([&] { return ServedTag("dock") == 11; }));
  EXPECT_EQ(store_.Find("dock")->level->shape_count(), 1);
}

TEST_F(LevelDirWatcherTest, AChangedFileReplacesTheLevelWithANewVersion) {
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  StartWatcher();
  ASSERT_EQ(ServedTag("dock"), 11u);  // loaded at start
  const int64_t first = ServedVersion("dock");

  ReplaceFile(Path("dock.json"), WallJson(6, 22));
  ASSERT_TRUE(WaitFor([&] { return ServedTag("dock") == 22; }));
  EXPECT_GT(ServedVersion("dock"), first);

  // Rewritten in place (same inode, another size), as some editors save.
  {
    std::ofstream out(Path("dock.json"), std::ios::trunc);
    out << WallJson(7.5, 333);
  }
  EXPECT_TRUE(WaitFor([&] { return ServedTag("dock") == 333; }));
}

TEST_F(LevelDirWatcherTest, ARemovedFileDropsTheLevel) {
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  StartWatcher();
  ASSERT_NE(store_.Find("dock"), nullptr);
  ASSERT_EQ(unlink(Path("dock.json").c_str()), 0);
  EXPECT_TRUE(WaitFor([&] { return store_.Find("dock") == nullptr; }));
}

TEST_F(LevelDirWatcherTest, ABadFileIsIgnoredUntilFixed) {
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  StartWatcher();
  const int64_t version = ServedVersion("dock");

  // Half a file, as an editor's save caught mid-write: not JSON.
  const std::string whole = WallJson(6, 22);
  ReplaceFile(Path("dock.json"), whole.substr(0, whole.size() / 2));
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(ServedTag("dock"), 11u);
  EXPECT_EQ(ServedVersion("dock"), version);

  // Valid JSON, invalid level (negative radius): refused too.
  v1::Level invalid;
  v1::Shape* shape = invalid.add_shapes();
  shape->set_id(1);
  shape->mutable_circle()->set_radius(-1);
  ReplaceFile(Path("dock.json"), Json(invalid));
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(ServedTag("dock"), 11u);
  EXPECT_EQ(ServedVersion("dock"), version);

  // Recorded for ListLevels and health while refused.
  ASSERT_EQ(skipped_.List().size(), 1u);
  EXPECT_EQ(skipped_.List()[0].level_id, "dock");
  EXPECT_EQ(skipped_.List()[0].path, Path("dock.json"));
  EXPECT_EQ(skipped_.List()[0].error.code(),
            absl::StatusCode::kInvalidArgument);

  ReplaceFile(Path("dock.json"), whole);
  EXPECT_TRUE(WaitFor([&] { return ServedTag("dock") == 22; }));
  // Cleared right after the swap, by the same poll.
  EXPECT_TRUE(WaitFor([&] { return skipped_.empty(); }));
}

TEST_F(LevelDirWatcherTest, ABadNewFileServesNothingUntilFixed) {
  StartWatcher();
  ReplaceFile(Path("dock.json"), "{\"shapes\": [");
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(store_.Find("dock"), nullptr);
  EXPECT_FALSE(skipped_.empty());
  // Removing the bad file settles the id too.
  ASSERT_EQ(unlink(Path("dock.json").c_str()), 0);
  EXPECT_TRUE(WaitFor([&] { return skipped_.empty(); }));
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  EXPECT_TRUE(WaitFor([&] { return ServedTag("dock") == 11; }));
}

TEST_F(LevelDirWatcherTest, AFileNamingAnotherLevelIdIsRefused) {
  StartWatcher();
  ReplaceFile(Path("dock.json"), Json(WallLevel("pier", 5, 11)));
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(store_.Find("dock"), nullptr);
  EXPECT_EQ(store_.Find("pier"), nullptr);
}

TEST_F(LevelDirWatcherTest, TheServersOwnPutsAndDeletesAreNotReloaded) {
  StartWatcher();
  auto put = store_.Put(WallLevel("dock", 5, 11));
  ASSERT_TRUE(put.ok()) << put.status();
  ASSERT_TRUE(WaitForPolls());
  // The file it wrote was seen and read back, and is the same content: no
  // new version.
  EXPECT_EQ(ServedVersion("dock"), put->snapshot->version);

  auto replaced = store_.Put(WallLevel("dock", 6, 22));
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(ServedVersion("dock"), replaced->snapshot->version);
  EXPECT_EQ(ServedTag("dock"), 22u);

  ASSERT_TRUE(store_.Delete("dock").ok());
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(store_.Find("dock"), nullptr);
}

// A patch appends to "{id}.patches"; read back with the level file it is
// the served content again, not a reload.
TEST_F(LevelDirWatcherTest, TheServersOwnPatchesAreNotReloaded) {
  StartWatcher();
  ASSERT_TRUE(store_.Put(WallLevel("dock", 5, 11)).ok());
  v1::PatchLevelRequest patch;
  *patch.add_upserts() = WallLevel("", 6, 22).shapes(0);
  auto patched = store_.Patch("dock", patch);
  ASSERT_TRUE(patched.ok()) << patched.status();
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(ServedVersion("dock"), patched->snapshot->version);
  EXPECT_EQ(store_.Find("dock")->content_hash, patched->snapshot->content_hash);
}

// Replicas sharing a level directory: a patch through another server's
// store reaches this one through the journal.
TEST_F(LevelDirWatcherTest, AnotherServersPatchIsServedHere) {
  StartWatcher();
  LevelStore other(formats::InputLimits{}, dir_.path());
  ASSERT_TRUE(other.Put(WallLevel("dock", 5, 11)).ok());
  ASSERT_TRUE(WaitFor([&] { return ServedTag("dock") == 11; }));
  v1::PatchLevelRequest patch;
  v1::Shape crate = WallLevel("", 9, 33).shapes(0);
  crate.set_id(2);
  *patch.add_upserts() = crate;
  auto patched = other.Patch("dock", patch);
  ASSERT_TRUE(patched.ok()) << patched.status();
  ASSERT_TRUE(WaitFor([&] {
    const auto served = store_.Find("dock");
    return served != nullptr &&
           served->content_hash == patched->snapshot->content_hash;
  }));
  EXPECT_EQ(DescribeSnapshot(*store_.Find("dock")).shape_count(), 2);
}

TEST_F(LevelDirWatcherTest, ReadsRacingPutsNeverRevertThem) {
  StartWatcher();
  // Puts as fast as they go while the watcher polls every 2 ms: a watcher
  // that swapped in a file it read just before a put rewrote it would
  // leave an older content served, with nothing left to correct it.
  constexpr int kPuts = 40;
  for (int i = 1; i <= kPuts; ++i) {
    ASSERT_TRUE(
        store_.Put(WallLevel("dock", i, static_cast<uint64_t>(i))).ok());
  }
  const int64_t version = ServedVersion("dock");
  ASSERT_TRUE(WaitForPolls());
  EXPECT_EQ(ServedTag("dock"), static_cast<uint64_t>(kPuts));
  EXPECT_EQ(ServedVersion("dock"), version);
}

TEST_F(LevelDirWatcherTest, RemovingTheDirectoryCopyRestoresTheBaseLevel) {
  // "arena" as the bundled default or --level_files would serve it.
  auto base = store_.Put(WallLevel("arena", 1, 1), /*persist=*/false);
  ASSERT_TRUE(base.ok());
  StartWatcher({{"arena", {base->snapshot->source, "the bundled default"}}});

  ReplaceFile(Path("arena.json"), WallJson(2, 2));
  ASSERT_TRUE(WaitFor([&] { return ServedTag("arena") == 2; }));
  ASSERT_EQ(unlink(Path("arena.json").c_str()), 0);
  EXPECT_TRUE(WaitFor([&] { return ServedTag("arena") == 1; }));

  // A tombstone drops it, as a restart would; removing it brings it back.
  ReplaceFile(Path("arena.deleted"), "");
  ASSERT_TRUE(WaitFor([&] { return store_.Find("arena") == nullptr; }));
  ASSERT_EQ(unlink(Path("arena.deleted").c_str()), 0);
  EXPECT_TRUE(WaitFor([&] { return ServedTag("arena") == 1; }));
}

TEST_F(LevelDirWatcherTest, AConfigMapSymlinkSwapReplacesAndDropsLevels) {
  // How the kubelet lays out a ConfigMap volume: the data in a timestamped
  // hidden directory, "..data" a symlink to it, and each key a symlink
  // through "..data". An update writes a new directory and renames a new
  // "..data" link over the old one.
  ASSERT_EQ(mkdir(Path("..2024_01").c_str(), 0755), 0);
  ReplaceFile(Path("..2024_01/dock.json"), WallJson(5, 11));
  ReplaceFile(Path("..2024_01/pier.json"), WallJson(5, 44));
  ASSERT_EQ(symlink("..2024_01", Path("..data").c_str()), 0);
  ASSERT_EQ(symlink("..data/dock.json", Path("dock.json").c_str()), 0);
  ASSERT_EQ(symlink("..data/pier.json", Path("pier.json").c_str()), 0);
  StartWatcher();
  ASSERT_EQ(ServedTag("dock"), 11u);
  ASSERT_EQ(ServedTag("pier"), 44u);

  // The update changes dock and removes pier from the ConfigMap.
  ASSERT_EQ(mkdir(Path("..2024_02").c_str(), 0755), 0);
  ReplaceFile(Path("..2024_02/dock.json"), WallJson(6, 22));
  ASSERT_EQ(symlink("..2024_02", Path("..data_tmp").c_str()), 0);
  ASSERT_EQ(rename(Path("..data_tmp").c_str(), Path("..data").c_str()), 0);
  EXPECT_TRUE(WaitFor([&] { return ServedTag("dock") == 22; }));
  // pier.json now dangles (the kubelet removes it a moment later).
  EXPECT_TRUE(WaitFor([&] { return store_.Find("pier") == nullptr; }));
}

TEST_F(LevelDirWatcherTest, HiddenAndTemporaryFilesAreNotLevels) {
  StartWatcher();
  ReplaceFile(Path(".dock.json"), WallJson(5, 11));
  ReplaceFile(Path("dock.json.swp"), WallJson(5, 11));
  ReplaceFile(Path("dock.binpb.tmp.123"), WallJson(5, 11));
  ASSERT_TRUE(WaitForPolls());
  EXPECT_TRUE(store_.List().empty());
}

TEST_F(LevelDirWatcherTest, StopEndsPolling) {
  StartWatcher();
  ASSERT_TRUE(WaitForPolls(1));
  watcher_->Stop();
  const int64_t polls = watcher_->polls_completed();
  // Stop joined the thread: no poll can complete after it returned, so a
  // new file stays unseen.
  ReplaceFile(Path("dock.json"), WallJson(5, 11));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(watcher_->polls_completed(), polls);
  EXPECT_EQ(store_.Find("dock"), nullptr);
}

}  // namespace
}  // namespace collide::server
