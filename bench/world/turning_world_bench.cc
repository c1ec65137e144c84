// World casts of turning capsules and boxes on the scenes of
// docs/performance.md (S1, S2, S3 with the C20 starts and directions),
// beside the same shapes translating: ns per cast for each and their
// ratio, and how the turning casts ended (hit, near contact, undecided,
// miss). Each turning mover turns a quarter turn about its centroid while
// it translates by the query's translation (20 units); a "swing" set turns
// a blade a half turn about one end in place.
//
//   collide_turning_world_bench [--queries=N] [--passes=P] [--scene=S]
//                               [--mover=M]
//
// Times are this thread's CPU time (best of the passes): on a shared
// machine wall time counts the other processes' turns too. --scene and
// --mover keep one row, for callgrind: every timed translating cast runs
// inside TranslatingPass and every turning one inside TurningPass, so
//   valgrind --tool=callgrind --toggle-collect='*TurningPass*' ...
// counts the instructions of the timed turning casts alone.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/turning.h"
#include "collide/turning_query.h"
#include "scenes.h"

namespace collide_bench {
namespace {

using collide::Capsule;
using collide::ConvexPolygon;
using collide::Level;
using collide::Turning;
using collide::TurnStatus;
using collide::Vec2;

struct Counts {
  int64_t hit = 0, overlap = 0, near = 0, undecided = 0, miss = 0;
};

void Count(const std::optional<collide::WorldTurnHit>& r, Counts& c) {
  if (!r) {
    ++c.miss;
    return;
  }
  switch (r->bracket.status) {
    case TurnStatus::kHit:
      ++c.hit;
      break;
    case TurnStatus::kInitialOverlap:
      ++c.overlap;
      break;
    case TurnStatus::kNearContact:
      ++c.near;
      break;
    case TurnStatus::kUndecided:
      ++c.undecided;
      break;
    case TurnStatus::kMiss:
      ++c.miss;
      break;
  }
}

double ThreadNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// One pass of fn over every query; two names so that callgrind can collect
// in either alone.
template <typename Fn>
[[gnu::noinline]] void TranslatingPass(size_t count, Fn& fn) {
  for (size_t i = 0; i < count; ++i) fn(i);
}
template <typename Fn>
[[gnu::noinline]] void TurningPass(size_t count, Fn& fn) {
  for (size_t i = 0; i < count; ++i) fn(i);
}

// The best of `passes` timings of a pass over every query, in ns per query.
template <typename Pass>
double NsPerQuery(int passes, size_t count, Pass&& pass) {
  double best = 1e300;
  for (int p = 0; p < passes; ++p) {
    const double start = ThreadNanos();
    pass();
    best = std::min(best, (ThreadNanos() - start) / static_cast<double>(count));
  }
  return best;
}

std::string only_scene;
std::string only_mover;

bool Wanted(const std::string& scene, const char* mover) {
  return (only_scene.empty() || only_scene == scene) &&
         (only_mover.empty() || only_mover == mover);
}

volatile double sink = 0.0;

void Row(const char* scene, const char* mover, double translating,
         double turning, const Counts& c) {
  std::printf(
      "| %s | %s | %.0f | %.0f | %.2f | %lld | %lld | %lld | %lld | "
      "%lld |\n",
      scene, mover, translating, turning, turning / translating,
      static_cast<long long>(c.hit), static_cast<long long>(c.overlap),
      static_cast<long long>(c.near), static_cast<long long>(c.undecided),
      static_cast<long long>(c.miss));
}

void RunScene(const Scene& scene, size_t queries, int passes) {
  const Level level = SceneLevel(scene);
  const QuerySet set = MakeC20(scene);
  const size_t n = std::min(queries, set.size());
  const absl::StatusOr<ConvexPolygon> unit_box =
      collide::MakeBox({0, 0}, {0.5, 0.5}, 0.0);
  const auto capsule_at = [&](size_t i) {
    const Vec2 c = set.origins[i];
    return Capsule{c - Vec2{1, 0}, c + Vec2{1, 0}, 0.25};
  };
  const auto box_at = [&](size_t i) {
    ConvexPolygon box = *unit_box;
    for (int k = 0; k < box.count; ++k) {
      box.vertices[k] = box.vertices[k] + set.origins[i];
    }
    return box;
  };
  const double quarter = std::numbers::pi / 2;

  // Capsules: translating, then turning a quarter turn about the centre.
  if (Wanted(scene.name, "capsule")) {
    Counts capsule_counts;
    for (size_t i = 0; i < n; ++i) {
      Count(collide::CastTurning(
                Turning<Capsule>{capsule_at(i), set.translations[i], quarter,
                                 set.origins[i]},
                level),
            capsule_counts);
    }
    auto capsule_translate = [&](size_t i) {
      const auto hit = collide::CastCapsule(
          collide::CapsuleCast{capsule_at(i), set.translations[i]}, level);
      sink = sink + (hit ? hit->hit.fraction : 1.0);
    };
    auto capsule_turn = [&](size_t i) {
      const auto hit = collide::CastTurning(
          Turning<Capsule>{capsule_at(i), set.translations[i], quarter,
                           set.origins[i]},
          level);
      sink = sink + (hit ? hit->hit.hit.fraction : 1.0);
    };
    const double capsule_translating =
        NsPerQuery(passes, n, [&] { TranslatingPass(n, capsule_translate); });
    const double capsule_turning =
        NsPerQuery(passes, n, [&] { TurningPass(n, capsule_turn); });
    Row(scene.name.c_str(), "capsule", capsule_translating, capsule_turning,
        capsule_counts);
  }

  if (Wanted(scene.name, "box")) {
    Counts box_counts;
    for (size_t i = 0; i < n; ++i) {
      Count(collide::CastTurning(
                Turning<ConvexPolygon>{box_at(i), set.translations[i], quarter,
                                       set.origins[i]},
                level),
            box_counts);
    }
    auto box_translate = [&](size_t i) {
      const auto hit = collide::CastPolygon(
          collide::PolygonCast{box_at(i), set.translations[i]}, level);
      sink = sink + (hit ? hit->hit.fraction : 1.0);
    };
    auto box_turn = [&](size_t i) {
      const auto hit = collide::CastTurning(
          Turning<ConvexPolygon>{box_at(i), set.translations[i], quarter,
                                 set.origins[i]},
          level);
      sink = sink + (hit ? hit->hit.hit.fraction : 1.0);
    };
    const double box_translating =
        NsPerQuery(passes, n, [&] { TranslatingPass(n, box_translate); });
    const double box_turning =
        NsPerQuery(passes, n, [&] { TurningPass(n, box_turn); });
    Row(scene.name.c_str(), "box", box_translating, box_turning, box_counts);
  }

  // A blade of length 3 swinging a half turn about its hand, in place,
  // beside the same blade translating by its tip's displacement.
  const auto blade_at = [&](size_t i) {
    const Vec2 d = (3.0 / 20.0) * set.translations[i];
    return Capsule{set.origins[i], set.origins[i] + d, 0.05};
  };
  if (Wanted(scene.name, "swing")) {
    Counts swing_counts;
    for (size_t i = 0; i < n; ++i) {
      Count(collide::CastTurning(
                Turning<Capsule>{
                    blade_at(i), {0, 0}, std::numbers::pi, set.origins[i]},
                level),
            swing_counts);
    }
    auto swing_translate = [&](size_t i) {
      const Capsule blade = blade_at(i);
      const auto hit = collide::CastCapsule(
          collide::CapsuleCast{blade, -2.0 * (blade.p2 - blade.p1)}, level);
      sink = sink + (hit ? hit->hit.fraction : 1.0);
    };
    auto swing_turn = [&](size_t i) {
      const auto hit = collide::CastTurning(
          Turning<Capsule>{
              blade_at(i), {0, 0}, std::numbers::pi, set.origins[i]},
          level);
      sink = sink + (hit ? hit->hit.hit.fraction : 1.0);
    };
    const double swing_translating =
        NsPerQuery(passes, n, [&] { TranslatingPass(n, swing_translate); });
    const double swing_turning =
        NsPerQuery(passes, n, [&] { TurningPass(n, swing_turn); });
    Row(scene.name.c_str(), "swing", swing_translating, swing_turning,
        swing_counts);
  }
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) {
  size_t queries = 20000;
  int passes = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--queries=", 10) == 0) {
      queries = static_cast<size_t>(std::atoll(argv[i] + 10));
    } else if (std::strncmp(argv[i], "--passes=", 9) == 0) {
      passes = std::atoi(argv[i] + 9);
    } else if (std::strncmp(argv[i], "--scene=", 8) == 0) {
      collide_bench::only_scene = argv[i] + 8;
    } else if (std::strncmp(argv[i], "--mover=", 8) == 0) {
      collide_bench::only_mover = argv[i] + 8;
    } else {
      std::fprintf(stderr,
                   "usage: collide_turning_world_bench [--queries=N] "
                   "[--passes=P] [--scene=S1|S2|S3] "
                   "[--mover=capsule|box|swing]\n");
      return 2;
    }
  }
  std::printf(
      "| scene | mover | translating ns | turning ns | ratio | hit | "
      "initial overlap | near contact | undecided | miss |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  const std::string& only = collide_bench::only_scene;
  if (only.empty() || only == "S1") {
    collide_bench::RunScene(collide_bench::MakeS1(), queries, passes);
  }
  if (only.empty() || only == "S2") {
    collide_bench::RunScene(collide_bench::MakeS2(), queries, passes);
  }
  if (only.empty() || only == "S3") {
    collide_bench::RunScene(collide_bench::MakeS3(), queries, passes);
  }
  return 0;
}
