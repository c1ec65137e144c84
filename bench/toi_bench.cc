// collide_toi_bench: ns per call of every collide TOI pair and, beside it in
// the same run on the same cases, Box2D 2.4.1's equivalent. Benchmarks are
// named BM_<Pair>/collide and BM_<Pair>/box2d; moving-vs-moving pairs also
// have BM_<Pair>/box2d_toi (b2TimeOfImpact; their box2d row is b2ShapeCast
// on the relative motion). Each reports the counters hits (cases that hit,
// computed once outside timing) and cases; the Box2D rows also disagree
// (cases where exactly one library hits), fraction_differ (both hit, contact
// more than 0.05 apart along the relative motion) and, where Box2D returns a
// point, point_differ (both hit, points more than 0.05 apart on the obstacle).
// The label names the function timed. bench/toi_table.py turns
// --benchmark_format=json output into a markdown table.
//
// Extra flags: --toi_iterations=N runs each benchmark exactly N
// iterations (scripts/bench_instructions.sh counts instructions per call
// that way, under callgrind); --toi_disagreements=N prints, for each Box2D row,
// up to N cases where it and collide disagree on hit/miss and up to N where the
// contacts differ (fraction or point, as counted), at %.17g, to stderr. Box2D's
// point is printed as {0, 0} where it reports none (b2TimeOfImpact).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "box2d_adapters.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "toi_cases.h"
#include "toi_print.h"

namespace collide_bench {
namespace {

using collide::Capsule;
using collide::CapsuleCast;
using collide::Circle;
using collide::CircleCast;
using collide::ConvexPolygon;
using collide::DeformingSegment;
using collide::Moving;
using collide::PolygonCast;
using collide::RayInput;
using collide::Segment;
using collide::Vec2;

int g_print_disagreements = 0;
int64_t g_iterations = 0;  // 0: Google Benchmark picks the count

// --- The collide call for a case, picked by the mover's type.
const collide::ConcavePolygon& View(const ConcaveShape& shape) {
  return shape.polygon;
}
template <typename T>
const T& View(const T& shape) {
  return shape;
}
template <typename O>
std::optional<collide::Hit> Cast(const RayInput& m, const O& o) {
  return collide::CastRay(m, View(o));
}
template <typename O>
std::optional<collide::Hit> Cast(const CircleCast& m, const O& o) {
  return collide::CastCircle(m, View(o));
}
template <typename O>
std::optional<collide::Hit> Cast(const CapsuleCast& m, const O& o) {
  return collide::CastCapsule(m, View(o));
}
template <typename O>
std::optional<collide::Hit> Cast(const PolygonCast& m, const O& o) {
  return collide::CastPolygon(m, View(o));
}

bool IsHit(const std::optional<collide::Hit>& r) { return r.has_value(); }
bool IsHit(const B2Result& r) { return r.hit; }

// The timed loop: cycle through the pre-made cases, one call each. Not
// inlined, so that callgrind can collect in it alone (one call per run).
template <typename C, typename Fn>
__attribute__((noinline)) void TimeCases(benchmark::State& state,
                                         const std::vector<C>& cases, Fn fn) {
  const std::size_t mask = cases.size() - 1;
  std::size_t i = 0;
  for (auto _ : state) {
    auto result = fn(cases[i]);
    benchmark::DoNotOptimize(result);
    i = (i + 1) & mask;
  }
}

template <typename C, typename Fn>
void Register(const std::string& name, const std::string& label,
              std::shared_ptr<const std::vector<C>> cases, Fn fn,
              std::vector<std::pair<std::string, double>> counters) {
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
      name.c_str(), [label, cases, fn, counters](benchmark::State& state) {
        TimeCases(state, *cases, fn);
        state.SetLabel(label);
        for (const auto& [key, value] : counters) state.counters[key] = value;
        state.counters["cases"] = static_cast<double>(cases->size());
      });
  if (g_iterations > 0) b->Iterations(g_iterations);
}

template <typename M, typename O>
std::optional<collide::Hit> CollideCall(const Case<M, O>& c) {
  return Cast(c.mover, c.obstacle);
}

// The obstacle's own translation: zero unless it is Moving<>.
template <typename O>
collide::Vec2 ObstacleTranslation(const O&) {
  return {};
}
template <typename Shape>
collide::Vec2 ObstacleTranslation(const Moving<Shape>& m) {
  return m.translation;
}

// Makes a pair's cases and registers BM_<pair>/collide on them, with hits
// counted once here, outside timing.
template <typename M, typename O>
std::shared_ptr<const std::vector<Case<M, O>>> AddCollide(
    const std::string& pair, uint64_t seed, double aim_jitter,
    const std::string& collide_label) {
  auto cases = std::make_shared<const std::vector<Case<M, O>>>(
      MakeCases<M, O>(seed, aim_jitter));
  auto collide_fn = [](const Case<M, O>& c) { return CollideCall(c); };
  int64_t hits = 0;
  for (const auto& c : *cases) hits += IsHit(collide_fn(c));
  Register(pair + "/collide", collide_label, cases, collide_fn,
           {{"hits", static_cast<double>(hits)}});
  return cases;
}

// Registers BM_<pair>/<side>, a Box2D call on the twins of cases, with its
// hits and its disagreements with collide counted once here, outside
// timing: disagree (exactly one library hits), fraction_differ (both hit,
// contact more than 0.05 apart along the relative motion) and, when Box2D
// reports a point, point_differ (both hit, points more than 0.05 apart on the
// obstacle).
template <typename M, typename O, typename ToB2, typename B2Fn>
void AddBaseline(const std::string& pair, const std::string& side,
                 const std::string& b2_label,
                 const std::vector<Case<M, O>>& cases, ToB2 to_b2, B2Fn b2_fn) {
  auto b2_cases = std::make_shared<const decltype(to_b2(cases))>(to_b2(cases));
  const std::string name = pair + "/" + side;
  int64_t b2_hits = 0;
  int64_t disagree = 0;
  int64_t fraction_differ = 0;
  int64_t point_differ = 0;
  int64_t contact_differ = 0;  // either of the two above
  bool reports_points = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case<M, O>& c = cases[i];
    const auto collide_result = CollideCall(c);
    const bool a = IsHit(collide_result);
    const B2Result b2_result = b2_fn((*b2_cases)[i]);
    const bool b = IsHit(b2_result);
    b2_hits += b;
    reports_points |= b2_result.has_point;
    if (a && b) {
      // Box2D stops short by its linear slop, 0.005, divided by the cosine
      // of the approach angle, so a few grazing cases are normal. The slop
      // is a gap between the shapes, so it is measured along the relative
      // motion (the mover's own for a static obstacle).
      const Vec2 obstacle_motion = ObstacleTranslation(c.obstacle);
      const double b2_fraction = static_cast<double>(b2_result.fraction);
      const double along =
          std::abs(collide_result->fraction - b2_fraction) *
          collide::Length(c.mover.translation - obstacle_motion);
      // Points are compared on the obstacle itself (each moved back by its
      // own fraction of the obstacle's motion), so a moving obstacle's
      // travel between the two fractions does not count as a difference.
      const Vec2 b2_point{b2_result.point.x, b2_result.point.y};
      const double apart =
          b2_result.has_point
              ? collide::Length((collide_result->point -
                                 collide_result->fraction * obstacle_motion) -
                                (b2_point - b2_fraction * obstacle_motion))
              : 0.0;
      if (along > 0.05 || apart > 0.05) {
        if (contact_differ < g_print_disagreements) {
          std::fprintf(stderr,
                       "%s case %zu: contact differs (%.3g units along, "
                       "points %.3g apart): collide %s; box2d fraction %.9g "
                       "point {%.9g, %.9g}\n  mover    %s\n  obstacle %s\n",
                       name.c_str(), i, along, apart,
                       Describe(collide_result).c_str(), b2_fraction,
                       static_cast<double>(b2_result.point.x),
                       static_cast<double>(b2_result.point.y),
                       Describe(c.mover).c_str(), Describe(c.obstacle).c_str());
        }
        ++contact_differ;
        fraction_differ += along > 0.05;
        point_differ += apart > 0.05;
      }
    }
    if (a != b) {
      if (disagree < g_print_disagreements) {
        std::fprintf(stderr,
                     "%s case %zu: collide %s; box2d %s (fraction %.9g)\n"
                     "  mover    %s\n  obstacle %s\n",
                     name.c_str(), i, Describe(collide_result).c_str(),
                     b ? "hit" : "miss",
                     static_cast<double>(b2_result.fraction),
                     Describe(c.mover).c_str(), Describe(c.obstacle).c_str());
      }
      ++disagree;
    }
  }
  std::vector<std::pair<std::string, double>> counters = {
      {"hits", static_cast<double>(b2_hits)},
      {"disagree", static_cast<double>(disagree)},
      {"fraction_differ", static_cast<double>(fraction_differ)}};
  if (reports_points) {
    counters.push_back({"point_differ", static_cast<double>(point_differ)});
  }
  Register(name, b2_label, b2_cases, b2_fn, std::move(counters));
}

// BM_<pair>/collide and BM_<pair>/box2d on the same cases.
template <typename M, typename O, typename ToB2, typename B2Fn>
void AddPair(const std::string& pair, uint64_t seed, double aim_jitter,
             const std::string& collide_label, const std::string& b2_label,
             ToB2 to_b2, B2Fn b2_fn) {
  const auto cases = AddCollide<M, O>(pair, seed, aim_jitter, collide_label);
  AddBaseline(pair, "box2d", b2_label, *cases, to_b2, b2_fn);
}

// Box2D converters and calls, as lambdas so the timed call is direct.
const auto kRayCases = [](const auto& cases) { return ToB2RayCases(cases); };
const auto kCastCases = [](const auto& cases) {
  return ToB2ShapeCastCases(cases);
};
const auto kChainCastCases = [](const auto& cases) {
  return ToB2ChainShapeCastCases(cases);
};
const auto kMovingCases = [](const auto& cases) {
  return ToB2MovingCases(cases);
};
const auto kRayCast = [](const auto& c) { return B2RayCast(c); };
const auto kChainRayCast = [](const B2ChainRayCase& c) {
  return B2ChainRayCast(c);
};
const auto kShapeCast = [](const B2ShapeCastCase& c) { return B2ShapeCast(c); };
const auto kChainShapeCast = [](const B2ChainShapeCastCase& c) {
  return B2ChainShapeCast(c);
};
const auto kRelativeShapeCast = [](const B2MovingCase& c) {
  return B2RelativeShapeCast(c);
};
const auto kToi = [](const B2MovingCase& c) { return B2TimeOfImpact(c); };

constexpr const char* kShapeCastLabel = "b2ShapeCast";
constexpr const char* kChainShapeCastLabel =
    "b2ShapeCast per b2ChainShape loop child, min lambda";
constexpr const char* kRelativeShapeCastLabel =
    "b2ShapeCast on the relative motion";
constexpr const char* kToiLabel = "b2TimeOfImpact (2 translation sweeps)";

// A moving-vs-moving pair: BM_<pair>/box2d is b2ShapeCast on the relative
// motion (the fair baseline: collide reduces the pair the same way) and
// BM_<pair>/box2d_toi is b2TimeOfImpact on the two sweeps.
template <typename M, typename O>
void AddMovingPair(const std::string& pair, uint64_t seed, double aim_jitter,
                   const std::string& collide_label) {
  const auto cases = AddCollide<M, O>(pair, seed, aim_jitter, collide_label);
  AddBaseline(pair, "box2d", kRelativeShapeCastLabel, *cases, kMovingCases,
              kRelativeShapeCast);
  AddBaseline(pair, "box2d_toi", kToiLabel, *cases, kMovingCases, kToi);
}

// Aim jitter (radians) per pair, chosen for roughly half hits.
void RegisterAll() {
  uint64_t seed = 0x70100;
  // --- Ray.
  AddPair<RayInput, Segment>(
      "BM_RayVsSegment", ++seed, 0.22, "CastRay(Segment)",
      "b2EdgeShape::RayCast (two-sided)", kRayCases, kRayCast);
  AddPair<RayInput, Circle>("BM_RayVsCircle", ++seed, 0.51, "CastRay(Circle)",
                            "b2CircleShape::RayCast", kRayCases, kRayCast);
  AddPair<RayInput, ConvexPolygon>(
      "BM_RayVsConvexPolygon", ++seed, 0.50, "CastRay(ConvexPolygon)",
      "b2PolygonShape::RayCast", kRayCases, kRayCast);
  AddPair<RayInput, Capsule>(
      "BM_RayVsCapsule", ++seed, 0.43, "CastRay(Capsule)",
      "b2ShapeCast (point vs 2-vertex proxy + radius)", kCastCases, kShapeCast);
  AddPair<RayInput, ConcaveShape>(
      "BM_RayVsConcavePolygon", ++seed, 0.53, "CastRay(ConcavePolygon)",
      "b2ChainShape::RayCast per loop child, min fraction", kRayCases,
      kChainRayCast);
  // --- Circle.
  AddPair<CircleCast, Vec2>("BM_CircleVsPoint", ++seed, 0.54,
                            "CastCircle(Vec2)", kShapeCastLabel, kCastCases,
                            kShapeCast);
  AddPair<CircleCast, Segment>("BM_CircleVsSegment", ++seed, 0.63,
                               "CastCircle(Segment)", kShapeCastLabel,
                               kCastCases, kShapeCast);
  AddPair<CircleCast, Circle>("BM_CircleVsCircle", ++seed, 0.84,
                              "CastCircle(Circle)", kShapeCastLabel, kCastCases,
                              kShapeCast);
  AddPair<CircleCast, Capsule>("BM_CircleVsCapsule", ++seed, 0.73,
                               "CastCircle(Capsule)", kShapeCastLabel,
                               kCastCases, kShapeCast);
  AddPair<CircleCast, ConvexPolygon>("BM_CircleVsConvexPolygon", ++seed, 0.82,
                                     "CastCircle(ConvexPolygon)",
                                     kShapeCastLabel, kCastCases, kShapeCast);
  AddPair<CircleCast, ConcaveShape>(
      "BM_CircleVsConcavePolygon", ++seed, 0.78, "CastCircle(ConcavePolygon)",
      kChainShapeCastLabel, kChainCastCases, kChainShapeCast);
  // --- Capsule.
  AddPair<CapsuleCast, Segment>("BM_CapsuleVsSegment", ++seed, 0.52,
                                "CastCapsule(Segment)", kShapeCastLabel,
                                kCastCases, kShapeCast);
  AddPair<CapsuleCast, Circle>("BM_CapsuleVsCircle", ++seed, 0.75,
                               "CastCapsule(Circle)", kShapeCastLabel,
                               kCastCases, kShapeCast);
  AddPair<CapsuleCast, Capsule>("BM_CapsuleVsCapsule", ++seed, 0.63,
                                "CastCapsule(Capsule)", kShapeCastLabel,
                                kCastCases, kShapeCast);
  AddPair<CapsuleCast, ConvexPolygon>("BM_CapsuleVsConvexPolygon", ++seed, 0.70,
                                      "CastCapsule(ConvexPolygon)",
                                      kShapeCastLabel, kCastCases, kShapeCast);
  // --- Convex polygon.
  AddPair<PolygonCast, Vec2>("BM_PolygonVsPoint", ++seed, 0.51,
                             "CastPolygon(Vec2)", kShapeCastLabel, kCastCases,
                             kShapeCast);
  AddPair<PolygonCast, Segment>("BM_PolygonVsSegment", ++seed, 0.60,
                                "CastPolygon(Segment)", kShapeCastLabel,
                                kCastCases, kShapeCast);
  AddPair<PolygonCast, Circle>("BM_PolygonVsCircle", ++seed, 0.79,
                               "CastPolygon(Circle)", kShapeCastLabel,
                               kCastCases, kShapeCast);
  AddPair<PolygonCast, Capsule>("BM_PolygonVsCapsule", ++seed, 0.72,
                                "CastPolygon(Capsule)", kShapeCastLabel,
                                kCastCases, kShapeCast);
  AddPair<PolygonCast, ConvexPolygon>("BM_PolygonVsConvexPolygon", ++seed, 0.77,
                                      "CastPolygon(ConvexPolygon)",
                                      kShapeCastLabel, kCastCases, kShapeCast);
  AddPair<PolygonCast, ConcaveShape>(
      "BM_PolygonVsConcavePolygon", ++seed, 0.79, "CastPolygon(ConcavePolygon)",
      kChainShapeCastLabel, kChainCastCases, kChainShapeCast);
  // --- Moving against moving.
  AddMovingPair<CircleCast, Moving<Circle>>("BM_CircleVsMovingCircle", ++seed,
                                            0.87, "CastCircle(Moving<Circle>)");
  AddMovingPair<PolygonCast, Moving<ConvexPolygon>>(
      "BM_PolygonVsMovingConvexPolygon", ++seed, 0.79,
      "CastPolygon(Moving<ConvexPolygon>)");
  AddMovingPair<RayInput, Moving<ConvexPolygon>>(
      "BM_RayVsMovingConvexPolygon", ++seed, 0.51,
      "CastRay(Moving<ConvexPolygon>)");
  // --- Deforming segment: no Box2D equivalent.
  AddCollide<RayInput, DeformingSegment>("BM_RayVsDeformingSegment", ++seed,
                                         0.15, "CastRay(DeformingSegment)");
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) {
  // Our own flag first; benchmark::Initialize rejects what it does not know.
  const char* const kDisagreements = "--toi_disagreements=";
  const char* const kIterations = "--toi_iterations=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const bool disagreements =
        std::strncmp(argv[i], kDisagreements, std::strlen(kDisagreements)) == 0;
    const bool iterations =
        std::strncmp(argv[i], kIterations, std::strlen(kIterations)) == 0;
    if (!disagreements && !iterations) {
      argv[kept++] = argv[i];
      continue;
    }
    const char* value = std::strchr(argv[i], '=') + 1;
    char* end = nullptr;
    const long count = std::strtol(value, &end, 10);
    const long most = disagreements ? 1000000 : 1000000000;
    if (*value == '\0' || *end != '\0' || count < 0 || count > most) {
      std::fprintf(stderr, "%s: %s: want a count in [0, %ld]\n", argv[0],
                   argv[i], most);
      return 2;
    }
    if (disagreements) {
      collide_bench::g_print_disagreements = static_cast<int>(count);
    } else {
      collide_bench::g_iterations = count;
    }
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("box2d", "2.4.1 (libbox2d-dev)");
  benchmark::AddCustomContext("toi_cases_per_pair",
                              std::to_string(collide_bench::kCaseCount));
  collide_bench::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
