#include "degenerate_sight_polygon.h"

#include <gmpxx.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "collide/level.h"
#include "collide/visibility_polygon.h"
#include "degenerate_sight.h"
#include "sight_oracle.h"

namespace collide::oracle {
namespace {

constexpr double kArcAngle = 0.05;
constexpr uint64_t kSeed = 0x51607;

// Whether p is inside the polygon (even-odd) and its distance to the
// boundary, in doubles.
struct Where {
  bool inside = false;
  double distance = 0.0;
};
Where Locate(const std::vector<VisibilityPolygonVertex>& polygon, Vec2 p) {
  Where where{false, std::numeric_limits<double>::infinity()};
  const size_t n = polygon.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec2 a = polygon[i].point;
    const Vec2 b = polygon[(i + 1) % n].point;
    if ((a.y > p.y) != (b.y > p.y) &&
        p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)) {
      where.inside = !where.inside;
    }
    const Vec2 d = b - a;
    const double length_squared = Dot(d, d);
    const double s = length_squared > 0.0
                         ? std::clamp(Dot(p - a, d) / length_squared, 0.0, 1.0)
                         : 0.0;
    where.distance = std::min(where.distance, Length(p - (a + s * d)));
  }
  return where;
}

// Whether t lies exactly on a line through v and an occluder's point.
bool OnCriticalLine(const SightCase& c, Vec2 t) {
  const mpq_class vx(c.viewer.position.x), vy(c.viewer.position.y);
  const mpq_class tx = mpq_class(t.x) - vx, ty = mpq_class(t.y) - vy;
  for (const SightOccluder& o : c.occluders) {
    if (o.kind == SightOccluder::Kind::kCircle ||
        o.kind == SightOccluder::Kind::kCapsule) {
      continue;
    }
    for (Vec2 w : o.points) {
      const mpq_class wx = mpq_class(w.x) - vx, wy = mpq_class(w.y) - vy;
      if (wx * ty - wy * tx == 0) return true;
    }
  }
  return false;
}

bool IsVertexOf(const SightOccluder& o, Vec2 p) {
  return std::find(o.points.begin(), o.points.end(), p) != o.points.end();
}

}  // namespace

void RunSightPolygonFamily(int cases, int show, int* disagreements) {
  const auto start = std::chrono::steady_clock::now();
  Rng rng(kSeed);
  const SightFamily constructions[] = {
      {"", SightConstruction::kVertex, 0},
      {"", SightConstruction::kEdge, 0},
      {"", SightConstruction::kCollinear, 0},
  };
  int64_t points = 0, seen = 0, undecided = 0, zero_width = 0, wrong = 0;
  int64_t vertices = 0, level_vertices = 0, empty = 0, skipped = 0;
  int at_1e6 = 0, at_1e9 = 0, shown = 0;
  VisibilityPolygonScratch scratch;
  std::vector<VisibilityPolygonVertex> out(1 << 14);
  for (int i = 0; i < cases; ++i) {
    SightCase c = GenerateSight(constructions[rng.Int(0, 2)], rng);
    const Vec2 v = c.viewer.position;
    double far = 0.0, largest_radius = 0.0;
    for (const SightOccluder& o : c.occluders) {
      for (Vec2 p : o.points) far = std::max(far, Length(p - v) + o.radius);
      largest_radius = std::max(largest_radius, o.radius);
    }
    for (Vec2 t : c.targets) far = std::max(far, Length(t - v));
    if (!(far > 0.0)) far = 1.0;
    const double range = far * (rng.Chance(0.5) ? 0.75 : 2.0);
    c.viewer.range = range;
    absl::StatusOr<Level> level = Level::Create(SightLevelShapes(c));
    if (!level.ok()) {
      ++skipped;
      continue;
    }
    at_1e6 += c.offset == 1e6;
    at_1e9 += c.offset == 1e9;
    const VisibilityPolygonResult result = VisibilityPolygon(
        *level, v, {.range = range, .max_arc_angle = kArcAngle},
        absl::MakeSpan(out), scratch);
    const auto report = [&](const char* what, Vec2 t) {
      ++wrong;
      if (shown++ < show) {
        std::printf("    #%d %s (%.17g, %.17g)\n      %s\n", i, what, t.x, t.y,
                    DescribeSight(c).c_str());
      }
    };
    if (result.status != VisibilityPolygonStatus::kOk) {
      report("status not ok at", v);
      continue;
    }
    bool inside_exact = false;
    for (const SightOccluder& o : c.occluders) {
      inside_exact |= InsideExact(o, v);
    }
    if (inside_exact != result.viewer_inside) {
      report(inside_exact ? "viewer inside, polygon drawn at"
                          : "viewer outside, polygon empty at",
             v);
      continue;
    }
    if (result.viewer_inside) {
      ++empty;
      continue;
    }
    const std::vector<VisibilityPolygonVertex> polygon(
        out.begin(), out.begin() + result.vertex_count);
    // The probes' choices draw from their own generator, so that what the
    // polygon looks like never shifts the cases that follow: case K is
    // the same case whatever the core answers.
    Rng probe_rng(kSeed ^ (0x9E3779B97F4A7C15ull * (i + 1ull)));
    const double scale = std::max(std::abs(v.x), std::abs(v.y)) + range;
    const double error = kVisibilityPolygonRelativeError * scale;
    const double half = kArcAngle / 2;
    const double margin = error + range * (1 - std::cos(half)) +
                          largest_radius * (1 / std::cos(half) - 1);
    std::vector<Vec2> probes = c.targets;
    for (size_t k = 0; k < polygon.size(); ++k) {
      const VisibilityPolygonVertex& a = polygon[k];
      const VisibilityPolygonVertex& b = polygon[(k + 1) % polygon.size()];
      ++vertices;
      if (a.kind == PolygonVertexKind::kLevelVertex) {
        ++level_vertices;
        if (!a.shape_id || *a.shape_id < 1 ||
            *a.shape_id > c.occluders.size() ||
            !IsVertexOf(c.occluders[*a.shape_id - 1], a.point)) {
          report("level vertex not of its shape:", a.point);
        }
      }
      if (Length(a.point - v) > range + error) {
        report("vertex beyond the range:", a.point);
      }
      const bool on_arc = (a.kind == PolygonVertexKind::kArc ||
                           a.kind == PolygonVertexKind::kArcEnd) &&
                          (b.kind == PolygonVertexKind::kArc ||
                           b.kind == PolygonVertexKind::kArcEnd);
      if (on_arc && probe_rng.Chance(0.9)) continue;
      const Vec2 d = b.point - a.point;
      const double length = Length(d);
      if (!(length > 8 * margin)) continue;
      const Vec2 n = (4 * margin / length) * LeftPerp(d);
      const Vec2 m = a.point + 0.5 * d;
      probes.push_back(m + n);
      probes.push_back(m - n);
    }
    for (const Vec2 t : probes) {
      const Where where = Locate(polygon, t);
      if (where.distance <= margin) {
        ++undecided;
        continue;
      }
      const bool expected = SeesExact(c.occluders, c.viewer, t);
      ++points;
      seen += expected;
      if (where.inside == expected) continue;
      if (OnCriticalLine(c, t)) {
        ++zero_width;
        continue;
      }
      report(expected ? "seen point outside the polygon:"
                      : "hidden point inside the polygon:",
             t);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  *disagreements += static_cast<int>(wrong);
  std::printf(
      "[sight] %-16s cases=%d points=%lld oracle: seen=%lld hidden=%lld "
      "near-boundary=%lld zero-width=%lld empty=%lld vertices=%lld "
      "level-vertices=%lld skipped=%lld | disagree=%lld at-1e6=%d "
      "at-1e9=%d time=%.1fs\n",
      kSightPolygonFamily, cases, static_cast<long long>(points),
      static_cast<long long>(seen), static_cast<long long>(points - seen),
      static_cast<long long>(undecided), static_cast<long long>(zero_width),
      static_cast<long long>(empty), static_cast<long long>(vertices),
      static_cast<long long>(level_vertices), static_cast<long long>(skipped),
      static_cast<long long>(wrong), at_1e6, at_1e9, seconds);
  std::fflush(stdout);
}

}  // namespace collide::oracle
