// World queries through the handlers (ray, circle, polygon and capsule
// casts, overlaps, closest points): each answers exactly (bitwise) what
// calling lib/ directly gives, and a bad query gets its own error naming
// the field.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/query_handler.h"
#include "tests/server/query_handler_test_support.h"

namespace collide::server::query_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST_F(QueryHandlerTest, RayCastsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<RayInput> rays;
  std::vector<CastChoice> choices;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(1000 + static_cast<uint64_t>(i));
    const RayInput ray{random_.Point(-5, 65), random_.Point(-40, 40)};
    Set(query->mutable_ray_cast()->mutable_origin(), ray.origin);
    Set(query->mutable_ray_cast()->mutable_translation(), ray.translation);
    rays.push_back(ray);
    choices.push_back(
        RandomCast(random_, query->mutable_ray_cast()->mutable_options()));
  }
  const v1::RunQueriesResponse response = Run(request);
  int hits = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const RayInput& ray = rays[i];
    ExpectSameCast(
        response.results(i), choices[i],
        [&](const QueryFilter& f, const CastOptions& o) {
          return CastRay(ray, level(), f, o);
        },
        [&](absl::Span<WorldHit> h, const QueryFilter& f,
            const CastOptions& o) {
          return CastRayAll(ray, level(), h, f, o);
        });
    hits += response.results(i).cast().hits_size() > 0 ? 1 : 0;
  }
  // The comparison means something only if both hits and misses occur.
  EXPECT_GT(hits, kRandomQueries / 10);
  EXPECT_LT(hits, kRandomQueries);
}

TEST_F(QueryHandlerTest, CircleCastsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<CircleCast> casts;
  std::vector<CastChoice> choices;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(static_cast<uint64_t>(i));
    CircleCast cast{{random_.Point(-5, 65), random_.Uniform(0, 2)},
                    random_.Point(-30, 30)};
    if (i % 10 == 0) cast.translation = {0, 0};  // zero translation
    v1::CircleCastQuery* proto = query->mutable_circle_cast();
    Set(proto->mutable_circle()->mutable_center(), cast.circle.center);
    proto->mutable_circle()->set_radius(cast.circle.radius);
    Set(proto->mutable_translation(), cast.translation);
    casts.push_back(cast);
    choices.push_back(RandomCast(random_, proto->mutable_options()));
  }
  const v1::RunQueriesResponse response = Run(request);
  int overlaps = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const CircleCast& cast = casts[i];
    ExpectSameCast(
        response.results(i), choices[i],
        [&](const QueryFilter& f, const CastOptions& o) {
          return CastCircle(cast, level(), f, o);
        },
        [&](absl::Span<WorldHit> h, const QueryFilter& f,
            const CastOptions& o) {
          return CastCircleAll(cast, level(), h, f, o);
        });
    for (const v1::CastHit& hit : response.results(i).cast().hits()) {
      overlaps += hit.status() == v1::HIT_STATUS_INITIAL_OVERLAP ? 1 : 0;
    }
  }
  EXPECT_GT(overlaps, 0);  // initial overlaps were exercised
}

TEST_F(QueryHandlerTest, PolygonCastsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<PolygonCast> casts;
  std::vector<CastChoice> choices;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(static_cast<uint64_t>(i));
    const std::vector<Vec2> points =
        Regular(random_.Point(-5, 65), random_.Uniform(0.2, 2),
                3 + random_.Below(6), random_.Uniform(0, 1));
    absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(points);
    ASSERT_TRUE(polygon.ok());
    const PolygonCast cast{*polygon, random_.Point(-30, 30)};
    v1::PolygonCastQuery* proto = query->mutable_polygon_cast();
    SetPolygon(proto->mutable_polygon(), points);
    Set(proto->mutable_translation(), cast.translation);
    casts.push_back(cast);
    choices.push_back(RandomCast(random_, proto->mutable_options()));
  }
  const v1::RunQueriesResponse response = Run(request);
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const PolygonCast& cast = casts[i];
    ExpectSameCast(
        response.results(i), choices[i],
        [&](const QueryFilter& f, const CastOptions& o) {
          return CastPolygon(cast, level(), f, o);
        },
        [&](absl::Span<WorldHit> h, const QueryFilter& f,
            const CastOptions& o) {
          return CastPolygonAll(cast, level(), h, f, o);
        });
  }
}

TEST_F(QueryHandlerTest, CapsuleCastsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<CapsuleCast> casts;
  std::vector<CastChoice> choices;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(static_cast<uint64_t>(i));
    const Vec2 p1 = random_.Point(-5, 65);
    const CapsuleCast cast{
        {p1, p1 + random_.Point(-2, 2), random_.Uniform(0, 1)},
        random_.Point(-30, 30)};
    v1::CapsuleCastQuery* proto = query->mutable_capsule_cast();
    Set(proto->mutable_capsule()->mutable_p1(), cast.capsule.p1);
    Set(proto->mutable_capsule()->mutable_p2(), cast.capsule.p2);
    proto->mutable_capsule()->set_radius(cast.capsule.radius);
    Set(proto->mutable_translation(), cast.translation);
    casts.push_back(cast);
    choices.push_back(RandomCast(random_, proto->mutable_options()));
  }
  const v1::RunQueriesResponse response = Run(request);
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const CapsuleCast& cast = casts[i];
    ExpectSameCast(
        response.results(i), choices[i],
        [&](const QueryFilter& f, const CastOptions& o) {
          return CastCapsule(cast, level(), f, o);
        },
        [&](absl::Span<WorldHit> h, const QueryFilter& f,
            const CastOptions& o) {
          return CastCapsuleAll(cast, level(), h, f, o);
        });
  }
}

TEST_F(QueryHandlerTest, OverlapsMatchLib) {
  v1::RunQueriesRequest request;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::OverlapQuery* proto = request.add_queries()->mutable_overlap();
    const Vec2 c = random_.Point(-5, 65);
    switch (i % 3) {
      case 0:
        Set(proto->mutable_circle()->mutable_center(), c);
        proto->mutable_circle()->set_radius(random_.Uniform(0, 4));
        break;
      case 1:
        SetPolygon(
            proto->mutable_polygon(),
            Regular(c, random_.Uniform(0.5, 4), 3 + random_.Below(6), 0.3));
        break;
      default:
        Set(proto->mutable_capsule()->mutable_p1(), c);
        Set(proto->mutable_capsule()->mutable_p2(), c + random_.Point(-3, 3));
        proto->mutable_capsule()->set_radius(random_.Uniform(0, 2));
        break;
    }
    if (i % 4 == 0) proto->mutable_filter()->set_mask_bits(random_.Next() & 7);
    if (i % 5 == 0)
      proto->mutable_filter()->add_ignore_ids(100 + random_.Below(60));
    if (i % 2 == 0) proto->set_max_results(1 + random_.Below(3));
  }
  const v1::RunQueriesResponse response = Run(request);
  int found = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::OverlapQuery& proto = request.queries(i).overlap();
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_overlap());
    QueryFilter filter;
    if (proto.filter().has_mask_bits())
      filter.mask_bits = proto.filter().mask_bits();
    const std::vector<uint64_t> ignore(proto.filter().ignore_ids().begin(),
                                       proto.filter().ignore_ids().end());
    filter.ignore_ids = ignore;
    std::vector<ShapeRef> shapes(
        proto.max_results() > 0
            ? static_cast<size_t>(proto.max_results())
            : static_cast<size_t>(limits_.max_results_per_query));
    ListResult list;
    if (proto.has_circle()) {
      const Circle circle{
          {proto.circle().center().x(), proto.circle().center().y()},
          proto.circle().radius()};
      list = OverlapCircle(circle, level(), absl::MakeSpan(shapes), filter);
    } else if (proto.has_polygon()) {
      std::vector<Vec2> points;
      for (const v1::Vec2& v : proto.polygon().vertices())
        points.push_back({v.x(), v.y()});
      absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(points);
      ASSERT_TRUE(polygon.ok());
      list = OverlapPolygon(*polygon, level(), absl::MakeSpan(shapes), filter);
    } else {
      const Capsule capsule{
          {proto.capsule().p1().x(), proto.capsule().p1().y()},
          {proto.capsule().p2().x(), proto.capsule().p2().y()},
          proto.capsule().radius()};
      list = OverlapCapsule(capsule, level(), absl::MakeSpan(shapes), filter);
    }
    ASSERT_EQ(result.overlap().shapes_size(), list.count);
    EXPECT_EQ(result.overlap().truncated(), list.truncated);
    for (int k = 0; k < list.count; ++k) {
      EXPECT_EQ(result.overlap().shapes(k).shape_id(), shapes[k].shape_id);
      EXPECT_EQ(result.overlap().shapes(k).user_data(), shapes[k].user_data);
    }
    found += list.count;
  }
  EXPECT_GT(found, 0);
}

TEST_F(QueryHandlerTest, ClosestPointsMatchLib) {
  v1::RunQueriesRequest request;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::ClosestPointQuery* proto =
        request.add_queries()->mutable_closest_point();
    Set(proto->mutable_point(), random_.Point(-20, 80));
    if (i % 2 == 0) proto->set_max_distance(random_.Uniform(0, 5));
    if (i % 4 == 1) proto->mutable_filter()->set_mask_bits(random_.Next() & 7);
  }
  const v1::RunQueriesResponse response = Run(request);
  int found = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::ClosestPointQuery& proto = request.queries(i).closest_point();
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_closest_point());
    QueryFilter filter;
    if (proto.filter().has_mask_bits())
      filter.mask_bits = proto.filter().mask_bits();
    const std::optional<WorldClosestPoint> want = ClosestPoint(
        {proto.point().x(), proto.point().y()}, level(),
        proto.has_max_distance() ? proto.max_distance()
                                 : std::numeric_limits<double>::infinity(),
        filter);
    const v1::ClosestPointResult& got = result.closest_point();
    ASSERT_EQ(got.found(), want.has_value());
    if (!want.has_value()) continue;
    ++found;
    EXPECT_EQ(got.point().x(), want->point.x);
    EXPECT_EQ(got.point().y(), want->point.y);
    EXPECT_EQ(got.distance(), want->distance);
    EXPECT_EQ(got.normal().x(), want->normal.x);
    EXPECT_EQ(got.normal().y(), want->normal.y);
    EXPECT_EQ(got.shape_id(), want->shape_id);
    EXPECT_EQ(got.user_data(), want->user_data);
    EXPECT_EQ(got.feature().index(), want->feature.index);
  }
  EXPECT_GT(found, kRandomQueries / 2);  // every unlimited query finds one
}

TEST(HandleQueryTest, HeadOnRayHitsTheWallFace) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const v1::QueryResult result = HandleQuery(
      *snapshot.level, RayQuery({0, 0}, {20, 0}), 0, formats::InputLimits{});
  ASSERT_EQ(result.status().code(), 0);
  ASSERT_EQ(result.cast().hits_size(), 1);
  const v1::CastHit& hit = result.cast().hits(0);
  EXPECT_DOUBLE_EQ(hit.fraction(), 0.5);
  EXPECT_DOUBLE_EQ(hit.point().x(), 10);
  EXPECT_DOUBLE_EQ(hit.normal().x(), -1);
  EXPECT_EQ(hit.shape_id(), 1u);
  EXPECT_EQ(hit.user_data(), 11u);
  EXPECT_EQ(hit.status(), v1::HIT_STATUS_HIT);
  EXPECT_EQ(hit.feature().type(), v1::FEATURE_TYPE_EDGE);
}

TEST(HandleQueryTest, MissIsOkWithNoHits) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const v1::QueryResult result = HandleQuery(
      *snapshot.level, RayQuery({0, 0}, {-20, 0}), 0, formats::InputLimits{});
  EXPECT_EQ(result.status().code(), 0);
  ASSERT_TRUE(result.has_cast());
  EXPECT_EQ(result.cast().hits_size(), 0);
}

TEST(HandleQueryTest, MaxFractionClipsTheHit) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query = RayQuery({0, 0}, {20, 0});
  query.mutable_ray_cast()->mutable_options()->set_max_fraction(0.4);
  EXPECT_EQ(HandleQuery(*snapshot.level, query, 0, formats::InputLimits{})
                .cast()
                .hits_size(),
            0);
}

TEST(HandleQueryTest, StartingInsideIsAnInitialOverlapWithDepth) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query;
  v1::CircleCastQuery* cast = query.mutable_circle_cast();
  Set(cast->mutable_circle()->mutable_center(), {10.5, 0});
  cast->mutable_circle()->set_radius(0.25);
  const v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.cast().hits_size(), 1);  // zero translation, yet a hit
  EXPECT_EQ(result.cast().hits(0).status(), v1::HIT_STATUS_INITIAL_OVERLAP);
  EXPECT_EQ(result.cast().hits(0).fraction(), 0.0);
  EXPECT_GT(result.cast().hits(0).depth(), 0.0);
}

TEST(HandleQueryTest, MaskSkipsOtherCategories) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query = RayQuery({0, 0}, {0, 20});
  EXPECT_EQ(HandleQuery(*snapshot.level, query, 0, formats::InputLimits{})
                .cast()
                .hits(0)
                .shape_id(),
            2u);
  query.mutable_ray_cast()->mutable_options()->mutable_filter()->set_mask_bits(
      1);
  EXPECT_EQ(HandleQuery(*snapshot.level, query, 0, formats::InputLimits{})
                .cast()
                .hits_size(),
            0);
}

TEST(HandleQueryTest, AllHitsAreSortedAndTruncated) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  // From inside the ball (an initial overlap at 0) into the wall (at 10/11).
  v1::Query query = RayQuery({0, 10}, {11, -10});
  v1::CastOptions* options = query.mutable_ray_cast()->mutable_options();
  options->set_mode(v1::CAST_MODE_ALL);
  v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.cast().hits_size(), 2);
  EXPECT_FALSE(result.cast().truncated());
  EXPECT_EQ(result.cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(result.cast().hits(1).shape_id(), 1u);
  EXPECT_LT(result.cast().hits(0).fraction(), result.cast().hits(1).fraction());
  options->set_max_hits(1);
  result = HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.cast().hits_size(), 1);
  EXPECT_TRUE(result.cast().truncated());
  EXPECT_EQ(result.cast().hits(0).shape_id(), 2u);
}

TEST(HandleQueryTest, ClosestPointBeyondMaxDistanceIsNotFound) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query;
  Set(query.mutable_closest_point()->mutable_point(), {0, 0});
  query.mutable_closest_point()->set_max_distance(5);
  v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.status().code(), 0);
  EXPECT_FALSE(result.closest_point().found());
  query.mutable_closest_point()->clear_max_distance();
  result = HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_TRUE(result.closest_point().found());
  EXPECT_EQ(result.closest_point().shape_id(), 2u);  // the ball, 9 away
  EXPECT_DOUBLE_EQ(result.closest_point().distance(), 9);
}

TEST(HandleQueryTest, EmptyQueryIsInvalidArgument) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query;
  query.set_request_id(5);
  const v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 3, formats::InputLimits{});
  EXPECT_EQ(result.request_id(), 5u);
  EXPECT_EQ(result.status().code(), kInvalidArgument);
  EXPECT_THAT(result.status().message(), StartsWith("queries[3] has no query"));
  EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
}

TEST(HandleQueryTest, EveryBadQueryNamesItsField) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  struct Case {
    void (*make)(v1::Query*);
    const char* message;
  };
  const Case cases[] = {
      {[](v1::Query* q) {
         q->mutable_ray_cast()->mutable_origin()->set_x(kNaN);
       },
       "queries[0].ray_cast.origin.x must be finite"},
      {[](v1::Query* q) {
         q->mutable_ray_cast()->mutable_options()->set_max_fraction(2);
       },
       "queries[0].ray_cast.options.max_fraction must be in [0, 1]"},
      {[](v1::Query* q) {
         q->mutable_circle_cast()->mutable_circle()->set_radius(-1);
       },
       "queries[0].circle_cast.circle.radius must be >= 0"},
      {[](v1::Query* q) {
         v1::Polygon* p = q->mutable_polygon_cast()->mutable_polygon();
         for (const Vec2 v : {Vec2{0, 0}, Vec2{4, 0}, Vec2{1, 1}, Vec2{0, 4}}) {
           Set(p->add_vertices(), v);
         }
       },
       "queries[0].polygon_cast.polygon: "},
      {[](v1::Query* q) {
         v1::Polygon* p = q->mutable_polygon_cast()->mutable_polygon();
         for (const Vec2 v : Regular({0, 0}, 1, 9, 0))
           Set(p->add_vertices(), v);
       },
       "queries[0].polygon_cast.polygon.vertices holds 9 vertices"},
      {[](v1::Query* q) {
         q->mutable_capsule_cast()->mutable_translation()->set_y(
             std::numeric_limits<double>::infinity());
       },
       "queries[0].capsule_cast.translation.y must be finite"},
      {[](v1::Query* q) {
         q->mutable_overlap()->mutable_capsule()->set_radius(-3);
       },
       "queries[0].overlap.capsule.radius must be >= 0"},
      {[](v1::Query* q) { q->mutable_overlap(); },
       "queries[0].overlap has no shape"},
      {[](v1::Query* q) { q->mutable_closest_point()->set_max_distance(-1); },
       "queries[0].closest_point.max_distance must be >= 0"},
  };
  for (const Case& c : cases) {
    v1::Query query;
    c.make(&query);
    const v1::QueryResult result =
        HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
    EXPECT_EQ(result.status().code(), kInvalidArgument) << c.message;
    EXPECT_THAT(result.status().message(), StartsWith(c.message));
    EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
  }
}

}  // namespace
}  // namespace collide::server::query_test
