// Shared by the query handler tests: a random level of every shape kind,
// random cast filters and options set on both the proto and the lib
// values, bitwise comparisons of handler results with lib/'s, and the
// small fixed "wall" level.
#ifndef COLLIDE_TESTS_SERVER_QUERY_HANDLER_TEST_SUPPORT_H_
#define COLLIDE_TESTS_SERVER_QUERY_HANDLER_TEST_SUPPORT_H_

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
#include "server/rpc/query_handler.h"
#include "tests/support/splitmix64.h"

namespace collide::server::query_test {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr int kInvalidArgument =
    static_cast<int>(absl::StatusCode::kInvalidArgument);

// Deterministic randomness (splitmix64) so a failing case reproduces.
class Random : public collide::testing::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  Vec2 Point(double lo, double hi) {
    return {Uniform(lo, hi), Uniform(lo, hi)};
  }
};

inline void Set(v1::Vec2* out, Vec2 v) {
  out->set_x(v.x);
  out->set_y(v.y);
}

// A regular polygon around `center` (counter-clockwise).
inline std::vector<Vec2> Regular(Vec2 center, double radius, int count,
                                 double turn) {
  std::vector<Vec2> points;
  for (int i = 0; i < count; ++i) {
    const double angle = turn + 2.0 * std::numbers::pi * i / count;
    points.push_back({center.x + radius * std::cos(angle),
                      center.y + radius * std::sin(angle)});
  }
  return points;
}

inline void SetPolygon(v1::Polygon* out, absl::Span<const Vec2> points) {
  for (const Vec2 p : points) Set(out->add_vertices(), p);
}

// A random level of every shape kind in [0, 60]^2, ids 100, 101, ...;
// categories 1, 2 or 4; user_data = 10 * id.
inline v1::Level RandomLevel(uint64_t seed, int count) {
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

inline LevelSnapshot Snapshot(v1::Level level, int64_t version = 7) {
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

inline CastChoice RandomCast(Random& random, v1::CastOptions* proto) {
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

inline void ExpectSameHit(const v1::CastHit& got, const WorldHit& want) {
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

inline constexpr int kRandomQueries = 400;

// A small known level: a wall x = 10 (id 1, box), a circle at (0, 10)
// radius 1 (id 2, category 2).
inline v1::Level WallLevel() {
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

inline v1::Query RayQuery(Vec2 origin, Vec2 translation) {
  v1::Query query;
  Set(query.mutable_ray_cast()->mutable_origin(), origin);
  Set(query.mutable_ray_cast()->mutable_translation(), translation);
  return query;
}

}  // namespace collide::server::query_test

#endif  // COLLIDE_TESTS_SERVER_QUERY_HANDLER_TEST_SUPPORT_H_
