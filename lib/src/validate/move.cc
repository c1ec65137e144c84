// Move validation: the verdict, the first contact and the safe position of
// a claimed move, with the slide and the exit search of
// validate/slide.cc and validate/exit.cc.
#include <algorithm>
#include <cmath>
#include <optional>
#include <variant>

#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "validate/move_parts.h"
#include "world/body_cast.h"

namespace collide {
namespace {

// A slide's end this share of the claimed translation from the claimed end
// (on top of the skin) still reaches it: the slide's positions are sums of
// rounded steps.
constexpr double kReachShare = 1e-9;

template <typename Body>
MoveValidation ValidateBody(const Body& mover, const BodyShape& shape,
                            Vec2 translation, const Level& level,
                            const QueryFilter& filter,
                            const MoveOptions& options) {
  MoveValidation result;
  // Only contacts the mover would go into block it: touching a convex
  // shape it passes beside (sliding along a floor onto the next tile,
  // grazing a corner) does not.
  result.first_hit = internal::CastBody(mover, translation, level, filter, {});
  const bool slide = options.max_slide_iterations > 0;
  if (!result.first_hit) {
    result.verdict = MoveVerdict::kAllowed;
    result.safe_fraction = 1.0;
    result.safe_translation = translation;
    result.claimed_end_reachable = true;
    if (slide) {
      SlideResult all_the_way;
      all_the_way.translation = translation;
      result.slide = all_the_way;
    }
    return result;
  }
  // Starting inside a shape gives a contact at fraction 0, but the closest
  // hit may name another shape met at 0 (ties go to the smaller id), so any
  // contact at 0 is followed by the overlap search.
  if (result.first_hit->hit.fraction == 0.0) {
    ExitResult exit = internal::FindExit(shape, level, filter, options.skin,
                                         options.max_exit_iterations);
    if (exit.overlapped_count > 0) {
      result.verdict = MoveVerdict::kStartsInside;
      result.safe_fraction = 0.0;
      result.safe_translation = Vec2{};
      result.claimed_end_reachable = false;
      result.exit = exit;
      return result;
    }
  }
  result.verdict = MoveVerdict::kBlocked;
  const std::optional<WorldHit> skin_hit =
      options.skin == 0.0
          ? result.first_hit
          : internal::CastBody(mover, translation, level, filter,
                               {.target_distance = options.skin});
  // The skin cast stops first by construction; the min guards against a
  // rounding tie (or a grazing contact the skin cast resolves differently)
  // putting the safe position past the contact.
  result.safe_fraction = skin_hit ? std::min(skin_hit->hit.fraction,
                                             result.first_hit->hit.fraction)
                                  : result.first_hit->hit.fraction;
  result.safe_translation = result.safe_fraction * translation;
  result.claimed_end_reachable = false;
  if (slide) {
    result.slide =
        internal::Slide(shape, translation, level, filter, options.skin,
                        options.max_slide_iterations, skin_hit);
    result.claimed_end_reachable =
        Length(result.slide->translation - translation) <=
        internal::KeptGap(internal::CoordinateScale(mover), translation,
                          options.skin) +
            kReachShare * Length(translation);
  }
  return result;
}

}  // namespace

bool IsValid(const BodyShape& shape) {
  return std::visit([](const auto& body) { return IsValid(body); }, shape);
}

bool IsValid(const MoveClaim& claim) {
  return IsValid(claim.mover) && IsInRange(claim.translation);
}

bool IsValid(const MoveOptions& options) {
  return options.skin >= 0.0 && options.skin <= kMaxCoordinate &&
         options.max_slide_iterations >= 0 &&
         options.max_slide_iterations <= kMaxSlideIterations &&
         options.max_exit_iterations >= 1 &&
         options.max_exit_iterations <= kMaxExitIterations;
}

MoveValidation ValidateMove(const MoveClaim& claim, const Level& level,
                            const QueryFilter& filter,
                            const MoveOptions& options) {
  COLLIDE_DCHECK(IsValid(claim) && IsValid(options));
  return std::visit(
      [&](const auto& body) {
        return ValidateBody(body, claim.mover, claim.translation, level, filter,
                            options);
      },
      claim.mover);
}

}  // namespace collide
