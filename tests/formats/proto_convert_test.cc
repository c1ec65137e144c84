// proto <-> lib conversion: levels and queries convert to exactly the lib
// values, and every bad input is refused with its code and a message naming
// the field path.
#include "proto/formats/proto_convert.h"

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

namespace collide::formats {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

void Set(v1::Vec2* v, double x, double y) {
  v->set_x(x);
  v->set_y(y);
}

void AddVertices(google::protobuf::RepeatedPtrField<v1::Vec2>* vertices,
                 std::initializer_list<Vec2> points) {
  for (const Vec2 p : points) Set(vertices->Add(), p.x, p.y);
}

// A level with one shape of every kind, ids 1..7.
v1::Level EveryKindLevel() {
  v1::Level level;
  level.set_id("every");
  v1::Shape* segment = level.add_shapes();
  segment->set_id(1);
  Set(segment->mutable_segment()->mutable_p1(), 0, 0);
  Set(segment->mutable_segment()->mutable_p2(), 10, 0);
  v1::Shape* polyline = level.add_shapes();
  polyline->set_id(2);
  AddVertices(polyline->mutable_polyline()->mutable_vertices(),
              {{0, 20}, {5, 25}, {10, 20}});
  v1::Shape* convex = level.add_shapes();
  convex->set_id(3);
  AddVertices(convex->mutable_polygon()->mutable_vertices(),
              {{20, 0}, {24, 0}, {24, 4}, {20, 4}});
  v1::Shape* concave = level.add_shapes();
  concave->set_id(4);
  AddVertices(concave->mutable_polygon()->mutable_vertices(),
              {{30, 0}, {36, 0}, {36, 6}, {33, 3}, {30, 6}});
  v1::Shape* circle = level.add_shapes();
  circle->set_id(5);
  circle->set_category_bits(4);
  circle->set_user_data(55);
  Set(circle->mutable_circle()->mutable_center(), 40, 10);
  circle->mutable_circle()->set_radius(2);
  v1::Shape* box = level.add_shapes();
  box->set_id(6);
  Set(box->mutable_box()->mutable_center(), 50, 10);
  Set(box->mutable_box()->mutable_half_extents(), 1, 2);
  box->mutable_box()->set_angle_radians(0.5);
  v1::Shape* capsule = level.add_shapes();
  capsule->set_id(7);
  Set(capsule->mutable_capsule()->mutable_p1(), 60, 0);
  Set(capsule->mutable_capsule()->mutable_p2(), 60, 10);
  capsule->mutable_capsule()->set_radius(1);
  return level;
}

void ExpectError(const absl::Status& status, absl::StatusCode code,
                 const std::string& message_start) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_THAT(std::string(status.message()), StartsWith(message_start));
}

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
              "level level id must not be empty");
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

// --- Queries.

TEST(RayCastFromProtoTest, DefaultsAreTheLibDefaults) {
  v1::RayCastQuery query;
  Set(query.mutable_origin(), 1, 2);
  Set(query.mutable_translation(), 3, 4);
  absl::StatusOr<RayCastArgs> args =
      RayCastFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->ray.origin.x, 1);
  EXPECT_EQ(args->ray.translation.y, 4);
  const CastOptions defaults;
  EXPECT_EQ(args->settings.options.max_fraction, defaults.max_fraction);
  EXPECT_EQ(args->settings.options.target_distance, 0.0);
  EXPECT_FALSE(args->settings.options.stop_at_penetration);
  EXPECT_EQ(args->settings.filter.mask_bits, ~uint64_t{0});
  EXPECT_TRUE(args->settings.filter.ignore_ids.empty());
  EXPECT_FALSE(args->settings.all_hits);
}

void ExpectSameSettings(const CastSettings& a, const CastSettings& b) {
  EXPECT_EQ(a.all_hits, b.all_hits);
  EXPECT_EQ(a.max_hits, b.max_hits);
  EXPECT_EQ(a.options.max_fraction, b.options.max_fraction);
  EXPECT_EQ(a.options.target_distance, b.options.target_distance);
  EXPECT_EQ(a.options.stop_at_penetration, b.options.stop_at_penetration);
  EXPECT_EQ(a.filter.mask_bits, b.filter.mask_bits);
  EXPECT_EQ(a.filter.ignore_ids.size(), b.filter.ignore_ids.size());
}

// Casts without options take a shortcut; it must give exactly what the full
// conversion of an all-default CastOptions gives, for every cast kind.
TEST(CastFromProtoTest, UnsetOptionsConvertLikeEmptyOptions) {
  InputLimits limits;
  limits.max_results_per_query = 17;
  v1::RayCastQuery ray;
  absl::StatusOr<RayCastArgs> ray_unset = RayCastFromProto(ray, limits, "q");
  ray.mutable_options();
  absl::StatusOr<RayCastArgs> ray_set = RayCastFromProto(ray, limits, "q");
  ASSERT_TRUE(ray_unset.ok() && ray_set.ok());
  ExpectSameSettings(ray_unset->settings, ray_set->settings);
  EXPECT_EQ(ray_unset->settings.max_hits, 17);

  v1::CircleCastQuery circle;
  absl::StatusOr<CircleCastArgs> circle_unset =
      CircleCastFromProto(circle, limits, "q");
  circle.mutable_options();
  absl::StatusOr<CircleCastArgs> circle_set =
      CircleCastFromProto(circle, limits, "q");
  ASSERT_TRUE(circle_unset.ok() && circle_set.ok());
  ExpectSameSettings(circle_unset->settings, circle_set->settings);

  v1::PolygonCastQuery polygon;
  AddVertices(polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  absl::StatusOr<PolygonCastArgs> polygon_unset =
      PolygonCastFromProto(polygon, limits, "q");
  polygon.mutable_options();
  absl::StatusOr<PolygonCastArgs> polygon_set =
      PolygonCastFromProto(polygon, limits, "q");
  ASSERT_TRUE(polygon_unset.ok() && polygon_set.ok());
  ExpectSameSettings(polygon_unset->settings, polygon_set->settings);

  v1::CapsuleCastQuery capsule;
  absl::StatusOr<CapsuleCastArgs> capsule_unset =
      CapsuleCastFromProto(capsule, limits, "q");
  capsule.mutable_options();
  absl::StatusOr<CapsuleCastArgs> capsule_set =
      CapsuleCastFromProto(capsule, limits, "q");
  ASSERT_TRUE(capsule_unset.ok() && capsule_set.ok());
  ExpectSameSettings(capsule_unset->settings, capsule_set->settings);
}

TEST(RayCastFromProtoTest, OptionsAreCopied) {
  v1::RayCastQuery query;
  v1::CastOptions* options = query.mutable_options();
  options->set_mode(v1::CAST_MODE_ALL);
  options->set_max_fraction(0.25);
  options->set_target_distance(0.5);
  options->set_stop_at_penetration(true);
  options->set_max_hits(7);
  options->mutable_filter()->set_mask_bits(0);
  options->mutable_filter()->add_ignore_ids(3);
  options->mutable_filter()->add_ignore_ids(9);
  absl::StatusOr<RayCastArgs> args =
      RayCastFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(args->settings.all_hits);
  EXPECT_EQ(args->settings.max_hits, 7);
  EXPECT_EQ(args->settings.options.max_fraction, 0.25);
  EXPECT_EQ(args->settings.options.target_distance, 0.5);
  EXPECT_TRUE(args->settings.options.stop_at_penetration);
  // An explicit 0 mask is kept: it matches nothing.
  EXPECT_EQ(args->settings.filter.mask_bits, 0u);
  ASSERT_EQ(args->settings.filter.ignore_ids.size(), 2u);
  EXPECT_EQ(args->settings.filter.ignore_ids[1], 9u);
}

TEST(RayCastFromProtoTest, MaxHitsZeroMeansTheLimit) {
  v1::RayCastQuery query;
  query.mutable_options()->set_mode(v1::CAST_MODE_ALL);
  InputLimits limits;
  limits.max_results_per_query = 12;
  absl::StatusOr<RayCastArgs> args = RayCastFromProto(query, limits, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->settings.max_hits, 12);
}

TEST(RayCastFromProtoTest, BadOptionsNameTheField) {
  struct Case {
    void (*spoil)(v1::CastOptions*);
    const char* message;
  };
  const Case cases[] = {
      {[](v1::CastOptions* o) { o->set_max_fraction(1.5); },
       "q.options.max_fraction must be in [0, 1], got 1.5"},
      {[](v1::CastOptions* o) { o->set_max_fraction(-0.1); },
       "q.options.max_fraction must be in [0, 1]"},
      {[](v1::CastOptions* o) { o->set_max_fraction(kNaN); },
       "q.options.max_fraction must be finite"},
      {[](v1::CastOptions* o) { o->set_target_distance(-1); },
       "q.options.target_distance must be >= 0"},
      {[](v1::CastOptions* o) { o->set_target_distance(kInf); },
       "q.options.target_distance must be finite"},
      {[](v1::CastOptions* o) { o->set_mode(static_cast<v1::CastMode>(9)); },
       "q.options.mode 9 is not a known CastMode"},
      {[](v1::CastOptions* o) { o->set_max_hits(-1); },
       "q.options.max_hits must be >= 0"},
      {[](v1::CastOptions* o) { o->set_max_hits(257); },
       "q.options.max_hits 257 is more than max_results_per_query 256"},
      {[](v1::CastOptions* o) {
         for (int i = 0; i < 65; ++i) o->mutable_filter()->add_ignore_ids(i);
       },
       "q.options.filter.ignore_ids holds 65 ids, more than max_ignore_ids 64"},
  };
  for (const Case& c : cases) {
    v1::RayCastQuery query;
    c.spoil(query.mutable_options());
    ExpectError(RayCastFromProto(query, InputLimits{}, "q").status(),
                absl::StatusCode::kInvalidArgument, c.message);
  }
}

TEST(RayCastFromProtoTest, NonFiniteInputNamesTheField) {
  v1::RayCastQuery query;
  query.mutable_translation()->set_x(kNaN);
  ExpectError(
      RayCastFromProto(query, InputLimits{}, "queries[2].ray_cast").status(),
      absl::StatusCode::kInvalidArgument,
      "queries[2].ray_cast.translation.x must be finite");
  query.mutable_origin()->set_y(kInf);
  ExpectError(RayCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument, "q.origin.y must be finite");
}

TEST(RayCastFromProtoTest, CoordinatesBeyondTheCoreLimitNameTheField) {
  // Finite but huge: the core's quadratics would overflow to infinity.
  v1::RayCastQuery query;
  query.mutable_translation()->set_y(1e200);
  ExpectError(RayCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.translation.y must be within +-1e60");
}

TEST(RayCastFromProtoTest, MagnitudesBelowTheLeastNameTheField) {
  // Below 1e-60 (a subnormal included) products of four lengths leave
  // double's normal range: refused, as beyond 1e60 is. 0 and 1e-60 itself
  // are taken.
  v1::RayCastQuery query;
  query.mutable_translation()->set_x(1e-60);
  query.mutable_translation()->set_y(-0.0);
  EXPECT_TRUE(RayCastFromProto(query, InputLimits{}, "q").ok());
  query.mutable_translation()->set_y(-9e-61);
  ExpectError(RayCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.translation.y must be 0 or at least 1e-60 in magnitude, got "
              "-9e-61");
  query.mutable_translation()->set_y(0);
  query.mutable_origin()->set_x(5e-324);
  ExpectError(RayCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.origin.x must be 0 or at least 1e-60 in magnitude, got "
              "4.94066e-324");
}

TEST(CircleCastFromProtoTest, ATinyRadiusOrSkinNamesTheField) {
  v1::CircleCastQuery query;
  query.mutable_circle()->set_radius(1e-70);
  ExpectError(CircleCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.circle.radius must be 0 or at least 1e-60 in magnitude, got "
              "1e-70");
  query.mutable_circle()->set_radius(1);
  query.mutable_options()->set_target_distance(1e-300);
  ExpectError(CircleCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.options.target_distance must be 0 or at least 1e-60 in "
              "magnitude, got 1e-300");
}

TEST(CircleCastFromProtoTest, NegativeRadiusNamesTheField) {
  v1::CircleCastQuery query;
  query.mutable_circle()->set_radius(-0.5);
  ExpectError(CircleCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.circle.radius must be >= 0, got -0.5");
}

TEST(CircleCastFromProtoTest, ZeroRadiusAndZeroTranslationAreValid) {
  v1::CircleCastQuery query;
  Set(query.mutable_circle()->mutable_center(), 1, 1);
  absl::StatusOr<CircleCastArgs> args =
      CircleCastFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->cast.circle.radius, 0.0);
  EXPECT_EQ(args->cast.translation, (Vec2{0, 0}));
}

TEST(PolygonCastFromProtoTest, ConvexPolygonMatchesMakeConvexPolygon) {
  v1::PolygonCastQuery query;
  // Clockwise: MakeConvexPolygon reverses it, and so must the conversion.
  AddVertices(query.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {0, 1}, {1, 1}, {1, 0}});
  Set(query.mutable_translation(), 5, 0);
  absl::StatusOr<PolygonCastArgs> args =
      PolygonCastFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  const Vec2 input[] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  absl::StatusOr<ConvexPolygon> expected = MakeConvexPolygon(input);
  ASSERT_TRUE(expected.ok());
  ASSERT_EQ(args->cast.polygon.count, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(args->cast.polygon.vertices[i], expected->vertices[i]);
    EXPECT_EQ(args->cast.polygon.normals[i], expected->normals[i]);
  }
}

TEST(PolygonCastFromProtoTest, BadPolygonsAreInvalidArgument) {
  struct Case {
    std::initializer_list<Vec2> vertices;
    const char* message;
  };
  const Case cases[] = {
      {{{0, 0}, {1, 0}},
       "q.polygon.vertices must hold at least 3 vertices, got 2"},
      {{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 1}, {3, 2}, {2, 2}, {1, 2}, {0, 1}},
       "q.polygon.vertices holds 9 vertices, more than 8"},
      {{{0, 0}, {4, 0}, {2, 1}, {4, 4}, {0, 4}}, "q.polygon: "},  // not convex
      {{{0, 0}, {1, 0}, {2, 0}}, "q.polygon: "},                  // collinear
      {{{0, 0}, {1, kNaN}, {0, 1}}, "q.polygon.vertices[1].y must be finite"},
  };
  for (const Case& c : cases) {
    v1::PolygonCastQuery query;
    AddVertices(query.mutable_polygon()->mutable_vertices(), c.vertices);
    ExpectError(PolygonCastFromProto(query, InputLimits{}, "q").status(),
                absl::StatusCode::kInvalidArgument, c.message);
  }
}

TEST(CapsuleCastFromProtoTest, BadCapsuleNamesTheField) {
  v1::CapsuleCastQuery query;
  query.mutable_capsule()->mutable_p2()->set_x(kNaN);
  ExpectError(CapsuleCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.capsule.p2.x must be finite");
  query.mutable_capsule()->mutable_p2()->set_x(1);
  query.mutable_capsule()->set_radius(-2);
  ExpectError(CapsuleCastFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.capsule.radius must be >= 0");
}

TEST(OverlapFromProtoTest, EachShapeKindConverts) {
  v1::OverlapQuery circle;
  circle.mutable_circle()->set_radius(2);
  absl::StatusOr<OverlapArgs> a = OverlapFromProto(circle, InputLimits{}, "q");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(std::holds_alternative<Circle>(a->shape));
  EXPECT_EQ(a->max_results, InputLimits{}.max_results_per_query);

  v1::OverlapQuery polygon;
  AddVertices(polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  polygon.set_max_results(3);
  absl::StatusOr<OverlapArgs> b = OverlapFromProto(polygon, InputLimits{}, "q");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(std::holds_alternative<ConvexPolygon>(b->shape));
  EXPECT_EQ(b->max_results, 3);

  v1::OverlapQuery capsule;
  capsule.mutable_capsule()->set_radius(1);
  absl::StatusOr<OverlapArgs> c = OverlapFromProto(capsule, InputLimits{}, "q");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(std::holds_alternative<Capsule>(c->shape));
}

TEST(OverlapFromProtoTest, BadOverlapsNameTheField) {
  ExpectError(OverlapFromProto(v1::OverlapQuery(), InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument, "q has no shape");
  v1::OverlapQuery circle;
  circle.mutable_circle()->set_radius(-1);
  ExpectError(OverlapFromProto(circle, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.circle.radius must be >= 0");
  v1::OverlapQuery many;
  many.mutable_circle()->set_radius(1);
  many.set_max_results(1000);
  ExpectError(OverlapFromProto(many, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.max_results 1000 is more than max_results_per_query");
}

TEST(ClosestPointFromProtoTest, AbsentMaxDistanceIsUnlimited) {
  v1::ClosestPointQuery query;
  absl::StatusOr<ClosestPointArgs> args =
      ClosestPointFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->max_distance, kInf);
  query.set_max_distance(0);
  args = ClosestPointFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->max_distance, 0.0);
}

TEST(ClosestPointFromProtoTest, BadInputNamesTheField) {
  v1::ClosestPointQuery query;
  query.set_max_distance(-1);
  ExpectError(ClosestPointFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.max_distance must be >= 0");
  query.set_max_distance(kInf);
  ExpectError(ClosestPointFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument,
              "q.max_distance must be finite");
  query.clear_max_distance();
  query.mutable_point()->set_x(kNaN);
  ExpectError(ClosestPointFromProto(query, InputLimits{}, "q").status(),
              absl::StatusCode::kInvalidArgument, "q.point.x must be finite");
}

// --- Results.

TEST(ToProtoTest, WorldHitCopiesEveryField) {
  WorldHit hit;
  hit.hit = {.fraction = 0.25,
             .point = {1, 2},
             .normal = {0, 1},
             .depth = 0.5,
             .feature = {FeatureType::kVertex, 3},
             .status = HitStatus::kInitialOverlap};
  hit.shape_id = 17;
  hit.user_data = 99;
  v1::CastHit out;
  ToProto(hit, &out);
  EXPECT_EQ(out.fraction(), 0.25);
  EXPECT_EQ(out.point().x(), 1);
  EXPECT_EQ(out.point().y(), 2);
  EXPECT_EQ(out.normal().y(), 1);
  EXPECT_EQ(out.depth(), 0.5);
  EXPECT_EQ(out.feature().type(), v1::FEATURE_TYPE_VERTEX);
  EXPECT_EQ(out.feature().index(), 3);
  EXPECT_EQ(out.status(), v1::HIT_STATUS_INITIAL_OVERLAP);
  EXPECT_EQ(out.shape_id(), 17u);
  EXPECT_EQ(out.user_data(), 99u);
}

TEST(ToProtoTest, EnumsMapOneToOne) {
  EXPECT_EQ(ToProto(HitStatus::kHit), v1::HIT_STATUS_HIT);
  EXPECT_EQ(ToProto(FeatureType::kEdge), v1::FEATURE_TYPE_EDGE);
  EXPECT_EQ(ToProto(FeatureType::kSurface), v1::FEATURE_TYPE_SURFACE);
}

TEST(ToProtoTest, ClosestPointSetsFound) {
  WorldClosestPoint closest;
  closest.point = {3, 4};
  closest.distance = 5;
  closest.normal = {0.6, 0.8};
  closest.feature = {FeatureType::kEdge, 1};
  closest.shape_id = 8;
  closest.user_data = 9;
  v1::ClosestPointResult out;
  ToProto(closest, &out);
  EXPECT_TRUE(out.found());
  EXPECT_EQ(out.distance(), 5);
  EXPECT_EQ(out.normal().x(), 0.6);
  EXPECT_EQ(out.feature().index(), 1);
  EXPECT_EQ(out.shape_id(), 8u);
  EXPECT_EQ(out.user_data(), 9u);
}

// --- Validation queries (issue 7).

v1::MoveValidationQuery CircleMove() {
  v1::MoveValidationQuery query;
  Set(query.mutable_circle()->mutable_center(), 1, 2);
  query.mutable_circle()->set_radius(0.5);
  Set(query.mutable_translation(), 3, -4);
  return query;
}

TEST(MoveValidationFromProtoTest, DefaultsAndFieldsConvert) {
  v1::MoveValidationQuery query = CircleMove();
  absl::StatusOr<MoveValidationArgs> args =
      MoveValidationFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  const Circle* circle = std::get_if<Circle>(&args->claim.mover);
  ASSERT_NE(circle, nullptr);
  EXPECT_EQ(circle->center.x, 1);
  EXPECT_EQ(circle->radius, 0.5);
  EXPECT_EQ(args->claim.translation.y, -4);
  EXPECT_EQ(args->options.skin, 0.0);
  EXPECT_EQ(args->options.max_slide_iterations, 0);
  EXPECT_EQ(args->options.max_exit_iterations,
            MoveOptions{}.max_exit_iterations);
  EXPECT_EQ(args->filter.mask_bits, ~uint64_t{0});

  query.set_skin(0.01);
  query.set_max_slide_iterations(16);
  query.set_max_exit_iterations(8);
  query.mutable_filter()->set_mask_bits(6);
  query.mutable_filter()->add_ignore_ids(4);
  args = MoveValidationFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->options.skin, 0.01);
  EXPECT_EQ(args->options.max_slide_iterations, 16);
  EXPECT_EQ(args->options.max_exit_iterations, 8);
  EXPECT_EQ(args->filter.mask_bits, 6u);
  ASSERT_EQ(args->filter.ignore_ids.size(), 1u);
  EXPECT_TRUE(IsValid(args->claim) && IsValid(args->options));
}

TEST(MoveValidationFromProtoTest, CapsuleAndPolygonMoversConvert) {
  v1::MoveValidationQuery capsule;
  Set(capsule.mutable_capsule()->mutable_p2(), 0, 2);
  capsule.mutable_capsule()->set_radius(0.3);
  absl::StatusOr<MoveValidationArgs> args =
      MoveValidationFromProto(capsule, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(std::holds_alternative<Capsule>(args->claim.mover));

  v1::MoveValidationQuery polygon;
  AddVertices(polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {0, 1}, {1, 0}});  // clockwise
  args = MoveValidationFromProto(polygon, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  const ConvexPolygon* convex = std::get_if<ConvexPolygon>(&args->claim.mover);
  ASSERT_NE(convex, nullptr);
  const std::vector<Vec2> points = {{0, 0}, {0, 1}, {1, 0}};
  const ConvexPolygon want = *MakeConvexPolygon(points);
  ASSERT_EQ(convex->count, want.count);
  for (int i = 0; i < want.count; ++i) {
    EXPECT_EQ(convex->vertices[i], want.vertices[i]);
  }
}

TEST(MoveValidationFromProtoTest, BadInputNamesTheField) {
  InputLimits limits;
  limits.max_slide_iterations = 8;
  limits.max_ignore_ids = 1;
  const auto expect = [&](v1::MoveValidationQuery query,
                          absl::string_view message) {
    const absl::StatusOr<MoveValidationArgs> args =
        MoveValidationFromProto(query, limits, "move");
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  expect(v1::MoveValidationQuery(),
         "move has no mover: set one of circle, capsule, polygon");
  v1::MoveValidationQuery q = CircleMove();
  q.mutable_circle()->set_radius(-1);
  expect(q, "move.circle.radius must be >= 0");
  q = CircleMove();
  q.mutable_translation()->set_x(kNaN);
  expect(q, "move.translation.x must be finite");
  q = CircleMove();
  q.set_skin(-0.1);
  expect(q, "move.skin must be >= 0");
  q = CircleMove();
  q.set_skin(kInf);
  expect(q, "move.skin must be finite");
  q = CircleMove();
  q.set_max_slide_iterations(9);
  expect(q, "move.max_slide_iterations 9 is more than max_slide_iterations 8");
  q = CircleMove();
  q.set_max_slide_iterations(-1);
  expect(q, "move.max_slide_iterations must be >= 0");
  q = CircleMove();
  q.set_max_exit_iterations(9);
  expect(q, "move.max_exit_iterations must be in [0, 8], got 9");
  q = CircleMove();
  q.mutable_filter()->add_ignore_ids(1);
  q.mutable_filter()->add_ignore_ids(2);
  expect(q, "move.filter.ignore_ids holds 2 ids");
  v1::MoveValidationQuery bad_polygon;
  AddVertices(bad_polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {4, 0}, {1, 1}, {0, 4}});
  expect(bad_polygon, "move.polygon: ");
  v1::MoveValidationQuery capsule;
  capsule.mutable_capsule()->mutable_p1()->set_y(kInf);
  expect(capsule, "move.capsule.p1.y must be finite");
}

v1::HitValidationQuery Shot3Targets() {
  v1::HitValidationQuery query;
  Set(query.mutable_origin(), 0, 0);
  Set(query.mutable_translation(), 40, 0);
  query.set_radius(0.25);
  v1::ShotTarget* circle = query.add_targets();
  circle->set_id(7);
  Set(circle->mutable_circle()->mutable_center(), 10, 0);
  circle->mutable_circle()->set_radius(1);
  Set(circle->mutable_translation(), 0, 3);
  v1::ShotTarget* capsule = query.add_targets();
  capsule->set_id(8);
  Set(capsule->mutable_capsule()->mutable_p2(), 0, 1);
  v1::ShotTarget* polygon = query.add_targets();
  polygon->set_id(9);
  AddVertices(polygon->mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  return query;
}

TEST(HitValidationFromProtoTest, ShotAndTargetsConvertIntoTheStorage) {
  std::vector<ShotTarget> storage(5);  // stale entries are cleared
  absl::StatusOr<HitValidationArgs> args =
      HitValidationFromProto(Shot3Targets(), InputLimits{}, "q", storage);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->shot.translation.x, 40);
  EXPECT_EQ(args->shot.radius, 0.25);
  ASSERT_EQ(args->targets.size(), 3u);
  EXPECT_EQ(args->targets.data(), storage.data());
  EXPECT_EQ(args->targets[0].id, 7u);
  EXPECT_EQ(args->targets[0].translation.y, 3);
  EXPECT_TRUE(std::holds_alternative<Circle>(args->targets[0].hitbox));
  EXPECT_TRUE(std::holds_alternative<Capsule>(args->targets[1].hitbox));
  EXPECT_TRUE(std::holds_alternative<ConvexPolygon>(args->targets[2].hitbox));
  for (const ShotTarget& t : args->targets) EXPECT_TRUE(IsValid(t));
}

TEST(HitValidationFromProtoTest, BadInputNamesTheField) {
  InputLimits limits;
  limits.max_shot_targets = 3;
  std::vector<ShotTarget> storage;
  const auto expect = [&](const v1::HitValidationQuery& query,
                          absl::string_view message) {
    const absl::StatusOr<HitValidationArgs> args =
        HitValidationFromProto(query, limits, "shot", storage);
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  v1::HitValidationQuery q = Shot3Targets();
  q.mutable_origin()->set_y(kNaN);
  expect(q, "shot.origin.y must be finite");
  q = Shot3Targets();
  q.set_radius(-1);
  expect(q, "shot.radius must be >= 0");
  q = Shot3Targets();
  q.add_targets();
  expect(q, "shot.targets holds 4 targets, more than max_shot_targets 3");
  q = Shot3Targets();
  q.mutable_targets(1)->clear_capsule();
  expect(q,
         "shot.targets[1] has no hitbox: set one of circle, capsule, "
         "polygon");
  q = Shot3Targets();
  q.mutable_targets(0)->mutable_circle()->set_radius(-2);
  expect(q, "shot.targets[0].circle.radius must be >= 0");
  q = Shot3Targets();
  q.mutable_targets(2)->mutable_translation()->set_x(1e61);
  expect(q, "shot.targets[2].translation.x must be within +-1e60");
  q = Shot3Targets();
  q.mutable_targets(2)->mutable_polygon()->add_vertices();
  expect(q, "shot.targets[2].polygon: ");
}

TEST(PairToiFromProtoTest, EveryShapeKindConverts) {
  v1::PairToiQuery query;
  Set(query.mutable_a()->mutable_point(), 1, 2);
  Set(query.mutable_a()->mutable_translation(), 5, 0);
  Set(query.mutable_b()->mutable_segment()->mutable_p2(), 0, 3);
  absl::StatusOr<PairToiArgs> args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(std::get<Vec2>(args->a.shape), (Vec2{1, 2}));
  EXPECT_EQ(args->a.translation.x, 5);
  EXPECT_EQ(std::get<Segment>(args->b.shape).p2.y, 3);
  EXPECT_EQ(args->options.max_fraction, 1.0);
  EXPECT_EQ(args->options.target_distance, 0.0);

  query.mutable_a()->mutable_circle()->set_radius(2);
  query.mutable_b()->mutable_capsule()->set_radius(1);
  query.set_max_fraction(0.5);
  query.set_target_distance(0.1);
  args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(std::get<Circle>(args->a.shape).radius, 2);
  EXPECT_EQ(std::get<Capsule>(args->b.shape).radius, 1);
  EXPECT_EQ(args->options.max_fraction, 0.5);
  EXPECT_EQ(args->options.target_distance, 0.1);

  AddVertices(query.mutable_b()->mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(std::holds_alternative<ConvexPolygon>(args->b.shape));
}

TEST(PairToiFromProtoTest, BadInputNamesTheField) {
  const auto expect = [](const v1::PairToiQuery& query,
                         absl::string_view message) {
    const absl::StatusOr<PairToiArgs> args = PairToiFromProto(query, "pair");
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  v1::PairToiQuery good;
  good.mutable_a()->mutable_point();
  good.mutable_b()->mutable_point();
  expect(v1::PairToiQuery(),
         "pair.a has no shape: set one of point, segment, circle, capsule, "
         "polygon");
  v1::PairToiQuery q = good;
  q.clear_b();
  expect(q, "pair.b has no shape");
  q = good;
  q.mutable_b()->mutable_segment()->mutable_p2()->set_x(kNaN);
  expect(q, "pair.b.segment.p2.x must be finite");
  q = good;
  q.mutable_a()->mutable_circle()->set_radius(-1);
  expect(q, "pair.a.circle.radius must be >= 0");
  q = good;
  q.mutable_a()->mutable_translation()->set_y(kInf);
  expect(q, "pair.a.translation.y must be finite");
  q = good;
  q.set_max_fraction(1.5);
  expect(q, "pair.max_fraction must be in [0, 1]");
  q = good;
  q.set_target_distance(-1);
  expect(q, "pair.target_distance must be >= 0");
}

// A segment from (-1, 0)-(1, 0) turning to (0, -1)-(0, 1), and a point.
v1::PairToiQuery DeformingPairQuery(bool segment_is_a) {
  v1::PairToiQuery query;
  v1::MovingShape* segment =
      segment_is_a ? query.mutable_a() : query.mutable_b();
  v1::MovingShape* point = segment_is_a ? query.mutable_b() : query.mutable_a();
  Set(segment->mutable_segment()->mutable_p1(), -1, 0);
  Set(segment->mutable_segment()->mutable_p2(), 1, 0);
  Set(segment->mutable_segment_end()->mutable_p1(), 0, -1);
  Set(segment->mutable_segment_end()->mutable_p2(), 0, 1);
  Set(point->mutable_point(), 0.5, 2);
  Set(point->mutable_translation(), 0, -1);
  return query;
}

TEST(PairToiFromProtoTest, SegmentEndMakesADeformingPairEitherWay) {
  for (const bool segment_is_a : {false, true}) {
    absl::StatusOr<PairToiArgs> args =
        PairToiFromProto(DeformingPairQuery(segment_is_a), "q");
    ASSERT_TRUE(args.ok()) << args.status();
    ASSERT_TRUE(args->deforming.has_value());
    EXPECT_EQ(args->deforming->point_is_a, !segment_is_a);
    EXPECT_EQ(args->deforming->point.origin, (Vec2{0.5, 2}));
    EXPECT_EQ(args->deforming->point.translation, (Vec2{0, -1}));
    EXPECT_EQ(args->deforming->segment.start.p1, (Vec2{-1, 0}));
    EXPECT_EQ(args->deforming->segment.end.p2, (Vec2{0, 1}));
  }
  // Without segment_end nothing deforms.
  v1::PairToiQuery rigid = DeformingPairQuery(false);
  rigid.mutable_b()->clear_segment_end();
  absl::StatusOr<PairToiArgs> args = PairToiFromProto(rigid, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_FALSE(args->deforming.has_value());
}

TEST(PairToiFromProtoTest, DeformingSegmentMisuseNamesTheField) {
  v1::PairToiQuery q = DeformingPairQuery(false);
  q.mutable_a()->mutable_circle()->set_radius(1);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.segment_end: a deforming segment meets only a point, "
              "but pair.a is not one");
  q = DeformingPairQuery(false);
  Set(q.mutable_b()->mutable_translation(), 1, 0);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.translation must be zero when pair.b.segment_end");
  q = DeformingPairQuery(true);
  q.mutable_a()->mutable_circle()->set_radius(1);  // replaces the segment
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.a.segment_end is set but pair.a is not a segment");
  q = DeformingPairQuery(false);
  q.mutable_b()->mutable_segment_end()->mutable_p1()->set_y(kNaN);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.segment_end.p1.y must be finite");
  q = DeformingPairQuery(false);
  q.set_target_distance(0.5);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.target_distance must be 0 with a deforming segment");
}

TEST(ToProtoTest, MoveValidationCopiesSlideAndExit) {
  MoveValidation v;
  v.verdict = MoveVerdict::kBlocked;
  WorldHit first;
  first.hit.fraction = 0.5;
  first.shape_id = 3;
  v.first_hit = first;
  v.safe_fraction = 0.4;
  v.safe_translation = {4, 0};
  v.claimed_end_reachable = false;
  SlideResult slide;
  slide.translation = {6, 1};
  slide.iterations = 2;
  slide.contacts[0] = {.translation = {4, 0},
                       .point = {5, 0},
                       .normal = {-1, 0},
                       .feature = {FeatureType::kEdge, 2},
                       .shape_id = 3,
                       .user_data = 30};
  slide.contact_count = 1;
  v.slide = slide;
  v1::MoveValidationResult out;
  ToProto(v, &out);
  EXPECT_EQ(out.verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(out.first_hit().shape_id(), 3u);
  EXPECT_EQ(out.safe_fraction(), 0.4);
  EXPECT_EQ(out.safe_translation().x(), 4);
  EXPECT_FALSE(out.claimed_end_reachable());
  EXPECT_EQ(out.slide().translation().y(), 1);
  EXPECT_EQ(out.slide().iteration_count(), 2);
  ASSERT_EQ(out.slide().contacts_size(), 1);
  EXPECT_EQ(out.slide().contacts(0).normal().x(), -1);
  EXPECT_EQ(out.slide().contacts(0).user_data(), 30u);
  EXPECT_EQ(out.slide().contacts(0).feature().index(), 2);
  EXPECT_FALSE(out.has_exit());

  MoveValidation inside;
  inside.verdict = MoveVerdict::kStartsInside;
  ExitResult exit;
  exit.separated = true;
  exit.translation = {0, 0.5};
  exit.iterations = 1;
  exit.depth = 0.5;
  exit.overlapped[0] = {7, 70};
  exit.overlapped_count = 1;
  inside.exit = exit;
  v1::MoveValidationResult out_inside;
  ToProto(inside, &out_inside);
  EXPECT_EQ(out_inside.verdict(), v1::MOVE_VERDICT_STARTS_INSIDE);
  EXPECT_FALSE(out_inside.has_first_hit());
  EXPECT_FALSE(out_inside.has_slide());
  EXPECT_TRUE(out_inside.exit().separated());
  EXPECT_EQ(out_inside.exit().translation().y(), 0.5);
  ASSERT_EQ(out_inside.exit().overlapped_shapes_size(), 1);
  EXPECT_EQ(out_inside.exit().overlapped_shapes(0).user_data(), 70u);
}

TEST(ToProtoTest, ShotAndPairMissesSetOnlyTheOutcome) {
  v1::HitValidationResult shot;
  ToProto(std::optional<ShotHit>(), &shot);
  EXPECT_EQ(shot.outcome(), v1::SHOT_OUTCOME_MISS);
  EXPECT_EQ(shot.target_index(), -1);
  EXPECT_FALSE(shot.has_point());
  v1::HitValidationResult target;
  ShotHit hit;
  hit.kind = ShotHitKind::kTarget;
  hit.id = 5;
  hit.target_index = 2;
  hit.hit.fraction = 0.25;
  ToProto(std::optional<ShotHit>(hit), &target);
  EXPECT_EQ(target.outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(target.id(), 5u);
  EXPECT_EQ(target.target_index(), 2);
  EXPECT_EQ(target.fraction(), 0.25);
  v1::PairToiResult pair;
  ToProto(std::optional<Hit>(), &pair);
  EXPECT_FALSE(pair.hit());
  EXPECT_FALSE(pair.has_point());
}

}  // namespace
}  // namespace collide::formats
