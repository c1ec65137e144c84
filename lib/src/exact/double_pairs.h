// Internal: two doubles worked lane by lane, as GCC's and Clang's vector
// extension does it (packed SSE2 instructions on x86-64, a scalar pair
// elsewhere). Each lane is rounded exactly as the scalar expression would
// be, so code using them keeps the bits of its scalar form; it only does
// two of them per instruction (a vertex's two projections, a vector's two
// components).
#ifndef COLLIDE_LIB_SRC_EXACT_DOUBLE_PAIRS_H_
#define COLLIDE_LIB_SRC_EXACT_DOUBLE_PAIRS_H_

#include <cstdint>

#include "collide/vec2.h"

namespace collide::internal {

typedef double Lanes __attribute__((vector_size(16)));

inline Lanes LanesOf(Vec2 v) { return Lanes{v.x, v.y}; }

// std::min(a, b) and std::max(a, b), lane by lane (minpd and maxpd).
inline Lanes LaneMin(Lanes a, Lanes b) { return b < a ? b : a; }
inline Lanes LaneMax(Lanes a, Lanes b) { return a < b ? b : a; }

// The larger of its two lanes, std::max(v[0], v[1]).
inline double LaneLargest(Lanes v) { return v[0] < v[1] ? v[1] : v[0]; }
// The smaller, std::min(v[0], v[1]).
inline double LaneSmallest(Lanes v) { return v[1] < v[0] ? v[1] : v[0]; }

// The lanes as a vector, and back.
inline Vec2 VecOf(Lanes v) { return {v[0], v[1]}; }

// Cross(u, v) and Dot(u, v) of two vectors held in lanes, rounded as the
// scalar forms (vec2.h) round them: both products in one instruction.
inline double LaneCross(Lanes u, Lanes v) {
  const Lanes products = u * __builtin_shufflevector(v, v, 1, 0);
  return products[0] - products[1];
}
inline double LaneDot(Lanes u, Lanes v) {
  const Lanes products = u * v;
  return products[0] + products[1];
}

// std::abs, lane by lane: the sign bits cleared.
inline Lanes LaneAbs(Lanes v) {
  typedef int64_t Bits __attribute__((vector_size(16)));
  const Bits magnitude = {INT64_MAX, INT64_MAX};
  return reinterpret_cast<Lanes>(reinterpret_cast<Bits>(v) & magnitude);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_DOUBLE_PAIRS_H_
