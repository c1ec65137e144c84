// World casts, closest hit: the walk (Caster, caster.h) visits the cells the
// mover's bounds sweep, in order of entry; each primitive the swept bounds
// may reach is cast with the per-shape function, and candidates compete by
// Rank. All hits are in cast_all.cc.
#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "world/body_cast.h"
#include "world/caster.h"
#include "world/exact_ties.h"
#include "world/query_common.h"

namespace collide {
namespace {

using internal::Candidate;
using internal::Caster;
using internal::Rank;

// The closest hit among one layer's shapes: a level's own, or (with
// `removed`) its base's less the removed ones. A candidate within kNearTie
// of the best so far is ranked on exact times where they are decided
// (world/exact_ties.h); the reach stays kNearTie past the best, so that such
// a candidate is still cast.
template <bool kEnteringOnly, typename Cast>
std::optional<Candidate> CastClosestIn(const Cast& cast, const Level& level,
                                       const uint64_t* removed,
                                       const QueryFilter& filter,
                                       const CastOptions& options) {
  const Caster<Cast, kEnteringOnly> caster(level, removed, cast, filter,
                                           options);
  bool found = false;
  Candidate best;
  const auto offer = [&](const Candidate& candidate) {
    if (found && internal::NearTie(candidate.hit.fraction, best.hit.fraction)) {
      // The same primitive met again (a ray's walk tests it in every cell
      // it crosses) gives the same answer: it changes nothing, and must not
      // undo a settled tie's rewritten fraction.
      if (candidate.shape == best.shape && candidate.part == best.part) return;
      Candidate tied = candidate;
      const std::optional<bool> before =
          internal::SettleNearTie(cast, options, level, tied, level, best);
      if (before) {
        if (*before) best = tied;
        return;
      }
    }
    if (!found || internal::RanksBefore(level, candidate, best)) {
      best = candidate;
      found = true;
      level.PrefetchShape(best.shape);  // its id and user data end the query
    }
  };
  caster.StartsInside(offer);
  caster.Sweep(
      [&] {
        return found
                   ? internal::TieReach(best.hit.fraction, options.max_fraction)
                   : options.max_fraction;
      },
      offer);
  if (!found) return std::nullopt;
  return best;
}

// kEnteringOnly: see Caster.
template <typename Cast, bool kEnteringOnly = false>
std::optional<WorldHit> CastClosest(const Cast& cast, const Level& level,
                                    const QueryFilter& filter,
                                    const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(cast) && IsValid(options));
  std::optional<Candidate> hit =
      CastClosestIn<kEnteringOnly>(cast, level, nullptr, filter, options);
  const Level* layer = &level;
  if (const Level* base = level.base()) {
    std::optional<Candidate> below = CastClosestIn<kEnteringOnly>(
        cast, *base, level.removed_from_base().data(), filter, options);
    if (below) {
      std::optional<bool> before;
      if (hit && internal::NearTie(below->hit.fraction, hit->hit.fraction)) {
        before =
            internal::SettleNearTie(cast, options, *base, *below, level, *hit);
      }
      if (!before) {
        before =
            !hit ||
            internal::Rank{below->hit.fraction, base->id(below->shape), 0,
                           below->hit.status == HitStatus::kInitialOverlap} <
                internal::Rank{hit->hit.fraction, level.id(hit->shape), 0,
                               hit->hit.status == HitStatus::kInitialOverlap};
      }
      if (*before) {
        hit = below;
        layer = base;
      }
    }
  }
  if (!hit) return std::nullopt;
  return WorldHit{hit->hit, layer->id(hit->shape),
                  layer->user_data(hit->shape)};
}

}  // namespace

std::optional<WorldHit> CastRay(const RayInput& ray, const Level& level,
                                const QueryFilter& filter,
                                const CastOptions& options) {
  return CastClosest(ray, level, filter, options);
}
std::optional<WorldHit> CastCircle(const CircleCast& cast, const Level& level,
                                   const QueryFilter& filter,
                                   const CastOptions& options) {
  return CastClosest(cast, level, filter, options);
}
std::optional<WorldHit> CastPolygon(const PolygonCast& cast, const Level& level,
                                    const QueryFilter& filter,
                                    const CastOptions& options) {
  return CastClosest(cast, level, filter, options);
}
std::optional<WorldHit> CastCapsule(const CapsuleCast& cast, const Level& level,
                                    const QueryFilter& filter,
                                    const CastOptions& options) {
  return CastClosest(cast, level, filter, options);
}

namespace internal {

std::optional<WorldHit> CastEntering(const CircleCast& cast, const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options) {
  return CastClosest<CircleCast, /*kEnteringOnly=*/true>(cast, level, filter,
                                                         options);
}
std::optional<WorldHit> CastEntering(const CapsuleCast& cast,
                                     const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options) {
  return CastClosest<CapsuleCast, /*kEnteringOnly=*/true>(cast, level, filter,
                                                          options);
}
std::optional<WorldHit> CastEntering(const PolygonCast& cast,
                                     const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options) {
  return CastClosest<PolygonCast, /*kEnteringOnly=*/true>(cast, level, filter,
                                                          options);
}

}  // namespace internal
}  // namespace collide
