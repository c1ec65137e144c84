// Queries from the wire and results back: casts, overlaps and closest points
// convert to exactly the lib values, every bad query is refused naming the
// field path, and every result field is copied.

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
              "5e-324");
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

}  // namespace
}  // namespace collide::formats
