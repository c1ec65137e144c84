// Collide-and-slide: the slide loop of ValidateMove (see SlideResult in
// collide/validate.h for the contract).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
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

// Remaining motion shorter than this share of the claimed translation is
// not worth another cast.
constexpr double kMinRemainingShare = 1e-9;
// A motion respects a contact plane when it goes into it by at most this
// share of its length: planes a rounding apart (one wall seen through two
// collinear segments, a polygon edge flush with a segment) then act as one
// instead of making a false corner. Going in by so little cannot tunnel:
// the next cast stops the mover at that plane again.
constexpr double kPlaneTolerance = 1e-9;
// A slid motion is tilted away from the plane it slides along by this many
// rounding errors of its length. Projected exactly, it would point into the
// plane or out of it by a few ulps at random, and a mover sitting at the
// skin distance would then meet the plane again at an arbitrary fraction.
constexpr double kTiltRoundings = 16.0 * std::numeric_limits<double>::epsilon();
// The least gap the slide keeps, as a share of the query's coordinate
// scale, even with skin 0. Sliding at an exact zero gap runs a polygon's
// vertex exactly along a wall's line and so exactly through the wall's end
// vertex, where the narrow phase's zero-radius endpoint test may round to a
// miss and let the vertex slip behind the next segment of a polyline (found
// by the randomized slide tests). Any positive gap above rounding turns
// that exact pass into a clean crossing.
constexpr double kMinKeptGapShare = 1e-12;

// The projection of `motion` onto the motions that go into none of the
// contact planes (unit `normals`, pointing out of the obstacles): the
// nearest point of the cone {x : dot(x, n_i) >= 0 for all i}. By the
// optimality conditions that point is `motion` itself, or its projection
// along one plane the motion goes into (motion - dot(motion, n) n), or zero
// (two planes facing the motion meet in a crease which, in 2D, is a single
// point: a corner). The nearest feasible candidate is therefore the answer.
// `motion` itself must respect every plane exactly: the newest plane is one
// the last cast found the motion going into, by however little (a normal
// measured across a small gap is a few ulps off the previous one), and
// keeping the motion would meet it again at once. A projected candidate
// may go into the other planes by the tolerance. Newer planes (later in
// `normals`) win ties.
Vec2 ProjectOntoFreeMotions(Vec2 motion, absl::Span<const Vec2> normals) {
  const auto respects_all = [&](Vec2 x, double tolerance) {
    for (const Vec2 n : normals) {
      if (Dot(x, n) < -tolerance) return false;
    }
    return true;
  };
  // The newest plane must be left by more than its normal's rounding (a
  // few ulps of the motion): the cast decides "moving in" exactly, and a
  // motion whose rounded dot product with the plane is 0 may go into it.
  const double leaving = 0.25 * kTiltRoundings * Length(motion);
  const auto goes_into = [&](size_t k, double into) {
    return k + 1 == normals.size() ? into < leaving : into < 0.0;
  };
  if (respects_all(motion, 0.0) &&
      !goes_into(normals.size() - 1, Dot(motion, normals.back()))) {
    return motion;
  }
  const double tolerance = kPlaneTolerance * Length(motion);
  std::optional<Vec2> best;
  double best_removed = 0.0;
  for (size_t k = normals.size(); k-- > 0;) {
    const Vec2 n = normals[k];
    const double into = Dot(motion, n);
    // Only planes the motion goes into can be active at the projection.
    if (!goes_into(k, into)) continue;
    Vec2 along = motion - into * n;
    // A second pass removes what rounding left along n: after the first,
    // dot(along, n) is a few ulps of |motion|, which for a nearly head-on
    // motion dwarfs |along| itself and would tip it back into the plane.
    along = along - Dot(along, n) * n;
    if (!respects_all(along, tolerance)) continue;
    if (!best || -into < best_removed) {
      best = along + (kTiltRoundings * Length(along)) * n;
      best_removed = -into;
    }
  }
  return best.value_or(Vec2{});
}

template <typename Body>
SlideResult SlideBody(const Body& mover, Vec2 translation, const Level& level,
                      const QueryFilter& filter, double skin,
                      int32_t max_iterations,
                      const std::optional<WorldHit>& first_cast) {
  SlideResult result;
  const double min_remaining = kMinRemainingShare * Length(translation);
  const double slide_skin = KeptGap(CoordinateScale(mover), translation, skin);
  const CastOptions options{.target_distance = slide_skin};
  // The planes touched since the mover last advanced. A plane touched
  // before an advance is dropped: the mover may have slid past the end of
  // that wall, and keeping it would stop the mover in a corner that is not
  // there. If the wall is still there, the next cast meets it again at once
  // (no advance) and it rejoins the set, so a real corner costs one more
  // cast instead of giving a wrong answer.
  std::array<Vec2, kMaxSlideIterations> planes;
  int32_t plane_count = 0;
  Vec2 position;
  Vec2 remaining = translation;
  while (result.iterations < max_iterations &&
         Length(remaining) > min_remaining) {
    const Body moved = Translated(mover, position);
    // A slide can carry the mover past kMaxCoordinate (a body near the edge
    // of the accepted range moving outwards), where lib/ cannot place it,
    // and a projection turned onto one axis can leave a remaining
    // translation longer than kMaxCoordinate along it: it stops there,
    // unfinished.
    if (!IsValid(moved) || !IsInRange(remaining)) break;
    const std::optional<WorldHit> hit =
        result.iterations == 0 && slide_skin == skin
            ? first_cast
            : CastBody(moved, remaining, level, filter, options);
    ++result.iterations;
    if (!hit) {
      position = position + remaining;
      remaining = Vec2{};
      break;
    }
    const Vec2 advance = hit->hit.fraction * remaining;
    position = position + advance;
    remaining = remaining - advance;
    SlideContact& contact = result.contacts[result.contact_count++];
    contact = {.translation = position,
               .point = hit->hit.point,
               .normal = hit->hit.normal,
               .feature = hit->hit.feature,
               .shape_id = hit->shape_id,
               .user_data = hit->user_data};
    if (hit->hit.status == HitStatus::kInitialOverlap && hit->hit.depth > 0.0) {
      // Overlapping beyond rounding, which the loop never moves into: stay
      // at the last safe position rather than slide on from inside.
      remaining = Vec2{};
      break;
    }
    if (Length(advance) > min_remaining) plane_count = 0;
    planes[plane_count++] = hit->hit.normal;
    remaining = ProjectOntoFreeMotions(
        remaining, absl::MakeConstSpan(planes.data(), plane_count));
  }
  result.translation = position;
  result.out_of_iterations = Length(remaining) > min_remaining;
  return result;
}

}  // namespace

double KeptGap(double coordinate_scale, Vec2 translation, double skin) {
  const double scale = coordinate_scale + std::max(std::abs(translation.x),
                                                   std::abs(translation.y));
  return std::max(skin, kMinKeptGapShare * scale);
}

SlideResult Slide(const BodyShape& mover, Vec2 translation, const Level& level,
                  const QueryFilter& filter, double skin,
                  int32_t max_iterations,
                  const std::optional<WorldHit>& first_cast) {
  COLLIDE_DCHECK(max_iterations >= 0 && max_iterations <= kMaxSlideIterations);
  return std::visit(
      [&](const auto& body) {
        return SlideBody(body, translation, level, filter, skin, max_iterations,
                         first_cast);
      },
      mover);
}

}  // namespace collide::internal
