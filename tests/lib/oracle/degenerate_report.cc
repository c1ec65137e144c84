// degenerate_report: the core against the exact oracle on degenerate cases.
// Not a pass/fail test of the core unless asked: it measures it.
//
//   degenerate_report [--cases=N] [--family=NAME] [--show=K] [--examples]
//                     [--fail-on-oracle-error]
//
// Runs N cases per family (default 100,000; COLLIDE_ORACLE_CASES overrides
// the default) through the core and the oracle's exact mode and prints one
// line per family: cases; the oracle's hits, misses, initial overlaps,
// skin hits and touching starts; disagreements by kind (hit/miss, status,
// fraction beyond 1e-9 of the sweep, feature, geometry); the largest
// fraction error of agreeing hits and how many cases are at offsets 1e6
// and 1e9; then disagreements by construction and
// the first K disagreeing cases (default 3) as reproducible calls.
// --examples prints six degenerate examples and one minimal case per
// failure class seen, oracle vs core.
// --fail-on-oracle-error exits 1 if the oracle gave kOracleError on any case
// (what the ctest checks), whatever the core answered. Cases where the
// oracle gives no verdict (kNearTangent: only collinear deforming motion
// with an irrational entry time) are counted as no-verdict, not compared.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "degenerate.h"
#include "degenerate_sight.h"
#include "degenerate_sight_disc.h"
#include "degenerate_sight_polygon.h"
#include "exact_oracle.h"
#include "scenes.h"

namespace collide::oracle {
namespace {

struct Options {
  int cases = 100000;
  std::string family;  // comma-separated; empty: all
  bool fail_on_disagreement = false;
  int show = 3;
  bool examples = false;
  bool fail_on_oracle_error = false;
  bool trace = false;  // print every case before solving it
};

struct FamilyStats {
  int cases = 0;
  int by_outcome[6] = {};
  int touching = 0;
  int nudged = 0;
  int offset = 0;
  int offset_1e6 = 0;
  int offset_1e9 = 0;
  int by_kind[static_cast<int>(Disagreement::kCount)] = {};
  int by_construction[static_cast<int>(Construction::kCount)] = {};
  double max_dt = 0.0;
};

int RunFamily(const DegenerateFamily& fam, const Options& opt,
              int* disagreement_count) {
  const auto start = std::chrono::steady_clock::now();
  Rng rng(fam.seed);
  FamilyStats st;
  std::vector<std::string> shown;
  int oracle_problems = 0;
  for (int i = 0; i < opt.cases; ++i) {
    const DegenerateCase c = GenerateDegenerate(fam, rng);
    if (opt.trace) {
      std::printf("    trace #%d %s\n", i, DescribeDegenerate(c).c_str());
      std::fflush(stdout);
    }
    const Verdict v = SolveDegenerate(c);
    ++st.cases;
    ++st.by_outcome[static_cast<int>(v.outcome)];
    st.touching += v.touching_start;
    st.nudged += c.nudged;
    st.offset += c.offset != 0.0;
    st.offset_1e6 += c.offset == 1e6;
    st.offset_1e9 += c.offset == 1e9;
    const std::optional<Hit> hit = CastDegenerate(c);
    double dt = 0.0;
    std::string why;
    const Disagreement d = CompareDegenerate(c, v, hit, &dt, &why);
    st.max_dt = std::max(st.max_dt, dt);
    ++st.by_kind[static_cast<int>(d)];
    if (d == Disagreement::kOracleError) ++oracle_problems;
    if (d != Disagreement::kNone) {
      ++st.by_construction[static_cast<int>(c.construction)];
      if (static_cast<int>(shown.size()) < opt.show) {
        char head[160];
        std::snprintf(head, sizeof head, "    #%d %s (%s%s, offset %.0e): ", i,
                      DisagreementName(d), ConstructionName(c.construction),
                      c.nudged ? ", nudged 1 ulp" : "", c.offset);
        shown.push_back(head + why + "\n      " + DescribeDegenerate(c));
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto out = [&](Outcome o) { return st.by_outcome[static_cast<int>(o)]; };
  auto kind = [&](Disagreement k) { return st.by_kind[static_cast<int>(k)]; };
  const int disagreements = st.cases - kind(Disagreement::kNone) -
                            kind(Disagreement::kOracleError) -
                            kind(Disagreement::kSkipped);
  *disagreement_count += disagreements;
  std::printf(
      "[degenerate] %-21s cases=%d oracle: hit=%d miss=%d overlap=%d skin=%d "
      "touching-start=%d no-verdict=%d oracle-error=%d | disagree=%d "
      "(hit/miss=%d status=%d fraction=%d feature=%d geometry=%d) "
      "max|dt|=%.3g at-1e6=%d at-1e9=%d time=%.1fs\n",
      fam.name, st.cases, out(Outcome::kHit), out(Outcome::kMiss),
      out(Outcome::kInitialOverlap), out(Outcome::kSkinHit), st.touching,
      out(Outcome::kNearTangent), out(Outcome::kOracleError), disagreements,
      kind(Disagreement::kHitMiss), kind(Disagreement::kStatus),
      kind(Disagreement::kFraction), kind(Disagreement::kFeature),
      kind(Disagreement::kGeometry), st.max_dt, st.offset_1e6, st.offset_1e9,
      seconds);
  if (disagreements > 0) {
    std::string by = "    by construction:";
    for (int k = 0; k < static_cast<int>(Construction::kCount); ++k) {
      if (st.by_construction[k] == 0) continue;
      by += " " + std::string(ConstructionName(static_cast<Construction>(k))) +
            "=" + std::to_string(st.by_construction[k]);
    }
    std::printf("%s\n", by.c_str());
  }
  for (const std::string& s : shown) std::printf("%s\n", s.c_str());
  std::fflush(stdout);
  return oracle_problems;
}

const char* PoseName(Query query, int pose) {
  switch (query) {
    case Query::kShot:
      return pose == 0 ? "tie" : "moved wall";
    case Query::kBeside:
    case Query::kTouchBeside:
      return pose == 0 ? "ulps back-off" : "2^-40 back-off";
    case Query::kConcaveZero:
      return pose == 0 ? "unmoved id 2" : "unmoved id 1";
    case Query::kClosestUlps:
      return pose == 0 ? "ulps outside" : "ulps either side";
    case Query::kSameTime:
    case Query::kRoundTime:
    case Query::kSkinTie:
    case Query::kShotTie:
    case Query::kClosestTie:
      return pose == 0 ? "one exact time" : "sub-ulp apart";
    default:
      return pose == 0 ? "start" : "end";
  }
}

// An overlap or closest-point family: both poses of every case.
int RunStaticFamily(const DegenerateFamily& fam, const Options& opt,
                    int* disagreement_count) {
  const auto start = std::chrono::steady_clock::now();
  // The cases of the cast family with the same shapes.
  DegenerateFamily cast = fam;
  cast.query = Query::kCast;
  Rng rng(fam.seed);
  int questions = 0, yes = 0, touching = 0;
  int by_kind[static_cast<int>(Disagreement::kCount)] = {};
  std::vector<std::string> shown;
  for (int i = 0; i < opt.cases; ++i) {
    const DegenerateCase c = GenerateDegenerate(cast, rng);
    for (int pose = 0; pose < 2; ++pose) {
      bool expected = false, touch = false;
      std::string why;
      const Disagreement d =
          CompareStatic(fam, c, pose, &expected, &touch, &why);
      ++by_kind[static_cast<int>(d)];
      if (d == Disagreement::kSkipped) continue;
      ++questions;
      yes += expected;
      touching += touch;
      if (d != Disagreement::kNone &&
          static_cast<int>(shown.size()) < opt.show) {
        char head[160];
        std::snprintf(head, sizeof head, "    #%d %s at the %s (%s%s): ", i,
                      DisagreementName(d), PoseName(fam.query, pose),
                      ConstructionName(c.construction),
                      c.nudged ? ", nudged 1 ulp" : "");
        shown.push_back(head + why + "\n      " + DescribeDegenerate(c));
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto kind = [&](Disagreement k) { return by_kind[static_cast<int>(k)]; };
  const int disagreements = questions - kind(Disagreement::kNone);
  *disagreement_count += disagreements;
  std::printf(
      "[degenerate] %-21s cases=%d questions=%d exact: yes=%d no=%d "
      "touching=%d skipped=%d | disagree=%d (yes/no=%d inside=%d "
      "geometry=%d) time=%.1fs\n",
      fam.name, opt.cases, questions, yes, questions - yes, touching,
      kind(Disagreement::kSkipped), disagreements, kind(Disagreement::kHitMiss),
      kind(Disagreement::kStatus), kind(Disagreement::kGeometry), seconds);
  for (const std::string& line : shown) std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  return 0;
}

// ---------------------------------------------------------------------------
// Six degenerate examples, coordinates exactly as found.

void PrintExample(const char* title, const Verdict& v,
                  const std::string& core) {
  std::printf("[example] %s\n    oracle: %s\n    core:   %s\n", title,
              DescribeVerdict(v).c_str(), core.c_str());
}

std::string CoreText(const std::optional<Hit>& hit) { return DescribeHit(hit); }

int RunExamples() {
  int problems = 0;
  auto count = [&](const Verdict& v) {
    problems += v.outcome == Outcome::kOracleError;
  };
  {
    const std::vector<Vec2> box{{-1, 0}, {2, 0}, {2, -2}, {-1, -2}};
    const RayInput ray{{2, -2}, {0.024674816398394084, 3.0}};
    const Verdict v = SolveExact(ConvexCase{
        Core{{ray.origin}, 0.0}, ray.translation, Core{box, 0.0}, {}});
    count(v);
    const ConvexPolygon p = *MakeConvexPolygon(box);
    std::string core =
        "CastRay(ray, ConvexPolygon): " + CoreText(CastRay(ray, p));
    const PolygonDesc desc{box};
    absl::StatusOr<Level> level = Level::Create({ShapeDesc{1, 1, 0, desc}});
    if (level.ok()) {
      const std::optional<WorldHit> w = CastRay(ray, *level);
      core += "; level CastRay: " +
              (w ? CoreText(w->hit) + " shape " + std::to_string(w->shape_id)
                 : std::string("no hit"));
    }
    PrintExample(
        "1. touching start at a vertex, moving away: box (-1,0) (2,0) (2,-2) "
        "(-1,-2), ray from (2,-2) by (0.024674816398394084, 3.0); "
        "expected no hit",
        v, core);
  }
  {
    struct Pt {
      Vec2 o, d, a, b, sd;
    };
    const Pt cases[] = {
        {{19, 20}, {-15, -25.5}, {5, 5}, {-2, -2.5}, {6, -3}},
        {{13.5, 28}, {-16.5, -22}, {2.5, 8}, {-3, -2}, {0, 8}},
    };
    int n = 0;
    for (const Pt& c : cases) {
      const Verdict v = SolveExact(
          ConvexCase{Core{{c.o}, 0.0}, c.d, Core{{c.a, c.b}, 0.0}, c.sd});
      count(v);
      const std::optional<Hit> hit =
          CastRay(RayInput{c.o, c.d}, Moving<Segment>{{c.a, c.b}, c.sd});
      char title[300];
      std::snprintf(title, sizeof title,
                    "2%c. collinear point vs moving segment: point (%g,%g) by "
                    "(%g,%g), segment (%g,%g)-(%g,%g) moving by (%g,%g); "
                    "claimed t = 2/3",
                    n == 0 ? 'a' : 'b', c.o.x, c.o.y, c.d.x, c.d.y, c.a.x,
                    c.a.y, c.b.x, c.b.y, c.sd.x, c.sd.y);
      PrintExample(title, v, CoreText(hit));
      ++n;
    }
  }
  {
    const CircleCast cast{{{-11, 11}, 0.0}, {9, -13}};
    const Segment seg{{-7, -2.5}, {3, -1.5}};
    const Verdict v = SolveExact(ConvexCase{Core{{cast.circle.center}, 0.0},
                                            cast.translation,
                                            Core{{seg.p1, seg.p2}, 0.0},
                                            {}});
    count(v);
    PrintExample(
        "3. move ending exactly on a wall: circle r=0 at (-11,11) by (9,-13) "
        "vs segment (-7,-2.5)-(3,-1.5); claimed hit at fraction 1",
        v, CoreText(CastCircle(cast, seg)));
  }
  {
    const RayInput ray{{5, 5}, {0, -1e15}};
    const Segment seg{{0, 0}, {10, 0}};
    const Verdict v = SolveExact(ConvexCase{Core{{ray.origin}, 0.0},
                                            ray.translation,
                                            Core{{seg.p1, seg.p2}, 0.0},
                                            {}});
    count(v);
    PrintExample(
        "4. very long translation: segment (0,0)-(10,0), ray from (5,5) by "
        "(0,-1e15); claimed hit at 5e-15",
        v, CoreText(CastRay(ray, seg)));
  }
  {
    const Segment segs[] = {{{-3.5, -7}, {-10.5, -7}},
                            {{1, -4.5}, {-3, 3}},
                            {{-1.5, 2}, {3.5, -1}},
                            {{1.5, 6}, {-4.5, -3}}};
    const RayInput ray{{1.273500981126145, 5.660251471689218},
                       {-4.437601569801826, -6.656402354702753}};
    std::string oracle_per_segment;
    Verdict best;
    best.outcome = Outcome::kMiss;
    int best_i = -1;
    std::vector<ShapeDesc> shapes;
    for (int i = 0; i < 4; ++i) {
      const Verdict v =
          SolveExact(ConvexCase{Core{{ray.origin}, 0.0},
                                ray.translation,
                                Core{{segs[i].p1, segs[i].p2}, 0.0},
                                {}});
      count(v);
      oracle_per_segment += "\n      segment " + std::to_string(i) + ": " +
                            DescribeVerdict(v) +
                            "; core: " + CoreText(CastRay(ray, segs[i]));
      if (v.outcome == Outcome::kHit && (best_i < 0 || v.t_hi < best.t_hi)) {
        best = v;
        best_i = i;
      }
      shapes.push_back(ShapeDesc{static_cast<uint64_t>(i), 1, 0, segs[i]});
    }
    std::string core = "level CastRay: ";
    absl::StatusOr<Level> level = Level::Create(shapes);
    if (level.ok()) {
      const std::optional<WorldHit> w = CastRay(ray, *level);
      core += w ? CoreText(w->hit) + " segment " + std::to_string(w->shape_id)
                : std::string("no hit");
    } else {
      core += "level not built";
    }
    std::printf(
        "[example] 5. near-parallel crossing in a level of 4 segments; "
        "claimed first hit segment 3 ((1.5,6)-(-4.5,-3)) at 1/32\n"
        "    oracle: first hit segment %d: %s%s\n    core:   %s\n",
        best_i, DescribeVerdict(best).c_str(), oracle_per_segment.c_str(),
        core.c_str());
  }
  {
    const CircleCast cast{
        {{-7.406748571685833, -5.778605592869641}, 1.6575699154286776},
        {-5.705355716669796, -14.901338091281627}};
    const Moving<Circle> other{
        {{-3.4067485716858332, -2.2553704895676185}, 1.8656651878733452},
        {-17.705355716669796, -14.901338091281627}};
    const Verdict v = SolveExact(ConvexCase{
        Core{{cast.circle.center}, cast.circle.radius}, cast.translation,
        Core{{other.shape.center}, other.shape.radius}, other.translation});
    count(v);
    PrintExample(
        "6. two moving circles grazing; claimed touch at t ~ "
        "0.33333333",
        v, CoreText(CastCircle(cast, other)));
  }
  std::fflush(stdout);
  return problems;
}

// One minimal reproducer per failure class seen in the degenerate families
// (small integers, no offset), oracle vs core.
Scene RayScene(Vec2 o, Vec2 d) {
  Scene s;
  s.mover_kind = MoverKind::kRay;
  s.ray_origin = o;
  s.translation = d;
  return s;
}

Scene WithSegment(Scene s, Vec2 a, Vec2 b) {
  s.obstacle_kind = ObstacleKind::kSegment;
  s.segment = {a, b};
  return s;
}

int RunClasses() {
  struct Class {
    const char* name;
    Scene scene;
  };
  std::vector<Class> classes;
  {
    Scene s = RayScene({9, -12}, {0, 1e15});
    s.obstacle_kind = ObstacleKind::kCircle;
    s.obstacle_circle = {{2, 2}, 7};
    classes.push_back(
        {"A long translation, tiny TOI: expected kHit at 1.4e-14", s});
    Scene m = RayScene({0, -5}, {0, 5e14});
    m.obstacle_kind = ObstacleKind::kCircle;
    m.obstacle_circle = {{1, -1}, 0.5};
    classes.push_back(
        {"A long translation passing beside: expected no hit", m});
  }
  classes.push_back(
      {"B touching start at a segment end, moving away: expected no hit",
       WithSegment(RayScene({-28, 21}, {-62, -66}), {-28, 21}, {20, -15})});
  {
    Scene s = RayScene({-1, 0}, {1, -3});
    s.obstacle_kind = ObstacleKind::kConcave;
    s.concave = {{-2, 3}, {-1, 0}, {-2, -3}, {2, 0}};
    classes.push_back(
        {"C touching start at a reflex vertex, moving into the solid: "
         "expected kInitialOverlap",
         s});
  }
  classes.push_back(
      {"D collinear motion onto a segment end (moving segment): expected t = "
       "2/3",
       [] {
         Scene s =
             WithSegment(RayScene({19, 20}, {-15, -25.5}), {5, 5}, {-2, -2.5});
         s.moving_obstacle = true;
         s.obstacle_translation = {6, -3};
         return s;
       }()});
  {
    Scene s;
    s.mover_kind = MoverKind::kCapsule;
    s.capsule = {{19, -83}, {7, -74}, 15};
    s.translation = {-104, 78};
    s.obstacle_kind = ObstacleKind::kCircle;
    s.obstacle_circle = {{-7, -1}, 35};
    classes.push_back(
        {"D capsule sliding along its axis, side tangent to a circle: "
         "expected t = 11/26",
         s});
  }
  {
    Scene s = RayScene({-22, -46}, {2, 11});
    s.obstacle_kind = ObstacleKind::kPolygon;
    s.obstacle_polygon = *MakeConvexPolygon(
        std::vector<Vec2>{{-28, -29}, {-20, -35}, {28, 29}, {20, 35}});
    classes.push_back(
        {"E contact at exactly t = max_fraction (ray ends on a polygon's "
         "edge): expected t = 1",
         s});
    Scene m = WithSegment(RayScene({-10, -10}, {3, 2}), {5, 8}, {-7, -8});
    m.moving_obstacle = true;
    m.obstacle_translation = {-0.0, 0};
    classes.push_back(
        {"E ray ending on a segment end, segment 'moving' by (-0, 0): "
         "expected t = 1",
         m});
  }
  {
    Scene s;
    s.mover_kind = MoverKind::kPolygon;
    s.polygon = *MakeConvexPolygon(std::vector<Vec2>{{6, 1}, {6, -1}, {8, 0}});
    s.translation = {0, 6};
    s.obstacle_kind = ObstacleKind::kConcave;
    s.concave = {{-8, -6}, {-8, -4}, {6, -4}, {6, 6}, {8, 6}, {8, -6}};
    classes.push_back(
        {"J inside a concave solid, touching its boundary from inside: "
         "expected kInitialOverlap",
         s});
  }
  {
    Scene s;
    s.mover_kind = MoverKind::kCircle;
    s.circle = {{49, 32}, 15};
    s.translation = {-42, -56};
    s.obstacle_kind = ObstacleKind::kCapsule;
    s.obstacle_capsule = {{-9, -12}, {12, 16}, 5};
    classes.push_back(
        {"F exact tangent slide (circle along a capsule's side): expected t = "
         "0.5",
         s});
  }
  {
    Scene s = RayScene({-50.000000000000014, 123}, {-80, -150});
    s.obstacle_kind = ObstacleKind::kCircle;
    s.obstacle_circle = {{30, -16}, 136};
    classes.push_back(
        {"G tangent ray moved 1 ulp outwards: expected no hit", s});
  }
  {
    Scene s;
    s.mover_kind = MoverKind::kPolygon;
    s.polygon =
        *MakeConvexPolygon(std::vector<Vec2>{{-11, -2}, {-9, -2}, {-10, 0}});
    s.translation = {12, 0};
    s.obstacle_kind = ObstacleKind::kSegment;
    s.segment = {{-4, 0}, {7, 0}};
    classes.push_back(
        {"H apex sliding along a segment's line onto its end: expected kHit at "
         "0.5 with normal (0, -1) (the core's normal must separate)",
         s});
  }
  {
    Scene s = RayScene({137, -43}, {-180, 75});
    s.obstacle_kind = ObstacleKind::kSegment;
    s.segment = {{84, -35}, {-48, 20}};
    s.options.target_distance = 13;
    classes.push_back(
        {"K sliding exactly at the skin distance: expected kHit at 4/15", s});
  }
  int problems = 0;
  for (const Class& c : classes) {
    const Verdict v = SolveSceneExact(c.scene);
    problems += v.outcome == Outcome::kOracleError;
    std::printf("[class] %s\n    %s\n    oracle: %s\n    core:   %s\n", c.name,
                DescribeScene(c.scene).c_str(), DescribeVerdict(v).c_str(),
                DescribeHit(CastScene(c.scene)).c_str());
  }
  std::fflush(stdout);
  return problems;
}

bool Arg(const char* arg, const char* name, const char** value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0) return false;
  if (arg[n] == '=') {
    *value = arg + n + 1;
    return true;
  }
  if (arg[n] == '\0') {
    *value = "";
    return true;
  }
  return false;
}

}  // namespace
}  // namespace collide::oracle

int main(int argc, char** argv) {
  using namespace collide::oracle;
  Options opt;
  opt.cases = CasesPerFamily(opt.cases);
  for (int i = 1; i < argc; ++i) {
    const char* v = nullptr;
    if (Arg(argv[i], "--cases", &v)) {
      opt.cases = std::atoi(v);
    } else if (Arg(argv[i], "--family", &v)) {
      opt.family = v;
    } else if (Arg(argv[i], "--show", &v)) {
      opt.show = std::atoi(v);
    } else if (Arg(argv[i], "--examples", &v)) {
      opt.examples = true;
    } else if (Arg(argv[i], "--trace", &v)) {
      opt.trace = true;
    } else if (Arg(argv[i], "--fail-on-oracle-error", &v)) {
      opt.fail_on_oracle_error = true;
    } else if (Arg(argv[i], "--fail-on-disagreement", &v)) {
      opt.fail_on_disagreement = true;
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--cases=N] [--family=NAME] [--show=K] "
          "[--examples] [--fail-on-oracle-error] [--fail-on-disagreement] "
          "[--trace]\n(--family takes a comma-separated list)\n"
          "families:",
          argv[0]);
      for (const DegenerateFamily& f : DegenerateFamilies()) {
        std::fprintf(stderr, " %s", f.name);
      }
      for (const DegenerateFamily& f : StaticFamilies()) {
        std::fprintf(stderr, " %s", f.name);
      }
      for (const SightFamily& f : SightFamilies()) {
        std::fprintf(stderr, " %s", f.name);
      }
      std::fprintf(stderr, " %s %s\n", kSightPolygonFamily, kSightDiscFamily);
      return 2;
    }
  }
  int problems = 0;
  if (opt.examples) problems += RunExamples() + RunClasses();
  const std::vector<std::string> wanted =
      absl::StrSplit(opt.family, ',', absl::SkipEmpty());
  int found = 0;
  int disagreements = 0;
  for (const DegenerateFamily& f : DegenerateFamilies()) {
    if (!wanted.empty() &&
        std::find(wanted.begin(), wanted.end(), f.name) == wanted.end()) {
      continue;
    }
    ++found;
    problems += RunFamily(f, opt, &disagreements);
  }
  for (const DegenerateFamily& f : StaticFamilies()) {
    if (!wanted.empty() &&
        std::find(wanted.begin(), wanted.end(), f.name) == wanted.end()) {
      continue;
    }
    ++found;
    problems += RunStaticFamily(f, opt, &disagreements);
  }
  for (const SightFamily& f : SightFamilies()) {
    if (!wanted.empty() &&
        std::find(wanted.begin(), wanted.end(), f.name) == wanted.end()) {
      continue;
    }
    ++found;
    RunSightFamily(f, opt.cases, opt.show, &disagreements);
  }
  if (wanted.empty() || std::find(wanted.begin(), wanted.end(),
                                  kSightPolygonFamily) != wanted.end()) {
    ++found;
    RunSightPolygonFamily(opt.cases, opt.show, &disagreements);
  }
  if (wanted.empty() || std::find(wanted.begin(), wanted.end(),
                                  kSightDiscFamily) != wanted.end()) {
    ++found;
    RunSightDiscFamily(opt.cases, opt.show, &disagreements);
  }
  if (found == 0 ||
      (!wanted.empty() && found != static_cast<int>(wanted.size()))) {
    std::fprintf(stderr, "no family named in %s\n", opt.family.c_str());
    return 2;
  }
  if (problems > 0) {
    std::printf("[degenerate] kOracleError on %d cases\n", problems);
  }
  if (opt.fail_on_oracle_error && problems > 0) return 1;
  return opt.fail_on_disagreement && disagreements > 0 ? 1 : 0;
}
