// Sweeps against shapes whose own coordinates span more than 2^110: a vertex
// at -1e6 or 1e9 beside others near 1e42 tilts its edges off the rounded
// ones by ~1e-36, far below a rounding of the coordinates. Each case is
// from the degenerate report (far frames with an offset), with the GMP
// oracle's exact answer; each was a miss where a graze of a vertex is exact.
#include <optional>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

constexpr double kSweepTolerance = 1e-9;

// The ray starts 1e-36 of its length outside edge v2 -> v3 (tilted by the
// -1e6 at v3) and runs nearly along it, through v2 at t = 1/4 exactly,
// where the solid lies on one side of it: a graze of v2. Rounded, the edge
// is exactly parallel to the ray, so it looked as if it did not face it
// (the closed form), and the ray as if it started on the other side of its
// line (the grown segment, behind a skin).
TEST(SpanSweepsTest, RayGrazingAConcaveVertexAlongATiltedEdgeHits) {
  const std::vector<Vec2> vertices{
      {-4.1813897247244918e+42, -9.7565760243571476e+42},
      {-2.7875931498163279e+42, -1000000},
      {-4.1813897247244918e+42, 9.7565760243571476e+42},
      {4.1813897247244918e+42, -1000000}};
  const ConcavePolygon polygon = *MakeConcavePolygon(vertices);
  const RayInput ray{{0, 4.8782880121785738e+42},
                     {-1.6725558898897967e+43, 1.9513152048714295e+43}};
  for (const bool stop : {false, true}) {
    const std::optional<Hit> hit =
        CastRay(ray, polygon, {.stop_at_penetration = stop});
    ASSERT_TRUE(hit) << stop;
    EXPECT_EQ(hit->status, HitStatus::kHit);
    EXPECT_NEAR(hit->fraction, 0.25, kSweepTolerance);
    EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
    EXPECT_EQ(hit->feature.index, 2);
  }
  // Behind the least skin the service takes, the general sweep: the same
  // contact, as far as 1e-60 moves it.
  const std::optional<Hit> skin =
      CastRay(ray, polygon, {.target_distance = 1e-60});
  ASSERT_TRUE(skin);
  EXPECT_NEAR(skin->fraction, 0.25, kSweepTolerance);
  // The edge alone, as a segment with that skin.
  const std::optional<Hit> edge = CastRay(
      ray, Segment{vertices[2], vertices[3]}, {.target_distance = 1e-60});
  ASSERT_TRUE(edge);
  EXPECT_NEAR(edge->fraction, 0.25, kSweepTolerance);
}

// The mover's corner (-8.36e42, -8.08e43) meets the triangle's corner
// (3.35e43, -2.51e43) at t = 5/11, corner to corner, the mover's edge into
// it tilted by its neighbour at x = 1e9: rounded, both of the mover's
// edges there faced away from the motion, so its corner was skipped, and
// the triangle's corner meeting it was dropped as the same contact.
TEST(SpanSweepsTest, CornerGrazingACornerPastATiltedEdgeHits) {
  const ConvexPolygon mover =
      *MakeConvexPolygon({{1.3937965749081639e+43, -9.7565760243571476e+43},
                          {2.2300745198530623e+43, -8.6415387644306165e+43},
                          {1000000000, -6.9689828745408197e+43},
                          {-8.3627794494489837e+42, -8.0840201344673509e+43}});
  const ConvexPolygon triangle =
      *MakeConvexPolygon({{-1.6725558898897967e+43, 4.7389083546877574e+43},
                          {-5.0176676696693902e+43, 2.7875931498163279e+42},
                          {3.3451117797795935e+43, -2.5088338348346951e+43}});
  const std::optional<Hit> hit = CastPolygon(
      {mover, {9.199057394393882e+43, 1.2265409859191843e+44}}, triangle);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 5.0 / 11.0, kSweepTolerance);
}

// The same class between moving shapes: the polygon's corner grazes the
// capsule's, at t = 8/21.
TEST(SpanSweepsTest, MovingCornerGrazingAMovingCapsuleHits) {
  const ConvexPolygon mover =
      *MakeConvexPolygon({{2.6584559915698317e+36, -1.1830129162485751e+38},
                          {1.0633823966279327e+37, -1.0766746765857819e+38},
                          {1000000000, -9.969209968386869e+37},
                          {-7.9753679747094952e+36, -1.1032592365014802e+38}});
  const Moving<Capsule> capsule{
      Capsule{{-1.4621507953634075e+37, 2.6584559915698317e+36},
              {2.6584559915698317e+36, -5.1839891835611719e+37},
              2.6584559915698317e+37},
      {-1.8609191940988822e+37, -2.6584559915698317e+36}};
  const std::optional<Hit> hit = CastPolygon(
      {mover, {6.5132171793460878e+37, 1.089966956543631e+38}}, capsule);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 8.0 / 21.0, kSweepTolerance);
}

// A circle beside a capsule whose axis ends at y = -1e6 next to 7e43, moved
// 7e57 past it: it meets the capsule within 1.4e-14 of the sweep (GMP
// oracle), a contact the grown side's rounded start distance had on the
// wrong side of the axis's line.
TEST(SpanSweepsTest, LongMovePastATiltedCapsuleMeetsItAtOnce) {
  const std::optional<Hit> hit =
      CastCircle({Circle{{0, -6.9689828745408197e+43}, 6.9689828745408197e+42},
                  {-5.5751862996326558e+57, 4.1813897247244918e+57}},
                 Capsule{{-6.9689828745408197e+43, -1000000},
                         {-3.0663524647979607e+43, -2.9269728073071443e+43},
                         6.9689828745408197e+42});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_GT(hit->fraction, 0.0);
  EXPECT_LE(hit->fraction, 1.3999977392653573e-14);
}

}  // namespace
}  // namespace collide
