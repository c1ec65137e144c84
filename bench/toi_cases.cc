#include "toi_cases.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <utility>

namespace collide_bench {
namespace {

using collide::Capsule;
using collide::CapsuleCast;
using collide::Circle;
using collide::CircleCast;
using collide::ConvexPolygon;
using collide::DeformingSegment;
using collide::Moving;
using collide::PolygonCast;
using collide::RayInput;
using collide::Segment;
using collide::Vec2;

constexpr double kTwoPi = 2.0 * std::numbers::pi;

Vec2 Direction(double angle) { return {std::cos(angle), std::sin(angle)}; }

Vec2 Rotate(Vec2 v, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

[[noreturn]] void Die(const char* what, const absl::Status& status) {
  std::fprintf(stderr, "collide_toi_bench: %s failed: %s\n", what,
               std::string(status.message()).c_str());
  std::abort();
}

// --- Shapes centred at c; *bound is the radius of a circle about c that
// holds the shape.

void Generate(SplitMix64& rng, Vec2 c, Vec2* out, double* bound) {
  (void)rng;
  *out = c;
  *bound = 0.0;
}

void Generate(SplitMix64& rng, Vec2 c, Segment* out, double* bound) {
  const double half = 0.5 * rng.Uniform(1.0, 5.0);
  const Vec2 d = half * Direction(rng.Uniform(0.0, kTwoPi));
  *out = {c - d, c + d};
  *bound = half;
}

void Generate(SplitMix64& rng, Vec2 c, Circle* out, double* bound) {
  const double radius = rng.Uniform(0.5, 2.5);
  *out = {c, radius};
  *bound = radius;
}

void Generate(SplitMix64& rng, Vec2 c, Capsule* out, double* bound) {
  const double half = 0.5 * rng.Uniform(1.0, 4.0);
  const Vec2 d = half * Direction(rng.Uniform(0.0, kTwoPi));
  const double radius = rng.Uniform(0.25, 1.0);
  *out = {c - d, c + d, radius};
  *bound = half + radius;
}

// 3 to 8 vertices on a circle of radius uni(0.75, 2.5), evenly spaced angles
// jittered by up to 0.3 of a step (so strictly convex, never degenerate).
void Generate(SplitMix64& rng, Vec2 c, ConvexPolygon* out, double* bound) {
  const int n = 3 + static_cast<int>(rng.Next() % 6);
  const double radius = rng.Uniform(0.75, 2.5);
  const double phase = rng.Uniform(0.0, kTwoPi);
  Vec2 vertices[collide::kMaxPolygonVertices];
  for (int i = 0; i < n; ++i) {
    const double angle = phase + kTwoPi * (i + rng.Uniform(-0.3, 0.3)) / n;
    vertices[i] = c + radius * Direction(angle);
  }
  auto polygon = collide::MakeConvexPolygon(
      absl::Span<const Vec2>(vertices, static_cast<std::size_t>(n)));
  if (!polygon.ok()) Die("MakeConvexPolygon", polygon.status());
  *out = *polygon;
  *bound = radius;
}

// A star: 3 to 6 spikes, 6 to 12 vertices alternating between an outer
// radius (0.85-1 R) and an inner one (0.3-0.6 R), R = uni(1.5, 2.5), angles
// increasing (so simple), counter-clockwise.
void Generate(SplitMix64& rng, Vec2 c, ConcaveShape* out, double* bound) {
  const int spikes = 3 + static_cast<int>(rng.Next() % 4);
  const int n = 2 * spikes;
  const double radius = rng.Uniform(1.5, 2.5);
  const double phase = rng.Uniform(0.0, kTwoPi);
  out->vertices.clear();
  for (int i = 0; i < n; ++i) {
    const double r =
        radius * (i % 2 == 0 ? rng.Uniform(0.85, 1.0) : rng.Uniform(0.3, 0.6));
    const double angle = phase + kTwoPi * (i + rng.Uniform(-0.25, 0.25)) / n;
    out->vertices.push_back(c + r * Direction(angle));
  }
  auto polygon = collide::MakeConcavePolygon(out->vertices);
  if (!polygon.ok()) Die("MakeConcavePolygon", polygon.status());
  out->polygon = *polygon;
  *bound = radius;
}

template <typename Shape>
void Generate(SplitMix64& rng, Vec2 c, Moving<Shape>* out, double* bound) {
  Generate(rng, c, &out->shape, bound);
  out->translation =
      rng.Uniform(1.0, 20.0) * Direction(rng.Uniform(0.0, kTwoPi));
}

// The segment at the start of the step as a plain segment; at the end each
// endpoint has moved by a shared drift of length uni(0, 4) plus its own
// wobble of length uni(0, 2), so the segment turns and stretches.
void Generate(SplitMix64& rng, Vec2 c, DeformingSegment* out, double* bound) {
  Generate(rng, c, &out->start, bound);
  const Vec2 drift =
      rng.Uniform(0.0, 4.0) * Direction(rng.Uniform(0.0, kTwoPi));
  const Vec2 w1 = rng.Uniform(0.0, 2.0) * Direction(rng.Uniform(0.0, kTwoPi));
  const Vec2 w2 = rng.Uniform(0.0, 2.0) * Direction(rng.Uniform(0.0, kTwoPi));
  out->end = {out->start.p1 + drift + w1, out->start.p2 + drift + w2};
}

// --- Movers: the shape centred at the origin, then moved to its start.

void Shift(Vec2 d, RayInput* m) { m->origin = m->origin + d; }
void Shift(Vec2 d, CircleCast* m) { m->circle.center = m->circle.center + d; }
void Shift(Vec2 d, CapsuleCast* m) {
  m->capsule.p1 = m->capsule.p1 + d;
  m->capsule.p2 = m->capsule.p2 + d;
}
void Shift(Vec2 d, PolygonCast* m) {
  for (int i = 0; i < m->polygon.count; ++i) {
    m->polygon.vertices[i] = m->polygon.vertices[i] + d;
  }
}

void GenerateMover(SplitMix64& rng, RayInput* m, double* bound) {
  Generate(rng, Vec2{}, &m->origin, bound);
}
void GenerateMover(SplitMix64& rng, CircleCast* m, double* bound) {
  Generate(rng, Vec2{}, &m->circle, bound);
}
void GenerateMover(SplitMix64& rng, CapsuleCast* m, double* bound) {
  Generate(rng, Vec2{}, &m->capsule, bound);
}
void GenerateMover(SplitMix64& rng, PolygonCast* m, double* bound) {
  Generate(rng, Vec2{}, &m->polygon, bound);
}

// The obstacle's own translation, which the mover's is relative to.
template <typename T>
Vec2 ObstacleTranslation(const T&) {
  return {};
}
template <typename Shape>
Vec2 ObstacleTranslation(const Moving<Shape>& m) {
  return m.translation;
}

}  // namespace

template <typename Mover, typename Obstacle>
std::vector<Case<Mover, Obstacle>> MakeCases(uint64_t seed, double aim_jitter) {
  SplitMix64 rng(seed);
  std::vector<Case<Mover, Obstacle>> cases(kCaseCount);
  for (Case<Mover, Obstacle>& c : cases) {
    const double cx = rng.Uniform(10.0, 90.0);
    const double cy = rng.Uniform(10.0, 90.0);
    const Vec2 center{cx, cy};
    double obstacle_bound = 0.0;
    double mover_bound = 0.0;
    Generate(rng, center, &c.obstacle, &obstacle_bound);
    GenerateMover(rng, &c.mover, &mover_bound);
    const Vec2 away = Direction(rng.Uniform(0.0, kTwoPi));
    const double gap = rng.Uniform(0.2, 8.0);
    Shift(center + (obstacle_bound + mover_bound + gap) * away, &c.mover);
    const double jitter = rng.Uniform(-aim_jitter, aim_jitter);
    const double length = rng.Uniform(1.0, 20.0);
    c.mover.translation =
        length * Rotate(-away, jitter) + ObstacleTranslation(c.obstacle);
  }
  return cases;
}

#define COLLIDE_BENCH_CASES(M, O)                                              \
  template std::vector<Case<collide::M, O>> MakeCases<collide::M, O>(uint64_t, \
                                                                     double);

COLLIDE_BENCH_CASES(RayInput, collide::Segment)
COLLIDE_BENCH_CASES(RayInput, collide::Circle)
COLLIDE_BENCH_CASES(RayInput, collide::ConvexPolygon)
COLLIDE_BENCH_CASES(RayInput, collide::Capsule)
COLLIDE_BENCH_CASES(RayInput, ConcaveShape)
COLLIDE_BENCH_CASES(RayInput, collide::Moving<collide::ConvexPolygon>)
COLLIDE_BENCH_CASES(RayInput, collide::DeformingSegment)
COLLIDE_BENCH_CASES(CircleCast, collide::Vec2)
COLLIDE_BENCH_CASES(CircleCast, collide::Segment)
COLLIDE_BENCH_CASES(CircleCast, collide::Circle)
COLLIDE_BENCH_CASES(CircleCast, collide::Capsule)
COLLIDE_BENCH_CASES(CircleCast, collide::ConvexPolygon)
COLLIDE_BENCH_CASES(CircleCast, ConcaveShape)
COLLIDE_BENCH_CASES(CircleCast, collide::Moving<collide::Circle>)
COLLIDE_BENCH_CASES(CapsuleCast, collide::Segment)
COLLIDE_BENCH_CASES(CapsuleCast, collide::Circle)
COLLIDE_BENCH_CASES(CapsuleCast, collide::Capsule)
COLLIDE_BENCH_CASES(CapsuleCast, collide::ConvexPolygon)
COLLIDE_BENCH_CASES(PolygonCast, collide::Vec2)
COLLIDE_BENCH_CASES(PolygonCast, collide::Segment)
COLLIDE_BENCH_CASES(PolygonCast, collide::Circle)
COLLIDE_BENCH_CASES(PolygonCast, collide::Capsule)
COLLIDE_BENCH_CASES(PolygonCast, collide::ConvexPolygon)
COLLIDE_BENCH_CASES(PolygonCast, ConcaveShape)
COLLIDE_BENCH_CASES(PolygonCast, collide::Moving<collide::ConvexPolygon>)

#undef COLLIDE_BENCH_CASES

}  // namespace collide_bench
