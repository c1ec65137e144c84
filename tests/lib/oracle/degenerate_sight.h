// Degenerate-by-construction line-of-sight cases (collide/visibility.h),
// judged by the exact sight oracle (sight_oracle.h): sight lines through
// vertices, along edges, past collinear occluders and tangent to round
// ones, targets exactly on cone edges and on the range, each also nudged
// by one ulp. Built on small integers in a local frame and mapped by an
// exact similarity (as degenerate.h's cases: a quarter turn or Pythagorean
// rotation, an optional reflection, a power of two, an offset of 0, 1e6 or
// 1e9 kept only where exact).
#ifndef COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_H_
#define COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "collide/level.h"
#include "scenes.h"
#include "sight_oracle.h"

namespace collide::oracle {

enum class SightConstruction {
  kVertex,     // sight lines through occluder vertices and segment ends
  kEdge,       // viewer and targets on an edge's line
  kCollinear,  // occluders sharing edges, corners and lines
  kRound,      // sight lines tangent to circles and capsules
  kCone,       // targets on the cone's edges
  kRange,      // targets at exactly the range
};

struct SightFamily {
  const char* name;
  SightConstruction construction;
  uint64_t seed;
};
const std::vector<SightFamily>& SightFamilies();

struct SightCase {
  std::vector<SightOccluder> occluders;
  SightViewer viewer;
  std::vector<Vec2> targets;
  double offset = 0.0;  // the offset kept
};

SightCase GenerateSight(const SightFamily& family, Rng& rng);
// The level shapes of a case: occluder i has id i + 1.
std::vector<ShapeDesc> SightLevelShapes(const SightCase& c);
std::string DescribeSight(const SightCase& c);

// Runs `cases` cases of the family through VisibleTargets and Sees and
// the oracle, prints one line (and the first `show` disagreements), adds
// the disagreeing pairs to *disagreements.
void RunSightFamily(const SightFamily& family, int cases, int show,
                    int* disagreements);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_DEGENERATE_SIGHT_H_
