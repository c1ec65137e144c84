#include "box2d_adapters.h"

#include <utility>

namespace collide_bench {

b2Vec2 ToB2(collide::Vec2 v) {
  return {static_cast<float>(v.x), static_cast<float>(v.y)};
}

B2Proxy ToB2Proxy(collide::Vec2 point) {
  B2Proxy p;
  p.vertices[0] = ToB2(point);
  p.count = 1;
  return p;
}

B2Proxy ToB2Proxy(collide::Segment segment) {
  B2Proxy p;
  p.vertices[0] = ToB2(segment.p1);
  p.vertices[1] = ToB2(segment.p2);
  p.count = 2;
  return p;
}

B2Proxy ToB2Proxy(collide::Circle circle) {
  B2Proxy p = ToB2Proxy(circle.center);
  p.radius = static_cast<float>(circle.radius);
  return p;
}

B2Proxy ToB2Proxy(const collide::Capsule& capsule) {
  B2Proxy p = ToB2Proxy(collide::Segment{capsule.p1, capsule.p2});
  p.radius = static_cast<float>(capsule.radius);
  return p;
}

B2Proxy ToB2Proxy(const collide::ConvexPolygon& polygon) {
  B2Proxy p;
  for (int32 i = 0; i < polygon.count; ++i) {
    p.vertices[i] = ToB2(polygon.vertices[i]);
  }
  p.count = polygon.count;
  return p;
}

B2Proxy ToB2Proxy(const collide::RayInput& mover) {
  return ToB2Proxy(mover.origin);
}
B2Proxy ToB2Proxy(const collide::CircleCast& mover) {
  return ToB2Proxy(mover.circle);
}
B2Proxy ToB2Proxy(const collide::CapsuleCast& mover) {
  return ToB2Proxy(mover.capsule);
}
B2Proxy ToB2Proxy(const collide::PolygonCast& mover) {
  return ToB2Proxy(mover.polygon);
}

b2EdgeShape ToB2Edge(collide::Segment segment) {
  b2EdgeShape edge;
  edge.SetTwoSided(ToB2(segment.p1), ToB2(segment.p2));
  return edge;
}

b2CircleShape ToB2Circle(collide::Circle circle) {
  b2CircleShape shape;
  shape.m_p = ToB2(circle.center);
  shape.m_radius = static_cast<float>(circle.radius);
  return shape;
}

b2PolygonShape ToB2Polygon(const collide::ConvexPolygon& polygon) {
  const B2Proxy p = ToB2Proxy(polygon);
  b2PolygonShape shape;
  shape.Set(p.vertices.data(), p.count);
  shape.m_radius = 0.0f;
  return shape;
}

std::unique_ptr<b2ChainShape> ToB2Loop(const ConcaveShape& shape) {
  std::vector<b2Vec2> vertices;
  vertices.reserve(shape.vertices.size());
  for (collide::Vec2 v : shape.vertices) vertices.push_back(ToB2(v));
  auto chain = std::make_unique<b2ChainShape>();
  chain->CreateLoop(vertices.data(), static_cast<int32>(vertices.size()));
  chain->m_radius = 0.0f;
  return chain;
}

b2RayCastInput ToB2Ray(const collide::RayInput& ray) {
  b2RayCastInput input;
  input.p1 = ToB2(ray.origin);
  input.p2 = ToB2(ray.origin + ray.translation);
  input.maxFraction = 1.0f;
  return input;
}

B2Result B2ChainRayCast(const B2ChainRayCase& c) {
  const b2Transform xf = B2Identity();
  b2RayCastInput input = c.input;
  B2Result result;
  const int32 children = c.chain->GetChildCount();
  for (int32 i = 0; i < children; ++i) {
    b2RayCastOutput output;
    if (c.chain->RayCast(&output, input, xf, i)) {
      result.hit = true;
      result.fraction = output.fraction;
      input.maxFraction = output.fraction;
    }
  }
  return result;
}

namespace {
// b2ShapeCast of mover (proxy B) by translation against obstacle (proxy A,
// fixed), both under the identity transform.
B2Result ShapeCast(const B2Proxy& obstacle, const B2Proxy& mover,
                   b2Vec2 translation) {
  b2ShapeCastInput input;
  input.proxyA.Set(obstacle.vertices.data(), obstacle.count, obstacle.radius);
  input.proxyB.Set(mover.vertices.data(), mover.count, mover.radius);
  input.transformA.SetIdentity();
  input.transformB.SetIdentity();
  input.translationB = translation;
  b2ShapeCastOutput output;
  B2Result result;
  result.hit = b2ShapeCast(&output, &input);
  if (result.hit) {
    result.fraction = output.lambda;
    result.has_point = true;
    result.point = output.point;
  }
  return result;
}
}  // namespace

B2Result B2ShapeCast(const B2ShapeCastCase& c) {
  return ShapeCast(c.obstacle, c.mover, c.translation);
}

B2Result B2RelativeShapeCast(const B2MovingCase& c) {
  B2Result result =
      ShapeCast(c.obstacle, c.mover, c.translation - c.obstacle_translation);
  if (result.hit) result.point += result.fraction * c.obstacle_translation;
  return result;
}

B2Result B2ChainShapeCast(const B2ChainShapeCastCase& c) {
  b2ShapeCastInput input;
  input.proxyB.Set(c.mover.vertices.data(), c.mover.count, c.mover.radius);
  input.transformA.SetIdentity();
  input.transformB.SetIdentity();
  input.translationB = c.translation;
  B2Result result;
  const int32 children = c.chain->GetChildCount();
  for (int32 i = 0; i < children; ++i) {
    input.proxyA.Set(c.chain.get(), i);
    b2ShapeCastOutput output;
    if (b2ShapeCast(&output, &input) &&
        (!result.hit || output.lambda < result.fraction)) {
      result.hit = true;
      result.fraction = output.lambda;
      result.has_point = true;
      result.point = output.point;
    }
  }
  return result;
}

namespace {
b2Sweep TranslationSweep(b2Vec2 translation) {
  b2Sweep sweep;
  sweep.localCenter.SetZero();
  sweep.c0.SetZero();
  sweep.c = translation;
  sweep.a0 = 0.0f;
  sweep.a = 0.0f;
  sweep.alpha0 = 0.0f;
  return sweep;
}
}  // namespace

B2Result B2TimeOfImpact(const B2MovingCase& c) {
  b2TOIInput input;
  input.proxyA.Set(c.obstacle.vertices.data(), c.obstacle.count,
                   c.obstacle.radius);
  input.proxyB.Set(c.mover.vertices.data(), c.mover.count, c.mover.radius);
  input.sweepA = TranslationSweep(c.obstacle_translation);
  input.sweepB = TranslationSweep(c.translation);
  input.tMax = 1.0f;
  b2TOIOutput output;
  b2TimeOfImpact(&output, &input);
  B2Result result;
  result.hit = output.state == b2TOIOutput::e_touching;
  result.fraction = output.t;
  return result;
}

template <typename Shape, typename Obstacle, typename Convert>
std::vector<B2RayCase<Shape>> ToRayCases(
    const std::vector<Case<collide::RayInput, Obstacle>>& cases,
    Convert convert) {
  std::vector<B2RayCase<Shape>> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    out.push_back({convert(c.obstacle), ToB2Ray(c.mover)});
  }
  return out;
}

std::vector<B2RayCase<b2EdgeShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::Segment>>& cases) {
  return ToRayCases<b2EdgeShape>(cases, ToB2Edge);
}
std::vector<B2RayCase<b2CircleShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::Circle>>& cases) {
  return ToRayCases<b2CircleShape>(cases, ToB2Circle);
}
std::vector<B2RayCase<b2PolygonShape>> ToB2RayCases(
    const std::vector<Case<collide::RayInput, collide::ConvexPolygon>>& cases) {
  return ToRayCases<b2PolygonShape>(cases, ToB2Polygon);
}
std::vector<B2ChainRayCase> ToB2RayCases(
    const std::vector<Case<collide::RayInput, ConcaveShape>>& cases) {
  std::vector<B2ChainRayCase> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    out.push_back({ToB2Loop(c.obstacle), ToB2Ray(c.mover)});
  }
  return out;
}

}  // namespace collide_bench
