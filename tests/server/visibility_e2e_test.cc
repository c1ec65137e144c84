// End to end through the real server (in-process, loopback gRPC): the
// visibility and visibility polygon queries answered with known answers,
// unary and on the stream alike, counted in the metrics, and every
// refusal (bad values, an unknown target rule, the size limits)
// named by its field with the value as sent.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

using testing::Deadline;
using testing::Set;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Rounded polygon vertices: 1e-12 of |v| + range (the proto's bound).
constexpr double kVertexTolerance = 1e-9;

// Level "sight": a box (id 1) of half size 1 at the origin, a wall (id 2)
// x = 5, y in [-1, 1], and a glass pane (id 3, category 2) x = -5,
// y in [-1, 1].
v1::Level Sight() {
  v1::Level level;
  level.set_id("sight");
  v1::Shape* box = level.add_shapes();
  box->set_id(1);
  Set(box->mutable_box()->mutable_center(), 0, 0);
  Set(box->mutable_box()->mutable_half_extents(), 1, 1);
  v1::Shape* wall = level.add_shapes();
  wall->set_id(2);
  Set(wall->mutable_segment()->mutable_p1(), 5, -1);
  Set(wall->mutable_segment()->mutable_p2(), 5, 1);
  v1::Shape* glass = level.add_shapes();
  glass->set_id(3);
  glass->set_category_bits(2);
  Set(glass->mutable_segment()->mutable_p1(), -5, -1);
  Set(glass->mutable_segment()->mutable_p2(), -5, 1);
  return level;
}

v1::Viewer* AddViewer(v1::VisibilityQuery* query, double x, double y) {
  v1::Viewer* viewer = query->add_viewers();
  Set(viewer->mutable_position(), x, y);
  return viewer;
}

void AddPoint(v1::VisibilityQuery* query, double x, double y) {
  Set(query->add_targets()->mutable_point(), x, y);
}

// Viewers A (-10, 0); B (10, 0) with range 4 facing -x within 0.5 rad;
// C (0, 0) inside the box. Targets 0 (10, 0), 1 (-10, 5), 2 (-7, 0), 3 a
// circle at (-3, 0), 4 (6, 0), 5 (10, 4).
v1::Query Tick(uint64_t request_id) {
  v1::Query query;
  query.set_request_id(request_id);
  v1::VisibilityQuery* sight = query.mutable_visibility();
  AddViewer(sight, -10, 0);
  v1::Viewer* b = AddViewer(sight, 10, 0);
  b->set_range(4);
  Set(b->mutable_cone()->mutable_direction(), -1, 0);
  b->mutable_cone()->set_half_angle_radians(0.5);
  AddViewer(sight, 0, 0);
  AddPoint(sight, 10, 0);
  AddPoint(sight, -10, 5);
  AddPoint(sight, -7, 0);
  v1::Circle* circle = sight->add_targets()->mutable_circle();
  Set(circle->mutable_center(), -3, 0);
  circle->set_radius(0.5);
  AddPoint(sight, 6, 0);
  AddPoint(sight, 10, 4);
  return query;
}

v1::Query Polygon(uint64_t request_id, double x, double y, double range) {
  v1::Query query;
  query.set_request_id(request_id);
  Set(query.mutable_visibility_polygon()->mutable_viewer(), x, y);
  query.mutable_visibility_polygon()->set_range(range);
  return query;
}

std::vector<uint64_t> Words(const v1::QueryResult& result) {
  EXPECT_EQ(result.status().code(), 0) << result.status().message();
  return {result.visibility().visible_words().begin(),
          result.visibility().visible_words().end()};
}

class VisibilityE2eTest : public ::testing::Test {
 protected:
  void StartServer(const formats::InputLimits& limits = {}) {
    ServerOptions options = testing::TestOptions();
    options.limits = limits;
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
    collisions_ =
        v1::CollisionService::NewStub(testing::Connect(server_->port()));
    v1::PutLevelResponse put;
    const grpc::Status status = testing::PutLevel(*levels_, Sight(), &put);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  v1::RunQueriesResponse Run(std::vector<v1::Query> queries) {
    v1::RunQueriesRequest request;
    request.set_level("levels/sight");
    for (v1::Query& query : queries) *request.add_queries() = query;
    v1::RunQueriesResponse response;
    const grpc::Status status =
        testing::RunQueries(*collisions_, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  // The refusal of `query` alone: its code and message.
  std::pair<int, std::string> Refusal(const v1::Query& query) {
    const v1::RunQueriesResponse response = Run({query});
    if (response.results_size() != 1) return {-1, "no result"};
    const v1::QueryResult& result = response.results(0);
    EXPECT_EQ(result.result_case(), v1::QueryResult::RESULT_NOT_SET);
    return {result.status().code(), result.status().message()};
  }

  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
};

TEST_F(VisibilityE2eTest, ViewersSeeTheTargetsTheRulesGive) {
  StartServer();
  v1::Query glass_ignored = Tick(2);
  glass_ignored.mutable_visibility()->mutable_filter()->set_mask_bits(1);
  const v1::RunQueriesResponse response = Run({Tick(1), glass_ignored});
  ASSERT_EQ(response.results_size(), 2);
  EXPECT_EQ(response.results(0).visibility().words_per_viewer(), 1);
  // A sees 1 (nothing between) and 2 (before the glass); the box hides 0
  // and 4, the glass the circle's centre, and the sight line to 5 touches
  // the glass's end (a segment blocks what touches it). B sees 0 (at its
  // own position) and 4 (at exactly its range); 5 is outside its cone.
  // C is inside the box and sees nothing.
  EXPECT_EQ(Words(response.results(0)),
            (std::vector<uint64_t>{0b000110, 0b010001, 0}));
  // With the glass out of the filter's mask A sees 3 and 5 too.
  EXPECT_EQ(Words(response.results(1)),
            (std::vector<uint64_t>{0b101110, 0b010001, 0}));
}

// From (3, 0) the wall x = 5, y in [-1, 1] hides the directions within
// atan(1 / 2) of +x: a disc at (8, 0) of radius 3 spans asin(3 / 5), more,
// and shows its edges; one of radius 1.5 spans less and stays hidden.
v1::Query Discs(uint64_t request_id, v1::TargetRule rule, double x) {
  v1::Query query;
  query.set_request_id(request_id);
  v1::VisibilityQuery* sight = query.mutable_visibility();
  sight->set_target_rule(rule);
  AddViewer(sight, x, 0);
  for (const double radius : {3.0, 1.5, 0.0}) {
    v1::Circle* circle = sight->add_targets()->mutable_circle();
    Set(circle->mutable_center(), 8, 0);
    circle->set_radius(radius);
  }
  AddPoint(sight, 8, 0);
  return query;
}

TEST_F(VisibilityE2eTest, AnyPartSeesADiscWhoseEdgesPeekPastAWall) {
  StartServer();
  const v1::RunQueriesResponse response =
      Run({Discs(1, v1::TARGET_RULE_ANY_PART, 3),
           Discs(2, v1::TARGET_RULE_CENTER, 3),
           Discs(3, v1::TARGET_RULE_ANY_PART, -3)});
  ASSERT_EQ(response.results_size(), 3);
  // Only the wide disc, and only by any part.
  EXPECT_EQ(Words(response.results(0)), std::vector<uint64_t>{0b0001});
  EXPECT_EQ(Words(response.results(1)), std::vector<uint64_t>{0b0000});
  // From (-3, 0) the box hides every part of every target.
  EXPECT_EQ(Words(response.results(2)), std::vector<uint64_t>{0b0000});
}

TEST_F(VisibilityE2eTest, EmptyListsAndManyTargetsFillTheRows) {
  StartServer();
  v1::Query none;
  none.mutable_visibility();
  v1::Query no_targets;
  AddViewer(no_targets.mutable_visibility(), 0, 5);
  // 70 targets on y = 5 from (-35, 5), all in the open above the box:
  // two words per viewer, the bits past target 69 clear.
  v1::Query wide;
  AddViewer(wide.mutable_visibility(), 0, 5);
  for (int j = 0; j < 70; ++j) AddPoint(wide.mutable_visibility(), j - 35, 5);
  const v1::RunQueriesResponse response = Run({none, no_targets, wide});
  ASSERT_EQ(response.results_size(), 3);
  EXPECT_TRUE(Words(response.results(0)).empty());
  EXPECT_EQ(response.results(1).visibility().words_per_viewer(), 0);
  EXPECT_TRUE(Words(response.results(1)).empty());
  EXPECT_EQ(response.results(2).visibility().words_per_viewer(), 2);
  EXPECT_EQ(Words(response.results(2)),
            (std::vector<uint64_t>{~uint64_t{0}, 0b111111}));
}

TEST_F(VisibilityE2eTest, TheStreamAnswersAsTheUnaryCall) {
  StartServer();
  const v1::RunQueriesResponse unary = Run({Tick(1), Polygon(2, -10, 0, 30)});
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  v1::StreamQueriesRequest request;
  request.set_level("levels/sight");
  request.set_batch_id(7);
  *request.add_queries() = Tick(1);
  *request.add_queries() = Polygon(2, -10, 0, 30);
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  v1::StreamQueriesResponse streamed;
  ASSERT_TRUE(stream->Read(&streamed));
  EXPECT_TRUE(stream->Finish().ok());
  ASSERT_EQ(streamed.results_size(), 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(testing::ProtoEqual(unary.results(i), streamed.results(i)));
  }
}

TEST_F(VisibilityE2eTest, APolygonInTheOpenIsItsRangeCircle) {
  StartServer();
  // Nothing within 20 of (0, 50): chords of the range circle only.
  const v1::RunQueriesResponse response = Run({Polygon(1, 0, 50, 20)});
  ASSERT_EQ(response.results(0).status().code(), 0)
      << response.results(0).status().message();
  const auto& vertices = response.results(0).visibility_polygon().vertices();
  // Chords of at most 0.2 rad: at least 2 pi / 0.2 of them.
  ASSERT_GE(vertices.size(), 32);
  double previous = -1.0;
  for (const v1::VisibilityPolygonVertex& vertex : vertices) {
    EXPECT_EQ(vertex.shape_id(), 0u);
    EXPECT_TRUE(vertex.kind() == v1::VISIBILITY_VERTEX_KIND_ARC ||
                vertex.kind() == v1::VISIBILITY_VERTEX_KIND_ARC_END)
        << vertex.kind();
    const double dx = vertex.point().x();
    const double dy = vertex.point().y() - 50;
    EXPECT_NEAR(std::hypot(dx, dy), 20, kVertexTolerance);
    // Counter-clockwise from +x.
    double angle = std::atan2(dy, dx);
    if (angle < 0) angle += 2 * M_PI;
    EXPECT_GT(angle, previous);
    previous = angle;
  }
  EXPECT_NEAR(vertices[0].point().x(), 20, kVertexTolerance);
}

TEST_F(VisibilityE2eTest, APolygonNamesTheShapesThatBoundIt) {
  StartServer();
  // From (10, 0) within 8: the wall x = 5 casts a shadow; its ends are
  // level vertices of shape 2, exactly.
  const v1::RunQueriesResponse response = Run({Polygon(1, 10, 0, 8)});
  ASSERT_EQ(response.results(0).status().code(), 0)
      << response.results(0).status().message();
  int wall_ends = 0;
  for (const v1::VisibilityPolygonVertex& vertex :
       response.results(0).visibility_polygon().vertices()) {
    if (vertex.kind() != v1::VISIBILITY_VERTEX_KIND_LEVEL_VERTEX) continue;
    EXPECT_EQ(vertex.shape_id(), 2u);
    EXPECT_EQ(vertex.point().x(), 5);
    EXPECT_EQ(std::abs(vertex.point().y()), 1);
    ++wall_ends;
  }
  EXPECT_EQ(wall_ends, 2);
  // Inside the box it sees nothing: an empty polygon.
  const v1::RunQueriesResponse inside = Run({Polygon(2, 0, 0, 8)});
  EXPECT_EQ(inside.results(0).status().code(), 0);
  EXPECT_TRUE(inside.results(0).has_visibility_polygon());
  EXPECT_EQ(inside.results(0).visibility_polygon().vertices_size(), 0);
}

TEST_F(VisibilityE2eTest, MetricsCountTheNewKinds) {
  StartServer();
  ServerMetrics& metrics = Metrics();
  const auto count = [&](v1::Query::QueryCase kind, QueryOutcome outcome) {
    return metrics
        .queries[static_cast<size_t>(kind)][static_cast<size_t>(outcome)]
        .value();
  };
  const uint64_t seen = count(v1::Query::kVisibility, QueryOutcome::kHit);
  const uint64_t bounded =
      count(v1::Query::kVisibilityPolygon, QueryOutcome::kHit);
  const uint64_t inside =
      count(v1::Query::kVisibilityPolygon, QueryOutcome::kStartOverlap);
  Run({Tick(1), Polygon(2, 10, 0, 8), Polygon(3, 0, 0, 8)});
  EXPECT_EQ(count(v1::Query::kVisibility, QueryOutcome::kHit), seen + 1);
  EXPECT_EQ(count(v1::Query::kVisibilityPolygon, QueryOutcome::kHit),
            bounded + 1);
  EXPECT_EQ(count(v1::Query::kVisibilityPolygon, QueryOutcome::kStartOverlap),
            inside + 1);
}

TEST_F(VisibilityE2eTest, BadValuesAreRefusedNamingTheField) {
  StartServer();
  const auto viewer_field = [](auto edit) {
    v1::Query query = Tick(1);
    edit(query.mutable_visibility()->mutable_viewers(1));
    return query;
  };
  const std::string b = "queries[0].visibility.viewers[1]";
  const std::vector<std::pair<v1::Query, std::string>> cases = {
      {viewer_field([](v1::Viewer* v) { v->mutable_position()->set_x(kNan); }),
       b + ".position.x must be finite"},
      {viewer_field([](v1::Viewer* v) { v->mutable_position()->set_y(kInf); }),
       b + ".position.y must be finite"},
      {viewer_field([](v1::Viewer* v) { v->set_range(-1); }),
       b + ".range must be >= 0, got -1"},
      {viewer_field([](v1::Viewer* v) { v->set_range(kInf); }),
       b + ".range must be finite"},
      {viewer_field([](v1::Viewer* v) {
         v->mutable_cone()->set_half_angle_radians(3.1415926535897936);
       }),
       b + ".cone.half_angle_radians must be in [0, pi] (pi: "
           "3.141592653589793), got 3.1415926535897936"},
      {viewer_field([](v1::Viewer* v) {
         v->mutable_cone()->set_half_angle_radians(-0.25);
       }),
       b + ".cone.half_angle_radians must be in [0, pi] (pi: "
           "3.141592653589793), got -0.25"},
      {viewer_field([](v1::Viewer* v) {
         v->mutable_cone()->set_half_angle_radians(kNan);
       }),
       b + ".cone.half_angle_radians must be in [0, pi] (pi: "
           "3.141592653589793), got nan"},
      {viewer_field([](v1::Viewer* v) {
         Set(v->mutable_cone()->mutable_direction(), 0, 0);
       }),
       b + ".cone.direction must not be (0, 0)"},
      {viewer_field([](v1::Viewer* v) {
         v->mutable_cone()->mutable_direction()->set_y(kNan);
       }),
       b + ".cone.direction.y must be finite"},
  };
  for (const auto& [query, message] : cases) {
    EXPECT_EQ(Refusal(query), std::make_pair(3, message));
  }
  v1::Query no_shape = Tick(1);
  no_shape.mutable_visibility()->mutable_targets(2)->clear_point();
  EXPECT_EQ(
      Refusal(no_shape),
      std::make_pair(3, std::string("queries[0].visibility.targets[2] "
                                    "has no shape: set point or circle")));
  v1::Query negative = Tick(1);
  negative.mutable_visibility()
      ->mutable_targets(3)
      ->mutable_circle()
      ->set_radius(-0.5);
  EXPECT_EQ(Refusal(negative),
            std::make_pair(3, std::string("queries[0].visibility.targets[3]."
                                          "circle.radius must be >= 0, got "
                                          "-0.5")));
  v1::Query unknown_rule = Tick(1);
  unknown_rule.mutable_visibility()->set_target_rule(
      static_cast<v1::TargetRule>(7));
  EXPECT_EQ(Refusal(unknown_rule),
            std::make_pair(3, std::string("queries[0].visibility.target_rule "
                                          "must be a TargetRule, got 7")));
  const std::vector<std::pair<v1::Query, std::string>> polygons = {
      {Polygon(1, kNan, 0, 5),
       "queries[0].visibility_polygon.viewer.x must be finite"},
      {Polygon(1, 0, 0, 0),
       "queries[0].visibility_polygon.range must be > 0, got 0"},
      {Polygon(1, 0, 0, -2),
       "queries[0].visibility_polygon.range must be > 0, got -2"},
      {Polygon(1, 0, 0, kInf),
       "queries[0].visibility_polygon.range must be finite"},
  };
  for (const auto& [query, message] : polygons) {
    EXPECT_EQ(Refusal(query), std::make_pair(3, message));
  }
  v1::Query arc = Polygon(1, 0, 0, 5);
  arc.mutable_visibility_polygon()->set_max_arc_angle_radians(2);
  EXPECT_EQ(Refusal(arc),
            std::make_pair(
                3, std::string("queries[0].visibility_polygon.max_arc_angle_"
                               "radians must be 0 or in [0.001, pi / 2] (pi / "
                               "2: 1.5707963267948966), got 2")));
}

TEST_F(VisibilityE2eTest, SizeLimitsAreResourceExhaustedAndCounted) {
  formats::InputLimits limits;
  limits.max_visibility_pairs = 12;
  limits.max_visibility_polygon_vertices = 8;
  limits.max_visibility_polygon_edges = 2;
  limits.max_visibility_disc_occluders = 1;
  StartServer(limits);
  ServerMetrics& metrics = Metrics();
  const auto over = [&](QueryLimit limit) {
    return metrics.queries_over_limit[static_cast<size_t>(limit)].value();
  };
  const uint64_t pairs = over(QueryLimit::kVisibilityPairs);
  const uint64_t vertices = over(QueryLimit::kVisibilityPolygonVertices);
  const uint64_t edges = over(QueryLimit::kVisibilityPolygonEdges);
  const uint64_t discs = over(QueryLimit::kVisibilityDiscOccluders);
  // 3 viewers x 6 targets.
  EXPECT_EQ(Refusal(Tick(1)),
            std::make_pair(8, std::string("queries[0].visibility holds 3 "
                                          "viewers x 6 targets = 18 pairs, "
                                          "more than max_visibility_pairs "
                                          "12")));
  // 13 viewers and no targets.
  v1::Query viewers;
  for (int i = 0; i < 13; ++i) AddViewer(viewers.mutable_visibility(), i, 9);
  EXPECT_EQ(Refusal(viewers).second,
            "queries[0].visibility holds 13 viewers x 0 targets = 13 pairs, "
            "more than max_visibility_pairs 12");
  // In the open the range circle alone needs more than 8 vertices.
  const auto [code, message] = Refusal(Polygon(2, 0, 50, 20));
  EXPECT_EQ(code, 8);
  EXPECT_TRUE(absl::StartsWith(message, "queries[0].visibility_polygon needs "))
      << message;
  EXPECT_TRUE(absl::EndsWith(message,
                             " vertices, more than "
                             "max_visibility_polygon_vertices 8 (a smaller "
                             "range needs fewer)"))
      << message;
  // From (0, 3) within 20 the box's four edges and both segments are in
  // range: more than 2 edges.
  const auto [edge_code, edge_message] = Refusal(Polygon(3, 0, 3, 20));
  EXPECT_EQ(edge_code, 8);
  EXPECT_TRUE(absl::StartsWith(edge_message,
                               "queries[0].visibility_polygon.range holds "))
      << edge_message;
  EXPECT_TRUE(absl::EndsWith(edge_message,
                             " occluder edges, more than "
                             "max_visibility_polygon_edges 2 (a smaller range "
                             "holds fewer)"))
      << edge_message;
  EXPECT_EQ(over(QueryLimit::kVisibilityPairs), pairs + 2);
  EXPECT_EQ(over(QueryLimit::kVisibilityPolygonVertices), vertices + 1);
  EXPECT_EQ(over(QueryLimit::kVisibilityPolygonEdges), edges + 1);
  // From (-3, 0) the box and the wall lie around the wide disc; the centre
  // rule never counts them.
  EXPECT_EQ(Refusal(Discs(4, v1::TARGET_RULE_ANY_PART, -3)),
            std::make_pair(8, std::string("queries[0].visibility.targets[0] "
                                          "has 2 occluders around it and "
                                          "viewers[0], more than "
                                          "max_visibility_disc_occluders 1 "
                                          "(TARGET_RULE_CENTER needs no such "
                                          "count)")));
  EXPECT_EQ(Words(Run({Discs(5, v1::TARGET_RULE_CENTER, -3)}).results(0)),
            std::vector<uint64_t>{0});
  EXPECT_EQ(over(QueryLimit::kVisibilityDiscOccluders), discs + 1);
}

}  // namespace
}  // namespace collide::server
