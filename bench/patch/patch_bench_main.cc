// collide_patch_bench: what PatchLevel costs on an S2-sized level
// (100,000 segments, scene S2 of docs/performance.md) for 1, 100 and 10,000
// changed shapes, beside building the patched level whole. Prints the median of
// --repeats runs per figure; no assertions.
//
//   collide_patch_bench [--repeats=5] [--level_dir=/tmp/x]
//
// Columns: lib = Level::Patch over the shared base (the only geometry
// work); snapshot = PatchSnapshot (the request checks, the content hash
// updated per changed shape and the layered level); store =
// LevelStore::Patch with a level directory holding the level (snapshot plus
// appending the patch to the journal, fsync included); rebuild =
// MakeLevelSnapshot of the patched message (what a PutLevel of the same
// content costs: validation, Level::Create and the hash).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "collide/level.h"
#include "collide/v1/level_service.pb.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "proto/formats/tool_command_line.h"
#include "scenes.h"
#include "server/levels/level_patch.h"
#include "server/levels/level_snapshot.h"
#include "server/levels/level_store.h"

ABSL_FLAG(int, repeats, 5, "runs per figure (the median is printed)");
ABSL_FLAG(std::string, level_dir, "",
          "directory for the store column (default: a fresh one under /tmp)");

namespace {

using collide::server::LevelSnapshot;

double MillisecondsOf(auto&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void AddSegment(const collide::Segment& s, uint64_t id,
                collide::v1::Shape* out) {
  out->set_id(id);
  collide::formats::ToProto(s.p1, out->mutable_segment()->mutable_p1());
  collide::formats::ToProto(s.p2, out->mutable_segment()->mutable_p2());
}

// `changed` distinct shapes: a third removed, a third replaced by a moved
// copy, a third added (a wall destroyed, a door opening, a crate dropped).
collide::v1::PatchLevelRequest MakePatch(const collide_bench::Scene& scene,
                                         int changed) {
  collide_bench::SplitMix64 rng(0x9A7C4 + changed);
  collide::v1::PatchLevelRequest request;
  request.set_level("levels/s2");
  const int n = static_cast<int>(scene.segments.size());
  std::vector<int> picks;
  const int existing = changed - changed / 3;
  while (static_cast<int>(picks.size()) < existing) {
    picks.push_back(rng.Below(n));
    if (static_cast<int>(picks.size()) == existing) {
      std::sort(picks.begin(), picks.end());
      picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    }
  }
  for (size_t i = 0; i < picks.size(); ++i) {
    const uint64_t id = static_cast<uint64_t>(picks[i]) + 1;
    if (i % 2 == 0) {
      request.add_remove_ids(id);
    } else {
      collide::Segment s = scene.segments[static_cast<size_t>(picks[i])];
      s.p2 = s.p2 + collide::Vec2{0.5, 0.25};
      AddSegment(s, id, request.add_upserts());
    }
  }
  for (int i = 0; i < changed / 3; ++i) {
    AddSegment(scene.segments[static_cast<size_t>(rng.Below(n))],
               static_cast<uint64_t>(n + 1 + i), request.add_upserts());
  }
  return request;
}

}  // namespace

int main(int argc, char** argv) {
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "What PatchLevel costs on an S2-sized level.\n  collide_patch_bench "
      "[--repeats=5] [--level_dir=/tmp/x]",
      __FILE__, "collide_patch_bench");
  const int repeats = std::max(1, absl::GetFlag(FLAGS_repeats));
  std::string dir = absl::GetFlag(FLAGS_level_dir);
  if (dir.empty()) {
    char pattern[] = "/tmp/collide_patch_bench.XXXXXX";
    if (mkdtemp(pattern) == nullptr) return 1;
    dir = pattern;
  }
  const collide_bench::Scene scene = collide_bench::MakeS2();
  collide::v1::Level source;
  source.set_id("s2");
  for (size_t i = 0; i < scene.segments.size(); ++i) {
    AddSegment(scene.segments[i], i + 1, source.add_shapes());
  }
  collide::formats::InputLimits limits;
  limits.max_level_shapes = 1 << 20;
  limits.max_level_vertices = int64_t{1} << 24;
  limits.max_level_bytes = int64_t{1} << 32;
  const LevelSnapshot base =
      *collide::server::MakeLevelSnapshot(source, 1, limits);

  std::printf("S2-sized level: %d segments; median of %d runs (ms)\n",
              base.level->shape_count(), repeats);
  std::printf("%8s %10s %10s %10s %10s %10s\n", "changed", "lib", "snapshot",
              "store", "rebuild", "create");
  for (int changed : {1, 100, 10000}) {
    const collide::v1::PatchLevelRequest request = MakePatch(scene, changed);
    std::vector<double> lib, snapshot, store, rebuild, create;
    std::vector<uint64_t> removed(request.remove_ids().begin(),
                                  request.remove_ids().end());
    for (const auto& shape : request.upserts()) {
      if (shape.id() <= scene.segments.size()) removed.push_back(shape.id());
    }
    for (int r = 0; r < repeats; ++r) {
      lib.push_back(MillisecondsOf([&] {
        auto level = collide::formats::PatchedLevelFromProto(
            base.level, removed, request.upserts(), "upserts", limits);
        if (!level.ok()) std::abort();
      }));
      LevelSnapshot patched;
      snapshot.push_back(MillisecondsOf([&] {
        patched = *collide::server::PatchSnapshot(base, request, limits);
      }));
      const collide::v1::Level content = collide::server::ContentOf(patched);
      collide::v1::Level moved = content;
      rebuild.push_back(MillisecondsOf([&] {
        auto whole =
            collide::server::MakeLevelSnapshot(std::move(moved), 2, limits);
        if (!whole.ok()) std::abort();
      }));
      create.push_back(MillisecondsOf([&] {
        auto whole = collide::formats::LevelFromProto(content, limits);
        if (!whole.ok()) std::abort();
      }));
      collide::server::LevelStore level_store(
          limits, dir,
          {.max_levels = 4, .max_total_level_bytes = int64_t{1} << 34});
      if (!level_store.Put(source).ok()) std::abort();  // writes s2.binpb
      store.push_back(MillisecondsOf([&] {
        if (!level_store.Patch("s2", request).ok()) std::abort();
      }));
    }
    std::printf("%8d %10.3f %10.3f %10.3f %10.3f %10.3f\n", changed,
                Median(lib), Median(snapshot), Median(store), Median(rebuild),
                Median(create));
  }
  std::printf(
      "(create = Level::Create from the message alone; rebuild adds "
      "validation bookkeeping and the content hash)\n");
  return 0;
}
