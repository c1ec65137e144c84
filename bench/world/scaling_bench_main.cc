// collide_scaling_bench: how collide's Level build time, memory and query
// time grow with the level's size and with the ray's length.
//
// - Size: the S1 recipe (seed 0x5151) with 1k, 10k, 100k and 1M segments,
//   once over a world grown so density stays S1's (side 1000 * sqrt(n /
//   10,000)) and once in S1's 1000 x 1000 world; queries R20 and C20 drawn
//   by the benchmark scenes' recipe over that world.
// - Ray length: S1 and S2 with rays of length 1 to 1000 (R20's seed).
// Every answer is also checked against the exact reference.
//
// Usage: collide_scaling_bench [--queries=N] [--passes=N] [--max_n=N]
//                              [CSV_PATH]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "bench_args.h"
#include "collide_world.h"
#include "reference.h"
#include "report.h"
#include "scenes.h"
#include "timing.h"

namespace collide_bench {
namespace {

struct Options {
  int queries = 20000;
  int passes = 5;
  int max_n = 1000000;
  std::string csv;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  ArgParser args(argc, argv,
                 "[--queries=N] [--passes=N] [--max_n=N] [CSV_PATH]");
  args.Int("queries", &options.queries, 1, 100000000);
  args.Int("passes", &options.passes, 1, 1000);
  args.Int("max_n", &options.max_n, 1, 100000000);
  args.Positional(&options.csv);
  args.Finish();
  return options;
}

// One measured configuration, one CSV line.
struct Measurement {
  std::string table;  // "density", "world", "length"
  std::string scene;
  int64_t shapes = 0;
  double world = 0.0;
  std::string set;
  double length = 0.0;
  double build_ms = 0.0;
  double memory_mib = 0.0;
  LibraryRun run;
};

LibraryRun Measure(const CollideWorld& world, const Scene& scene,
                   const QuerySet& set, int passes) {
  LibraryRun run;
  run.library = "collide";
  run.ran = true;
  std::vector<WorldHit> results;
  run.timing = TimeQueries(
      set.size(),
      [&](size_t i) {
        return set.kind == QueryKind::kRay
                   ? world.CastRay(set.origins[i], set.translations[i])
                   : world.CastCircle(set.origins[i], set.radius,
                                      set.translations[i]);
      },
      results, passes);
  const std::vector<WorldHit> reference = ComputeReference(scene, set);
  Score(results, reference, run);
  PrintExamples(scene, set, results, reference, run);
  return run;
}

// Median of three builds' Level::Create times, in ms; keeps the last.
std::unique_ptr<CollideWorld> Build(const Scene& scene, double& build_ms) {
  std::vector<double> ms;
  std::unique_ptr<CollideWorld> world;
  for (int k = 0; k < 3; ++k) {
    world.reset();
    world = std::make_unique<CollideWorld>(scene);
    ms.push_back(world->build_seconds() * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  build_ms = ms[1];
  return world;
}

void SizeTable(const Options& options, bool constant_density,
               std::vector<Measurement>& out) {
  std::printf(
      "\n## Level size, %s\n\n| segments | world side | build ms | memory "
      "MiB | bytes/segment | R20 ns (min-max) | R20 hits | C20 ns (min-max) "
      "| C20 hits | disagreements R20/C20 |\n|---|---|---|---|---|---|---|---|"
      "---|---|\n",
      constant_density ? "constant density (world grows with n)"
                       : "constant world 1000 x 1000 (density grows with n)");
  for (int n : {1000, 10000, 100000, 1000000}) {
    if (n > options.max_n) continue;
    const double side =
        constant_density ? 1000.0 * std::sqrt(n / 10000.0) : 1000.0;
    char scene_name[32];
    std::snprintf(scene_name, sizeof scene_name, "S1x%d", n);
    const Scene scene = MakeSegmentScene(scene_name, 0x5151, n, side);
    double build_ms = 0.0;
    const auto world = Build(scene, build_ms);
    const double mib =
        static_cast<double>(world->memory_bytes()) / (1024.0 * 1024.0);
    std::vector<LibraryRun> runs;
    for (const auto& [name, seed, kind, radius] :
         {std::tuple{"R20", 0xA11CE01, QueryKind::kRay, 0.0},
          std::tuple{"C20", 0xA11CE03, QueryKind::kCircle, 0.5}}) {
      const QuerySet set =
          MakeQuerySet(scene, name, seed, kind, radius, 20.0, options.queries);
      runs.push_back(Measure(*world, scene, set, options.passes));
      out.push_back({constant_density ? "density" : "world", scene.name, n,
                     side, name, 20.0, build_ms, mib, runs.back()});
    }
    std::printf(
        "| %d | %.0f | %.2f | %.2f | %.0f | %s | %lld | %s | %lld | "
        "%lld/%lld |\n",
        n, side, build_ms, mib, static_cast<double>(world->memory_bytes()) / n,
        FormatNs(runs[0]).c_str(), static_cast<long long>(runs[0].hits),
        FormatNs(runs[1]).c_str(), static_cast<long long>(runs[1].hits),
        static_cast<long long>(runs[0].disagreements),
        static_cast<long long>(runs[1].disagreements));
    std::fflush(stdout);
  }
}

void LengthTable(const Options& options, std::vector<Measurement>& out) {
  std::printf(
      "\n## Ray length (R20's seed and recipe, length varied)\n\n| scene | "
      "length | ns (min-max) | ns per unit length | hits | disagreements "
      "|\n|---|---|---|---|---|---|\n");
  for (auto make_scene : {MakeS1, MakeS2}) {
    const Scene scene = make_scene();
    double build_ms = 0.0;
    const auto world = Build(scene, build_ms);
    const double mib =
        static_cast<double>(world->memory_bytes()) / (1024.0 * 1024.0);
    for (double length : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0}) {
      char name[32];
      std::snprintf(name, sizeof name, "R%g", length);
      const QuerySet set = MakeQuerySet(scene, name, 0xA11CE01, QueryKind::kRay,
                                        0.0, length, options.queries);
      const LibraryRun run = Measure(*world, scene, set, options.passes);
      out.push_back({"length", scene.name, static_cast<int64_t>(scene.size()),
                     scene.world_size, set.name, length, build_ms, mib, run});
      std::printf("| %s | %.0f | %s | %.1f | %lld | %lld |\n",
                  scene.name.c_str(), length, FormatNs(run).c_str(),
                  run.timing.median_ns / length,
                  static_cast<long long>(run.hits),
                  static_cast<long long>(run.disagreements));
      std::fflush(stdout);
    }
  }
}

void WriteCsv(const std::string& path, const std::vector<Measurement>& rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fprintf(f,
               "table,scene,shapes,world_side,query_set,length,build_ms,"
               "memory_mib,median_ns,min_ns,max_ns,queries_hit,"
               "disagreements\n");
  for (const Measurement& m : rows) {
    std::fprintf(
        f, "%s,%s,%lld,%.3f,%s,%g,%.3f,%.3f,%.1f,%.1f,%.1f,%lld,%lld\n",
        m.table.c_str(), m.scene.c_str(), static_cast<long long>(m.shapes),
        m.world, m.set.c_str(), m.length, m.build_ms, m.memory_mib,
        m.run.timing.median_ns, m.run.timing.min_ns, m.run.timing.max_ns,
        static_cast<long long>(m.run.hits),
        static_cast<long long>(m.run.disagreements));
  }
  std::fclose(f);
  std::printf("\nwrote %s\n", path.c_str());
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  std::printf(
      "collide_scaling_bench: %d queries per set, median of %d "
      "passes after a warm-up; build = median of 3 Level::Create\n",
      options.queries, options.passes);
  std::vector<Measurement> rows;
  SizeTable(options, /*constant_density=*/true, rows);
  SizeTable(options, /*constant_density=*/false, rows);
  LengthTable(options, rows);
  if (!options.csv.empty()) WriteCsv(options.csv, rows);
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) { return collide_bench::Main(argc, argv); }
