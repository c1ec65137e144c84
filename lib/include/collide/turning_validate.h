// Validation of things that turn during a tick (validate.h's questions with
// the motion model of turning.h): a melee swing (a blade turning about the
// wielder's hand) against the level and lag-compensated targets that may
// turn too, and a move whose mover turns while it translates.
//
// Every answer keeps the certified brackets of turning.h: a contact is
// never placed after an earlier one, and a miss is reported only when
// nothing is touched. Preconditions are asserted (COLLIDE_DCHECK); callers
// at a trust boundary check the IsValid overloads first.
#ifndef COLLIDE_TURNING_VALIDATE_H_
#define COLLIDE_TURNING_VALIDATE_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/turning.h"
#include "collide/turning_query.h"
#include "collide/validate.h"
#include "collide/vec2.h"

namespace collide {

// A shot with a body that turns: `body` at its start pose, turned by t *
// angle radians about `pivot`, then translated by t * translation at the
// fraction t of the tick (turning.h). A sword swing is a capsule from the
// hand to the tip with the hand as pivot.
struct TurningShot {
  BodyShape body;
  Vec2 translation{};
  double angle = 0.0;
  Vec2 pivot{};
};

// A target's hitbox during the same tick, turning and translating by the
// same model (angle 0: translating only, as ShotTarget).
struct TurningShotTarget {
  uint64_t id = 0;
  BodyShape hitbox;
  Vec2 translation{};
  double angle = 0.0;
  Vec2 pivot{};
};

bool IsValid(const TurningShot& shot);
bool IsValid(const TurningShotTarget& target);

// What a turning shot met first: the ShotHit of validate.h (hit.fraction is
// the bracket's fraction_lo, feature {kSurface, 0} when the contact came
// from a turning cast) and its bracket.
struct TurningShotHit {
  ShotHit shot;
  TurnBracket bracket;
};

// The first thing the swing meets: the earliest of the level cast
// (CastTurning of turning_query.h over shapes passing `filter`) and each
// target's pair cast with both turning (CastTurning of turning.h). Ties
// follow ValidateShot: a target is first only when its bracket ends
// strictly before the wall's begins (a target flush with a wall, or within
// a bracket's width of it, is not hit: the wall is); between targets whose
// brackets overlap, the smaller id, then the earlier position. Every status
// other than kMiss is a contact at fraction_lo for this order; the
// bracket's status says whether it is a certified hit (kHit,
// kInitialOverlap) or a graze no double precision decides (kNearContact)
// or an undecided approach (kUndecided), so a strict server can refuse to
// credit those. nullopt when the swing meets nothing.
// Preconditions: IsValid(shot), IsValid(target) for every target.
std::optional<TurningShotHit> ValidateTurningShot(
    const TurningShot& shot, const Level& level,
    absl::Span<const TurningShotTarget> targets,
    const QueryFilter& filter = {});

// A claimed move of a mover that turns: `mover` at its start pose turned by
// t * angle about `pivot`, then translated by t * translation.
struct TurningMoveClaim {
  BodyShape mover;
  Vec2 translation{};
  double angle = 0.0;
  Vec2 pivot{};
};

// IsValid(claim's shape and translation), |angle| <= kMaxTurnAngle, a
// finite pivot, IsValid(options), and, when angle != 0, options.skin == 0
// and options.max_slide_iterations == 0: collide-and-slide projects the
// remaining translation on contact planes, which a turning mover's contact
// point does not keep (it sweeps along the turning edge), and a skin is a
// gap along the translation; both are refused for a turning mover rather
// than given an invented meaning.
bool IsValid(const TurningMoveClaim& claim, const MoveOptions& options);

struct TurningMoveValidation {
  // verdict, first_hit, safe_fraction, safe_translation, exit and
  // claimed_end_reachable as in validate.h; slide only for angle 0. With
  // angle != 0: first_hit.hit.fraction is the bracket's fraction_lo; the
  // move is blocked by every contact status other than kMiss (a graze that
  // cannot be decided, or an undecided approach, blocks at fraction_lo);
  // the safe position is safe_fraction = fraction_lo, the mover's start pose
  // turned by safe_fraction * angle about the pivot and translated by
  // safe_translation (it touches at most there, and is disjoint from every
  // shape before); a start overlapping beyond rounding is
  // kStartsInside with the exit search of validate.h.
  MoveValidation move;
  // first_hit's bracket (zero width on the translating path); status kMiss
  // when there is no first_hit.
  TurnBracket bracket{TurnStatus::kMiss};
};

// angle == 0: ValidateMove of validate.h, bit for bit. Preconditions:
// IsValid(claim, options).
TurningMoveValidation ValidateTurningMove(const TurningMoveClaim& claim,
                                          const Level& level,
                                          const QueryFilter& filter = {},
                                          const MoveOptions& options = {});

}  // namespace collide

#endif  // COLLIDE_TURNING_VALIDATE_H_
