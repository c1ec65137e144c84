#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "gtest/gtest.h"
#include "random_level.h"
#include "test_shapes.h"
#include "validate_brute_force.h"

namespace collide {
namespace {

using testing::Box;
using testing::BruteShot;
using testing::MakeRandomLevel;
using testing::RandomLevel;
using testing::Scene;
using testing::SplitMix64;

Level MakeLevel(const std::vector<ShapeDesc>& shapes) {
  absl::StatusOr<Level> level = Level::Create(shapes);
  EXPECT_TRUE(level.ok()) << level.status();
  return std::move(*level);
}

// A wall along x = 20 (id 9) and nothing else.
Level WallLevel() {
  return MakeLevel(
      {{.id = 9, .user_data = 90, .geometry = Segment{{20, -50}, {20, 50}}}});
}

// A bullet from the origin along +x, 40 units this tick.
constexpr Shot kBullet{{0, 0}, {40, 0}, 0.0};

TEST(ValidateShotTest, TargetInFrontOfAWallIsHit) {
  const Level level = WallLevel();
  const ShotTarget targets[] = {{.id = 3, .hitbox = Circle{{10, 0}, 1}}};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
  EXPECT_EQ(hit->id, 3u);
  EXPECT_EQ(hit->target_index, 0);
  EXPECT_NEAR(hit->hit.fraction, 9.0 / 40.0, testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->hit.point, Vec2(9, 0), testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->hit.normal, Vec2(-1, 0), testing::kTolerance);
}

TEST(ValidateShotTest, TargetBehindAWallIsNotHit) {
  const Level level = WallLevel();
  const ShotTarget targets[] = {{.id = 3, .hitbox = Circle{{30, 0}, 1}}};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kWall);
  EXPECT_EQ(hit->id, 9u);
  EXPECT_EQ(hit->user_data, 90u);
  EXPECT_EQ(hit->target_index, -1);
  EXPECT_NEAR(hit->hit.fraction, 0.5, testing::kTolerance);
  // Without the wall the same target is hit: the wall is what stops it.
  const Level empty = MakeLevel({});
  const std::optional<ShotHit> open = ValidateShot(kBullet, empty, targets);
  ASSERT_TRUE(open.has_value());
  EXPECT_EQ(open->kind, ShotHitKind::kTarget);
}

TEST(ValidateShotTest, NearestOfTwoTargetsOnTheLineWins) {
  const Level level = WallLevel();
  const ShotTarget near{.id = 8, .hitbox = Box({6, 0}, {1, 1})};
  const ShotTarget far{.id = 2, .hitbox = Capsule{{12, -1}, {12, 1}, 0.5}};
  for (const auto& targets : {std::vector<ShotTarget>{near, far},
                              std::vector<ShotTarget>{far, near}}) {
    const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
    EXPECT_EQ(hit->id, 8u);
    EXPECT_EQ(targets[hit->target_index].id, 8u);
    EXPECT_NEAR(hit->hit.fraction, 5.0 / 40.0, testing::kTolerance);
  }
}

TEST(ValidateShotTest, TargetsMetAtTheSameFractionBreakTiesBySmallestId) {
  const Level level = MakeLevel({});
  const ShotTarget a{.id = 5, .hitbox = Circle{{10, 0}, 1}};
  const ShotTarget b{.id = 4, .hitbox = Circle{{10, 0}, 1}};
  const ShotTarget c{.id = 4, .hitbox = Circle{{10, 0}, 1}};
  const ShotTarget targets[] = {a, b, c};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->id, 4u);
  EXPECT_EQ(hit->target_index, 1);  // the first of the equal ids
}

// Which of a wall and a target comes first is decided exactly (cases from
// the degenerate report's shot families). A target flush with a wall, here
// the same octagon, ties with it: the wall wins, though the two casts'
// rounded fractions differ and the target's is the smaller.
TEST(ValidateShotTest, TargetFlushWithAWallLosesTheTieExactly) {
  const std::vector<Vec2> octagon{
      {-24320, -36352}, {-16640, -40448}, {-2560, -23296}, {17920, 15104},
      {24320, 36352},   {16640, 40448},   {2560, 23296},   {-17920, -15104}};
  const Level level = MakeLevel({{.id = 5, .geometry = PolygonDesc{octagon}}});
  const ShotTarget targets[] = {
      {.id = 3, .hitbox = *MakeConvexPolygon(octagon)}};
  const std::optional<ShotHit> hit =
      ValidateShot(Shot{{-26112, -30464}, {5632, -7936}, 0.0}, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kWall);
  EXPECT_NEAR(hit->hit.fraction, 4.0 / 9.0, 1e-12);
}

// A wall 2^-52 of the shot's travel behind the target's surface: the
// target is first, by less than the casts' rounding of their fractions.
TEST(ValidateShotTest, TargetOneUlpOfTheTickAheadOfAWallIsHit) {
  const Vec2 travel{-15, 0};
  const Vec2 a{0, -1000000001}, b{0, -999999996};
  const Vec2 behind = 0x1p-52 * travel;
  const Level level =
      MakeLevel({{.id = 5, .geometry = Segment{a + behind, b + behind}}});
  const ShotTarget targets[] = {{.id = 3, .hitbox = Capsule{a, b, 0.0}}};
  const std::optional<ShotHit> hit =
      ValidateShot(Shot{{5.9999998807907104, -1000000003.9999999}, travel, 3.0},
                   level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
}

TEST(ValidateShotTest, ShotGrazingATargetsEdgeHitsItAtTheTangentPoint) {
  const Level level = MakeLevel({});
  // The ray runs along y = 0; a circle of radius 1 centred at (10, 1)
  // touches it at (10, 0). A thick ray of radius 0.5 grazes a box whose
  // bottom face is at y = 0.5.
  const ShotTarget circle[] = {{.id = 1, .hitbox = Circle{{10, 1}, 1}}};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, circle);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->hit.fraction, 10.0 / 40.0, 1e-9);
  EXPECT_VEC2_NEAR(hit->hit.point, Vec2(10, 0), 1e-9);
  EXPECT_VEC2_NEAR(hit->hit.normal, Vec2(0, -1), 1e-9);
  // A hair further away it is missed.
  const ShotTarget clear[] = {{.id = 1, .hitbox = Circle{{10, 1 + 1e-9}, 1}}};
  EXPECT_FALSE(ValidateShot(kBullet, level, clear).has_value());

  const Shot thick{{0, 0}, {40, 0}, 0.5};
  const ShotTarget box[] = {{.id = 2, .hitbox = Box({10, 1.5}, {1, 1})}};
  const std::optional<ShotHit> graze = ValidateShot(thick, level, box);
  ASSERT_TRUE(graze.has_value());
  EXPECT_EQ(graze->id, 2u);
  EXPECT_NEAR(graze->hit.fraction, 9.0 / 40.0, 1e-9);
  const ShotTarget box_clear[] = {
      {.id = 2, .hitbox = Box({10, 1.5001}, {1, 1})}};
  EXPECT_FALSE(ValidateShot(thick, level, box_clear).has_value());
}

TEST(ValidateShotTest, TargetCrossingThePathIsHitOnlyWhenTheyMeet) {
  const Level level = MakeLevel({});
  // The bullet is at x = 20 at fraction 0.5. A target crossing x = 20 going
  // up, on the path (y = 0) at fraction 0.2, 0.5 or 0.8 of the tick.
  const auto crossing_at = [](double fraction) {
    // Moves 20 units up during the tick; at y = 0 at `fraction`.
    return ShotTarget{.id = 1,
                      .hitbox = Circle{{20, -20 * fraction}, 0.5},
                      .translation = {0, 20}};
  };
  for (const double fraction : {0.2, 0.8}) {
    SCOPED_TRACE(absl::StrCat("crosses at ", fraction));
    const ShotTarget targets[] = {crossing_at(fraction)};
    EXPECT_FALSE(ValidateShot(kBullet, level, targets).has_value());
    // The path and the target's swept region do cross: a static test over
    // the whole tick would call it a hit.
    const std::optional<Hit> swept =
        CastRay(RayInput{kBullet.origin, kBullet.translation},
                Capsule{{20, -20 * fraction}, {20, 20 - 20 * fraction}, 0.5});
    EXPECT_TRUE(swept.has_value());
  }
  const ShotTarget meets[] = {crossing_at(0.5)};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, meets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
  // Bullet at x = 40 t, target centre at (20, 20 t - 10): they first touch
  // when |(40 t - 20, 10 - 20 t)| = 0.5.
  const double a = 40 * 40 + 20 * 20;
  const double b = -2 * (40 * 20 + 20 * 10);
  const double c = 20 * 20 + 10 * 10 - 0.25;
  const double t = (-b - std::sqrt(b * b - 4 * a * c)) / (2 * a);
  EXPECT_NEAR(hit->hit.fraction, t, 1e-12);
  // The point is on the target where it is at that fraction.
  const Vec2 center{20, 20 * t - 10};
  EXPECT_NEAR(Length(hit->hit.point - center), 0.5, 1e-9);
  EXPECT_VEC2_NEAR(hit->hit.point, Vec2(40 * t, 0), 1e-9);
}

TEST(ValidateShotTest, ShotStartingInsideAHitboxHitsItAtFractionZero) {
  const Level level = WallLevel();
  const ShotTarget targets[] = {{.id = 6, .hitbox = Circle{{0.2, 0}, 1}}};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->id, 6u);
  EXPECT_EQ(hit->hit.fraction, 0.0);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
}

TEST(ValidateShotTest, ShotFromInsideAWallIsStoppedByIt) {
  const Level level =
      MakeLevel({{.id = 4, .geometry = BoxDesc{{0, 0}, {1, 1}, 0.0}}});
  const ShotTarget targets[] = {{.id = 1, .hitbox = Circle{{10, 0}, 1}}};
  const std::optional<ShotHit> hit = ValidateShot(kBullet, level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kWall);
  EXPECT_EQ(hit->hit.fraction, 0.0);
}

TEST(ValidateShotTest, FilterLetsTheShotThroughIgnoredWalls) {
  const Level level = WallLevel();
  const uint64_t ignore[] = {9};
  const ShotTarget targets[] = {{.id = 3, .hitbox = Circle{{30, 0}, 1}}};
  const std::optional<ShotHit> hit =
      ValidateShot(kBullet, level, targets, {.ignore_ids = ignore});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
}

TEST(ValidateShotTest, MissWithNoTargetsAndNoWalls) {
  const Level level = MakeLevel({});
  EXPECT_FALSE(ValidateShot(kBullet, level, {}).has_value());
  EXPECT_FALSE(ValidateShot({{0, 0}, {0, 0}, 0.0}, level, {}).has_value());
}

// --- Randomized: against a brute-force loop over every shape and target.

bool Same(const std::optional<ShotHit>& a, const std::optional<ShotHit>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a ||
         (a->kind == b->kind && a->id == b->id &&
          a->user_data == b->user_data && a->target_index == b->target_index &&
          a->hit.fraction == b->hit.fraction && a->hit.point == b->hit.point &&
          a->hit.normal == b->hit.normal && a->hit.status == b->hit.status &&
          a->hit.feature.type == b->hit.feature.type &&
          a->hit.feature.index == b->hit.feature.index);
}

TEST(ValidateShotPropertyTest, RandomShotsAgreeWithBruteForce) {
  const Scene scene{.seed = 33, .shape_count = 120, .world = 80.0};
  const RandomLevel random = MakeRandomLevel(scene);
  const Level level = *Level::Create(random.shapes);
  SplitMix64 rng(4242);
  int kinds[3] = {0, 0, 0};  // miss, wall, target
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE(absl::StrCat("shot ", i));
    const Vec2 origin = testing::RandomPoint(rng, {0, 0}, {80, 80});
    const Shot shot{origin,
                    testing::RandomDirection(rng, rng.Uniform(1.0, 60.0)),
                    rng.Chance(0.5) ? 0.0 : rng.Uniform(0.05, 0.5)};
    std::vector<ShotTarget> targets;
    const int n = rng.Below(12);
    for (int k = 0; k < n; ++k) {
      // Targets near the line of fire, moving up to 8 units in the tick.
      const Vec2 on_line = origin + rng.Uniform(0.0, 1.0) * shot.translation +
                           testing::RandomDirection(rng, rng.Uniform(0.0, 4.0));
      const double size = rng.Uniform(0.2, 1.5);
      BodyShape hitbox;
      switch (rng.Below(3)) {
        case 0:
          hitbox = Circle{on_line, size};
          break;
        case 1:
          hitbox = Capsule{on_line, on_line + Vec2{0, size * 2}, size * 0.4};
          break;
        default:
          hitbox = *MakeBox(on_line, {size, size * 0.7}, rng.Uniform(0, 6.3));
          break;
      }
      targets.push_back({.id = static_cast<uint64_t>(rng.Below(6)),
                         .hitbox = hitbox,
                         .translation = testing::RandomDirection(
                             rng, rng.Uniform(0.0, 8.0))});
    }
    const std::optional<ShotHit> got = ValidateShot(shot, level, targets);
    const std::optional<ShotHit> want = BruteShot(shot, level, targets, {});
    EXPECT_TRUE(Same(got, want))
        << "got " << (got ? static_cast<int>(got->kind) : -1) << " id "
        << (got ? got->id : 0) << " want "
        << (want ? static_cast<int>(want->kind) : -1) << " id "
        << (want ? want->id : 0);
    ++kinds[!got ? 0 : got->kind == ShotHitKind::kWall ? 1 : 2];
  }
  EXPECT_GT(kinds[0], 50);
  EXPECT_GT(kinds[1], 200);
  EXPECT_GT(kinds[2], 200);
}

}  // namespace
}  // namespace collide
