// collide_world_bench: collide's Level queries beside Box2D 2.4.1 and
// Chipmunk2D 7.0.3 (spatial hash and bounding-box tree) on the scenes and
// query sets of docs/performance.md, every answer checked against the exact
// brute-force reference. Prints per-cell details, then a markdown table.
// Per scene x query set the libraries' timed passes are interleaved (pass 1
// of each, then pass 2 of each, ...; interleaved_timing.h), so load swings
// on a shared machine hit all of them alike.
//
// Usage: collide_world_bench [--queries=N] [--passes=N] [--only=S1|S2|S3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_args.h"
#include "box2d_world.h"
#include "chipmunk_world.h"
#include "collide_world.h"
#include "interleaved_timing.h"
#include "reference.h"
#include "report.h"
#include "scenes.h"
#include "timing.h"

namespace collide_bench {
namespace {

struct Options {
  int queries = 100000;
  int passes = 5;
  std::string only;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  ArgParser args(argc, argv, "[--queries=N] [--passes=N] [--only=S1|S2|S3]");
  args.Int("queries", &options.queries, 1, 100000000);
  args.Int("passes", &options.passes, 1, 1000);
  args.Choice("only", &options.only, {"S1", "S2", "S3"});
  args.Finish();
  return options;
}

// Any world with CastRay(origin, translation) and
// CastCircle(center, radius, translation).
template <typename World>
WorldHit Query(const World& world, const QuerySet& set, size_t i) {
  return set.kind == QueryKind::kRay
             ? world.CastRay(set.origins[i], set.translations[i])
             : world.CastCircle(set.origins[i], set.radius,
                                set.translations[i]);
}

// The spatial hash cell size and table size that answer a sample of set
// fastest (one untimed and one timed pass over up to 10,000 queries each).
struct HashConfig {
  double cell = 5.0;
  int count = 0;
};

HashConfig TuneHash(const Scene& scene, const QuerySet& set) {
  const size_t n = std::min<size_t>(set.size(), 10000);
  HashConfig best;
  double best_ns = 1e300;
  std::vector<WorldHit> scratch;
  std::printf("  hash tuning (ns/query on %zu queries):", n);
  for (double cell : {1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0}) {
    for (int per_shape : {1, 4, 16}) {
      const int count = per_shape * static_cast<int>(scene.size());
      const ChipmunkWorld world(scene, ChipmunkIndex::kSpatialHash, cell,
                                count);
      const Timing t = TimeQueries(
          n, [&](size_t i) { return Query(world, set, i); }, scratch, 1);
      if (per_shape == 4) std::printf(" c%g:%.0f", cell, t.median_ns);
      if (t.median_ns < best_ns) {
        best_ns = t.median_ns;
        best = {cell, count};
      }
    }
  }
  std::printf(" -> cell %g, %d cells\n", best.cell, best.count);
  return best;
}

struct Row {
  std::string scene_set;
  size_t queries = 0;
  LibraryRun collide, box2d, hash, tree, native, shipped;
};

std::string Speedup(const Row& row) {
  if (!row.collide.ran) return "-";
  std::string note;
  if (!IsCorrect(row.collide, row.queries)) note = " (collide incorrect)";
  const LibraryRun* fastest = nullptr;
  for (const LibraryRun* r : {&row.box2d, &row.hash, &row.tree}) {
    if (IsCorrect(*r, row.queries) &&
        (fastest == nullptr ||
         r->timing.median_ns < fastest->timing.median_ns)) {
      fastest = r;
    }
  }
  if (fastest == nullptr) return "no correct library" + note;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.2fx vs %s",
                fastest->timing.median_ns / row.collide.timing.median_ns,
                fastest->library.c_str());
  return buf + note;
}

void PrintTable(const std::vector<Row>& rows) {
  std::printf(
      "\n| scene/set | collide ns (min-max) | Box2D 2.4.1 ns | Chipmunk hash "
      "ns | Chipmunk tree ns | hits c/b/h/t | disagreements c/b/h/t | collide "
      "speed-up vs fastest correct |\n|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    auto count = [](const LibraryRun& run, int64_t v) {
      return run.ran ? std::to_string(v) : std::string("-");
    };
    std::printf(
        "| %s | %s | %s | %s (%s) | %s | %s/%s/%s/%s | %s/%s/%s/%s | %s |\n",
        r.scene_set.c_str(), FormatNs(r.collide).c_str(),
        FormatNs(r.box2d).c_str(), FormatNs(r.hash).c_str(),
        r.hash.config.c_str(), FormatNs(r.tree).c_str(),
        count(r.collide, r.collide.hits).c_str(),
        count(r.box2d, r.box2d.hits).c_str(),
        count(r.hash, r.hash.hits).c_str(), count(r.tree, r.tree.hits).c_str(),
        count(r.collide, r.collide.disagreements).c_str(),
        count(r.box2d, r.box2d.disagreements).c_str(),
        count(r.hash, r.hash.disagreements).c_str(),
        count(r.tree, r.tree.disagreements).c_str(), Speedup(r).c_str());
  }
  std::printf(
      "\nCorrect = at most 0.1%% of queries disagree with the exact reference "
      "(hit/miss, or contact point > 0.01 apart). Chipmunk circle casts are "
      "the workaround (BB query over the swept bounds + cpShapeSegmentQuery "
      "per shape, plus CircleSegmentQuery on segment end caps). Box2D: "
      "b2DynamicTree filled in Morton order; circle casts are a tree query "
      "over the swept bounds + b2ShapeCast per candidate.\n");
  for (const Row& r : rows) {
    if (r.shipped.ran) {
      std::printf(
          "Chipmunk workaround without the segment end-cap fix (tree) on %s: "
          "%s ns, %lld hits, %lld disagreements\n",
          r.scene_set.c_str(), FormatNs(r.shipped).c_str(),
          static_cast<long long>(r.shipped.hits),
          static_cast<long long>(r.shipped.disagreements));
    }
    if (!r.native.ran) continue;
    std::printf(
        "Chipmunk's own radius segment query (tree) on %s: %s ns, %lld hits, "
        "%lld disagreements (not a correct option)\n",
        r.scene_set.c_str(), FormatNs(r.native).c_str(),
        static_cast<long long>(r.native.hits),
        static_cast<long long>(r.native.disagreements));
  }
}

template <typename Build>
auto TimedBuild(const char* what, const Scene& scene, Build&& build) {
  const size_t heap_before = HeapInUse();
  const auto start = std::chrono::steady_clock::now();
  auto world = build();
  const double seconds = SecondsSince(start);
  const double mib =
      static_cast<double>(HeapInUse() - heap_before) / (1024.0 * 1024.0);
  std::printf("  build %-28s %9.2f ms  %8.2f MiB heap  (%zu shapes)\n", what,
              seconds * 1e3, mib, scene.size());
  return world;
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  std::vector<Row> rows;
  for (auto make_scene : {MakeS1, MakeS2, MakeS3}) {
    const Scene scene = make_scene();
    if (!options.only.empty() && options.only != scene.name) continue;
    std::printf("\n== %s: %zu %s\n", scene.name.c_str(), scene.size(),
                scene.kind == ShapeKind::kSegment ? "segments" : "boxes");
    auto collide = TimedBuild("collide Level", scene, [&] {
      return std::make_unique<CollideWorld>(scene);
    });
    std::printf("  (Level::Create alone: %.2f ms)\n",
                collide->build_seconds() * 1e3);
    collide->PrintStats();
    auto box2d = TimedBuild("Box2D b2DynamicTree", scene, [&] {
      return std::make_unique<Box2dWorld>(scene);
    });
    auto tree = TimedBuild("Chipmunk BBTree (optimised)", scene, [&] {
      return std::make_unique<ChipmunkWorld>(scene, ChipmunkIndex::kBBTree);
    });

    for (auto make_set : {MakeR20, MakeR300, MakeC20}) {
      QuerySet set = make_set(scene);
      if (options.queries < static_cast<int>(set.size())) {
        set.origins.resize(options.queries);
        set.translations.resize(options.queries);
      }
      std::printf("\n-- %s %s: %zu queries (%lld starts skipped)\n",
                  scene.name.c_str(), set.name.c_str(), set.size(),
                  static_cast<long long>(set.skipped));
      auto start = std::chrono::steady_clock::now();
      const std::vector<WorldHit> reference = ComputeReference(scene, set);
      const double reference_s = SecondsSince(start);
      const int64_t check = CheckReference(scene, set, reference, 100);
      std::printf(
          "  reference: %.1f s; full-loop check of 100 queries: %lld "
          "differ\n",
          reference_s, static_cast<long long>(check));

      Row row;
      row.scene_set = scene.name + " " + set.name;
      row.queries = set.size();
      const HashConfig hc = TuneHash(scene, set);
      const ChipmunkWorld hash(scene, ChipmunkIndex::kSpatialHash, hc.cell,
                               hc.count);
      char config[64];
      std::snprintf(config, sizeof config, "cell %g", hc.cell);
      row.hash.config = config;

      // Every library's passes in turn (interleaved_timing.h), in this
      // order: collide, Box2D, Chipmunk hash, Chipmunk tree, then the
      // Chipmunk variants that are not candidates for the speed-up.
      InterleavedTiming timing(set.size(), options.passes);
      std::vector<std::pair<LibraryRun*, size_t>> runs;
      auto add = [&](LibraryRun& r, const char* library, auto query) {
        r.library = library;
        r.ran = true;
        runs.push_back({&r, timing.Add(query)});
      };
      add(row.collide, "collide",
          [&](size_t i) { return Query(*collide, set, i); });
      add(row.box2d, "Box2D", [&](size_t i) { return Query(*box2d, set, i); });
      add(row.hash, "Chipmunk hash",
          [&](size_t i) { return Query(hash, set, i); });
      add(row.tree, "Chipmunk tree",
          [&](size_t i) { return Query(*tree, set, i); });
      if (set.kind == QueryKind::kCircle && scene.kind == ShapeKind::kSegment) {
        add(row.shipped, "Chipmunk tree shipped", [&](size_t i) {
          return tree->CastCircleShipped(set.origins[i], set.radius,
                                         set.translations[i]);
        });
      }
      if (set.kind == QueryKind::kCircle) {
        add(row.native, "Chipmunk tree native", [&](size_t i) {
          return tree->CastCircleNative(set.origins[i], set.radius,
                                        set.translations[i]);
        });
      }
      timing.Run();
      for (const auto& [r, index] : runs) {
        r->timing = timing.timing(index);
        Score(timing.results(index), reference, *r);
        std::printf(
            "  %-24s %-12s %9.0f ns (%.0f-%.0f)  hits %6lld  "
            "disagreements %lld\n",
            r->library.c_str(), r->config.c_str(), r->timing.median_ns,
            r->timing.min_ns, r->timing.max_ns, static_cast<long long>(r->hits),
            static_cast<long long>(r->disagreements));
        PrintExamples(scene, set, timing.results(index), reference, *r);
      }
      rows.push_back(row);
    }
  }
  PrintTable(rows);
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) { return collide_bench::Main(argc, argv); }
