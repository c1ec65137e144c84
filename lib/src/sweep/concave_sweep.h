// A convex core cast against a solid simple polygon.
#ifndef COLLIDE_LIB_SRC_SWEEP_CONCAVE_SWEEP_H_
#define COLLIDE_LIB_SRC_SWEEP_CONCAVE_SWEEP_H_

#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "sweep/core.h"

namespace collide::internal {

// Cast of core a against a solid simple polygon: its edges as one-sided
// segments plus its interior.
std::optional<Hit> SweepCoreVsConcave(const Core& a, const Motion& motion,
                                      const ConcavePolygon& polygon,
                                      const CastOptions& options);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_CONCAVE_SWEEP_H_
