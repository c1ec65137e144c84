#include "scenes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <utility>

namespace collide_bench {
namespace {

using collide::Aabb;
using collide::Segment;
using collide::Vec2;

double PointSegmentDistance(Vec2 p, Segment s) {
  const Vec2 d = s.p2 - s.p1;
  const double dd = collide::Dot(d, d);
  double t = dd > 0.0 ? collide::Dot(p - s.p1, d) / dd : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return collide::Length(p - (s.p1 + t * d));
}

double PointBoxDistance(Vec2 p, Aabb b) {
  const double dx = std::max({b.lower.x - p.x, 0.0, p.x - b.upper.x});
  const double dy = std::max({b.lower.y - p.y, 0.0, p.y - b.upper.y});
  return std::hypot(dx, dy);
}

// A uniform grid of the shapes' bounds grown by margin, in compressed rows:
// only the free-space test of query starts uses it (the reference and the
// libraries under test never do).
class StartGrid {
 public:
  StartGrid(const Scene& scene, double margin) : scene_(scene) {
    cell_ = 4.0;
    lo_ = -margin - 1.0;
    const double hi = scene.world_size + 6.0 + margin;
    dim_ = static_cast<int>(std::ceil((hi - lo_) / cell_)) + 1;
    std::vector<int> counts(static_cast<size_t>(dim_) * dim_ + 1, 0);
    auto for_cells = [&](size_t i, auto&& f) {
      const Aabb b = scene.Bounds(i);
      const int x0 = Cell(b.lower.x - margin), x1 = Cell(b.upper.x + margin);
      const int y0 = Cell(b.lower.y - margin), y1 = Cell(b.upper.y + margin);
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) f(y * dim_ + x);
      }
    };
    for (size_t i = 0; i < scene.size(); ++i) {
      for_cells(i, [&](int c) { ++counts[c + 1]; });
    }
    for (size_t c = 1; c < counts.size(); ++c) counts[c] += counts[c - 1];
    start_ = counts;
    ids_.resize(counts.back());
    for (size_t i = 0; i < scene.size(); ++i) {
      for_cells(i, [&](int c) { ids_[counts[c]++] = static_cast<int>(i); });
    }
  }

  // Whether point is closer than margin to some shape.
  bool Near(Vec2 p, double margin) const {
    const int c = Cell(p.y) * dim_ + Cell(p.x);
    for (int k = start_[c]; k < start_[c + 1]; ++k) {
      if (scene_.Distance(p, ids_[k]) < margin) return true;
    }
    return false;
  }

 private:
  int Cell(double v) const {
    return std::clamp(static_cast<int>(std::floor((v - lo_) / cell_)), 0,
                      dim_ - 1);
  }

  const Scene& scene_;
  double cell_ = 0.0;
  double lo_ = 0.0;
  int dim_ = 0;
  std::vector<int> start_;
  std::vector<int> ids_;
};

}  // namespace

Aabb Scene::Bounds(size_t i) const {
  if (kind == ShapeKind::kBox) return boxes[i];
  const Segment& s = segments[i];
  return {{std::min(s.p1.x, s.p2.x), std::min(s.p1.y, s.p2.y)},
          {std::max(s.p1.x, s.p2.x), std::max(s.p1.y, s.p2.y)}};
}

double Scene::Distance(Vec2 point, size_t i) const {
  return kind == ShapeKind::kBox ? PointBoxDistance(point, boxes[i])
                                 : PointSegmentDistance(point, segments[i]);
}

Scene MakeSegmentScene(std::string name, uint64_t seed, int n,
                       double world_size) {
  Scene scene;
  scene.name = std::move(name);
  scene.kind = ShapeKind::kSegment;
  scene.world_size = world_size;
  scene.segments.reserve(n);
  SplitMix64 rng(seed);
  for (int i = 0; i < n; ++i) {
    const double mx = rng.Uniform(0.0, world_size);
    const double my = rng.Uniform(0.0, world_size);
    const double length = rng.Uniform(0.5, 3.0);
    const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
    const Vec2 half = {0.5 * length * std::cos(angle),
                       0.5 * length * std::sin(angle)};
    const Vec2 mid = {mx, my};
    scene.segments.push_back({mid - half, mid + half});
  }
  return scene;
}

Scene MakeBoxScene(std::string name, uint64_t seed, int n, double world_size) {
  Scene scene;
  scene.name = std::move(name);
  scene.kind = ShapeKind::kBox;
  scene.world_size = world_size;
  scene.boxes.reserve(n);
  scene.polygons.reserve(n);
  SplitMix64 rng(seed);
  for (int i = 0; i < n; ++i) {
    const double cx = rng.Uniform(0.0, world_size);
    const double cy = rng.Uniform(0.0, world_size);
    const double width = rng.Uniform(1.0, 5.0);
    const double height = rng.Uniform(1.0, 5.0);
    const Aabb box = {{cx - 0.5 * width, cy - 0.5 * height},
                      {cx + 0.5 * width, cy + 0.5 * height}};
    scene.boxes.push_back(box);
    const Vec2 corners[4] = {box.lower,
                             {box.upper.x, box.lower.y},
                             box.upper,
                             {box.lower.x, box.upper.y}};
    // Widths and heights >= 1 make these always valid.
    scene.polygons.push_back(*collide::MakeConvexPolygon(corners));
  }
  return scene;
}

Scene MakeS1() { return MakeSegmentScene("S1", 0x5151, 10000); }
Scene MakeS2() { return MakeSegmentScene("S2", 0x5252, 100000); }
Scene MakeS3() { return MakeBoxScene("S3", 0x5353, 20000); }

QuerySet MakeQuerySet(const Scene& scene, std::string name, uint64_t seed,
                      QueryKind kind, double radius, double length, int count) {
  QuerySet set;
  set.name = std::move(name);
  set.kind = kind;
  set.radius = radius;
  set.length = length;
  set.origins.reserve(count);
  set.translations.reserve(count);
  const double margin = radius + 0.02;
  const StartGrid grid(scene, margin);
  SplitMix64 rng(seed);
  const double w = scene.world_size;
  while (static_cast<int>(set.origins.size()) < count) {
    const double x = rng.Uniform(0.0, w);
    const double y = rng.Uniform(0.0, w);
    const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
    if (grid.Near({x, y}, margin)) {
      ++set.skipped;
      continue;
    }
    set.origins.push_back({x, y});
    set.translations.push_back(
        {length * std::cos(angle), length * std::sin(angle)});
  }
  return set;
}

QuerySet MakeR20(const Scene& scene) {
  return MakeQuerySet(scene, "R20", 0xA11CE01, QueryKind::kRay, 0.0, 20.0);
}
QuerySet MakeR300(const Scene& scene) {
  return MakeQuerySet(scene, "R300", 0xA11CE02, QueryKind::kRay, 0.0, 300.0);
}
QuerySet MakeC20(const Scene& scene) {
  return MakeQuerySet(scene, "C20", 0xA11CE03, QueryKind::kCircle, 0.5, 20.0);
}

collide::Level SceneLevel(const Scene& scene) {
  std::vector<collide::ShapeDesc> shapes;
  for (size_t i = 0; i < scene.size(); ++i) {
    collide::ShapeDesc desc;
    desc.id = i;
    if (scene.kind == ShapeKind::kSegment) {
      desc.geometry = scene.segments[i];
    } else {
      const collide::Aabb& b = scene.boxes[i];
      desc.geometry = collide::BoxDesc{0.5 * (b.lower + b.upper),
                                       0.5 * (b.upper - b.lower), 0.0};
    }
    shapes.push_back(desc);
  }
  absl::StatusOr<collide::Level> level = collide::Level::Create(shapes);
  if (!level.ok()) {
    std::fprintf(stderr, "level: %s\n", level.status().ToString().c_str());
    std::exit(1);
  }
  return *std::move(level);
}

}  // namespace collide_bench
