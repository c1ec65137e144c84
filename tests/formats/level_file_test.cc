// Level files: JSON and binary round trips, format detection, atomic writes,
// and every kind of bad file with its code.
#include "proto/formats/level_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "collide/v1/geometry.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/level_frame.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

// What a person writes: uint64 ids as strings or numbers, camelCase or
// snake_case field names (protobuf JSON accepts both).
constexpr char kArenaJson[] = R"json({
  "id": "arena",
  "cellSize": 4,
  "shapes": [
    {"id": "1", "categoryBits": "2", "userData": 7,
     "box": {"center": {"x": 0, "y": -1}, "half_extents": {"x": 20, "y": 1},
             "angleRadians": 0.25}},
    {"id": 2, "circle": {"center": {"x": 4, "y": 3}, "radius": 0.5}},
    {"id": 3, "polyline": {"vertices": [{"x": 0}, {"x": 1, "y": 1}], "closed": false}},
    {"id": 4, "polygon": {"vertices": [{"x": 0}, {"x": 1}, {"y": 1}]}},
    {"id": 5, "segment": {"p1": {"x": -1}, "p2": {"x": 1}}},
    {"id": 6, "capsule": {"p1": {}, "p2": {"y": 2}, "radius": 0.25}}
  ]
})json";

v1::Level ArenaMessage() {
  v1::Level level;
  level.set_id("arena");
  level.set_cell_size(4);
  v1::Shape* box = level.add_shapes();
  box->set_id(1);
  box->set_category_bits(2);
  box->set_user_data(7);
  box->mutable_box()->mutable_center()->set_y(-1);
  box->mutable_box()->mutable_half_extents()->set_x(20);
  box->mutable_box()->mutable_half_extents()->set_y(1);
  box->mutable_box()->set_angle_radians(0.25);
  v1::Shape* circle = level.add_shapes();
  circle->set_id(2);
  circle->mutable_circle()->mutable_center()->set_x(4);
  circle->mutable_circle()->mutable_center()->set_y(3);
  circle->mutable_circle()->set_radius(0.5);
  v1::Shape* polyline = level.add_shapes();
  polyline->set_id(3);
  polyline->mutable_polyline()->add_vertices();
  polyline->mutable_polyline()->mutable_vertices(0)->set_x(0);
  v1::Vec2* v = polyline->mutable_polyline()->add_vertices();
  v->set_x(1);
  v->set_y(1);
  v1::Shape* polygon = level.add_shapes();
  polygon->set_id(4);
  polygon->mutable_polygon()->add_vertices();
  polygon->mutable_polygon()->add_vertices()->set_x(1);
  polygon->mutable_polygon()->add_vertices()->set_y(1);
  v1::Shape* segment = level.add_shapes();
  segment->set_id(5);
  segment->mutable_segment()->mutable_p1()->set_x(-1);
  segment->mutable_segment()->mutable_p2()->set_x(1);
  v1::Shape* capsule = level.add_shapes();
  capsule->set_id(6);
  capsule->mutable_capsule()->mutable_p1();
  capsule->mutable_capsule()->mutable_p2()->set_y(2);
  capsule->mutable_capsule()->set_radius(0.25);
  return level;
}

std::string TempPath(const std::string& name) {
  return absl::StrCat(::testing::TempDir(), "level_file_test_", getpid(), "_",
                      name);
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(ReadLevelFileTest, ReadmeExampleLevelLoadsAndBuilds) {
  const absl::StatusOr<v1::Level> level =
      ReadLevelFile(COLLIDE_EXAMPLE_LEVEL, int64_t{1} << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->id(), "dock");
  EXPECT_EQ(level->shapes_size(), 6);
  EXPECT_TRUE(LevelFromProto(*level, InputLimits{}).ok());
}

TEST(ParseLevelTest, HandWrittenJsonGivesTheMessage) {
  absl::StatusOr<v1::Level> level =
      ParseLevel(kArenaJson, LevelFileFormat::kJson, "arena.json");
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()))
      << level->DebugString();
  // Presence survives JSON: set category_bits and absent ones differ.
  EXPECT_TRUE(level->shapes(0).has_category_bits());
  EXPECT_FALSE(level->shapes(1).has_category_bits());
}

TEST(ParseLevelTest, JsonRoundTripsThroughLevelToJson) {
  absl::StatusOr<std::string> json = LevelToJson(ArenaMessage());
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<v1::Level> level =
      ParseLevel(*json, LevelFileFormat::kJson, "x");
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
}

TEST(ParseLevelTest, BinaryRoundTrips) {
  const std::string bytes = SerializeLevel(ArenaMessage());
  absl::StatusOr<v1::Level> level =
      ParseLevel(bytes, LevelFileFormat::kBinary, "x");
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
  // Deterministic: the same level always gives the same bytes.
  EXPECT_EQ(SerializeLevel(*level), bytes);
}

TEST(ParseLevelTest, UnknownJsonFieldIsInvalidArgument) {
  // A typo must not silently drop a shape's geometry.
  const absl::Status status =
      ParseLevel(
          R"({"id": "a", "shapes": [{"id": 1, "circel": {"radius": 1}}]})",
          LevelFileFormat::kJson, "typo.json")
          .status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("typo.json"));
  EXPECT_THAT(std::string(status.message()), HasSubstr("circel"));
}

TEST(ParseLevelTest, MalformedJsonIsInvalidArgument) {
  for (const char* text : {"{", "{\"id\": 3}", "{\"shapes\": [1]}", "[]",
                           "{\"cellSize\": \"big\"}"}) {
    EXPECT_EQ(
        ParseLevel(text, LevelFileFormat::kJson, "bad.json").status().code(),
        absl::StatusCode::kInvalidArgument)
        << text;
  }
}

TEST(ParseLevelTest, MalformedBinaryIsInvalidArgument) {
  std::string bytes = SerializeLevel(ArenaMessage());
  bytes.resize(bytes.size() / 2);  // cut in the middle of a shape
  const absl::Status status =
      ParseLevel(bytes, LevelFileFormat::kBinary, "cut.binpb").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("cut.binpb"));
  EXPECT_EQ(
      ParseLevel("\xff\xff\xff", LevelFileFormat::kBinary, "x").status().code(),
      absl::StatusCode::kInvalidArgument);
}

TEST(DetectLevelFileFormatTest, ExtensionWinsThenContent) {
  EXPECT_EQ(DetectLevelFileFormat("a.json", "\x0a"), LevelFileFormat::kJson);
  EXPECT_EQ(DetectLevelFileFormat("a.binpb", "{"), LevelFileFormat::kBinary);
  EXPECT_EQ(DetectLevelFileFormat("a.pb", "{"), LevelFileFormat::kBinary);
  EXPECT_EQ(DetectLevelFileFormat("level", "  \n{\"id\": 1}"),
            LevelFileFormat::kJson);
  EXPECT_EQ(DetectLevelFileFormat("level", SerializeLevel(ArenaMessage())),
            LevelFileFormat::kBinary);
  EXPECT_EQ(DetectLevelFileFormat("level", ""), LevelFileFormat::kBinary);
}

TEST(LevelFileTest, WrittenFileReadsBack) {
  const std::string path = TempPath("arena.binpb");
  ASSERT_TRUE(WriteLevelFile(path, ArenaMessage()).ok());
  absl::StatusOr<v1::Level> level = ReadLevelFile(path, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
  std::remove(path.c_str());
}

TEST(LevelFileTest, JsonFileReads) {
  const std::string path = TempPath("arena.json");
  WriteText(path, kArenaJson);
  absl::StatusOr<v1::Level> level = ReadLevelFile(path, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
  std::remove(path.c_str());
}

TEST(LevelFileTest, WriteReplacesAtomicallyAndLeavesNoTemporary) {
  const std::string path = TempPath("replace.binpb");
  WriteText(path, "old");
  v1::Level level = ArenaMessage();
  ASSERT_TRUE(WriteLevelFile(path, level).ok());
  EXPECT_EQ(ReadText(path), EncodeLevelFile(level));
  const std::string temp = absl::StrCat(path, ".tmp.", getpid());
  EXPECT_NE(access(temp.c_str(), F_OK), 0);
  std::remove(path.c_str());
}

TEST(LevelFileTest, FailedWriteLeavesTheOldFile) {
  // The target is a directory, so the final rename fails after the
  // temporary file was written: the directory must stay and no temporary
  // file may remain.
  const std::string path = TempPath("is_a_dir");
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  const absl::Status status = WriteLevelFile(path, ArenaMessage());
  EXPECT_FALSE(status.ok());
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISDIR(info.st_mode));
  const std::string temp = absl::StrCat(path, ".tmp.", getpid());
  EXPECT_NE(access(temp.c_str(), F_OK), 0);
  rmdir(path.c_str());
}

TEST(LevelFileTest, WriteIntoMissingDirectoryIsNotFound) {
  EXPECT_EQ(
      WriteLevelFile(TempPath("missing_dir/x.binpb"), ArenaMessage()).code(),
      absl::StatusCode::kNotFound);
}

TEST(LevelFileTest, MissingFileIsNotFound) {
  const absl::Status status =
      ReadLevelFile(TempPath("nope.json"), 1 << 20).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(status.message()), HasSubstr("nope.json"));
}

TEST(LevelFileTest, DirectoryIsInvalidArgument) {
  EXPECT_EQ(ReadLevelFile(::testing::TempDir(), 1 << 20).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LevelFileTest, FileOverTheLimitIsResourceExhausted) {
  const std::string path = TempPath("big.json");
  WriteText(path, kArenaJson);
  EXPECT_EQ(ReadLevelFile(path, 16).status().code(),
            absl::StatusCode::kResourceExhausted);
  std::remove(path.c_str());
}

TEST(LevelFileTest, BadFileContentNamesTheFile) {
  const std::string path = TempPath("bad.json");
  WriteText(path,
            "{\"shapes\": [{\"id\": 1, \"circle\": {\"radius\": \"x\"}}]}");
  const absl::Status status = ReadLevelFile(path, 1 << 20).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr(path));
  std::remove(path.c_str());
}

TEST(LevelFileTest, WrittenFileIsTheFramedDeterministicSerialization) {
  const std::string path = TempPath("framed.binpb");
  ASSERT_TRUE(WriteLevelFile(path, ArenaMessage()).ok());
  const std::string bytes = ReadText(path);
  EXPECT_EQ(bytes, FrameLevelPayload(SerializeLevel(ArenaMessage())));
  EXPECT_EQ(bytes.substr(0, kLevelFrameMagic.size()), kLevelFrameMagic);
  std::remove(path.c_str());
}

TEST(LevelFileTest, OldUnframedBinaryFileStillLoads) {
  // What servers before the frame wrote: plain protobuf binary.
  const std::string path = TempPath("old.binpb");
  WriteText(path, SerializeLevel(ArenaMessage()));
  absl::StatusOr<v1::Level> level = ReadLevelFile(path, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
  std::remove(path.c_str());
}

TEST(LevelFileTest, EmptyFileIsDataLossNamingTheFile) {
  // A 0-byte file parses as an empty Level in protobuf binary: refused
  // instead, whatever its extension says.
  for (const std::string name : {"empty.binpb", "empty.pb", "empty"}) {
    const std::string path = TempPath(name);
    WriteText(path, "");
    const absl::Status status = ReadLevelFile(path, 1 << 20).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << name;
    EXPECT_THAT(std::string(status.message()),
                HasSubstr(path + ": empty file (0 bytes)"));
    std::remove(path.c_str());
  }
  EXPECT_FALSE(ReadLevelFile(TempPath("empty.json"), 1 << 20).ok());
}

// A level whose shapes are its last field, so that every prefix of the
// payload ending between two shapes is itself a valid, smaller level: the
// cut an unframed file cannot detect.
v1::Level LevelOfShapesOnly() {
  v1::Level level = ArenaMessage();
  level.clear_cell_size();
  return level;
}

TEST(LevelFileTest, FramedFileCutAnywhereIsRefused) {
  const v1::Level level = LevelOfShapesOnly();
  const std::string bytes = EncodeLevelFile(level);
  // Cuts exactly at each shape boundary of the payload...
  std::vector<size_t> cuts;
  v1::Level prefix = level;
  for (int kept = level.shapes_size() - 1; kept >= 0; --kept) {
    prefix.mutable_shapes()->RemoveLast();
    const std::string payload = SerializeLevel(prefix);
    ASSERT_EQ(bytes.substr(kLevelFrameHeaderBytes, payload.size()), payload);
    // Unframed, this cut would load as a level with `kept` shapes.
    absl::StatusOr<v1::Level> unframed =
        ParseLevel(payload, LevelFileFormat::kBinary, "unframed");
    ASSERT_TRUE(unframed.ok());
    EXPECT_EQ(unframed->shapes_size(), kept);
    cuts.push_back(kLevelFrameHeaderBytes + payload.size());
  }
  // ...in the magic, in the header, one byte short, and in a shape.
  for (size_t cut : {size_t{3}, size_t{8}, size_t{23}, size_t{24},
                     bytes.size() - 1, bytes.size() / 2}) {
    cuts.push_back(cut);
  }
  for (const size_t cut : cuts) {
    const std::string path = TempPath("cut.binpb");
    WriteText(path, bytes.substr(0, cut));
    const absl::Status status = ReadLevelFile(path, 1 << 20).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << cut;
    EXPECT_THAT(std::string(status.message()),
                HasSubstr(path + ": truncated: "))
        << cut;
    std::remove(path.c_str());
  }
}

TEST(LevelFileTest, FramedFileWithAFlippedByteIsRefused) {
  const std::string bytes = EncodeLevelFile(ArenaMessage());
  for (const size_t at :
       {kLevelFrameHeaderBytes, bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    const absl::Status status =
        ParseLevel(damaged, LevelFileFormat::kBinary, "levels/x.binpb")
            .status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << at;
    EXPECT_THAT(std::string(status.message()),
                HasSubstr("levels/x.binpb: corrupted: checksum mismatch"));
  }
}

TEST(LevelFileTest, FramedFileWithoutExtensionIsDetectedAsBinary) {
  EXPECT_EQ(DetectLevelFileFormat("level", EncodeLevelFile(ArenaMessage())),
            LevelFileFormat::kBinary);
  const std::string path = TempPath("noext");
  WriteText(path, EncodeLevelFile(ArenaMessage()));
  absl::StatusOr<v1::Level> level = ReadLevelFile(path, 1 << 20);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*level, ArenaMessage()));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace collide::formats
