// Overlap queries: the shapes a circle, polygon or capsule at rest touches.
// The spatial hash lists the primitives whose cells the query's bounds
// cover; each is tested once with the pair's Overlaps (intersect.h).
#include <cstdint>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "pairs/cast_dispatch.h"
#include "world/query_common.h"

namespace collide {
namespace {

// The pair's test in whichever argument order intersect.h declares it.
template <typename A, typename B>
bool Overlapping(const A& a, const B& b) {
  if constexpr (requires { Overlaps(a, b); }) {
    return Overlaps(a, b);
  } else {
    return Overlaps(b, a);
  }
}

// Shapes found so far, sorted by id, in the caller's span.
class RefList {
 public:
  explicit RefList(absl::Span<ShapeRef> refs) : refs_(refs) {}

  bool Contains(uint64_t id) const {
    const int32_t at = LowerBound(id);
    return at < count_ && refs_[at].shape_id == id;
  }

  void Add(uint64_t id, uint64_t user_data) {
    const int32_t capacity = static_cast<int32_t>(refs_.size());
    if (count_ == capacity) {
      truncated_ = true;
      if (capacity == 0 || id > refs_[count_ - 1].shape_id) return;
      --count_;  // the largest id makes room
    }
    const int32_t at = LowerBound(id);
    for (int32_t j = count_; j > at; --j) refs_[j] = refs_[j - 1];
    refs_[at] = ShapeRef{id, user_data};
    ++count_;
  }

  ListResult result() const { return {count_, truncated_}; }

 private:
  int32_t LowerBound(uint64_t id) const {
    int32_t lo = 0, hi = count_;
    while (lo < hi) {
      const int32_t mid = (lo + hi) / 2;
      if (refs_[mid].shape_id < id) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  absl::Span<ShapeRef> refs_;
  int32_t count_ = 0;
  bool truncated_ = false;
};

// Adds to `list` the shapes of one layer that `query` overlaps: a level's
// own, or (with `removed`) its base's less the removed ones.
template <typename Query>
void OverlapIn(const Query& query, const Level& level, const uint64_t* removed,
               const QueryFilter& filter, RefList& list) {
  // A solid concave polygon holding the query's reference point (the vertex
  // 0 of its core, which the concave Overlaps tests) overlaps it even when
  // none of its edges' cells is reached.
  const Vec2 reference = internal::CoreOf(query).vertex(0);
  level.solids().VisitBox(Aabb{reference, reference}, [&](int32_t item) {
    const int32_t shape = level.solid_shape(item);
    if (internal::Passes(level, shape, filter, removed) &&
        !list.Contains(level.id(shape)) &&
        Overlaps(query, level.concave_polygon(shape))) {
      list.Add(level.id(shape), level.user_data(shape));
    }
    return true;
  });
  internal::RecentShapes concave_done;
  level.spatial_hash().VisitBox(internal::BoundsOf(query), [&](int32_t item) {
    const Level::Primitive& p = level.primitive(item);
    // A one-sided shape blocks motion into its front only; at rest there is
    // nothing of it to be inside (see query.h).
    if (p.one_sided) return true;
    if (!internal::Passes(level, p.shape, filter, removed)) return true;
    const uint64_t id = level.id(p.shape);
    if (list.Contains(id)) return true;
    bool overlaps = false;
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
      case Level::PrimitiveKind::kPolylineEdge:
        overlaps = Overlapping(query, Segment{p.a, p.b});
        break;
      case Level::PrimitiveKind::kCircle:
        overlaps = Overlapping(query, Circle{p.a, p.radius});
        break;
      case Level::PrimitiveKind::kCapsule:
        overlaps = Overlapping(query, Capsule{p.a, p.b, p.radius});
        break;
      case Level::PrimitiveKind::kConvexPolygon:
        overlaps = Overlapping(query, level.convex_polygon(p.shape));
        break;
      case Level::PrimitiveKind::kConcaveEdge:
        // The whole polygon, once (edges and containment).
        if (concave_done.Seen(p.shape)) return true;
        overlaps = Overlaps(query, level.concave_polygon(p.shape));
        break;
    }
    if (overlaps) list.Add(id, level.user_data(p.shape));
    return true;
  });
}

template <typename Query>
ListResult OverlapAll(const Query& query, const Level& level,
                      absl::Span<ShapeRef> shapes, const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(query));
  // The list is kept by id, so both layers of a patched level fill it as
  // one level's shapes would.
  RefList list(shapes);
  OverlapIn(query, level, nullptr, filter, list);
  if (const Level* base = level.base()) {
    OverlapIn(query, *base, level.removed_from_base().data(), filter, list);
  }
  return list.result();
}

}  // namespace

ListResult OverlapCircle(Circle circle, const Level& level,
                         absl::Span<ShapeRef> shapes,
                         const QueryFilter& filter) {
  return OverlapAll(circle, level, shapes, filter);
}
ListResult OverlapPolygon(const ConvexPolygon& polygon, const Level& level,
                          absl::Span<ShapeRef> shapes,
                          const QueryFilter& filter) {
  return OverlapAll(polygon, level, shapes, filter);
}
ListResult OverlapCapsule(const Capsule& capsule, const Level& level,
                          absl::Span<ShapeRef> shapes,
                          const QueryFilter& filter) {
  return OverlapAll(capsule, level, shapes, filter);
}

}  // namespace collide
