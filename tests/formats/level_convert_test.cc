// Levels and level names from the wire: every shape kind converts to exactly
// the lib values, and every bad level is refused with its code and a message
// naming the field path.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "tests/formats/convert_test_util.h"

namespace collide::formats {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- Level names.

TEST(ParseLevelNameTest, ValidNameGivesTheId) {
  absl::StatusOr<std::string> id = ParseLevelName("levels/arena-2_b", "level");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, "arena-2_b");
  EXPECT_EQ(LevelName("arena"), "levels/arena");
}

TEST(ParseLevelNameTest, MissingPrefixIsInvalidArgumentNamingTheField) {
  ExpectError(ParseLevelName("arena", "level").status(),
              absl::StatusCode::kInvalidArgument,
              "level must be \"levels/{level_id}\"");
}

TEST(ParseLevelNameTest, EmptyIdIsInvalidArgument) {
  ExpectError(ParseLevelName("levels/", "level").status(),
              absl::StatusCode::kInvalidArgument,
              "level's {level_id} must not be empty");
}

TEST(ParseLevelNameTest, PathCharactersAreRefused) {
  // The id becomes a file name: no way out of the level directory.
  for (const char* name :
       {"levels/../etc", "levels/a/b", "levels/a.b", "levels/a b"}) {
    EXPECT_EQ(ParseLevelName(name, "level").status().code(),
              absl::StatusCode::kInvalidArgument)
        << name;
  }
}

TEST(ValidateLevelIdTest, LengthIsBounded) {
  EXPECT_TRUE(ValidateLevelId(std::string(kMaxLevelIdLength, 'a'), "id").ok());
  ExpectError(ValidateLevelId(std::string(kMaxLevelIdLength + 1, 'a'), "id"),
              absl::StatusCode::kInvalidArgument, "id must be at most 64");
}

// --- Levels.

TEST(LevelFromProtoTest, EveryShapeKindBuildsWithItsIdsAndData) {
  absl::StatusOr<Level> level = LevelFromProto(EveryKindLevel(), InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shape_count(), 7);
  EXPECT_EQ(level->kind(0), ShapeKind::kSegment);
  EXPECT_EQ(level->kind(1), ShapeKind::kPolyline);
  EXPECT_EQ(level->kind(2), ShapeKind::kConvexPolygon);
  EXPECT_EQ(level->kind(3), ShapeKind::kConcavePolygon);
  EXPECT_EQ(level->kind(4), ShapeKind::kCircle);
  EXPECT_EQ(level->kind(5), ShapeKind::kConvexPolygon);  // the box
  EXPECT_EQ(level->kind(6), ShapeKind::kCapsule);
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(level->id(i), static_cast<uint64_t>(i + 1));
  EXPECT_EQ(level->user_data(4), 55u);
  EXPECT_EQ(level->category_bits(4), 4u);
  // Absent category_bits is the default category 1, not 0 (invisible).
  EXPECT_EQ(level->category_bits(0), 1u);
  EXPECT_EQ(level->circle(4).radius, 2.0);
  EXPECT_EQ(level->capsule(6).p2.y, 10.0);
}

TEST(LevelFromProtoTest, BoxMatchesMakeBox) {
  absl::StatusOr<Level> level = LevelFromProto(EveryKindLevel(), InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();
  absl::StatusOr<ConvexPolygon> box = MakeBox({50, 10}, {1, 2}, 0.5);
  ASSERT_TRUE(box.ok());
  const ConvexPolygon& stored = level->convex_polygon(5);
  ASSERT_EQ(stored.count, box->count);
  for (int i = 0; i < box->count; ++i) {
    EXPECT_EQ(stored.vertices[i].x, box->vertices[i].x);
    EXPECT_EQ(stored.vertices[i].y, box->vertices[i].y);
  }
}

TEST(LevelFromProtoTest, EmptyLevelIsValid) {
  absl::StatusOr<Level> level = LevelFromProto(v1::Level(), InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shape_count(), 0);
}

TEST(LevelFromProtoTest, GivenCellSizeIsUsed) {
  v1::Level proto = EveryKindLevel();
  proto.set_cell_size(3.5);
  absl::StatusOr<Level> level = LevelFromProto(proto, InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->spatial_hash().grid().cell_size, 3.5);
}

TEST(LevelFromProtoTest, NegativeRadiusNamesTheField) {
  v1::Level proto = EveryKindLevel();
  proto.mutable_shapes(4)->mutable_circle()->set_radius(-1);
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument,
              "level.shapes[4].circle.radius must be >= 0");
}

TEST(LevelFromProtoTest, NonFiniteCoordinatesNameTheField) {
  struct Case {
    int shape;
    void (*spoil)(v1::Shape*);
    const char* message;
  };
  const Case cases[] = {
      {0, [](v1::Shape* s) { s->mutable_segment()->mutable_p2()->set_y(kNaN); },
       "level.shapes[0].segment.p2.y must be finite"},
      {1,
       [](v1::Shape* s) {
         s->mutable_polyline()->mutable_vertices(2)->set_x(kInf);
       },
       "level.shapes[1].polyline.vertices[2].x must be finite"},
      {3,
       [](v1::Shape* s) {
         s->mutable_polygon()->mutable_vertices(4)->set_y(-kInf);
       },
       "level.shapes[3].polygon.vertices[4].y must be finite"},
      {4, [](v1::Shape* s) { s->mutable_circle()->set_radius(kNaN); },
       "level.shapes[4].circle.radius must be finite"},
      {5, [](v1::Shape* s) { s->mutable_box()->set_angle_radians(kInf); },
       "level.shapes[5].box.angle_radians must be finite"},
      {5, [](v1::Shape* s) { s->mutable_box()->mutable_center()->set_x(kNaN); },
       "level.shapes[5].box.center.x must be finite"},
      {6, [](v1::Shape* s) { s->mutable_capsule()->mutable_p1()->set_x(kNaN); },
       "level.shapes[6].capsule.p1.x must be finite"},
  };
  for (const Case& c : cases) {
    v1::Level proto = EveryKindLevel();
    c.spoil(proto.mutable_shapes(c.shape));
    ExpectError(LevelFromProto(proto, InputLimits{}).status(),
                absl::StatusCode::kInvalidArgument, c.message);
  }
}

TEST(LevelFromProtoTest, TinyCoordinatesAreRefusedButNotTinyAngles) {
  v1::Level proto = EveryKindLevel();
  proto.mutable_shapes(3)->mutable_polygon()->mutable_vertices(1)->set_x(
      -1e-200);
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument,
              "level.shapes[3].polygon.vertices[1].x must be 0 or at least "
              "1e-60 in magnitude, got -1e-200");
  proto = EveryKindLevel();
  proto.mutable_shapes(5)->mutable_box()->set_angle_radians(1e-200);
  EXPECT_TRUE(LevelFromProto(proto, InputLimits{}).ok());
}

TEST(LevelFromProtoTest, BoxHalfExtentsMustBePositive) {
  v1::Level proto = EveryKindLevel();
  proto.mutable_shapes(5)->mutable_box()->mutable_half_extents()->set_y(0);
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument,
              "level.shapes[5].box.half_extents.y must be > 0");
}

TEST(LevelFromProtoTest, ShapeWithoutGeometryIsInvalidArgument) {
  v1::Level proto = EveryKindLevel();
  proto.add_shapes()->set_id(99);
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument,
              "level.shapes[7] has no geometry");
}

TEST(LevelFromProtoTest, TooFewVerticesNameTheField) {
  v1::Level proto = EveryKindLevel();
  proto.mutable_shapes(1)->mutable_polyline()->set_closed(true);
  proto.mutable_shapes(1)->mutable_polyline()->mutable_vertices()->RemoveLast();
  ExpectError(
      LevelFromProto(proto, InputLimits{}).status(),
      absl::StatusCode::kInvalidArgument,
      "level.shapes[1].polyline.vertices must hold at least 3 vertices");
  v1::Level polygon = EveryKindLevel();
  polygon.mutable_shapes(2)
      ->mutable_polygon()
      ->mutable_vertices()
      ->DeleteSubrange(0, 2);
  ExpectError(LevelFromProto(polygon, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument,
              "level.shapes[2].polygon.vertices must hold at least 3 vertices");
}

TEST(LevelFromProtoTest, SelfCrossingPolygonNamesTheShape) {
  v1::Level proto;
  v1::Shape* bowtie = proto.add_shapes();
  AddVertices(bowtie->mutable_polygon()->mutable_vertices(),
              {{0, 0}, {4, 4}, {4, 0}, {0, 4}});
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kInvalidArgument, "level.shapes[0].polygon: ");
}

TEST(LevelFromProtoTest, DuplicateIdNamesBothShapes) {
  v1::Level proto = EveryKindLevel();
  proto.mutable_shapes(3)->set_id(2);
  const absl::Status status = LevelFromProto(proto, InputLimits{}).status();
  ExpectError(status, absl::StatusCode::kInvalidArgument,
              "level.shapes[3].id 2");
  EXPECT_THAT(std::string(status.message()), HasSubstr("shapes[1]"));
}

TEST(LevelFromProtoTest, BadCellSizeIsInvalidArgument) {
  for (const double cell_size : {-1.0, kNaN, kInf}) {
    v1::Level proto = EveryKindLevel();
    proto.set_cell_size(cell_size);
    ExpectError(LevelFromProto(proto, InputLimits{}).status(),
                absl::StatusCode::kInvalidArgument, "level.cell_size must be");
  }
}

TEST(LevelFromProtoTest, CellSizeMakingTooManyCellsNamesCellSize) {
  v1::Level proto = EveryKindLevel();
  proto.set_cell_size(1e-4);
  ExpectError(LevelFromProto(proto, InputLimits{}).status(),
              absl::StatusCode::kResourceExhausted, "level.cell_size 0.0001");
}

TEST(LevelFromProtoTest, LevelOverTheMemoryLimitIsRefusedBeforeBuilding) {
  InputLimits limits;
  const v1::Level level = EveryKindLevel();
  Level::Size size{.shapes = level.shapes_size()};
  for (const v1::Shape& shape : level.shapes()) {
    if (shape.has_polygon()) {
      ++size.polygons;
      size.chain_vertices += shape.polygon().vertices_size();
    }
    if (shape.has_box()) ++size.polygons;
    if (shape.has_polyline()) {
      size.chain_vertices += shape.polyline().vertices_size();
    }
  }
  limits.max_level_bytes = Level::MemoryBound(size);
  ASSERT_TRUE(LevelFromProto(level, limits).ok());
  limits.max_level_bytes -= 1;
  ExpectError(LevelFromProto(level, limits).status(),
              absl::StatusCode::kResourceExhausted,
              absl::StrCat("level may need up to ", Level::MemoryBound(size),
                           " bytes (7 shapes, "));
  EXPECT_THAT(std::string(LevelFromProto(level, limits).status().message()),
              ::testing::HasSubstr("more than max_level_bytes"));
}

TEST(LevelFromProtoTest, TooManyShapesIsResourceExhausted) {
  InputLimits limits;
  limits.max_level_shapes = 6;
  ExpectError(LevelFromProto(EveryKindLevel(), limits).status(),
              absl::StatusCode::kResourceExhausted,
              "level.shapes holds 7 shapes, more than max_level_shapes 6");
}

TEST(LevelFromProtoTest, TooManyVerticesInAShapeIsResourceExhausted) {
  InputLimits limits;
  limits.max_vertices = 4;
  ExpectError(LevelFromProto(EveryKindLevel(), limits).status(),
              absl::StatusCode::kResourceExhausted,
              "level.shapes[3].polygon.vertices holds 5 vertices, more than "
              "max_vertices 4");
}

TEST(LevelFromProtoTest, TooManyVerticesInTheLevelIsResourceExhausted) {
  InputLimits limits;
  limits.max_level_vertices = 10;  // 3 + 4 + 5 = 12 in polylines and polygons
  ExpectError(LevelFromProto(EveryKindLevel(), limits).status(),
              absl::StatusCode::kResourceExhausted,
              "level.shapes holds more than max_level_vertices 10");
}

}  // namespace
}  // namespace collide::formats
