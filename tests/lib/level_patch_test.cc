// Level::Patch against Level::Create: random patch sequences (removals,
// replacements, additions, and the degenerate ones) must answer every query
// kind bitwise as the level built whole from the resulting shapes.
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/validate.h"
#include "gtest/gtest.h"
#include "tests/lib/random_level.h"
#include "tests/support/splitmix64.h"

namespace collide {
namespace {

using testing::MakeRandomLevel;
using testing::RandomLevel;
using testing::Scene;
using testing::SplitMix64;

// Every number of a result, bit for bit, in a flat list that EXPECT_EQ
// compares (NaN and -0.0 included).
struct Bits {
  std::vector<uint64_t> words;
  void Add(double v) { words.push_back(std::bit_cast<uint64_t>(v)); }
  void Add(uint64_t v) { words.push_back(v); }
  void Add(int64_t v) { words.push_back(static_cast<uint64_t>(v)); }
  void Add(Vec2 v) { Add(v.x), Add(v.y); }
  void Add(const Hit& h) {
    Add(h.fraction), Add(h.point), Add(h.normal), Add(h.depth);
    Add(int64_t{static_cast<int>(h.feature.type)}),
        Add(int64_t{h.feature.index});
    Add(int64_t{static_cast<int>(h.status)});
  }
  void Add(const WorldHit& h) { Add(h.hit), Add(h.shape_id), Add(h.user_data); }
  void Add(const ShapeRef& r) { Add(r.shape_id), Add(r.user_data); }
  void Add(const std::optional<WorldHit>& h) {
    Add(int64_t{h.has_value()});
    if (h) Add(*h);
  }
  template <typename T>
  void AddList(absl::Span<const T> items, ListResult r) {
    Add(int64_t{r.count}), Add(int64_t{r.truncated});
    for (int i = 0; i < r.count; ++i) Add(items[i]);
  }
};

// A level's answers to a fixed random set of queries of every kind.
std::vector<uint64_t> Answers(const Level& level, uint64_t seed) {
  SplitMix64 rng(seed);
  Bits out;
  const Vec2 lo{-10, -10}, hi{110, 110};
  for (int q = 0; q < 40; ++q) {
    const Vec2 p = testing::RandomPoint(rng, lo, hi);
    const Vec2 d = testing::RandomDirection(rng, rng.Uniform(0.0, 60.0));
    const double r = rng.Uniform(0.0, 3.0);
    const QueryFilter filter{.mask_bits = rng.Chance(0.3) ? 0x5u : ~0ull,
                             .ignore_ids = {}};
    const CastOptions options{.target_distance = rng.Chance(0.3) ? 0.05 : 0.0};
    const Circle circle{p, r};
    const Capsule capsule{p, p + Vec2{r, 0.5}, 0.5 * r};
    const Vec2 box[] = {p, p + Vec2{2, 0}, p + Vec2{2, 1}, p + Vec2{0, 1}};
    const ConvexPolygon polygon = *MakeConvexPolygon(box);
    out.Add(CastRay(RayInput{p, d}, level, filter, options));
    out.Add(CastCircle(CircleCast{circle, d}, level, filter, options));
    out.Add(CastCapsule(CapsuleCast{capsule, d}, level, filter, options));
    out.Add(CastPolygon(PolygonCast{polygon, d}, level, filter, options));
    for (int capacity : {3, 64}) {
      std::vector<WorldHit> hits(capacity);
      out.AddList<WorldHit>(
          hits, CastRayAll(RayInput{p, d}, level, absl::MakeSpan(hits), filter,
                           options));
      out.AddList<WorldHit>(
          hits, CastCircleAll(CircleCast{circle, d}, level,
                              absl::MakeSpan(hits), filter, options));
      out.AddList<WorldHit>(
          hits, CastCapsuleAll(CapsuleCast{capsule, d}, level,
                               absl::MakeSpan(hits), filter, options));
      out.AddList<WorldHit>(
          hits, CastPolygonAll(PolygonCast{polygon, d}, level,
                               absl::MakeSpan(hits), filter, options));
      std::vector<ShapeRef> refs(capacity);
      const Circle big{p, 5 * r};
      out.AddList<ShapeRef>(
          refs, OverlapCircle(big, level, absl::MakeSpan(refs), filter));
      out.AddList<ShapeRef>(
          refs, OverlapCapsule(capsule, level, absl::MakeSpan(refs), filter));
      out.AddList<ShapeRef>(
          refs, OverlapPolygon(polygon, level, absl::MakeSpan(refs), filter));
    }
    const std::optional<WorldClosestPoint> c =
        ClosestPoint(p, level, rng.Uniform(0.0, 20.0), filter);
    out.Add(int64_t{c.has_value()});
    if (c) {
      out.Add(c->point), out.Add(c->distance), out.Add(c->normal);
      out.Add(int64_t{static_cast<int>(c->feature.type)}),
          out.Add(int64_t{c->feature.index});
      out.Add(c->shape_id), out.Add(c->user_data);
    }
    const MoveValidation move =
        ValidateMove(MoveClaim{circle, d}, level, filter,
                     {.skin = 0.01, .max_slide_iterations = 3});
    out.Add(int64_t{static_cast<int>(move.verdict)}), out.Add(move.first_hit);
    out.Add(move.safe_fraction), out.Add(move.safe_translation);
    out.Add(int64_t{move.claimed_end_reachable});
    if (move.slide) {
      out.Add(move.slide->translation);
      for (int i = 0; i < move.slide->contact_count; ++i) {
        out.Add(move.slide->contacts[i].point),
            out.Add(move.slide->contacts[i].shape_id);
      }
    }
    if (move.exit) out.Add(move.exit->translation), out.Add(move.exit->depth);
    const std::optional<ShotHit> shot =
        ValidateShot(Shot{p, d, 0.1}, level, {}, filter);
    out.Add(int64_t{shot.has_value()});
    if (shot) out.Add(shot->id), out.Add(shot->user_data), out.Add(shot->hit);
  }
  return out.words;
}

// What a server would keep: a base level plus the accumulated patch.
class PatchedShapes {
 public:
  explicit PatchedShapes(std::vector<ShapeDesc> shapes) {
    for (const ShapeDesc& s : shapes) current_[s.id] = s;
    Rebuild();
  }

  // Removes `removes` (ids present) and puts `upserts`, then builds the
  // patched level, or the whole level once the patch passes 1/8 of base.
  void Apply(const std::vector<uint64_t>& removes,
             const std::vector<ShapeDesc>& upserts) {
    for (uint64_t id : removes) {
      current_.erase(id);
      overlay_.erase(id);
      if (base_->FindShape(id)) removed_.insert(id);
    }
    for (const ShapeDesc& s : upserts) {
      current_[s.id] = s;
      overlay_[s.id] = s;
      if (base_->FindShape(s.id)) removed_.insert(s.id);
    }
    if (8 * (overlay_.size() + removed_.size()) >
        static_cast<size_t>(base_->shape_count())) {
      Rebuild();
      return;
    }
    std::vector<ShapeDesc> added;
    for (const auto& [id, s] : overlay_) added.push_back(s);
    const std::vector<uint64_t> removed(removed_.begin(), removed_.end());
    absl::StatusOr<Level> patched = Level::Patch(base_, removed, added);
    ASSERT_TRUE(patched.ok()) << patched.status();
    level_ = std::make_shared<const Level>(*std::move(patched));
  }

  const Level& level() const { return *level_; }
  std::vector<ShapeDesc> Shapes() const {
    std::vector<ShapeDesc> out;
    for (const auto& [id, s] : current_) out.push_back(s);
    return out;
  }
  const std::map<uint64_t, ShapeDesc>& current() const { return current_; }

 private:
  void Rebuild() {
    absl::StatusOr<Level> whole = Level::Create(Shapes());
    ASSERT_TRUE(whole.ok()) << whole.status();
    base_ = std::make_shared<const Level>(*std::move(whole));
    level_ = base_;
    overlay_.clear();
    removed_.clear();
  }

  std::map<uint64_t, ShapeDesc> current_;
  std::shared_ptr<const Level> base_;
  std::shared_ptr<const Level> level_;
  std::map<uint64_t, ShapeDesc> overlay_;
  std::set<uint64_t> removed_;
};

void ExpectSameAsWhole(const PatchedShapes& patched, uint64_t seed,
                       const std::string& step) {
  absl::StatusOr<Level> whole = Level::Create(patched.Shapes());
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(patched.level().total_shape_count(), whole->shape_count()) << step;
  EXPECT_EQ(Answers(patched.level(), seed), Answers(*whole, seed)) << step;
}

TEST(LevelPatchTest, RandomPatchSequencesAnswerAsTheWholeLevel) {
  // The pool's geometry (and its vertex storage) outlives every level.
  const RandomLevel start =
      MakeRandomLevel(Scene{.seed = 7, .shape_count = 400});
  const RandomLevel pool =
      MakeRandomLevel(Scene{.seed = 8, .shape_count = 400});
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SplitMix64 rng(seed);
    PatchedShapes patched(start.shapes);
    for (int step = 0; step < 12; ++step) {
      std::vector<uint64_t> removes;
      std::vector<ShapeDesc> upserts;
      std::vector<uint64_t> ids;
      for (const auto& [id, s] : patched.current()) ids.push_back(id);
      const int changes = 1 + rng.Below(8);
      std::set<uint64_t> touched;
      for (int c = 0; c < changes && !ids.empty(); ++c) {
        const uint64_t id = ids[rng.Below(static_cast<int>(ids.size()))];
        if (!touched.insert(id).second) continue;
        if (rng.Chance(0.5)) {
          removes.push_back(id);
        } else {  // replace: same id, other geometry
          ShapeDesc s = pool.shapes[rng.Below(400)];
          s.id = id;
          upserts.push_back(s);
        }
      }
      ShapeDesc added = pool.shapes[rng.Below(400)];
      added.id = 100000 + 10 * step + seed;
      upserts.push_back(added);
      patched.Apply(removes, upserts);
      ExpectSameAsWhole(
          patched, seed * 100 + step,
          "seed " + std::to_string(seed) + " step " + std::to_string(step));
    }
  }
}

TEST(LevelPatchTest, ReplacingAShapeByItselfChangesNoAnswer) {
  const RandomLevel start =
      MakeRandomLevel(Scene{.seed = 3, .shape_count = 200});
  PatchedShapes patched(start.shapes);
  patched.Apply({}, {start.shapes[5], start.shapes[17]});
  ASSERT_NE(patched.level().base(), nullptr);
  ExpectSameAsWhole(patched, 11, "replace same");
}

TEST(LevelPatchTest, RemovingEveryShapeLeavesAnEmptyLevel) {
  const RandomLevel start =
      MakeRandomLevel(Scene{.seed = 4, .shape_count = 50});
  std::vector<uint64_t> all;
  for (const ShapeDesc& s : start.shapes) all.push_back(s.id);
  absl::StatusOr<Level> base = Level::Create(start.shapes);
  ASSERT_TRUE(base.ok());
  absl::StatusOr<Level> empty =
      Level::Patch(std::make_shared<const Level>(*std::move(base)), all, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->total_shape_count(), 0);
  absl::StatusOr<Level> whole = Level::Create({});
  EXPECT_EQ(Answers(*empty, 5), Answers(*whole, 5));
}

TEST(LevelPatchTest, AddingToAnEmptyLevelAnswersAsTheAddedShapes) {
  const RandomLevel pool = MakeRandomLevel(Scene{.seed = 5, .shape_count = 30});
  absl::StatusOr<Level> added = Level::Patch(
      std::make_shared<const Level>(*Level::Create({})), {}, pool.shapes);
  ASSERT_TRUE(added.ok()) << added.status();
  absl::StatusOr<Level> whole = Level::Create(pool.shapes);
  EXPECT_EQ(Answers(*added, 6), Answers(*whole, 6));
}

TEST(LevelPatchTest, RefusesUnknownRemovalsAndHiddenDuplicates) {
  const RandomLevel start =
      MakeRandomLevel(Scene{.seed = 6, .shape_count = 20});
  auto base = std::make_shared<const Level>(*Level::Create(start.shapes));
  const uint64_t unknown[] = {start.shapes[0].id, 99};
  EXPECT_EQ(Level::Patch(base, unknown, {}).status().message(),
            "removed_ids[1] 99 is not a shape of the base level");
  const ShapeDesc duplicate[] = {start.shapes[0], start.shapes[3]};
  const uint64_t removed[] = {start.shapes[0].id};
  EXPECT_EQ(Level::Patch(base, removed, duplicate).status().message(),
            absl::StrCat("shapes[1].id ", start.shapes[3].id,
                         " is a base shape not removed"));
  auto patched =
      std::make_shared<const Level>(*Level::Patch(base, removed, {}));
  EXPECT_EQ(Level::Patch(patched, {}, {}).status().message(),
            "base is itself patched; patch its base instead");
}

}  // namespace
}  // namespace collide
