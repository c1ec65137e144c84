#include "report.h"

#include <cstdio>

#include "reference.h"

namespace collide_bench {

void Score(const std::vector<WorldHit>& results,
           const std::vector<WorldHit>& reference, LibraryRun& run) {
  run.hits = 0;
  run.disagreements = 0;
  run.examples.clear();
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].hit) ++run.hits;
    if (Disagrees(results[i], reference[i])) {
      ++run.disagreements;
      if (run.examples.size() < 3) {
        run.examples.push_back(static_cast<int64_t>(i));
      }
    }
  }
}

namespace {

void PrintHit(const char* who, const WorldHit& h) {
  if (!h.hit) {
    std::printf("    %-10s miss\n", who);
    return;
  }
  std::printf("    %-10s hit shape %lld fraction %.9f point (%.9f, %.9f)\n",
              who, static_cast<long long>(h.shape), h.fraction, h.point.x,
              h.point.y);
}

}  // namespace

void PrintExamples(const Scene& scene, const QuerySet& set,
                   const std::vector<WorldHit>& results,
                   const std::vector<WorldHit>& reference,
                   const LibraryRun& run) {
  for (int64_t q : run.examples) {
    const collide::Vec2 o = set.origins[q];
    const collide::Vec2 t = set.translations[q];
    std::printf(
        "  %s %s %s%s%s query %lld: origin (%.17g, %.17g) translation "
        "(%.17g, %.17g) radius %g\n",
        scene.name.c_str(), set.name.c_str(), run.library.c_str(),
        run.config.empty() ? "" : " ", run.config.c_str(),
        static_cast<long long>(q), o.x, o.y, t.x, t.y, set.radius);
    PrintHit("reference", reference[q]);
    PrintHit("library", results[q]);
    const int64_t s = reference[q].hit ? reference[q].shape : results[q].shape;
    if (s >= 0 && scene.kind == ShapeKind::kSegment) {
      const collide::Segment& seg = scene.segments[s];
      std::printf("    shape %lld: segment (%.17g, %.17g) (%.17g, %.17g)\n",
                  static_cast<long long>(s), seg.p1.x, seg.p1.y, seg.p2.x,
                  seg.p2.y);
    } else if (s >= 0) {
      const collide::Aabb& b = scene.boxes[s];
      std::printf("    shape %lld: box (%.17g, %.17g) (%.17g, %.17g)\n",
                  static_cast<long long>(s), b.lower.x, b.lower.y, b.upper.x,
                  b.upper.y);
    }
  }
}

std::string FormatNs(const LibraryRun& run) {
  if (!run.ran) return "-";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.0f (%.0f-%.0f)", run.timing.median_ns,
                run.timing.min_ns, run.timing.max_ns);
  return buf;
}

bool IsCorrect(const LibraryRun& run, size_t queries) {
  return run.ran && static_cast<double>(run.disagreements) <=
                        0.001 * static_cast<double>(queries);
}

}  // namespace collide_bench
