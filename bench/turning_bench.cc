// collide_turning_bench: turning pair TOI (collide/turning.h) beside Box2D
// 2.4.1's b2TimeOfImpact (b2Sweep with angles) on the same cases, judged
// by the MPFR oracle (tests/lib/oracle/turning_oracle.h) outside timing.
//
// The cases are the turning families at offset 0 (Box2D works in float;
// farther out its answers say nothing about its method). Box2D's twin of
// a case: the same vertices and radius in b2DistanceProxy (world frame,
// body angle 0), sweep localCenter = c0 = pivot, c = pivot + translation,
// a0 = 0, a = angle, tMax = max_fraction. Its TOI stops at a target
// separation (b2_linearSlop for shapes without radius; the cores
// 3 b2_linearSlop inside the radii otherwise), so a contact placed within
// 0.02 / (speed bound) of the oracle's is counted as placed.
//
// Columns: ns per pair for each library (thread CPU time, best of
// --repeats passes over all cases; the shapes are built outside timing), and
// against the oracle: Box2D's misses (separated, failed or tMax while the
// oracle certifies a contact), late contacts (after the oracle's first contact
// by more than the slop allows: a tunnel into the shape) and early ones;
// collide's disagreements with its bracket contract.
//
//   collide_turning_bench [--cases=N] [--repeats=R]
//                         [--profile [--family=F] [--status=miss|contact]]
//
// --profile skips the oracle: it times both libraries and prints collide's
// mean distance evaluations per pair and its statuses (for perf and
// callgrind, whose instruction counts do not depend on the machine's load).
// --status keeps only the cases collide answers as a miss, or as anything
// else, so callgrind can split a family's cost between the two.
#include <box2d/b2_distance.h>
#include <box2d/b2_math.h>
#include <box2d/b2_time_of_impact.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/turning.h"
#include "turning_families.h"
#include "turning_oracle.h"

namespace {

using collide::oracle::OracleAnswer;
using collide::oracle::OracleKind;
using collide::oracle::TurnCase;
using collide::oracle::TurnShape;

struct B2Case {
  b2DistanceProxy a;
  b2DistanceProxy b;
  b2Vec2 a_vertices[b2_maxPolygonVertices];
  b2Vec2 b_vertices[b2_maxPolygonVertices];
  b2Sweep a_sweep;
  b2Sweep b_sweep;
  float max_fraction = 1.0f;
};

b2Sweep SweepOf(const TurnShape& s) {
  b2Sweep sweep;
  sweep.localCenter.Set(static_cast<float>(s.pivot.x),
                        static_cast<float>(s.pivot.y));
  sweep.c0 = sweep.localCenter;
  sweep.c.Set(static_cast<float>(s.pivot.x + s.translation.x),
              static_cast<float>(s.pivot.y + s.translation.y));
  sweep.a0 = 0.0f;
  sweep.a = static_cast<float>(s.angle);
  sweep.alpha0 = 0.0f;
  return sweep;
}

void SetProxy(const TurnShape& s, b2Vec2* storage, b2DistanceProxy* proxy) {
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    storage[i].Set(static_cast<float>(s.vertices[i].x),
                   static_cast<float>(s.vertices[i].y));
  }
  proxy->Set(storage, static_cast<int32>(s.vertices.size()),
             static_cast<float>(s.radius));
}

struct B2Answer {
  bool hit = false;
  float t = 0.0f;
};

B2Answer RunBox2D(const B2Case& c) {
  b2TOIInput input;
  input.proxyA = c.a;
  input.proxyB = c.b;
  input.sweepA = c.a_sweep;
  input.sweepB = c.b_sweep;
  input.tMax = c.max_fraction;
  b2TOIOutput output;
  b2TimeOfImpact(&output, &input);
  return {output.state == b2TOIOutput::e_touching ||
              output.state == b2TOIOutput::e_overlapped,
          output.t};
}

void SetB2Case(const TurnCase& c, B2Case* b) {
  SetProxy(c.a, b->a_vertices, &b->a);
  SetProxy(c.b, b->b_vertices, &b->b);
  b->a_sweep = SweepOf(c.a);
  b->b_sweep = SweepOf(c.b);
  b->max_fraction = static_cast<float>(c.max_fraction);
}

// This thread's CPU time: on a shared machine, wall time counts the other
// processes' turns too.
double ThreadNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double SpeedBound(const TurnCase& c) {
  auto reach = [](const TurnShape& s) {
    double r = 0.0;
    for (const collide::Vec2 v : s.vertices) {
      r = std::max(r, collide::Length(v - s.pivot));
    }
    return r;
  };
  return collide::Length(c.a.translation - c.b.translation) +
         std::fabs(c.a.angle) * reach(c.a) + std::fabs(c.b.angle) * reach(c.b);
}

struct Row {
  std::string family;
  int cases = 0;
  int oracle_hits = 0;
  double collide_ns = 0.0;
  double box2d_ns = 0.0;
  int collide_disagree = 0;
  int collide_near_or_undecided = 0;
  int box2d_missed = 0;
  int box2d_late = 0;
  int box2d_early = 0;
  int box2d_false_hit = 0;
};

// Zero angles dispatch to the translation casts: CastTurning beside the
// direct CastCircle on the same circle-vs-moving-polygon cases.
void ZeroAngleRow(int cases, int repeats) {
  std::vector<collide::Turning<collide::Circle>> movers;
  std::vector<collide::Turning<collide::ConvexPolygon>> targets;
  for (int i = 0; movers.size() < static_cast<size_t>(cases); ++i) {
    TurnCase c;
    collide::oracle::MakeTurningCase("random-pairs",
                                     3 * static_cast<uint64_t>(i), &c);
    if (c.b_kind != collide::oracle::ShapeKind::kPolygon) continue;
    const collide::Vec2 center = c.a.vertices[0];
    movers.push_back({{center, 0.5}, c.a.translation, 0.0, center});
    targets.push_back({*collide::MakeConvexPolygon(c.b.vertices),
                       c.b.translation, 0.0, c.b.pivot});
  }
  double best_turning = 1e300;
  double best_direct = 1e300;
  double sink = 0.0;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = ThreadNanos();
    for (size_t i = 0; i < movers.size(); ++i) {
      sink += collide::CastTurning(movers[i], targets[i]).fraction_lo;
    }
    const double t1 = ThreadNanos();
    for (size_t i = 0; i < movers.size(); ++i) {
      const std::optional<collide::Hit> hit =
          collide::CastCircle({movers[i].shape, movers[i].translation},
                              collide::Moving<collide::ConvexPolygon>{
                                  targets[i].shape, targets[i].translation});
      sink += hit ? hit->fraction : 0.0;
    }
    const double t2 = ThreadNanos();
    best_turning = std::min(best_turning, t1 - t0);
    best_direct = std::min(best_direct, t2 - t1);
  }
  if (sink == 12345.678) std::printf("%g\n", sink);
  std::printf(
      "zero angles, circle vs moving polygon, %d cases: CastTurning %.1f ns, "
      "CastCircle %.1f ns\n\n",
      cases, best_turning / cases, best_direct / cases);
}

// collide alone on each family: ns per pair, mean evaluations, statuses.
void ProfileRows(const char* const* families, int family_count, int cases,
                 int repeats, const std::string& keep) {
  std::printf(
      "| family | cases | collide ns | Box2D ns | evaluations per pair | per "
      "hit | per miss | hit | initial | near | undecided | miss |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int f = 0; f < family_count; ++f) {
    std::vector<std::function<collide::TurnResult()>> calls;
    std::vector<B2Case> b2_cases(cases);
    for (int i = 0; i < cases; ++i) {
      TurnCase c;
      collide::oracle::MakeTurningCase(families[f],
                                       3 * static_cast<uint64_t>(i), &c);
      if (!keep.empty()) {
        const bool miss =
            collide::oracle::RunService(c).status == collide::TurnStatus::kMiss;
        if (miss != (keep == "miss")) continue;
      }
      calls.push_back(collide::oracle::BindService(c));
      SetB2Case(c, &b2_cases[calls.size() - 1]);
    }
    b2_cases.resize(calls.size());
    const int kept = static_cast<int>(calls.size());
    double best = 1e300;
    double best_box2d = 1e300;
    double sink = 0.0;
    for (int r = 0; r < repeats; ++r) {
      const double t0 = ThreadNanos();
      for (const auto& call : calls) sink += call().fraction_lo;
      const double t1 = ThreadNanos();
      for (const B2Case& c : b2_cases) sink += RunBox2D(c).t;
      best = std::min(best, t1 - t0);
      best_box2d = std::min(best_box2d, ThreadNanos() - t1);
    }
    if (sink == 12345.678) std::printf("%g\n", sink);
    long evaluations = 0;
    long by_status[5] = {};
    int statuses[5] = {};
    for (const auto& call : calls) {
      const collide::TurnResult r = call();
      evaluations += r.iterations;
      by_status[static_cast<int>(r.status)] += r.iterations;
      ++statuses[static_cast<int>(r.status)];
    }
    auto mean = [&](int status) {
      return statuses[status] == 0
                 ? 0.0
                 : static_cast<double>(by_status[status]) / statuses[status];
    };
    std::printf(
        "| %s | %d | %.0f | %.0f | %.2f | %.2f | %.2f | %d | %d | %d | %d | "
        "%d |\n",
        families[f], kept, best / kept, best_box2d / kept,
        static_cast<double>(evaluations) / kept, mean(1), mean(0), statuses[1],
        statuses[2], statuses[3], statuses[4], statuses[0]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int cases = 3000;
  int repeats = 5;
  bool profile = false;
  std::string only;
  std::string status;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--cases=", 0) == 0) {
      cases = std::atoi(arg.c_str() + 8);
    } else if (arg.rfind("--repeats=", 0) == 0) {
      repeats = std::atoi(arg.c_str() + 10);
    } else if (arg.rfind("--family=", 0) == 0) {
      only = arg.substr(9);
    } else if (arg.rfind("--status=", 0) == 0) {
      status = arg.substr(9);
    } else if (arg == "--profile") {
      profile = true;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  const char* families[] = {"random-pairs",           "pivot-inside-on-outside",
                            "pure-rotation-in-place", "full-turn-2pi",
                            "blade-grazes-vertex",    "vertex-through-vertex"};
  if (profile) {
    if (!only.empty()) {
      const char* one[] = {only.c_str()};
      ProfileRows(one, 1, cases, repeats, status);
      return 0;
    }
    ProfileRows(families, std::size(families), cases, repeats, status);
    return 0;
  }
  std::vector<Row> rows;
  for (const char* family : families) {
    Row row;
    row.family = family;
    std::vector<TurnCase> turn_cases;
    std::vector<std::function<collide::TurnResult()>> calls;
    std::vector<B2Case> b2_cases(cases);
    std::vector<OracleAnswer> oracle;
    for (int i = 0; i < cases; ++i) {
      TurnCase c;
      collide::oracle::MakeTurningCase(family, 3 * static_cast<uint64_t>(i),
                                       &c);
      turn_cases.push_back(c);
      calls.push_back(collide::oracle::BindService(c));
      SetB2Case(c, &b2_cases[i]);
      oracle.push_back(
          collide::oracle::TurningOracle(c.a, c.b, c.max_fraction));
    }
    // Timed passes: the best of `repeats` over all cases.
    double best_collide = 1e300;
    double best_box2d = 1e300;
    double sink = 0.0;
    for (int r = 0; r < repeats; ++r) {
      const double t0 = ThreadNanos();
      for (const auto& call : calls) sink += call().fraction_lo;
      const double t1 = ThreadNanos();
      for (const B2Case& c : b2_cases) sink += RunBox2D(c).t;
      const double t2 = ThreadNanos();
      best_collide = std::min(best_collide, t1 - t0);
      best_box2d = std::min(best_box2d, t2 - t1);
    }
    if (sink == 12345.678) std::printf("%g\n", sink);
    row.cases = cases;
    row.collide_ns = best_collide / cases;
    row.box2d_ns = best_box2d / cases;
    for (int i = 0; i < cases; ++i) {
      const OracleAnswer& o = oracle[i];
      const collide::TurnResult s = collide::oracle::RunService(turn_cases[i]);
      if (collide::oracle::Compare(s, o).disagree) ++row.collide_disagree;
      if (s.status == collide::TurnStatus::kNearContact ||
          s.status == collide::TurnStatus::kUndecided) {
        ++row.collide_near_or_undecided;
      }
      const B2Answer b = RunBox2D(b2_cases[i]);
      if (o.kind == OracleKind::kHit) ++row.oracle_hits;
      const double slack = 0.02 / std::max(SpeedBound(turn_cases[i]), 1e-9);
      if (o.kind == OracleKind::kHit) {
        if (!b.hit) {
          ++row.box2d_missed;
        } else if (b.t > o.hi + slack) {
          ++row.box2d_late;
        } else if (b.t < o.lo - slack) {
          ++row.box2d_early;
        }
      } else if (o.kind == OracleKind::kMiss && b.hit &&
                 b.t < turn_cases[i].max_fraction) {
        // Box2D also reports a contact when the shapes come within its
        // target separation without touching.
        ++row.box2d_false_hit;
      }
    }
    rows.push_back(row);
  }
  ZeroAngleRow(cases, repeats);
  std::printf(
      "| family | cases | oracle hits | collide ns | Box2D ns | speed-up | "
      "collide disagreements | collide near/undecided | Box2D missed | "
      "Box2D late | Box2D early | Box2D hit on a miss |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows) {
    std::printf(
        "| %s | %d | %d | %.0f | %.0f | %.2fx | %d | %d | %d | %d | %d | %d "
        "|\n",
        r.family.c_str(), r.cases, r.oracle_hits, r.collide_ns, r.box2d_ns,
        r.box2d_ns / r.collide_ns, r.collide_disagree,
        r.collide_near_or_undecided, r.box2d_missed, r.box2d_late,
        r.box2d_early, r.box2d_false_hit);
  }
  return 0;
}
