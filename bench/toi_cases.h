// Deterministic random inputs for the TOI benchmark: for each pair, a fixed
// set of casts (a mover, its translation, an obstacle) in a world of about
// [0, 100]^2, with shapes of size ~1-5 and translations of length 1-20,
// aimed so that roughly half of them hit. collide types only; the Box2D
// twins are made from these in box2d_adapters.h.
#ifndef COLLIDE_BENCH_TOI_CASES_H_
#define COLLIDE_BENCH_TOI_CASES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "tests/support/splitmix64.h"

namespace collide_bench {

// Number of cases per pair; a power of two so the timed loop cycles with a
// mask.
inline constexpr std::size_t kCaseCount = 4096;

using collide::testing::SplitMix64;  // the scenes' generator

// A concave obstacle: owns its vertices; polygon is a view into them. The
// view points at the vector's heap buffer, so moving a ConcaveShape keeps it
// valid; copying would not, hence move-only.
struct ConcaveShape {
  ConcaveShape() = default;
  ConcaveShape(ConcaveShape&&) noexcept = default;
  ConcaveShape& operator=(ConcaveShape&&) noexcept = default;
  ConcaveShape(const ConcaveShape&) = delete;
  ConcaveShape& operator=(const ConcaveShape&) = delete;

  std::vector<collide::Vec2> vertices;  // counter-clockwise, star-shaped
  collide::ConcavePolygon polygon;
};

// One cast: Mover is RayInput, CircleCast, CapsuleCast or PolygonCast;
// Obstacle is Vec2, Segment, Circle, Capsule, ConvexPolygon, ConcaveShape,
// Moving<Circle>, Moving<ConvexPolygon> or DeformingSegment. For a moving
// obstacle, mover.translation is the mover's own (absolute) translation.
template <typename Mover, typename Obstacle>
struct Case {
  Mover mover;
  Obstacle obstacle;
};

// kCaseCount cases from seed. Each obstacle is centred at a uniform point of
// [10, 90]^2; the mover starts clear of it (bounding circles apart by
// uni(0.2, 8)) and its translation relative to the obstacle points at the
// obstacle's centre, turned by uni(-aim_jitter, aim_jitter) radians, with
// length uni(1, 20).
template <typename Mover, typename Obstacle>
std::vector<Case<Mover, Obstacle>> MakeCases(uint64_t seed, double aim_jitter);

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_TOI_CASES_H_
