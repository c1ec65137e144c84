// End to end: the real server in-process on a loopback port, driven through
// generated stubs. Every query kind, through the stream and the unary call,
// must give exactly (bitwise) what calling lib/ directly on the same level
// gives. Also: health, level administration round trips.
#include <cmath>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "collide/validate.h"
#include "e2e_helpers.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "proto/formats/proto_convert.h"
#include "server/collide_server.h"
#include "server/levels/default_level.h"

namespace collide::server {
namespace {

using testing::Deadline;
using testing::ProtoEqual;
using testing::Set;

// A query and what lib/ answers for it, computed on the lib Level.
struct Case {
  v1::Query query;
  std::function<v1::QueryResult(const Level&)> expected;
};

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  double Uniform(double a, double b) {
    return std::uniform_real_distribution<double>(a, b)(engine_);
  }
  int Int(int a, int b) {
    return std::uniform_int_distribution<int>(a, b)(engine_);
  }

 private:
  std::mt19937_64 engine_;
};

// A level with every shape kind scattered over [0, 100]^2.
v1::Level RandomLevel(Random& random) {
  v1::Level level;
  level.set_id("random");
  uint64_t id = 1;
  auto add = [&]() {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(id);
    shape->set_user_data(id * 7);
    if (id % 5 == 0) shape->set_category_bits(2);
    ++id;
    return shape;
  };
  for (int i = 0; i < 120; ++i) {
    const double cx = random.Uniform(0, 100), cy = random.Uniform(0, 100);
    switch (i % 7) {
      case 0: {
        v1::Segment* s = add()->mutable_segment();
        Set(s->mutable_p1(), cx, cy);
        Set(s->mutable_p2(), cx + random.Uniform(-5, 5),
            cy + random.Uniform(-5, 5));
        break;
      }
      case 1: {
        v1::Circle* c = add()->mutable_circle();
        Set(c->mutable_center(), cx, cy);
        c->set_radius(random.Uniform(0.2, 3));
        break;
      }
      case 2: {
        v1::Box* b = add()->mutable_box();
        Set(b->mutable_center(), cx, cy);
        Set(b->mutable_half_extents(), random.Uniform(0.3, 3),
            random.Uniform(0.3, 3));
        b->set_angle_radians(random.Uniform(0, 3));
        break;
      }
      case 3: {
        v1::Capsule* c = add()->mutable_capsule();
        Set(c->mutable_p1(), cx, cy);
        Set(c->mutable_p2(), cx + random.Uniform(-4, 4),
            cy + random.Uniform(-4, 4));
        c->set_radius(random.Uniform(0, 1.5));
        break;
      }
      case 4: {
        v1::Polyline* p = add()->mutable_polyline();
        for (int k = 0; k < 4; ++k) {
          Set(p->add_vertices(), cx + 2 * k, cy + random.Uniform(-2, 2));
        }
        p->set_closed(false);
        break;
      }
      case 5: {  // convex: a regular hexagon
        v1::Polygon* p = add()->mutable_polygon();
        const double r = random.Uniform(0.5, 3);
        for (int k = 0; k < 6; ++k) {
          const double a = k * std::numbers::pi / 3;
          Set(p->add_vertices(), cx + r * std::cos(a), cy + r * std::sin(a));
        }
        break;
      }
      case 6: {  // concave: an L
        v1::Polygon* p = add()->mutable_polygon();
        const double s = random.Uniform(1, 4);
        for (const auto& [x, y] : {std::pair{0.0, 0.0},
                                   {2.0, 0.0},
                                   {2.0, 1.0},
                                   {1.0, 1.0},
                                   {1.0, 2.0},
                                   {0.0, 2.0}}) {
          Set(p->add_vertices(), cx + s * x, cy + s * y);
        }
        break;
      }
    }
  }
  return level;
}

v1::QueryResult CastResultOf(uint64_t request_id,
                             const std::optional<WorldHit>& hit) {
  v1::QueryResult result;
  result.set_request_id(request_id);
  v1::CastResult* cast = result.mutable_cast();
  if (hit) formats::ToProto(*hit, cast->add_hits());
  return result;
}

v1::QueryResult AllHitsResultOf(uint64_t request_id,
                                absl::Span<const WorldHit> hits,
                                ListResult list) {
  v1::QueryResult result;
  result.set_request_id(request_id);
  v1::CastResult* cast = result.mutable_cast();
  for (int i = 0; i < list.count; ++i)
    formats::ToProto(hits[i], cast->add_hits());
  cast->set_truncated(list.truncated);
  return result;
}

v1::QueryResult OverlapResultOf(uint64_t request_id,
                                absl::Span<const ShapeRef> shapes,
                                ListResult list) {
  v1::QueryResult result;
  result.set_request_id(request_id);
  v1::OverlapResult* overlap = result.mutable_overlap();
  for (int i = 0; i < list.count; ++i) {
    v1::ShapeRef* ref = overlap->add_shapes();
    ref->set_shape_id(shapes[i].shape_id);
    ref->set_user_data(shapes[i].user_data);
  }
  overlap->set_truncated(list.truncated);
  return result;
}

// A random convex polygon (a rotated box or triangle) as proto and lib.
std::pair<std::vector<Vec2>, ConvexPolygon> RandomConvex(Random& random,
                                                         Vec2 center) {
  std::vector<Vec2> vertices;
  const int n = random.Int(3, 6);
  const double r = random.Uniform(0.3, 2);
  const double a0 = random.Uniform(0, 1);
  for (int k = 0; k < n; ++k) {
    const double a = a0 + 2 * std::numbers::pi * k / n;
    vertices.push_back(
        {center.x + r * std::cos(a), center.y + r * std::sin(a)});
  }
  return {vertices, *MakeConvexPolygon(vertices)};
}

// Every query kind, closest and all-hits modes, with and without filters,
// skins and max_fraction; request ids 1...
std::vector<Case> RandomCases(Random& random, int count) {
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) {
    Case c;
    const uint64_t rid = static_cast<uint64_t>(i + 1);
    c.query.set_request_id(rid);
    const Vec2 start{random.Uniform(-5, 105), random.Uniform(-5, 105)};
    const Vec2 move{random.Uniform(-40, 40), random.Uniform(-40, 40)};
    const bool all = i % 3 == 1;
    const bool masked = i % 4 == 3;
    CastOptions options;
    if (i % 5 == 2) options.max_fraction = 0.5;
    if (i % 6 == 4) options.target_distance = 0.05;
    auto fill_options = [&](v1::CastOptions* o) {
      o->set_mode(all ? v1::CAST_MODE_ALL : v1::CAST_MODE_CLOSEST);
      if (options.max_fraction != 1.0)
        o->set_max_fraction(options.max_fraction);
      o->set_target_distance(options.target_distance);
      if (masked) o->mutable_filter()->set_mask_bits(1);
      if (all) o->set_max_hits(4);
    };
    QueryFilter filter;
    filter.mask_bits = masked ? uint64_t{1} : ~uint64_t{0};
    switch (i % 8) {
      case 0:
      case 1: {
        v1::RayCastQuery* q = c.query.mutable_ray_cast();
        Set(q->mutable_origin(), start.x, start.y);
        Set(q->mutable_translation(), move.x, move.y);
        fill_options(q->mutable_options());
        const RayInput ray{start, move};
        c.expected = [=](const Level& level) {
          if (!all)
            return CastResultOf(rid, CastRay(ray, level, filter, options));
          std::vector<WorldHit> hits(4);
          const ListResult list =
              CastRayAll(ray, level, absl::MakeSpan(hits), filter, options);
          return AllHitsResultOf(rid, hits, list);
        };
        break;
      }
      case 2: {
        const double radius = random.Uniform(0, 1.5);
        v1::CircleCastQuery* q = c.query.mutable_circle_cast();
        Set(q->mutable_circle()->mutable_center(), start.x, start.y);
        q->mutable_circle()->set_radius(radius);
        Set(q->mutable_translation(), move.x, move.y);
        fill_options(q->mutable_options());
        const CircleCast cast{{start, radius}, move};
        c.expected = [=](const Level& level) {
          if (!all) {
            return CastResultOf(rid, CastCircle(cast, level, filter, options));
          }
          std::vector<WorldHit> hits(4);
          const ListResult list =
              CastCircleAll(cast, level, absl::MakeSpan(hits), filter, options);
          return AllHitsResultOf(rid, hits, list);
        };
        break;
      }
      case 3: {
        auto [vertices, polygon] = RandomConvex(random, start);
        v1::PolygonCastQuery* q = c.query.mutable_polygon_cast();
        for (Vec2 v : vertices)
          Set(q->mutable_polygon()->add_vertices(), v.x, v.y);
        Set(q->mutable_translation(), move.x, move.y);
        fill_options(q->mutable_options());
        const PolygonCast cast{polygon, move};
        c.expected = [=](const Level& level) {
          if (!all) {
            return CastResultOf(rid, CastPolygon(cast, level, filter, options));
          }
          std::vector<WorldHit> hits(4);
          const ListResult list = CastPolygonAll(
              cast, level, absl::MakeSpan(hits), filter, options);
          return AllHitsResultOf(rid, hits, list);
        };
        break;
      }
      case 4: {
        const Capsule capsule{
            start,
            {start.x + random.Uniform(-2, 2), start.y + random.Uniform(-2, 2)},
            random.Uniform(0, 1)};
        v1::CapsuleCastQuery* q = c.query.mutable_capsule_cast();
        Set(q->mutable_capsule()->mutable_p1(), capsule.p1.x, capsule.p1.y);
        Set(q->mutable_capsule()->mutable_p2(), capsule.p2.x, capsule.p2.y);
        q->mutable_capsule()->set_radius(capsule.radius);
        Set(q->mutable_translation(), move.x, move.y);
        fill_options(q->mutable_options());
        const CapsuleCast cast{capsule, move};
        c.expected = [=](const Level& level) {
          if (!all) {
            return CastResultOf(rid, CastCapsule(cast, level, filter, options));
          }
          std::vector<WorldHit> hits(4);
          const ListResult list = CastCapsuleAll(
              cast, level, absl::MakeSpan(hits), filter, options);
          return AllHitsResultOf(rid, hits, list);
        };
        break;
      }
      case 5: {
        const Circle circle{start, random.Uniform(0.5, 8)};
        v1::OverlapQuery* q = c.query.mutable_overlap();
        Set(q->mutable_circle()->mutable_center(), start.x, start.y);
        q->mutable_circle()->set_radius(circle.radius);
        q->set_max_results(5);
        c.expected = [=](const Level& level) {
          std::vector<ShapeRef> shapes(5);
          const ListResult list =
              OverlapCircle(circle, level, absl::MakeSpan(shapes));
          return OverlapResultOf(rid, shapes, list);
        };
        break;
      }
      case 6: {
        const bool polygon_shape = random.Int(0, 1) == 0;
        v1::OverlapQuery* q = c.query.mutable_overlap();
        q->set_max_results(5);
        if (masked) q->mutable_filter()->set_mask_bits(2);
        QueryFilter overlap_filter;
        overlap_filter.mask_bits = masked ? uint64_t{2} : ~uint64_t{0};
        if (polygon_shape) {
          auto [vertices, polygon] = RandomConvex(random, start);
          for (Vec2 v : vertices) {
            Set(q->mutable_polygon()->add_vertices(), v.x, v.y);
          }
          c.expected = [=](const Level& level) {
            std::vector<ShapeRef> shapes(5);
            const ListResult list = OverlapPolygon(
                polygon, level, absl::MakeSpan(shapes), overlap_filter);
            return OverlapResultOf(rid, shapes, list);
          };
        } else {
          const Capsule capsule{start, {start.x + 3, start.y - 2}, 1.5};
          Set(q->mutable_capsule()->mutable_p1(), capsule.p1.x, capsule.p1.y);
          Set(q->mutable_capsule()->mutable_p2(), capsule.p2.x, capsule.p2.y);
          q->mutable_capsule()->set_radius(capsule.radius);
          c.expected = [=](const Level& level) {
            std::vector<ShapeRef> shapes(5);
            const ListResult list = OverlapCapsule(
                capsule, level, absl::MakeSpan(shapes), overlap_filter);
            return OverlapResultOf(rid, shapes, list);
          };
        }
        break;
      }
      case 7: {
        v1::ClosestPointQuery* q = c.query.mutable_closest_point();
        Set(q->mutable_point(), start.x, start.y);
        const bool bounded = i % 16 == 7;
        if (bounded) q->set_max_distance(1.0);
        c.expected = [=](const Level& level) {
          v1::QueryResult result;
          result.set_request_id(rid);
          v1::ClosestPointResult* out = result.mutable_closest_point();
          const std::optional<WorldClosestPoint> closest =
              ClosestPoint(start, level, bounded ? 1.0 : HUGE_VAL);
          if (closest) formats::ToProto(*closest, out);
          return result;
        };
        break;
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

class ServerE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(testing::TestOptions());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    channel_ = testing::Connect(server_->port());
    collisions_ = v1::CollisionService::NewStub(channel_);
    // LevelService on the admin listener: it serves reads and the writes.
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
  }

  std::unique_ptr<CollideServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
};

TEST_F(ServerE2eTest, HealthIsServingForTheServerAndEachService) {
  const auto health = grpc::health::v1::Health::NewStub(channel_);
  for (const char* service :
       {"", "collide.v1.CollisionService", "collide.v1.LevelService"}) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(health->Check(&context, request, &response).ok()) << service;
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING)
        << service;
  }
}

TEST_F(ServerE2eTest, ServesTheBundledArenaWithNoConfiguration) {
  v1::DescribeLevelResponse described;
  ASSERT_TRUE(testing::Describe(*levels_, "levels/arena", &described).ok());
  EXPECT_EQ(described.summary().level(), "levels/arena");
  EXPECT_EQ(described.summary().shape_count(), DefaultLevel().shapes_size());
  EXPECT_GT(described.summary().version(), 0);
}

TEST_F(ServerE2eTest, EveryQueryKindMatchesLibThroughUnaryAndStream) {
  Random random(0xC011DE);
  const v1::Level level_proto = RandomLevel(random);
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, level_proto, &put).ok());
  absl::StatusOr<Level> level =
      formats::LevelFromProto(level_proto, formats::InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();

  const std::vector<Case> cases = RandomCases(random, 800);
  constexpr int kBatch = 100;

  // Unary, in batches.
  for (size_t begin = 0; begin < cases.size(); begin += kBatch) {
    v1::RunQueriesRequest request;
    request.set_level("levels/random");
    for (size_t i = begin; i < begin + kBatch; ++i) {
      *request.add_queries() = cases[i].query;
    }
    v1::RunQueriesResponse response;
    const grpc::Status status =
        testing::RunQueries(*collisions_, request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.level_version(), put.summary().version());
    ASSERT_EQ(response.results_size(), kBatch);
    for (int i = 0; i < kBatch; ++i) {
      const Case& c = cases[begin + i];
      EXPECT_TRUE(ProtoEqual(c.expected(*level), response.results(i)))
          << "unary query " << c.query.ShortDebugString();
    }
  }

  // The stream: every batch written up front, then read in order.
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  uint64_t batch_id = 0;
  for (size_t begin = 0; begin < cases.size(); begin += kBatch) {
    v1::StreamQueriesRequest request;
    request.set_level("levels/random");
    request.set_batch_id(++batch_id);
    for (size_t i = begin; i < begin + kBatch; ++i) {
      *request.add_queries() = cases[i].query;
    }
    ASSERT_TRUE(stream->Write(request));
  }
  ASSERT_TRUE(stream->WritesDone());
  v1::StreamQueriesResponse response;
  uint64_t expected_batch = 0;
  while (stream->Read(&response)) {
    ++expected_batch;
    EXPECT_EQ(response.batch_id(), expected_batch);
    EXPECT_EQ(response.status().code(), 0) << response.status().message();
    EXPECT_EQ(response.level_version(), put.summary().version());
    ASSERT_EQ(response.results_size(), kBatch);
    const size_t begin = (expected_batch - 1) * kBatch;
    for (int i = 0; i < kBatch; ++i) {
      const Case& c = cases[begin + i];
      EXPECT_TRUE(ProtoEqual(c.expected(*level), response.results(i)))
          << "stream query " << c.query.ShortDebugString();
    }
  }
  EXPECT_EQ(expected_batch, batch_id);
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// Batches of many sizes on one stream: small ones are answered in the
// reaction, big ones on the workers, and each is read into a batch arena
// the stream reuses (StreamBatch), so a reused arena meets a batch of
// another size and other query kinds. Every result must still be exactly
// lib's and in request order.
TEST_F(ServerE2eTest, StreamOfMixedBatchSizesKeepsOrderAndAnswers) {
  Random random(0xBA7C4);
  const v1::Level level_proto = RandomLevel(random);
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, level_proto, &put).ok());
  absl::StatusOr<Level> level =
      formats::LevelFromProto(level_proto, formats::InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();
  const std::vector<Case> cases = RandomCases(random, 600);
  constexpr int kSizes[] = {1, 100, 3, 40, 16, 17, 250, 2};
  constexpr int kBatches = 40;

  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  std::vector<std::vector<size_t>> sent;  // case indices per batch
  size_t next_case = 0;
  for (int b = 0; b < kBatches; ++b) {
    v1::StreamQueriesRequest request;
    request.set_level("levels/random");
    request.set_batch_id(static_cast<uint64_t>(b));
    std::vector<size_t>& indices = sent.emplace_back();
    for (int q = 0; q < kSizes[b % std::size(kSizes)]; ++q) {
      indices.push_back(next_case);
      *request.add_queries() = cases[next_case].query;
      next_case = (next_case + 1) % cases.size();
    }
    ASSERT_TRUE(stream->Write(request));
  }
  ASSERT_TRUE(stream->WritesDone());
  v1::StreamQueriesResponse response;
  size_t read = 0;
  while (stream->Read(&response)) {
    ASSERT_LT(read, sent.size());
    EXPECT_EQ(response.batch_id(), read);
    EXPECT_EQ(response.status().code(), 0) << response.status().message();
    EXPECT_EQ(response.level_version(), put.summary().version());
    const std::vector<size_t>& indices = sent[read];
    ASSERT_EQ(response.results_size(), static_cast<int>(indices.size()));
    for (size_t i = 0; i < indices.size(); ++i) {
      const Case& c = cases[indices[i]];
      EXPECT_TRUE(
          ProtoEqual(c.expected(*level), response.results(static_cast<int>(i))))
          << "batch " << read << " query " << c.query.ShortDebugString();
    }
    ++read;
  }
  EXPECT_EQ(read, sent.size());
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// One query of each validation kind through the unary call and
// the stream: the results are exactly what collide/validate.h gives.
TEST_F(ServerE2eTest, ValidationQueriesMatchLibThroughUnaryAndStream) {
  // A floor along y = 0, a wall (box) at x in [19, 21], a pillar beyond.
  v1::Level level_proto;
  level_proto.set_id("yard");
  v1::Shape* floor = level_proto.add_shapes();
  floor->set_id(1);
  Set(floor->mutable_segment()->mutable_p1(), -100, 0);
  Set(floor->mutable_segment()->mutable_p2(), 100, 0);
  v1::Shape* wall = level_proto.add_shapes();
  wall->set_id(2);
  wall->set_user_data(20);
  Set(wall->mutable_box()->mutable_center(), 20, 10);
  Set(wall->mutable_box()->mutable_half_extents(), 1, 10);
  v1::Shape* pillar = level_proto.add_shapes();
  pillar->set_id(3);
  Set(pillar->mutable_circle()->mutable_center(), 50, 5);
  pillar->mutable_circle()->set_radius(2);
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, level_proto, &put).ok());
  absl::StatusOr<Level> level =
      formats::LevelFromProto(level_proto, formats::InputLimits{});
  ASSERT_TRUE(level.ok()) << level.status();

  // A capsule claiming to walk down and right through the floor and the
  // wall: blocked, it slides along the floor into the corner.
  v1::Query move;
  move.set_request_id(1);
  const Capsule capsule{{0, 2}, {0, 3.5}, 0.6};
  v1::MoveValidationQuery* m = move.mutable_move_validation();
  Set(m->mutable_capsule()->mutable_p1(), capsule.p1.x, capsule.p1.y);
  Set(m->mutable_capsule()->mutable_p2(), capsule.p2.x, capsule.p2.y);
  m->mutable_capsule()->set_radius(capsule.radius);
  Set(m->mutable_translation(), 30, -5);
  m->set_skin(0.01);
  m->set_max_slide_iterations(8);
  // A bullet along y = 5: target 40 crosses the line of fire as the bullet
  // passes; target 41 is behind the wall.
  v1::Query shot;
  shot.set_request_id(2);
  v1::HitValidationQuery* h = shot.mutable_hit_validation();
  Set(h->mutable_origin(), 0, 5);
  Set(h->mutable_translation(), 60, 0);
  std::vector<ShotTarget> targets;
  for (const Vec2 at : {Vec2{12, 3.4}, Vec2{30, 5}}) {
    v1::ShotTarget* t = h->add_targets();
    t->set_id(40 + targets.size());
    Set(t->mutable_circle()->mutable_center(), at.x, at.y);
    t->mutable_circle()->set_radius(0.8);
    Set(t->mutable_translation(), 0, 8);
    targets.push_back(
        {.id = t->id(), .hitbox = Circle{at, 0.8}, .translation = {0, 8}});
  }
  // Two unit circles closing head-on: a from the origin by (10, 0), b from
  // (10, 0) by (-10, 0); they touch at fraction 0.4.
  v1::Query pair;
  pair.set_request_id(3);
  v1::PairToiQuery* p = pair.mutable_pair_toi();
  Set(p->mutable_a()->mutable_circle()->mutable_center(), 0, 0);
  p->mutable_a()->mutable_circle()->set_radius(1);
  Set(p->mutable_a()->mutable_translation(), 10, 0);
  Set(p->mutable_b()->mutable_circle()->mutable_center(), 10, 0);
  p->mutable_b()->mutable_circle()->set_radius(1);
  Set(p->mutable_b()->mutable_translation(), -10, 0);

  std::vector<v1::QueryResult> expected(3);
  for (int i = 0; i < 3; ++i) expected[i].set_request_id(i + 1);
  const MoveValidation validation =
      ValidateMove({capsule, {30, -5}}, *level, {},
                   {.skin = 0.01, .max_slide_iterations = 8});
  EXPECT_EQ(validation.verdict, MoveVerdict::kBlocked);
  ASSERT_TRUE(validation.slide.has_value());
  EXPECT_GE(validation.slide->contact_count, 2);
  formats::ToProto(validation, expected[0].mutable_move_validation());
  const std::optional<ShotHit> hit =
      ValidateShot({{0, 5}, {60, 0}, 0.0}, *level, targets);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->id, 40u);
  formats::ToProto(hit, expected[1].mutable_hit_validation());
  const std::optional<Hit> toi =
      CastPair({Circle{{0, 0}, 1}, {10, 0}}, {Circle{{10, 0}, 1}, {-10, 0}});
  ASSERT_TRUE(toi.has_value());
  EXPECT_NEAR(toi->fraction, 0.4, 1e-12);
  formats::ToProto(toi, expected[2].mutable_pair_toi());

  v1::RunQueriesRequest request;
  request.set_level("levels/yard");
  *request.add_queries() = move;
  *request.add_queries() = shot;
  *request.add_queries() = pair;
  v1::RunQueriesResponse response;
  const grpc::Status status =
      testing::RunQueries(*collisions_, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(ProtoEqual(expected[i], response.results(i)))
        << "unary query " << request.queries(i).ShortDebugString();
  }

  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  v1::StreamQueriesRequest batch;
  batch.set_level("levels/yard");
  batch.set_batch_id(9);
  *batch.mutable_queries() = request.queries();
  ASSERT_TRUE(stream->Write(batch));
  ASSERT_TRUE(stream->WritesDone());
  v1::StreamQueriesResponse streamed;
  ASSERT_TRUE(stream->Read(&streamed));
  EXPECT_EQ(streamed.batch_id(), 9u);
  ASSERT_EQ(streamed.results_size(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(ProtoEqual(expected[i], streamed.results(i)))
        << "stream query " << request.queries(i).ShortDebugString();
  }
  EXPECT_FALSE(stream->Read(&streamed));
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(ServerE2eTest, PutListDescribeDeleteRoundTrip) {
  v1::PutLevelResponse put;
  ASSERT_TRUE(
      testing::PutLevel(*levels_, testing::WallLevel("wall", 5, 1), &put).ok());
  EXPECT_TRUE(put.created());
  EXPECT_EQ(put.summary().level(), "levels/wall");
  EXPECT_EQ(put.summary().shape_count(), 1);

  v1::PutLevelResponse replaced;
  ASSERT_TRUE(
      testing::PutLevel(*levels_, testing::WallLevel("wall", 6, 2), &replaced)
          .ok());
  EXPECT_FALSE(replaced.created());
  EXPECT_GT(replaced.summary().version(), put.summary().version());

  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::ListLevelsResponse list;
    ASSERT_TRUE(
        levels_->ListLevels(&context, v1::ListLevelsRequest(), &list).ok());
    ASSERT_EQ(list.levels_size(), 2);
    EXPECT_EQ(list.levels(0).level(), "levels/arena");
    EXPECT_EQ(list.levels(1).level(), "levels/wall");
  }
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::DeleteLevelRequest request;
    request.set_level("levels/wall");
    v1::DeleteLevelResponse deleted;
    ASSERT_TRUE(levels_->DeleteLevel(&context, request, &deleted).ok());
    EXPECT_EQ(deleted.deleted_version(), replaced.summary().version());
  }
  v1::DescribeLevelResponse described;
  EXPECT_EQ(testing::Describe(*levels_, "levels/wall", &described).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace collide::server
