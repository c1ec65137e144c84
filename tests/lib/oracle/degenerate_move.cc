// The move families: ValidateMove (validate.h, skin 0, no slide) on
// the degenerate cases of the convex casts, whose hit or miss decides the
// verdict. Exactly: the mover starts inside when the shapes overlap by more
// than touching; otherwise the move is blocked when it comes into contact
// by its end (touching counts) and the contact goes in, which for convex
// shapes is when no line along the motion keeps them apart (LineGapSign:
// a graze, a slide along a surface, passes beside).
#include <cmath>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/validate.h"
#include "degenerate.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

std::optional<BodyShape> Body(const Scene& s) {
  switch (s.mover_kind) {
    case MoverKind::kCircle:
      return s.circle;
    case MoverKind::kCapsule:
      return s.capsule;
    case MoverKind::kPolygon:
      return s.polygon;
    case MoverKind::kRay:
      break;
  }
  return std::nullopt;
}

const char* VerdictName(MoveVerdict v) {
  switch (v) {
    case MoveVerdict::kAllowed:
      return "allowed";
    case MoveVerdict::kBlocked:
      return "blocked";
    case MoveVerdict::kStartsInside:
      return "starts inside";
  }
  return "?";
}

}  // namespace

Disagreement CompareMove(const DegenerateCase& c, int pose, bool* expected,
                         bool* touching, std::string* why) {
  Scene s = c.scene;
  // Pose 0: the whole translation; 1: the case's max_fraction of it (a
  // move ending where the case's contact is, exactly at max_fraction).
  if (pose == 1) {
    const double f = s.options.max_fraction;
    const Vec2 part = f * s.translation;
    if (f == 1.0 || part.x / f != s.translation.x ||
        part.y / f != s.translation.y) {
      *why = "no exact partial move";
      return Disagreement::kSkipped;
    }
    s.translation = part;
  }
  s.options = CastOptions{};
  const std::optional<BodyShape> body = Body(s);
  if (!body || s.obstacle_kind == ObstacleKind::kConcave) {
    *why = "not a move";
    return Disagreement::kSkipped;
  }
  const Core mover = MoverCore(s);
  const Core obstacle = ObstacleCore(s);
  const int start = GapSign(mover, obstacle, 0.0);
  *touching = start == 0;
  MoveVerdict want = MoveVerdict::kAllowed;
  double t_lo = 0.0, t_hi = 0.0;
  if (start < 0) {
    want = MoveVerdict::kStartsInside;
  } else if (s.translation.x != 0.0 || s.translation.y != 0.0) {
    const Verdict v = SolveSceneExact(s);
    const bool contact =
        v.outcome == Outcome::kHit || v.outcome == Outcome::kInitialOverlap;
    if (v.outcome == Outcome::kHit) {
      t_lo = v.t_lo;
      t_hi = v.t_hi;
    }
    if (contact && LineGapSign(mover, s.translation, obstacle) < 0) {
      want = MoveVerdict::kBlocked;
    }
  }
  *expected = want != MoveVerdict::kAllowed;
  const absl::StatusOr<Level> level = ObstacleLevel(s, {});
  if (!level.ok()) {
    *why = "level: " + std::string(level.status().message());
    return Disagreement::kSkipped;
  }
  const MoveValidation got =
      ValidateMove(MoveClaim{*body, s.translation}, *level);
  char text[160];
  std::snprintf(text, sizeof text, "ValidateMove: %s, exact: %s%s",
                VerdictName(got.verdict), VerdictName(want),
                *touching ? " (touching start)" : "");
  if ((got.verdict == MoveVerdict::kAllowed) != !*expected) {
    *why = text;
    return Disagreement::kHitMiss;
  }
  if (got.verdict != want) {
    *why = text;
    return Disagreement::kStatus;
  }
  if (want == MoveVerdict::kBlocked && got.first_hit) {
    const double f = got.first_hit->hit.fraction;
    if (f < t_lo - kFractionTol || f > t_hi + kFractionTol) {
      char more[120];
      std::snprintf(more, sizeof more,
                    "; first_hit at %.17g, t in (%.17g, %.17g]", f, t_lo, t_hi);
      *why = std::string(text) + more;
      return Disagreement::kFraction;
    }
  }
  return Disagreement::kNone;
}

}  // namespace collide::oracle
