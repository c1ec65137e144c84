// The exit search for a mover that starts inside geometry (see ExitResult
// in collide/validate.h for the contract).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <variant>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "validate/move_parts.h"
#include "world/body_cast.h"

namespace collide::internal {
namespace {

// The translations x with dot(x, normal) >= offset: those that take the
// mover out of one overlapped shape (normal is unit).
struct HalfPlane {
  Vec2 normal;
  double offset = 0.0;
};

// A candidate may miss a half-plane by this share of the problem's scale
// (the 2x2 solves below round); the verification cast after each push
// catches anything that matters.
constexpr double kFeasibilityShare = 1e-12;
// Normals closer than this (cosine) face the same way: merging their
// half-planes moves the exit by at most ~1e-6 of its length along the
// other normal, which the verification cast catches if it matters.
constexpr double kSameNormal = 1.0 - 1e-12;
// Half-plane pairs whose normals are closer to parallel than this (sine of
// the angle) have no useful crossing: the single-plane candidates cover
// them.
constexpr double kParallelSine = 1e-12;

// The shortest x in every half-plane, or nullopt when they have no common
// point. A convex quadratic program in 2D: at the optimum at most two
// constraints are active, so the optimum is zero, a single plane's nearest
// point (offset * normal), or the crossing of two planes' boundary lines;
// the shortest feasible candidate is it. Ties keep the first found, so the
// answer depends only on the order of `planes`.
std::optional<Vec2> ShortestInAll(absl::Span<const HalfPlane> planes) {
  double scale = 0.0;
  for (const HalfPlane& p : planes) scale = std::max(scale, std::abs(p.offset));
  const auto feasible = [&](Vec2 x) {
    const double slack = kFeasibilityShare * (scale + Length(x));
    for (const HalfPlane& p : planes) {
      if (Dot(x, p.normal) < p.offset - slack) return false;
    }
    return true;
  };
  if (feasible(Vec2{})) return Vec2{};
  std::optional<Vec2> best;
  const auto offer = [&](Vec2 x) {
    if (feasible(x) && (!best || LengthSquared(x) < LengthSquared(*best))) {
      best = x;
    }
  };
  for (const HalfPlane& p : planes) {
    if (p.offset > 0.0) offer(p.offset * p.normal);
  }
  for (size_t i = 0; i < planes.size(); ++i) {
    for (size_t j = i + 1; j < planes.size(); ++j) {
      const Vec2 a = planes[i].normal;
      const Vec2 b = planes[j].normal;
      const double det = Cross(a, b);
      if (std::abs(det) <= kParallelSine) continue;
      // Cramer's rule for dot(x, a) = offset_i, dot(x, b) = offset_j.
      const double oa = planes[i].offset;
      const double ob = planes[j].offset;
      offer({(oa * b.y - ob * a.y) / det, (a.x * ob - b.x * oa) / det});
    }
  }
  return best;
}

template <typename Body>
ExitResult FindExitForBody(const Body& mover, const Level& level,
                           const QueryFilter& filter, double skin,
                           int32_t max_iterations) {
  ExitResult result;
  // A push of exactly the depth lands in contact only up to the rounding
  // of coordinates far from the origin, which the verification cast can
  // read as overlap; the kept gap clears it.
  const double gap = KeptGap(CoordinateScale(mover), Vec2{}, skin);
  std::array<HalfPlane, kMaxExitShapes * kMaxExitIterations> planes;
  int32_t plane_count = 0;
  std::array<WorldHit, kMaxExitShapes> overlaps;
  Vec2 x;
  for (int32_t push = 0;; ++push) {
    // A zero translation reports exactly the shapes overlapped beyond
    // rounding (touching without motion is no hit), each with its minimum
    // separation, sorted by shape id.
    const ListResult found = CastBodyAll(Translated(mover, x), Vec2{}, level,
                                         absl::MakeSpan(overlaps), filter, {});
    if (push == 0) {
      for (int32_t i = 0; i < found.count; ++i) {
        result.overlapped[i] = {overlaps[i].shape_id, overlaps[i].user_data};
        result.depth = std::max(result.depth, overlaps[i].hit.depth);
      }
      result.overlapped_count = found.count;
      result.overlapped_truncated = found.truncated;
    }
    if (found.count == 0) {
      result.separated = true;
      break;
    }
    if (push == max_iterations) break;
    for (int32_t i = 0; i < found.count; ++i) {
      const Hit& hit = overlaps[i].hit;
      // A degenerate start (centres coinciding) may come without a
      // direction; such a shape constrains nothing until it has one.
      if (!(LengthSquared(hit.normal) > 0.5)) continue;
      // Measured from the current position x: dot(y - x, n) >= depth + gap.
      const HalfPlane plane{hit.normal, hit.depth + gap + Dot(x, hit.normal)};
      // Half-planes facing the same way (a wall met again, or through two
      // collinear segments) keep only the stricter, so the solve below
      // stays small.
      bool merged = false;
      for (int32_t k = 0; k < plane_count && !merged; ++k) {
        if (Dot(planes[k].normal, plane.normal) >= kSameNormal) {
          planes[k].offset = std::max(planes[k].offset, plane.offset);
          merged = true;
        }
      }
      if (!merged) planes[plane_count++] = plane;
    }
    const std::optional<Vec2> next =
        ShortestInAll(absl::MakeConstSpan(planes.data(), plane_count));
    // No common exit, or no progress; or the exit lies beyond the range
    // lib/ accepts (kMaxCoordinate): the body cannot be placed there.
    if (!next || *next == x || !IsValid(Translated(mover, *next))) break;
    x = *next;
    ++result.iterations;
  }
  result.translation = x;
  return result;
}

}  // namespace

ExitResult FindExit(const BodyShape& mover, const Level& level,
                    const QueryFilter& filter, double skin,
                    int32_t max_iterations) {
  COLLIDE_DCHECK(max_iterations >= 1 && max_iterations <= kMaxExitIterations);
  return std::visit(
      [&](const auto& body) {
        return FindExitForBody(body, level, filter, skin, max_iterations);
      },
      mover);
}

}  // namespace collide::internal
