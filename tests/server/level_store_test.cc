#include "server/levels/level_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "collide/v1/geometry.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/level_file.h"

namespace collide::server {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::WallLevel;

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

TEST(LevelStoreTest, PutAssignsIncreasingVersions) {
  LevelStore store(formats::InputLimits{}, "");
  auto a = store.Put(WallLevel("a", 1, 1));
  auto b = store.Put(WallLevel("b", 1, 1));
  auto a2 = store.Put(WallLevel("a", 2, 2));
  ASSERT_TRUE(a.ok() && b.ok() && a2.ok());
  EXPECT_TRUE(a->created);
  EXPECT_FALSE(a2->created);
  EXPECT_LT(a->snapshot->version, b->snapshot->version);
  EXPECT_LT(b->snapshot->version, a2->snapshot->version);
  EXPECT_EQ(store.Find("a"), a2->snapshot);
  EXPECT_EQ(store.Find("missing"), nullptr);
  const auto list = store.List();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]->id, "a");
  EXPECT_EQ(list[1]->id, "b");
}

TEST(LevelStoreTest, ASnapshotHeldByAQueryOutlivesItsReplacement) {
  LevelStore store(formats::InputLimits{}, "");
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  const std::shared_ptr<const LevelSnapshot> held = store.Find("a");
  ASSERT_TRUE(store.Put(WallLevel("a", 2, 2)).ok());
  ASSERT_TRUE(store.Delete("a").ok());
  // The batch holding it still has a whole, unchanged level.
  EXPECT_EQ(held->source->shapes(0).user_data(), 1u);
  EXPECT_EQ(held->level->shape_count(), 1);
}

TEST(LevelStoreTest, InvalidPutKeepsTheOldLevel) {
  LevelStore store(formats::InputLimits{}, "");
  auto first = store.Put(WallLevel("a", 1, 1));
  ASSERT_TRUE(first.ok());
  v1::Level bad = WallLevel("a", 2, 2);
  bad.mutable_shapes(0)->clear_segment();
  EXPECT_EQ(store.Put(bad).status().code(), absl::StatusCode::kInvalidArgument);
  v1::Level bad_id = WallLevel("a/b", 2, 2);
  EXPECT_EQ(store.Put(bad_id).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store.Find("a"), first->snapshot);
}

TEST(LevelStoreTest, OneLevelTooManyIsRefusedNamingMaxLevels) {
  LevelStore store(formats::InputLimits{}, "", StoreLimits{.max_levels = 2});
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  ASSERT_TRUE(store.Put(WallLevel("b", 1, 1)).ok());
  const absl::Status third = store.Put(WallLevel("c", 1, 1)).status();
  EXPECT_EQ(third.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(third.message()),
              HasSubstr("serves 2 levels, max_levels 2"));
  EXPECT_EQ(store.Find("c"), nullptr);
  // Replacing one, or adding one after a delete, still works.
  EXPECT_TRUE(store.Put(WallLevel("a", 2, 2)).ok());
  ASSERT_TRUE(store.Delete("b").ok());
  EXPECT_TRUE(store.Put(WallLevel("c", 1, 1)).ok());
}

TEST(LevelStoreTest, TotalBytesAreCountedAndCapped) {
  LevelStore unlimited(formats::InputLimits{}, "");
  auto a = unlimited.Put(WallLevel("a", 1, 1));
  ASSERT_TRUE(a.ok());
  const int64_t one = HeldBytes(*a->snapshot);
  EXPECT_GT(one, 0);
  EXPECT_EQ(unlimited.total_held_bytes(), one);
  ASSERT_TRUE(unlimited.Put(WallLevel("b", 1, 1)).ok());
  EXPECT_EQ(unlimited.total_held_bytes(), 2 * one);
  ASSERT_TRUE(unlimited.Put(WallLevel("a", 3, 3)).ok());  // a replacement
  EXPECT_EQ(unlimited.total_held_bytes(), 2 * one);
  ASSERT_TRUE(unlimited.Delete("a").ok());
  EXPECT_EQ(unlimited.total_held_bytes(), one);

  // Room for two one-wall levels, not three.
  LevelStore store(formats::InputLimits{}, "",
                   StoreLimits{.max_total_level_bytes = 2 * one + one / 2});
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  ASSERT_TRUE(store.Put(WallLevel("b", 1, 1)).ok());
  const absl::Status third = store.Put(WallLevel("c", 1, 1)).status();
  EXPECT_EQ(third.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(third.message()),
              HasSubstr("more than max_total_level_bytes"));
  EXPECT_EQ(store.Find("c"), nullptr);
  EXPECT_TRUE(store.Put(WallLevel("a", 2, 2)).ok());  // same size: fits
}

TEST(LevelStoreTest, DeleteOfUnknownIdIsNotFound) {
  LevelStore store(formats::InputLimits{}, "");
  EXPECT_EQ(store.Delete("a").status().code(), absl::StatusCode::kNotFound);
}

TEST(LevelStoreTest, PutsPersistAndANewStoreLoadsThem) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_FALSE(dir.empty());
  {
    LevelStore store(formats::InputLimits{}, dir);
    ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
    ASSERT_TRUE(store.Put(WallLevel("b", 1, 7)).ok());
    ASSERT_TRUE(store.Put(WallLevel("a", 3, 3)).ok());
    // Not persisted: a level from the command line or the bundled one.
    ASSERT_TRUE(store.Put(WallLevel("c", 1, 1), /*persist=*/false).ok());
  }
  EXPECT_TRUE(Exists(dir + "/a.binpb"));
  EXPECT_FALSE(Exists(dir + "/c.binpb"));
  LevelStore restarted(formats::InputLimits{}, dir);
  auto loaded = restarted.LoadDirectory();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(loaded->loaded, ElementsAre("a", "b"));
  EXPECT_EQ(restarted.Find("a")->source->shapes(0).user_data(), 3u);
  EXPECT_EQ(restarted.Find("b")->source->shapes(0).user_data(), 7u);
}

TEST(LevelStoreTest, DeleteRemovesTheFile) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  LevelStore store(formats::InputLimits{}, dir);
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  ASSERT_TRUE(Exists(dir + "/a.binpb"));
  ASSERT_TRUE(store.Delete("a").ok());
  EXPECT_FALSE(Exists(dir + "/a.binpb"));
  EXPECT_EQ(store.Find("a"), nullptr);
  LevelStore restarted(formats::InputLimits{}, dir);
  auto loaded = restarted.LoadDirectory();
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->loaded.empty());
}

TEST(LevelStoreTest, DeletedBundledLevelStaysDeletedAfterARestart) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  {
    // Loaded at every start without being persisted, as the bundled level
    // and --level_files are.
    LevelStore store(formats::InputLimits{}, dir);
    ASSERT_TRUE(store.Put(WallLevel("arena", 1, 1), /*persist=*/false).ok());
    ASSERT_TRUE(store.LoadDirectory().ok());
    ASSERT_TRUE(store.Delete("arena").ok());
  }
  {
    LevelStore restarted(formats::InputLimits{}, dir);
    ASSERT_TRUE(
        restarted.Put(WallLevel("arena", 1, 1), /*persist=*/false).ok());
    ASSERT_TRUE(restarted.LoadDirectory().ok());
    EXPECT_EQ(restarted.Find("arena"), nullptr);
    // Putting it again through the service brings it back for good.
    ASSERT_TRUE(restarted.Put(WallLevel("arena", 2, 2)).ok());
  }
  LevelStore again(formats::InputLimits{}, dir);
  ASSERT_TRUE(again.Put(WallLevel("arena", 1, 1), /*persist=*/false).ok());
  ASSERT_TRUE(again.LoadDirectory().ok());
  ASSERT_NE(again.Find("arena"), nullptr);
  EXPECT_EQ(again.Find("arena")->source->shapes(0).user_data(), 2u);
}

TEST(LevelStoreTest, FailedWriteKeepsTheOldLevelAndTheOldFile) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  LevelStore store(formats::InputLimits{}, dir);
  auto first = store.Put(WallLevel("a", 1, 1));
  ASSERT_TRUE(first.ok());
  // A directory where the temporary file must go makes the write fail
  // (even for root, unlike permissions).
  const std::string temp = absl::StrCat(dir, "/a.binpb.tmp.", getpid());
  ASSERT_EQ(mkdir(temp.c_str(), 0755), 0);
  EXPECT_FALSE(store.Put(WallLevel("a", 2, 2)).ok());
  EXPECT_EQ(store.Find("a"), first->snapshot);
  rmdir(temp.c_str());
  auto on_disk = formats::ReadLevelFile(dir + "/a.binpb", 1 << 20);
  ASSERT_TRUE(on_disk.ok()) << on_disk.status();
  EXPECT_EQ(on_disk->shapes(0).user_data(), 1u);
}

TEST(LevelStoreTest, LoadSkipsTemporariesAndPrefersTheBinaryFile) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_TRUE(
      formats::WriteLevelFile(dir + "/a.binpb", WallLevel("a", 1, 1)).ok());
  std::ofstream(dir + "/a.json") << R"({"id": "a", "shapes": []})";
  std::ofstream(dir + "/b.json")
      << R"({"shapes": [{"id": "4", "circle": {"radius": 1}}]})";
  std::ofstream(dir + "/a.binpb.tmp.123") << "half written";
  std::ofstream(dir + "/.hidden.json") << "{";
  std::ofstream(dir + "/README.txt") << "not a level";
  LevelStore store(formats::InputLimits{}, dir);
  auto loaded = store.LoadDirectory();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(loaded->loaded, ElementsAre("a", "b"));
  EXPECT_EQ(store.Find("a")->level->shape_count(), 1);
  EXPECT_EQ(store.Find("b")->id, "b");  // named by its file
}

// Tiled maps in the directory load as levels named by their file,
// as ".tmj" or as ".json" (told from a protobuf JSON level by its keys).
TEST(LevelStoreTest, LoadsTiledMapsNamedByTheirFiles) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  const std::string map = R"({"height":4, "infinite":false,
      "layers":[{"id":1, "name":"collision", "type":"objectgroup",
                 "objects":[{"id":1, "x":0, "y":0, "width":64, "height":8},
                            {"id":2, "ellipse":true, "x":20, "y":20,
                             "width":8, "height":8}]}],
      "orientation":"orthogonal", "tiledversion":"1.10.2", "tileheight":16,
      "tilesets":[], "tilewidth":16, "type":"map", "width":4})";
  std::ofstream(dir + "/yard.tmj") << map;
  std::ofstream(dir + "/court.json") << map;
  LevelStore store(formats::InputLimits{}, dir);
  auto loaded = store.LoadDirectory();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(loaded->loaded, ElementsAre("court", "yard"));
  EXPECT_EQ(store.Find("yard")->level->shape_count(), 2);
  EXPECT_EQ(store.Find("court")->level->shape_count(), 2);
}

TEST(LevelStoreTest, LoadRefusesAFileWhoseIdDiffersFromItsName) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_TRUE(
      formats::WriteLevelFile(dir + "/a.binpb", WallLevel("b", 1, 1)).ok());
  {
    LevelStore store(formats::InputLimits{}, dir);
    auto loaded = store.LoadDirectory(LevelStore::BadLevelFile::kFail);
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(loaded.status().message(), HasSubstr("a.binpb"));
  }
  LevelStore store(formats::InputLimits{}, dir);
  auto loaded = store.LoadDirectory();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->refused.size(), 1u);
  EXPECT_EQ(loaded->refused[0].error.code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(loaded->refused[0].error.message(), HasSubstr("a.binpb"));
  EXPECT_EQ(store.Find("a"), nullptr);
}

// One bad file does not stop every other level from loading: a server
// that refused to start over it would crash-loop every replica.
TEST(LevelStoreTest, LoadSkipsBadFilesAndLoadsTheRest) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_TRUE(
      formats::WriteLevelFile(dir + "/good.binpb", WallLevel("good", 1, 1))
          .ok());
  std::ofstream(dir + "/empty.binpb");  // 0 bytes
  const std::string framed = formats::EncodeLevelFile(WallLevel("cut", 1, 1));
  std::ofstream(dir + "/cut.binpb") << framed.substr(0, framed.size() - 3);
  std::string flipped = formats::EncodeLevelFile(WallLevel("flip", 1, 1));
  flipped[flipped.size() - 2] ^= 0x20;
  std::ofstream(dir + "/flip.binpb") << flipped;
  std::ofstream(dir + "/bad.json") << "{";
  // Unframed binary, as servers before the frame wrote it.
  std::ofstream(dir + "/old.binpb")
      << formats::SerializeLevel(WallLevel("old", 1, 1));

  LevelStore store(formats::InputLimits{}, dir);
  // A bundled level of the id of a bad file keeps serving.
  ASSERT_TRUE(store.Put(WallLevel("cut", 9, 9), /*persist=*/false).ok());
  auto loaded = store.LoadDirectory();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(loaded->loaded, ElementsAre("good", "old"));
  std::vector<std::string> refused;
  for (const LevelStore::DirectoryLoad::Refused& r : loaded->refused) {
    refused.push_back(std::string(r.error.message()));
  }
  EXPECT_THAT(refused,
              ElementsAre(HasSubstr("bad.json: not a valid level"),
                          HasSubstr("cut.binpb: truncated: header says"),
                          HasSubstr("empty.binpb: empty file (0 bytes)"),
                          HasSubstr("flip.binpb: corrupted: checksum")));
  EXPECT_EQ(loaded->refused[1].error.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(loaded->refused[1].id, "cut");
  EXPECT_EQ(loaded->refused[1].path, dir + "/cut.binpb");
  EXPECT_NE(store.Find("good"), nullptr);
  EXPECT_NE(store.Find("old"), nullptr);
  EXPECT_EQ(store.Find("flip"), nullptr);
  EXPECT_EQ(store.Find("cut")->source->shapes(0).user_data(), 9u);

  LevelStore strict(formats::InputLimits{}, dir);
  const auto failed = strict.LoadDirectory(LevelStore::BadLevelFile::kFail);
  EXPECT_THAT(failed.status().message(), HasSubstr("bad.json"));
}

// A write interrupted between creating its temporary file and the
// rename leaves "{name}.tmp.{pid}"; the next start removes it, unless it is
// fresh and another process's (a replica sharing the directory may be
// writing it right now).
TEST(LevelStoreTest, LoadRemovesLeftoverTemporaryFiles) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  const std::string stale = dir + "/a.binpb.tmp.999999999";
  const std::string own = absl::StrCat(dir, "/b.binpb.tmp.", getpid());
  const std::string fresh = dir + "/c.binpb.tmp.999999998";
  const std::string other = dir + "/notes.txt.tmp.1";
  for (const std::string& path : {stale, own, fresh, other}) {
    std::ofstream(path) << "half written";
  }
  // Last touched two minutes ago.
  const timespec old_time{time(nullptr) - 120, 0};
  const timespec times[2] = {old_time, old_time};
  ASSERT_EQ(utimensat(AT_FDCWD, stale.c_str(), times, 0), 0);

  LevelStore store(formats::InputLimits{}, dir);
  EXPECT_THAT(store.RemoveLeftoverTemporaries(),
              ::testing::UnorderedElementsAre(stale, own));
  EXPECT_FALSE(Exists(stale));
  EXPECT_FALSE(Exists(own));
  EXPECT_TRUE(Exists(fresh));
  EXPECT_TRUE(Exists(other));  // not a level file's temporary
  EXPECT_TRUE(store.RemoveLeftoverTemporaries().empty());
}

TEST(LevelStoreTest, ReadersSeeWholeSnapshotsWhilePutsSwap) {
  LevelStore store(formats::InputLimits{}, "");
  ASSERT_TRUE(store.Put(WallLevel("a", 0, 0)).ok());
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      int64_t last = 0;
      while (!stop) {
        const auto snapshot = store.Find("a");
        // The built level and its source always belong together, and
        // versions seen by one reader never go back.
        const double x = snapshot->source->shapes(0).segment().p1().x();
        if (snapshot->level->segment(0).p1.x != x || snapshot->version < last) {
          ++bad;
        }
        last = snapshot->version;
      }
    });
  }
  for (int k = 1; k <= 200; ++k) {
    if (!store.Put(WallLevel("a", k, static_cast<uint64_t>(k))).ok()) {
      ADD_FAILURE() << "put " << k;  // not ASSERT: join the readers first
      break;
    }
  }
  stop = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(bad, 0);
}

TEST(LevelStoreTest, SyncLevelWithTheServedContentIsNoNewVersion) {
  LevelStore store(formats::InputLimits{}, "");
  auto put = store.Put(WallLevel("a", 1, 1));
  ASSERT_TRUE(put.ok());
  auto synced = store.SyncLevel(WallLevel("a", 1, 1), [] { return true; });
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(synced->change, LevelStore::SyncChange::kUnchanged);
  EXPECT_EQ(store.Find("a")->version, put->snapshot->version);

  synced = store.SyncLevel(WallLevel("a", 2, 2), [] { return true; });
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(synced->change, LevelStore::SyncChange::kReplaced);
  EXPECT_GT(store.Find("a")->version, put->snapshot->version);
  synced = store.SyncLevel(WallLevel("b", 2, 2), [] { return true; });
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(synced->change, LevelStore::SyncChange::kCreated);
}

TEST(LevelStoreTest, SyncLevelThatIsNoLongerCurrentChangesNothing) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  LevelStore store(formats::InputLimits{}, dir);
  auto put = store.Put(WallLevel("a", 1, 1));
  ASSERT_TRUE(put.ok());
  auto synced = store.SyncLevel(WallLevel("a", 2, 2), [] { return false; });
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(synced->change, LevelStore::SyncChange::kStale);
  EXPECT_EQ(store.Find("a")->version, put->snapshot->version);
  EXPECT_EQ(store.UnloadLevel("a", [] { return false; }).change,
            LevelStore::SyncChange::kStale);
  EXPECT_NE(store.Find("a"), nullptr);
  // Never persisted: the directory still holds the put's level.
  auto file = formats::ReadLevelFile(dir + "/a.binpb", 1 << 20);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->shapes(0).user_data(), 1u);
}

TEST(LevelStoreTest, SyncLevelRefusesAnInvalidLevelAndKeepsTheOld) {
  LevelStore store(formats::InputLimits{}, "");
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  v1::Level invalid = WallLevel("a", 1, 1);
  invalid.mutable_shapes(0)->mutable_circle()->set_radius(-1);
  auto synced = store.SyncLevel(invalid, [] { return true; });
  EXPECT_EQ(synced.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store.Find("a")->source->shapes(0).user_data(), 1u);
}

TEST(LevelStoreTest, UnloadLevelLeavesTheFilesAlone) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  LevelStore store(formats::InputLimits{}, dir);
  ASSERT_TRUE(store.Put(WallLevel("a", 1, 1)).ok());
  EXPECT_EQ(store.UnloadLevel("a", [] { return true; }).change,
            LevelStore::SyncChange::kRemoved);
  EXPECT_EQ(store.Find("a"), nullptr);
  EXPECT_TRUE(Exists(dir + "/a.binpb"));
  EXPECT_FALSE(Exists(dir + "/a.deleted"));
  EXPECT_EQ(store.UnloadLevel("a", [] { return true; }).change,
            LevelStore::SyncChange::kUnchanged);
}

}  // namespace
}  // namespace collide::server
