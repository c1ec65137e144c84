// Time of impact (TOI): the earliest contact of a shape swept by a
// translation over one step with another shape, static or itself translating
// during the same step.
//
// Conventions shared by every function here:
// - fraction is a share of the mover's translation in [0, max_fraction]; the
//   absolute time of contact is step_start + fraction * step_duration.
// - point is the contact point on the obstacle's surface, in world
//   coordinates, at the time of contact (for a moving obstacle, where the
//   obstacle is then).
// - normal is a unit vector from the obstacle towards the mover. Where the
//   contact has no direction of its own (the shapes meet at one point: a
//   ray or zero-radius circle exactly on a vertex or point), it is the unit
//   vector against the relative motion, or +y without motion. Where two
//   corners meet (polygons or segments without radius touching vertex to
//   vertex), every normal between the two corners' edge normals that
//   separates the shapes is valid; the one given opposes the motion least,
//   so a crate sliding along a floor onto the next tile level with it
//   touches the tile's top (0, 1), not its side.
// - feature names the obstacle's part that is touched: an edge or vertex
//   index of a polygon or segment (segment edge 0, vertices 0 = p1, 1 = p2;
//   capsule likewise), or kSurface for a circle.
// - The start state is decided exactly for the double inputs (no
//   tolerance, nothing scaled by the translation's length). A mover that
//   starts overlapping the obstacle, by however little (one ulp is an
//   overlap), gets fraction 0, kInitialOverlap, and the normal and depth of
//   the minimum separation. One that starts exactly touching (gap 0) gets
//   the same (depth 0) only if it moves in: the shapes overlap for every
//   small fraction > 0, i.e. the translation points into the interior of
//   the contact's tangent cone (at a vertex, strictly between its edges'
//   directions into the solid), or if stop_at_penetration is set. Moving
//   away from or along a surface it touches is not a hit, so movers can
//   slide along and leave walls. A later contact with another part of the
//   obstacle counts, tangents included (the far lip of a notch the mover
//   bridges), except where the slide leaves a touched edge at its end
//   vertex onto the next edge (a convex corner, or a collinear
//   continuation) while still touching it, without going into the solid
//   there. A segment has no inside: starting on one never moves in.
// - target_distance (the skin) stops the mover that far before contact:
//   fraction is when the gap first equals target_distance (the safe
//   position), point and normal are those of the nearest obstacle point then.
//   A mover that starts with 0 < gap <= target_distance gets fraction 0
//   with kHit if it moves closer (the gap's derivative at fraction 0,
//   decided exactly, is negative), and no hit otherwise. A concave
//   polygon's gap, unlike a convex shape's, can shrink again later: moving
//   away from its nearest edge, a mover that would touch another edge
//   whose skin it starts in still stops at fraction 0, and one that starts
//   outside the skin of an edge facing the motion (crossed inwards by it;
//   an edge parallel to the motion is not faced) is stopped when it
//   reaches that skin, so that no move passes into the solid. A start apart by
//   a few roundings of the shapes' own size and closing on the skin (or
//   contact) at once is also reported at fraction 0: its exact contact
//   fraction is within rounding of 0.
// - Zero translation: only an initial overlap can be a hit.
// - Preconditions (COLLIDE_DCHECK): finite input, radii >= 0,
//   0 <= max_fraction, target_distance >= 0. IsValid(...) checks them.
#ifndef COLLIDE_TOI_H_
#define COLLIDE_TOI_H_

#include <cstdint>
#include <optional>

#include "collide/shapes.h"
#include "collide/vec2.h"

namespace collide {

enum class HitStatus : uint8_t {
  kHit,             // contact at fraction in [0, max_fraction] from outside
  kInitialOverlap,  // touching (moving in) or overlapping at fraction 0
};

enum class FeatureType : uint8_t { kEdge, kVertex, kSurface };

struct Feature {
  FeatureType type = FeatureType::kEdge;
  int32_t index = 0;
};

struct Hit {
  double fraction = 0.0;
  Vec2 point;
  Vec2 normal;
  // Penetration depth at fraction 0 for kInitialOverlap (0 when touching);
  // 0 for kHit.
  double depth = 0.0;
  Feature feature;
  HitStatus status = HitStatus::kHit;
};

struct CastOptions {
  // Contacts after this share of the translation are not reported.
  double max_fraction = 1.0;
  // The skin: stop this far short of contact (level units, >= 0).
  double target_distance = 0.0;
  // Count a start in contact as a hit even when moving away or along.
  bool stop_at_penetration = false;
};

// The casts' default options, one object whose address a call passes
// (a `= {}` default would build a temporary in every call).
inline constexpr CastOptions kDefaultCastOptions{};

// A point moving from origin to origin + translation (a ray cast).
struct RayInput {
  Vec2 origin;
  Vec2 translation;
};

struct CircleCast {
  Circle circle;
  Vec2 translation;
};

struct CapsuleCast {
  Capsule capsule;
  Vec2 translation;
};

struct PolygonCast {
  ConvexPolygon polygon;
  Vec2 translation;
};

// An obstacle that itself translates during the same step. Because both
// motions are translations over the same step, the pair reduces exactly to
// the mover's motion relative to the obstacle, mover.translation -
// obstacle.translation, which need not be a double: every decision takes
// the two translations, not their rounded difference.
template <typename Shape>
struct Moving {
  Shape shape;
  Vec2 translation;
};

// A segment whose endpoints move independently and linearly during the step:
// p1 goes from start.p1 to end.p1 and p2 from start.p2 to end.p2, so the
// segment may turn and stretch.
struct DeformingSegment {
  Segment start;
  Segment end;
};

bool IsValid(const RayInput& ray);
bool IsValid(const CircleCast& cast);
bool IsValid(const CapsuleCast& cast);
bool IsValid(const PolygonCast& cast);
bool IsValid(const CastOptions& options);
bool IsValid(const DeformingSegment& segment);

// --- A moving point (ray) against static shapes. A segment has no inside: a
// ray starting on one and leaving it is not a hit.
std::optional<Hit> CastRay(const RayInput& ray, const Segment& segment,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const Circle& circle,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const Capsule& capsule,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const ConvexPolygon& polygon,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const ConcavePolygon& polygon,
                           const CastOptions& options = kDefaultCastOptions);

// --- A moving circle against static shapes (a point target is a vertex).
std::optional<Hit> CastCircle(const CircleCast& cast, Vec2 point,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast, const Segment& segment,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast, const Circle& circle,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast, const Capsule& capsule,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConvexPolygon& polygon,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConcavePolygon& polygon,
                              const CastOptions& options = kDefaultCastOptions);

// --- A moving capsule against static shapes.
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, Vec2 point,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Segment& segment,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Circle& circle,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Capsule& capsule,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const ConvexPolygon& polygon,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const ConcavePolygon& polygon,
    const CastOptions& options = kDefaultCastOptions);

// --- A moving convex polygon against static shapes: every vertex of each
// shape against every edge of the other, edges facing
// away from the motion culled.
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, Vec2 point,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Segment& segment,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Circle& circle,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Capsule& capsule,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const ConvexPolygon& polygon,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const ConcavePolygon& polygon,
    const CastOptions& options = kDefaultCastOptions);

// --- Moving against moving: both translate during the step. fraction is a
// share of the step; point is on the obstacle where it is at that fraction.
std::optional<Hit> CastRay(const RayInput& ray, const Moving<Segment>& segment,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const Moving<Circle>& circle,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray, const Moving<Capsule>& capsule,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConvexPolygon>& polygon,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConcavePolygon>& polygon,
                           const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast, const Moving<Vec2>& point,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Segment>& segment,
                              const CastOptions& options = kDefaultCastOptions);
// Two moving circles: contact where |p(t) - q(t)| = r1 + r2.
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Circle>& circle,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Capsule>& capsule,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConvexPolygon>& polygon,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConcavePolygon>& polygon,
                              const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<Vec2>& point,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<Segment>& segment,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<Circle>& circle,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<Capsule>& capsule,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<ConvexPolygon>& polygon,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastCapsule(
    const CapsuleCast& cast, const Moving<ConcavePolygon>& polygon,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<Vec2>& point,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<Segment>& segment,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<Circle>& circle,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<Capsule>& capsule,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<ConvexPolygon>& polygon,
    const CastOptions& options = kDefaultCastOptions);
std::optional<Hit> CastPolygon(
    const PolygonCast& cast, const Moving<ConcavePolygon>& polygon,
    const CastOptions& options = kDefaultCastOptions);

// A moving point against a segment whose endpoints
// move independently (it may turn and stretch). Contact is a root of a
// quadratic in the fraction. The normal is the segment's normal at contact,
// towards the side the point came from; feature is edge 0, or vertex 0 / 1
// when the point meets an endpoint. A segment that shrinks to a point at
// the contact is treated as that point. options.target_distance must be 0.
std::optional<Hit> CastRay(const RayInput& ray, const DeformingSegment& segment,
                           const CastOptions& options = kDefaultCastOptions);

}  // namespace collide

#endif  // COLLIDE_TOI_H_
