// The query handlers: every query kind answers exactly (bitwise) what calling
// lib/ directly gives, bad queries get their own error naming the field while
// the rest of the batch is answered, and whole-batch errors have their codes.
#include "server/rpc/query_handler.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
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
#include "server/levels/level_snapshot.h"
#include "tests/support/splitmix64.h"

namespace collide::server {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kInvalidArgument =
    static_cast<int>(absl::StatusCode::kInvalidArgument);

// Deterministic randomness (splitmix64) so a failing case reproduces.
class Random : public collide::testing::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  Vec2 Point(double lo, double hi) {
    return {Uniform(lo, hi), Uniform(lo, hi)};
  }
};

void Set(v1::Vec2* out, Vec2 v) {
  out->set_x(v.x);
  out->set_y(v.y);
}

// A regular polygon around `center` (counter-clockwise).
std::vector<Vec2> Regular(Vec2 center, double radius, int count, double turn) {
  std::vector<Vec2> points;
  for (int i = 0; i < count; ++i) {
    const double angle = turn + 2.0 * std::numbers::pi * i / count;
    points.push_back({center.x + radius * std::cos(angle),
                      center.y + radius * std::sin(angle)});
  }
  return points;
}

void SetPolygon(v1::Polygon* out, absl::Span<const Vec2> points) {
  for (const Vec2 p : points) Set(out->add_vertices(), p);
}

// A random level of every shape kind in [0, 60]^2, ids 100, 101, ...;
// categories 1, 2 or 4; user_data = 10 * id.
v1::Level RandomLevel(uint64_t seed, int count) {
  Random random(seed);
  v1::Level level;
  level.set_id("random");
  for (int i = 0; i < count; ++i) {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(100 + static_cast<uint64_t>(i));
    shape->set_category_bits(uint64_t{1} << random.Below(3));
    shape->set_user_data(10 * shape->id());
    const Vec2 c = random.Point(0, 60);
    switch (random.Below(7)) {
      case 0:
        Set(shape->mutable_segment()->mutable_p1(), c);
        Set(shape->mutable_segment()->mutable_p2(), c + random.Point(-3, 3));
        break;
      case 1: {
        v1::Polyline* polyline = shape->mutable_polyline();
        polyline->set_closed(random.Below(2) == 0);
        Vec2 p = c;
        for (int k = 0; k < 4; ++k) {
          Set(polyline->add_vertices(), p);
          p = p + random.Point(-2, 2);
        }
        break;
      }
      case 2:
        SetPolygon(shape->mutable_polygon(),
                   Regular(c, random.Uniform(0.5, 2), 3 + random.Below(6),
                           random.Uniform(0, 1)));
        break;
      case 3: {
        // A concave arrow head.
        const double s = random.Uniform(0.5, 2);
        SetPolygon(
            shape->mutable_polygon(),
            std::vector<Vec2>{c, c + Vec2{2 * s, 0}, c + Vec2{2 * s, 2 * s},
                              c + Vec2{s, s}, c + Vec2{0, 2 * s}});
        break;
      }
      case 4:
        Set(shape->mutable_circle()->mutable_center(), c);
        shape->mutable_circle()->set_radius(random.Uniform(0, 2));
        break;
      case 5:
        Set(shape->mutable_box()->mutable_center(), c);
        Set(shape->mutable_box()->mutable_half_extents(), random.Point(0.2, 2));
        shape->mutable_box()->set_angle_radians(random.Uniform(0, 3));
        break;
      default:
        Set(shape->mutable_capsule()->mutable_p1(), c);
        Set(shape->mutable_capsule()->mutable_p2(), c + random.Point(-2, 2));
        shape->mutable_capsule()->set_radius(random.Uniform(0, 1));
        break;
    }
  }
  return level;
}

LevelSnapshot Snapshot(v1::Level level, int64_t version = 7) {
  absl::StatusOr<LevelSnapshot> snapshot =
      MakeLevelSnapshot(std::move(level), version, formats::InputLimits{});
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  return *std::move(snapshot);
}

// A random filter and options, set on both the proto and the lib values.
struct CastChoice {
  QueryFilter filter;
  CastOptions options;
  bool all = false;
  int max_hits = 0;
  std::vector<uint64_t> ignore_ids;
};

CastChoice RandomCast(Random& random, v1::CastOptions* proto) {
  CastChoice choice;
  if (random.Below(3) == 0) {
    choice.filter.mask_bits = random.Next() & 7;
    proto->mutable_filter()->set_mask_bits(choice.filter.mask_bits);
  }
  for (int k = random.Below(3); k > 0; --k) {
    choice.ignore_ids.push_back(100 + static_cast<uint64_t>(random.Below(60)));
    proto->mutable_filter()->add_ignore_ids(choice.ignore_ids.back());
  }
  if (random.Below(3) == 0) {
    choice.options.max_fraction = random.Uniform(0, 1);
    proto->set_max_fraction(choice.options.max_fraction);
  }
  if (random.Below(3) == 0) {
    choice.options.target_distance = random.Uniform(0, 0.5);
    proto->set_target_distance(choice.options.target_distance);
  }
  choice.options.stop_at_penetration = random.Below(4) == 0;
  proto->set_stop_at_penetration(choice.options.stop_at_penetration);
  choice.all = random.Below(2) == 0;
  if (choice.all) {
    proto->set_mode(v1::CAST_MODE_ALL);
    choice.max_hits = 1 + random.Below(6);
    proto->set_max_hits(choice.max_hits);
  } else if (random.Below(2) == 0) {
    proto->set_mode(v1::CAST_MODE_CLOSEST);
  }
  return choice;
}

void ExpectSameHit(const v1::CastHit& got, const WorldHit& want) {
  // Bitwise: the service must add nothing to the geometry.
  EXPECT_EQ(got.fraction(), want.hit.fraction);
  EXPECT_EQ(got.point().x(), want.hit.point.x);
  EXPECT_EQ(got.point().y(), want.hit.point.y);
  EXPECT_EQ(got.normal().x(), want.hit.normal.x);
  EXPECT_EQ(got.normal().y(), want.hit.normal.y);
  EXPECT_EQ(got.depth(), want.hit.depth);
  EXPECT_EQ(got.shape_id(), want.shape_id);
  EXPECT_EQ(got.user_data(), want.user_data);
  EXPECT_EQ(got.feature().index(), want.hit.feature.index);
  EXPECT_EQ(got.feature().type(),
            want.hit.feature.type == FeatureType::kEdge ? v1::FEATURE_TYPE_EDGE
            : want.hit.feature.type == FeatureType::kVertex
                ? v1::FEATURE_TYPE_VERTEX
                : v1::FEATURE_TYPE_SURFACE);
  EXPECT_EQ(got.status(), want.hit.status == HitStatus::kHit
                              ? v1::HIT_STATUS_HIT
                              : v1::HIT_STATUS_INITIAL_OVERLAP);
}

// Runs `choice` through lib directly with `closest` / `all` and compares.
template <typename Closest, typename All>
void ExpectSameCast(const v1::QueryResult& result, const CastChoice& choice,
                    Closest closest, All all) {
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  ASSERT_TRUE(result.has_cast());
  QueryFilter filter = choice.filter;
  filter.ignore_ids = choice.ignore_ids;
  if (choice.all) {
    std::vector<WorldHit> hits(static_cast<size_t>(choice.max_hits));
    const ListResult list = all(absl::MakeSpan(hits), filter, choice.options);
    ASSERT_EQ(result.cast().hits_size(), list.count);
    EXPECT_EQ(result.cast().truncated(), list.truncated);
    for (int i = 0; i < list.count; ++i) {
      ExpectSameHit(result.cast().hits(i), hits[static_cast<size_t>(i)]);
    }
  } else {
    const std::optional<WorldHit> hit = closest(filter, choice.options);
    ASSERT_EQ(result.cast().hits_size(), hit.has_value() ? 1 : 0);
    EXPECT_FALSE(result.cast().truncated());
    if (hit.has_value()) ExpectSameHit(result.cast().hits(0), *hit);
  }
}

class QueryHandlerTest : public ::testing::Test {
 protected:
  QueryHandlerTest() : snapshot_(Snapshot(RandomLevel(42, 60))) {}
  const Level& level() const { return *snapshot_.level; }

  v1::RunQueriesResponse Run(const v1::RunQueriesRequest& request) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        HandleRunQueries(snapshot_, request, limits_);
    EXPECT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->results_size(), request.queries_size());
    EXPECT_EQ(response->level_version(), 7);
    for (int i = 0; i < response->results_size(); ++i) {
      EXPECT_EQ(response->results(i).request_id(),
                request.queries(i).request_id());
    }
    return *std::move(response);
  }

  LevelSnapshot snapshot_;
  formats::InputLimits limits_;
  Random random_{7};
};

constexpr int kRandomQueries = 400;

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

// --- Fixed cases on a small known level: a wall x = 10 (id 1, box), a
// circle at (0, 10) radius 1 (id 2, category 2).
v1::Level WallLevel() {
  v1::Level level;
  level.set_id("wall");
  v1::Shape* wall = level.add_shapes();
  wall->set_id(1);
  wall->set_user_data(11);
  Set(wall->mutable_box()->mutable_center(), {11, 0});
  Set(wall->mutable_box()->mutable_half_extents(), {1, 5});
  v1::Shape* ball = level.add_shapes();
  ball->set_id(2);
  ball->set_category_bits(2);
  Set(ball->mutable_circle()->mutable_center(), {0, 10});
  ball->mutable_circle()->set_radius(1);
  return level;
}

v1::Query RayQuery(Vec2 origin, Vec2 translation) {
  v1::Query query;
  Set(query.mutable_ray_cast()->mutable_origin(), origin);
  Set(query.mutable_ray_cast()->mutable_translation(), translation);
  return query;
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

// --- Batches.

TEST(HandleRunQueriesTest, OneBadQueryDoesNotFailTheBatch) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::RunQueriesRequest request;
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  v1::Query* bad = request.add_queries();
  bad->mutable_circle_cast()->mutable_circle()->set_radius(-1);
  *request.add_queries() = RayQuery({0, 0}, {-20, 0});
  for (int i = 0; i < 3; ++i)
    request.mutable_queries(i)->set_request_id(10 + i);
  absl::StatusOr<v1::RunQueriesResponse> response =
      HandleRunQueries(snapshot, request, formats::InputLimits{});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->level_version(), 3);
  ASSERT_EQ(response->results_size(), 3);
  EXPECT_EQ(response->results(0).status().code(), 0);
  EXPECT_EQ(response->results(0).cast().hits_size(), 1);
  EXPECT_EQ(response->results(1).request_id(), 11u);
  EXPECT_EQ(response->results(1).status().code(), kInvalidArgument);
  EXPECT_THAT(response->results(1).status().message(),
              HasSubstr("queries[1].circle_cast.circle.radius"));
  EXPECT_EQ(response->results(2).status().code(), 0);
  EXPECT_EQ(response->results(2).request_id(), 12u);
  EXPECT_TRUE(response->results(2).has_cast());
}

TEST(HandleRunQueriesTest, EmptyBatchIsInvalidArgument) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const absl::Status status =
      HandleRunQueries(snapshot, v1::RunQueriesRequest(),
                       formats::InputLimits{})
          .status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("queries"));
}

TEST(HandleRunQueriesTest, BatchOverTheLimitIsResourceExhausted) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  formats::InputLimits limits;
  limits.max_batch_size = 2;
  v1::RunQueriesRequest request;
  for (int i = 0; i < 3; ++i) *request.add_queries() = RayQuery({0, 0}, {1, 0});
  const absl::Status status =
      HandleRunQueries(snapshot, request, limits).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(status.message()), HasSubstr("max_batch_size 2"));
  request.mutable_queries()->RemoveLast();
  EXPECT_TRUE(HandleRunQueries(snapshot, request, limits).ok());
}

// A batch stops at its call's deadline or cancellation; the
// queries not yet answered say so in their own results.
TEST(AnswerRunQueriesTest, StopsBetweenQueriesWhenTheCheckSaysStop) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::RunQueriesRequest request;
  constexpr int kQueries = 3 * kQueriesPerStopCheck + 1;
  for (int i = 0; i < kQueries; ++i) {
    *request.add_queries() = RayQuery({0, 0}, {20, 0});
    request.mutable_queries(i)->set_request_id(100 + i);
  }
  int checks = 0;
  v1::RunQueriesResponse response;
  // Goes on at the first two checks, stops at the third.
  ASSERT_TRUE(AnswerRunQueries(
                  snapshot, request, formats::InputLimits{}, &response,
                  [&] {
                    return ++checks <= 2 ? absl::OkStatus()
                                         : absl::DeadlineExceededError(
                                               "the call's deadline passed");
                  })
                  .ok());
  EXPECT_EQ(checks, 3);
  ASSERT_EQ(response.results_size(), kQueries);
  for (int i = 0; i < kQueries; ++i) {
    const v1::QueryResult& result = response.results(i);
    EXPECT_EQ(result.request_id(), 100u + i);
    if (i < 2 * kQueriesPerStopCheck) {
      EXPECT_EQ(result.status().code(), 0) << i;
      EXPECT_EQ(result.cast().hits_size(), 1) << i;
    } else {
      EXPECT_EQ(result.status().code(),
                static_cast<int>(absl::StatusCode::kDeadlineExceeded))
          << i;
      EXPECT_EQ(result.status().message(),
                absl::StrCat("queries[", i,
                             "]: not answered: the call's deadline passed"));
      EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
    }
  }
}

TEST(AnswerStreamQueriesTest, ACancelledCallAnswersNoQuery) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 3);
  v1::StreamQueriesRequest request;
  request.set_batch_id(5);
  for (int i = 0; i < 3; ++i)
    *request.add_queries() = RayQuery({0, 0}, {20, 0});
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(AnswerStreamQueries(snapshot, request, formats::InputLimits{},
                                  &response,
                                  [] { return absl::CancelledError("gone"); })
                  .ok());
  EXPECT_EQ(response.batch_id(), 5u);
  ASSERT_EQ(response.results_size(), 3);
  for (const v1::QueryResult& result : response.results()) {
    EXPECT_EQ(result.status().code(),
              static_cast<int>(absl::StatusCode::kCancelled));
    EXPECT_FALSE(result.has_cast());
  }
}

TEST(HandleStreamQueriesTest, EchoesBatchIdAndVersion) {
  const LevelSnapshot snapshot = Snapshot(WallLevel(), 9);
  v1::StreamQueriesRequest request;
  request.set_batch_id(77);
  *request.add_queries() = RayQuery({0, 0}, {20, 0});
  absl::StatusOr<v1::StreamQueriesResponse> response =
      HandleStreamQueries(snapshot, request, formats::InputLimits{});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->batch_id(), 77u);
  EXPECT_EQ(response->level_version(), 9);
  EXPECT_EQ(response->status().code(), 0);
  ASSERT_EQ(response->results_size(), 1);
  EXPECT_EQ(response->results(0).cast().hits_size(), 1);
}

TEST(HandleStreamQueriesTest, SameAnswersAsTheUnaryForm) {
  const LevelSnapshot snapshot = Snapshot(RandomLevel(5, 40));
  Random random(11);
  v1::StreamQueriesRequest stream;
  v1::RunQueriesRequest unary;
  for (int i = 0; i < 100; ++i) {
    v1::Query query = RayQuery(random.Point(0, 60), random.Point(-30, 30));
    *stream.add_queries() = query;
    *unary.add_queries() = query;
  }
  absl::StatusOr<v1::StreamQueriesResponse> a =
      HandleStreamQueries(snapshot, stream, formats::InputLimits{});
  absl::StatusOr<v1::RunQueriesResponse> b =
      HandleRunQueries(snapshot, unary, formats::InputLimits{});
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->results_size(), b->results_size());
  for (int i = 0; i < a->results_size(); ++i) {
    EXPECT_EQ(a->results(i).SerializeAsString(),
              b->results(i).SerializeAsString());
  }
}

TEST(HandleStreamQueriesTest, EmptyBatchIsInvalidArgument) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  EXPECT_EQ(HandleStreamQueries(snapshot, v1::StreamQueriesRequest(),
                                formats::InputLimits{})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RefusedBatchResponseTest, CarriesTheStatusAndBatchId) {
  v1::StreamQueriesRequest request;
  request.set_batch_id(4);
  *request.add_queries() = RayQuery({0, 0}, {1, 0});
  const v1::StreamQueriesResponse response = RefusedBatchResponse(
      request, absl::NotFoundError("level \"levels/x\" does not exist"));
  EXPECT_EQ(response.batch_id(), 4u);
  EXPECT_EQ(response.status().code(),
            static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_EQ(response.status().message(), "level \"levels/x\" does not exist");
  EXPECT_EQ(response.results_size(), 0);
}

TEST(CheckBatchSizeTest, BoundsAreInclusive) {
  formats::InputLimits limits;
  limits.max_batch_size = 4;
  EXPECT_EQ(CheckBatchSize(0, limits).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(CheckBatchSize(1, limits).ok());
  EXPECT_TRUE(CheckBatchSize(4, limits).ok());
  EXPECT_EQ(CheckBatchSize(5, limits).code(),
            absl::StatusCode::kResourceExhausted);
}

// --- Validation queries: handler results are bitwise what
// collide/validate.h gives for the same input.

// A random body, set on the proto through `set` (circle / capsule /
// polygon) and returned as the lib value.
template <typename Message>
BodyShape RandomBody(Random& random, Message* proto) {
  const Vec2 c = random.Point(-5, 65);
  switch (random.Below(3)) {
    case 0: {
      const Circle circle{c, random.Uniform(0.1, 2)};
      Set(proto->mutable_circle()->mutable_center(), circle.center);
      proto->mutable_circle()->set_radius(circle.radius);
      return circle;
    }
    case 1: {
      const Capsule capsule{c, c + random.Point(-2, 2), random.Uniform(0, 1)};
      Set(proto->mutable_capsule()->mutable_p1(), capsule.p1);
      Set(proto->mutable_capsule()->mutable_p2(), capsule.p2);
      proto->mutable_capsule()->set_radius(capsule.radius);
      return capsule;
    }
    default: {
      const std::vector<Vec2> points = Regular(
          c, random.Uniform(0.3, 2), 3 + random.Below(6), random.Uniform(0, 1));
      SetPolygon(proto->mutable_polygon(), points);
      return *MakeConvexPolygon(points);
    }
  }
}

void ExpectSameVec2(const v1::Vec2& got, Vec2 want) {
  EXPECT_EQ(got.x(), want.x);
  EXPECT_EQ(got.y(), want.y);
}

void ExpectSameValidation(const v1::MoveValidationResult& got,
                          const MoveValidation& want) {
  EXPECT_EQ(got.verdict(), want.verdict == MoveVerdict::kAllowed
                               ? v1::MOVE_VERDICT_ALLOWED
                           : want.verdict == MoveVerdict::kBlocked
                               ? v1::MOVE_VERDICT_BLOCKED
                               : v1::MOVE_VERDICT_STARTS_INSIDE);
  ASSERT_EQ(got.has_first_hit(), want.first_hit.has_value());
  if (want.first_hit) ExpectSameHit(got.first_hit(), *want.first_hit);
  EXPECT_EQ(got.safe_fraction(), want.safe_fraction);
  ExpectSameVec2(got.safe_translation(), want.safe_translation);
  EXPECT_EQ(got.claimed_end_reachable(), want.claimed_end_reachable);
  ASSERT_EQ(got.has_slide(), want.slide.has_value());
  if (want.slide) {
    ExpectSameVec2(got.slide().translation(), want.slide->translation);
    EXPECT_EQ(got.slide().iteration_count(), want.slide->iterations);
    EXPECT_EQ(got.slide().out_of_iterations(), want.slide->out_of_iterations);
    ASSERT_EQ(got.slide().contacts_size(), want.slide->contact_count);
    for (int k = 0; k < want.slide->contact_count; ++k) {
      const SlideContact& c = want.slide->contacts[k];
      ExpectSameVec2(got.slide().contacts(k).translation(), c.translation);
      ExpectSameVec2(got.slide().contacts(k).point(), c.point);
      ExpectSameVec2(got.slide().contacts(k).normal(), c.normal);
      EXPECT_EQ(got.slide().contacts(k).shape_id(), c.shape_id);
      EXPECT_EQ(got.slide().contacts(k).user_data(), c.user_data);
    }
  }
  ASSERT_EQ(got.has_exit(), want.exit.has_value());
  if (want.exit) {
    EXPECT_EQ(got.exit().separated(), want.exit->separated);
    ExpectSameVec2(got.exit().translation(), want.exit->translation);
    EXPECT_EQ(got.exit().iteration_count(), want.exit->iterations);
    EXPECT_EQ(got.exit().depth(), want.exit->depth);
    ASSERT_EQ(got.exit().overlapped_shapes_size(), want.exit->overlapped_count);
    for (int k = 0; k < want.exit->overlapped_count; ++k) {
      EXPECT_EQ(got.exit().overlapped_shapes(k).shape_id(),
                want.exit->overlapped[k].shape_id);
    }
  }
}

TEST_F(QueryHandlerTest, MoveValidationsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<MoveClaim> claims;
  std::vector<MoveOptions> options;
  std::vector<uint64_t> masks;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::MoveValidationQuery* proto =
        request.add_queries()->mutable_move_validation();
    MoveClaim claim{RandomBody(random_, proto), random_.Point(-20, 20)};
    if (i % 10 == 0) claim.translation = {0, 0};
    Set(proto->mutable_translation(), claim.translation);
    MoveOptions option;
    option.skin = random_.Below(4) == 0 ? 0.0 : random_.Uniform(0, 0.2);
    option.max_slide_iterations = random_.Below(17);
    proto->set_skin(option.skin);
    proto->set_max_slide_iterations(option.max_slide_iterations);
    if (random_.Below(2) == 0) {
      option.max_exit_iterations = 1 + random_.Below(kMaxExitIterations);
      proto->set_max_exit_iterations(option.max_exit_iterations);
    }
    uint64_t mask = ~uint64_t{0};
    if (random_.Below(3) == 0) {
      mask = random_.Next() & 7;
      proto->mutable_filter()->set_mask_bits(mask);
    }
    claims.push_back(claim);
    options.push_back(option);
    masks.push_back(mask);
  }
  const v1::RunQueriesResponse response = Run(request);
  int verdicts[3] = {0, 0, 0};
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_move_validation());
    QueryFilter filter;
    filter.mask_bits = masks[i];
    const MoveValidation want =
        ValidateMove(claims[i], level(), filter, options[i]);
    ExpectSameValidation(result.move_validation(), want);
    ++verdicts[static_cast<int>(want.verdict)];
  }
  // Every verdict was exercised.
  EXPECT_GT(verdicts[0], 0);
  EXPECT_GT(verdicts[1], 0);
  EXPECT_GT(verdicts[2], 0);
}

TEST_F(QueryHandlerTest, HitValidationsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<Shot> shots;
  std::vector<std::vector<ShotTarget>> targets;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::HitValidationQuery* proto =
        request.add_queries()->mutable_hit_validation();
    const Shot shot{random_.Point(-5, 65), random_.Point(-40, 40),
                    random_.Below(2) == 0 ? 0.0 : random_.Uniform(0, 0.5)};
    Set(proto->mutable_origin(), shot.origin);
    Set(proto->mutable_translation(), shot.translation);
    proto->set_radius(shot.radius);
    std::vector<ShotTarget>& list = targets.emplace_back();
    for (int k = random_.Below(8); k > 0; --k) {
      v1::ShotTarget* target = proto->add_targets();
      ShotTarget lib{.id = static_cast<uint64_t>(random_.Below(5)),
                     .hitbox = RandomBody(random_, target),
                     .translation = random_.Point(-5, 5)};
      // Put some targets on the line of fire.
      if (k % 2 == 0) {
        const Vec2 on_line =
            shot.origin + random_.Uniform(0, 1) * shot.translation;
        target->Clear();
        lib.hitbox = Circle{on_line, random_.Uniform(0.2, 1.5)};
        Set(target->mutable_circle()->mutable_center(), on_line);
        target->mutable_circle()->set_radius(
            std::get<Circle>(lib.hitbox).radius);
      }
      target->set_id(lib.id);
      Set(target->mutable_translation(), lib.translation);
      list.push_back(lib);
    }
    shots.push_back(shot);
  }
  const v1::RunQueriesResponse response = Run(request);
  int outcomes[4] = {0, 0, 0, 0};
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_hit_validation());
    const v1::HitValidationResult& got = result.hit_validation();
    const std::optional<ShotHit> want =
        ValidateShot(shots[i], level(), targets[i]);
    ++outcomes[got.outcome()];
    if (!want) {
      EXPECT_EQ(got.outcome(), v1::SHOT_OUTCOME_MISS);
      continue;
    }
    EXPECT_EQ(got.outcome(), want->kind == ShotHitKind::kWall
                                 ? v1::SHOT_OUTCOME_WALL
                                 : v1::SHOT_OUTCOME_TARGET);
    EXPECT_EQ(got.id(), want->id);
    EXPECT_EQ(got.user_data(), want->user_data);
    EXPECT_EQ(got.target_index(), want->target_index);
    EXPECT_EQ(got.fraction(), want->hit.fraction);
    ExpectSameVec2(got.point(), want->hit.point);
    ExpectSameVec2(got.normal(), want->hit.normal);
    EXPECT_EQ(got.feature().index(), want->hit.feature.index);
  }
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_MISS], 0);
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_WALL], 0);
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_TARGET], 0);
}

TEST_F(QueryHandlerTest, PairToisMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<std::pair<MovingShape, MovingShape>> pairs;
  const auto random_shape = [&](v1::MovingShape* proto) {
    MovingShape shape;
    const Vec2 c = random_.Point(-5, 5);
    switch (random_.Below(5)) {
      case 0:
        shape.shape = c;
        Set(proto->mutable_point(), c);
        break;
      case 1: {
        const Segment segment{c, c + random_.Point(-2, 2)};
        shape.shape = segment;
        Set(proto->mutable_segment()->mutable_p1(), segment.p1);
        Set(proto->mutable_segment()->mutable_p2(), segment.p2);
        break;
      }
      default: {
        v1::MoveValidationQuery body;  // borrows the body helper's oneof
        const BodyShape b = RandomBody(random_, &body);
        if (body.has_circle()) *proto->mutable_circle() = body.circle();
        if (body.has_capsule()) *proto->mutable_capsule() = body.capsule();
        if (body.has_polygon()) *proto->mutable_polygon() = body.polygon();
        std::visit([&](const auto& s) { shape.shape = s; }, b);
        // RandomBody places bodies in the level's frame; pull them in.
        shape.translation = random_.Point(-10, 10);
        break;
      }
    }
    if (shape.translation == Vec2{}) shape.translation = random_.Point(-10, 10);
    Set(proto->mutable_translation(), shape.translation);
    return shape;
  };
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::PairToiQuery* proto = request.add_queries()->mutable_pair_toi();
    MovingShape a = random_shape(proto->mutable_a());
    MovingShape b = random_shape(proto->mutable_b());
    // Aim a at b for half of the pairs so that hits occur.
    if (i % 2 == 0) {
      const Vec2 towards = std::visit(
          [](const auto& s) -> Vec2 {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, Vec2>) {
              return s;
            } else if constexpr (std::is_same_v<T, Circle>) {
              return s.center;
            } else if constexpr (std::is_same_v<T, ConvexPolygon>) {
              return s.vertices[0];
            } else {
              return s.p1;
            }
          },
          b.shape);
      const Vec2 from = std::visit(
          [](const auto& s) -> Vec2 {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, Vec2>) {
              return s;
            } else if constexpr (std::is_same_v<T, Circle>) {
              return s.center;
            } else if constexpr (std::is_same_v<T, ConvexPolygon>) {
              return s.vertices[0];
            } else {
              return s.p1;
            }
          },
          a.shape);
      a.translation = 2.0 * (towards - from) + b.translation;
      Set(proto->mutable_a()->mutable_translation(), a.translation);
    }
    pairs.push_back({a, b});
  }
  const v1::RunQueriesResponse response = Run(request);
  int hits = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_pair_toi());
    const v1::PairToiResult& got = result.pair_toi();
    const std::optional<Hit> want = CastPair(pairs[i].first, pairs[i].second);
    ASSERT_EQ(got.hit(), want.has_value());
    if (!want) continue;
    ++hits;
    EXPECT_EQ(got.fraction(), want->fraction);
    ExpectSameVec2(got.point(), want->point);
    ExpectSameVec2(got.normal(), want->normal);
    EXPECT_EQ(got.depth(), want->depth);
  }
  EXPECT_GT(hits, kRandomQueries / 10);
  EXPECT_LT(hits, kRandomQueries);
}

// A deforming segment over the wire: a segment turning from (-1, 0)-(1,
// 0) to (0, -1)-(0, 1) meets the point falling from (0.1, 0.6) by (0, -1)
// at t = 1/2, at (0.1, 0.1) (10 t^2 - 17 t + 6 = 0), whichever of the pair
// the segment is.
TEST(HandleQueryTest, PointMeetsADeformingSegmentEitherWayRound) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const DeformingSegment segment{{{-1, 0}, {1, 0}}, {{0, -1}, {0, 1}}};
  const RayInput point{{0.1, 0.6}, {0, -1}};
  const std::optional<Hit> want = CastRay(point, segment);
  ASSERT_TRUE(want.has_value());
  EXPECT_NEAR(want->fraction, 0.5, 1e-12);
  for (const bool segment_is_a : {false, true}) {
    SCOPED_TRACE(segment_is_a);
    v1::Query query;
    v1::PairToiQuery* pair = query.mutable_pair_toi();
    v1::MovingShape* s = segment_is_a ? pair->mutable_a() : pair->mutable_b();
    v1::MovingShape* p = segment_is_a ? pair->mutable_b() : pair->mutable_a();
    Set(s->mutable_segment()->mutable_p1(), segment.start.p1);
    Set(s->mutable_segment()->mutable_p2(), segment.start.p2);
    Set(s->mutable_segment_end()->mutable_p1(), segment.end.p1);
    Set(s->mutable_segment_end()->mutable_p2(), segment.end.p2);
    Set(p->mutable_point(), point.origin);
    Set(p->mutable_translation(), point.translation);
    const v1::QueryResult result =
        HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    const v1::PairToiResult& got = result.pair_toi();
    ASSERT_TRUE(got.hit());
    EXPECT_EQ(got.fraction(), want->fraction);
    if (!segment_is_a) {
      // a is the point: b's (the segment's) contact, as lib reports it.
      ExpectSameVec2(got.point(), want->point);
      ExpectSameVec2(got.normal(), want->normal);
      EXPECT_EQ(got.feature().type(), v1::FEATURE_TYPE_EDGE);
    } else {
      // b is the point: the point itself then, the normal turned round.
      EXPECT_NEAR(got.point().x(), 0.1, 1e-12);
      EXPECT_NEAR(got.point().y(), 0.1, 1e-12);
      ExpectSameVec2(got.normal(), -want->normal);
      EXPECT_EQ(got.feature().type(), v1::FEATURE_TYPE_VERTEX);
    }
  }
}

TEST(HandleQueryTest, EveryBadValidationQueryNamesItsField) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  formats::InputLimits limits;
  limits.max_shot_targets = 2;
  limits.max_slide_iterations = 4;
  struct Case {
    void (*make)(v1::Query*);
    const char* message;
  };
  const Case cases[] = {
      {[](v1::Query* q) { q->mutable_move_validation(); },
       "queries[0].move_validation has no mover"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle()->set_radius(-1);
       },
       "queries[0].move_validation.circle.radius must be >= 0"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle();
         q->mutable_move_validation()->set_max_slide_iterations(5);
       },
       "queries[0].move_validation.max_slide_iterations 5 is more than "
       "max_slide_iterations 4"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle();
         q->mutable_move_validation()->set_skin(kNaN);
       },
       "queries[0].move_validation.skin must be finite"},
      {[](v1::Query* q) { q->mutable_hit_validation()->set_radius(-0.5); },
       "queries[0].hit_validation.radius must be >= 0"},
      {[](v1::Query* q) {
         for (int k = 0; k < 3; ++k) {
           q->mutable_hit_validation()->add_targets()->mutable_circle();
         }
       },
       "queries[0].hit_validation.targets holds 3 targets, more than "
       "max_shot_targets 2"},
      {[](v1::Query* q) {
         q->mutable_hit_validation()->add_targets()->mutable_circle();
         q->mutable_hit_validation()->add_targets();
       },
       "queries[0].hit_validation.targets[1] has no hitbox"},
      {[](v1::Query* q) { q->mutable_pair_toi(); },
       "queries[0].pair_toi.a has no shape"},
      {[](v1::Query* q) {
         q->mutable_pair_toi()->mutable_a()->mutable_point();
         q->mutable_pair_toi()->mutable_b()->mutable_capsule()->set_radius(-1);
       },
       "queries[0].pair_toi.b.capsule.radius must be >= 0"},
  };
  for (const Case& c : cases) {
    v1::Query query;
    c.make(&query);
    const v1::QueryResult result =
        HandleQuery(*snapshot.level, query, 0, limits);
    EXPECT_EQ(result.status().code(), kInvalidArgument) << c.message;
    EXPECT_THAT(result.status().message(), StartsWith(c.message));
    EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
  }
}

TEST(HandleQueryTest, MoveIntoTheWallIsBlockedAndSlides) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  Set(move->mutable_circle()->mutable_center(), {0, 0});
  move->mutable_circle()->set_radius(1);
  Set(move->mutable_translation(), {20, 2});
  move->set_skin(0.01);
  move->set_max_slide_iterations(4);
  const v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  const v1::MoveValidationResult& v = result.move_validation();
  EXPECT_EQ(v.verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(v.first_hit().shape_id(), 1u);
  // The wall's face is at x = 10: the centre stops at 9 - skin and slides
  // up along the face by what is left of the y motion.
  EXPECT_NEAR(v.slide().translation().x(), 8.99, 1e-9);
  EXPECT_NEAR(v.slide().translation().y(), 2.0, 1e-9);
  EXPECT_FALSE(v.claimed_end_reachable());
}

}  // namespace
}  // namespace collide::server
