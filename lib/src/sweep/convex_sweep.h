// The cast of one convex core against another (SweepCores), and its part
// for a pair known to start clear (SweepClearAny), which the concave sweep
// reuses edge by edge.
#ifndef COLLIDE_LIB_SRC_SWEEP_CONVEX_SWEEP_H_
#define COLLIDE_LIB_SRC_SWEEP_CONVEX_SWEEP_H_

#include <optional>

#include "collide/toi.h"
#include "sweep/core.h"
#include "sweep/point_sweep.h"
#include "sweep/vertex_misses.h"

namespace collide::internal {

// The full cast of core a moving by `motion` against core b with the
// semantics of toi.h (initial overlap, touching, skin, max_fraction).
std::optional<Hit> SweepCores(const Core& a, const Motion& motion,
                              const Core& b, const CastOptions& options);

// The first contact by max_fraction of core a moving by `motion` against
// core b, both starting farther apart than `grow` (each vertex of a against
// b grown, and each vertex of b moving back against a grown), or nullopt.
std::optional<Hit> SweepClearAny(const Core& a, const Motion& motion,
                                 const Core& b, const Grow& grow,
                                 double max_fraction, const Shadow& shadow);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_CONVEX_SWEEP_H_
