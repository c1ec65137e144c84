#include "collide/shapes.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

using ::testing::HasSubstr;

constexpr double kTolerance = 1e-12;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void ExpectVecNear(Vec2 actual, Vec2 expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

// Every polygon the factory returns must be counter-clockwise with unit
// outward normals; checked independently of the implementation.
void ExpectWellFormed(const ConvexPolygon& polygon) {
  ASSERT_GE(polygon.count, 3);
  ASSERT_LE(polygon.count, kMaxPolygonVertices);
  const int n = polygon.count;
  for (int i = 0; i < n; ++i) {
    const Vec2 v0 = polygon.vertices[i];
    const Vec2 v1 = polygon.vertices[(i + 1) % n];
    const Vec2 v2 = polygon.vertices[(i + 2) % n];
    EXPECT_GT(Cross(v1 - v0, v2 - v1), 0.0) << "vertex " << (i + 1) % n;
    const Vec2 normal = polygon.normals[i];
    EXPECT_NEAR(Length(normal), 1.0, kTolerance) << "normal " << i;
    EXPECT_NEAR(Dot(normal, v1 - v0), 0.0, kTolerance) << "normal " << i;
    // Outward: the rest of the polygon is behind the edge.
    EXPECT_LT(Dot(normal, v2 - v0), 0.0) << "normal " << i;
  }
}

void ExpectInvalid(const absl::Status& status, const std::string& message) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr(message));
}

// --- MakeConvexPolygon ----------------------------------------------------

TEST(MakeConvexPolygonTest, CounterClockwiseTriangleKeepsOrderAndGetsNormals) {
  const std::array<Vec2, 3> input = {{{0, 0}, {2, 0}, {0, 2}}};
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(input);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  ASSERT_EQ(polygon->count, 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(polygon->vertices[i], input[i]);
  ExpectVecNear(polygon->normals[0], {0, -1}, kTolerance);
  ExpectVecNear(polygon->normals[1],
                {std::numbers::sqrt2 / 2, std::numbers::sqrt2 / 2}, kTolerance);
  ExpectVecNear(polygon->normals[2], {-1, 0}, kTolerance);
  ExpectWellFormed(*polygon);
}

TEST(MakeConvexPolygonTest, ClockwiseInputIsReversed) {
  const std::array<Vec2, 4> input = {{{0, 0}, {0, 1}, {3, 1}, {3, 0}}};
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(input);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  ASSERT_EQ(polygon->count, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(polygon->vertices[i], input[3 - i]) << "vertex " << i;
  }
  ExpectWellFormed(*polygon);
}

TEST(MakeConvexPolygonTest, AcceptsMaximumVertexCount) {
  std::vector<Vec2> octagon;
  for (int i = 0; i < kMaxPolygonVertices; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / kMaxPolygonVertices;
    octagon.push_back({std::cos(angle), std::sin(angle)});
  }
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(octagon);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_EQ(polygon->count, kMaxPolygonVertices);
  ExpectWellFormed(*polygon);
}

TEST(MakeConvexPolygonTest, TinyPolygonFarFromOriginIsAccepted) {
  const Vec2 base{1e6, -1e6};
  const std::array<Vec2, 3> input = {
      {base, base + Vec2{1e-3, 0}, base + Vec2{0, 1e-3}}};
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(input);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  ExpectVecNear(polygon->normals[0], {0, -1}, 1e-6);
  ExpectVecNear(polygon->normals[2], {-1, 0}, 1e-6);
  ExpectWellFormed(*polygon);
}

TEST(MakeConvexPolygonTest, TooFewVerticesIsRejected) {
  const std::array<Vec2, 2> input = {{{0, 0}, {1, 0}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "at least 3 vertices, got 2");
  ExpectInvalid(MakeConvexPolygon({}).status(), "at least 3 vertices, got 0");
}

TEST(MakeConvexPolygonTest, TooManyVerticesIsRejected) {
  std::vector<Vec2> input;
  for (int i = 0; i < kMaxPolygonVertices + 1; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / (kMaxPolygonVertices + 1);
    input.push_back({std::cos(angle), std::sin(angle)});
  }
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "polygon has 9 vertices, more than the 8 allowed");
}

TEST(MakeConvexPolygonTest, NonFiniteVertexIsNamed) {
  const std::array<Vec2, 4> with_nan = {{{0, 0}, {1, 0}, {1, 1}, {kNaN, 1}}};
  ExpectInvalid(MakeConvexPolygon(with_nan).status(),
                "vertices[3] is not finite");
  const std::array<Vec2, 3> with_inf = {{{0, 0}, {1, kInf}, {0, 1}}};
  ExpectInvalid(MakeConvexPolygon(with_inf).status(),
                "vertices[1] is not finite");
}

TEST(MakeConvexPolygonTest, EqualConsecutiveVerticesAreNamed) {
  const std::array<Vec2, 4> input = {{{0, 0}, {1, 0}, {1, 0}, {0, 1}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "vertices 1 and 2 are equal");
}

TEST(MakeConvexPolygonTest, LastAndFirstVertexEqualIsNamed) {
  const std::array<Vec2, 4> input = {{{0, 0}, {1, 0}, {0, 1}, {0, 0}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "vertices 3 and 0 are equal");
}

TEST(MakeConvexPolygonTest, CollinearConsecutiveVerticesAreNamed) {
  const std::array<Vec2, 4> input = {{{0, 0}, {1, 0}, {2, 0}, {1, 1}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "vertices 0, 1 and 2 are collinear");
}

TEST(MakeConvexPolygonTest, AllCollinearVerticesAreRejected) {
  const std::array<Vec2, 3> input = {{{0, 0}, {1, 1}, {2, 2}}};
  ExpectInvalid(MakeConvexPolygon(input).status(), "are collinear");
}

TEST(MakeConvexPolygonTest, ReflexVertexIsNamed) {
  // An arrow head: vertex 2 points inwards.
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 0}, {1, 0.5}, {1, 2}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "polygon is not convex at vertex 2");
}

TEST(MakeConvexPolygonTest, ReflexFirstVertexIsNamed) {
  // The odd turn is at vertex 0; the other three agree with the area.
  const std::array<Vec2, 4> input = {{{1, 0.5}, {1, 2}, {0, 0}, {2, 0}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "polygon is not convex at vertex 0");
}

TEST(MakeConvexPolygonTest, PentagramIsRejectedAsSelfIntersecting) {
  // Every turn is a left turn, but the outline goes around twice.
  std::vector<Vec2> star;
  for (int i = 0; i < 5; ++i) {
    const double angle = 2.0 * std::numbers::pi * (2 * i) / 5.0;
    star.push_back({std::cos(angle), std::sin(angle)});
  }
  ExpectInvalid(MakeConvexPolygon(star).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConvexPolygonTest, SymmetricBowTieIsNamedSelfIntersecting) {
  // Zero area: the two lobes cancel. Not "not convex at vertex 1".
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 2}, {2, 0}, {0, 2}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConvexPolygonTest, UnevenBowTieIsNamedSelfIntersecting) {
  // Non-zero area, with vertex 1 turning against it.
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 2}, {2, 0}, {0, 3}}};
  ExpectInvalid(MakeConvexPolygon(input).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConvexPolygonTest, ClockwisePentagramIsRejectedAsSelfIntersecting) {
  std::vector<Vec2> star;
  for (int i = 0; i < 5; ++i) {
    const double angle = -2.0 * std::numbers::pi * (2 * i) / 5.0;
    star.push_back({std::cos(angle), std::sin(angle)});
  }
  ExpectInvalid(MakeConvexPolygon(star).status(),
                "polygon is self-intersecting");
}

TEST(MakeConvexPolygonTest, SevenPointStarIsRejectedAsSelfIntersecting) {
  std::vector<Vec2> star;
  for (int i = 0; i < 7; ++i) {
    const double angle = 2.0 * std::numbers::pi * (3 * i) / 7.0;
    star.push_back({std::cos(angle), std::sin(angle)});
  }
  ExpectInvalid(MakeConvexPolygon(star).status(),
                "polygon is self-intersecting");
}

// --- MakeBox --------------------------------------------------------------

TEST(MakeBoxTest, AxisAlignedBoxHasCornersAndAxisNormals) {
  absl::StatusOr<ConvexPolygon> box = MakeBox({1, 2}, {3, 0.5}, 0.0);
  ASSERT_TRUE(box.ok()) << box.status();
  ASSERT_EQ(box->count, 4);
  EXPECT_EQ(box->vertices[0], (Vec2{-2, 1.5}));
  EXPECT_EQ(box->vertices[1], (Vec2{4, 1.5}));
  EXPECT_EQ(box->vertices[2], (Vec2{4, 2.5}));
  EXPECT_EQ(box->vertices[3], (Vec2{-2, 2.5}));
  ExpectVecNear(box->normals[0], {0, -1}, kTolerance);
  ExpectVecNear(box->normals[1], {1, 0}, kTolerance);
  ExpectVecNear(box->normals[2], {0, 1}, kTolerance);
  ExpectVecNear(box->normals[3], {-1, 0}, kTolerance);
}

TEST(MakeBoxTest, RotatedBoxTurnsCornersCounterClockwise) {
  absl::StatusOr<ConvexPolygon> box =
      MakeBox({0, 0}, {1, 1}, std::numbers::pi / 4);
  ASSERT_TRUE(box.ok()) << box.status();
  const double diagonal = std::numbers::sqrt2;
  ExpectVecNear(box->vertices[0], {0, -diagonal}, kTolerance);
  ExpectVecNear(box->vertices[1], {diagonal, 0}, kTolerance);
  ExpectVecNear(box->vertices[2], {0, diagonal}, kTolerance);
  ExpectVecNear(box->vertices[3], {-diagonal, 0}, kTolerance);
  ExpectVecNear(box->normals[1],
                {std::numbers::sqrt2 / 2, std::numbers::sqrt2 / 2}, kTolerance);
  ExpectWellFormed(*box);
}

TEST(MakeBoxTest, NonFiniteCenterIsRejected) {
  ExpectInvalid(MakeBox({kNaN, 0}, {1, 1}, 0).status(), "center is not finite");
}

TEST(MakeBoxTest, NonPositiveOrNonFiniteHalfExtentsAreRejected) {
  const std::string message = "half_extents must be finite and greater than 0";
  ExpectInvalid(MakeBox({0, 0}, {0, 1}, 0).status(), message);
  ExpectInvalid(MakeBox({0, 0}, {1, -1}, 0).status(), message);
  ExpectInvalid(MakeBox({0, 0}, {kInf, 1}, 0).status(), message);
  ExpectInvalid(MakeBox({0, 0}, {1, kNaN}, 0).status(), message);
}

TEST(MakeBoxTest, NonFiniteAngleIsRejected) {
  ExpectInvalid(MakeBox({0, 0}, {1, 1}, kInf).status(), "angle is not finite");
}

TEST(MakeBoxTest, ExtentsLostToRoundingAgainstFarCenterAreRejected) {
  // 1e-12 is below the spacing of doubles near 1e6, so the corners coincide.
  ExpectInvalid(MakeBox({1e6, 1e6}, {1e-12, 1e-12}, 0).status(),
                "box corners do not form a valid polygon");
}

TEST(MakeBoxTest, CoordinatesBeyondTheLimitAreRejected) {
  const double huge = std::numeric_limits<double>::max();
  ExpectInvalid(MakeBox({huge, 0}, {huge, 1}, 0).status(),
                "center is not finite or beyond the coordinate limit");
  // Centre and extents within the limit, corners beyond it.
  ExpectInvalid(MakeBox({1e60, 0}, {1e60, 1}, 0).status(),
                "box corners do not form a valid polygon");
}

// --- MakeConcavePolygon ---------------------------------------------------

// An L shape, counter-clockwise; vertex 3 is reflex.
constexpr std::array<Vec2, 6> kLShape = {
    {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}};

TEST(MakeConcavePolygonTest, CounterClockwiseLShapeHasPositiveOrientation) {
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_EQ(polygon->orientation, 1.0);
  EXPECT_EQ(polygon->vertices.data(), kLShape.data());
  EXPECT_EQ(polygon->vertices.size(), kLShape.size());
}

TEST(MakeConcavePolygonTest,
     ClockwiseInputHasNegativeOrientationAndKeepsOrder) {
  const std::array<Vec2, 6> clockwise = {
      {{0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}, {0, 0}}};
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(clockwise);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_EQ(polygon->orientation, -1.0);
  EXPECT_EQ(polygon->vertices.data(), clockwise.data());
}

TEST(MakeConcavePolygonTest, ConvexInputIsAccepted) {
  const std::array<Vec2, 3> triangle = {{{0, 0}, {1, 0}, {0, 1}}};
  EXPECT_TRUE(MakeConcavePolygon(triangle).ok());
}

TEST(MakeConcavePolygonTest, StraightThroughVertexIsAccepted) {
  // Vertex 1 lies on the straight edge from 0 to 2: not an overlap.
  const std::array<Vec2, 4> input = {{{0, 0}, {1, 0}, {2, 0}, {1, 1}}};
  EXPECT_TRUE(MakeConcavePolygon(input).ok());
}

TEST(MakeConcavePolygonTest, ManyVerticesAreAccepted) {
  // A comb with more than kMaxPolygonVertices vertices.
  std::vector<Vec2> comb = {{0, 0}, {10, 0}};
  for (int tooth = 4; tooth >= 0; --tooth) {
    const double x = 2.0 * tooth;
    comb.push_back({x + 2, 3});
    comb.push_back({x + 1, 3});
    comb.push_back({x + 1, 1});
    comb.push_back({x, 1});
  }
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(comb);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_EQ(polygon->orientation, 1.0);
}

TEST(MakeConcavePolygonTest, TooFewVerticesIsRejected) {
  const std::array<Vec2, 2> input = {{{0, 0}, {1, 0}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "at least 3 vertices, got 2");
}

TEST(MakeConcavePolygonTest, NonFiniteVertexIsNamed) {
  std::array<Vec2, 6> input = kLShape;
  input[4].y = kInf;
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "vertices[4] is not finite");
}

TEST(MakeConcavePolygonTest, EqualConsecutiveVerticesAreNamed) {
  const std::array<Vec2, 4> input = {{{0, 0}, {1, 0}, {0, 1}, {0, 1}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "vertices 2 and 3 are equal");
}

TEST(MakeConcavePolygonTest, FlatOutlineIsRejected) {
  // Along the x axis and straight back: no area, and named where it turns.
  const std::array<Vec2, 3> input = {{{0, 0}, {1, 0}, {2, 0}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon doubles back on itself at vertex 0");
}

TEST(MakeConcavePolygonTest, SymmetricBowTieIsNamedSelfIntersecting) {
  // Its lobes cancel to zero area; the crossing is what is wrong.
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 2}, {2, 0}, {0, 2}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConcavePolygonTest, CrossingEdgesAreNamed) {
  // An uneven bow tie: edges 0 and 2 cross at (1.2, 1.2).
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 2}, {2, 0}, {0, 3}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConcavePolygonTest, VertexTouchingAnotherEdgeIsRejected) {
  // Vertex 3 pokes down onto edge 0 and pinches the interior in two.
  const std::array<Vec2, 5> input = {{{0, 0}, {4, 0}, {4, 2}, {2, 0}, {0, 2}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon is self-intersecting: edges 0 and 2 intersect");
}

TEST(MakeConcavePolygonTest, RepeatedNonConsecutiveVertexIsRejected) {
  // Two triangles sharing vertex (1, 1): a figure eight through one point.
  const std::array<Vec2, 6> input = {
      {{0, 0}, {1, 1}, {2, 0}, {2, 2}, {1, 1}, {0, 2}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon is self-intersecting");
}

TEST(MakeConcavePolygonTest, AdjacentEdgesOverlappingCollinearlyAreNamed) {
  // The outline runs from (4, 2) to (2, 2) and straight back to (3, 2).
  const std::array<Vec2, 5> input = {{{0, 0}, {4, 0}, {4, 2}, {2, 2}, {3, 2}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon doubles back on itself at vertex 3");
}

TEST(MakeConcavePolygonTest, ClosingEdgesMeetingCollinearlyAreNamed) {
  // Edges 3 and 0 share vertex 0 and lie on top of each other.
  const std::array<Vec2, 4> input = {{{0, 0}, {2, 0}, {2, 2}, {1, 0}}};
  ExpectInvalid(MakeConcavePolygon(input).status(),
                "polygon doubles back on itself at vertex 0");
}

// --- EdgeNormal -----------------------------------------------------------

TEST(EdgeNormalTest, CounterClockwiseNormalsPointOutward) {
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  ExpectVecNear(EdgeNormal(*polygon, 0), {0, -1}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 1), {1, 0}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 2), {0, 1}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 3), {1, 0}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 5), {-1, 0}, kTolerance);
}

TEST(EdgeNormalTest, ClockwiseNormalsPointOutward) {
  const std::array<Vec2, 3> clockwise = {{{0, 0}, {0, 4}, {4, 0}}};
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(clockwise);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  ExpectVecNear(EdgeNormal(*polygon, 0), {-1, 0}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 1),
                {std::numbers::sqrt2 / 2, std::numbers::sqrt2 / 2}, kTolerance);
  ExpectVecNear(EdgeNormal(*polygon, 2), {0, -1}, kTolerance);
}

// --- IsValid --------------------------------------------------------------

TEST(IsValidTest, FinitePointIsValidAndNonFiniteIsNot) {
  EXPECT_TRUE(IsValid(Vec2{1, -2}));
  EXPECT_FALSE(IsValid(Vec2{kNaN, 0}));
  EXPECT_FALSE(IsValid(Vec2{0, -kInf}));
}

TEST(IsValidTest, CoordinatesAndRadiiBeyondTheLimitAreInvalid) {
  // Squares of products of such lengths would overflow in the casts.
  EXPECT_TRUE(IsValid(Vec2{kMaxCoordinate, -kMaxCoordinate}));
  EXPECT_FALSE(IsValid(Vec2{2 * kMaxCoordinate, 0}));
  EXPECT_FALSE(IsValid(Circle{{0, 0}, 2 * kMaxCoordinate}));
  EXPECT_FALSE(IsValid(RayInput{{0, 0}, {0, 1e61}}));
}

TEST(IsValidTest, SegmentNeedsFiniteEndsAndMayBeAPoint) {
  EXPECT_TRUE(IsValid(Segment{{0, 0}, {1, 1}}));
  EXPECT_TRUE(IsValid(Segment{{1, 1}, {1, 1}}));
  EXPECT_FALSE(IsValid(Segment{{0, 0}, {kInf, 1}}));
  EXPECT_FALSE(IsValid(Segment{{kNaN, 0}, {1, 1}}));
}

TEST(IsValidTest, CircleNeedsFiniteCenterAndNonNegativeFiniteRadius) {
  EXPECT_TRUE(IsValid(Circle{{0, 0}, 1}));
  EXPECT_TRUE(IsValid(Circle{{0, 0}, 0}));
  EXPECT_FALSE(IsValid(Circle{{0, 0}, -1}));
  EXPECT_FALSE(IsValid(Circle{{0, 0}, kNaN}));
  EXPECT_FALSE(IsValid(Circle{{0, 0}, kInf}));
  EXPECT_FALSE(IsValid(Circle{{kNaN, 0}, 1}));
}

TEST(IsValidTest, CapsuleNeedsFiniteEndsAndNonNegativeFiniteRadius) {
  EXPECT_TRUE(IsValid(Capsule{{0, 0}, {1, 0}, 0.5}));
  EXPECT_TRUE(IsValid(Capsule{{0, 0}, {0, 0}, 0}));
  EXPECT_FALSE(IsValid(Capsule{{0, 0}, {1, 0}, -0.5}));
  EXPECT_FALSE(IsValid(Capsule{{0, 0}, {1, 0}, kNaN}));
  EXPECT_FALSE(IsValid(Capsule{{0, kInf}, {1, 0}, 1}));
  EXPECT_FALSE(IsValid(Capsule{{0, 0}, {kNaN, 0}, 1}));
}

TEST(IsValidTest, FactoryConvexPolygonIsValidAndEmptyOneIsNot) {
  absl::StatusOr<ConvexPolygon> box = MakeBox({0, 0}, {1, 1}, 0.3);
  ASSERT_TRUE(box.ok());
  EXPECT_TRUE(IsValid(*box));
  EXPECT_FALSE(IsValid(ConvexPolygon{}));
  ConvexPolygon corrupted = *box;
  corrupted.vertices[2].x = kNaN;
  EXPECT_FALSE(IsValid(corrupted));
  corrupted = *box;
  corrupted.count = kMaxPolygonVertices + 1;
  EXPECT_FALSE(IsValid(corrupted));
}

TEST(IsValidTest, FactoryConcavePolygonIsValidAndEmptyOneIsNot) {
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(IsValid(*polygon));
  EXPECT_FALSE(IsValid(ConcavePolygon{}));
  ConcavePolygon bad_orientation = *polygon;
  bad_orientation.orientation = 0.5;
  EXPECT_FALSE(IsValid(bad_orientation));
}

}  // namespace
}  // namespace collide
