#include "degenerate_sight_disc.h"

#include <gmpxx.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/visibility.h"
#include "collide/visible_disc.h"
#include "degenerate_sight.h"
#include "sight_oracle.h"

namespace collide::oracle {
namespace {

// |p - c|^2 <= r^2, in rationals.
bool InDiscExact(Vec2 p, const Circle& disc) {
  const mpq_class dx = mpq_class(p.x) - mpq_class(disc.center.x);
  const mpq_class dy = mpq_class(p.y) - mpq_class(disc.center.y);
  const mpq_class r(disc.radius);
  return dx * dx + dy * dy <= r * r;
}

bool InsideAnySolid(const std::vector<SightOccluder>& occluders, Vec2 v) {
  for (const SightOccluder& o : occluders) {
    if (InsideExact(o, v)) return true;
  }
  return false;
}

enum class DiscVerdict { kSeen, kHidden, kNoWitness };

// The sample points of `disc` seen from v: for each direction (an angle
// from c - v), the ray's first point of the disc moved inward by a few
// depths, each rounded to double.
void AddSamples(Vec2 v, const Circle& disc, double angle,
                std::vector<Vec2>* points) {
  const long double wx = static_cast<long double>(disc.center.x) - v.x;
  const long double wy = static_cast<long double>(disc.center.y) - v.y;
  const long double length = std::sqrt(wx * wx + wy * wy);
  const long double r = disc.radius;
  const long double ux = (wx * std::cos(angle) - wy * std::sin(angle)) / length;
  const long double uy = (wx * std::sin(angle) + wy * std::cos(angle)) / length;
  const long double along = ux * wx + uy * wy;
  const long double across = ux * wy - uy * wx;
  const long double inside = r * r - across * across;
  if (inside < 0) return;
  const long double s1 = along - std::sqrt(inside);
  const long double px = v.x + s1 * ux;
  const long double py = v.y + s1 * uy;
  for (const long double depth : {0.0L, 1e-12L, 1e-7L, 1e-3L, 0.05L}) {
    const long double t = depth;  // a share of the way to the centre
    points->push_back({static_cast<double>(px + t * (disc.center.x - px)),
                       static_cast<double>(py + t * (disc.center.y - py))});
  }
}

DiscVerdict Judge(const SightDiscCase& c, const SightDisc& disc) {
  const SightViewer& viewer = c.sight.viewer;
  const Vec2 v = viewer.position;
  if (disc.circle.radius == 0.0) {
    return SeesExact(c.sight.occluders, viewer, disc.circle.center)
               ? DiscVerdict::kSeen
               : DiscVerdict::kHidden;
  }
  if (InDiscExact(v, disc.circle)) {
    return InsideAnySolid(c.sight.occluders, v) ? DiscVerdict::kHidden
                                                : DiscVerdict::kSeen;
  }
  std::vector<Vec2> points = disc.witnesses;
  points.push_back(disc.circle.center);
  const Vec2 w = disc.circle.center - v;
  const double distance = std::hypot(w.x, w.y);
  const double half = std::asin(std::min(1.0, disc.circle.radius / distance));
  for (int k = 0; k <= 32; ++k) {
    AddSamples(v, disc.circle, half * (-1.0 + k / 16.0) * (1.0 - 1e-12),
               &points);
  }
  for (const SightOccluder& o : c.sight.occluders) {
    for (const Vec2 p : o.points) {
      const Vec2 d = p - v;
      const double angle = std::atan2(Cross(w, d), Dot(w, d));
      if (std::abs(angle) <= half) AddSamples(v, disc.circle, angle, &points);
    }
  }
  for (const Vec2 p : points) {
    if (InDiscExact(p, disc.circle) &&
        SeesExact(c.sight.occluders, viewer, p)) {
      return DiscVerdict::kSeen;
    }
  }
  return DiscVerdict::kNoWitness;
}

std::string DescribeDisc(const SightDiscCase& c, const SightDisc& disc) {
  char text[160];
  std::snprintf(text, sizeof(text), "disc (%.17g, %.17g) r=%.17g | ",
                disc.circle.center.x, disc.circle.center.y, disc.circle.radius);
  return text + DescribeSight(c.sight);
}

}  // namespace

void RunSightDiscFamily(int cases, int show, int* disagreements) {
  const auto start = std::chrono::steady_clock::now();
  Rng rng(0x51607);
  int64_t discs = 0, seen = 0, hidden = 0, no_witness = 0, skipped = 0;
  int64_t wrong = 0, unconfirmed = 0, lib_seen = 0;
  int at_1e6 = 0, at_1e9 = 0, shown = 0, shown_unconfirmed = 0;
  DiscSightScratch scratch;
  for (int i = 0; i < cases; ++i) {
    const SightDiscCase c = GenerateSightDiscs(rng);
    absl::StatusOr<Level> level = Level::Create(SightLevelShapes(c.sight));
    if (!level.ok()) {
      ++skipped;
      continue;
    }
    at_1e6 += c.sight.offset == 1e6;
    at_1e9 += c.sight.offset == 1e9;
    Viewer viewer{c.sight.viewer.position, c.sight.viewer.range, std::nullopt};
    if (c.sight.viewer.cone) {
      viewer.cone =
          ViewCone{c.sight.viewer.cone->first, c.sight.viewer.cone->second};
    }
    for (const SightDisc& disc : c.discs) {
      const std::optional<bool> answer =
          SeesDisc(*level, viewer, disc.circle, scratch);
      ++discs;
      const DiscVerdict verdict = Judge(c, disc);
      seen += verdict == DiscVerdict::kSeen;
      hidden += verdict == DiscVerdict::kHidden;
      no_witness += verdict == DiscVerdict::kNoWitness;
      const bool got = answer.value_or(false);
      lib_seen += got;
      bool bad = !answer.has_value();
      if (verdict == DiscVerdict::kSeen) bad |= !got;
      if (verdict == DiscVerdict::kHidden) bad |= got;
      if (verdict == DiscVerdict::kNoWitness && got) {
        ++unconfirmed;
        if (shown_unconfirmed < show) {
          ++shown_unconfirmed;
          std::printf(
              "    #%d: unconfirmed (SeesDisc seen, no seen point)\n"
              "      %s\n",
              i, DescribeDisc(c, disc).c_str());
        }
      }
      wrong += bad;
      if (bad && shown < show) {
        ++shown;
        std::printf("    #%d: oracle %s, SeesDisc %s\n      %s\n", i,
                    verdict == DiscVerdict::kSeen ? "seen" : "hidden",
                    !answer.has_value() ? "no answer"
                    : got               ? "seen"
                                        : "hidden",
                    DescribeDisc(c, disc).c_str());
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  *disagreements += static_cast<int>(wrong);
  std::printf(
      "[sight] %-16s cases=%d discs=%lld oracle: seen=%lld hidden=%lld "
      "no-seen-point=%lld skipped=%lld | SeesDisc seen=%lld | disagree=%lld "
      "unconfirmed=%lld at-1e6=%d at-1e9=%d time=%.1fs\n",
      kSightDiscFamily, cases, static_cast<long long>(discs),
      static_cast<long long>(seen), static_cast<long long>(hidden),
      static_cast<long long>(no_witness), static_cast<long long>(skipped),
      static_cast<long long>(lib_seen), static_cast<long long>(wrong),
      static_cast<long long>(unconfirmed), at_1e6, at_1e9, seconds);
  std::fflush(stdout);
}

}  // namespace collide::oracle
