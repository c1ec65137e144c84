// The shot families: ValidateShot (validate.h) on the degenerate
// cases of the ray and circle casts, where the wall and the target are the
// same shape, the wall moved along the shot by lambda times its translation.
// Its contact then comes exactly lambda later than the target's (the shot
// meets the moved wall at t where it met the original at t - lambda), so
// the exact answer is known by construction: lambda = 0 is a tie, which
// the wall wins (validate.h); lambda > 0 puts the target first; lambda < 0
// the wall. Lambdas down to 2^-52 put the two contacts a few units in the
// last place of the fraction apart.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/validate.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

// Lambda for pose 1, a function of the case's bits: +-2^-k.
double PickLambda(const Scene& s) {
  uint64_t bits = 0;
  std::memcpy(&bits, &s.translation.x, sizeof bits);
  bits ^= bits >> 29;
  bits *= 0x9e3779b97f4a7c15u;
  static constexpr int kExponents[] = {20, 40, 50, 52};
  const double lambda = std::ldexp(1.0, -kExponents[(bits >> 40) & 3]);
  return (bits >> 45) & 1 ? lambda : -lambda;
}

// Every point of the obstacle moved by shift exactly.
bool ExactShift(const Scene& s, Vec2 shift) {
  for (Vec2 p : ObstacleCore(s).points) {
    const Vec2 q = p + shift;
    if (q - shift != p || q - p != shift) return false;
  }
  return true;
}

std::optional<BodyShape> Hitbox(const Scene& s) {
  switch (s.obstacle_kind) {
    case ObstacleKind::kSegment:
      return Capsule{s.segment.p1, s.segment.p2, 0.0};
    case ObstacleKind::kCircle:
      return s.obstacle_circle;
    case ObstacleKind::kCapsule:
      return s.obstacle_capsule;
    case ObstacleKind::kPolygon:
      return s.obstacle_polygon;
    default:
      return std::nullopt;
  }
}

const char* KindName(const std::optional<ShotHit>& h) {
  if (!h) return "nothing";
  return h->kind == ShotHitKind::kWall ? "the wall" : "the target";
}

}  // namespace

Disagreement CompareShot(const DegenerateCase& c, int pose, bool* expected,
                         bool* touching, std::string* why) {
  Scene s = c.scene;
  s.options = CastOptions{};  // shots sweep the whole tick, no skin
  const std::optional<BodyShape> hitbox = Hitbox(s);
  const double lambda = pose == 0 ? 0.0 : PickLambda(s);
  const Vec2 shift = lambda * s.translation;
  if (!hitbox || !ExactShift(s, shift)) {
    *why = "no exact shift";
    return Disagreement::kSkipped;
  }
  const Verdict v = SolveSceneExact(s);
  *touching = v.touching_start;
  // The expected first thing met, and when.
  enum class Want { kNothing, kWall, kTarget } want = Want::kNothing;
  double t_lo = 0.0, t_hi = 0.0;
  switch (v.outcome) {
    case Outcome::kMiss:
      // The moved wall's contacts are the target's, shifted in time: they
      // may enter [0, 1]. Only the tie is known.
      if (lambda != 0.0) {
        *why = "a miss with a moved wall";
        return Disagreement::kSkipped;
      }
      break;
    case Outcome::kHit:
      t_lo = v.t_lo;
      t_hi = v.t_hi;
      if (lambda > 0.0) {
        want = Want::kTarget;
      } else if (lambda == 0.0) {
        want = Want::kWall;
      } else if (t_lo + lambda > 0.0) {
        want = Want::kWall;
        t_lo += lambda;
        t_hi += lambda;
      } else {
        *why = "the moved wall reaches the start";
        return Disagreement::kSkipped;
      }
      break;
    case Outcome::kInitialOverlap:
      if (lambda != 0.0) {
        *why = "a start overlap with a moved wall";
        return Disagreement::kSkipped;
      }
      want = Want::kWall;
      break;
    default:
      *why = std::string("oracle: ") + OutcomeName(v.outcome);
      return Disagreement::kSkipped;
  }
  *expected = want != Want::kNothing;
  const absl::StatusOr<Level> level = ObstacleLevel(s, shift);
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  Shot shot;
  if (s.mover_kind == MoverKind::kRay) {
    shot = {s.ray_origin, s.translation, 0.0};
  } else {
    shot = {s.circle.center, s.translation, s.circle.radius};
  }
  const ShotTarget target{.id = 3, .hitbox = *hitbox, .translation = {}};
  const std::optional<ShotHit> got = ValidateShot(shot, *level, {&target, 1});
  char text[200];
  std::snprintf(text, sizeof text,
                " (lambda %.3g; exact %s, t in (%.17g, %.17g])", lambda,
                want == Want::kNothing
                    ? "nothing"
                    : (want == Want::kWall ? "the wall" : "the target"),
                t_lo, t_hi);
  const bool got_wall = got && got->kind == ShotHitKind::kWall;
  const bool got_target = got && got->kind == ShotHitKind::kTarget;
  if (got.has_value() != *expected) {
    *why = std::string("ValidateShot met ") + KindName(got) + text;
    return Disagreement::kHitMiss;
  }
  if ((want == Want::kWall && !got_wall) ||
      (want == Want::kTarget && !got_target)) {
    *why = std::string("ValidateShot met ") + KindName(got) +
           (got ? " at " + std::to_string(got->hit.fraction) : "") + text;
    return Disagreement::kStatus;
  }
  if (got && v.outcome == Outcome::kHit &&
      (got->hit.fraction < t_lo - kFractionTol ||
       got->hit.fraction > t_hi + kFractionTol)) {
    *why = "fraction " + std::to_string(got->hit.fraction) + text;
    return Disagreement::kFraction;
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
