// End to end: turning casts, swings and moves through a real server on
// loopback, with the known answers of a sword swing (a capsule from the
// hand at the origin, 2 long, radius 0.1, a half turn counter-clockwise)
// against a wall at 90 degrees and targets at 60 and 120 degrees; the
// refusals of bad angles, pivots and options name their fields.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <string>

#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using std::numbers::pi;
using ::testing::HasSubstr;
using testing::Set;

void SetPolar(v1::Vec2* out, double r, double deg) {
  Set(out, r * std::cos(deg * pi / 180), r * std::sin(deg * pi / 180));
}

// The sword's axis reaches a disc of radius rho (+ 0.1) about polar (r0,
// th0) at th0 - asin((rho + 0.1) / r0): as a share of the half turn.
double Contact(double th0_deg, double r0, double rho) {
  return (th0_deg * pi / 180 - std::asin((rho + 0.1) / r0)) / pi;
}
// The wall's near end at radius 1: the blade's rim reaches it at 90 deg -
// asin(0.1).
const double kWallContact = (pi / 2 - std::asin(0.1)) / pi;

v1::Level SwingLevel() {
  v1::Level level;
  level.set_id("swing");
  v1::Shape* wall = level.add_shapes();
  wall->set_id(1);
  wall->set_user_data(11);
  SetPolar(wall->mutable_segment()->mutable_p1(), 1, 90);
  SetPolar(wall->mutable_segment()->mutable_p2(), 3, 90);
  for (const auto& [id, deg] : {std::pair{2, 60.0}, std::pair{3, 120.0}}) {
    v1::Shape* target = level.add_shapes();
    target->set_id(static_cast<uint64_t>(id));
    target->set_category_bits(2);
    SetPolar(target->mutable_circle()->mutable_center(), 1.5, deg);
    target->mutable_circle()->set_radius(0.25);
  }
  return level;
}

void SetSword(v1::Capsule* capsule) {
  Set(capsule->mutable_p1(), 0, 0);
  Set(capsule->mutable_p2(), 2, 0);
  capsule->set_radius(0.1);
}

v1::Query SwordCast(double angle) {
  v1::Query query;
  v1::CapsuleCastQuery* cast = query.mutable_capsule_cast();
  SetSword(cast->mutable_capsule());
  Set(cast->mutable_translation(), 0, 0);
  cast->mutable_turn()->set_angle(angle);
  Set(cast->mutable_turn()->mutable_pivot(), 0, 0);
  return query;
}

class TurningE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(testing::TestOptions());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    collisions_ =
        v1::CollisionService::NewStub(testing::Connect(server_->port()));
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
    v1::PutLevelResponse put;
    const grpc::Status status = testing::PutLevel(*levels_, SwingLevel(), &put);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  v1::QueryResult RunOne(const v1::Query& query) {
    v1::RunQueriesRequest request;
    request.set_level("levels/swing");
    *request.add_queries() = query;
    v1::RunQueriesResponse response;
    const grpc::Status status =
        testing::RunQueries(*collisions_, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    if (response.results_size() != 1) return {};
    return response.results(0);
  }

  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
};

void ExpectBracketHolds(const v1::CastHit& hit, double expected) {
  EXPECT_EQ(hit.turn().status(), v1::TURN_STATUS_HIT);
  EXPECT_LE(hit.fraction(), expected + 1e-12);
  EXPECT_GE(hit.turn().fraction_hi(), expected - 1e-12);
  EXPECT_LE(hit.turn().fraction_hi() - hit.fraction(), 0x1p-30);
}

TEST_F(TurningE2eTest, SwordCastMeetsTheNearerTargetFirst) {
  const v1::QueryResult result = RunOne(SwordCast(pi));
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  ASSERT_EQ(result.cast().hits_size(), 1);
  const v1::CastHit& hit = result.cast().hits(0);
  EXPECT_EQ(hit.shape_id(), 2u);
  EXPECT_EQ(hit.status(), v1::HIT_STATUS_HIT);
  ExpectBracketHolds(hit, Contact(60, 1.5, 0.25));
}

TEST_F(TurningE2eTest, AllHitsListTargetWallTarget) {
  v1::Query query = SwordCast(pi);
  query.mutable_capsule_cast()->mutable_options()->set_mode(v1::CAST_MODE_ALL);
  const v1::QueryResult result = RunOne(query);
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  ASSERT_EQ(result.cast().hits_size(), 3);
  EXPECT_EQ(result.cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(result.cast().hits(1).shape_id(), 1u);
  EXPECT_EQ(result.cast().hits(1).user_data(), 11u);
  EXPECT_EQ(result.cast().hits(2).shape_id(), 3u);
  ExpectBracketHolds(result.cast().hits(1), kWallContact);
  ExpectBracketHolds(result.cast().hits(2), Contact(120, 1.5, 0.25));
}

TEST_F(TurningE2eTest, ZeroAngleAnswersAsTheTranslatingCast) {
  v1::Query turning = SwordCast(0.0);
  Set(turning.mutable_capsule_cast()->mutable_translation(), 0, 3);
  v1::Query plain = turning;
  plain.mutable_capsule_cast()->clear_turn();
  const v1::QueryResult a = RunOne(turning);
  const v1::QueryResult b = RunOne(plain);
  ASSERT_EQ(b.cast().hits_size(), 1);
  ASSERT_EQ(a.cast().hits_size(), 1);
  EXPECT_FALSE(a.cast().hits(0).has_turn());
  EXPECT_TRUE(testing::ProtoEqual(b, a));
}

TEST_F(TurningE2eTest, DefaultPivotIsTheCapsuleMidpoint) {
  v1::Query about_hand = SwordCast(pi);
  Set(about_hand.mutable_capsule_cast()->mutable_turn()->mutable_pivot(), 1, 0);
  v1::Query about_default = SwordCast(pi);
  about_default.mutable_capsule_cast()->mutable_turn()->clear_pivot();
  EXPECT_TRUE(testing::ProtoEqual(RunOne(about_hand), RunOne(about_default)));
}

v1::Query Swing(bool with_near_target) {
  v1::Query query;
  v1::HitValidationQuery* shot = query.mutable_hit_validation();
  SetSword(shot->mutable_swing()->mutable_capsule());
  shot->mutable_swing()->mutable_turn()->set_angle(pi);
  Set(shot->mutable_swing()->mutable_turn()->mutable_pivot(), 0, 0);
  // Walls only: the level's targets have category 2.
  shot->mutable_filter()->set_mask_bits(1);
  v1::ShotTarget* far = shot->add_targets();
  far->set_id(20);
  SetPolar(far->mutable_circle()->mutable_center(), 1.5, 120);
  far->mutable_circle()->set_radius(0.25);
  if (with_near_target) {
    v1::ShotTarget* near = shot->add_targets();
    near->set_id(10);
    SetPolar(near->mutable_circle()->mutable_center(), 1.5, 60);
    near->mutable_circle()->set_radius(0.25);
  }
  return query;
}

TEST_F(TurningE2eTest, SwingHitsTheNearTargetAndTheWallShieldsTheFarOne) {
  v1::QueryResult result = RunOne(Swing(true));
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  EXPECT_EQ(result.hit_validation().outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(result.hit_validation().id(), 10u);
  EXPECT_EQ(result.hit_validation().target_index(), 1);
  EXPECT_EQ(result.hit_validation().turn().status(), v1::TURN_STATUS_HIT);
  EXPECT_NEAR(result.hit_validation().fraction(), Contact(60, 1.5, 0.25), 1e-9);
  result = RunOne(Swing(false));
  EXPECT_EQ(result.hit_validation().outcome(), v1::SHOT_OUTCOME_WALL);
  EXPECT_EQ(result.hit_validation().id(), 1u);
  EXPECT_NEAR(result.hit_validation().fraction(), kWallContact, 1e-9);
}

TEST_F(TurningE2eTest, TurningMoveIsBlockedAtTheBracket) {
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  SetSword(move->mutable_capsule());
  move->mutable_turn()->set_angle(pi);
  Set(move->mutable_turn()->mutable_pivot(), 0, 0);
  const v1::QueryResult result = RunOne(query);
  ASSERT_EQ(result.status().code(), 0) << result.status().message();
  const v1::MoveValidationResult& v = result.move_validation();
  EXPECT_EQ(v.verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(v.first_hit().shape_id(), 2u);
  EXPECT_EQ(v.safe_fraction(), v.first_hit().fraction());
  ExpectBracketHolds(v.first_hit(), Contact(60, 1.5, 0.25));
}

class TurningRefusalE2eTest : public TurningE2eTest {
 protected:
  std::string Refuse(const v1::Query& query) {
    const v1::QueryResult result = RunOne(query);
    EXPECT_EQ(result.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
    return result.status().message();
  }
};

TEST_F(TurningRefusalE2eTest, BadAnglesAndPivotsNameTheField) {
  v1::Query query = SwordCast(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(Refuse(query), "queries[0].capsule_cast.turn.angle must be finite");
  query = SwordCast(std::numeric_limits<double>::infinity());
  EXPECT_EQ(Refuse(query), "queries[0].capsule_cast.turn.angle must be finite");
  query = SwordCast(2097152.0);
  EXPECT_EQ(Refuse(query),
            "queries[0].capsule_cast.turn.angle must be within +-1048576 "
            "(2^20) radians, got 2097152");
  query = SwordCast(1.0);
  query.mutable_capsule_cast()->mutable_turn()->mutable_pivot()->set_y(
      std::numeric_limits<double>::infinity());
  EXPECT_EQ(Refuse(query),
            "queries[0].capsule_cast.turn.pivot.y must be finite");
  query = SwordCast(1.0);
  query.mutable_capsule_cast()->mutable_options()->set_target_distance(0.5);
  EXPECT_EQ(Refuse(query),
            "queries[0].capsule_cast.options.target_distance must be 0 when "
            "capsule_cast.turn.angle is not 0");
}

TEST_F(TurningRefusalE2eTest, SlideSkinAndStrayTargetTurnsAreRefused) {
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  SetSword(move->mutable_capsule());
  move->mutable_turn()->set_angle(1.0);
  move->set_max_slide_iterations(4);
  EXPECT_EQ(Refuse(query),
            "queries[0].move_validation.max_slide_iterations must be 0 when "
            "move_validation.turn.angle is not 0");
  move->set_max_slide_iterations(0);
  move->set_skin(0.01);
  EXPECT_EQ(Refuse(query),
            "queries[0].move_validation.skin must be 0 when "
            "move_validation.turn.angle is not 0");
  v1::Query shot = Swing(true);
  shot.mutable_hit_validation()->clear_swing();
  Set(shot.mutable_hit_validation()->mutable_translation(), 1, 0);
  shot.mutable_hit_validation()->mutable_targets(1)->mutable_turn()->set_angle(
      1.0);
  EXPECT_THAT(Refuse(shot),
              HasSubstr("queries[0].hit_validation.targets[1].turn needs "
                        "hit_validation.swing"));
  shot = Swing(true);
  shot.mutable_hit_validation()->set_radius(0.5);
  EXPECT_EQ(Refuse(shot),
            "queries[0].hit_validation.radius must be 0 with "
            "hit_validation.swing, got 0.5");
}

}  // namespace
}  // namespace collide::server
