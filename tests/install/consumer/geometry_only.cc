// A program that uses only the geometry core, built with pkg-config
// (`g++ geometry_only.cc $(pkg-config --cflags --libs collide-geometry)`):
// a ray against a segment, whose answer is exact (fraction 0.5).
#include <cstdio>

#include "collide/toi.h"
#include "collide/version.h"

int main() {
  const auto hit = collide::CastRay(collide::RayInput{{0, 0}, {20, 0}},
                                    collide::Segment{{10, -5}, {10, 5}});
  if (!hit.has_value() || hit->fraction != 0.5 || hit->point.x != 10) {
    std::fprintf(stderr, "geometry_only: wrong answer\n");
    return 1;
  }
  std::printf("geometry_only (collide %s): ray meets the wall at fraction %g\n",
              collide::kVersion, hit->fraction);
  return 0;
}
