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
#include "world/query_common.h"

namespace collide {
namespace {

using internal::Candidate;
using internal::Caster;
using internal::Rank;

// The closest hit among one layer's shapes: a level's own, or (with
// `removed`) its base's less the removed ones.
template <bool kEnteringOnly, typename Cast>
std::optional<WorldHit> CastClosestIn(const Cast& cast, const Level& level,
                                      const uint64_t* removed,
                                      const QueryFilter& filter,
                                      const CastOptions& options) {
  const Caster<Cast, kEnteringOnly> caster(level, removed, cast, filter,
                                           options);
  bool found = false;
  Candidate best;
  const auto offer = [&](const Candidate& candidate) {
    if (!found || internal::RanksBefore(level, candidate, best)) {
      best = candidate;
      found = true;
      level.PrefetchShape(best.shape);  // its id and user data end the query
    }
  };
  caster.StartsInside(offer);
  caster.Sweep([&] { return found ? best.hit.fraction : options.max_fraction; },
               offer);
  if (!found) return std::nullopt;
  return WorldHit{best.hit, level.id(best.shape), level.user_data(best.shape)};
}

// kEnteringOnly: see Caster.
template <typename Cast, bool kEnteringOnly = false>
std::optional<WorldHit> CastClosest(const Cast& cast, const Level& level,
                                    const QueryFilter& filter,
                                    const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(cast) && IsValid(options));
  std::optional<WorldHit> hit =
      CastClosestIn<kEnteringOnly>(cast, level, nullptr, filter, options);
  if (const Level* base = level.base()) {
    const std::optional<WorldHit> below = CastClosestIn<kEnteringOnly>(
        cast, *base, level.removed_from_base().data(), filter, options);
    if (below && (!hit || internal::RanksBefore(*below, *hit))) hit = below;
  }
  return hit;
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
