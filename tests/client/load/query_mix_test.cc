// QueryMix: parsing --mix and ranges, seeded determinism, queries inside the
// bounds with lengths and sizes in range, and the kinds drawn in proportion
// to their weights.
#include "client/load/query_mix.h"

#include <cmath>
#include <map>
#include <vector>

#include "client/lib/query_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

using ::testing::HasSubstr;

constexpr double kTolerance = 1e-9;

QueryMixOptions Options(absl::string_view mix) {
  QueryMixOptions options;
  absl::StatusOr<std::vector<KindWeight>> kinds = ParseMix(mix);
  EXPECT_TRUE(kinds.ok()) << kinds.status();
  if (kinds.ok()) options.kinds = *kinds;
  options.bounds = {{-20, -10}, {30, 5}};
  options.length = {2, 8};
  options.radius = {0.5, 1.5};
  return options;
}

QueryMix Make(const QueryMixOptions& options) {
  absl::StatusOr<QueryMix> mix = QueryMix::Create(options);
  EXPECT_TRUE(mix.ok()) << mix.status();
  return *std::move(mix);
}

double Length(const v1::Vec2& v) { return std::hypot(v.x(), v.y()); }

bool Inside(const Aabb& b, double x, double y) {
  return x >= b.lower.x && x <= b.upper.x && y >= b.lower.y && y <= b.upper.y;
}

TEST(ParseMixTest, ReadsKindsAndWeights) {
  absl::StatusOr<std::vector<KindWeight>> kinds =
      ParseMix("ray=6, circle=3,polygon=0.5,capsule");
  ASSERT_TRUE(kinds.ok()) << kinds.status();
  ASSERT_EQ(kinds->size(), 4u);
  EXPECT_EQ((*kinds)[0].kind, QueryKind::kRay);
  EXPECT_EQ((*kinds)[0].weight, 6);
  EXPECT_EQ((*kinds)[1].kind, QueryKind::kCircle);
  EXPECT_EQ((*kinds)[2].weight, 0.5);
  EXPECT_EQ((*kinds)[3].kind, QueryKind::kCapsule);
  EXPECT_EQ((*kinds)[3].weight, 1);
}

TEST(ParseMixTest, BadSpecsAreRefusedNamingMix) {
  for (absl::string_view bad : {"", "ray=0", "laser=1", "ray=-1", "ray=x",
                                "ray=", "ray=1,ray=2", "ray=inf"}) {
    absl::StatusOr<std::vector<KindWeight>> kinds = ParseMix(bad);
    ASSERT_FALSE(kinds.ok()) << bad;
    EXPECT_EQ(kinds.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(kinds.status().message(), HasSubstr("mix")) << bad;
  }
  EXPECT_THAT(ParseMix("laser=1").status().message(),
              HasSubstr("known: ray, circle, polygon, capsule"));
}

TEST(ParseRangeTest, ReadsRangesAndRefusesBadOnesNamingTheFlag) {
  absl::StatusOr<Range> range = ParseRange("1.5:20", "length");
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->min, 1.5);
  EXPECT_EQ(range->max, 20);
  range = ParseRange("3", "length");
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->min, 3);
  EXPECT_EQ(range->max, 3);
  for (absl::string_view bad : {"", "5:1", "-1:2", "a:b", "1:nan", "1:2:3"}) {
    absl::StatusOr<Range> parsed = ParseRange(bad, "radius");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_THAT(parsed.status().message(), HasSubstr("radius")) << bad;
  }
}

TEST(QueryMixTest, CreateRefusesBadBounds) {
  QueryMixOptions options = Options("ray");
  options.bounds = {{1, 0}, {0, 1}};
  EXPECT_THAT(QueryMix::Create(options).status().message(),
              HasSubstr("bounds"));
  options.bounds = {{0, 0}, {NAN, 1}};
  EXPECT_THAT(QueryMix::Create(options).status().message(),
              HasSubstr("bounds"));
}

TEST(QueryMixTest, TheSameSeedGivesTheSameQueries) {
  const QueryMix mix = Make(Options("ray=6,circle=3,polygon=1,capsule=1"));
  Rng a(123);
  Rng b(123);
  Rng c(124);
  bool any_different = false;
  for (int i = 0; i < 50; ++i) {
    const std::string batch_a = mix.NextBatch(8, a).SerializeAsString();
    EXPECT_EQ(batch_a, mix.NextBatch(8, b).SerializeAsString());
    any_different |= batch_a != mix.NextBatch(8, c).SerializeAsString();
  }
  EXPECT_TRUE(any_different);
}

TEST(QueryMixTest, QueriesStartInsideTheBoundsWithLengthsAndSizesInRange) {
  const QueryMixOptions options =
      Options("ray=1,circle=1,polygon=1,capsule=1,move=1,shot=1");
  const QueryMix mix = Make(options);
  const Aabb& b = options.bounds;
  Rng rng(9);
  std::map<v1::Query::QueryCase, int> seen;
  for (int i = 0; i < 4000; ++i) {
    const v1::Query query = mix.Next(rng);
    ++seen[query.query_case()];
    double length = 0;
    switch (query.query_case()) {
      case v1::Query::kRayCast:
        EXPECT_TRUE(Inside(b, query.ray_cast().origin().x(),
                           query.ray_cast().origin().y()));
        length = Length(query.ray_cast().translation());
        break;
      case v1::Query::kCircleCast: {
        const v1::Circle& circle = query.circle_cast().circle();
        EXPECT_TRUE(Inside(b, circle.center().x(), circle.center().y()));
        EXPECT_GE(circle.radius(), options.radius.min);
        EXPECT_LE(circle.radius(), options.radius.max);
        length = Length(query.circle_cast().translation());
        break;
      }
      case v1::Query::kPolygonCast: {
        const auto& vertices = query.polygon_cast().polygon().vertices();
        ASSERT_GE(vertices.size(), 3);
        ASSERT_LE(vertices.size(), 8);
        // Centroid of the vertices is near the start, which is inside;
        // every vertex lies within the radius range of it.
        double cx = 0;
        double cy = 0;
        for (const v1::Vec2& v : vertices) {
          cx += v.x() / vertices.size();
          cy += v.y() / vertices.size();
        }
        // Convex and counter-clockwise: every turn is to the left.
        const int n = vertices.size();
        for (int k = 0; k < n; ++k) {
          const v1::Vec2& p = vertices[k];
          const v1::Vec2& q = vertices[(k + 1) % n];
          const v1::Vec2& r = vertices[(k + 2) % n];
          const double cross = (q.x() - p.x()) * (r.y() - q.y()) -
                               (q.y() - p.y()) * (r.x() - q.x());
          EXPECT_GT(cross, 0);
        }
        EXPECT_TRUE(Inside(
            {{b.lower.x - options.radius.max, b.lower.y - options.radius.max},
             {b.upper.x + options.radius.max, b.upper.y + options.radius.max}},
            cx, cy));
        length = Length(query.polygon_cast().translation());
        break;
      }
      case v1::Query::kCapsuleCast: {
        const v1::Capsule& capsule = query.capsule_cast().capsule();
        const double mx = (capsule.p1().x() + capsule.p2().x()) / 2;
        const double my = (capsule.p1().y() + capsule.p2().y()) / 2;
        EXPECT_TRUE(Inside(b, mx, my));
        EXPECT_GE(capsule.radius(), options.radius.min);
        EXPECT_LE(capsule.radius(), options.radius.max);
        length = Length(query.capsule_cast().translation());
        break;
      }
      case v1::Query::kMoveValidation: {
        const v1::MoveValidationQuery& move = query.move_validation();
        EXPECT_TRUE(
            Inside(b, move.circle().center().x(), move.circle().center().y()));
        EXPECT_GE(move.circle().radius(), options.radius.min);
        EXPECT_LE(move.circle().radius(), options.radius.max);
        EXPECT_GT(move.skin(), 0);
        EXPECT_GT(move.max_slide_iterations(), 0);
        length = Length(move.translation());
        break;
      }
      case v1::Query::kHitValidation: {
        const v1::HitValidationQuery& shot = query.hit_validation();
        EXPECT_TRUE(Inside(b, shot.origin().x(), shot.origin().y()));
        EXPECT_EQ(shot.targets_size(), kShotTargets);
        for (const v1::ShotTarget& target : shot.targets()) {
          EXPECT_GE(target.circle().radius(), options.radius.min);
          EXPECT_LE(target.circle().radius(), options.radius.max);
          // Within three radii of the path, moving at most four.
          EXPECT_LE(Length(target.translation()),
                    4 * target.circle().radius() + kTolerance);
        }
        length = Length(shot.translation());
        break;
      }
      default:
        ADD_FAILURE() << "unexpected kind " << query.query_case();
    }
    EXPECT_GE(length, options.length.min - kTolerance);
    EXPECT_LE(length, options.length.max + kTolerance);
  }
  EXPECT_EQ(seen.size(), 6u);
}

TEST(QueryMixTest, KindsAreDrawnInProportionToTheirWeights) {
  const QueryMix mix = Make(Options("ray=6,circle=3,polygon=1,capsule=0"));
  Rng rng(2024);
  std::map<v1::Query::QueryCase, int> seen;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) ++seen[mix.Next(rng).query_case()];
  // A binomial share's standard deviation here is at most
  // sqrt(0.25 / 100000) = 0.0016; 0.01 is over 6 of them.
  EXPECT_NEAR(seen[v1::Query::kRayCast] / double{kDraws}, 0.6, 0.01);
  EXPECT_NEAR(seen[v1::Query::kCircleCast] / double{kDraws}, 0.3, 0.01);
  EXPECT_NEAR(seen[v1::Query::kPolygonCast] / double{kDraws}, 0.1, 0.01);
  EXPECT_EQ(seen.count(v1::Query::kCapsuleCast), 0u);
}

TEST(QueryMixTest, KindForSplitsTheUnitIntervalByWeight) {
  const QueryMix mix = Make(Options("circle=1,ray=0,polygon=3"));
  EXPECT_EQ(mix.KindFor(0.0), QueryKind::kCircle);
  EXPECT_EQ(mix.KindFor(0.2499), QueryKind::kCircle);
  EXPECT_EQ(mix.KindFor(0.25), QueryKind::kPolygon);
  EXPECT_EQ(mix.KindFor(0.9999999), QueryKind::kPolygon);
  EXPECT_EQ(mix.Describe(), "circle=1,ray=0,polygon=3");
}

TEST(QueryMixTest, BatchesNumberTheirQueriesFromOne) {
  const QueryMix mix = Make(Options("ray"));
  Rng rng(1);
  const v1::StreamQueriesRequest batch = mix.NextBatch(5, rng);
  ASSERT_EQ(batch.queries_size(), 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(batch.queries(i).request_id(), static_cast<uint64_t>(i) + 1);
  }
}

}  // namespace
}  // namespace collide::client::load
