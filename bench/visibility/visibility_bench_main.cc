// collide_visibility_bench: which of N viewers see which of N targets on
// the scenes of docs/performance.md, three ways: collide's VisibleTargets
// (one nearest-first walk per viewer, angular bins, exact tests), N x N
// collide CastRay calls (visible when the ray from viewer to target hits
// nothing), and N x N Box2D 2.4.1 ray casts (b2DynamicTree::RayCast as
// b2World::RayCast does it, in float). Prints ns per viewer-target pair
// (thread CPU time, median of the timed passes, interleaved so load swings
// hit all three alike) and how many answers differ from VisibleTargets'.
//
// Viewers and targets are drawn uniform in a square window of the world
// (default 200 x 200 around its centre; a match area), skipping points
// inside or on a shape, from seed 0x5EE0 + N.
//
// Usage: collide_visibility_bench [--scene=S1|S2|S3|all] [--passes=N]
//          [--window=W] [--range=R] [--method=all|visible_targets]
//          [--size=64|256|all]
// --method=visible_targets times VisibleTargets alone (for callgrind; the
// differing counts are then meaningless).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "bench_args.h"
#include "box2d_world.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/visibility.h"
#include "scenes.h"

namespace collide_bench {
namespace {

using collide::Vec2;

std::vector<Vec2> FreePoints(const collide::Level& level, int n, uint64_t seed,
                             double window) {
  SplitMix64 rng(seed);
  std::vector<Vec2> points;
  const double lo = 500.0 - 0.5 * window;
  const double hi = 500.0 + 0.5 * window;
  while (static_cast<int>(points.size()) < n) {
    const double x = rng.Uniform(lo, hi);
    const Vec2 p{x, rng.Uniform(lo, hi)};
    if (!collide::ClosestPoint(p, level, 0.0).has_value()) points.push_back(p);
  }
  return points;
}

// This thread's CPU time in seconds: on a shared, loaded machine far
// steadier than the wall clock (time the thread waits for a core is left
// out; cache effects of the neighbours are not).
double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         1e-9 * static_cast<double>(ts.tv_nsec);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Row {
  std::string scene;
  int n = 0;
  int64_t visible = 0;
  double sweep_ns = 0, rays_ns = 0, box2d_ns = 0;
  int64_t rays_differ = 0, box2d_differ = 0;
  int64_t gathered = 0, certified = 0, exact_tests = 0, walked = 0;
};

Row Run(const Scene& scene, const collide::Level& level,
        const Box2dWorld& box2d, int n, int passes, double window, double range,
        bool sweep_only) {
  const std::vector<Vec2> viewer_points =
      FreePoints(level, n, 0x5EE0 + n, window);
  const std::vector<Vec2> targets = FreePoints(level, n, 0x7A60 + n, window);
  std::vector<collide::Viewer> viewers;
  for (Vec2 p : viewer_points) {
    collide::Viewer v{p, std::nullopt, std::nullopt};
    if (range > 0) v.range = range;
    viewers.push_back(v);
  }
  const int32_t words = collide::VisibilityWords(n);
  const size_t pairs = static_cast<size_t>(n) * n;
  std::vector<uint64_t> sweep(static_cast<size_t>(n) * words);
  std::vector<uint8_t> rays(pairs), b2(pairs);
  collide::VisibilityScratch scratch;
  std::vector<double> sweep_t, rays_t, b2_t;
  for (int pass = 0; pass <= passes; ++pass) {
    double start = CpuSeconds();
    collide::VisibleTargets(level, viewers, targets, absl::MakeSpan(sweep),
                            scratch);
    const double s1 = (CpuSeconds() - start);
    start = CpuSeconds();
    for (int i = 0; i < n && !sweep_only; ++i) {
      for (int j = 0; j < n; ++j) {
        const Vec2 d = targets[j] - viewer_points[i];
        const bool in_range =
            range <= 0 || collide::LengthSquared(d) <= range * range;
        rays[i * n + j] =
            in_range && !collide::CastRay({viewer_points[i], d}, level);
      }
    }
    const double s2 = (CpuSeconds() - start);
    start = CpuSeconds();
    for (int i = 0; i < n && !sweep_only; ++i) {
      for (int j = 0; j < n; ++j) {
        const Vec2 d = targets[j] - viewer_points[i];
        const bool in_range =
            range <= 0 || collide::LengthSquared(d) <= range * range;
        b2[i * n + j] = in_range && !box2d.CastRay(viewer_points[i], d).hit;
      }
    }
    const double s3 = (CpuSeconds() - start);
    if (pass == 0) continue;  // warm-up
    sweep_t.push_back(s1 * 1e9 / static_cast<double>(pairs));
    rays_t.push_back(s2 * 1e9 / static_cast<double>(pairs));
    b2_t.push_back(s3 * 1e9 / static_cast<double>(pairs));
  }
  Row row;
  row.scene = scene.name;
  row.n = n;
  row.sweep_ns = Median(sweep_t);
  row.rays_ns = Median(rays_t);
  row.box2d_ns = Median(b2_t);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const bool seen = (sweep[i * words + j / 64] >> (j % 64)) & 1;
      row.visible += seen;
      row.rays_differ += seen != (rays[i * n + j] != 0);
      row.box2d_differ += seen != (b2[i * n + j] != 0);
    }
  }
  const auto& c = scratch.counts();
  row.gathered = c.occluders_gathered;
  row.certified = c.certified_blocked;
  row.exact_tests = c.exact_tests;
  row.walked = c.walked_targets;
  return row;
}

int Main(int argc, char** argv) {
  std::string which = "all";
  int passes = 5;
  double window = 200.0;
  double range = 0.0;
  std::string method = "all";
  std::string size = "all";
  ArgParser args(argc, argv,
                 "[--scene=S1|S2|S3|all] [--passes=N] [--window=W] [--range=R] "
                 "[--method=all|visible_targets] [--size=64|256|all]");
  args.Choice("scene", &which, {"S1", "S2", "S3", "all"});
  args.Int("passes", &passes, 1, 1000);
  args.Double("window", &window, 1.0);
  args.Double("range", &range, 0.0);
  args.Choice("method", &method, {"all", "visible_targets"});
  args.Choice("size", &size, {"64", "256", "all"});
  args.Finish();
  std::vector<Row> rows;
  for (const char* name : {"S1", "S2", "S3"}) {
    if (which != "all" && which != name) continue;
    const Scene scene = std::string(name) == "S1"   ? MakeS1()
                        : std::string(name) == "S2" ? MakeS2()
                                                    : MakeS3();
    const collide::Level level = SceneLevel(scene);
    const Box2dWorld box2d(scene);
    for (int n : {64, 256}) {
      if (size != "all" && size != std::to_string(n)) continue;
      rows.push_back(Run(scene, level, box2d, n, passes, window, range,
                         method == "visible_targets"));
      const Row& r = rows.back();
      std::printf(
          "[visibility] %s %dx%d: visible=%lld sweep=%.1f rays=%.1f "
          "box2d=%.1f ns/pair; occluders gathered=%lld certified=%lld "
          "exact tests=%lld walked=%lld\n",
          name, n, n, static_cast<long long>(r.visible), r.sweep_ns, r.rays_ns,
          r.box2d_ns, static_cast<long long>(r.gathered),
          static_cast<long long>(r.certified),
          static_cast<long long>(r.exact_tests),
          static_cast<long long>(r.walked));
      std::fflush(stdout);
    }
  }
  std::printf(
      "\n| scene | viewers x targets | visible pairs | VisibleTargets ns/pair "
      "| "
      "collide CastRay ns/pair | Box2D 2.4.1 ray ns/pair | vs CastRay | "
      "answers differing: CastRay / Box2D "
      "|\n|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::printf(
        "| %s | %d x %d | %lld | %.1f | %.1f | %.1f | %.1fx | %lld / %lld |\n",
        r.scene.c_str(), r.n, r.n, static_cast<long long>(r.visible),
        r.sweep_ns, r.rays_ns, r.box2d_ns, r.rays_ns / r.sweep_ns,
        static_cast<long long>(r.rays_differ),
        static_cast<long long>(r.box2d_differ));
  }
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) { return collide_bench::Main(argc, argv); }
