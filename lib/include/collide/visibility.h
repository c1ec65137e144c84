// Line of sight: which targets each viewer sees past a level's occluders,
// decided exactly (docs/visibility.md states the contract).
//
// The sight line from a viewer at v to a target at t is the closed segment
// [v, t]. The rules, every one decided by exact signs of polynomials in the
// double inputs (no epsilon):
// - A solid shape (box, convex or concave polygon, circle or capsule of
//   positive radius) blocks a sight line whose open segment (v, t) meets
//   its interior. A sight line that only touches a vertex, runs along an
//   edge, or grazes a round shape is not blocked; nor is one that ends on
//   a boundary (a target standing against a wall is seen from outside).
//   Circles and capsules of radius 0 have no interior and block nothing.
// - A segment or a polyline (no inside) blocks a sight line whose open
//   segment (v, t) shares any point with it: crossing it, touching one of
//   its ends or one of its points, or running along it. So a polyline wall
//   has no gap at its joints and two walls meeting end to end seal. Its
//   ends v and t do not count: a target on a wall is seen from both sides.
// - A viewer strictly inside a solid occluder sees nothing (not even a
//   target at its own position). One on a boundary sees out normally.
// - A target at the viewer's own position is seen (unless the viewer is
//   inside), and so is a target exactly at the range or on a cone edge.
// - Shapes block independently: two boxes meeting at a corner leave the
//   sight line through that corner open.
//
// The occluders are the shapes passing a QueryFilter (its two-way rule, as
// for every query): glass that blocks movement but not sight is a category
// left out of the mask. A one-sided segment or polyline blocks sight only
// for a viewer strictly in front of it (left of p1 -> p2). Which shapes
// occlude is decided in one place (internal::Occludes in
// lib/src/visibility/occluders.h).
#ifndef COLLIDE_VISIBILITY_H_
#define COLLIDE_VISIBILITY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/vec2.h"

namespace collide {

// A view cone: the closed region swept counter-clockwise from the ray along
// `right` to the ray along `left` (both non-zero), from the viewer. Where
// left lies counter-clockwise of right by less than a half turn the cone
// is narrower than a half turn; by more (Cross(right, left) < 0), wider;
// opposite directions make a half plane; equal directions a single ray.
// Membership is exact on these two vectors as given.
struct ViewCone {
  Vec2 right;
  Vec2 left;
};

// The cone of half-angle `half_angle` radians around `direction` (non-zero):
// its edges are `direction` rotated by -half_angle and +half_angle, each
// component rounded to double once (cos and sin of the standard library);
// the cone is then exactly the one those rounded edges bound. half_angle
// >= pi gives nullopt (no cone: every direction is in view); half_angle <=
// 0 the single ray along direction.
std::optional<ViewCone> MakeViewCone(Vec2 direction, double half_angle);

struct Viewer {
  Vec2 position;
  // A target farther than this (|t - v| > range, exactly) is not in view;
  // one at exactly range is. Absent: unlimited.
  std::optional<double> range;
  // Absent: every direction.
  std::optional<ViewCone> cone;
};

// Whether the target at `target` passes the viewer's range and cone, exactly.
bool InViewRegion(const Viewer& viewer, Vec2 target);

// Whether `viewer` sees `target` past the occluders `filter` chooses, by the
// rules above. Walks the cells along the sight line: the cost of one ray
// cast. Preconditions (COLLIDE_DCHECK): the points valid (IsValid).
bool Sees(const Level& level, const Viewer& viewer, Vec2 target,
          const QueryFilter& filter = {});

namespace internal {
struct FanSlot;
}  // namespace internal

// The working memory of VisibleTargets, sized once by the caller and
// reused across calls (one per thread): room for max_targets targets of
// one viewer at a time (about 80 bytes each; more targets are answered
// max_targets at a time), and for max_occluders occluders read around
// each viewer (16 bytes each), after which its remaining targets are
// walked to as Sees does. Neither capacity changes an answer, only the
// work. About 580 KiB at the defaults.
class VisibilityScratch {
 public:
  static constexpr int32_t kDefaultMaxTargets = 4096;
  static constexpr int32_t kDefaultMaxOccluders = 16384;
  explicit VisibilityScratch(int32_t max_targets = kDefaultMaxTargets,
                             int32_t max_occluders = kDefaultMaxOccluders);
  ~VisibilityScratch();
  VisibilityScratch(VisibilityScratch&&) noexcept;
  VisibilityScratch& operator=(VisibilityScratch&&) noexcept;

  // Heap bytes held.
  size_t memory_bytes() const;

  // What the last VisibleTargets call did (counts, for metrics and tests).
  struct Counts {
    int64_t occluders_gathered = 0;  // occluders read around viewers
    int64_t exact_tests = 0;         // per-shape sight line tests
    int64_t certified_blocked = 0;   // hidden by an occluder read or
                                     // found for another target
    int64_t walked_targets = 0;      // walked to as Sees does
  };
  const Counts& counts() const { return counts_; }

 private:
  friend struct VisibilityAccess;
  // One viewer's targets as loaded and as ordered by direction.
  std::vector<internal::FanSlot> loaded_;
  std::vector<internal::FanSlot> slots_;
  // Per direction bin, where its targets start; per target, the next
  // unresolved one; unresolved targets per ring of cells.
  std::vector<int32_t> bin_begin_;
  std::vector<int32_t> skip_;
  std::vector<int32_t> ring_counts_;
  // The targets' cells in the level's finest grid.
  std::vector<int32_t> cell_x_;
  std::vector<int32_t> cell_y_;
  // The occluders one viewer has read, stamped with its number.
  std::vector<uint64_t> seen_;
  uint32_t seen_stamp_ = 0;
  int32_t max_targets_ = 0;
  int32_t max_occluders_ = 0;
  Counts counts_;
};

// 64-bit words per viewer in VisibleTargets' answer.
inline int32_t VisibilityWords(int32_t target_count) {
  return (target_count + 63) / 64;
}

// For every viewer i, sets bit j of visible[i * words .. (i + 1) * words)
// (words = VisibilityWords(targets.size()); bit j % 64 of word j / 64)
// exactly when viewer i sees target j by the rules above, and clears the
// others. The same answers as Sees for every pair, sharing work: per
// viewer, the occluders around it are read once, ring by ring of cells,
// and each is tested against the targets in its directions; a target in
// the square of cells read that none of them hides is seen, and one
// beyond it is walked to from the square's edge as Sees walks (the
// occluder that walk finds is tested against the other targets in turn).
// The rings stop once fewer targets remain beyond them than the next ring
// has cells, so the work per viewer is bounded by its targets and the
// scratch, not by the level's size (docs/visibility.md).
// Preconditions: visible.size() >= viewers.size() * words, valid points,
// ranges >= 0, cone edges non-zero.
void VisibleTargets(const Level& level, absl::Span<const Viewer> viewers,
                    absl::Span<const Vec2> targets,
                    absl::Span<uint64_t> visible, VisibilityScratch& scratch,
                    const QueryFilter& filter = {});

}  // namespace collide

#endif  // COLLIDE_VISIBILITY_H_
