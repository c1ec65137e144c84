// The exact reference: every query against every shape with collide's
// per-shape casts (toi.h), the closest hit kept. Shapes whose bounds cannot
// meet the query's swept bounds are skipped with a conservative test on
// bounds sorted by lower x, which changes no result; CheckReference() proves
// that on a sample by looping over literally every shape.
#ifndef COLLIDE_BENCH_WORLD_REFERENCE_H_
#define COLLIDE_BENCH_WORLD_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "scenes.h"

namespace collide_bench {

// One result per query of set, in order.
std::vector<WorldHit> ComputeReference(const Scene& scene, const QuerySet& set);

// Compares reference with a plain loop over every shape for `samples`
// queries spread over the set; returns how many differ (expected 0).
int64_t CheckReference(const Scene& scene, const QuerySet& set,
                       const std::vector<WorldHit>& reference, int samples);

// A query whose result disagrees with the reference: hit/miss differs, or
// both hit with contact points more than tolerance apart.
bool Disagrees(const WorldHit& result, const WorldHit& reference,
               double tolerance = 0.01);

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_REFERENCE_H_
