// The skin (target_distance) boundary of the per-shape casts: a mover
// stopped at the skin distance and then moving in again must be met at
// once, whichever formula measures its gap (collide-and-slide stops every
// step at the skin and turns, and a miss there would let a slide run into a
// shape it had just touched).
#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "random_level.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::SplitMix64;

TEST(ToiSkinTest, CapsuleAtTheSkinOfACircleMovingInIsHitAtOnce) {
  // The case the slide found: the capsule's gap to the circle is the skin
  // plus 4e-17 by the nearest-point distance and the skin minus 1e-16 by
  // the distance to the capsule's side line, and the cast missed.
  const Vec2 offset{0.27841416684615361, -1.8055765558364869};
  const Capsule capsule{
      {28.440459182174507 + offset.x, 21.367593154199625 + offset.y},
      {29.275877862214028 + offset.x, 22.817386488415163 + offset.y},
      0.50198033573092282};
  const Circle circle{{29.661988941702692, 19.598562529379734},
                      0.25965633369151309};
  const Vec2 translation{0.22803601304888887, -0.31971171338452864};
  const double skin = 0.037274035476771952;
  const std::optional<Hit> hit = CastCapsule(CapsuleCast{capsule, translation},
                                             circle, {.target_distance = skin});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->fraction, 0.0);
  EXPECT_EQ(hit->status, HitStatus::kHit);
}

std::optional<Hit> CastAny(const CapsuleCast& c, const auto& o,
                           const CastOptions& options) {
  return CastCapsule(c, o, options);
}
std::optional<Hit> CastAny(const PolygonCast& c, const auto& o,
                           const CastOptions& options) {
  return CastPolygon(c, o, options);
}

ConvexPolygon RandomPolygon(SplitMix64& rng, Vec2 at) {
  const int n = 3 + rng.Below(6);
  const double size = rng.Uniform(0.2, 2.0);
  const double turn = rng.Uniform(0.0, 6.3);
  Vec2 v[kMaxPolygonVertices];
  for (int k = 0; k < n; ++k) {
    const double a = turn + 2.0 * 3.141592653589793 * k / n;
    v[k] = at + Vec2{size * std::cos(a), size * std::sin(a)};
  }
  return *MakeConvexPolygon(absl::MakeConstSpan(v, static_cast<size_t>(n)));
}

// Cast towards the obstacle with the skin, move to the safe position, and
// cast again in a direction that closes in (dot with the contact normal
// below -0.2): a hit at (about) fraction 0, never a miss.
template <typename Cast, typename Obstacle, typename Moved>
void ExpectStopAndGoIsHit(const Cast& cast, const Obstacle& obstacle,
                          double skin, Vec2 again, Moved moved) {
  const std::optional<Hit> first =
      CastAny(cast, obstacle, {.target_distance = skin});
  if (!first || first->status != HitStatus::kHit || first->fraction == 0.0) {
    return;
  }
  if (Dot(Normalize(again), first->normal) > -0.2) return;
  const Cast stopped = moved(cast, first->fraction * cast.translation, again);
  const std::optional<Hit> second =
      CastAny(stopped, obstacle, {.target_distance = skin});
  ASSERT_TRUE(second.has_value());
  EXPECT_LE(second->fraction, 1e-9);
}

CapsuleCast MoveCapsule(const CapsuleCast& c, Vec2 by, Vec2 translation) {
  return {{c.capsule.p1 + by, c.capsule.p2 + by, c.capsule.radius},
          translation};
}
PolygonCast MovePolygon(const PolygonCast& c, Vec2 by, Vec2 translation) {
  PolygonCast moved = c;
  for (int i = 0; i < c.polygon.count; ++i) {
    moved.polygon.vertices[i] = c.polygon.vertices[i] + by;
  }
  moved.translation = translation;
  return moved;
}

TEST(ToiSkinTest, StoppedAtTheSkinAndMovingInAgainIsHitAtOnce) {
  SplitMix64 rng(77);
  for (int i = 0; i < 4000; ++i) {
    SCOPED_TRACE(absl::StrCat("case ", i));
    const Vec2 at = testing::RandomPoint(rng, {-20, -20}, {20, 20});
    const Vec2 target = at + testing::RandomDirection(rng, rng.Uniform(2, 6));
    const double skin = std::pow(10.0, rng.Uniform(-8.0, -1.0));
    const Vec2 towards = (target - at) + testing::RandomDirection(rng, 1.0);
    const Vec2 again = testing::RandomDirection(rng, rng.Uniform(0.5, 3.0));
    const CapsuleCast capsule{
        {at, at + testing::RandomDirection(rng, rng.Uniform(0, 2)),
         rng.Uniform(0.05, 1.0)},
        towards};
    const PolygonCast polygon{RandomPolygon(rng, at), towards};
    const Circle circle{target, rng.Uniform(0.05, 1.5)};
    const Capsule obstacle{target, target + testing::RandomDirection(rng, 2.0),
                           rng.Uniform(0.0, 0.5)};
    const ConvexPolygon box = RandomPolygon(rng, target);
    const Segment segment{target - testing::RandomDirection(rng, 1.5),
                          target + testing::RandomDirection(rng, 1.5)};
    ExpectStopAndGoIsHit(capsule, circle, skin, again, MoveCapsule);
    ExpectStopAndGoIsHit(capsule, obstacle, skin, again, MoveCapsule);
    ExpectStopAndGoIsHit(capsule, box, skin, again, MoveCapsule);
    ExpectStopAndGoIsHit(capsule, segment, skin, again, MoveCapsule);
    ExpectStopAndGoIsHit(polygon, circle, skin, again, MovePolygon);
    ExpectStopAndGoIsHit(polygon, obstacle, skin, again, MovePolygon);
    ExpectStopAndGoIsHit(polygon, box, skin, again, MovePolygon);
    ExpectStopAndGoIsHit(polygon, segment, skin, again, MovePolygon);
  }
}

}  // namespace
}  // namespace collide
