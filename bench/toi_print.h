// Prints a benchmark case at full precision (%.17g) as C++ initialisers, so
// a case where collide and Box2D disagree can be pasted into a test.
#ifndef COLLIDE_BENCH_TOI_PRINT_H_
#define COLLIDE_BENCH_TOI_PRINT_H_

#include <optional>
#include <string>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "toi_cases.h"

namespace collide_bench {

std::string Describe(collide::Vec2 v);
std::string Describe(collide::Segment s);
std::string Describe(collide::Circle c);
std::string Describe(const collide::Capsule& c);
std::string Describe(const collide::ConvexPolygon& p);
std::string Describe(const ConcaveShape& p);
std::string Describe(const collide::DeformingSegment& s);
std::string Describe(const collide::RayInput& r);
std::string Describe(const collide::CircleCast& c);
std::string Describe(const collide::CapsuleCast& c);
std::string Describe(const collide::PolygonCast& c);
std::string Describe(const std::optional<collide::Hit>& hit);

template <typename Shape>
std::string Describe(const collide::Moving<Shape>& m) {
  return "Moving{" + Describe(m.shape) + ", " + Describe(m.translation) + "}";
}

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_TOI_PRINT_H_
