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

// A circle target (TARGET_RULE_ANY_PART) and the points of it built to be
// the ones a sight line may reach: where it touches an occluder's edge
// line, the range circle, a cone edge or a sight line through a vertex,
// an occluder vertex on its circle, the viewer on its circle.
struct SightDisc {
  Circle circle;
  std::vector<Vec2> witnesses;
};
struct SightDiscCase {
  SightCase sight;  // occluders and viewer; no targets
  std::vector<SightDisc> discs;
};
// Discs tangent to occluder edges and to the sight lines through
// vertices, through vertices, tangent to the range circle and to cone
// edges (Pythagorean or axis directions, so that centres and radii are
// integers), of radius 0, with the viewer on the circle; each also with
// its radius one ulp larger and smaller. Mapped as GenerateSight's cases.
SightDiscCase GenerateSightDiscs(Rng& rng);
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
