// COLLIDE_DCHECK: precondition checks that cost nothing in release builds.
// Queries in lib/ assume valid (finite, non-negative radius) input; callers
// at a trust boundary check with IsValid(...) first.
#ifndef COLLIDE_DCHECK_H_
#define COLLIDE_DCHECK_H_

#include <cassert>

#define COLLIDE_DCHECK(condition) assert(condition)

#endif  // COLLIDE_DCHECK_H_
