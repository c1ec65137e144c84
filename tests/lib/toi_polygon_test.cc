#include <cmath>
#include <optional>
#include <vector>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::Concave;
using testing::kTolerance;
using testing::Polygon;
using testing::RandomConvexPolygon;
using testing::SplitMix64;
using testing::VertexMean;

TEST(CastPolygonTest, BoxHitsBoxFaceToFace) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {10, 0}};
  const std::optional<Hit> hit = CastPolygon(cast, Box({6, 0.5}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_NEAR(hit->point.x, 5, kTolerance);
}

// The obstacle's vertex can be the first contact, on the mover's
// edge (the "both ways" half of the vertex-edge test).
TEST(CastPolygonTest, ObstacleVertexMeetsMoverEdge) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {10, 0}};
  const ConvexPolygon diamond = Polygon({{5, 0}, {6, -1}, {7, 0}, {6, 1}});
  const std::optional<Hit> hit = CastPolygon(cast, diamond);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 0);
}

TEST(CastPolygonTest, MoverVertexMeetsObstacleEdge) {
  const ConvexPolygon diamond = Polygon({{-1, 0}, {0, -1}, {1, 0}, {0, 1}});
  const std::optional<Hit> hit =
      CastPolygon({diamond, {10, 0}}, Box({6, 0}, {1, 3}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
}

// The swept region may swallow the other polygon whole: a long sweep
// past a small obstacle must still hit it, with no edge crossing at t = 1.
TEST(CastPolygonTest, SweepThatSwallowsASmallObstacleHitsIt) {
  const PolygonCast cast{Box({0, 0}, {2, 2}), {100, 0}};
  const std::optional<Hit> hit = CastPolygon(cast, Box({50, 0}, {0.1, 0.1}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, (50 - 0.1 - 2) / 100, kTolerance);
}

TEST(CastPolygonTest, PassingBesideIsAMissAndGrazingTouches) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {10, 0}};
  EXPECT_FALSE(CastPolygon(cast, Box({6, 2.001}, {1, 1})));
  // Top face sliding along the other's bottom face: they touch at t = 0.4.
  const std::optional<Hit> graze = CastPolygon(cast, Box({6, 2}, {1, 1}));
  ASSERT_TRUE(graze);
  EXPECT_NEAR(graze->fraction, 0.4, kTolerance);
}

// A point obstacle that the polygon's motion aims through one of its
// vertices into it: seen from the polygon, the point crosses both edges'
// lines there at once up to rounding, which must not make it a miss.
TEST(CastPolygonTest, PointEnteringThroughAVertexIsMetThere) {
  SplitMix64 rng(0x7e48);
  for (int trial = 0; trial < 5000; ++trial) {
    const ConvexPolygon polygon = RandomConvexPolygon(rng);
    const Vec2 vertex = polygon.vertices[rng.Below(polygon.count)];
    const Vec2 aim = rng.Uniform(0.2, 0.9) * (VertexMean(polygon) - vertex);
    const double back = rng.Uniform(0.5, 5.5);
    const Vec2 point = vertex - back * aim;
    const std::optional<Hit> hit =
        CastPolygon({polygon, -(back + 0.5) * aim}, point);
    ASSERT_TRUE(hit) << "trial " << trial;
    EXPECT_NEAR(hit->fraction, back / (back + 0.5), 1e-9) << "trial " << trial;
  }
}

TEST(CastPolygonTest, StartOverlapReportsMinimumSeparation) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {10, 0}};
  const std::optional<Hit> hit = CastPolygon(cast, Box({1.75, 0}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(hit->depth, 0.25, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
}

TEST(CastPolygonTest, AgainstSegmentCircleCapsuleAndPoint) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {10, 0}};
  const std::optional<Hit> segment =
      CastPolygon(cast, Segment{{5, -3}, {5, 3}});
  ASSERT_TRUE(segment);
  EXPECT_NEAR(segment->fraction, 0.4, kTolerance);
  const std::optional<Hit> circle = CastPolygon(cast, Circle{{6, 0}, 1});
  ASSERT_TRUE(circle);
  EXPECT_NEAR(circle->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(circle->point, (Vec2{5, 0}), kTolerance);
  const std::optional<Hit> capsule =
      CastPolygon(cast, Capsule{{6, -3}, {6, 3}, 1});
  ASSERT_TRUE(capsule);
  EXPECT_NEAR(capsule->fraction, 0.4, kTolerance);
  const std::optional<Hit> point = CastPolygon(cast, Vec2{5, 0.5});
  ASSERT_TRUE(point);
  EXPECT_NEAR(point->fraction, 0.4, kTolerance);
}

TEST(CastPolygonTest, RotatedCornerAgainstCircle) {
  // A diamond's tip hits the circle's surface head-on.
  const ConvexPolygon diamond = Polygon({{-1, 0}, {0, -1}, {1, 0}, {0, 1}});
  const std::optional<Hit> hit =
      CastPolygon({diamond, {10, 0}}, Circle{{7, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
}

// The closed form (the circle's centre moving back against the polygon
// grown by its radius) reports the hit as the general machinery does: the
// point on the circle, the normal from it towards the polygon, its surface.
TEST(CastPolygonTest, AgainstACircleFromAClearStartOnAFaceAndACorner) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {4, 0}};
  // The right face (x = 1 + 4t) meets the circle's left point (4, 0).
  const std::optional<Hit> face = CastPolygon(cast, Circle{{5, 0}, 1});
  ASSERT_TRUE(face);
  EXPECT_EQ(face->fraction, 0.75);
  EXPECT_EQ(face->status, HitStatus::kHit);
  EXPECT_EQ(face->normal, (Vec2{-1, 0}));
  EXPECT_EQ(face->point, (Vec2{4, 0}));
  EXPECT_EQ(face->feature.type, FeatureType::kSurface);
  // The corner (1, 1) meets the circle of radius 5 around (7, 4) at (3, 1),
  // t = 1/2 (a 3-4-5 offset): the normal is (3, 1) - (7, 4) over 5.
  const std::optional<Hit> corner = CastPolygon(cast, Circle{{7, 4}, 5});
  ASSERT_TRUE(corner);
  EXPECT_EQ(corner->fraction, 0.5);
  EXPECT_VEC2_NEAR(corner->normal, (Vec2{-0.8, -0.6}), kTolerance);
  EXPECT_VEC2_NEAR(corner->point, (Vec2{3, 1}), kTolerance);
  // Ending exactly on the circle counts; one ulp short of it does not.
  EXPECT_TRUE(CastPolygon(cast, Circle{{5, 0}, 1}, {.max_fraction = 0.75}));
  EXPECT_FALSE(CastPolygon(cast, Circle{{5, 0}, 1},
                           {.max_fraction = std::nextafter(0.75, 0.0)}));
  // Moving away, and passing beside it.
  EXPECT_FALSE(CastPolygon({Box({0, 0}, {1, 1}), {-4, 0}}, Circle{{5, 0}, 1}));
  EXPECT_FALSE(CastPolygon(cast, Circle{{3, 3}, 0.5}));
}

TEST(CastPolygonTest, ZeroTranslationAndMaxFraction) {
  const ConvexPolygon box = Box({0, 0}, {1, 1});
  EXPECT_FALSE(CastPolygon({box, {0, 0}}, Box({6, 0}, {1, 1})));
  EXPECT_FALSE(
      CastPolygon({box, {10, 0}}, Box({6, 0}, {1, 1}), {.max_fraction = 0.39}));
}

TEST(CastPolygonTest, IntoAConcaveNotch) {
  const Vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                    {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  const ConcavePolygon polygon = Concave(u);
  const std::optional<Hit> hit =
      CastPolygon({Box({1.5, 5}, {0.25, 0.25}), {0, -10}}, polygon);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, (5 - 0.25 - 1) / 10, kTolerance);
  EXPECT_EQ(hit->feature.index, 4);
}

TEST(CastPolygonDegenerateTest,
     InsideAConcaveSolidTouchingItsBoundaryOverlaps) {
  // The triangle spans the solid's channel between x = 6 and
  // x = 8, every vertex on the boundary and its interior inside: overlap.
  const std::vector<Vec2> solid = {{-8, -6}, {-8, -4}, {6, -4},
                                   {6, 6},   {8, 6},   {8, -6}};
  const ConvexPolygon triangle =
      *MakeConvexPolygon(std::vector<Vec2>{{6, 1}, {6, -1}, {8, 0}});
  const std::optional<Hit> hit =
      CastPolygon({triangle, {0, 6}}, testing::Concave(solid));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
}

}  // namespace
}  // namespace collide
