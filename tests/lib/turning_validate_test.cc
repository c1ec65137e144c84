// Validation of turning swings and moves: a sword swing against a wall and
// two targets with known answers, turning targets, a turning mover's
// verdict and safe fraction, and zero angles against ValidateMove.
#include "collide/turning_validate.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/turning.h"
#include "collide/validate.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using std::numbers::pi;
using testing::Box;

Vec2 Polar(double r, double deg) {
  return {r * std::cos(deg * pi / 180), r * std::sin(deg * pi / 180)};
}

// The sword: a capsule from the hand at the origin to (2, 0), radius 0.1,
// swinging a half turn counter-clockwise about the hand.
const TurningShot kSwing{Capsule{{0, 0}, {2, 0}, 0.1}, {0, 0}, pi, {0, 0}};

// A wall (segment) along polar angle 90 deg from radius 1 to 3.
Level WallLevel() {
  const std::vector<ShapeDesc> shapes = {
      {.id = 7,
       .user_data = 70,
       .geometry = Segment{Polar(1, 90), Polar(3, 90)}}};
  return *Level::Create(shapes);
}

// The axis reaches a disc of radius rho (+ the blade's 0.1) about polar
// (r0, th0) at th0 - asin((rho + 0.1) / r0), as a share of the half turn.
double Contact(double th0_deg, double r0, double rho) {
  return (th0_deg * pi / 180 - std::asin((rho + 0.1) / r0)) / pi;
}

TEST(ValidateTurningShotTest, SwingHitsTheNearerTargetBeforeTheWall) {
  const Level level = WallLevel();
  const std::vector<TurningShotTarget> targets = {
      {.id = 2, .hitbox = Circle{Polar(1.5, 120), 0.25}},
      {.id = 1, .hitbox = Circle{Polar(1.5, 60), 0.25}}};
  const std::optional<TurningShotHit> hit =
      ValidateTurningShot(kSwing, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shot.kind, ShotHitKind::kTarget);
  EXPECT_EQ(hit->shot.id, 1u);
  EXPECT_EQ(hit->shot.target_index, 1);
  EXPECT_EQ(hit->bracket.status, TurnStatus::kHit);
  EXPECT_LE(hit->shot.hit.fraction, Contact(60, 1.5, 0.25) + 1e-12);
  EXPECT_GE(hit->bracket.fraction_hi, Contact(60, 1.5, 0.25) - 1e-12);
}

TEST(ValidateTurningShotTest, WallStopsTheSwingBeforeTheFartherTarget) {
  const Level level = WallLevel();
  const std::vector<TurningShotTarget> targets = {
      {.id = 2, .hitbox = Circle{Polar(1.5, 120), 0.25}}};
  const std::optional<TurningShotHit> hit =
      ValidateTurningShot(kSwing, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shot.kind, ShotHitKind::kWall);
  EXPECT_EQ(hit->shot.id, 7u);
  EXPECT_EQ(hit->shot.user_data, 70u);
  EXPECT_NEAR(hit->shot.hit.fraction, (pi / 2 - std::asin(0.1)) / pi, 1e-9);
}

TEST(ValidateTurningShotTest, TargetSteppingOutOfTheArcIsMissed) {
  const std::optional<Level> empty = *Level::Create({});
  // The target at 60 deg backs off to radius 3.5 during the tick: the blade
  // (reach 2.1) passes 60 deg at a third of the tick, when it is at 2.5.
  const std::vector<TurningShotTarget> targets = {
      {.id = 1,
       .hitbox = Circle{Polar(1.5, 60), 0.25},
       .translation = Polar(3.0, 60)}};
  EXPECT_FALSE(ValidateTurningShot(kSwing, *empty, targets).has_value());
}

TEST(ValidateTurningShotTest, TurningTargetSwingsIntoTheBlade) {
  const std::optional<Level> empty = *Level::Create({});
  // A door (a 3 x 0.1 box) hinged at (0, 3) turning a quarter turn
  // clockwise down onto the blade, which stays still along +x.
  const TurningShot still{Capsule{{0, 0}, {2, 0}, 0.1}, {0, 0}, 0.0, {0, 0}};
  const TurningShotTarget door{.id = 9,
                               .hitbox = Box({1.5, 3}, {1.5, 0.05}),
                               .translation = {},
                               .angle = -pi / 2,
                               .pivot = {0, 3}};
  const std::optional<TurningShotHit> hit =
      ValidateTurningShot(still, *empty, {&door, 1});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shot.id, 9u);
  EXPECT_EQ(hit->bracket.status, TurnStatus::kHit);
  // The door's far lower corner, (3, -0.05) from the hinge, is first down
  // to the blade's flat top (y = 0.1, x = 0.77 then): at 3 - r sin(theta +
  // atan(0.05 / 3)) = 0.1 with r its distance from the hinge.
  const double r = std::sqrt(9.0 + 0.0025);
  const double theta = std::asin(2.9 / r) - std::atan(0.05 / 3);
  EXPECT_NEAR(hit->shot.hit.fraction, theta / (pi / 2), 1e-9);
}

TEST(ValidateTurningMoveTest, BoxTurningIntoAWallIsBlockedAtTheContact) {
  const std::vector<ShapeDesc> shapes = {
      {.id = 3, .geometry = Segment{{1.2, -5}, {1.2, 5}}}};
  const Level level = *Level::Create(shapes);
  // A square of half side 1 spinning a quarter turn in place: a corner
  // reaches x = 1.2 when sqrt(2) cos(theta - pi/4) = 1.2.
  const TurningMoveClaim claim{Box({0, 0}, {1, 1}), {0, 0}, pi / 2, {0, 0}};
  const TurningMoveValidation v = ValidateTurningMove(claim, level);
  EXPECT_EQ(v.move.verdict, MoveVerdict::kBlocked);
  ASSERT_TRUE(v.move.first_hit.has_value());
  EXPECT_EQ(v.move.first_hit->shape_id, 3u);
  const double theta = pi / 4 - std::acos(1.2 / std::sqrt(2.0));
  EXPECT_NEAR(v.move.safe_fraction, theta / (pi / 2), 1e-9);
  EXPECT_EQ(v.move.safe_fraction, v.move.first_hit->hit.fraction);
  EXPECT_FALSE(v.move.claimed_end_reachable);
  EXPECT_EQ(v.bracket.status, TurnStatus::kHit);
  // Turning the other way, the corner also reaches the wall (symmetry),
  // but a turn of 10 degrees reaches nothing.
  TurningMoveClaim small = claim;
  small.angle = pi / 18;
  const TurningMoveValidation allowed = ValidateTurningMove(small, level);
  EXPECT_EQ(allowed.move.verdict, MoveVerdict::kAllowed);
  EXPECT_EQ(allowed.move.safe_fraction, 1.0);
  EXPECT_TRUE(allowed.move.claimed_end_reachable);
  EXPECT_EQ(allowed.bracket.status, TurnStatus::kMiss);
}

TEST(ValidateTurningMoveTest, StartingInsideGetsTheExitSearch) {
  const std::vector<ShapeDesc> shapes = {
      {.id = 4, .geometry = Circle{{0.5, 0}, 0.5}}};
  const Level level = *Level::Create(shapes);
  const TurningMoveClaim claim{Box({0, 0}, {1, 1}), {3, 0}, 1.0, {0, 0}};
  const TurningMoveValidation v = ValidateTurningMove(claim, level);
  EXPECT_EQ(v.move.verdict, MoveVerdict::kStartsInside);
  ASSERT_TRUE(v.move.exit.has_value());
  EXPECT_EQ(v.move.exit->overlapped_count, 1);
  EXPECT_EQ(v.move.safe_fraction, 0.0);
}

TEST(ValidateTurningMoveTest, ZeroAngleIsValidateMoveBitForBit) {
  const std::vector<ShapeDesc> shapes = {
      {.id = 3, .geometry = Segment{{1.2, -5}, {1.2, 5}}},
      {.id = 5, .geometry = Circle{{4, 3}, 1}}};
  const Level level = *Level::Create(shapes);
  const MoveOptions options{.skin = 0.01, .max_slide_iterations = 4};
  const TurningMoveClaim claim{
      Capsule{{0, 0}, {0, 1}, 0.2}, {3, 2}, 0.0, {9, 9}};
  ASSERT_TRUE(IsValid(claim, options));
  const TurningMoveValidation turning =
      ValidateTurningMove(claim, level, {}, options);
  const MoveValidation plain = ValidateMove(
      MoveClaim{claim.mover, claim.translation}, level, {}, options);
  EXPECT_EQ(turning.move.verdict, plain.verdict);
  EXPECT_EQ(turning.move.safe_fraction, plain.safe_fraction);
  ASSERT_TRUE(turning.move.slide.has_value());
  EXPECT_EQ(turning.move.slide->translation, plain.slide->translation);
  ASSERT_TRUE(plain.first_hit.has_value());
  EXPECT_EQ(turning.bracket.fraction_hi, plain.first_hit->hit.fraction);
}

TEST(ValidateTurningMoveTest, SkinAndSlideAreRefusedWhenTurning) {
  const TurningMoveClaim claim{Box({0, 0}, {1, 1}), {1, 0}, 0.5, {0, 0}};
  EXPECT_TRUE(IsValid(claim, MoveOptions{}));
  EXPECT_FALSE(IsValid(claim, MoveOptions{.skin = 0.01}));
  EXPECT_FALSE(IsValid(claim, MoveOptions{.max_slide_iterations = 2}));
  TurningMoveClaim huge = claim;
  huge.angle = 2 * kMaxTurnAngle;
  EXPECT_FALSE(IsValid(huge, MoveOptions{}));
  huge.angle = std::nan("");
  EXPECT_FALSE(IsValid(huge, MoveOptions{}));
}

}  // namespace
}  // namespace collide
