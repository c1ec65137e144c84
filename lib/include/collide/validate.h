// Validating what game clients claim, on top of the world queries of
// query.h and the per-shape casts of toi.h:
// - ValidateMove: a mover claims to go from P to Q in one step. Allowed or
//   blocked, the first contact, the furthest safe position, and on request
//   the collide-and-slide result; a mover that starts inside geometry gets
//   the shortest exit found.
// - ValidateShot: a shot during one tick against the level and a list of
//   lag-compensated targets, each translating from its start to its end
//   pose during the same tick: the first wall or target it meets.
// - CastPair: the time of impact of two shapes that both translate during a
//   step, with no level.
//
// Frame and units: world coordinates in level units. A fraction is a share
// of a translation (of the step, for shots and pairs), never seconds. Every
// position a result reports for a mover is a translation from its start
// pose ("where it ends" = start pose moved by that translation), so the
// same result serves circles, capsules and polygons.
//
// Everything here is deterministic (the same input gives bitwise the same
// answer on any thread) and allocation-free: lists are fixed-size arrays in
// the result or caller spans. Preconditions are asserted (COLLIDE_DCHECK);
// callers at a trust boundary check the IsValid overloads first.
#ifndef COLLIDE_VALIDATE_H_
#define COLLIDE_VALIDATE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <variant>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide {

// A body that moves or is hit: a circle (a character, a ball), a capsule (a
// standing character) or a convex polygon (a vehicle, a crate), at its
// start pose.
using BodyShape = std::variant<Circle, Capsule, ConvexPolygon>;

// Finite coordinates within kMaxCoordinate, radii >= 0, a polygon built by
// MakeConvexPolygon / MakeBox.
bool IsValid(const BodyShape& shape);

// ---------------------------------------------------------------------------
// Move validation.

// The most slide iterations (casts of the slide loop) one validation runs;
// the slide's contact list holds one entry per iteration.
inline constexpr int32_t kMaxSlideIterations = 32;
// The most pushes the exit search of a mover that starts inside geometry
// makes, and the most overlapped shapes it considers per push.
inline constexpr int32_t kMaxExitIterations = 8;
inline constexpr int32_t kMaxExitShapes = 16;

// A claimed move: `mover` at its start pose P, moving by `translation`
// (Q - P) in one step.
struct MoveClaim {
  BodyShape mover;
  Vec2 translation{};
};

struct MoveOptions {
  // Level units, >= 0: the safe position and every slide step stop this far
  // short of blocking contact (see MoveVerdict), so a mover that slides
  // along a wall keeps this gap to it, and the exit search leaves this gap
  // too. A shape the mover passes beside may be passed closer than the
  // skin (a mover resting on a floor slides on along it). 0 puts the safe
  // position exactly in contact (touching, up to rounding); the slide and the
  // exit then still keep a gap of 1e-12 of the coordinates' magnitude, because
  // at an exact zero gap rounding decides which side of a wall's end a
  // sliding vertex passes. A small positive skin (e.g. 1e-3 of the mover's
  // size) is the robust choice.
  double skin = 0.0;
  // 0: no slide. 1..kMaxSlideIterations: run collide-and-slide with at most
  // this many casts (see SlideResult).
  int32_t max_slide_iterations = 0;
  // 1..kMaxExitIterations: pushes the exit search of a mover that starts
  // inside geometry may make (see ExitResult).
  int32_t max_exit_iterations = 4;
};

bool IsValid(const MoveClaim& claim);
bool IsValid(const MoveOptions& options);

// Only contacts the mover would go into block it. A contact with a shape
// that some line along the motion separates from the mover for the whole
// move, decided exactly, is a touch and not a block: sliding along a floor
// onto the next tile level with it, across a pit in a terrain polygon,
// grazing a pillar or a corner. (A polyline counts segment by segment. For
// a convex shape that is every touch that does not go in; a concave
// polygon can also be touched with parts of it on both sides of every such
// line, a mover sliding along a valley's floor into its far wall, and those
// contacts count.)
enum class MoveVerdict : uint8_t {
  // The straight path from P to Q touches nothing it would go into.
  kAllowed,
  // The straight path comes into contact with a shape it would go into (at
  // first_hit.fraction < 1, or exactly at the claimed end).
  kBlocked,
  // The mover overlaps the level at P (penetration beyond rounding): the move
  // is not validated; exit says how to get out.
  kStartsInside,
};

// One contact of the slide: a plane the mover touched.
struct SlideContact {
  // Where the mover was when it touched (`skin` short of contact), as a
  // translation from its start pose.
  Vec2 translation;
  // The obstacle point nearest the mover then, and the unit normal from the
  // obstacle towards the mover: the contact plane.
  Vec2 point;
  Vec2 normal;
  Feature feature;
  uint64_t shape_id = 0;
  uint64_t user_data = 0;
};

// Collide-and-slide: cast the mover along the remaining motion (stopping
// `skin` short of a blocking contact, see MoveVerdict); at a contact, replace
// the remaining motion by its projection onto the motions that go into none of
// the planes touched since the mover last advanced, and cast again. In 2D that
// projection is the motion itself, its projection along one plane (sliding
// along a wall), or zero (a corner: two planes that both face the motion meet
// in a crease that is a single point, so the mover stops). The loop ends when
// the remaining motion is below 1e-9 of the claimed translation, when a cast
// meets nothing, or after max_slide_iterations casts. Every position is the
// safe fraction of a cast, so the slide never tunnels and never ends inside
// geometry (with skin 0 it may end touching).
struct SlideResult {
  // Where the slide ends, as a translation from the start pose.
  Vec2 translation;
  // Casts run (0 when the move was allowed and no cast was needed).
  int32_t iterations = 0;
  // True when motion was left over after the last iteration (more
  // iterations might have gone further).
  bool out_of_iterations = false;
  // Every contact in order, one per iteration that met something.
  std::array<SlideContact, kMaxSlideIterations> contacts;
  int32_t contact_count = 0;
};

// The way out of a mover that starts inside geometry. Each overlapped shape
// i (found by a zero-translation cast) gives its minimum separation: unit
// normal n_i (from the shape towards the mover) and depth d_i, and any
// translation x with dot(x, n_i) >= d_i + skin separates the mover from it
// (exactly for convex shapes: their projections on n_i then no longer
// overlap; the skin is the kept gap of MoveOptions::skin). The exit is the
// shortest x satisfying every such half-plane at once (an exact 2D minimum-norm
// solve). The mover is then checked again at the new position, shapes it now
// overlaps add their half-planes, and the search repeats, up to
// max_exit_iterations pushes. For one convex shape this is the minimum
// translation (the penetration vector plus the skin); for several it is the
// shortest exit that leaves each overlapped shape along its own separation
// normal, which may be longer than the globally shortest exit. separated says
// whether the final position was verified clear.
struct ExitResult {
  // The exit: a translation from the start pose. When separated is false,
  // the last push tried (zero when even the first half-planes had no common
  // solution, e.g. a mover wider than the gap it is wedged in).
  Vec2 translation;
  // True when the mover at `translation` overlaps nothing (verified).
  bool separated = false;
  // Pushes made.
  int32_t iterations = 0;
  // The deepest penetration at the start pose (level units).
  double depth = 0.0;
  // The shapes overlapped at the start pose, by ascending shape id; when
  // more than kMaxExitShapes, the smallest ids and truncated set.
  std::array<ShapeRef, kMaxExitShapes> overlapped;
  int32_t overlapped_count = 0;
  bool overlapped_truncated = false;
};

struct MoveValidation {
  MoveVerdict verdict = MoveVerdict::kAllowed;
  // The straight path's first blocking contact (exact, no skin), as
  // CastCircle / CastCapsule / CastPolygon of query.h report it, less the
  // touches of shapes the mover passes beside (see MoveVerdict); nullopt
  // when allowed. For kStartsInside, a fraction-0 contact.
  std::optional<WorldHit> first_hit;
  // The furthest safe position along the straight path, as a share of the
  // claimed translation and as a translation: 1 and the claimed translation
  // when allowed; else where the gap to the shapes it would go into (see
  // MoveVerdict) first equals the skin
  // (0 when the mover starts within the skin and closes in); for
  // kStartsInside, 0.
  double safe_fraction = 1.0;
  Vec2 safe_translation;
  // Set when options.max_slide_iterations > 0 and the mover does not start
  // inside (an allowed move slides all the way with no contact).
  std::optional<SlideResult> slide;
  // Set for kStartsInside.
  std::optional<ExitResult> exit;
  // Whether the mover can get to the claimed end: always when allowed;
  // with a slide, when the slide ends within skin (plus 1e-9 of the
  // translation's length, for rounding) of the claimed end (a slide keeps
  // `skin` off walls, so a claimed end touching a wall counts); without a
  // slide, never for a blocked move; never when starting inside.
  bool claimed_end_reachable = true;
};

// Validates `claim` against the level shapes passing `filter`. Every input
// has an answer; a zero translation is allowed unless the mover starts
// inside (touching without motion is no contact).
// Preconditions: IsValid(claim), IsValid(options).
MoveValidation ValidateMove(const MoveClaim& claim, const Level& level,
                            const QueryFilter& filter = {},
                            const MoveOptions& options = {});

// ---------------------------------------------------------------------------
// Hit validation with lag compensation.

// A shot during one tick: a point (radius 0: a ray) or a disc (radius > 0: a
// thick ray, a circle cast) going from origin to origin + translation.
struct Shot {
  Vec2 origin{};
  Vec2 translation{};
  double radius = 0.0;
};

// A target's hitbox during the same tick, from the server's rewound
// history: `hitbox` at its start pose, translating by `translation` to its
// end pose.
struct ShotTarget {
  // The caller's id for the target (need not be unique; ties between
  // targets break on it, then on the position in the span).
  uint64_t id = 0;
  BodyShape hitbox;
  Vec2 translation{};
};

bool IsValid(const Shot& shot);
bool IsValid(const ShotTarget& target);

enum class ShotHitKind : uint8_t { kWall, kTarget };

// What a shot met first.
struct ShotHit {
  ShotHitKind kind = ShotHitKind::kWall;
  // The wall's shape id, or the target's id.
  uint64_t id = 0;
  // The wall's user data; 0 for a target.
  uint64_t user_data = 0;
  // The target's position in the span; -1 for a wall.
  int32_t target_index = -1;
  // fraction: share of the tick (and of the shot's translation); point: on
  // the wall or on the target where the target is at that fraction; normal:
  // unit, from the wall or target towards the shot; feature: the wall's or
  // hitbox's part; kInitialOverlap when the shot starts inside it.
  Hit hit;
};

// The first thing the shot meets: the earliest of the level cast
// (CastRay or CastCircle of query.h over shapes passing `filter`) and each
// target's moving-vs-moving cast (toi.h's Moving<> overloads: a target is
// hit only if shot and hitbox meet at the same fraction of the tick). A
// target behind a wall is not hit. Which comes first is decided on the
// exact contact times, not their rounded fractions: the exactly earlier
// contact is first, also when both exact times lie between the same two
// doubles (a moving target's on the exact difference of the two
// translations). Contacts at one exact time tie: a tie goes to the wall (a
// shot must clearly reach a target, so a target flush with a wall is not
// hit), then to the smallest target id, then to the lowest position in
// `targets`. nullopt when the shot meets nothing. Undecided (the tie
// rule stands, as if equal): a wall hit at fraction 0 on a concave solid,
// and a ray at a target of zero radius and length (a point). A shot
// starting inside a wall or a hitbox hits it at fraction 0
// (kInitialOverlap); a ray starting on a wall segment and leaving does not.
// Preconditions: IsValid(shot), IsValid(target) for every target.
std::optional<ShotHit> ValidateShot(const Shot& shot, const Level& level,
                                    absl::Span<const ShotTarget> targets,
                                    const QueryFilter& filter = {});

// ---------------------------------------------------------------------------
// Pair time of impact.

// Any shape of the pair query: a point, a segment, a circle, a capsule or a
// convex polygon.
using PairShape = std::variant<Vec2, Segment, Circle, Capsule, ConvexPolygon>;

// A shape at its start pose, translating by `translation` during the step.
struct MovingShape {
  PairShape shape;
  Vec2 translation{};
};

bool IsValid(const MovingShape& shape);

// The first contact of `a` and `b`, both translating during the same step
// (translation only), with the conventions of toi.h: fraction of the step,
// point on b's surface where b is then, unit normal from b towards a,
// feature of b, kInitialOverlap with depth when they start overlapping (or
// touching and closing in), nullopt when they do not meet within
// options.max_fraction. Two points meet only when they coincide. Swapping a
// and b gives the same fraction up to rounding, with the normal reversed.
// Preconditions: IsValid(a), IsValid(b), IsValid(options).
std::optional<Hit> CastPair(const MovingShape& a, const MovingShape& b,
                            const CastOptions& options = kDefaultCastOptions);

}  // namespace collide

#endif  // COLLIDE_VALIDATE_H_
