// Box2D 2.4.1 twins of the benchmark's cases (toi_cases.h), converted to
// float once, outside timing, and the Box2D calls the benchmark times.
//
// Geometry is kept identical on both sides: every Box2D shape is placed in
// world coordinates under the identity transform, and polygons and chains
// get radius 0 instead of Box2D's b2_polygonRadius skin (0.01), so a hit
// count that differs means the two libraries disagree on the same geometry
// (up to float rounding and Box2D's own linear slop, 0.005).
#ifndef COLLIDE_BENCH_BOX2D_ADAPTERS_H_
#define COLLIDE_BENCH_BOX2D_ADAPTERS_H_

#include <box2d/b2_chain_shape.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_collision.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_edge_shape.h>
#include <box2d/b2_math.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_time_of_impact.h>

#include <array>
#include <memory>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "toi_cases.h"

namespace collide_bench {

// What a Box2D call returns to the timed loop. point is the contact point
// in collide's convention (on the obstacle, where it is at fraction) when
// the call reports one (has_point): the b2ShapeCast calls do, RayCast and
// b2TimeOfImpact do not.
struct B2Result {
  bool hit = false;
  float fraction = 1.0f;
  bool has_point = false;
  b2Vec2 point{0.0f, 0.0f};
};

// A convex vertex cloud with a radius: what b2DistanceProxy::Set(vertices,
// count, radius) takes. The same proxy Set(shape, 0) builds for a circle
// (1 vertex), an edge (2) or a polygon (its vertices; radius 0 here).
struct B2Proxy {
  std::array<b2Vec2, b2_maxPolygonVertices> vertices;
  int32 count = 0;
  float radius = 0.0f;
};

// --- Conversions.
b2Vec2 ToB2(collide::Vec2 v);
B2Proxy ToB2Proxy(collide::Vec2 point);
B2Proxy ToB2Proxy(collide::Segment segment);
B2Proxy ToB2Proxy(collide::Circle circle);
B2Proxy ToB2Proxy(const collide::Capsule& capsule);
B2Proxy ToB2Proxy(const collide::ConvexPolygon& polygon);
B2Proxy ToB2Proxy(const collide::RayInput& mover);  // the moving point
B2Proxy ToB2Proxy(const collide::CircleCast& mover);
B2Proxy ToB2Proxy(const collide::CapsuleCast& mover);
B2Proxy ToB2Proxy(const collide::PolygonCast& mover);
b2EdgeShape ToB2Edge(collide::Segment segment);  // two-sided
b2CircleShape ToB2Circle(collide::Circle circle);
b2PolygonShape ToB2Polygon(const collide::ConvexPolygon& polygon);
std::unique_ptr<b2ChainShape> ToB2Loop(const ConcaveShape& shape);
b2RayCastInput ToB2Ray(const collide::RayInput& ray);

// --- Case types and the timed calls.

inline b2Transform B2Identity() {
  b2Transform xf;
  xf.SetIdentity();
  return xf;
}

// A shape's own RayCast: b2EdgeShape, b2CircleShape or b2PolygonShape.
template <typename Shape>
struct B2RayCase {
  Shape shape;
  b2RayCastInput input;
};
template <typename Shape>
inline B2Result B2RayCast(const B2RayCase<Shape>& c) {
  b2RayCastOutput output;
  B2Result result;
  result.hit = c.shape.RayCast(&output, c.input, B2Identity(), 0);
  result.fraction = result.hit ? output.fraction : 1.0f;
  return result;
}

// b2ChainShape loop: RayCast on each child edge, the smallest fraction kept
// (maxFraction clipped to the best so far, as b2World::RayCast does).
struct B2ChainRayCase {
  std::unique_ptr<b2ChainShape> chain;
  b2RayCastInput input;
};
B2Result B2ChainRayCast(const B2ChainRayCase& c);

// b2ShapeCast: the obstacle is proxy A (fixed), the mover proxy B.
struct B2ShapeCastCase {
  B2Proxy obstacle;
  B2Proxy mover;
  b2Vec2 translation;
};
B2Result B2ShapeCast(const B2ShapeCastCase& c);

// b2ShapeCast of the mover against each child edge of a b2ChainShape loop
// (proxy Set(&chain, i)), the smallest lambda kept.
struct B2ChainShapeCastCase {
  std::unique_ptr<b2ChainShape> chain;
  B2Proxy mover;
  b2Vec2 translation;
};
B2Result B2ChainShapeCast(const B2ChainShapeCastCase& c);

// A mover and an obstacle that both translate during the step, each by its
// own (absolute) translation, as collide's Moving<> cases give them.
struct B2MovingCase {
  B2Proxy obstacle;
  b2Vec2 obstacle_translation;
  B2Proxy mover;
  b2Vec2 translation;
};

// The fair baseline: b2ShapeCast on the relative motion (the obstacle held
// still at its start, the mover cast by translation - obstacle_translation,
// subtracted in the timed call as a Box2D user would). lambda is the same
// share of the step in both frames; the point is moved back to where the
// obstacle is at lambda (+ lambda * obstacle_translation), as collide
// reports it.
B2Result B2RelativeShapeCast(const B2MovingCase& c);

// b2TimeOfImpact with two zero-rotation sweeps (proxies in world
// coordinates, sweep centres from 0 to the translation); hit = e_touching.
// It is built for rotating bodies, so it does more work than a translation
// needs: the second column for moving pairs.
B2Result B2TimeOfImpact(const B2MovingCase& c);

// --- Whole case sets.
template <typename Mover, typename Obstacle>
std::vector<B2ShapeCastCase> ToB2ShapeCastCases(
    const std::vector<Case<Mover, Obstacle>>& cases) {
  std::vector<B2ShapeCastCase> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    out.push_back(
        {ToB2Proxy(c.obstacle), ToB2Proxy(c.mover), ToB2(c.mover.translation)});
  }
  return out;
}

template <typename Mover>
std::vector<B2ChainShapeCastCase> ToB2ChainShapeCastCases(
    const std::vector<Case<Mover, ConcaveShape>>& cases) {
  std::vector<B2ChainShapeCastCase> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    out.push_back(
        {ToB2Loop(c.obstacle), ToB2Proxy(c.mover), ToB2(c.mover.translation)});
  }
  return out;
}

template <typename Mover, typename Shape>
std::vector<B2MovingCase> ToB2MovingCases(
    const std::vector<Case<Mover, collide::Moving<Shape>>>& cases) {
  std::vector<B2MovingCase> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    out.push_back({ToB2Proxy(c.obstacle.shape), ToB2(c.obstacle.translation),
                   ToB2Proxy(c.mover), ToB2(c.mover.translation)});
  }
  return out;
}

std::vector<B2RayCase<b2EdgeShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::Segment>>& cases);
std::vector<B2RayCase<b2CircleShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::Circle>>& cases);
std::vector<B2RayCase<b2PolygonShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::ConvexPolygon>>& cases);
std::vector<B2ChainRayCase> ToB2RayCases(
    const std::vector<Case<collide::RayInput, ConcaveShape>>& cases);

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_BOX2D_ADAPTERS_H_
