#include "toi_print.h"

#include <cstdio>

namespace collide_bench {
namespace {

std::string Number(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

template <typename Vertices>
std::string DescribeVertices(const Vertices& vertices, int count) {
  std::string out = "{";
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += Describe(vertices[i]);
  }
  return out + "}";
}

}  // namespace

std::string Describe(collide::Vec2 v) {
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "{%.17g, %.17g}", v.x, v.y);
  return buffer;
}
std::string Describe(collide::Segment s) {
  return "Segment{" + Describe(s.p1) + ", " + Describe(s.p2) + "}";
}
std::string Describe(collide::Circle c) {
  return "Circle{" + Describe(c.center) + ", " + Number(c.radius) + "}";
}
std::string Describe(const collide::Capsule& c) {
  return "Capsule{" + Describe(c.p1) + ", " + Describe(c.p2) + ", " +
         Number(c.radius) + "}";
}
std::string Describe(const collide::ConvexPolygon& p) {
  return "MakeConvexPolygon(" + DescribeVertices(p.vertices, p.count) + ")";
}
std::string Describe(const ConcaveShape& p) {
  return "MakeConcavePolygon(" +
         DescribeVertices(p.vertices, static_cast<int>(p.vertices.size())) +
         ")";
}
std::string Describe(const collide::DeformingSegment& s) {
  return "DeformingSegment{" + Describe(s.start) + ", " + Describe(s.end) + "}";
}
std::string Describe(const collide::RayInput& r) {
  return "RayInput{" + Describe(r.origin) + ", " + Describe(r.translation) +
         "}";
}
std::string Describe(const collide::CircleCast& c) {
  return "CircleCast{" + Describe(c.circle) + ", " + Describe(c.translation) +
         "}";
}
std::string Describe(const collide::CapsuleCast& c) {
  return "CapsuleCast{" + Describe(c.capsule) + ", " + Describe(c.translation) +
         "}";
}
std::string Describe(const collide::PolygonCast& c) {
  return "PolygonCast{" + Describe(c.polygon) + ", " + Describe(c.translation) +
         "}";
}
std::string Describe(const std::optional<collide::Hit>& hit) {
  if (!hit) return "miss";
  return std::string(hit->status == collide::HitStatus::kHit
                         ? "hit"
                         : "initial overlap") +
         " fraction " + Number(hit->fraction) + " point " +
         Describe(hit->point) + " normal " + Describe(hit->normal);
}

}  // namespace collide_bench
