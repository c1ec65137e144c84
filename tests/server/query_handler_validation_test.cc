// Validation queries through the handlers (move, hit and pair
// time-of-impact): results are bitwise what collide/validate.h and
// collide/toi.h give for the same input, and a bad query names its field.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/query.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/query_handler.h"
#include "tests/server/query_handler_test_support.h"

namespace collide::server::query_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A random body, set on the proto through `set` (circle / capsule /
// polygon) and returned as the lib value.
template <typename Message>
BodyShape RandomBody(Random& random, Message* proto) {
  const Vec2 c = random.Point(-5, 65);
  switch (random.Below(3)) {
    case 0: {
      const Circle circle{c, random.Uniform(0.1, 2)};
      Set(proto->mutable_circle()->mutable_center(), circle.center);
      proto->mutable_circle()->set_radius(circle.radius);
      return circle;
    }
    case 1: {
      const Capsule capsule{c, c + random.Point(-2, 2), random.Uniform(0, 1)};
      Set(proto->mutable_capsule()->mutable_p1(), capsule.p1);
      Set(proto->mutable_capsule()->mutable_p2(), capsule.p2);
      proto->mutable_capsule()->set_radius(capsule.radius);
      return capsule;
    }
    default: {
      const std::vector<Vec2> points = Regular(
          c, random.Uniform(0.3, 2), 3 + random.Below(6), random.Uniform(0, 1));
      SetPolygon(proto->mutable_polygon(), points);
      return *MakeConvexPolygon(points);
    }
  }
}

void ExpectSameVec2(const v1::Vec2& got, Vec2 want) {
  EXPECT_EQ(got.x(), want.x);
  EXPECT_EQ(got.y(), want.y);
}

void ExpectSameValidation(const v1::MoveValidationResult& got,
                          const MoveValidation& want) {
  EXPECT_EQ(got.verdict(), want.verdict == MoveVerdict::kAllowed
                               ? v1::MOVE_VERDICT_ALLOWED
                           : want.verdict == MoveVerdict::kBlocked
                               ? v1::MOVE_VERDICT_BLOCKED
                               : v1::MOVE_VERDICT_STARTS_INSIDE);
  ASSERT_EQ(got.has_first_hit(), want.first_hit.has_value());
  if (want.first_hit) ExpectSameHit(got.first_hit(), *want.first_hit);
  EXPECT_EQ(got.safe_fraction(), want.safe_fraction);
  ExpectSameVec2(got.safe_translation(), want.safe_translation);
  EXPECT_EQ(got.claimed_end_reachable(), want.claimed_end_reachable);
  ASSERT_EQ(got.has_slide(), want.slide.has_value());
  if (want.slide) {
    ExpectSameVec2(got.slide().translation(), want.slide->translation);
    EXPECT_EQ(got.slide().iteration_count(), want.slide->iterations);
    EXPECT_EQ(got.slide().out_of_iterations(), want.slide->out_of_iterations);
    ASSERT_EQ(got.slide().contacts_size(), want.slide->contact_count);
    for (int k = 0; k < want.slide->contact_count; ++k) {
      const SlideContact& c = want.slide->contacts[k];
      ExpectSameVec2(got.slide().contacts(k).translation(), c.translation);
      ExpectSameVec2(got.slide().contacts(k).point(), c.point);
      ExpectSameVec2(got.slide().contacts(k).normal(), c.normal);
      EXPECT_EQ(got.slide().contacts(k).shape_id(), c.shape_id);
      EXPECT_EQ(got.slide().contacts(k).user_data(), c.user_data);
    }
  }
  ASSERT_EQ(got.has_exit(), want.exit.has_value());
  if (want.exit) {
    EXPECT_EQ(got.exit().separated(), want.exit->separated);
    ExpectSameVec2(got.exit().translation(), want.exit->translation);
    EXPECT_EQ(got.exit().iteration_count(), want.exit->iterations);
    EXPECT_EQ(got.exit().depth(), want.exit->depth);
    ASSERT_EQ(got.exit().overlapped_shapes_size(), want.exit->overlapped_count);
    for (int k = 0; k < want.exit->overlapped_count; ++k) {
      EXPECT_EQ(got.exit().overlapped_shapes(k).shape_id(),
                want.exit->overlapped[k].shape_id);
    }
  }
}

TEST_F(QueryHandlerTest, MoveValidationsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<MoveClaim> claims;
  std::vector<MoveOptions> options;
  std::vector<uint64_t> masks;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::MoveValidationQuery* proto =
        request.add_queries()->mutable_move_validation();
    MoveClaim claim{RandomBody(random_, proto), random_.Point(-20, 20)};
    if (i % 10 == 0) claim.translation = {0, 0};
    Set(proto->mutable_translation(), claim.translation);
    MoveOptions option;
    option.skin = random_.Below(4) == 0 ? 0.0 : random_.Uniform(0, 0.2);
    option.max_slide_iterations = random_.Below(17);
    proto->set_skin(option.skin);
    proto->set_max_slide_iterations(option.max_slide_iterations);
    if (random_.Below(2) == 0) {
      option.max_exit_iterations = 1 + random_.Below(kMaxExitIterations);
      proto->set_max_exit_iterations(option.max_exit_iterations);
    }
    uint64_t mask = ~uint64_t{0};
    if (random_.Below(3) == 0) {
      mask = random_.Next() & 7;
      proto->mutable_filter()->set_mask_bits(mask);
    }
    claims.push_back(claim);
    options.push_back(option);
    masks.push_back(mask);
  }
  const v1::RunQueriesResponse response = Run(request);
  int verdicts[3] = {0, 0, 0};
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_move_validation());
    QueryFilter filter;
    filter.mask_bits = masks[i];
    const MoveValidation want =
        ValidateMove(claims[i], level(), filter, options[i]);
    ExpectSameValidation(result.move_validation(), want);
    ++verdicts[static_cast<int>(want.verdict)];
  }
  // Every verdict was exercised.
  EXPECT_GT(verdicts[0], 0);
  EXPECT_GT(verdicts[1], 0);
  EXPECT_GT(verdicts[2], 0);
}

TEST_F(QueryHandlerTest, HitValidationsMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<Shot> shots;
  std::vector<std::vector<ShotTarget>> targets;
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::HitValidationQuery* proto =
        request.add_queries()->mutable_hit_validation();
    const Shot shot{random_.Point(-5, 65), random_.Point(-40, 40),
                    random_.Below(2) == 0 ? 0.0 : random_.Uniform(0, 0.5)};
    Set(proto->mutable_origin(), shot.origin);
    Set(proto->mutable_translation(), shot.translation);
    proto->set_radius(shot.radius);
    std::vector<ShotTarget>& list = targets.emplace_back();
    for (int k = random_.Below(8); k > 0; --k) {
      v1::ShotTarget* target = proto->add_targets();
      ShotTarget lib{.id = static_cast<uint64_t>(random_.Below(5)),
                     .hitbox = RandomBody(random_, target),
                     .translation = random_.Point(-5, 5)};
      // Put some targets on the line of fire.
      if (k % 2 == 0) {
        const Vec2 on_line =
            shot.origin + random_.Uniform(0, 1) * shot.translation;
        target->Clear();
        lib.hitbox = Circle{on_line, random_.Uniform(0.2, 1.5)};
        Set(target->mutable_circle()->mutable_center(), on_line);
        target->mutable_circle()->set_radius(
            std::get<Circle>(lib.hitbox).radius);
      }
      target->set_id(lib.id);
      Set(target->mutable_translation(), lib.translation);
      list.push_back(lib);
    }
    shots.push_back(shot);
  }
  const v1::RunQueriesResponse response = Run(request);
  int outcomes[4] = {0, 0, 0, 0};
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_hit_validation());
    const v1::HitValidationResult& got = result.hit_validation();
    const std::optional<ShotHit> want =
        ValidateShot(shots[i], level(), targets[i]);
    ++outcomes[got.outcome()];
    if (!want) {
      EXPECT_EQ(got.outcome(), v1::SHOT_OUTCOME_MISS);
      continue;
    }
    EXPECT_EQ(got.outcome(), want->kind == ShotHitKind::kWall
                                 ? v1::SHOT_OUTCOME_WALL
                                 : v1::SHOT_OUTCOME_TARGET);
    EXPECT_EQ(got.id(), want->id);
    EXPECT_EQ(got.user_data(), want->user_data);
    EXPECT_EQ(got.target_index(), want->target_index);
    EXPECT_EQ(got.fraction(), want->hit.fraction);
    ExpectSameVec2(got.point(), want->hit.point);
    ExpectSameVec2(got.normal(), want->hit.normal);
    EXPECT_EQ(got.feature().index(), want->hit.feature.index);
  }
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_MISS], 0);
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_WALL], 0);
  EXPECT_GT(outcomes[v1::SHOT_OUTCOME_TARGET], 0);
}

TEST_F(QueryHandlerTest, PairToisMatchLib) {
  v1::RunQueriesRequest request;
  std::vector<std::pair<MovingShape, MovingShape>> pairs;
  const auto random_shape = [&](v1::MovingShape* proto) {
    MovingShape shape;
    const Vec2 c = random_.Point(-5, 5);
    switch (random_.Below(5)) {
      case 0:
        shape.shape = c;
        Set(proto->mutable_point(), c);
        break;
      case 1: {
        const Segment segment{c, c + random_.Point(-2, 2)};
        shape.shape = segment;
        Set(proto->mutable_segment()->mutable_p1(), segment.p1);
        Set(proto->mutable_segment()->mutable_p2(), segment.p2);
        break;
      }
      default: {
        v1::MoveValidationQuery body;  // borrows the body helper's oneof
        const BodyShape b = RandomBody(random_, &body);
        if (body.has_circle()) *proto->mutable_circle() = body.circle();
        if (body.has_capsule()) *proto->mutable_capsule() = body.capsule();
        if (body.has_polygon()) *proto->mutable_polygon() = body.polygon();
        std::visit([&](const auto& s) { shape.shape = s; }, b);
        // RandomBody places bodies in the level's frame; pull them in.
        shape.translation = random_.Point(-10, 10);
        break;
      }
    }
    if (shape.translation == Vec2{}) shape.translation = random_.Point(-10, 10);
    Set(proto->mutable_translation(), shape.translation);
    return shape;
  };
  for (int i = 0; i < kRandomQueries; ++i) {
    v1::PairToiQuery* proto = request.add_queries()->mutable_pair_toi();
    MovingShape a = random_shape(proto->mutable_a());
    MovingShape b = random_shape(proto->mutable_b());
    // Aim a at b for half of the pairs so that hits occur.
    if (i % 2 == 0) {
      const Vec2 towards = std::visit(
          [](const auto& s) -> Vec2 {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, Vec2>) {
              return s;
            } else if constexpr (std::is_same_v<T, Circle>) {
              return s.center;
            } else if constexpr (std::is_same_v<T, ConvexPolygon>) {
              return s.vertices[0];
            } else {
              return s.p1;
            }
          },
          b.shape);
      const Vec2 from = std::visit(
          [](const auto& s) -> Vec2 {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, Vec2>) {
              return s;
            } else if constexpr (std::is_same_v<T, Circle>) {
              return s.center;
            } else if constexpr (std::is_same_v<T, ConvexPolygon>) {
              return s.vertices[0];
            } else {
              return s.p1;
            }
          },
          a.shape);
      a.translation = 2.0 * (towards - from) + b.translation;
      Set(proto->mutable_a()->mutable_translation(), a.translation);
    }
    pairs.push_back({a, b});
  }
  const v1::RunQueriesResponse response = Run(request);
  int hits = 0;
  for (int i = 0; i < kRandomQueries; ++i) {
    SCOPED_TRACE(i);
    const v1::QueryResult& result = response.results(i);
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    ASSERT_TRUE(result.has_pair_toi());
    const v1::PairToiResult& got = result.pair_toi();
    const std::optional<Hit> want = CastPair(pairs[i].first, pairs[i].second);
    ASSERT_EQ(got.hit(), want.has_value());
    if (!want) continue;
    ++hits;
    EXPECT_EQ(got.fraction(), want->fraction);
    ExpectSameVec2(got.point(), want->point);
    ExpectSameVec2(got.normal(), want->normal);
    EXPECT_EQ(got.depth(), want->depth);
  }
  EXPECT_GT(hits, kRandomQueries / 10);
  EXPECT_LT(hits, kRandomQueries);
}

// A deforming segment over the wire: a segment turning from (-1, 0)-(1,
// 0) to (0, -1)-(0, 1) meets the point falling from (0.1, 0.6) by (0, -1)
// at t = 1/2, at (0.1, 0.1) (10 t^2 - 17 t + 6 = 0), whichever of the pair
// the segment is.
TEST(HandleQueryTest, PointMeetsADeformingSegmentEitherWayRound) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  const DeformingSegment segment{{{-1, 0}, {1, 0}}, {{0, -1}, {0, 1}}};
  const RayInput point{{0.1, 0.6}, {0, -1}};
  const std::optional<Hit> want = CastRay(point, segment);
  ASSERT_TRUE(want.has_value());
  EXPECT_NEAR(want->fraction, 0.5, 1e-12);
  for (const bool segment_is_a : {false, true}) {
    SCOPED_TRACE(segment_is_a);
    v1::Query query;
    v1::PairToiQuery* pair = query.mutable_pair_toi();
    v1::MovingShape* s = segment_is_a ? pair->mutable_a() : pair->mutable_b();
    v1::MovingShape* p = segment_is_a ? pair->mutable_b() : pair->mutable_a();
    Set(s->mutable_segment()->mutable_p1(), segment.start.p1);
    Set(s->mutable_segment()->mutable_p2(), segment.start.p2);
    Set(s->mutable_segment_end()->mutable_p1(), segment.end.p1);
    Set(s->mutable_segment_end()->mutable_p2(), segment.end.p2);
    Set(p->mutable_point(), point.origin);
    Set(p->mutable_translation(), point.translation);
    const v1::QueryResult result =
        HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
    ASSERT_EQ(result.status().code(), 0) << result.status().message();
    const v1::PairToiResult& got = result.pair_toi();
    ASSERT_TRUE(got.hit());
    EXPECT_EQ(got.fraction(), want->fraction);
    if (!segment_is_a) {
      // a is the point: b's (the segment's) contact, as lib reports it.
      ExpectSameVec2(got.point(), want->point);
      ExpectSameVec2(got.normal(), want->normal);
      EXPECT_EQ(got.feature().type(), v1::FEATURE_TYPE_EDGE);
    } else {
      // b is the point: the point itself then, the normal turned round.
      EXPECT_NEAR(got.point().x(), 0.1, 1e-12);
      EXPECT_NEAR(got.point().y(), 0.1, 1e-12);
      ExpectSameVec2(got.normal(), -want->normal);
      EXPECT_EQ(got.feature().type(), v1::FEATURE_TYPE_VERTEX);
    }
  }
}

TEST(HandleQueryTest, EveryBadValidationQueryNamesItsField) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  formats::InputLimits limits;
  limits.max_shot_targets = 2;
  limits.max_slide_iterations = 4;
  struct Case {
    void (*make)(v1::Query*);
    const char* message;
  };
  const Case cases[] = {
      {[](v1::Query* q) { q->mutable_move_validation(); },
       "queries[0].move_validation has no mover"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle()->set_radius(-1);
       },
       "queries[0].move_validation.circle.radius must be >= 0"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle();
         q->mutable_move_validation()->set_max_slide_iterations(5);
       },
       "queries[0].move_validation.max_slide_iterations 5 is more than "
       "max_slide_iterations 4"},
      {[](v1::Query* q) {
         q->mutable_move_validation()->mutable_circle();
         q->mutable_move_validation()->set_skin(kNaN);
       },
       "queries[0].move_validation.skin must be finite"},
      {[](v1::Query* q) { q->mutable_hit_validation()->set_radius(-0.5); },
       "queries[0].hit_validation.radius must be >= 0"},
      {[](v1::Query* q) {
         for (int k = 0; k < 3; ++k) {
           q->mutable_hit_validation()->add_targets()->mutable_circle();
         }
       },
       "queries[0].hit_validation.targets holds 3 targets, more than "
       "max_shot_targets 2"},
      {[](v1::Query* q) {
         q->mutable_hit_validation()->add_targets()->mutable_circle();
         q->mutable_hit_validation()->add_targets();
       },
       "queries[0].hit_validation.targets[1] has no hitbox"},
      {[](v1::Query* q) { q->mutable_pair_toi(); },
       "queries[0].pair_toi.a has no shape"},
      {[](v1::Query* q) {
         q->mutable_pair_toi()->mutable_a()->mutable_point();
         q->mutable_pair_toi()->mutable_b()->mutable_capsule()->set_radius(-1);
       },
       "queries[0].pair_toi.b.capsule.radius must be >= 0"},
  };
  for (const Case& c : cases) {
    v1::Query query;
    c.make(&query);
    const v1::QueryResult result =
        HandleQuery(*snapshot.level, query, 0, limits);
    EXPECT_EQ(result.status().code(), kInvalidArgument) << c.message;
    EXPECT_THAT(result.status().message(), StartsWith(c.message));
    EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
  }
}

TEST(HandleQueryTest, MoveIntoTheWallIsBlockedAndSlides) {
  const LevelSnapshot snapshot = Snapshot(WallLevel());
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  Set(move->mutable_circle()->mutable_center(), {0, 0});
  move->mutable_circle()->set_radius(1);
  Set(move->mutable_translation(), {20, 2});
  move->set_skin(0.01);
  move->set_max_slide_iterations(4);
  const v1::QueryResult result =
      HandleQuery(*snapshot.level, query, 0, formats::InputLimits{});
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  const v1::MoveValidationResult& v = result.move_validation();
  EXPECT_EQ(v.verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(v.first_hit().shape_id(), 1u);
  // The wall's face is at x = 10: the centre stops at 9 - skin and slides
  // up along the face by what is left of the y motion.
  EXPECT_NEAR(v.slide().translation().x(), 8.99, 1e-9);
  EXPECT_NEAR(v.slide().translation().y(), 2.0, 1e-9);
  EXPECT_FALSE(v.claimed_end_reachable());
}

}  // namespace
}  // namespace collide::server::query_test
