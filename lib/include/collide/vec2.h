// Vec2 and Aabb: the value types every other part of collide is written in.
// Coordinates are level units; nothing here assumes a scale, but lengths
// are computed as sqrt(x^2 + y^2) (several times faster than std::hypot on
// the hot paths), so coordinates and their differences must stay below
// kMaxCoordinate (1e60), where every product the core forms stays finite.
#ifndef COLLIDE_VEC2_H_
#define COLLIDE_VEC2_H_

#include <cmath>

namespace collide {

// Inputs beyond this magnitude are rejected by IsValid(...) and the shape
// factories: the casts' discriminants are products of four lengths, which
// must stay finite.
inline constexpr double kMaxCoordinate = 1e60;

// A point or a displacement in the plane.
struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, double s) { return {s * a.x, s * a.y}; }
constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
constexpr bool operator!=(Vec2 a, Vec2 b) { return !(a == b); }

constexpr double Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z of the 3D cross product: positive when b is counter-clockwise from a.
constexpr double Cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
constexpr double LengthSquared(Vec2 a) { return Dot(a, a); }
inline double Length(Vec2 a) { return std::sqrt(Dot(a, a)); }
// a rotated a quarter turn counter-clockwise.
constexpr Vec2 LeftPerp(Vec2 a) { return {-a.y, a.x}; }
// a rotated a quarter turn clockwise: the outward normal direction of an edge
// of a counter-clockwise polygon.
constexpr Vec2 RightPerp(Vec2 a) { return {a.y, -a.x}; }
// The unit vector along a, or {0, 0} when a is the zero vector.
inline Vec2 Normalize(Vec2 a) {
  const double length_squared = Dot(a, a);
  // Well inside the double range the plain formula is accurate. Outside
  // it the squares underflow (a subnormal offset's length squared is 0) or
  // overflow (products of three lengths, as some contact offsets are), so
  // the rare such vector is first divided by its largest component.
  if (length_squared >= 0x1p-960 && length_squared <= 0x1p+960) {
    const double length = std::sqrt(length_squared);
    return {a.x / length, a.y / length};
  }
  const double largest = std::fmax(std::fabs(a.x), std::fabs(a.y));
  if (!(largest > 0.0)) return {};
  const Vec2 scaled{a.x / largest, a.y / largest};
  const double length = Length(scaled);
  return {scaled.x / length, scaled.y / length};
}
inline bool IsFinite(Vec2 a) {
  return std::isfinite(a.x) && std::isfinite(a.y);
}
// Finite and within kMaxCoordinate: what every lib/ query assumes.
inline bool IsInRange(Vec2 a) {
  return std::abs(a.x) <= kMaxCoordinate && std::abs(a.y) <= kMaxCoordinate;
}

// Axis-aligned box, lower <= upper componentwise.
struct Aabb {
  Vec2 lower;
  Vec2 upper;
};

}  // namespace collide

#endif  // COLLIDE_VEC2_H_
