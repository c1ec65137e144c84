// collide_world_profile: one library on one benchmark scene x query set,
// nothing else (no reference, no tuning), so that a profiler such as
// `valgrind --tool=callgrind` or `--tool=cachegrind` sees only the queries.
// Prints ns per query, the hit count and a checksum of every answer
// (fraction, contact point and shape, bitwise), so two builds of collide can
// be checked to give identical answers.
//
// Usage: collide_world_profile [--scene=S1|S2|S3] [--set=R20|R300|C20]
//            [--library=collide|tree|hash|box2d] [--queries=N] [--passes=N]
//            [--cell=SIZE]  (Chipmunk hash cell size, default 5)
//            [--collide_cell=SIZE]  (collide's cell size, default automatic)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_args.h"
#include "box2d_world.h"
#include "chipmunk_world.h"
#include "collide_world.h"
#include "scenes.h"
#include "timing.h"

namespace collide_bench {
namespace {

struct Options {
  std::string scene = "S1";
  std::string set = "R20";
  std::string library = "collide";
  int queries = 100000;
  int passes = 1;
  double cell = 5.0;
  double collide_cell = 0.0;
};

Options ParseOptions(int argc, char** argv) {
  Options o;
  ArgParser args(argc, argv,
                 "[--scene=S1|S2|S3] [--set=R20|R300|C20] "
                 "[--library=collide|tree|hash|box2d] [--queries=N] "
                 "[--passes=N] [--cell=SIZE] [--collide_cell=SIZE]");
  args.Choice("scene", &o.scene, {"S1", "S2", "S3"});
  args.Choice("set", &o.set, {"R20", "R300", "C20"});
  args.Choice("library", &o.library, {"collide", "tree", "hash", "box2d"});
  args.Int("queries", &o.queries, 1, 100000000);
  args.Int("passes", &o.passes, 1, 1000);
  args.Double("cell", &o.cell, 1e-9);
  args.Double("collide_cell", &o.collide_cell, 0.0);
  args.Finish();
  return o;
}

uint64_t Bits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

template <typename World>
int Run(const World& world, const QuerySet& set, int passes) {
  const auto query = [&](size_t i) {
    return set.kind == QueryKind::kRay
               ? world.CastRay(set.origins[i], set.translations[i])
               : world.CastCircle(set.origins[i], set.radius,
                                  set.translations[i]);
  };
  std::vector<WorldHit> results;
  const Timing t = TimeQueries(set.size(), query, results, passes);
  int64_t hits = 0;
  uint64_t checksum = 0;
  for (const WorldHit& r : results) {
    hits += r.hit ? 1 : 0;
    checksum = checksum * 1000003 + Bits(r.fraction);
    checksum = checksum * 1000003 + Bits(r.point.x);
    checksum = checksum * 1000003 + Bits(r.point.y);
    checksum = checksum * 1000003 + static_cast<uint64_t>(r.shape);
  }
  std::printf("%zu queries: %.0f ns (%.0f-%.0f), %lld hits, checksum %016llx\n",
              set.size(), t.median_ns, t.min_ns, t.max_ns,
              static_cast<long long>(hits),
              static_cast<unsigned long long>(checksum));
  return 0;
}

int Main(int argc, char** argv) {
  const Options o = ParseOptions(argc, argv);
  const Scene scene = o.scene == "S1"   ? MakeS1()
                      : o.scene == "S2" ? MakeS2()
                                        : MakeS3();
  QuerySet set = o.set == "R20"    ? MakeR20(scene)
                 : o.set == "R300" ? MakeR300(scene)
                                   : MakeC20(scene);
  if (o.queries < static_cast<int>(set.size())) {
    set.origins.resize(o.queries);
    set.translations.resize(o.queries);
  }
  if (o.library == "collide") {
    const CollideWorld world(scene, o.collide_cell);
    world.PrintStats();
    std::printf("%s %s %s: ", scene.name.c_str(), set.name.c_str(),
                o.library.c_str());
    return Run(world, set, o.passes);
  }
  std::printf("%s %s %s: ", scene.name.c_str(), set.name.c_str(),
              o.library.c_str());
  if (o.library == "box2d") return Run(Box2dWorld(scene), set, o.passes);
  if (o.library == "tree") {
    return Run(ChipmunkWorld(scene, ChipmunkIndex::kBBTree), set, o.passes);
  }
  if (o.library == "hash") {
    const ChipmunkWorld world(scene, ChipmunkIndex::kSpatialHash, o.cell,
                              4 * static_cast<int>(scene.size()));
    return Run(world, set, o.passes);
  }
  std::fprintf(stderr, "unknown --library=%s\n", o.library.c_str());
  return 2;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) { return collide_bench::Main(argc, argv); }
