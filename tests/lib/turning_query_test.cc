// World casts of turning shapes: against a brute force over every shape's
// pair cast (turning.h), zero angles against the translating world casts
// bit for bit, and a sword swing with a known answer.
#include "collide/turning_query.h"

#include <cstdint>
#include <cstring>
#include <numbers>
#include <optional>
#include <vector>

#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/turning.h"
#include "gtest/gtest.h"
#include "random_level.h"
#include "test_shapes.h"
#include "tests/support/splitmix64.h"

namespace collide {
namespace {

using std::numbers::pi;
using testing::Box;
using testing::MakeRandomLevel;
using testing::RandomLevel;
using testing::Scene;
using testing::SplitMix64;

template <typename T>
Turning<T> Still(const T& shape) {
  return {shape, Vec2{}, 0.0, Vec2{}};
}

struct Best {
  bool found = false;
  TurnResult result;
  uint64_t id = 0;
  int32_t part = 0;
};

bool RanksBefore(const TurnResult& r, uint64_t id, int32_t part,
                 const Best& b) {
  if (!b.found) return true;
  if (r.fraction_lo != b.result.fraction_lo) {
    return r.fraction_lo < b.result.fraction_lo;
  }
  const bool ro = r.status == TurnStatus::kInitialOverlap;
  const bool bo = b.result.status == TurnStatus::kInitialOverlap;
  if (ro != bo) return ro;
  if (id != b.id) return id < b.id;
  return part < b.part;
}

Vec2 Reference(Circle c) { return c.center; }
Vec2 Reference(const Capsule& c) { return c.p1; }
Vec2 Reference(const ConvexPolygon& p) { return p.vertices[0]; }

// Every shape passing `mask`, each part cast with the pair function.
template <typename Shape>
Best BruteForce(const Turning<Shape>& mover, const Level& level, uint64_t mask,
                const TurnOptions& options) {
  Best best;
  const auto offer = [&](const TurnResult& r, uint64_t id, int32_t part) {
    if (r.status == TurnStatus::kMiss) return;
    if (RanksBefore(r, id, part, best)) best = {true, r, id, part};
  };
  for (int s = 0; s < level.shape_count(); ++s) {
    if ((level.category_bits(s) & mask) == 0) continue;
    const uint64_t id = level.id(s);
    switch (level.kind(s)) {
      case ShapeKind::kSegment:
        offer(CastTurning(mover, Still(level.segment(s)), options), id, 0);
        break;
      case ShapeKind::kCircle:
        offer(CastTurning(mover, Still(level.circle(s)), options), id, 0);
        break;
      case ShapeKind::kCapsule:
        offer(CastTurning(mover, Still(level.capsule(s)), options), id, 0);
        break;
      case ShapeKind::kConvexPolygon:
        offer(CastTurning(mover, Still(level.convex_polygon(s)), options), id,
              0);
        break;
      case ShapeKind::kPolyline: {
        const PolylineDesc line = level.polyline(s);
        const int n = static_cast<int>(line.vertices.size());
        const int segments = line.closed ? n : n - 1;
        for (int i = 0; i < segments; ++i) {
          const Segment seg{line.vertices[i], line.vertices[(i + 1) % n]};
          offer(CastTurning(mover, Still(seg), options), id, i);
        }
        break;
      }
      case ShapeKind::kConcavePolygon: {
        const ConcavePolygon poly = level.concave_polygon(s);
        const int n = static_cast<int>(poly.vertices.size());
        for (int i = 0; i < n; ++i) {
          const Segment seg{poly.vertices[i], poly.vertices[(i + 1) % n]};
          offer(CastTurning(mover, Still(seg), options), id, i);
        }
        if (ContainsPoint(poly, Reference(mover.shape))) {
          TurnResult inside;
          inside.status = TurnStatus::kInitialOverlap;
          offer(inside, id, -1);
        }
        break;
      }
    }
  }
  return best;
}

template <typename Shape>
void ExpectMatchesBruteForce(const Turning<Shape>& mover, const Level& level,
                             uint64_t mask, const TurnOptions& options) {
  const Best expected = BruteForce(mover, level, mask, options);
  const std::optional<WorldTurnHit> got = CastTurning(
      mover, level, QueryFilter{.mask_bits = mask, .ignore_ids = {}}, options);
  ASSERT_EQ(got.has_value(), expected.found);
  if (!got) return;
  EXPECT_EQ(got->hit.shape_id, expected.id);
  EXPECT_EQ(got->bracket.status, expected.result.status);
  EXPECT_EQ(got->hit.hit.fraction, expected.result.fraction_lo);
  EXPECT_EQ(got->bracket.fraction_hi, expected.result.fraction_hi);
}

Turning<Capsule> RandomBlade(SplitMix64& rng, double world) {
  const Vec2 hand{rng.Uniform(0.0, world), rng.Uniform(0.0, world)};
  const double length = rng.Uniform(1.0, 6.0);
  const double heading = rng.Uniform(0.0, 2 * pi);
  const Capsule blade{
      hand, hand + length * Vec2{std::cos(heading), std::sin(heading)},
      rng.Chance(0.2) ? 0.0 : rng.Uniform(0.05, 0.4)};
  const Vec2 step{rng.Uniform(-8.0, 8.0), rng.Uniform(-8.0, 8.0)};
  return {blade, step, rng.Uniform(-2 * pi, 2 * pi), hand};
}

Turning<ConvexPolygon> RandomSpinner(SplitMix64& rng, double world) {
  ConvexPolygon poly = testing::RandomConvexPolygon(rng);
  const Vec2 shift =
      Vec2{rng.Uniform(0.0, world), rng.Uniform(0.0, world)} - poly.vertices[0];
  for (int i = 0; i < poly.count; ++i)
    poly.vertices[i] = poly.vertices[i] + shift;
  const Vec2 pivot = testing::VertexMean(poly) +
                     Vec2{rng.Uniform(-2.0, 2.0), rng.Uniform(-2.0, 2.0)};
  const Vec2 step{rng.Uniform(-8.0, 8.0), rng.Uniform(-8.0, 8.0)};
  return {poly, step, rng.Uniform(-pi, pi), pivot};
}

TEST(CastTurningWorldTest, RandomLevelsMatchBruteForce) {
  for (const Scene& scene :
       {Scene{.seed = 31, .shape_count = 150, .world = 60.0, .size = 3.0},
        Scene{.seed = 32,
        .shape_count = 120,
        .world = 60.0,
        .size = 3.0,
        .huge_share = 0.05}}) {
    const RandomLevel random = MakeRandomLevel(scene);
    absl::StatusOr<Level> level = Level::Create(random.shapes);
    ASSERT_TRUE(level.ok()) << level.status();
    SplitMix64 rng(scene.seed * 977);
    for (int q = 0; q < 60; ++q) {
      const uint64_t mask = rng.Chance(0.3) ? 0x5 : ~uint64_t{0};
      const TurnOptions options{.max_fraction = rng.Chance(0.2) ? 0.5 : 1.0};
      ExpectMatchesBruteForce(RandomBlade(rng, scene.world), *level, mask,
                              options);
      ExpectMatchesBruteForce(RandomSpinner(rng, scene.world), *level, mask,
                              options);
      const Turning<Circle> ball{
          {{rng.Uniform(0.0, scene.world), rng.Uniform(0.0, scene.world)},
           rng.Uniform(0.1, 1.0)},
          {rng.Uniform(-8.0, 8.0), rng.Uniform(-8.0, 8.0)},
          rng.Uniform(-pi, pi),
          {rng.Uniform(0.0, scene.world), rng.Uniform(0.0, scene.world)}};
      ExpectMatchesBruteForce(ball, *level, mask, options);
    }
  }
}

// A blade turning in place about one end of its axis: the broad phase
// keeps only the sector it sweeps, and casts by stages of the turn.
Turning<Capsule> RandomSwingInPlace(SplitMix64& rng, double world) {
  Turning<Capsule> blade = RandomBlade(rng, world);
  blade.translation = Vec2{};
  if (rng.Chance(0.3)) blade.pivot = blade.shape.p2;
  constexpr double kTurns[] = {0.3, 1.5, 3.0, 4.5, 6.0, 12.0};
  blade.angle = (rng.Chance(0.5) ? -1.0 : 1.0) *
                kTurns[rng.Below(std::size(kTurns))] * rng.Uniform(0.8, 1.2);
  return blade;
}

TEST(CastTurningWorldTest, BladesSwingingInPlaceMatchBruteForce) {
  for (const Scene& scene :
       {Scene{.seed = 33, .shape_count = 400, .world = 40.0, .size = 3.0},
        Scene{.seed = 34,
        .shape_count = 150,
        .world = 40.0,
        .size = 3.0,
        .huge_share = 0.05}}) {
    const RandomLevel random = MakeRandomLevel(scene);
    absl::StatusOr<Level> level = Level::Create(random.shapes);
    ASSERT_TRUE(level.ok()) << level.status();
    SplitMix64 rng(scene.seed * 131);
    for (int q = 0; q < 150; ++q) {
      const uint64_t mask = rng.Chance(0.3) ? 0x5 : ~uint64_t{0};
      const TurnOptions options{.max_fraction = rng.Chance(0.2) ? 0.5 : 1.0};
      const Turning<Capsule> blade = RandomSwingInPlace(rng, scene.world);
      ExpectMatchesBruteForce(blade, *level, mask, options);
      // Every single-primitive shape the brute force finds in contact is
      // in the full list, and no other.
      const auto single = [&](int s) {
        const ShapeKind kind = level->kind(s);
        return kind == ShapeKind::kSegment || kind == ShapeKind::kCircle ||
               kind == ShapeKind::kCapsule || kind == ShapeKind::kConvexPolygon;
      };
      int expected = 0;
      for (int s = 0; s < level->shape_count(); ++s) {
        if ((level->category_bits(s) & mask) == 0 || !single(s)) continue;
        TurnResult r;
        switch (level->kind(s)) {
          case ShapeKind::kSegment:
            r = CastTurning(blade, Still(level->segment(s)), options);
            break;
          case ShapeKind::kCircle:
            r = CastTurning(blade, Still(level->circle(s)), options);
            break;
          case ShapeKind::kCapsule:
            r = CastTurning(blade, Still(level->capsule(s)), options);
            break;
          default:
            r = CastTurning(blade, Still(level->convex_polygon(s)), options);
            break;
        }
        if (r.status != TurnStatus::kMiss) ++expected;
      }
      WorldHit hits[256];
      TurnBracket brackets[256];
      const ListResult all = CastTurningAll(
          blade, *level, hits, brackets,
          QueryFilter{.mask_bits = mask, .ignore_ids = {}}, options);
      ASSERT_FALSE(all.truncated);
      int listed = 0;
      for (int i = 0; i < all.count; ++i) {
        const std::optional<int> s = level->FindShape(hits[i].shape_id);
        ASSERT_TRUE(s.has_value());
        if (single(*s)) ++listed;
      }
      EXPECT_EQ(listed, expected);
    }
  }
}

bool SameBits(const WorldHit& a, const WorldHit& b) {
  return std::memcmp(&a.hit.fraction, &b.hit.fraction, sizeof(double)) == 0 &&
         a.hit.point == b.hit.point && a.hit.normal == b.hit.normal &&
         a.hit.depth == b.hit.depth && a.hit.status == b.hit.status &&
         a.hit.feature.type == b.hit.feature.type &&
         a.hit.feature.index == b.hit.feature.index &&
         a.shape_id == b.shape_id && a.user_data == b.user_data;
}

TEST(CastTurningWorldTest, ZeroAngleIsTheTranslatingCastBitForBit) {
  const Scene scene{.seed = 33, .shape_count = 200, .world = 60.0, .size = 3.0};
  const RandomLevel random = MakeRandomLevel(scene);
  absl::StatusOr<Level> level = Level::Create(random.shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  SplitMix64 rng(7);
  for (int q = 0; q < 100; ++q) {
    Turning<Capsule> blade = RandomBlade(rng, scene.world);
    blade.angle = 0.0;
    const std::optional<WorldHit> translating =
        CastCapsule(CapsuleCast{blade.shape, blade.translation}, *level);
    const std::optional<WorldTurnHit> turning = CastTurning(blade, *level);
    ASSERT_EQ(translating.has_value(), turning.has_value());
    if (translating) {
      EXPECT_TRUE(SameBits(*translating, turning->hit));
      EXPECT_EQ(turning->bracket.fraction_hi, translating->hit.fraction);
    }
    WorldHit all_translating[8];
    WorldHit all_turning[8];
    TurnBracket brackets[8];
    const ListResult a = CastCapsuleAll(
        CapsuleCast{blade.shape, blade.translation}, *level, all_translating);
    const ListResult b = CastTurningAll(blade, *level, all_turning, brackets);
    ASSERT_EQ(a.count, b.count);
    EXPECT_EQ(a.truncated, b.truncated);
    for (int i = 0; i < a.count; ++i) {
      EXPECT_TRUE(SameBits(all_translating[i], all_turning[i]));
    }
  }
}

// A sword (capsule from the hand at the origin, 2 long, radius 0.1)
// swinging a half turn counter-clockwise from pointing along +x. Target A
// (circle at polar (1.5, 60 deg)) is met before target B (at 120 deg); a
// wall (segment) at polar 90 deg between them stops the swing before B.
struct SwingLevel {
  std::vector<ShapeDesc> shapes;
  Turning<Capsule> sword{{{0, 0}, {2, 0}, 0.1}, {0, 0}, pi, {0, 0}};
};

SwingLevel MakeSwingLevel() {
  SwingLevel s;
  const auto polar = [](double r, double deg) {
    return Vec2{r * std::cos(deg * pi / 180), r * std::sin(deg * pi / 180)};
  };
  s.shapes.push_back({.id = 1,
                      .user_data = 11,
                      .geometry = Segment{polar(1.0, 90), polar(3.0, 90)}});
  s.shapes.push_back({.id = 2,
                      .category_bits = 2,
                      .user_data = 22,
                      .geometry = Circle{polar(1.5, 60), 0.25}});
  s.shapes.push_back({.id = 3,
                      .category_bits = 2,
                      .user_data = 33,
                      .geometry = Circle{polar(1.5, 120), 0.25}});
  return s;
}

// The sword's axis meets a disc of radius rho + 0.1 about polar (r0, th0)
// at angle th0 - asin((rho + 0.1) / r0): as a share of the half turn.
double SwingContact(double th0_deg, double r0, double rho) {
  return (th0_deg * pi / 180 - std::asin((rho + 0.1) / r0)) / pi;
}

TEST(CastTurningWorldTest, SwordSwingMeetsTheNearerTargetFirst) {
  const SwingLevel s = MakeSwingLevel();
  absl::StatusOr<Level> level = Level::Create(s.shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  const std::optional<WorldTurnHit> hit = CastTurning(s.sword, *level);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->hit.shape_id, 2u);
  EXPECT_EQ(hit->hit.user_data, 22u);
  EXPECT_EQ(hit->bracket.status, TurnStatus::kHit);
  const double expected = SwingContact(60, 1.5, 0.25);
  EXPECT_LE(hit->hit.hit.fraction, expected + 1e-12);
  EXPECT_GE(hit->bracket.fraction_hi, expected - 1e-12);
  EXPECT_LE(hit->bracket.fraction_hi - hit->hit.hit.fraction,
            kTurnBracketWidth);
}

TEST(CastTurningWorldTest, AllHitsListTargetsAndWallInOrder) {
  const SwingLevel s = MakeSwingLevel();
  absl::StatusOr<Level> level = Level::Create(s.shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  WorldHit hits[4];
  TurnBracket brackets[4];
  const ListResult all = CastTurningAll(s.sword, *level, hits, brackets);
  ASSERT_EQ(all.count, 3);
  EXPECT_FALSE(all.truncated);
  EXPECT_EQ(hits[0].shape_id, 2u);
  EXPECT_EQ(hits[1].shape_id, 1u);
  EXPECT_EQ(hits[2].shape_id, 3u);
  EXPECT_EQ(hits[2].user_data, 33u);
  // The wall's segment: the sword's rim (radius 0.1) reaches it at
  // 90 deg - asin(0.1 / 1) (its nearest end at distance 1).
  EXPECT_NEAR(hits[1].hit.fraction, (pi / 2 - std::asin(0.1)) / pi, 1e-9);
  // Truncated to one: the earliest.
  const ListResult one = CastTurningAll(
      s.sword, *level, absl::MakeSpan(hits, 1), absl::MakeSpan(brackets, 1));
  EXPECT_EQ(one.count, 1);
  EXPECT_TRUE(one.truncated);
  EXPECT_EQ(hits[0].shape_id, 2u);
}

TEST(CastTurningWorldTest, FilterAndMaxFractionApply) {
  const SwingLevel s = MakeSwingLevel();
  absl::StatusOr<Level> level = Level::Create(s.shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  // Walls only (category 1): the wall.
  std::optional<WorldTurnHit> hit =
      CastTurning(s.sword, *level, {.mask_bits = 1, .ignore_ids = {}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->hit.shape_id, 1u);
  // Ignoring target 2 and the wall: target 3.
  const uint64_t ignored[] = {1, 2};
  hit = CastTurning(s.sword, *level,
                    {.mask_bits = ~uint64_t{0}, .ignore_ids = ignored});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->hit.shape_id, 3u);
  EXPECT_NEAR(hit->hit.hit.fraction, SwingContact(120, 1.5, 0.25), 1e-9);
  // A swing of a sixth of the half turn (30 deg) reaches nothing.
  EXPECT_FALSE(
      CastTurning(s.sword, *level, {}, {.max_fraction = 1.0 / 6}).has_value());
  // The other way round (clockwise) nothing is in reach within a half turn.
  Turning<Capsule> back = s.sword;
  back.angle = -pi / 2;
  EXPECT_FALSE(CastTurning(back, *level).has_value());
}

TEST(CastTurningWorldTest, StartingInsideAConcavePolygonIsAnInitialOverlap) {
  const std::vector<Vec2> u = {{0, 0}, {10, 0}, {10, 10}, {7, 10},
                               {7, 3}, {3, 3},  {3, 10},  {0, 10}};
  std::vector<ShapeDesc> shapes = {{.id = 5, .geometry = PolygonDesc{u}}};
  absl::StatusOr<Level> level = Level::Create(shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  // A small box in the U's bottom bar, spinning without reaching an edge.
  const Turning<ConvexPolygon> spinner{
      Box({5, 1.5}, {0.2, 0.2}), {0, 0}, pi, {5, 1.5}};
  const std::optional<WorldTurnHit> hit = CastTurning(spinner, *level);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->hit.shape_id, 5u);
  EXPECT_EQ(hit->bracket.status, TurnStatus::kInitialOverlap);
  EXPECT_EQ(hit->hit.hit.fraction, 0.0);
  // A blade swinging in the U's gap from above meets the inner wall.
  const Turning<Capsule> blade{{{5, 9}, {5, 6}, 0.0}, {0, 0}, pi / 2, {5, 9}};
  const std::optional<WorldTurnHit> wall = CastTurning(blade, *level);
  ASSERT_TRUE(wall.has_value());
  EXPECT_EQ(wall->bracket.status, TurnStatus::kHit);
  // The tip (3 from the pivot) reaches x = 7 (2 right of it) at asin(2/3).
  EXPECT_NEAR(wall->hit.hit.fraction, std::asin(2.0 / 3.0) / (pi / 2), 1e-9);
}

}  // namespace
}  // namespace collide
