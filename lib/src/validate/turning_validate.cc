// Validation of turning swings and moves (collide/turning_validate.h): the
// world and pair casts of turning.h and turning_query.h ordered by their
// certified brackets.
#include "collide/turning_validate.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <variant>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/turning.h"
#include "collide/turning_query.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "validate/move_parts.h"

namespace collide {
namespace {

bool IsTurnValid(double angle, Vec2 pivot, Vec2 translation) {
  return std::isfinite(angle) && std::abs(angle) <= kMaxTurnAngle &&
         IsInRange(pivot) && IsInRange(translation);
}

// The level's first contact with the turning body.
std::optional<WorldTurnHit> CastBody(const BodyShape& body, Vec2 translation,
                                     double angle, Vec2 pivot,
                                     const Level& level,
                                     const QueryFilter& filter) {
  return std::visit(
      [&](const auto& shape) {
        using Shape = std::decay_t<decltype(shape)>;
        return CastTurning(Turning<Shape>{shape, translation, angle, pivot},
                           level, filter);
      },
      body);
}

TurnResult CastAtTarget(const TurningShot& shot,
                        const TurningShotTarget& target) {
  return std::visit(
      [&](const auto& body, const auto& hitbox) {
        using Body = std::decay_t<decltype(body)>;
        using Hitbox = std::decay_t<decltype(hitbox)>;
        return CastTurning(
            Turning<Body>{body, shot.translation, shot.angle, shot.pivot},
            Turning<Hitbox>{hitbox, target.translation, target.angle,
                            target.pivot});
      },
      shot.body, target.hitbox);
}

Hit HitOf(const TurnResult& r) {
  Hit hit;
  hit.fraction = r.fraction_lo;
  hit.point = r.point;
  hit.normal = r.normal;
  hit.depth = r.depth;
  hit.feature = Feature{FeatureType::kSurface, 0};
  hit.status = r.status == TurnStatus::kInitialOverlap
                   ? HitStatus::kInitialOverlap
                   : HitStatus::kHit;
  return hit;
}

TurnBracket BracketOf(const Hit& hit) {
  return {hit.status == HitStatus::kInitialOverlap ? TurnStatus::kInitialOverlap
                                                   : TurnStatus::kHit,
          hit.fraction, 0.0, 0};
}

}  // namespace

bool IsValid(const TurningShot& shot) {
  return IsValid(shot.body) &&
         IsTurnValid(shot.angle, shot.pivot, shot.translation);
}

bool IsValid(const TurningShotTarget& target) {
  return IsValid(target.hitbox) &&
         IsTurnValid(target.angle, target.pivot, target.translation);
}

std::optional<TurningShotHit> ValidateTurningShot(
    const TurningShot& shot, const Level& level,
    absl::Span<const TurningShotTarget> targets, const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(shot));
  std::optional<TurningShotHit> best;
  if (const std::optional<WorldTurnHit> wall = CastBody(
          shot.body, shot.translation, shot.angle, shot.pivot, level, filter)) {
    best = TurningShotHit{ShotHit{.kind = ShotHitKind::kWall,
                                  .id = wall->hit.shape_id,
                                  .user_data = wall->hit.user_data,
                                  .target_index = -1,
                                  .hit = wall->hit.hit},
                          wall->bracket};
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const TurningShotTarget& target = targets[i];
    COLLIDE_DCHECK(IsValid(target));
    const TurnResult r = CastAtTarget(shot, target);
    if (r.status == TurnStatus::kMiss) continue;
    bool better = !best;
    if (best) {
      const double best_lo = best->shot.hit.fraction;
      // Certified strictly earlier: its contact is at most fraction_hi, the
      // best's at least its fraction_lo.
      better = r.fraction_hi < best_lo;
      if (!better && best->shot.kind == ShotHitKind::kTarget &&
          !(best->bracket.fraction_hi < r.fraction_lo)) {
        better = target.id < best->shot.id;  // overlapping brackets: a tie
      }
    }
    if (!better) continue;
    best = TurningShotHit{
        ShotHit{.kind = ShotHitKind::kTarget,
                .id = target.id,
                .user_data = 0,
                .target_index = static_cast<int32_t>(i),
                .hit = HitOf(r)},
        TurnBracket{r.status, r.fraction_hi, r.gap_bound, r.iterations}};
  }
  return best;
}

bool IsValid(const TurningMoveClaim& claim, const MoveOptions& options) {
  if (!IsValid(MoveClaim{claim.mover, claim.translation}) ||
      !IsValid(options) ||
      !IsTurnValid(claim.angle, claim.pivot, claim.translation)) {
    return false;
  }
  return claim.angle == 0.0 ||
         (options.skin == 0.0 && options.max_slide_iterations == 0);
}

TurningMoveValidation ValidateTurningMove(const TurningMoveClaim& claim,
                                          const Level& level,
                                          const QueryFilter& filter,
                                          const MoveOptions& options) {
  COLLIDE_DCHECK(IsValid(claim, options));
  TurningMoveValidation result;
  if (claim.angle == 0.0) {
    result.move = ValidateMove(MoveClaim{claim.mover, claim.translation}, level,
                               filter, options);
    if (result.move.first_hit) {
      result.bracket = BracketOf(result.move.first_hit->hit);
    }
    return result;
  }
  MoveValidation& move = result.move;
  const std::optional<WorldTurnHit> first = CastBody(
      claim.mover, claim.translation, claim.angle, claim.pivot, level, filter);
  if (!first) {
    move.verdict = MoveVerdict::kAllowed;
    move.safe_fraction = 1.0;
    move.safe_translation = claim.translation;
    move.claimed_end_reachable = true;
    return result;
  }
  move.first_hit = first->hit;
  result.bracket = first->bracket;
  // A contact at 0 may be a start inside a shape (or the closest hit may
  // name another shape met at 0): the overlap search decides.
  if (first->hit.hit.fraction == 0.0) {
    ExitResult exit = internal::FindExit(claim.mover, level, filter, 0.0,
                                         options.max_exit_iterations);
    if (exit.overlapped_count > 0) {
      move.verdict = MoveVerdict::kStartsInside;
      move.safe_fraction = 0.0;
      move.safe_translation = Vec2{};
      move.claimed_end_reachable = false;
      move.exit = exit;
      return result;
    }
  }
  move.verdict = MoveVerdict::kBlocked;
  move.safe_fraction = first->hit.hit.fraction;
  move.safe_translation = move.safe_fraction * claim.translation;
  move.claimed_end_reachable = false;
  return result;
}

}  // namespace collide
