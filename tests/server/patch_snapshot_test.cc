// PatchSnapshot (server/levels/level_patch.h) against building the patched
// content whole: random patch sequences through the proto layer must give the
// same content hash and, for every query kind, the same response bit for bit;
// plus the request's errors and the compare-and-set checks.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/level_service.pb.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "server/levels/content_hash.h"
#include "server/levels/level_patch.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/query_handler.h"
#include "tests/support/splitmix64.h"

namespace collide::server {
namespace {

using collide::testing::SplitMix64;

void Set(v1::Vec2* v, double x, double y) {
  v->set_x(x);
  v->set_y(y);
}

// A random shape of any kind near (x, y), with id `id`.
v1::Shape RandomShape(SplitMix64& rng, uint64_t id) {
  v1::Shape shape;
  shape.set_id(id);
  shape.set_user_data(rng.Next());
  if (rng.Chance(0.3)) shape.set_category_bits(1 + rng.Below(3));
  const double x = rng.Uniform(0, 100), y = rng.Uniform(0, 100);
  const double r = rng.Uniform(0.5, 3);
  switch (rng.Below(7)) {
    case 0:
      Set(shape.mutable_segment()->mutable_p1(), x, y);
      Set(shape.mutable_segment()->mutable_p2(), x + r, y + rng.Uniform(-3, 3));
      break;
    case 1:
      Set(shape.mutable_circle()->mutable_center(), x, y);
      shape.mutable_circle()->set_radius(r);
      break;
    case 2:
      Set(shape.mutable_box()->mutable_center(), x, y);
      Set(shape.mutable_box()->mutable_half_extents(), r, 0.5 * r);
      shape.mutable_box()->set_angle_radians(rng.Uniform(0, 3));
      break;
    case 3:
      Set(shape.mutable_capsule()->mutable_p1(), x, y);
      Set(shape.mutable_capsule()->mutable_p2(), x + r, y);
      shape.mutable_capsule()->set_radius(0.3 * r);
      break;
    case 4:  // concave: an L
      for (const auto& [dx, dy] : {std::pair{0.0, 0.0},
                                   {2.0, 0.0},
                                   {2.0, 1.0},
                                   {1.0, 1.0},
                                   {1.0, 2.0},
                                   {0.0, 2.0}}) {
        Set(shape.mutable_polygon()->add_vertices(), x + r * dx, y + r * dy);
      }
      break;
    case 5:  // convex triangle
      Set(shape.mutable_polygon()->add_vertices(), x, y);
      Set(shape.mutable_polygon()->add_vertices(), x + r, y);
      Set(shape.mutable_polygon()->add_vertices(), x, y + r);
      break;
    default:
      for (int i = 0; i < 4; ++i) {
        Set(shape.mutable_polyline()->add_vertices(), x + i * r,
            y + (i % 2) * r);
      }
      shape.mutable_polyline()->set_closed(rng.Chance(0.5));
      break;
  }
  return shape;
}

v1::Level RandomLevel(SplitMix64& rng, int count) {
  v1::Level level;
  level.set_id("patched");
  for (int i = 0; i < count; ++i) {
    *level.add_shapes() = RandomShape(rng, 1000 + 3 * static_cast<uint64_t>(i));
  }
  return level;
}

// A batch with every query kind at random places.
v1::RunQueriesRequest RandomBatch(SplitMix64& rng) {
  v1::RunQueriesRequest request;
  request.set_level("levels/patched");
  for (int q = 0; q < 12; ++q) {
    const double x = rng.Uniform(-5, 105), y = rng.Uniform(-5, 105);
    const double dx = rng.Uniform(-60, 60), dy = rng.Uniform(-60, 60);
    const bool all = rng.Chance(0.5);
    const auto add = [&] {
      v1::Query* query = request.add_queries();
      query->set_request_id(static_cast<uint64_t>(request.queries_size()));
      return query;
    };
    v1::RayCastQuery* ray = add()->mutable_ray_cast();
    Set(ray->mutable_origin(), x, y);
    Set(ray->mutable_translation(), dx, dy);
    if (all) ray->mutable_options()->set_mode(v1::CAST_MODE_ALL);
    v1::CircleCastQuery* circle = add()->mutable_circle_cast();
    Set(circle->mutable_circle()->mutable_center(), x, y);
    circle->mutable_circle()->set_radius(0.7);
    Set(circle->mutable_translation(), dx, dy);
    if (all) circle->mutable_options()->set_mode(v1::CAST_MODE_ALL);
    v1::PolygonCastQuery* polygon = add()->mutable_polygon_cast();
    Set(polygon->mutable_polygon()->add_vertices(), x, y);
    Set(polygon->mutable_polygon()->add_vertices(), x + 1, y);
    Set(polygon->mutable_polygon()->add_vertices(), x, y + 1);
    Set(polygon->mutable_translation(), dx, dy);
    v1::CapsuleCastQuery* capsule = add()->mutable_capsule_cast();
    Set(capsule->mutable_capsule()->mutable_p1(), x, y);
    Set(capsule->mutable_capsule()->mutable_p2(), x + 1, y);
    capsule->mutable_capsule()->set_radius(0.4);
    Set(capsule->mutable_translation(), dx, dy);
    if (all) capsule->mutable_options()->set_mode(v1::CAST_MODE_ALL);
    v1::OverlapQuery* overlap = add()->mutable_overlap();
    Set(overlap->mutable_circle()->mutable_center(), x, y);
    overlap->mutable_circle()->set_radius(rng.Uniform(1, 15));
    if (rng.Chance(0.3)) overlap->set_max_results(2);
    v1::ClosestPointQuery* closest = add()->mutable_closest_point();
    Set(closest->mutable_point(), x, y);
    closest->set_max_distance(rng.Uniform(0, 20));
    v1::MoveValidationQuery* move = add()->mutable_move_validation();
    Set(move->mutable_circle()->mutable_center(), x, y);
    move->mutable_circle()->set_radius(0.5);
    Set(move->mutable_translation(), dx, dy);
    move->set_skin(0.01);
    move->set_max_slide_iterations(3);
    v1::HitValidationQuery* shot = add()->mutable_hit_validation();
    Set(shot->mutable_origin(), x, y);
    Set(shot->mutable_translation(), dx, dy);
  }
  return request;
}

class PatchedLevel {
 public:
  explicit PatchedLevel(v1::Level level)
      : snapshot_(*MakeLevelSnapshot(std::move(level), 1, limits_)) {}

  absl::Status Apply(const v1::PatchLevelRequest& request) {
    absl::StatusOr<LevelSnapshot> next =
        PatchSnapshot(snapshot_, request, limits_);
    if (!next.ok()) return next.status();
    snapshot_ = *std::move(next);
    return absl::OkStatus();
  }

  // The patched snapshot answers as the whole build of its content.
  void ExpectSameAsWhole(uint64_t seed, const std::string& step) const {
    const LevelSnapshot whole =
        *MakeLevelSnapshot(ContentOf(snapshot_), 1, limits_);
    EXPECT_EQ(snapshot_.content_hash, whole.content_hash) << step;
    EXPECT_EQ(DescribeSnapshot(snapshot_).shape_count(),
              DescribeSnapshot(whole).shape_count())
        << step;
    SplitMix64 rng(seed);
    for (int b = 0; b < 3; ++b) {
      const v1::RunQueriesRequest batch = RandomBatch(rng);
      absl::StatusOr<v1::RunQueriesResponse> patched =
          HandleRunQueries(snapshot_, batch, limits_);
      absl::StatusOr<v1::RunQueriesResponse> built =
          HandleRunQueries(whole, batch, limits_);
      ASSERT_TRUE(patched.ok() && built.ok()) << step;
      // Versions are the store's to give (PatchSnapshot leaves 0).
      patched->clear_level_version();
      built->clear_level_version();
      std::string difference;
      google::protobuf::util::MessageDifferencer differ;
      differ.ReportDifferencesToString(&difference);
      EXPECT_TRUE(differ.Compare(*built, *patched)) << step << "\n"
                                                    << difference;
    }
  }

  const LevelSnapshot& snapshot() const { return snapshot_; }
  const formats::InputLimits& limits() const { return limits_; }

 private:
  formats::InputLimits limits_;
  LevelSnapshot snapshot_;
};

// Ids the snapshot holds now.
std::vector<uint64_t> Ids(const LevelSnapshot& snapshot) {
  std::vector<uint64_t> ids;
  const v1::Level content = ContentOf(snapshot);
  for (const v1::Shape& shape : content.shapes()) {
    ids.push_back(shape.id());
  }
  return ids;
}

TEST(PatchSnapshotTest, RandomPatchSequencesAnswerAsTheWholeLevel) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SplitMix64 rng(seed);
    PatchedLevel level(RandomLevel(rng, 300));
    bool layered = false, rebuilt = false;
    for (int step = 0; step < 14; ++step) {
      std::vector<uint64_t> ids = Ids(level.snapshot());
      v1::PatchLevelRequest request;
      std::map<uint64_t, bool> touched;
      const int changes = 1 + rng.Below(10);
      for (int c = 0; c < changes && !ids.empty(); ++c) {
        const uint64_t id = ids[rng.Below(static_cast<int>(ids.size()))];
        if (!touched.emplace(id, true).second) continue;
        if (rng.Chance(0.5)) {
          request.add_remove_ids(id);
        } else {
          *request.add_upserts() = RandomShape(rng, id);
        }
      }
      *request.add_upserts() =
          RandomShape(rng, 50000 + 100 * seed + static_cast<uint64_t>(step));
      ASSERT_TRUE(level.Apply(request).ok());
      (level.snapshot().base != nullptr ? layered : rebuilt) = true;
      level.ExpectSameAsWhole(seed * 1000 + static_cast<uint64_t>(step),
                              absl::StrCat("seed ", seed, " step ", step));
    }
    // Both paths ran: layered patches, and a rebuild past 1/8.
    EXPECT_TRUE(layered);
    EXPECT_TRUE(rebuilt);
  }
}

TEST(PatchSnapshotTest, RemovingEveryShapeGivesTheEmptyLevel) {
  SplitMix64 rng(4);
  PatchedLevel level(RandomLevel(rng, 40));
  v1::PatchLevelRequest request;
  for (const uint64_t id : Ids(level.snapshot())) request.add_remove_ids(id);
  ASSERT_TRUE(level.Apply(request).ok());
  EXPECT_EQ(DescribeSnapshot(level.snapshot()).shape_count(), 0);
  v1::Level empty;
  empty.set_id("patched");
  EXPECT_EQ(level.snapshot().content_hash, ContentHash(empty));
  level.ExpectSameAsWhole(5, "remove all");
}

TEST(PatchSnapshotTest, ReplacingAShapeByItselfKeepsTheContentHash) {
  SplitMix64 rng(6);
  const v1::Level start = RandomLevel(rng, 200);
  PatchedLevel level(start);
  v1::PatchLevelRequest request;
  *request.add_upserts() = start.shapes(7);
  *request.add_upserts() = start.shapes(8);
  ASSERT_TRUE(level.Apply(request).ok());
  ASSERT_NE(level.snapshot().base, nullptr);  // layered, not rebuilt
  EXPECT_EQ(level.snapshot().content_hash, ContentHash(start));
  level.ExpectSameAsWhole(7, "replace same");
}

TEST(PatchSnapshotTest, AddingToAnEmptyLevelAnswersAsTheAddedShapes) {
  v1::Level empty;
  empty.set_id("patched");
  PatchedLevel level(empty);
  SplitMix64 rng(8);
  v1::PatchLevelRequest request;
  for (uint64_t id = 1; id <= 20; ++id)
    *request.add_upserts() = RandomShape(rng, id);
  ASSERT_TRUE(level.Apply(request).ok());
  EXPECT_EQ(DescribeSnapshot(level.snapshot()).shape_count(), 20);
  level.ExpectSameAsWhole(9, "add into empty");
}

TEST(PatchSnapshotTest, BadUpsertIsInvalidArgumentNamingTheRequestField) {
  SplitMix64 rng(11);
  PatchedLevel level(RandomLevel(rng, 50));
  v1::PatchLevelRequest request;
  for (uint64_t id = 1; id <= 3; ++id)
    *request.add_upserts() = RandomShape(rng, id);
  v1::Shape* bad = request.add_upserts();
  bad->set_id(4);
  Set(bad->mutable_polygon()->add_vertices(), 0, 0);
  Set(bad->mutable_polygon()->add_vertices(), 1, 0);
  const absl::Status status = level.Apply(request);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(status.message(), "upserts[3].polygon.vertices"))
      << status;
}

TEST(PatchSnapshotTest, RequestErrorsNameTheField) {
  SplitMix64 rng(12);
  PatchedLevel level(RandomLevel(rng, 20));
  const uint64_t held = Ids(level.snapshot())[0];
  v1::PatchLevelRequest unknown;
  unknown.add_remove_ids(held);
  unknown.add_remove_ids(77);
  EXPECT_EQ(level.Apply(unknown),
            absl::NotFoundError(
                "remove_ids[1] 77: levels/patched holds no shape 77"));
  v1::PatchLevelRequest repeated;
  repeated.add_remove_ids(held);
  repeated.add_remove_ids(held);
  EXPECT_EQ(level.Apply(repeated).code(), absl::StatusCode::kInvalidArgument);
  v1::PatchLevelRequest both;
  *both.add_upserts() = RandomShape(rng, held);
  both.add_remove_ids(held);
  EXPECT_EQ(level.Apply(both),
            absl::InvalidArgumentError(
                absl::StrCat("remove_ids[0] ", held, " is also in upserts")));
  v1::PatchLevelRequest twice;
  *twice.add_upserts() = RandomShape(rng, 5);
  *twice.add_upserts() = RandomShape(rng, 5);
  EXPECT_EQ(level.Apply(twice), absl::InvalidArgumentError(
                                    "upserts[1].id 5 repeats upserts[0].id"));
}

TEST(CheckExpectedTest, RefusesWhenTheLevelMovedOn) {
  LevelSnapshot served;
  served.id = "a";
  served.version = 7;
  served.content_hash = "abc";
  EXPECT_TRUE(CheckExpected(&served, {}).ok());
  EXPECT_TRUE(CheckExpected(&served, {"abc", 7}).ok());
  EXPECT_EQ(CheckExpected(&served, {"abd", 0}),
            absl::FailedPreconditionError(
                "expected_content_hash abd but the level has abc"));
  EXPECT_EQ(CheckExpected(&served, {"", 6}),
            absl::FailedPreconditionError(
                "expected_version 6 but version 7 is served"));
  EXPECT_EQ(CheckExpected(&served, {kAbsent, 0}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(CheckExpected(nullptr, {kAbsent, 0}).ok());
  EXPECT_EQ(CheckExpected(nullptr, {"abc", 0}).code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace collide::server
