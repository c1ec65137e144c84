// Tiled import: tests/data/tiled/arena.tmj imported shape by
// shape, the options, the server's level file loading of .tmj files, and
// bad maps whose errors must name the layer, the object and the field.
//
// arena.tmj: 10 x 8 cells of 16 x 16 pixels. Layers, bottom to top:
//   ground      tile layer, not collision (one cell has a tile with shapes)
//   Collision   tile layer (hidden), the name marks it: 4 tiles, 2 flipped
//   decor       object layer, not collision; object 2 has collision = true
//   buildings   group, offset (100, 50), collision = true, category_bits 2
//     walls     object layer, offset (10, 20): rotated rectangle, rotated
//               polygon, polyline, circle, point, collision = false object,
//               scaled tile object (external tileset), rotated circle
//     inner     group, offset (-5, 5)
//       props   object layer (hidden): one rectangle
//   collision   object layer: rectangle, concave polygon, 45-degree polygon
//   spawns      object layer, not collision
//   sky         image layer
// Tilesets: "terrain" (embedded, firstgid 1): tile 0 has a rectangle
// (0, 8, 16 x 8) with user_data 77, tile 3 a triangle (0,0) (16,0) (0,16)
// with category_bits 4, tiles 1 and 2 no shapes. "props" (props.tsj,
// firstgid 5, 32 x 32 tiles): tile 0 has a circle of radius 8 at (16, 16).
#include "proto/formats/tiled_import.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Rotated shapes go through sin and cos: a few ulps of 100-pixel numbers.
constexpr double kRotatedTolerance = 1e-12;
constexpr double kSqrt3Over2 = 0.86602540378443864676;
constexpr double kSqrt2Over2 = 0.70710678118654752440;

const std::string kDataDir = COLLIDE_TILED_TEST_DATA;
const std::string kArenaPath = kDataDir + "/arena.tmj";

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

absl::StatusOr<v1::Level> ImportArena(TiledImportOptions options = {}) {
  return ReadTiledMapFile(kArenaPath, std::move(options));
}

const v1::Shape* FindShape(const v1::Level& level, uint64_t id) {
  for (const v1::Shape& shape : level.shapes()) {
    if (shape.id() == id) return &shape;
  }
  return nullptr;
}

uint64_t TileShapeId(uint64_t n) { return kTiledTileShapeIdBase + n; }

std::vector<std::pair<double, double>> Vertices(
    const google::protobuf::RepeatedPtrField<v1::Vec2>& vertices) {
  std::vector<std::pair<double, double>> result;
  for (const v1::Vec2& v : vertices) result.emplace_back(v.x(), v.y());
  return result;
}

using Points = std::vector<std::pair<double, double>>;

void ExpectBox(const v1::Shape& shape, double cx, double cy, double hx,
               double hy, double angle, double tolerance = 0.0) {
  SCOPED_TRACE(absl::StrCat("shape ", shape.id()));
  ASSERT_TRUE(shape.has_box()) << shape.DebugString();
  EXPECT_NEAR(shape.box().center().x(), cx, tolerance);
  EXPECT_NEAR(shape.box().center().y(), cy, tolerance);
  EXPECT_NEAR(shape.box().half_extents().x(), hx, tolerance);
  EXPECT_NEAR(shape.box().half_extents().y(), hy, tolerance);
  EXPECT_NEAR(shape.box().angle_radians(), angle, tolerance);
}

void ExpectCircle(const v1::Shape& shape, double cx, double cy, double r) {
  SCOPED_TRACE(absl::StrCat("shape ", shape.id()));
  ASSERT_TRUE(shape.has_circle()) << shape.DebugString();
  EXPECT_EQ(shape.circle().center().x(), cx);
  EXPECT_EQ(shape.circle().center().y(), cy);
  EXPECT_EQ(shape.circle().radius(), r);
}

void ExpectTags(const v1::Shape& shape, std::optional<uint64_t> category_bits,
                uint64_t user_data) {
  SCOPED_TRACE(absl::StrCat("shape ", shape.id()));
  EXPECT_EQ(shape.has_category_bits(), category_bits.has_value());
  EXPECT_EQ(shape.category_bits(), category_bits.value_or(0));
  EXPECT_EQ(shape.user_data(), user_data);
}

// --- The arena, shape by shape (y down, default options).

class ArenaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<v1::Level> level = ImportArena();
    ASSERT_TRUE(level.ok()) << level.status();
    level_ = *std::move(level);
  }
  const v1::Shape& Shape(uint64_t id) {
    const v1::Shape* shape = FindShape(level_, id);
    EXPECT_NE(shape, nullptr) << "no shape " << id;
    static const v1::Shape kEmpty;
    return shape != nullptr ? *shape : kEmpty;
  }
  v1::Level level_;
};

TEST_F(ArenaTest, IdComesFromTheFileNameAndEveryCollisionShapeIsThere) {
  EXPECT_EQ(level_.id(), "arena");
  // 4 tiles of the Collision layer, decor's object 2, walls' 3 4 5 6 9 10,
  // props' 11, collision's 12 13 14. Not: the ground layer, decor's object
  // 1, points 7 and 15, object 8 (collision = false), spawns' 16.
  std::vector<uint64_t> ids;
  for (const v1::Shape& shape : level_.shapes()) ids.push_back(shape.id());
  EXPECT_THAT(
      ids, ::testing::ElementsAre(TileShapeId(0), TileShapeId(1),
                                  TileShapeId(2), TileShapeId(3), 2, 3, 4, 5, 6,
                                  TileShapeId(4), 10, 11, 12, 13, 14));
}

TEST_F(ArenaTest, TheLevelSaysItsYAxisPointsDown) {
  // Drawing tools (collide-cli render) then show it as Tiled does.
  EXPECT_EQ(level_.y_axis(), v1::Y_AXIS_DOWN);
}

TEST_F(ArenaTest, TheLevelIsValid) {
  EXPECT_TRUE(LevelFromProto(level_, InputLimits{}).ok());
}

TEST_F(ArenaTest, TileLayerCellsUseTheirTilesCollisionShapes) {
  // Row 6 comes before row 7. Cell (3, 6): gid 4 (tile 3) flipped
  // diagonally (x <-> y): the triangle (0,0) (16,0) (0,16) becomes (0,0)
  // (0,16) (16,0); the tile's top-left is the cell's, (48, 96).
  const v1::Shape& flipped_d = Shape(TileShapeId(0));
  ASSERT_TRUE(flipped_d.has_polygon());
  EXPECT_EQ(Vertices(flipped_d.polygon().vertices()),
            (Points{{48, 96}, {48, 112}, {64, 96}}));
  ExpectTags(flipped_d, 4, 4);  // the tile's category_bits; user_data = gid
  // Cell (0, 7): gid 1 (tile 0), its rectangle (0, 8, 16 x 8) at the tile's
  // top-left (0, 112): centre (8, 124), half extents (8, 4).
  ExpectBox(Shape(TileShapeId(1)), 8, 124, 8, 4, 0);
  ExpectTags(Shape(TileShapeId(1)), std::nullopt, 77);  // the shape's own
  // Cell (1, 7): gid 2 (tile 1) has no shapes: the whole cell, (16, 112)
  // to (32, 128).
  ExpectBox(Shape(TileShapeId(2)), 24, 120, 8, 8, 0);
  ExpectTags(Shape(TileShapeId(2)), std::nullopt, 2);
  // Cell (2, 7): gid 4 flipped horizontally (x -> 16 - x) at (32, 112):
  // (16,0) (0,0) (16,16) + (32, 112).
  const v1::Shape& flipped_h = Shape(TileShapeId(3));
  ASSERT_TRUE(flipped_h.has_polygon());
  EXPECT_EQ(Vertices(flipped_h.polygon().vertices()),
            (Points{{48, 112}, {32, 112}, {48, 128}}));
}

TEST_F(ArenaTest, ObjectMarkedByItsPropertyInAPlainLayerCounts) {
  // decor object 2: x 20, y 30, 40 x 10.
  ExpectBox(Shape(2), 40, 35, 20, 5, 0);
  ExpectTags(Shape(2), std::nullopt, 2);  // user_data: the object id
}

TEST_F(ArenaTest, RotatedRectangleTurnsAboutItsTopLeftCorner) {
  // walls object 3: origin (0, 0) + offsets (100 + 10, 50 + 20) =
  // (110, 70); 40 x 20 turned 30 degrees clockwise on screen, i.e. by
  // R(30) in y-down coordinates. Centre = origin + R(30) (20, 10) =
  // (110 + 20 cos30 - 10 sin30, 70 + 20 sin30 + 10 cos30)
  // = (105 + 20 sqrt3/2, 80 + 10 sqrt3/2).
  ExpectBox(Shape(3), 105 + 20 * kSqrt3Over2, 80 + 10 * kSqrt3Over2, 20, 10,
            std::numbers::pi / 6, kRotatedTolerance);
  ExpectTags(Shape(3), 2, 3);  // category_bits from the group
}

TEST_F(ArenaTest, RotatedPolygonPointsTurnAboutTheObjectOrigin) {
  // walls object 4: origin (50, 0) + (110, 70) = (160, 70); R(90) maps
  // (x, y) to (-y, x): (0,0) (30,0) (0,20) -> (0,0) (0,30) (-20,0).
  const v1::Shape& ramp = Shape(4);
  ASSERT_TRUE(ramp.has_polygon());
  EXPECT_EQ(Vertices(ramp.polygon().vertices()),
            (Points{{160, 70}, {160, 100}, {140, 70}}));
}

TEST_F(ArenaTest, PolylineStaysOpen) {
  // walls object 5: origin (0, 100) + (110, 70) = (110, 170).
  const v1::Shape& fence = Shape(5);
  ASSERT_TRUE(fence.has_polyline());
  EXPECT_FALSE(fence.polyline().closed());
  EXPECT_EQ(Vertices(fence.polyline().vertices()),
            (Points{{110, 170}, {140, 170}, {140, 150}, {170, 150}}));
}

TEST_F(ArenaTest, EllipseWithEqualSidesIsACircle) {
  // walls object 6: box (200, 0) 24 x 24 + (110, 70): centre (322, 82).
  ExpectCircle(Shape(6), 322, 82, 12);
  // walls object 10: box (0, 0) 10 x 10 turned 90 degrees about (0, 0):
  // centre R(90) (5, 5) = (-5, 5), + (110, 70) = (105, 75).
  ExpectCircle(Shape(10), 105, 75, 5);
}

TEST_F(ArenaTest, ScaledTileObjectTakesItsShapesFromTheExternalTileset) {
  // walls object 9: gid 5 = props tile 0 (32 x 32) drawn at 64 x 64, its
  // origin (300, 200) at the tile's bottom-left, so the tile's top-left is
  // (300, 136); + (110, 70) = (410, 206). The circle (16, 16) r 8 scales
  // by 2: centre (410 + 32, 206 + 32), radius 16.
  ExpectCircle(Shape(TileShapeId(4)), 442, 238, 16);
  ExpectTags(Shape(TileShapeId(4)), 2, 9);  // user_data: the tile object
}

TEST_F(ArenaTest, NestedGroupOffsetsAccumulateAndHiddenLayersCount) {
  // props object 11: (10, 10) 4 x 6 + (100 - 5, 50 + 5) = (105, 65).
  ExpectBox(Shape(11), 107, 68, 2, 3, 0);
  ExpectTags(Shape(11), 2, 11);
}

TEST_F(ArenaTest, CollisionLayerObjects) {
  ExpectBox(Shape(12), 80, 2, 80, 2, 0);
  // An L: concave, kept as one solid polygon.
  const v1::Shape& corner = Shape(13);
  ASSERT_TRUE(corner.has_polygon());
  EXPECT_EQ(
      Vertices(corner.polygon().vertices()),
      (Points{{10, 10}, {30, 10}, {30, 15}, {15, 15}, {15, 30}, {10, 30}}));
  ExpectTags(corner, 8, 500);  // its own properties
  // (0,0) (10,0) (0,10) turned 45 degrees about (60, 60):
  // (60, 60) (60 + 10 c, 60 + 10 c) (60 - 10 c, 60 + 10 c), c = sqrt2/2.
  const v1::Shape& wedge = Shape(14);
  ASSERT_TRUE(wedge.has_polygon());
  const Points expected = {{60, 60},
                           {60 + 10 * kSqrt2Over2, 60 + 10 * kSqrt2Over2},
                           {60 - 10 * kSqrt2Over2, 60 + 10 * kSqrt2Over2}};
  const Points got = Vertices(wedge.polygon().vertices());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].first, expected[i].first, kRotatedTolerance) << i;
    EXPECT_NEAR(got[i].second, expected[i].second, kRotatedTolerance) << i;
  }
}

// --- Options.

TEST(TiledImportOptionsTest, YUpFlipsAboutTheMapsBottomEdge) {
  TiledImportOptions options;
  options.y_axis = TiledYAxis::kUp;
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  // Map height 8 x 16 = 128: y -> 128 - y; angles change sign.
  ExpectBox(*FindShape(*level, 3), 105 + 20 * kSqrt3Over2,
            128 - (80 + 10 * kSqrt3Over2), 20, 10, -std::numbers::pi / 6,
            kRotatedTolerance);
  EXPECT_EQ(Vertices(FindShape(*level, 4)->polygon().vertices()),
            (Points{{160, 58}, {160, 28}, {140, 58}}));
  ExpectCircle(*FindShape(*level, 6), 322, 46, 12);
  ExpectBox(*FindShape(*level, TileShapeId(1)), 8, 4, 8, 4, 0);
  EXPECT_TRUE(LevelFromProto(*level, InputLimits{}).ok());
  EXPECT_EQ(level->y_axis(), v1::Y_AXIS_UP);
}

TEST(TiledImportOptionsTest, ChosenLayersAndPropertyReplaceTheDefaults) {
  TiledImportOptions options;
  options.collision_layers = {"PROPS"};  // names compare ignoring case
  options.collision_property = "solid";  // "collision" means nothing now
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shapes_size(), 1);
  EXPECT_EQ(level->shapes(0).id(), 11u);
}

TEST(TiledImportOptionsTest, SkipHiddenDropsHiddenLayers) {
  TiledImportOptions options;
  options.skip_hidden = true;
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shapes_size(), 10);  // not the 4 tiles, not object 11
  EXPECT_EQ(FindShape(*level, 11), nullptr);
  // The barrel is now the first tile shape.
  ExpectCircle(*FindShape(*level, TileShapeId(0)), 442, 238, 16);
}

TEST(TiledImportOptionsTest, TileShapesInEveryLayerAddsTheGroundTile) {
  TiledImportOptions options;
  options.tile_shapes_in_every_layer = true;
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shapes_size(), 16);
  // ground cell (5, 0) holds gid 1: its rectangle at (80, 0); the tiles
  // without shapes in that layer add nothing.
  ExpectBox(level->shapes(0), 88, 12, 8, 4, 0);
  EXPECT_EQ(level->shapes(0).id(), TileShapeId(0));
}

TEST(TiledImportOptionsTest, TilesWithoutShapesCanAddNothing) {
  TiledImportOptions options;
  options.solid_tiles_without_shapes = false;
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shapes_size(), 14);  // not cell (1, 7)
}

TEST(TiledImportOptionsTest, GivenLevelIdWins) {
  TiledImportOptions options;
  options.level_id = "dock";
  absl::StatusOr<v1::Level> level = ImportArena(options);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->id(), "dock");
}

// --- The server's level files.

TEST(TiledLevelFileTest, ReadLevelFileImportsATmjWithItsExternalTileset) {
  absl::StatusOr<v1::Level> level =
      ReadLevelFile(kArenaPath, InputLimits{}.max_message_bytes);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->id(), "");  // the server names it after the file
  EXPECT_EQ(level->shapes_size(), 15);
  absl::StatusOr<v1::Level> direct = ImportArena();
  ASSERT_TRUE(direct.ok());
  direct->clear_id();
  EXPECT_EQ(level->SerializeAsString(), direct->SerializeAsString());
}

TEST(TiledLevelFileTest, TiledJsonIsToldFromLevelJson) {
  const std::string tiled = ReadText(kArenaPath);
  EXPECT_EQ(DetectLevelFileFormat("arena.tmj", tiled),
            LevelFileFormat::kTiledJson);
  EXPECT_EQ(DetectLevelFileFormat("arena.json", tiled),
            LevelFileFormat::kTiledJson);
  EXPECT_EQ(DetectLevelFileFormat("arena", tiled), LevelFileFormat::kTiledJson);
  // "orientation" as a value, or nested, is not a Tiled key.
  EXPECT_EQ(DetectLevelFileFormat("a.json", R"({"id": "orientation"})"),
            LevelFileFormat::kJson);
  EXPECT_EQ(DetectLevelFileFormat(
                "a.json", R"({"shapes": [{"orientation": 1}], "id": "a"})"),
            LevelFileFormat::kJson);
  EXPECT_EQ(DetectLevelFileFormat("a.json", "{not json"),
            LevelFileFormat::kJson);
}

TEST(TiledLevelFileTest, ParseLevelCannotReadExternalTilesets) {
  absl::StatusOr<v1::Level> level = ParseLevel(
      ReadText(kArenaPath), LevelFileFormat::kTiledJson, "arena.tmj");
  ASSERT_EQ(level.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(level.status().message(),
              AllOf(HasSubstr("arena.tmj: "), HasSubstr("props.tsj"),
                    HasSubstr("external")));
}

// --- Bad maps. Each error names where (layer, object) and what (field).

// A 4 x 4 map of 16-pixel cells with one object layer "collision" holding
// `objects`, and `tilesets`.
std::string MapWithObjects(absl::string_view objects,
                           absl::string_view tilesets = "[]") {
  return absl::StrCat(R"({"height":4, "infinite":false, "layers":[
      {"id":1, "name":"collision", "type":"objectgroup", "objects":)",
                      objects, R"(}],
      "orientation":"orthogonal", "tiledversion":"1.10.2", "tileheight":16,
      "tilewidth":16, "tilesets":)",
                      tilesets, R"(, "type":"map", "width":4})");
}

absl::Status ImportError(absl::string_view map) {
  return LevelFromTiledMap(map, TiledImportOptions()).status();
}

// The error message (a std::string, so failures print it as text).
std::string ImportMessage(absl::string_view map) {
  return std::string(ImportError(map).message());
}

TEST(TiledImportErrorTest, MalformedJsonSaysWhere) {
  const absl::Status status = ImportError("{\"layers\": [\n  {\"id\": 1,,}]}");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              AllOf(HasSubstr("not valid JSON"), HasSubstr("line 2")));
}

TEST(TiledImportErrorTest, NonCircularEllipseNamesTheObject) {
  const absl::Status status = ImportError(MapWithObjects(
      R"([{"id":7, "ellipse":true, "x":0, "y":0, "width":32, "height":16}])"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              AllOf(HasSubstr("layer \"collision\" object 7"),
                    HasSubstr("not a circle")));
}

TEST(TiledImportErrorTest, TextAndTemplateObjectsAreRefused) {
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":3, "x":0, "y":0, "text":{"text":"hi"}}])")),
              AllOf(HasSubstr("object 3"), HasSubstr("\"text\"")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":4, "template":"crate.tx", "x":0,
                                   "y":0}])")),
              AllOf(HasSubstr("object 4"), HasSubstr("\"template\"")));
}

TEST(TiledImportErrorTest, MissingAndMistypedFieldsAreNamed) {
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":5, "y":0, "width":1, "height":1}])")),
              AllOf(HasSubstr("object 5"), HasSubstr("\"x\" is missing")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":5, "x":0, "y":0, "width":"wide",
                                   "height":1}])")),
              AllOf(HasSubstr("object 5"),
                    HasSubstr("\"width\" must be a number, got a string")));
  EXPECT_THAT(ImportMessage(
                  MapWithObjects(R"([{"x":0, "y":0, "width":1, "height":1}])")),
              AllOf(HasSubstr("objects[0]"), HasSubstr("\"id\" is missing")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":6, "x":0, "y":0,
                                   "polygon":[{"x":0, "y":0}, {"x":1}]}])")),
              AllOf(HasSubstr("object 6"), HasSubstr("polygon[1].y")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":1, "x":0, "y":0, "width":4,
                                   "height":4, "properties":[{"name":
                                   "collision", "type":"string",
                                   "value":"yes"}]}])")),
              AllOf(HasSubstr("object 1"),
                    HasSubstr("property \"collision\" must be a bool")));
}

TEST(TiledImportErrorTest, DegenerateGeometryIsNamed) {
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":2, "x":0, "y":0, "width":0,
                                   "height":5}])")),
              AllOf(HasSubstr("object 2"), HasSubstr("\"width\" must be > 0")));
  // A bow tie: edges 0 and 2 cross.
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":3, "x":0, "y":0, "polygon":[
                                   {"x":0, "y":0}, {"x":10, "y":10},
                                   {"x":10, "y":0}, {"x":0, "y":20}]}])")),
              AllOf(HasSubstr("object 3"), HasSubstr("self-intersecting")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":4, "x":0, "y":0,
                                   "polyline":[{"x":0, "y":0}]}])")),
              AllOf(HasSubstr("object 4"), HasSubstr("at least 2 points")));
}

TEST(TiledImportErrorTest, DuplicateObjectIdsAreRefused) {
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":2, "x":0, "y":0, "width":1,
                                   "height":1},
                                  {"id":2, "x":5, "y":0, "width":1,
                                   "height":1}])")),
              HasSubstr("2 is also the id of an object in layer"));
}

TEST(TiledImportFilterTest, ObjectPropertiesSetMaskGroupAndSide) {
  const absl::StatusOr<v1::Level> level =
      LevelFromTiledMap(MapWithObjects(R"([
      {"id":2, "x":0, "y":0, "polyline":[{"x":0, "y":0}, {"x":32, "y":0}],
       "properties":[{"name":"one_sided", "type":"bool", "value":true},
                     {"name":"mask_bits", "type":"int", "value":4},
                     {"name":"group", "type":"int", "value":-3}]},
      {"id":3, "x":0, "y":0, "width":8, "height":8}])"),
                        TiledImportOptions());
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shapes_size(), 2);
  const v1::Shape& platform = level->shapes(0);
  EXPECT_TRUE(platform.one_sided());
  EXPECT_TRUE(platform.has_mask_bits());
  EXPECT_EQ(platform.mask_bits(), 4u);
  EXPECT_EQ(platform.group(), -3);
  // Without the properties: the defaults, absent on the wire.
  const v1::Shape& box = level->shapes(1);
  EXPECT_FALSE(box.one_sided());
  EXPECT_FALSE(box.has_mask_bits());
  EXPECT_EQ(box.group(), 0);
}

TEST(TiledImportFilterTest, BadFilterPropertiesAreNamed) {
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":5, "x":0, "y":0, "width":8, "height":8,
                       "properties":[{"name":"one_sided", "type":"bool",
                                      "value":true}]}])")),
              AllOf(HasSubstr("object 5"),
                    HasSubstr("property \"one_sided\" needs a polyline")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":6, "x":0, "y":0, "width":8, "height":8,
                       "properties":[{"name":"group", "type":"int",
                                      "value":3000000000}]}])")),
              AllOf(HasSubstr("object 6"),
                    HasSubstr("property \"group\" must be an integer in")));
  EXPECT_THAT(ImportMessage(MapWithObjects(
                  R"([{"id":7, "x":0, "y":0, "width":8, "height":8,
                       "properties":[{"name":"mask_bits", "type":"int",
                                      "value":-1}]}])")),
              AllOf(HasSubstr("object 7"), HasSubstr("\"mask_bits\"")));
}

TEST(TiledImportErrorTest, UnsupportedMapsAndLayersSayWhy) {
  std::string isometric = MapWithObjects("[]");
  isometric.replace(isometric.find("orthogonal"), 10, "isometric");
  EXPECT_THAT(ImportMessage(isometric),
              AllOf(HasSubstr("orientation"), HasSubstr("isometric")));
  EXPECT_THAT(ImportMessage(R"({"type":"tileset", "tiledversion":"1.10.2"})"),
              HasSubstr("not a map"));
  const std::string compressed = R"({"height":1, "infinite":false,
      "orientation":"orthogonal", "tileheight":16, "tilewidth":16,
      "layers":[{"id":1, "name":"collision", "type":"tilelayer", "width":1,
                 "height":1, "encoding":"base64", "compression":"zlib",
                 "data":"eJxjZGBgAAAACAAC"}],
      "tilesets":[], "width":1})";
  EXPECT_THAT(ImportMessage(compressed),
              AllOf(HasSubstr("layer \"collision\""), HasSubstr("zlib")));
}

TEST(TiledImportErrorTest, TileErrorsNameTheCellAndTheTileset) {
  const std::string no_tileset = R"({"height":1, "infinite":false,
      "orientation":"orthogonal", "tileheight":16, "tilewidth":16,
      "layers":[{"id":1, "name":"collision", "type":"tilelayer", "width":2,
                 "height":1, "data":[0, 3]}],
      "tilesets":[], "width":2})";
  EXPECT_THAT(ImportMessage(no_tileset),
              AllOf(HasSubstr("cell (1, 0)"), HasSubstr("gid 3"),
                    HasSubstr("no tileset")));
  const std::string short_data = R"({"height":1, "infinite":false,
      "orientation":"orthogonal", "tileheight":16, "tilewidth":16,
      "layers":[{"id":1, "name":"collision", "type":"tilelayer", "width":2,
                 "height":2, "data":[0, 3]}],
      "tilesets":[], "width":2})";
  EXPECT_THAT(ImportMessage(short_data),
              AllOf(HasSubstr("\"data\" holds 2 gids"), HasSubstr("2 x 2")));
  const std::string bad_collision = MapWithObjects(
      R"([{"id":1, "gid":1, "x":0, "y":16, "width":16, "height":16}])",
      R"([{"firstgid":1, "name":"rocks", "tilewidth":16, "tileheight":16,
           "tiles":[{"id":0, "objectgroup":{"type":"objectgroup",
             "objects":[{"id":4, "ellipse":true, "x":0, "y":0, "width":8,
                         "height":4}]}}]}])");
  EXPECT_THAT(
      ImportMessage(bad_collision),
      AllOf(HasSubstr("object 1"), HasSubstr("tileset \"rocks\" tile 0"),
            HasSubstr("collision object 4"), HasSubstr("not a circle")));
}

// --- Formats beyond the arena.

TEST(TiledImportFormatTest, InfiniteMapChunksAndBase64Data) {
  // Chunk at cell (-2, -1), 2 x 1 cells: gids 0 and 1 (base64 of the
  // little-endian words 0, 1). Tile 0 has no shapes: the whole cell
  // (-16, -16) to (0, 0).
  const std::string map = R"({"height":0, "infinite":true,
      "orientation":"orthogonal", "tileheight":16, "tilewidth":16,
      "layers":[{"id":1, "name":"collision", "type":"tilelayer",
                 "encoding":"base64", "chunks":[{"x":-2, "y":-1, "width":2,
                 "height":1, "data":"AAAAAAEAAAA="}]}],
      "tilesets":[{"firstgid":1, "name":"t", "tilewidth":16,
                   "tileheight":16}], "width":0})";
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(map, {});
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shapes_size(), 1);
  ExpectBox(level->shapes(0), -8, -8, 8, 8, 0);
  EXPECT_EQ(level->shapes(0).user_data(), 1u);
}

TEST(TiledImportFormatTest, CapsuleObjectBecomesACapsule) {
  // 40 x 10 at (0, 0): radius 5, axis (5, 5) to (35, 5).
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(
      MapWithObjects(R"([{"id":1, "capsule":true, "x":0, "y":0,
                          "width":40, "height":10}])"),
      {});
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_TRUE(level->shapes(0).has_capsule());
  const v1::Capsule& capsule = level->shapes(0).capsule();
  EXPECT_EQ(capsule.p1().x(), 5);
  EXPECT_EQ(capsule.p1().y(), 5);
  EXPECT_EQ(capsule.p2().x(), 35);
  EXPECT_EQ(capsule.p2().y(), 5);
  EXPECT_EQ(capsule.radius(), 5);
}

TEST(TiledImportFormatTest, TileObjectAlignmentAndVerticalFlip) {
  // Tile 0 (16 x 16) has the triangle (0,0) (16,0) (0,16). The object at
  // (100, 100) aligned "center" spans (92, 92) to (108, 108); flipped
  // vertically (y -> 16 - y): (0,16) (16,16) (0,0).
  const std::string map = MapWithObjects(
      R"([{"id":1, "gid":1073741825, "x":100, "y":100, "width":16,
           "height":16}])",
      R"([{"firstgid":1, "name":"t", "tilewidth":16, "tileheight":16,
           "objectalignment":"center",
           "tiles":[{"id":0, "objectgroup":{"type":"objectgroup",
             "objects":[{"id":1, "x":0, "y":0, "polygon":[{"x":0, "y":0},
               {"x":16, "y":0}, {"x":0, "y":16}]}]}}]}])");
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(map, {});
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shapes_size(), 1);
  EXPECT_EQ(Vertices(level->shapes(0).polygon().vertices()),
            (Points{{92, 108}, {108, 108}, {92, 92}}));
}

// --- Robustness: every value of the arena and of its tileset replaced by
// values of every other JSON type. The import must never crash (nlohmann
// aborts instead of throwing in this build, so a missed type check would),
// and whatever it accepts must be a valid level.

// The [begin, end) spans of the values following each key in `text` (an
// object member "key": value). Assumes strings without escapes or
// brackets, as in the test files.
std::vector<std::pair<size_t, size_t>> MemberValueSpans(
    const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t colon = text.find("\":"); colon != std::string::npos;
       colon = text.find("\":", colon + 1)) {
    size_t begin = colon + 2;
    while (begin < text.size() && std::isspace(text[begin])) ++begin;
    size_t end = begin;
    int depth = 0;
    bool in_string = false;
    for (; end < text.size(); ++end) {
      const char c = text[end];
      if (in_string) {
        if (c == '"') in_string = false;
        if (!in_string && depth == 0) {
          ++end;
          break;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        if (depth == 0) break;
        if (--depth == 0) {
          ++end;
          break;
        }
      } else if (depth == 0 && (c == ',' || std::isspace(c))) {
        break;
      }
    }
    spans.emplace_back(begin, end);
  }
  return spans;
}

constexpr const char* kReplacements[] = {
    "null", "\"text\"", "-1", "0",          "4294967297", "1e300",      "2.5",
    "true", "[]",       "{}", "[1, \"a\"]", "[{}]",       "{\"x\": []}"};

// Returns whether the import succeeded.
bool ExpectImportIsCleanOrRefused(const std::string& map,
                                  const std::string& tileset,
                                  absl::string_view what) {
  TiledImportOptions options;
  options.read_tileset = [&](absl::string_view) -> absl::StatusOr<std::string> {
    return tileset;
  };
  absl::StatusOr<v1::Level> level = LevelFromTiledMap(map, options);
  if (level.ok()) {
    const absl::Status valid = LevelFromProto(*level, InputLimits{}).status();
    EXPECT_TRUE(valid.ok()) << what << ": imported an invalid level: " << valid;
    return true;
  }
  EXPECT_EQ(level.status().code(), absl::StatusCode::kInvalidArgument)
      << what << ": " << level.status();
  return false;
}

TEST(TiledImportRobustnessTest, EveryValueOfEveryTypeIsImportedOrRefused) {
  const std::string map = ReadText(kArenaPath);
  const std::string tileset = ReadText(kDataDir + "/props.tsj");
  ASSERT_FALSE(map.empty());
  ASSERT_FALSE(tileset.empty());
  int mutations = 0;
  int accepted = 0;
  for (const auto& [begin, end] : MemberValueSpans(map)) {
    for (const char* replacement : kReplacements) {
      std::string mutated = map;
      mutated.replace(begin, end - begin, replacement);
      accepted += ExpectImportIsCleanOrRefused(
          mutated, tileset,
          absl::StrCat("map[", begin, "] ", map.substr(begin, 20), " -> ",
                       replacement));
      ++mutations;
    }
  }
  for (const auto& [begin, end] : MemberValueSpans(tileset)) {
    for (const char* replacement : kReplacements) {
      std::string mutated = tileset;
      mutated.replace(begin, end - begin, replacement);
      accepted += ExpectImportIsCleanOrRefused(
          map, mutated,
          absl::StrCat("props.tsj[", begin, "] ", tileset.substr(begin, 20),
                       " -> ", replacement));
      ++mutations;
    }
  }
  // The spans were found, and the mutations reach both outcomes (fields
  // the import ignores, and fields it checks).
  EXPECT_GT(mutations, 3000);
  EXPECT_GT(accepted, mutations / 10);
  EXPECT_GT(mutations - accepted, mutations / 10);
}

}  // namespace
}  // namespace collide::formats
