// The benchmark scenes and query sets of docs/performance.md, generated with
// splitmix64 so every program (collide, Box2D, Chipmunk, the reference) sees
// the same data, in double precision.
#ifndef COLLIDE_BENCH_WORLD_SCENES_H_
#define COLLIDE_BENCH_WORLD_SCENES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/vec2.h"
#include "tests/support/splitmix64.h"

namespace collide_bench {

using collide::testing::SplitMix64;  // the scenes' generator

enum class ShapeKind { kSegment, kBox };

// A level's content: segments (S1, S2) or axis-aligned solid boxes (S3).
struct Scene {
  std::string name;
  ShapeKind kind = ShapeKind::kSegment;
  double world_size = 1000.0;  // shapes are drawn in [0, world_size]^2
  std::vector<collide::Segment> segments;        // kSegment
  std::vector<collide::Aabb> boxes;              // kBox
  std::vector<collide::ConvexPolygon> polygons;  // kBox: the same boxes, CCW

  size_t size() const {
    return kind == ShapeKind::kSegment ? segments.size() : boxes.size();
  }
  // Tight bounds of shape i.
  collide::Aabb Bounds(size_t i) const;
  // Euclidean distance from point to shape i (0 inside a box).
  double Distance(collide::Vec2 point, size_t i) const;
};

// n segments: midpoint (uni(0,W), uni(0,W)), length uni(0.5, 3), angle
// uni(0, 2pi), drawn in that order per segment; W = world_size.
Scene MakeSegmentScene(std::string name, uint64_t seed, int n,
                       double world_size = 1000.0);
// n boxes: centre (uni(0,W), uni(0,W)), width uni(1,5), height uni(1,5).
Scene MakeBoxScene(std::string name, uint64_t seed, int n,
                   double world_size = 1000.0);

Scene MakeS1();  // arena: 10,000 segments, seed 0x5151
Scene MakeS2();  // dense arena: 100,000 segments, seed 0x5252
Scene MakeS3();  // city: 20,000 boxes, seed 0x5353

// The scene as a Level (ids are scene indices; boxes as BoxDesc), for the
// benches that query a level without a reference engine beside it. Exits
// the program if the level cannot be built.
collide::Level SceneLevel(const Scene& scene);

enum class QueryKind { kRay, kCircle };

// count queries that start in free space. Per draw: start (uni(0,W),
// uni(0,W)) then angle uni(0, 2pi); a start closer than radius + 0.02 to any
// shape is skipped (its numbers stay drawn) until count are kept.
struct QuerySet {
  std::string name;
  QueryKind kind = QueryKind::kRay;
  double radius = 0.0;  // 0 for rays
  double length = 0.0;
  std::vector<collide::Vec2> origins;
  std::vector<collide::Vec2> translations;
  int64_t skipped = 0;

  size_t size() const { return origins.size(); }
};

QuerySet MakeQuerySet(const Scene& scene, std::string name, uint64_t seed,
                      QueryKind kind, double radius, double length,
                      int count = 100000);

QuerySet MakeR20(const Scene& scene);   // seed 0xA11CE01, ray, length 20
QuerySet MakeR300(const Scene& scene);  // seed 0xA11CE02, ray, length 300
QuerySet MakeC20(const Scene& scene);   // seed 0xA11CE03, circle r 0.5, 20

// What every library's closest-hit query is reduced to for comparison.
// point is the contact point on the obstacle's surface, in world coordinates.
struct WorldHit {
  bool hit = false;
  double fraction = 1.0;
  collide::Vec2 point;
  int64_t shape = -1;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_SCENES_H_
