// collide_hostile_bench: levels built to make a spatial index slow or large
// and what they cost collide: build time, memory per shape
// (with Level::MemoryBound beside it) and ns per ray cast, circle cast,
// circle overlap and unbounded closest-point query. Every figure must stay
// bounded by the level's size, whatever its coordinates.
//
// The levels (seeded with tests/support/splitmix64.h):
//   huge-box      10,000 small boxes in 1000 x 1000 and one box 2^49 tall
//   far-outliers  10,000 segments in 1000 x 1000 and 100 circles at 1e9
//   tiny          100,000 segments 1e-9 long in 1000 x 1000
//   collinear     --collinear (default 1,000,000) overlapping segments on
//                 one line
//   one-cell      10,000 circles at the same place
//   crossing      10,000 segments each spanning the whole 1000 x 1000 world
// Queries start in the 1000 x 1000 square (rays and circle casts of length
// 20, circles of radius 2, closest points without max_distance).
//
// Usage: collide_hostile_bench [--queries=N] [--collinear=N] [--only=NAME]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "bench_args.h"
#include "collide/level.h"
#include "collide/query.h"
#include "tests/support/splitmix64.h"

namespace {

using collide::BoxDesc;
using collide::Circle;
using collide::Level;
using collide::Segment;
using collide::ShapeDesc;
using collide::Vec2;
using collide::testing::SplitMix64;
using collide_bench::ArgParser;

struct Options {
  int queries = 2000;
  int collinear = 1000000;
  std::string only;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  ArgParser args(argc, argv, "[--queries=N] [--collinear=N] [--only=NAME]");
  args.Int("queries", &options.queries, 1, 100000000);
  args.Int("collinear", &options.collinear, 1, 100000000);
  args.Text("only", &options.only);
  args.Finish();
  return options;
}

struct HostileLevel {
  std::string name;
  std::vector<ShapeDesc> shapes;
  Level::Size size;
};

void Add(HostileLevel& level, collide::ShapeGeometry geometry) {
  const auto id = static_cast<uint64_t>(level.shapes.size() + 1);
  level.shapes.push_back({.id = id, .geometry = geometry});
  ++level.size.shapes;
  if (std::holds_alternative<BoxDesc>(geometry)) ++level.size.polygons;
}

Vec2 InSquare(SplitMix64& rng) {
  return {rng.Uniform(0.0, 1000.0), rng.Uniform(0.0, 1000.0)};
}

std::vector<HostileLevel> MakeLevels(const Options& options) {
  std::vector<HostileLevel> levels;
  SplitMix64 rng(0x4057113);
  {
    HostileLevel l;
    l.name = "huge-box";
    for (int i = 0; i < 10000; ++i) {
      Add(l, BoxDesc{InSquare(rng), {rng.Uniform(0.5, 2.0), 1.0}});
    }
    Add(l, BoxDesc{{500, 500}, {1.1, std::ldexp(1.0, 48)}});
    levels.push_back(std::move(l));
  }
  {
    HostileLevel l;
    l.name = "far-outliers";
    for (int i = 0; i < 10000; ++i) {
      const Vec2 p = InSquare(rng);
      Add(l, Segment{p, p + Vec2{rng.Uniform(-3, 3), rng.Uniform(-3, 3)}});
    }
    for (int i = 0; i < 100; ++i) {
      Add(l, Circle{{1e9 * rng.Uniform(-1, 1), 1e9 * rng.Uniform(-1, 1)}, 1});
    }
    levels.push_back(std::move(l));
  }
  {
    HostileLevel l;
    l.name = "tiny";
    for (int i = 0; i < 100000; ++i) {
      const Vec2 p = InSquare(rng);
      Add(l, Segment{p, p + Vec2{1e-9, 0}});
    }
    levels.push_back(std::move(l));
  }
  {
    HostileLevel l;
    l.name = "collinear";
    for (int i = 0; i < options.collinear; ++i) {
      const double x = 1000.0 * i / options.collinear;
      Add(l, Segment{{x, 500}, {x + 1.5, 500}});
    }
    levels.push_back(std::move(l));
  }
  {
    HostileLevel l;
    l.name = "one-cell";
    for (int i = 0; i < 10000; ++i) Add(l, Circle{{500, 500}, 1});
    levels.push_back(std::move(l));
  }
  {
    HostileLevel l;
    l.name = "crossing";
    for (int i = 0; i < 10000; ++i) {
      const double a = rng.Uniform(0, 1000), b = rng.Uniform(0, 1000);
      Add(l, rng.Chance(0.5)
                 ? collide::ShapeGeometry(Segment{{0, a}, {1000, b}})
                 : collide::ShapeGeometry(Segment{{a, 0}, {b, 1000}}));
    }
    levels.push_back(std::move(l));
  }
  return levels;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

// ns per call of `query(i)` over i in [0, n), and a checksum of its results.
double NsPer(int n, const std::function<double(int)>& query, double& checksum) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) checksum += query(i);
  return Seconds(start) * 1e9 / n;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  std::printf("%-13s %9s %9s %9s %9s %5s %10s %10s %10s %10s\n", "level",
              "shapes", "build ms", "B/shape", "bound B/sh", "tiers", "ray ns",
              "circle ns", "overlap ns", "closest ns");
  bool any = false;
  for (HostileLevel& hostile : MakeLevels(options)) {
    if (!options.only.empty() && options.only != hostile.name) continue;
    any = true;
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<Level> built = Level::Create(hostile.shapes);
    const double build_ms = Seconds(start) * 1e3;
    if (!built.ok()) {
      std::printf("%-13s build failed: %s\n", hostile.name.c_str(),
                  built.status().ToString().c_str());
      return 1;
    }
    const Level& level = *built;
    const double shapes = static_cast<double>(hostile.shapes.size());
    SplitMix64 rng(0x9e77);
    std::vector<Vec2> starts(static_cast<size_t>(options.queries));
    std::vector<Vec2> moves(starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
      starts[i] = InSquare(rng);
      const double angle = rng.Uniform(0, 6.283185307179586);
      moves[i] = {20 * std::cos(angle), 20 * std::sin(angle)};
    }
    double checksum = 0;
    std::vector<collide::ShapeRef> found(64);
    const double ray = NsPer(
        options.queries,
        [&](int i) {
          const auto hit = collide::CastRay({starts[i], moves[i]}, level);
          return hit ? hit->hit.fraction : 2.0;
        },
        checksum);
    const double circle = NsPer(
        options.queries,
        [&](int i) {
          const auto hit =
              collide::CastCircle({{starts[i], 0.5}, moves[i]}, level);
          return hit ? hit->hit.fraction : 2.0;
        },
        checksum);
    const double overlap = NsPer(
        options.queries,
        [&](int i) {
          return static_cast<double>(
              collide::OverlapCircle({starts[i], 2.0}, level,
                                     absl::MakeSpan(found))
                  .count);
        },
        checksum);
    const double closest = NsPer(
        options.queries,
        [&](int i) {
          const auto near = collide::ClosestPoint(
              starts[i], level, std::numeric_limits<double>::infinity());
          return near ? near->distance : -1.0;
        },
        checksum);
    std::printf(
        "%-13s %9.0f %9.1f %9.0f %9.0f %5zu %10.0f %10.0f %10.0f %10.0f\n",
        hostile.name.c_str(), shapes, build_ms,
        static_cast<double>(level.memory_bytes()) / shapes,
        static_cast<double>(Level::MemoryBound(hostile.size)) / shapes,
        level.spatial_hash().tiers().size(), ray, circle, overlap, closest);
    std::fflush(stdout);
    if (!(checksum == checksum)) std::printf("(checksum NaN)\n");
  }
  if (!any) {
    std::fprintf(stderr, "collide_hostile_bench: no level named %s\n",
                 options.only.c_str());
    return 2;
  }
  return 0;
}
