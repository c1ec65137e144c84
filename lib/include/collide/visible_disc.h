// Line of sight to a disc: whether a viewer sees any part of a circle
// target, by the rules of collide/visibility.h (docs/visibility.md, "Circle
// targets seen by any part", states the contract and the argument).
#ifndef COLLIDE_VISIBLE_DISC_H_
#define COLLIDE_VISIBLE_DISC_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/visibility.h"

namespace collide {

// The working memory of SeesDisc, sized once by the caller and reused (one
// per thread): the occluders near one viewer-disc pair (24 bytes each),
// their critical directions (up to 24 per occluder, 8 bytes each) and the
// arcs of directions they surely block (16 bytes each).
class DiscSightScratch {
 public:
  static constexpr int32_t kDefaultMaxOccluders = 4096;
  explicit DiscSightScratch(int32_t max_occluders = kDefaultMaxOccluders);

  int32_t max_occluders() const { return max_occluders_; }
  // Heap bytes held.
  size_t memory_bytes() const;
  // The occluders the last SeesDisc call found near its pair (more than
  // max_occluders() when it answered nullopt).
  int32_t occluders_found() const { return occluders_found_; }

 private:
  friend struct DiscSightAccess;
  struct Occluder {
    const Level* level = nullptr;
    const Level::Primitive* primitive = nullptr;  // null: concave `shape`
    int32_t shape = 0;
  };
  std::vector<Occluder> occluders_;
  std::vector<double> angles_;
  // Arcs of directions surely blocked: (lo, hi) as angles from the disc's
  // centre direction.
  std::vector<std::pair<double, double>> blocked_;
  int32_t max_occluders_ = 0;
  int32_t occluders_found_ = 0;
};

// Whether `viewer` sees some point of the closed disc `target` (centre c,
// radius r >= 0) by the rules of collide/visibility.h: some point p of the
// disc in the viewer's range and cone whose sight line [v, p] no occluder
// blocks. So a disc tangent to the range circle or to a cone edge is in
// view at its touching point; a disc seen only at a point where a sight
// line grazes an occluder's vertex or touches a wall it ends on is seen.
// A viewer inside the disc sees it unless the viewer is strictly inside a
// solid occluder (then it sees nothing). Radius 0 answers as Sees(c).
//
// Every "seen" is certified by an exact test of one sight line (the ray
// from v along a direction given exactly, up to where it first meets the
// disc); the directions tried are the disc's centre, every occluder vertex
// and cone edge, the feet of the perpendiculars from c to the occluders'
// edges, the points where the disc touches round occluders and the
// tangents from v, those two where their directions are exact, and,
// between the occluders' critical directions (tangents, vertex
// directions, crossings of their outlines with the disc's and the range's
// circles, computed in double and sorted), one inside each arc. A "hidden"
// is exact unless the disc is seen only through an arc of directions
// narrower than the rounding of those critical directions (about 1e-16
// radians) with an irrational end, or only along one irrational direction
// (docs/visibility.md). Returns nullopt when
// more than scratch.max_occluders() occluders may block a sight line to
// the disc (those in the box around the viewer and the disc, clipped to
// the range, that reach nearer than the centre and into the cone of the
// disc's tangents): the answer needs a larger scratch. Preconditions:
// valid points, r >= 0, ranges >= 0, cone edges non-zero.
std::optional<bool> SeesDisc(const Level& level, const Viewer& viewer,
                             Circle target, DiscSightScratch& scratch,
                             const QueryFilter& filter = {});

}  // namespace collide

#endif  // COLLIDE_VISIBLE_DISC_H_
