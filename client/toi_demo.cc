// The sample program until the gRPC service exists: builds a small arena in
// memory and prints what a few casts hit, straight from the TOI core.
#include <cstdio>
#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"

namespace {

using collide::Hit;

const char* FeatureName(collide::FeatureType type) {
  switch (type) {
    case collide::FeatureType::kEdge:
      return "edge";
    case collide::FeatureType::kVertex:
      return "vertex";
    case collide::FeatureType::kSurface:
      return "surface";
  }
  return "?";
}

void Print(const char* what, const std::optional<Hit>& hit) {
  if (!hit) {
    std::printf("%-44s miss\n", what);
    return;
  }
  std::printf(
      "%-44s %s at fraction %.6f, point (%.4f, %.4f), normal (%.4f, %.4f), "
      "%s %d\n",
      what, hit->status == collide::HitStatus::kHit ? "hit" : "initial overlap",
      hit->fraction, hit->point.x, hit->point.y, hit->normal.x, hit->normal.y,
      FeatureName(hit->feature.type), hit->feature.index);
}

}  // namespace

int main() {
  using collide::Vec2;
  // The arena: a wall, a pillar and a crate.
  const collide::Segment wall{{10.0, -5.0}, {10.0, 5.0}};
  const collide::Circle pillar{{5.0, 8.0}, 1.5};
  const absl::StatusOr<collide::ConvexPolygon> crate =
      collide::MakeBox({-6.0, 0.0}, {1.0, 1.0}, 0.3);
  if (!crate.ok()) {
    std::fprintf(stderr, "crate: %s\n", crate.status().ToString().c_str());
    return 1;
  }

  const collide::RayInput bullet{{0.0, 0.0}, {20.0, 0.0}};
  Print("bullet (0,0)->(20,0) vs wall", collide::CastRay(bullet, wall));
  Print("bullet (0,0)->(20,0) vs pillar", collide::CastRay(bullet, pillar));
  const collide::RayInput up{{5.0, 0.0}, {0.0, 20.0}};
  Print("bullet (5,0)->(5,20) vs pillar", collide::CastRay(up, pillar));

  const collide::CircleCast player{{{0.0, 4.0}, 0.5}, {12.0, 0.0}};
  Print("player r=0.5 (0,4)->(12,4) vs wall",
        collide::CastCircle(player, wall));
  Print("same, skin 0.1",
        collide::CastCircle(player, wall, {.target_distance = 0.1}));

  const collide::PolygonCast box{*collide::MakeBox({0.0, 0.0}, {0.5, 0.5}, 0.0),
                                 {-10.0, 0.0}};
  Print("box moving left vs crate", collide::CastPolygon(box, *crate));

  const collide::CircleCast rocket{{{0.0, -10.0}, 0.2}, {0.0, 20.0}};
  const collide::Moving<collide::Circle> runner{{{-5.0, 0.0}, 0.5},
                                                {10.0, 0.0}};
  Print("rocket vs runner crossing its path",
        collide::CastCircle(rocket, runner));
  return 0;
}
