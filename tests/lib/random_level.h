// Deterministic random levels and movers for the level, spatial hash and
// query property tests (splitmix64, tests/support/splitmix64.h, so a
// failing seed reproduces everywhere).
#ifndef COLLIDE_TESTS_LIB_RANDOM_LEVEL_H_
#define COLLIDE_TESTS_LIB_RANDOM_LEVEL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <numbers>
#include <vector>

#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "tests/support/splitmix64.h"

namespace collide::testing {

// A vector of the given length in a uniform direction.
inline Vec2 RandomDirection(SplitMix64& rng, double length) {
  const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
  return {length * std::cos(angle), length * std::sin(angle)};
}

// A point uniform in the box [lower, upper].
inline Vec2 RandomPoint(SplitMix64& rng, Vec2 lower, Vec2 upper) {
  const double x = rng.Uniform(lower.x, upper.x);
  return {x, rng.Uniform(lower.y, upper.y)};
}

// What a random level looks like.
struct Scene {
  uint64_t seed = 1;
  int shape_count = 200;
  double world = 100.0;     // shapes lie in [offset, offset + world]^2
  double offset = 0.0;      // far-from-origin levels shift everything
  double size = 2.0;        // typical shape extent
  double huge_share = 0.0;  // share of shapes spanning much of the world
  // Share of shapes moved 2 to 20 worlds away from the rest, in a random
  // direction (outliers the spatial hash files in coarser tiers).
  double outlier_share = 0.0;
  double duplicate_share = 0.1;  // shapes repeating an earlier geometry
};

// A level description plus the storage its spans point into.
struct RandomLevel {
  std::vector<ShapeDesc> shapes;
  std::deque<std::vector<Vec2>> vertex_storage;
};

inline RandomLevel MakeRandomLevel(const Scene& scene) {
  SplitMix64 rng(scene.seed);
  RandomLevel level;
  const Vec2 lower{scene.offset, scene.offset};
  const Vec2 upper{scene.offset + scene.world, scene.offset + scene.world};
  // Ids are shuffled against indices so that id order is not build order.
  std::vector<uint64_t> ids(static_cast<size_t>(scene.shape_count));
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = 1000 + 7 * i;
  for (size_t i = ids.size(); i > 1; --i) {
    std::swap(ids[i - 1],
              ids[static_cast<size_t>(rng.Below(static_cast<int>(i)))]);
  }
  for (int i = 0; i < scene.shape_count; ++i) {
    ShapeDesc desc;
    desc.id = ids[static_cast<size_t>(i)];
    desc.category_bits = uint64_t{1} << rng.Below(4);
    desc.user_data = 0xDA7A0000u + static_cast<uint64_t>(i);
    if (i > 0 && rng.Chance(scene.duplicate_share)) {
      // Same geometry as an earlier shape: only the id can break the tie.
      desc.geometry = level.shapes[static_cast<size_t>(rng.Below(i))].geometry;
      level.shapes.push_back(desc);
      continue;
    }
    const double size = rng.Chance(scene.huge_share)
                            ? scene.world * rng.Uniform(0.3, 1.0)
                            : scene.size * rng.Uniform(0.2, 1.5);
    Vec2 c = RandomPoint(rng, lower, upper);
    if (rng.Chance(scene.outlier_share)) {
      c = c + RandomDirection(rng, scene.world * rng.Uniform(2.0, 20.0));
    }
    switch (rng.Below(8)) {
      case 0:
        desc.geometry = Segment{c, c + RandomDirection(rng, size)};
        break;
      case 1:
        desc.geometry =
            Circle{c, rng.Chance(0.1) ? 0.0 : 0.5 * size * rng.Uniform()};
        break;
      case 2:
        desc.geometry =
            Capsule{c, c + RandomDirection(rng, size),
                    rng.Chance(0.1) ? 0.0 : 0.2 * size * rng.Uniform()};
        break;
      case 3:
        desc.geometry = BoxDesc{c,
                                {0.5 * size * rng.Uniform(0.1, 1.0),
                                 0.5 * size * rng.Uniform(0.1, 1.0)},
                                rng.Uniform(0.0, 6.3)};
        break;
      case 4: {  // polyline: a random walk, sometimes closed
        std::vector<Vec2>& v = level.vertex_storage.emplace_back();
        const int n = 2 + rng.Below(8);
        Vec2 p = c;
        for (int k = 0; k < n; ++k) {
          v.push_back(p);
          p = p + RandomDirection(rng, size * rng.Uniform(0.2, 1.0));
        }
        desc.geometry = PolylineDesc{v, n >= 3 && rng.Chance(0.3)};
        break;
      }
      default: {  // star-shaped polygon (simple): convex or concave
        std::vector<Vec2>& v = level.vertex_storage.emplace_back();
        const bool convex = rng.Chance(0.4);
        const int n = convex ? 3 + rng.Below(6) : 5 + rng.Below(20);
        // Jittered even angles keep every gap below half a turn, so the
        // outline around c is simple (and convex when all radii are equal).
        std::vector<double> angles;
        for (int k = 0; k < n; ++k) {
          angles.push_back(2.0 * std::numbers::pi *
                           (k + rng.Uniform(0.0, 0.8)) / n);
        }
        for (int k = 0; k < n; ++k) {
          const double r = 0.5 * size * (convex ? 1.0 : rng.Uniform(0.3, 1.0));
          v.push_back(c +
                      Vec2{r * std::cos(angles[k]), r * std::sin(angles[k])});
        }
        if (rng.Chance(0.3)) std::reverse(v.begin(), v.end());
        desc.geometry = PolygonDesc{v};
        break;
      }
    }
    level.shapes.push_back(desc);
  }
  return level;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_LIB_RANDOM_LEVEL_H_
