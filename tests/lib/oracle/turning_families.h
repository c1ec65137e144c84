// Degenerate-by-construction families of turning pairs, the service's
// answer on each, and its comparison with the MPFR oracle
// (turning_oracle.h).
#ifndef COLLIDE_TESTS_LIB_ORACLE_TURNING_FAMILIES_H_
#define COLLIDE_TESTS_LIB_ORACLE_TURNING_FAMILIES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collide/turning.h"
#include "turning_oracle.h"

namespace collide::oracle {

enum class ShapeKind { kPoint, kSegment, kCircle, kCapsule, kPolygon };

struct TurnCase {
  ShapeKind a_kind = ShapeKind::kPoint;
  ShapeKind b_kind = ShapeKind::kPoint;
  TurnShape a;  // polygons counter-clockwise, as MakeConvexPolygon keeps them
  TurnShape b;
  double max_fraction = 1.0;
};

// The family names, in report order.
const std::vector<std::string>& TurningFamilyNames();

// Case `index` of a family (deterministic in the index); false when the
// name is unknown.
bool MakeTurningCase(const std::string& family, uint64_t index, TurnCase* out);

// collide's answer (CastTurning on the typed shapes).
TurnResult RunService(const TurnCase& c);

// The same call with its typed shapes built once (for timing).
std::function<TurnResult()> BindService(const TurnCase& c);

// How the service's answer compares with the oracle's.
struct Verdict {
  bool disagree = false;       // a wrong answer by the bracket contract
  bool oracle_certain = true;  // the oracle hit or missed (not near, undecided)
  double width = 0.0;          // the service's bracket width on kHit
};
Verdict Compare(const TurnResult& service, const OracleAnswer& oracle);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_TURNING_FAMILIES_H_
