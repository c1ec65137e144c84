// Helpers the scene files share (scenes.cc, scene_families.cc): a rotation,
// printf into a string for the reproducers, and long-double positions
// relative to an origin for the per-case checks (so that far-away scenes
// lose nothing to the check itself).
#ifndef COLLIDE_TESTS_LIB_ORACLE_SCENE_SUPPORT_H_
#define COLLIDE_TESTS_LIB_ORACLE_SCENE_SUPPORT_H_

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "collide/vec2.h"

namespace collide::oracle {

inline Vec2 Rotate(Vec2 v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

inline std::string Fmt(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
inline std::string Fmt(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

inline std::string V(Vec2 v) { return Fmt("{%.17g, %.17g}", v.x, v.y); }

using LD = long double;

struct LV {
  LD x = 0;
  LD y = 0;
};

inline LV operator-(LV a, LV b) { return {a.x - b.x, a.y - b.y}; }
inline LV operator+(LV a, LV b) { return {a.x + b.x, a.y + b.y}; }
inline LV operator*(LD s, LV a) { return {s * a.x, s * a.y}; }
inline LD Dot(LV a, LV b) { return a.x * b.x + a.y * b.y; }
inline LD Cross(LV a, LV b) { return a.x * b.y - a.y * b.x; }
inline LD Len(LV a) { return std::hypot(a.x, a.y); }

// p - origin + f * d, the difference taken first.
inline LV RelativeLV(Vec2 p, Vec2 origin, LD f, Vec2 d) {
  return {static_cast<LD>(p.x) - origin.x + f * d.x,
          static_cast<LD>(p.y) - origin.y + f * d.y};
}

inline LD SegmentDistance(LV a, LV b, LV p) {
  const LV ab = b - a, ap = p - a;
  const LD l2 = Dot(ab, ab);
  if (l2 == 0) return Len(ap);
  const LD u = std::clamp(Dot(ap, ab) / l2, LD{0}, LD{1});
  return Len(p - (a + u * ab));
}

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_SCENE_SUPPORT_H_
