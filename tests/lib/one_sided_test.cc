// One-sided segments and polylines (ShapeDesc::one_sided): casts, move and
// shot validation, overlap and closest point, and the degenerate starts.
#include <cstdint>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

constexpr double kTolerance = 1e-12;

// A jump-through platform: y = 0 from x = -2 to 2, drawn left to right, so
// its front (left of p1 -> p2) is up.
Level Platform(bool one_sided = true) {
  const ShapeDesc shapes[] = {{.id = 7,
                               .geometry = Segment{{-2.0, 0.0}, {2.0, 0.0}},
                               .one_sided = one_sided}};
  return *Level::Create(shapes);
}

std::optional<WorldHit> Circle1(const Level& level, Vec2 from, Vec2 d,
                                double radius = 0.5) {
  return CastCircle(CircleCast{Circle{from, radius}, d}, level);
}

TEST(OneSidedTest, FallingOntoTheFrontHits) {
  const Level level = Platform();
  const std::optional<WorldHit> hit = Circle1(level, {0.0, 2.0}, {0.0, -4.0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shape_id, 7u);
  EXPECT_NEAR(hit->hit.fraction, 0.375, kTolerance);
  EXPECT_EQ(hit->hit.normal, (Vec2{0.0, 1.0}));
}

TEST(OneSidedTest, RisingFromBehindPassesThrough) {
  EXPECT_FALSE(Circle1(Platform(), {0.0, -2.0}, {0.0, 4.0}).has_value());
  // The same segment two-sided blocks.
  EXPECT_TRUE(Circle1(Platform(false), {0.0, -2.0}, {0.0, 4.0}).has_value());
}

TEST(OneSidedTest, RaysFollowTheSameRule) {
  const Level level = Platform();
  EXPECT_TRUE(CastRay(RayInput{{0.0, 1.0}, {0.0, -2.0}}, level).has_value());
  EXPECT_FALSE(CastRay(RayInput{{0.0, -1.0}, {0.0, 2.0}}, level).has_value());
  // Diagonal from the front still moves against the front normal.
  EXPECT_TRUE(CastRay(RayInput{{-1.0, 1.0}, {2.0, -2.0}}, level).has_value());
}

TEST(OneSidedTest, MotionExactlyAlongTheSegmentNeverHits) {
  const Level level = Platform();
  // Collinear ray through the whole segment: two-sided it hits at p1.
  EXPECT_TRUE(
      CastRay(RayInput{{-4.0, 0.0}, {8.0, 0.0}}, Platform(false)).has_value());
  EXPECT_FALSE(CastRay(RayInput{{-4.0, 0.0}, {8.0, 0.0}}, level).has_value());
  // A disc sliding along while touching its front.
  EXPECT_FALSE(Circle1(level, {-1.0, 0.5}, {2.0, 0.0}).has_value());
  // A disc whose path runs into the end cap, moving along the line.
  EXPECT_FALSE(Circle1(level, {-4.0, 0.25}, {8.0, 0.0}).has_value());
  // Tiny but non-zero downward component: decided exactly, it blocks.
  EXPECT_TRUE(Circle1(level, {-4.0, 0.25}, {8.0, -0x1p-1000}).has_value());
}

TEST(OneSidedTest, TouchingStartMovingInIsBlockedAtZero) {
  const Level level = Platform();
  const std::optional<WorldHit> hit = Circle1(level, {0.0, 0.5}, {0.0, -1.0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->hit.fraction, 0.0);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->hit.depth, 0.0);
}

TEST(OneSidedTest, TouchingStartMovingAwayOrAlongIsAMiss) {
  const Level level = Platform();
  EXPECT_FALSE(Circle1(level, {0.0, 0.5}, {0.0, 1.0}).has_value());
  EXPECT_FALSE(Circle1(level, {0.0, 0.5}, {1.0, 0.0}).has_value());
  // Touching from behind and moving away (downwards): stop_at_penetration
  // does not make the back face block.
  EXPECT_FALSE(CastCircle(CircleCast{Circle{{0.0, -0.5}, 0.5}, {0.0, -1.0}},
                          level, {}, {.stop_at_penetration = true})
                   .has_value());
}

TEST(OneSidedTest, StartingPartwayThroughPasses) {
  const Level level = Platform();
  // Overlapping by a quarter, centre above the line, falling: passes.
  EXPECT_FALSE(Circle1(level, {0.0, 0.25}, {0.0, -2.0}).has_value());
  // Two-sided, the same start is an initial overlap.
  const std::optional<WorldHit> two =
      Circle1(Platform(false), {0.0, 0.25}, {0.0, -2.0});
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->hit.status, HitStatus::kInitialOverlap);
}

TEST(OneSidedTest, ZeroTranslationAndZeroLengthNeverHit) {
  EXPECT_FALSE(Circle1(Platform(), {0.0, 0.5}, {0.0, 0.0}).has_value());
  const ShapeDesc dot[] = {{.id = 1,
                            .geometry = Segment{{0.0, 0.0}, {0.0, 0.0}},
                            .one_sided = true}};
  const Level level = *Level::Create(dot);
  EXPECT_FALSE(Circle1(level, {0.0, 2.0}, {0.0, -4.0}).has_value());
}

TEST(OneSidedTest, PolylineSegmentsEachHaveTheirOwnFront) {
  // A roof /\ drawn right to left along the top would face down; drawn
  // left to right (-2,0) -> (0,1) -> (2,0), both fronts face up and out.
  const Vec2 roof[] = {{-2.0, 0.0}, {0.0, 1.0}, {2.0, 0.0}};
  const ShapeDesc shapes[] = {
      {.id = 3,
       .geometry = PolylineDesc{.vertices = roof, .closed = false},
       .one_sided = true}};
  const Level level = *Level::Create(shapes);
  // Straight down onto the shared vertex: both segments face the motion.
  const std::optional<WorldHit> apex =
      CastRay(RayInput{{0.0, 3.0}, {0.0, -4.0}}, level);
  ASSERT_TRUE(apex.has_value());
  EXPECT_NEAR(apex->hit.fraction, 0.5, kTolerance);
  // Straight up from below through the shared vertex: neither does.
  EXPECT_FALSE(CastRay(RayInput{{0.0, -3.0}, {0.0, 6.0}}, level).has_value());
  // Horizontal from the left: the rising segment's front normal (-1, 2)
  // opposes +x, the falling one's (1, 2) does not.
  const std::optional<WorldHit> left =
      CastRay(RayInput{{-4.0, 0.5}, {8.0, 0.0}}, level);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->hit.feature.index, 0);
  // From the right, the falling segment (edge 1) blocks.
  const std::optional<WorldHit> right =
      CastRay(RayInput{{4.0, 0.5}, {-8.0, 0.0}}, level);
  ASSERT_TRUE(right.has_value());
  EXPECT_EQ(right->hit.feature.index, 1);
  // Horizontal through the apex exactly from the left: segment 0 meets it
  // at its end vertex (vertex 1 of the polyline).
  const std::optional<WorldHit> through =
      CastRay(RayInput{{-4.0, 1.0}, {8.0, 0.0}}, level);
  ASSERT_TRUE(through.has_value());
  EXPECT_EQ(through->hit.feature.type, FeatureType::kVertex);
  EXPECT_EQ(through->hit.feature.index, 1);
}

TEST(OneSidedTest, OverlapIgnoresAndClosestPointReportsOneSidedShapes) {
  const Level level = Platform();
  ShapeRef refs[2];
  EXPECT_EQ(OverlapCircle(Circle{{0.0, 0.0}, 1.0}, level, refs).count, 0);
  EXPECT_EQ(OverlapCircle(Circle{{0.0, 0.0}, 1.0}, Platform(false), refs).count,
            1);
  const std::optional<WorldClosestPoint> closest =
      ClosestPoint({0.5, -1.0}, level, 5.0);
  ASSERT_TRUE(closest.has_value());
  EXPECT_EQ(closest->shape_id, 7u);
  EXPECT_EQ(closest->distance, 1.0);
}

TEST(OneSidedTest, JumpThroughPlatformInMoveValidation) {
  const Level level = Platform();
  const MoveOptions options{.max_slide_iterations = 0};
  // Rising through from below: allowed.
  const MoveValidation rise = ValidateMove(
      MoveClaim{Circle{{0.0, -1.0}, 0.5}, {0.0, 3.0}}, level, {}, options);
  EXPECT_EQ(rise.verdict, MoveVerdict::kAllowed);
  // Falling back while partway through: allowed (no inside to exit).
  const MoveValidation partway = ValidateMove(
      MoveClaim{Circle{{0.0, 0.2}, 0.5}, {0.0, -3.0}}, level, {}, options);
  EXPECT_EQ(partway.verdict, MoveVerdict::kAllowed);
  // Landing on it from above: blocked where the disc touches the top.
  const MoveValidation land = ValidateMove(
      MoveClaim{Circle{{0.0, 2.0}, 0.5}, {0.0, -3.0}}, level, {}, options);
  EXPECT_EQ(land.verdict, MoveVerdict::kBlocked);
  EXPECT_NEAR(land.safe_fraction, 0.5, kTolerance);
  // Standing on it and walking along: allowed.
  const MoveValidation walk = ValidateMove(
      MoveClaim{Circle{{0.0, 0.5}, 0.5}, {1.0, 0.0}}, level, {}, options);
  EXPECT_EQ(walk.verdict, MoveVerdict::kAllowed);
  // Standing on it and pushing down: blocked at once, not inside.
  const MoveValidation push = ValidateMove(
      MoveClaim{Circle{{0.0, 0.5}, 0.5}, {0.0, -1.0}}, level, {}, options);
  EXPECT_EQ(push.verdict, MoveVerdict::kBlocked);
  EXPECT_EQ(push.safe_fraction, 0.0);
  // A box landing on it with a slide: it slides along the top.
  const ConvexPolygon box = *MakeBox({0.0, 1.5}, {0.5, 0.5}, 0.0);
  const MoveValidation slide = ValidateMove(MoveClaim{box, {1.0, -2.0}}, level,
                                            {}, {.max_slide_iterations = 4});
  EXPECT_EQ(slide.verdict, MoveVerdict::kBlocked);
  ASSERT_TRUE(slide.slide.has_value());
  EXPECT_NEAR(slide.slide->translation.y, -1.0, 1e-6);
}

TEST(OneSidedTest, ShotValidationSeesOnlyTheFront) {
  const Level level = Platform();
  const ShotTarget above{.id = 9, .hitbox = Circle{{0.0, 2.0}, 0.5}};
  const ShotTarget below{.id = 8, .hitbox = Circle{{0.0, -2.0}, 0.5}};
  // Shooting up from below through the platform hits the target above.
  const std::optional<ShotHit> up =
      ValidateShot(Shot{{0.0, -1.0}, {0.0, 4.0}}, level, {&above, 1});
  ASSERT_TRUE(up.has_value());
  EXPECT_EQ(up->kind, ShotHitKind::kTarget);
  // Shooting down from above, the platform shields the target below.
  const std::optional<ShotHit> down =
      ValidateShot(Shot{{0.0, 1.0}, {0.0, -4.0}}, level, {&below, 1});
  ASSERT_TRUE(down.has_value());
  EXPECT_EQ(down->kind, ShotHitKind::kWall);
  EXPECT_EQ(down->id, 7u);
}

TEST(OneSidedTest, OnlySegmentsAndPolylinesMayBeOneSided) {
  const ShapeDesc shapes[] = {
      {.id = 1, .geometry = Circle{{0.0, 0.0}, 1.0}, .one_sided = true}};
  const absl::StatusOr<Level> level = Level::Create(shapes);
  ASSERT_FALSE(level.ok());
  EXPECT_EQ(level.status().message(),
            "shapes[0].one_sided needs a segment or polyline, got a circle");
}

TEST(OneSidedTest, FarFromTheOriginTheDecisionIsExact) {
  // The platform at 1e9 with a falling ray whose direction is nearly
  // along it: the sign is that of the exact cross product.
  const ShapeDesc shapes[] = {
      {.id = 1,
       .geometry = Segment{{1e9, 1e9}, {1e9 + 4.0, 1e9}},
       .one_sided = true}};
  const Level level = *Level::Create(shapes);
  EXPECT_TRUE(
      CastRay(RayInput{{1e9 - 1.0, 1e9 + 0x1p-20}, {8.0, -0x1p-18}}, level)
          .has_value());
  EXPECT_FALSE(
      CastRay(RayInput{{1e9 - 1.0, 1e9 - 0x1p-20}, {8.0, 0x1p-18}}, level)
          .has_value());
}

}  // namespace
}  // namespace collide
