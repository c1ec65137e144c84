// Randomized property tests: the TOI core against the exact oracle
// (exact_oracle.h), one test per pair family.
//
// Each family runs 10,000 random cases from a fixed seed; set the
// environment variable COLLIDE_ORACLE_CASES (e.g. COLLIDE_ORACLE_CASES=1000000)
// to run that many instead. Scales are log-uniform from 1e-3 to 1e6, shapes
// of one case within a factor of 16 of each other, and three cases in ten are
// placed up to 1e6 times their scale away from the origin.
//
// In every case the oracle does not call near-tangent (within 1e-12 of the
// case's length scale of touching, see exact_oracle.h) the core must agree on
// hit or miss; for a hit, |fraction - t*| <= 1e-9; a start overlap is
// fraction 0 with kInitialOverlap and the oracle's depth; a start inside the
// skin moving closer is fraction 0 with kHit. Normals are unit (1e-12),
// face against the relative motion and separate the shapes by the expected
// gap; the contact point is on the obstacle's surface, the mover at the
// target distance from it (1e-9 of the length scale). Each family prints a
// summary line; a disagreement prints the call that reproduces it.
#include "gtest/gtest.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

using M = MoverKind;
using O = ObstacleKind;

void RunPair(const char* name, M mover, O obstacle, bool moving,
             uint64_t seed) {
  RunFamily(FamilySpec{name, mover, obstacle, moving, seed});
}

TEST(ToiOracleTest, RayVsSegment) {
  RunPair("ray vs segment", M::kRay, O::kSegment, false, 0x5e9001);
}
TEST(ToiOracleTest, RayVsCircle) {
  RunPair("ray vs circle", M::kRay, O::kCircle, false, 0x5e9002);
}
TEST(ToiOracleTest, RayVsCapsule) {
  RunPair("ray vs capsule", M::kRay, O::kCapsule, false, 0x5e9003);
}
TEST(ToiOracleTest, RayVsConvexPolygon) {
  RunPair("ray vs convex polygon", M::kRay, O::kPolygon, false, 0x5e9004);
}
TEST(ToiOracleTest, RayVsConcavePolygon) {
  RunPair("ray vs concave polygon", M::kRay, O::kConcave, false, 0x5e9005);
}

TEST(ToiOracleTest, CircleVsPoint) {
  RunPair("circle vs point", M::kCircle, O::kPoint, false, 0x5e9011);
}
TEST(ToiOracleTest, CircleVsSegment) {
  RunPair("circle vs segment", M::kCircle, O::kSegment, false, 0x5e9012);
}
TEST(ToiOracleTest, CircleVsCircle) {
  RunPair("circle vs circle", M::kCircle, O::kCircle, false, 0x5e9013);
}
TEST(ToiOracleTest, CircleVsCapsule) {
  RunPair("circle vs capsule", M::kCircle, O::kCapsule, false, 0x5e9014);
}
TEST(ToiOracleTest, CircleVsConvexPolygon) {
  RunPair("circle vs convex polygon", M::kCircle, O::kPolygon, false, 0x5e9015);
}
TEST(ToiOracleTest, CircleVsConcavePolygon) {
  RunPair("circle vs concave polygon", M::kCircle, O::kConcave, false,
          0x5e9016);
}

TEST(ToiOracleTest, CapsuleVsSegment) {
  RunPair("capsule vs segment", M::kCapsule, O::kSegment, false, 0x5e9022);
}
TEST(ToiOracleTest, CapsuleVsCircle) {
  RunPair("capsule vs circle", M::kCapsule, O::kCircle, false, 0x5e9023);
}
TEST(ToiOracleTest, CapsuleVsCapsule) {
  RunPair("capsule vs capsule", M::kCapsule, O::kCapsule, false, 0x5e9024);
}
TEST(ToiOracleTest, CapsuleVsConvexPolygon) {
  RunPair("capsule vs convex polygon", M::kCapsule, O::kPolygon, false,
          0x5e9025);
}
TEST(ToiOracleTest, CapsuleVsConcavePolygon) {
  RunPair("capsule vs concave polygon", M::kCapsule, O::kConcave, false,
          0x5e9026);
}

TEST(ToiOracleTest, PolygonVsPoint) {
  RunPair("polygon vs point", M::kPolygon, O::kPoint, false, 0x5e9031);
}
TEST(ToiOracleTest, PolygonVsSegment) {
  RunPair("polygon vs segment", M::kPolygon, O::kSegment, false, 0x5e9032);
}
TEST(ToiOracleTest, PolygonVsCircle) {
  RunPair("polygon vs circle", M::kPolygon, O::kCircle, false, 0x5e9033);
}
TEST(ToiOracleTest, PolygonVsCapsule) {
  RunPair("polygon vs capsule", M::kPolygon, O::kCapsule, false, 0x5e9034);
}
TEST(ToiOracleTest, PolygonVsConvexPolygon) {
  RunPair("polygon vs convex polygon", M::kPolygon, O::kPolygon, false,
          0x5e9035);
}
TEST(ToiOracleTest, PolygonVsConcavePolygon) {
  RunPair("polygon vs concave polygon", M::kPolygon, O::kConcave, false,
          0x5e9036);
}

// Moving against moving.
TEST(ToiOracleTest, RayVsMovingConvexPolygon) {
  RunPair("ray vs Moving<ConvexPolygon>", M::kRay, O::kPolygon, true, 0x5e9041);
}
TEST(ToiOracleTest, RayVsMovingCircle) {
  RunPair("ray vs Moving<Circle>", M::kRay, O::kCircle, true, 0x5e9042);
}
TEST(ToiOracleTest, CircleVsMovingCircle) {
  RunPair("circle vs Moving<Circle>", M::kCircle, O::kCircle, true, 0x5e9043);
}
TEST(ToiOracleTest, CircleVsMovingSegment) {
  RunPair("circle vs Moving<Segment>", M::kCircle, O::kSegment, true, 0x5e9044);
}
TEST(ToiOracleTest, CircleVsMovingPoint) {
  RunPair("circle vs Moving<Vec2>", M::kCircle, O::kPoint, true, 0x5e9045);
}
TEST(ToiOracleTest, CapsuleVsMovingCapsule) {
  RunPair("capsule vs Moving<Capsule>", M::kCapsule, O::kCapsule, true,
          0x5e9046);
}
TEST(ToiOracleTest, CapsuleVsMovingConvexPolygon) {
  RunPair("capsule vs Moving<ConvexPolygon>", M::kCapsule, O::kPolygon, true,
          0x5e9047);
}
TEST(ToiOracleTest, PolygonVsMovingConvexPolygon) {
  RunPair("polygon vs Moving<ConvexPolygon>", M::kPolygon, O::kPolygon, true,
          0x5e9048);
}
TEST(ToiOracleTest, PolygonVsMovingConcavePolygon) {
  RunPair("polygon vs Moving<ConcavePolygon>", M::kPolygon, O::kConcave, true,
          0x5e9049);
}
TEST(ToiOracleTest, PolygonVsMovingCircle) {
  RunPair("polygon vs Moving<Circle>", M::kPolygon, O::kCircle, true, 0x5e904a);
}

// A segment whose ends move independently.
TEST(ToiOracleTest, RayVsDeformingSegment) {
  RunDeformingFamily("ray vs DeformingSegment", 0x5e9051);
}

// Exactly touching starts: moving in is an initial overlap, moving away or
// along is not a hit (unless stop_at_penetration).
TEST(ToiOracleTest, TouchingCircleVsSegment) {
  RunTouchingFamily("touching circle vs segment", M::kCircle, O::kSegment,
                    0x70c001);
}
TEST(ToiOracleTest, TouchingCircleVsConvexPolygon) {
  RunTouchingFamily("touching circle vs convex polygon", M::kCircle,
                    O::kPolygon, 0x70c002);
}
TEST(ToiOracleTest, TouchingCapsuleVsSegment) {
  RunTouchingFamily("touching capsule vs segment", M::kCapsule, O::kSegment,
                    0x70c003);
}
TEST(ToiOracleTest, TouchingCapsuleVsConvexPolygon) {
  RunTouchingFamily("touching capsule vs convex polygon", M::kCapsule,
                    O::kPolygon, 0x70c004);
}
TEST(ToiOracleTest, TouchingPolygonVsSegment) {
  RunTouchingFamily("touching polygon vs segment", M::kPolygon, O::kSegment,
                    0x70c005);
}
TEST(ToiOracleTest, TouchingPolygonVsConvexPolygon) {
  RunTouchingFamily("touching polygon vs convex polygon", M::kPolygon,
                    O::kPolygon, 0x70c006);
}

}  // namespace
}  // namespace collide::oracle
