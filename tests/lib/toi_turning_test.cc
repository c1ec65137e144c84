// Turning pairs on cases with closed-form contact times: the bracket must
// hold the analytic fraction, misses must be misses, and zero angles must
// answer exactly as the translation casts.
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>

#include "collide/toi.h"
#include "collide/turning.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using std::numbers::pi;
using testing::Box;

// The analytic fractions below are computed in double from a few
// functions; the bracket may sit that far from them.
constexpr double kAnalytic = 1e-12;

void ExpectBracketHolds(const TurnResult& r, double expected) {
  EXPECT_EQ(r.status, TurnStatus::kHit);
  EXPECT_LE(r.fraction_lo, r.fraction_hi);
  EXPECT_LE(r.fraction_hi - r.fraction_lo, kTurnBracketWidth);
  EXPECT_LE(r.fraction_lo, expected + kAnalytic);
  EXPECT_GE(r.fraction_hi, expected - kAnalytic);
}

// A blade (segment from the hand at the origin to its tip at (2, 0))
// swinging a quarter turn counter-clockwise meets a circle of radius rho
// centred at polar (r0, theta0) when the blade's angle is
// theta0 - asin(rho / r0).
TEST(CastTurningTest, BladeSwingMeetsCircleAtTheAnalyticAngle) {
  const double r0 = 1.5;
  const double theta0 = pi / 4;
  const double rho = 0.25;
  const Turning<Segment> blade{{{0, 0}, {2, 0}}, {0, 0}, pi / 2, {0, 0}};
  const Turning<Circle> target{
      {{r0 * std::cos(theta0), r0 * std::sin(theta0)}, rho}, {}, 0.0, {}};
  const TurnResult r = CastTurning(blade, target);
  ExpectBracketHolds(r, (theta0 - std::asin(rho / r0)) / (pi / 2));
  EXPECT_NEAR(r.normal.x, std::sin(theta0 - std::asin(rho / r0)), 1e-6);
}

TEST(CastTurningTest, BladeTooShortMisses) {
  const Turning<Segment> blade{{{0, 0}, {1, 0}}, {0, 0}, pi / 2, {0, 0}};
  const Turning<Circle> target{{{1.5, 1.5}, 0.5}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(blade, target).status, TurnStatus::kMiss);
}

// A square of half side 1 spinning in place about its centre reaches a
// wall at x = 1.2 when a corner's x, sqrt(2) cos(theta - pi/4), is 1.2.
TEST(CastTurningTest, SquareSpinningInPlaceMeetsWall) {
  const ConvexPolygon square = Box({0, 0}, {1, 1});
  const Turning<ConvexPolygon> spinner{square, {0, 0}, pi / 2, {0, 0}};
  const Turning<Segment> wall{{{1.2, -5}, {1.2, 5}}, {}, 0.0, {}};
  const double theta = pi / 4 - std::acos(1.2 / std::sqrt(2.0));
  ExpectBracketHolds(CastTurning(spinner, wall), theta / (pi / 2));
}

// The same spin about a pivot far outside the square (a door on a long
// arm), and with both shapes turning: the wall turning the other way
// about the same centre makes the relative turn the sum.
TEST(CastTurningTest, BothTurningAddTheirRelativeRotation) {
  const ConvexPolygon square = Box({0, 0}, {1, 1});
  const Turning<ConvexPolygon> spinner{square, {0, 0}, pi / 4, {0, 0}};
  const Turning<Segment> wall{{{1.2, -5}, {1.2, 5}}, {}, -pi / 4, {0, 0}};
  const double theta = pi / 4 - std::acos(1.2 / std::sqrt(2.0));
  ExpectBracketHolds(CastTurning(spinner, wall), theta / (pi / 2));
}

// A point on an arm of length 3 about the origin crosses the segment
// x = 0 .. 10 at y = 1.5... when 3 sin(theta) = 1.5: theta = pi / 6.
TEST(CastTurningTest, TurningPointCrossesSegment) {
  const Turning<Vec2> tip{{3, 0}, {0, 0}, pi / 2, {0, 0}};
  const Turning<Segment> ledge{{{0, 1.5}, {10, 1.5}}, {}, 0.0, {}};
  ExpectBracketHolds(CastTurning(tip, ledge), (pi / 6) / (pi / 2));
}

TEST(CastTurningTest, FullTurnThatNeverReachesMisses) {
  const Turning<Capsule> arm{{{0, 0}, {2, 0}, 0.1}, {0, 0}, 2 * pi, {0, 0}};
  const Turning<Circle> far{{{0, 3}, 0.5}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(arm, far).status, TurnStatus::kMiss);
}

// A full turn sweeps the whole disc: a target behind the start position
// (at angle 3 pi / 2) is met three quarters of the way round.
TEST(CastTurningTest, FullTurnReachesBehindTheStart) {
  const Turning<Segment> arm{{{0, 0}, {2, 0}}, {0, 0}, 2 * pi, {0, 0}};
  const Turning<Vec2> point{{0, -1}, {}, 0.0, {}};
  // A point crossed by a segment: a contact of measure zero, certified by
  // the crossing.
  ExpectBracketHolds(CastTurning(arm, point), 0.75);
}

TEST(CastTurningTest, OverlapAtStartIsInitialOverlap) {
  const Turning<Circle> a{{{0, 0}, 1}, {1, 0}, 1.0, {0, 0}};
  const Turning<ConvexPolygon> b{Box({1.5, 0}, {1, 1}), {}, 0.0, {}};
  const TurnResult r = CastTurning(a, b);
  EXPECT_EQ(r.status, TurnStatus::kInitialOverlap);
  EXPECT_EQ(r.fraction_lo, 0.0);
}

// Touching at the start: turning into the contact is a hit at 0; turning
// away is not certified as a miss (kNearContact at 0).
TEST(CastTurningTest, TouchingStartTurningInIsAHitAtZero) {
  const Turning<ConvexPolygon> door{Box({2, 0}, {2, 0.125}), {}, 0.5, {0, 0}};
  const Turning<Circle> ball{{{3, 0.625}, 0.5}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(door, ball).status, TurnStatus::kInitialOverlap);
  const Turning<ConvexPolygon> away{Box({2, 0}, {2, 0.125}), {}, -0.5, {0, 0}};
  const TurnResult r = CastTurning(away, ball);
  EXPECT_EQ(r.status, TurnStatus::kNearContact);
  EXPECT_EQ(r.fraction_lo, 0.0);
}

// A box resting exactly on a floor, turning about a pivot below and to
// the right of it: clockwise lifts both bottom corners (a miss: the
// start's first-order motion is decided exactly for shapes without
// radius), counter-clockwise drives the left corner into the floor (a hit
// at 0). Turning about a bottom corner keeps that corner on the floor
// throughout, which is not proved apart (kNearContact at 0).
TEST(CastTurningTest, BoxOnAFloorTurningAwayIsAMissAndIntoItAHit) {
  const ConvexPolygon box = testing::Polygon({{0, 0}, {2, 0}, {2, 1}, {0, 1}});
  const Turning<Segment> floor{{{-5, 0}, {5, 0}}, {}, 0.0, {}};
  const Turning<ConvexPolygon> lift{box, {}, -0.3, {3, -1}};
  EXPECT_EQ(CastTurning(lift, floor).status, TurnStatus::kMiss);
  const Turning<ConvexPolygon> dig{box, {}, 0.3, {3, -1}};
  EXPECT_EQ(CastTurning(dig, floor).status, TurnStatus::kInitialOverlap);
  const Turning<ConvexPolygon> tip{box, {}, 0.5, {0, 0}};
  const TurnResult r = CastTurning(tip, floor);
  EXPECT_EQ(r.status, TurnStatus::kNearContact);
  EXPECT_EQ(r.fraction_lo, 0.0);
}

TEST(CastTurningTest, ContactAfterMaxFractionIsAMiss) {
  const Turning<Vec2> tip{{3, 0}, {0, 0}, pi / 2, {0, 0}};
  const Turning<Segment> ledge{{{0, 1.5}, {10, 1.5}}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(tip, ledge, {.max_fraction = 0.3}).status,
            TurnStatus::kMiss);
  EXPECT_EQ(CastTurning(tip, ledge, {.max_fraction = 0.34}).status,
            TurnStatus::kHit);
}

// Far from the origin the bracket is as tight: poses are computed from the
// mover's pivot.
TEST(CastTurningTest, OffsetByABillionKeepsTheBracket) {
  const Vec2 o{1e9, -1e9};
  const double r0 = 1.5;
  const double theta0 = pi / 4;
  const double rho = 0.25;
  const Turning<Segment> blade{{o, o + Vec2{2, 0}}, {0, 0}, pi / 2, o};
  const Turning<Circle> target{
      {o + Vec2{r0 * std::cos(theta0), r0 * std::sin(theta0)}, rho},
      {},
      0.0,
      {}};
  const TurnResult r = CastTurning(blade, target);
  EXPECT_EQ(r.status, TurnStatus::kHit);
  // The target's centre itself rounds by up to 6e-8 at this offset.
  const double expected = (theta0 - std::asin(rho / r0)) / (pi / 2);
  EXPECT_NEAR(r.fraction_lo, expected, 1e-6);
}

// A blade tip on the circle of radius 5 passes exactly through the
// vertex (4, 3) of a triangle lying outside that circle: an exact touch
// that never goes in. It is not a miss, and nothing is claimed to touch
// before the tip gets there (atan2(3, 4) of the quarter turn).
TEST(CastTurningTest, BladeTipThroughAVertexIsANearContactNotAMiss) {
  const Turning<Segment> blade{{{0, 0}, {5, 0}}, {0, 0}, pi / 2, {0, 0}};
  const Vec2 v{4, 3};
  const Turning<ConvexPolygon> wedge{
      testing::Polygon({v, v + Vec2{1, 7}, v + Vec2{7, -1}}), {}, 0.0, {}};
  const TurnResult r = CastTurning(blade, wedge);
  EXPECT_EQ(r.status, TurnStatus::kNearContact);
  const double touch = std::atan2(3.0, 4.0) / (pi / 2);
  EXPECT_LE(r.fraction_lo, touch + kAnalytic);
  EXPECT_NEAR(r.fraction_lo, touch, 1e-9);
  EXPECT_LE(r.gap_bound, 1e-12);
}

// A circle orbiting a hub at a constant gap over a full turn is a miss,
// even at a gap of 2^-20: the axis between them turns with the orbit, so
// the gap along it does not shrink.
TEST(CastTurningTest, OrbitAtAConstantGapIsAMiss) {
  const Turning<Circle> orbit{{{5, 0}, 1}, {0, 0}, 2 * pi, {0, 0}};
  const Turning<Circle> hub{{{0, 0}, 4 - 0x1p-10}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(orbit, hub).status, TurnStatus::kMiss);
  const Turning<Circle> closer{{{0, 0}, 4 - 0x1p-20}, {}, 0.0, {}};
  EXPECT_EQ(CastTurning(orbit, closer).status, TurnStatus::kMiss);
}

// Swept bounding disks: a spinning box whose disk (radius sqrt 2 about
// its pivot) never comes within reach of a ball is a miss without a
// distance evaluation, and one that travels far before the disks meet
// starts the advancement there, with the same certified bracket.
TEST(CastTurningTest, DisksThatNeverMeetAnswerAMissWithoutEvaluations) {
  const ConvexPolygon square = Box({0, 0}, {1, 1});
  const Turning<ConvexPolygon> spinner{square, {0, 2}, 3 * pi, {0, 0}};
  const Turning<Circle> ball{{{3, 0}, 0.5}, {}, 0.0, {}};
  const TurnResult r = CastTurning(spinner, ball);
  EXPECT_EQ(r.status, TurnStatus::kMiss);
  EXPECT_EQ(r.iterations, 0);
  const Turning<Circle> parting{{{0.5, 0}, 0.5}, {-4, 0}, 1.0, {0, 0}};
  EXPECT_EQ(CastTurning(parting, ball).status, TurnStatus::kMiss);
  EXPECT_EQ(CastTurning(parting, ball).iterations, 0);
}

TEST(CastTurningTest, FarApproachStartsWhereTheDisksMeet) {
  // A circle of radius 0.25 on an arm of length 1 turning a quarter turn
  // clockwise from +y while its pivot slides from x = -100 by 101: its
  // right side is at -100 + 101 t + sin(pi t / 2) + 0.25, which meets the
  // wall at x = 1.25 at the root of 101 t + sin(pi t / 2) = 101 (Newton's
  // method from 1 converges in a few steps).
  const Turning<Circle> arm{{{-100, 1}, 0.25}, {101, 0}, -pi / 2, {-100, 0}};
  const Turning<Segment> wall{{{1.25, -5}, {1.25, 5}}, {}, 0.0, {}};
  double t = 1.0;
  for (int i = 0; i < 8; ++i) {
    t -= (101 * t + std::sin(pi * t / 2) - 101) /
         (101 + pi / 2 * std::cos(pi * t / 2));
  }
  const TurnResult r = CastTurning(arm, wall);
  ExpectBracketHolds(r, t);
  EXPECT_LE(r.iterations, 40);
}

template <typename M, typename T>
void ExpectSameAsTranslation(const Turning<M>& m, const Turning<T>& t,
                             const std::optional<Hit>& translated) {
  const TurnResult r = CastTurning(m, t, {.max_fraction = 0.9});
  ASSERT_EQ(r.status != TurnStatus::kMiss, translated.has_value());
  if (!translated) return;
  EXPECT_EQ(std::memcmp(&r.fraction_lo, &translated->fraction, 8), 0);
  EXPECT_EQ(std::memcmp(&r.point, &translated->point, 16), 0);
  EXPECT_EQ(std::memcmp(&r.normal, &translated->normal, 16), 0);
  EXPECT_EQ(r.iterations, 0);
}

TEST(CastTurningTest, ZeroAnglesAnswerAsTheTranslationCasts) {
  const CastOptions o{.max_fraction = 0.9};
  const ConvexPolygon box = Box({5, 0.3}, {1, 2}, 0.2);
  const Capsule capsule{{0, 0}, {0.5, 1}, 0.25};
  const Circle circle{{0.1, -0.2}, 0.75};
  const Vec2 along{9, 0.7};
  const Vec2 back{-1, 0.1};
  ExpectSameAsTranslation(
      Turning<Circle>{circle, along, 0.0, {3, 3}},
      Turning<ConvexPolygon>{box, back, 0.0, {}},
      CastCircle({circle, along}, Moving<ConvexPolygon>{box, back}, o));
  ExpectSameAsTranslation(
      Turning<Capsule>{capsule, along, 0.0, {}},
      Turning<ConvexPolygon>{box, back, 0.0, {}},
      CastCapsule({capsule, along}, Moving<ConvexPolygon>{box, back}, o));
  ExpectSameAsTranslation(
      Turning<ConvexPolygon>{Box({0, 0}, {0.5, 0.5}), along, 0.0, {}},
      Turning<Circle>{{{5, 1}, 0.5}, back, 0.0, {}},
      CastPolygon({Box({0, 0}, {0.5, 0.5}), along},
                  Moving<Circle>{{{5, 1}, 0.5}, back}, o));
  ExpectSameAsTranslation(
      Turning<Vec2>{{0, 0.3}, along, 0.0, {}},
      Turning<ConvexPolygon>{box, back, 0.0, {}},
      CastRay({{0, 0.3}, along}, Moving<ConvexPolygon>{box, back}, o));
  ExpectSameAsTranslation(Turning<Segment>{{{0, 0}, {0, 1}}, along, 0.0, {}},
                          Turning<Vec2>{{5, 0.6}, back, 0.0, {}},
                          CastCapsule({{{0, 0}, {0, 1}, 0.0}, along},
                                      Moving<Vec2>{{5, 0.6}, back}, o));
}

}  // namespace
}  // namespace collide
