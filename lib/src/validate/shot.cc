// Hit validation with lag compensation: a shot against the level and a list
// of targets translating during the same tick.
#include <algorithm>
#include <bit>
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
#include "exact/exact_time.h"
#include "validate/shot_times.h"

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

// How far apart two casts' rounded fractions may be while their exact
// contacts are in either order: both are within 1e-9 of the sweep (toi.h).
constexpr double kNearTie = 2e-9;

// The largest double g in [0, 1] by which `hits_by` (a cast with
// max_fraction g, whose contact exactly at g counts) still misses, found
// near the cast's rounded fraction f; -1 when it hits at 0. Doubles >= 0
// order as their bit patterns, so this is a search over integers: at most
// 64 doubling steps from f and 64 halvings.
template <typename HitsBy>
double LastMiss(const HitsBy& hits_by, double f) {
  if (hits_by(0.0)) return -1.0;
  const auto bits = [](double x) { return std::bit_cast<uint64_t>(x); };
  const auto value = [](uint64_t b) { return std::bit_cast<double>(b); };
  uint64_t miss = 0;  // a miss is known at 0
  uint64_t hit = bits(1.0);
  // A fraction of -0 (or NaN) must not become a huge bit pattern.
  const uint64_t start = bits(f > 0.0 ? std::min(f, 1.0) : 0.0);
  const bool hit_at_start = hits_by(value(start));
  (hit_at_start ? hit : miss) = start;
  for (uint64_t step = 1; step != 0 && step < hit - miss; step *= 2) {
    const uint64_t probe = hit_at_start ? hit - step : miss + step;
    if (hits_by(value(probe)) == hit_at_start) {
      (hit_at_start ? hit : miss) = probe;
    } else {
      (hit_at_start ? miss : hit) = probe;
      break;
    }
  }
  while (hit - miss > 1) {
    const uint64_t mid = miss + (hit - miss) / 2;
    (hits_by(value(mid)) ? hit : miss) = mid;
  }
  return value(miss);
}

// Whether `target` (its cast's hit `hit`) comes before `best` when no
// double separates their contacts: on their exact times where both are
// decided (shot_times.h), else as a tie; a tie goes to the wall, between
// targets to the smaller id (then the earlier position: best keeps it).
bool FirstOnExactTimes(const Shot& shot, const Level& level,
                       const std::optional<WorldHit>& wall,
                       absl::Span<const ShotTarget> targets,
                       const ShotHit& best, const ShotTarget& target,
                       const Hit& hit) {
  const bool wins_tie =
      best.kind == ShotHitKind::kTarget && target.id < best.id;
  const std::optional<internal::ExactTime> mine =
      internal::TargetTime(shot, target, hit);
  if (!mine) return wins_tie;
  const std::optional<internal::ExactTime> theirs =
      best.kind == ShotHitKind::kWall
          ? internal::WallTime(shot, level, *wall)
          : internal::TargetTime(shot, targets[best.target_index], best.hit);
  if (!theirs) return wins_tie;
  const int order = internal::CompareTimes(*mine, *theirs);
  return order < 0 || (order == 0 && wins_tie);
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
  const auto wall_hit_by = [&](double max_fraction) {
    const CastOptions options{.max_fraction = max_fraction};
    const Circle disc{shot.origin, shot.radius};
    return shot.radius > 0.0 ? CastCircle(CircleCast{disc, shot.translation},
                                          level, filter, options)
                                   .has_value()
                             : CastRay(RayInput{shot.origin, shot.translation},
                                       level, filter, options)
                                   .has_value();
  };
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
    // Far enough to catch a contact whose rounded fraction lies past the
    // best's while the exact one does not.
    const CastOptions options{
        .max_fraction =
            best ? std::min(1.0, best->hit.fraction + kNearTie) : 1.0};
    const std::optional<Hit> hit = CastAtTarget(shot, target, options);
    if (!hit) continue;
    bool better = !best || hit->fraction < best->hit.fraction - kNearTie;
    if (!better && hit->fraction <= best->hit.fraction + kNearTie) {
      // A near tie, decided exactly: the target is first when some double
      // fraction lies at or after its contact and before the best's, and
      // second when one lies at or after the best's and before its own.
      // When no double separates them (one exact time, or exact times
      // within one unit in the last place), their exact times decide: the
      // exactly earlier first; at one exact time the wall keeps it, and
      // between targets the smaller id wins, then the earlier position.
      const auto hits_by = [&](const ShotTarget& t) {
        return [&](double max_fraction) {
          return CastAtTarget(shot, t,
                              CastOptions{.max_fraction = max_fraction})
              .has_value();
        };
      };
      const bool best_is_wall = best->kind == ShotHitKind::kWall;
      const double best_misses_by =
          best_is_wall ? LastMiss(wall_hit_by, best->hit.fraction)
                       : LastMiss(hits_by(targets[best->target_index]),
                                  best->hit.fraction);
      better = best_misses_by >= 0.0 && hits_by(target)(best_misses_by);
      if (!better) {
        const double misses_by = LastMiss(hits_by(target), hit->fraction);
        const bool best_first =
            misses_by >= 0.0 &&
            (best_is_wall ? wall_hit_by(misses_by)
                          : hits_by(targets[best->target_index])(misses_by));
        if (!best_first)
          better = FirstOnExactTimes(shot, level, wall, targets, *best, target,
                                     *hit);
      }
    }
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
