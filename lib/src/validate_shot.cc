// Hit validation with lag compensation: a shot against the level and a list
// of targets translating during the same tick.
#include <cstdint>
#include <optional>
#include <variant>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"

namespace collide {
namespace {

// The moving-vs-moving cast of the shot against one target: exact for two
// translations over the same tick (toi.h reduces it to the relative motion),
// so a target crossing the shot's path is met only if both are there at the
// same fraction.
std::optional<Hit> CastAtTarget(const Shot& shot, const ShotTarget& target,
                                const CastOptions& options) {
  return std::visit(
      [&](const auto& hitbox) -> std::optional<Hit> {
        using Hitbox = std::decay_t<decltype(hitbox)>;
        const Moving<Hitbox> moving{hitbox, target.translation};
        if (shot.radius > 0.0) {
          return CastCircle(
              CircleCast{Circle{shot.origin, shot.radius}, shot.translation},
              moving, options);
        }
        return CastRay(RayInput{shot.origin, shot.translation}, moving,
                       options);
      },
      target.hitbox);
}

}  // namespace

bool IsValid(const Shot& shot) {
  return IsInRange(shot.origin) && IsInRange(shot.translation) &&
         shot.radius >= 0.0 && shot.radius <= kMaxCoordinate;
}

bool IsValid(const ShotTarget& target) {
  return IsValid(target.hitbox) && IsInRange(target.translation);
}

std::optional<ShotHit> ValidateShot(const Shot& shot, const Level& level,
                                    absl::Span<const ShotTarget> targets,
                                    const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(shot));
  std::optional<ShotHit> best;
  // The wall first: it wins ties, and its fraction bounds every target's
  // cast, so a target behind it costs a cheap early rejection.
  const std::optional<WorldHit> wall =
      shot.radius > 0.0
          ? CastCircle(
                CircleCast{Circle{shot.origin, shot.radius}, shot.translation},
                level, filter)
          : CastRay(RayInput{shot.origin, shot.translation}, level, filter);
  if (wall) {
    best = ShotHit{.kind = ShotHitKind::kWall,
                   .id = wall->shape_id,
                   .user_data = wall->user_data,
                   .target_index = -1,
                   .hit = wall->hit};
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const ShotTarget& target = targets[i];
    COLLIDE_DCHECK(IsValid(target));
    const CastOptions options{.max_fraction = best ? best->hit.fraction : 1.0};
    const std::optional<Hit> hit = CastAtTarget(shot, target, options);
    if (!hit) continue;
    // Strictly earlier wins; at the same fraction a wall keeps it, and
    // between targets the smaller id (then the earlier position, kept by
    // the strict comparison).
    const bool better =
        !best || hit->fraction < best->hit.fraction ||
        (hit->fraction == best->hit.fraction &&
         best->kind == ShotHitKind::kTarget && target.id < best->id);
    if (!better) continue;
    best = ShotHit{.kind = ShotHitKind::kTarget,
                   .id = target.id,
                   .user_data = 0,
                   .target_index = static_cast<int32_t>(i),
                   .hit = *hit};
  }
  return best;
}

}  // namespace collide
