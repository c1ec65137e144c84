// Validation queries (move, shot, pair TOI) from the wire and their results
// back: fields convert exactly, every bad input is refused naming the field
// path.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "tests/formats/convert_test_util.h"

namespace collide::formats {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- Validation queries.

v1::MoveValidationQuery CircleMove() {
  v1::MoveValidationQuery query;
  Set(query.mutable_circle()->mutable_center(), 1, 2);
  query.mutable_circle()->set_radius(0.5);
  Set(query.mutable_translation(), 3, -4);
  return query;
}

TEST(MoveValidationFromProtoTest, DefaultsAndFieldsConvert) {
  v1::MoveValidationQuery query = CircleMove();
  absl::StatusOr<MoveValidationArgs> args =
      MoveValidationFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  const Circle* circle = std::get_if<Circle>(&args->claim.mover);
  ASSERT_NE(circle, nullptr);
  EXPECT_EQ(circle->center.x, 1);
  EXPECT_EQ(circle->radius, 0.5);
  EXPECT_EQ(args->claim.translation.y, -4);
  EXPECT_EQ(args->options.skin, 0.0);
  EXPECT_EQ(args->options.max_slide_iterations, 0);
  EXPECT_EQ(args->options.max_exit_iterations,
            MoveOptions{}.max_exit_iterations);
  EXPECT_EQ(args->filter.mask_bits, ~uint64_t{0});

  query.set_skin(0.01);
  query.set_max_slide_iterations(16);
  query.set_max_exit_iterations(8);
  query.mutable_filter()->set_mask_bits(6);
  query.mutable_filter()->add_ignore_ids(4);
  args = MoveValidationFromProto(query, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->options.skin, 0.01);
  EXPECT_EQ(args->options.max_slide_iterations, 16);
  EXPECT_EQ(args->options.max_exit_iterations, 8);
  EXPECT_EQ(args->filter.mask_bits, 6u);
  ASSERT_EQ(args->filter.ignore_ids.size(), 1u);
  EXPECT_TRUE(IsValid(args->claim) && IsValid(args->options));
}

TEST(MoveValidationFromProtoTest, CapsuleAndPolygonMoversConvert) {
  v1::MoveValidationQuery capsule;
  Set(capsule.mutable_capsule()->mutable_p2(), 0, 2);
  capsule.mutable_capsule()->set_radius(0.3);
  absl::StatusOr<MoveValidationArgs> args =
      MoveValidationFromProto(capsule, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(std::holds_alternative<Capsule>(args->claim.mover));

  v1::MoveValidationQuery polygon;
  AddVertices(polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {0, 1}, {1, 0}});  // clockwise
  args = MoveValidationFromProto(polygon, InputLimits{}, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  const ConvexPolygon* convex = std::get_if<ConvexPolygon>(&args->claim.mover);
  ASSERT_NE(convex, nullptr);
  const std::vector<Vec2> points = {{0, 0}, {0, 1}, {1, 0}};
  const ConvexPolygon want = *MakeConvexPolygon(points);
  ASSERT_EQ(convex->count, want.count);
  for (int i = 0; i < want.count; ++i) {
    EXPECT_EQ(convex->vertices[i], want.vertices[i]);
  }
}

TEST(MoveValidationFromProtoTest, BadInputNamesTheField) {
  InputLimits limits;
  limits.max_slide_iterations = 8;
  limits.max_ignore_ids = 1;
  const auto expect = [&](v1::MoveValidationQuery query,
                          absl::string_view message) {
    const absl::StatusOr<MoveValidationArgs> args =
        MoveValidationFromProto(query, limits, "move");
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  expect(v1::MoveValidationQuery(),
         "move has no mover: set one of circle, capsule, polygon");
  v1::MoveValidationQuery q = CircleMove();
  q.mutable_circle()->set_radius(-1);
  expect(q, "move.circle.radius must be >= 0");
  q = CircleMove();
  q.mutable_translation()->set_x(kNaN);
  expect(q, "move.translation.x must be finite");
  q = CircleMove();
  q.set_skin(-0.1);
  expect(q, "move.skin must be >= 0");
  q = CircleMove();
  q.set_skin(kInf);
  expect(q, "move.skin must be finite");
  q = CircleMove();
  q.set_max_slide_iterations(9);
  expect(q, "move.max_slide_iterations 9 is more than max_slide_iterations 8");
  q = CircleMove();
  q.set_max_slide_iterations(-1);
  expect(q, "move.max_slide_iterations must be >= 0");
  q = CircleMove();
  q.set_max_exit_iterations(9);
  expect(q, "move.max_exit_iterations must be in [0, 8], got 9");
  q = CircleMove();
  q.mutable_filter()->add_ignore_ids(1);
  q.mutable_filter()->add_ignore_ids(2);
  expect(q, "move.filter.ignore_ids holds 2 ids");
  v1::MoveValidationQuery bad_polygon;
  AddVertices(bad_polygon.mutable_polygon()->mutable_vertices(),
              {{0, 0}, {4, 0}, {1, 1}, {0, 4}});
  expect(bad_polygon, "move.polygon: ");
  v1::MoveValidationQuery capsule;
  capsule.mutable_capsule()->mutable_p1()->set_y(kInf);
  expect(capsule, "move.capsule.p1.y must be finite");
}

v1::HitValidationQuery Shot3Targets() {
  v1::HitValidationQuery query;
  Set(query.mutable_origin(), 0, 0);
  Set(query.mutable_translation(), 40, 0);
  query.set_radius(0.25);
  v1::ShotTarget* circle = query.add_targets();
  circle->set_id(7);
  Set(circle->mutable_circle()->mutable_center(), 10, 0);
  circle->mutable_circle()->set_radius(1);
  Set(circle->mutable_translation(), 0, 3);
  v1::ShotTarget* capsule = query.add_targets();
  capsule->set_id(8);
  Set(capsule->mutable_capsule()->mutable_p2(), 0, 1);
  v1::ShotTarget* polygon = query.add_targets();
  polygon->set_id(9);
  AddVertices(polygon->mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  return query;
}

TEST(HitValidationFromProtoTest, ShotAndTargetsConvertIntoTheStorage) {
  std::vector<ShotTarget> storage(5);  // stale entries are cleared
  absl::StatusOr<HitValidationArgs> args =
      HitValidationFromProto(Shot3Targets(), InputLimits{}, "q", storage);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->shot.translation.x, 40);
  EXPECT_EQ(args->shot.radius, 0.25);
  ASSERT_EQ(args->targets.size(), 3u);
  EXPECT_EQ(args->targets.data(), storage.data());
  EXPECT_EQ(args->targets[0].id, 7u);
  EXPECT_EQ(args->targets[0].translation.y, 3);
  EXPECT_TRUE(std::holds_alternative<Circle>(args->targets[0].hitbox));
  EXPECT_TRUE(std::holds_alternative<Capsule>(args->targets[1].hitbox));
  EXPECT_TRUE(std::holds_alternative<ConvexPolygon>(args->targets[2].hitbox));
  for (const ShotTarget& t : args->targets) EXPECT_TRUE(IsValid(t));
}

TEST(HitValidationFromProtoTest, BadInputNamesTheField) {
  InputLimits limits;
  limits.max_shot_targets = 3;
  std::vector<ShotTarget> storage;
  const auto expect = [&](const v1::HitValidationQuery& query,
                          absl::string_view message) {
    const absl::StatusOr<HitValidationArgs> args =
        HitValidationFromProto(query, limits, "shot", storage);
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  v1::HitValidationQuery q = Shot3Targets();
  q.mutable_origin()->set_y(kNaN);
  expect(q, "shot.origin.y must be finite");
  q = Shot3Targets();
  q.set_radius(-1);
  expect(q, "shot.radius must be >= 0");
  q = Shot3Targets();
  q.add_targets();
  expect(q, "shot.targets holds 4 targets, more than max_shot_targets 3");
  q = Shot3Targets();
  q.mutable_targets(1)->clear_capsule();
  expect(q,
         "shot.targets[1] has no hitbox: set one of circle, capsule, "
         "polygon");
  q = Shot3Targets();
  q.mutable_targets(0)->mutable_circle()->set_radius(-2);
  expect(q, "shot.targets[0].circle.radius must be >= 0");
  q = Shot3Targets();
  q.mutable_targets(2)->mutable_translation()->set_x(1e61);
  expect(q, "shot.targets[2].translation.x must be within +-1e60");
  q = Shot3Targets();
  q.mutable_targets(2)->mutable_polygon()->add_vertices();
  expect(q, "shot.targets[2].polygon: ");
}

TEST(PairToiFromProtoTest, EveryShapeKindConverts) {
  v1::PairToiQuery query;
  Set(query.mutable_a()->mutable_point(), 1, 2);
  Set(query.mutable_a()->mutable_translation(), 5, 0);
  Set(query.mutable_b()->mutable_segment()->mutable_p2(), 0, 3);
  absl::StatusOr<PairToiArgs> args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(std::get<Vec2>(args->a.shape), (Vec2{1, 2}));
  EXPECT_EQ(args->a.translation.x, 5);
  EXPECT_EQ(std::get<Segment>(args->b.shape).p2.y, 3);
  EXPECT_EQ(args->options.max_fraction, 1.0);
  EXPECT_EQ(args->options.target_distance, 0.0);

  query.mutable_a()->mutable_circle()->set_radius(2);
  query.mutable_b()->mutable_capsule()->set_radius(1);
  query.set_max_fraction(0.5);
  query.set_target_distance(0.1);
  args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(std::get<Circle>(args->a.shape).radius, 2);
  EXPECT_EQ(std::get<Capsule>(args->b.shape).radius, 1);
  EXPECT_EQ(args->options.max_fraction, 0.5);
  EXPECT_EQ(args->options.target_distance, 0.1);

  AddVertices(query.mutable_b()->mutable_polygon()->mutable_vertices(),
              {{0, 0}, {1, 0}, {0, 1}});
  args = PairToiFromProto(query, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(std::holds_alternative<ConvexPolygon>(args->b.shape));
}

TEST(PairToiFromProtoTest, BadInputNamesTheField) {
  const auto expect = [](const v1::PairToiQuery& query,
                         absl::string_view message) {
    const absl::StatusOr<PairToiArgs> args = PairToiFromProto(query, "pair");
    ASSERT_FALSE(args.ok()) << message;
    EXPECT_EQ(args.status().code(), absl::StatusCode::kInvalidArgument);
    ExpectError(args.status(), absl::StatusCode::kInvalidArgument,
                std::string(message));
  };
  v1::PairToiQuery good;
  good.mutable_a()->mutable_point();
  good.mutable_b()->mutable_point();
  expect(v1::PairToiQuery(),
         "pair.a has no shape: set one of point, segment, circle, capsule, "
         "polygon");
  v1::PairToiQuery q = good;
  q.clear_b();
  expect(q, "pair.b has no shape");
  q = good;
  q.mutable_b()->mutable_segment()->mutable_p2()->set_x(kNaN);
  expect(q, "pair.b.segment.p2.x must be finite");
  q = good;
  q.mutable_a()->mutable_circle()->set_radius(-1);
  expect(q, "pair.a.circle.radius must be >= 0");
  q = good;
  q.mutable_a()->mutable_translation()->set_y(kInf);
  expect(q, "pair.a.translation.y must be finite");
  q = good;
  q.set_max_fraction(1.5);
  expect(q, "pair.max_fraction must be in [0, 1]");
  q = good;
  q.set_target_distance(-1);
  expect(q, "pair.target_distance must be >= 0");
}

// A segment from (-1, 0)-(1, 0) turning to (0, -1)-(0, 1), and a point.
v1::PairToiQuery DeformingPairQuery(bool segment_is_a) {
  v1::PairToiQuery query;
  v1::MovingShape* segment =
      segment_is_a ? query.mutable_a() : query.mutable_b();
  v1::MovingShape* point = segment_is_a ? query.mutable_b() : query.mutable_a();
  Set(segment->mutable_segment()->mutable_p1(), -1, 0);
  Set(segment->mutable_segment()->mutable_p2(), 1, 0);
  Set(segment->mutable_segment_end()->mutable_p1(), 0, -1);
  Set(segment->mutable_segment_end()->mutable_p2(), 0, 1);
  Set(point->mutable_point(), 0.5, 2);
  Set(point->mutable_translation(), 0, -1);
  return query;
}

TEST(PairToiFromProtoTest, SegmentEndMakesADeformingPairEitherWay) {
  for (const bool segment_is_a : {false, true}) {
    absl::StatusOr<PairToiArgs> args =
        PairToiFromProto(DeformingPairQuery(segment_is_a), "q");
    ASSERT_TRUE(args.ok()) << args.status();
    ASSERT_TRUE(args->deforming.has_value());
    EXPECT_EQ(args->deforming->point_is_a, !segment_is_a);
    EXPECT_EQ(args->deforming->point.origin, (Vec2{0.5, 2}));
    EXPECT_EQ(args->deforming->point.translation, (Vec2{0, -1}));
    EXPECT_EQ(args->deforming->segment.start.p1, (Vec2{-1, 0}));
    EXPECT_EQ(args->deforming->segment.end.p2, (Vec2{0, 1}));
  }
  // Without segment_end nothing deforms.
  v1::PairToiQuery rigid = DeformingPairQuery(false);
  rigid.mutable_b()->clear_segment_end();
  absl::StatusOr<PairToiArgs> args = PairToiFromProto(rigid, "q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_FALSE(args->deforming.has_value());
}

TEST(PairToiFromProtoTest, DeformingSegmentMisuseNamesTheField) {
  v1::PairToiQuery q = DeformingPairQuery(false);
  q.mutable_a()->mutable_circle()->set_radius(1);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.segment_end: a deforming segment meets only a point, "
              "but pair.a is not one");
  q = DeformingPairQuery(false);
  Set(q.mutable_b()->mutable_translation(), 1, 0);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.translation must be zero when pair.b.segment_end");
  q = DeformingPairQuery(true);
  q.mutable_a()->mutable_circle()->set_radius(1);  // replaces the segment
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.a.segment_end is set but pair.a is not a segment");
  q = DeformingPairQuery(false);
  q.mutable_b()->mutable_segment_end()->mutable_p1()->set_y(kNaN);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.b.segment_end.p1.y must be finite");
  q = DeformingPairQuery(false);
  q.set_target_distance(0.5);
  ExpectError(PairToiFromProto(q, "pair").status(),
              absl::StatusCode::kInvalidArgument,
              "pair.target_distance must be 0 with a deforming segment");
}

TEST(ToProtoTest, MoveValidationCopiesSlideAndExit) {
  MoveValidation v;
  v.verdict = MoveVerdict::kBlocked;
  WorldHit first;
  first.hit.fraction = 0.5;
  first.shape_id = 3;
  v.first_hit = first;
  v.safe_fraction = 0.4;
  v.safe_translation = {4, 0};
  v.claimed_end_reachable = false;
  SlideResult slide;
  slide.translation = {6, 1};
  slide.iterations = 2;
  slide.contacts[0] = {.translation = {4, 0},
                       .point = {5, 0},
                       .normal = {-1, 0},
                       .feature = {FeatureType::kEdge, 2},
                       .shape_id = 3,
                       .user_data = 30};
  slide.contact_count = 1;
  v.slide = slide;
  v1::MoveValidationResult out;
  ToProto(v, &out);
  EXPECT_EQ(out.verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(out.first_hit().shape_id(), 3u);
  EXPECT_EQ(out.safe_fraction(), 0.4);
  EXPECT_EQ(out.safe_translation().x(), 4);
  EXPECT_FALSE(out.claimed_end_reachable());
  EXPECT_EQ(out.slide().translation().y(), 1);
  EXPECT_EQ(out.slide().iteration_count(), 2);
  ASSERT_EQ(out.slide().contacts_size(), 1);
  EXPECT_EQ(out.slide().contacts(0).normal().x(), -1);
  EXPECT_EQ(out.slide().contacts(0).user_data(), 30u);
  EXPECT_EQ(out.slide().contacts(0).feature().index(), 2);
  EXPECT_FALSE(out.has_exit());

  MoveValidation inside;
  inside.verdict = MoveVerdict::kStartsInside;
  ExitResult exit;
  exit.separated = true;
  exit.translation = {0, 0.5};
  exit.iterations = 1;
  exit.depth = 0.5;
  exit.overlapped[0] = {7, 70};
  exit.overlapped_count = 1;
  inside.exit = exit;
  v1::MoveValidationResult out_inside;
  ToProto(inside, &out_inside);
  EXPECT_EQ(out_inside.verdict(), v1::MOVE_VERDICT_STARTS_INSIDE);
  EXPECT_FALSE(out_inside.has_first_hit());
  EXPECT_FALSE(out_inside.has_slide());
  EXPECT_TRUE(out_inside.exit().separated());
  EXPECT_EQ(out_inside.exit().translation().y(), 0.5);
  ASSERT_EQ(out_inside.exit().overlapped_shapes_size(), 1);
  EXPECT_EQ(out_inside.exit().overlapped_shapes(0).user_data(), 70u);
}

TEST(ToProtoTest, ShotAndPairMissesSetOnlyTheOutcome) {
  v1::HitValidationResult shot;
  ToProto(std::optional<ShotHit>(), &shot);
  EXPECT_EQ(shot.outcome(), v1::SHOT_OUTCOME_MISS);
  EXPECT_EQ(shot.target_index(), -1);
  EXPECT_FALSE(shot.has_point());
  v1::HitValidationResult target;
  ShotHit hit;
  hit.kind = ShotHitKind::kTarget;
  hit.id = 5;
  hit.target_index = 2;
  hit.hit.fraction = 0.25;
  ToProto(std::optional<ShotHit>(hit), &target);
  EXPECT_EQ(target.outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(target.id(), 5u);
  EXPECT_EQ(target.target_index(), 2);
  EXPECT_EQ(target.fraction(), 0.25);
  v1::PairToiResult pair;
  ToProto(std::optional<Hit>(), &pair);
  EXPECT_FALSE(pair.hit());
  EXPECT_FALSE(pair.has_point());
}

}  // namespace
}  // namespace collide::formats
