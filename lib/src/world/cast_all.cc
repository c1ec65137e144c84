// World casts, all hits: every shape the mover meets, sorted by Rank in the
// caller's span, through the same walk as the closest hit (caster.h).
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "world/caster.h"
#include "world/exact_ties.h"
#include "world/query_common.h"

namespace collide {
namespace {

using internal::Candidate;
using internal::Caster;
using internal::NearTie;
using internal::Rank;
using internal::TieReach;

// The sorted list of an all-hits cast, kept in the caller's span. While
// collecting, each entry's user_data holds its shape index (high half) and
// rank part (low half) so that a shape met again through another primitive
// can be compared and merged without any memory of our own; Finish puts the
// real user data back. A patched level's two layers fill one list; the
// high bit says which layer the shape index belongs to.
class HitList {
 public:
  explicit HitList(absl::Span<WorldHit> hits) : hits_(hits) {}

  // `in_base`: c.shape indexes the base of a patched level. settle(a,
  // a_in_base, b, b_in_base) decides a near tie on exact times (see
  // SettleNearTie), rewriting both fractions, or returns nullopt.
  template <typename Settle>
  void Offer(Candidate c, uint64_t id, bool in_base, Settle&& settle) {
    bool refracted = false;
    const auto before = [&](int32_t i) {
      // The same primitive met again (a ray's walk tests it in every cell
      // it crosses) gives the same answer: it stays where it is, with the
      // fraction a settled tie may have rewritten.
      const bool same =
          hits_[i].shape_id == id &&
          static_cast<int32_t>(static_cast<uint32_t>(hits_[i].user_data)) ==
              c.part;
      if (same) return false;
      if (NearTie(c.hit.fraction, hits_[i].hit.fraction)) {
        Candidate entry = EntryCandidate(i);
        const std::optional<bool> first =
            settle(c, in_base, entry, (hits_[i].user_data & kInBase) != 0);
        if (first) {
          if (hits_[i].hit.fraction != entry.hit.fraction) {
            hits_[i].hit.fraction = entry.hit.fraction;
            refracted = true;
          }
          return *first;
        }
      }
      return RankOfCandidate(c, id) < RankOf(i);
    };
    for (int32_t i = 0; i < count_; ++i) {
      if (hits_[i].shape_id != id) continue;
      if (!before(i)) return;
      Erase(i);  // the shape's better answer goes in below
      break;
    }
    const int32_t capacity = static_cast<int32_t>(hits_.size());
    if (count_ == capacity) {
      truncated_ = true;
      if (capacity == 0 || !before(count_ - 1)) return;
      --count_;
    }
    int32_t at = count_;
    while (at > 0 && before(at - 1)) {
      hits_[at] = hits_[at - 1];
      --at;
    }
    hits_[at] = WorldHit{c.hit, id, Pack(c.shape, c.part, in_base)};
    ++count_;
    if (refracted) Reorder();
  }

  // Once full with hits dropped, later hits only matter if they rank before
  // the last entry (or tie with it): casts can stop just past its fraction.
  double Limit(double max_fraction) const {
    if (!truncated_ || count_ == 0) return max_fraction;
    return TieReach(hits_[count_ - 1].hit.fraction, max_fraction);
  }

  ListResult Finish(const Level& level) {
    for (int32_t i = 0; i < count_; ++i) {
      const uint64_t packed = hits_[i].user_data;
      const Level& layer = (packed & kInBase) != 0 ? *level.base() : level;
      hits_[i].user_data =
          layer.user_data(static_cast<int32_t>((packed & ~kInBase) >> 32));
    }
    return {count_, truncated_};
  }

 private:
  static constexpr uint64_t kInBase = uint64_t{1} << 63;

  static uint64_t Pack(int32_t shape, int32_t part, bool in_base) {
    return (uint64_t{static_cast<uint32_t>(shape)} << 32) |
           static_cast<uint32_t>(part) | (in_base ? kInBase : 0);
  }
  static Rank RankOfCandidate(const Candidate& c, uint64_t id) {
    return {c.hit.fraction, id, c.part,
            c.hit.status == HitStatus::kInitialOverlap};
  }
  Candidate EntryCandidate(int32_t i) const {
    const uint64_t packed = hits_[i].user_data;
    return Candidate{hits_[i].hit,
                     static_cast<int32_t>((packed & ~kInBase) >> 32),
                     static_cast<int32_t>(static_cast<uint32_t>(packed))};
  }
  // Entries whose fraction a settled tie rewrote (to their exact time's
  // rounding, a few ulps at most) moved back into fraction order; equal
  // fractions keep their order, which their ties decided.
  void Reorder() {
    for (int32_t i = 1; i < count_; ++i) {
      for (int32_t j = i;
           j > 0 && hits_[j].hit.fraction < hits_[j - 1].hit.fraction; --j) {
        std::swap(hits_[j], hits_[j - 1]);
      }
    }
  }
  Rank RankOf(int32_t i) const {
    return {hits_[i].hit.fraction, hits_[i].shape_id,
            static_cast<int32_t>(static_cast<uint32_t>(hits_[i].user_data)),
            hits_[i].hit.status == HitStatus::kInitialOverlap};
  }
  void Erase(int32_t i) {
    for (int32_t j = i; j + 1 < count_; ++j) hits_[j] = hits_[j + 1];
    --count_;
  }

  absl::Span<WorldHit> hits_;
  int32_t count_ = 0;
  bool truncated_ = false;
};

template <typename Cast>
ListResult CastAll(const Cast& cast, const Level& level,
                   absl::Span<WorldHit> hits, const QueryFilter& filter,
                   const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(cast) && IsValid(options));
  HitList list(hits);
  const auto collect = [&](const Level& layer, const uint64_t* removed) {
    const Caster<Cast> caster(layer, removed, cast, filter, options);
    const bool in_base = removed != nullptr;
    const auto settle = [&](Candidate& a, bool a_in_base, Candidate& b,
                            bool b_in_base) {
      return internal::SettleNearTie(cast, options,
                                     a_in_base ? *level.base() : level, a,
                                     b_in_base ? *level.base() : level, b);
    };
    const auto offer = [&](const Candidate& c) {
      list.Offer(c, layer.id(c.shape), in_base, settle);
    };
    caster.StartsInside(offer);
    caster.Sweep([&] { return list.Limit(options.max_fraction); }, offer);
  };
  collect(level, nullptr);
  if (const Level* base = level.base()) {
    collect(*base, level.removed_from_base().data());
  }
  return list.Finish(level);
}

}  // namespace

ListResult CastRayAll(const RayInput& ray, const Level& level,
                      absl::Span<WorldHit> hits, const QueryFilter& filter,
                      const CastOptions& options) {
  return CastAll(ray, level, hits, filter, options);
}
ListResult CastCircleAll(const CircleCast& cast, const Level& level,
                         absl::Span<WorldHit> hits, const QueryFilter& filter,
                         const CastOptions& options) {
  return CastAll(cast, level, hits, filter, options);
}
ListResult CastPolygonAll(const PolygonCast& cast, const Level& level,
                          absl::Span<WorldHit> hits, const QueryFilter& filter,
                          const CastOptions& options) {
  return CastAll(cast, level, hits, filter, options);
}
ListResult CastCapsuleAll(const CapsuleCast& cast, const Level& level,
                          absl::Span<WorldHit> hits, const QueryFilter& filter,
                          const CastOptions& options) {
  return CastAll(cast, level, hits, filter, options);
}

}  // namespace collide
