// collide-cli's command-line shapes: points, point lists and casts, and
// errors that name the flag.
#include "client/cli/cast_args.h"

#include "client/cli/result_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::cli {
namespace {

using ::testing::HasSubstr;

TEST(ParsePointTest, ReadsTwoFiniteNumbers) {
  absl::StatusOr<Vec2> point = ParsePoint(" 1.5, -2e3 ", "from");
  ASSERT_TRUE(point.ok()) << point.status();
  EXPECT_EQ(point->x, 1.5);
  EXPECT_EQ(point->y, -2000);
}

TEST(ParsePointTest, RefusesAnythingElseNamingTheFlag) {
  for (const char* text : {"", "1", "1,2,3", "1,x", "nan,0", "inf,1", "1;2"}) {
    const absl::Status status = ParsePoint(text, "from").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(status.message(), HasSubstr("--from")) << text;
  }
}

TEST(ParsePointsTest, TakesSpacesOrSemicolons) {
  absl::StatusOr<std::vector<Vec2>> points = ParsePoints("0,0 1,0;0,1", "p");
  ASSERT_TRUE(points.ok()) << points.status();
  ASSERT_EQ(points->size(), 3u);
  EXPECT_EQ((*points)[2].y, 1);
  EXPECT_THAT(ParsePoints("  ", "points").status().message(),
              HasSubstr("--points"));
}

TEST(MakeCastQueryTest, RayToAnEndPointBecomesItsTranslation) {
  CastArgs args{.kind = "ray", .from = "1,2", .to = "4,6"};
  absl::StatusOr<v1::Query> query = MakeCastQuery(args);
  ASSERT_TRUE(query.ok()) << query.status();
  EXPECT_EQ(query->ray_cast().origin().y(), 2);
  EXPECT_EQ(query->ray_cast().translation().x(), 3);
  EXPECT_EQ(query->ray_cast().translation().y(), 4);
  EXPECT_EQ(query->ray_cast().options().mode(), v1::CAST_MODE_CLOSEST);
}

TEST(MakeCastQueryTest, PolygonMovesItsFirstVertexToTo) {
  CastArgs args{.kind = "polygon", .to = "10,0", .points = "2,0 3,0 2,1"};
  absl::StatusOr<v1::Query> query = MakeCastQuery(args);
  ASSERT_TRUE(query.ok()) << query.status();
  EXPECT_EQ(query->polygon_cast().polygon().vertices_size(), 3);
  EXPECT_EQ(query->polygon_cast().translation().x(), 8);
}

TEST(MakeCastQueryTest, OptionsAndFilterAreCarried) {
  CastArgs args{.kind = "capsule",
                .by = "4,0",
                .radius = 0.3,
                .points = "0,0 0,1",
                .all = true,
                .max_fraction = 0.5,
                .skin = 0.01,
                .mask = 6,
                .ignore = "3, 7"};
  absl::StatusOr<v1::Query> query = MakeCastQuery(args);
  ASSERT_TRUE(query.ok()) << query.status();
  const v1::CastOptions& options = query->capsule_cast().options();
  EXPECT_EQ(options.mode(), v1::CAST_MODE_ALL);
  EXPECT_EQ(options.max_fraction(), 0.5);
  EXPECT_EQ(options.target_distance(), 0.01);
  EXPECT_EQ(options.filter().mask_bits(), 6u);
  EXPECT_THAT(options.filter().ignore_ids(), ::testing::ElementsAre(3, 7));
  EXPECT_EQ(query->capsule_cast().capsule().radius(), 0.3);
}

TEST(MakeCastQueryTest, BadArgumentsNameTheirFlag) {
  struct Case {
    CastArgs args;
    const char* flag;
  };
  const Case cases[] = {
      {{.kind = "ray", .from = "0,0"}, "--to"},  // no motion
      {{.kind = "ray", .from = "0,0", .to = "1,1", .by = "1,1"}, "--to"},
      {{.kind = "circle", .from = "0,0", .by = "x"}, "--by"},
      {{.kind = "capsule", .by = "1,0", .points = "0,0"}, "--points"},
      {{.kind = "ray", .from = "0,0", .by = "1,0", .ignore = "a"}, "--ignore"},
      {{.kind = "cone", .from = "0,0", .by = "1,0"}, "cone"},
  };
  for (const Case& c : cases) {
    const absl::Status status = MakeCastQuery(c.args).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.flag;
    EXPECT_THAT(status.message(), HasSubstr(c.flag));
  }
}

TEST(MakeOverlapQueryTest, BuildsEachShapeAndRefusesARay) {
  absl::StatusOr<v1::Query> circle =
      MakeOverlapQuery({.kind = "circle", .from = "1,1", .radius = 2});
  ASSERT_TRUE(circle.ok()) << circle.status();
  EXPECT_EQ(circle->overlap().circle().radius(), 2);
  absl::StatusOr<v1::Query> polygon =
      MakeOverlapQuery({.kind = "polygon", .points = "0,0 1,0 0,1"});
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_EQ(polygon->overlap().polygon().vertices_size(), 3);
  EXPECT_EQ(MakeOverlapQuery({.kind = "ray", .from = "0,0"}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(MakeMoveQueryTest, CarriesMoverMotionSkinAndSlide) {
  absl::StatusOr<v1::Query> query = MakeMoveQuery({.kind = "circle",
                                                   .from = "0,5",
                                                   .by = "10,0",
                                                   .radius = 0.5,
                                                   .skin = 0.01},
                                                  4);
  ASSERT_TRUE(query.ok()) << query.status();
  const v1::MoveValidationQuery& move = query->move_validation();
  EXPECT_EQ(move.circle().radius(), 0.5);
  EXPECT_EQ(move.translation().x(), 10);
  EXPECT_EQ(move.skin(), 0.01);
  EXPECT_EQ(move.max_slide_iterations(), 4);
  EXPECT_THAT(MakeMoveQuery({.kind = "ray", .from = "0,0", .by = "1,0"}, 0)
                  .status()
                  .message(),
              HasSubstr("circle, capsule or polygon"));
}

TEST(ResultTextTest, SaysHitMissAndErrorPlainly) {
  CastArgs args{.kind = "ray", .from = "0,0", .by = "30,0"};
  const v1::Query query = *MakeCastQuery(args);
  v1::QueryResult result;
  result.set_request_id(4);
  result.mutable_cast();
  EXPECT_EQ(ResultText(query, result),
            "#4 ray from (0, 0) by (30, 0)\n  miss\n");
  v1::CastHit* hit = result.mutable_cast()->add_hits();
  hit->set_fraction(0.25);
  hit->set_shape_id(10);
  hit->mutable_normal()->set_x(-1);
  hit->mutable_normal()->set_y(-0.0);
  hit->mutable_feature()->set_type(v1::FEATURE_TYPE_EDGE);
  hit->set_status(v1::HIT_STATUS_HIT);
  EXPECT_THAT(ResultText(query, result),
              HasSubstr("hit shape 10 (user_data 0) at fraction 0.25: point "
                        "(0, 0), normal (-1, 0), edge 0"));
  result.mutable_status()->set_code(3);
  result.mutable_status()->set_message("queries[0].ray_cast.origin.x ...");
  EXPECT_THAT(ResultText(query, result),
              HasSubstr("error INVALID_ARGUMENT: queries[0].ray_cast"));
}

// A shape's parameters have no defaults: `cast circle` without --radius is
// refused naming the flag, never a circle of radius 0.
TEST(MakeCastQueryTest, ShapesRequireTheirParametersByFlagName) {
  struct Case {
    CastArgs args;
    bool overlap;
    const char* flag;
  };
  const Case cases[] = {
      {{.kind = "circle", .from = "0,5", .by = "10,0"}, false, "--radius"},
      {{.kind = "capsule", .by = "4,0", .points = "0,0 0,1"},
       false,
       "--radius"},
      {{.kind = "circle", .from = "0,5"}, true, "--radius"},
      {{.kind = "capsule", .points = "0,0 0,1"}, true, "--radius"},
      {{.kind = "ray", .to = "1,0"}, false, "--from"},
      {{.kind = "circle", .by = "1,0", .radius = 1}, false, "--from"},
      {{.kind = "polygon", .by = "1,0"}, false, "--points"},
      {{.kind = "ray", .from = "0,0", .by = "1,0", .radius = 1},
       false,
       "--radius"},
  };
  for (const Case& c : cases) {
    const absl::Status status = c.overlap ? MakeOverlapQuery(c.args).status()
                                          : MakeCastQuery(c.args).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument)
        << c.args.kind << " " << c.flag;
    EXPECT_THAT(status.message(), HasSubstr(c.flag)) << c.args.kind;
  }
  // A radius given as 0 is the caller's choice (a point), not a default.
  EXPECT_TRUE(MakeCastQuery(
                  {.kind = "circle", .from = "0,5", .by = "10,0", .radius = 0})
                  .ok());
}

TEST(MakeCastQueryTest, AngleAndPivotBecomeTheCastsTurn) {
  CastArgs args{.kind = "capsule",
                .by = "0,0",
                .radius = 0.1,
                .points = "0,0 2,0",
                .angle = 3.5,
                .pivot = "0,0.5"};
  absl::StatusOr<v1::Query> query = MakeCastQuery(args);
  ASSERT_TRUE(query.ok()) << query.status();
  EXPECT_EQ(query->capsule_cast().turn().angle(), 3.5);
  EXPECT_EQ(query->capsule_cast().turn().pivot().y(), 0.5);
  args.pivot = "";
  query = MakeCastQuery(args);
  ASSERT_TRUE(query.ok()) << query.status();
  EXPECT_FALSE(query->capsule_cast().turn().has_pivot());
  absl::StatusOr<v1::Query> move = MakeMoveQuery(args, 0);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(move->move_validation().turn().angle(), 3.5);
}

TEST(MakeCastQueryTest, TurnFlagsAreRefusedWhereTheyMeanNothing) {
  CastArgs ray{.kind = "ray", .from = "0,0", .by = "1,0", .angle = 1.0};
  EXPECT_THAT(MakeCastQuery(ray).status().message(), HasSubstr("--angle"));
  CastArgs pivot_only{.kind = "circle",
                      .from = "0,0",
                      .by = "1,0",
                      .radius = 1.0,
                      .pivot = "1,1"};
  EXPECT_THAT(MakeCastQuery(pivot_only).status().message(),
              HasSubstr("--pivot"));
  pivot_only.angle = 1.0;
  pivot_only.pivot = "1,x";
  EXPECT_THAT(MakeCastQuery(pivot_only).status().message(),
              HasSubstr("--pivot"));
}

}  // namespace
}  // namespace collide::client::cli
