// The six known-answer queries every collide client package checks, and a
// fog-of-war tick (which targets each of two viewers sees), through an
// installed collide: the client library (collide::client) against a real
// server, and one of them again with the geometry core (collide::geometry)
// in process, which must give the same answer. C++17, as a consumer may
// be: no designated initializers.
//
//   known_answers --address=HOST:PORT [--admin_address=HOST:PORT]
//       [--admin_token_file=F] [--tls_ca_file=F --tls_cert_file=F
//       --tls_key_file=F]
//
// Exit status: 0 every answer matches; 1 a call failed or an answer
// differs; 2 a bad command line.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "client/lib/visibility_builders.h"
#include "collide/toi.h"

namespace {

namespace v1 = collide::v1;
using collide::Vec2;

v1::Shape Segment(uint64_t id, Vec2 p1, Vec2 p2) {
  v1::Shape shape;
  shape.set_id(id);
  *shape.mutable_segment()->mutable_p1() = collide::client::ToProto(p1);
  *shape.mutable_segment()->mutable_p2() = collide::client::ToProto(p2);
  return shape;
}

v1::Level ExampleLevel() {
  v1::Level level;
  *level.add_shapes() = Segment(1, {10, -5}, {10, 5});
  v1::Shape* pillar = level.add_shapes();
  pillar->set_id(2);
  *pillar->mutable_circle()->mutable_center() =
      collide::client::ToProto({0, 20});
  pillar->mutable_circle()->set_radius(2);
  v1::Shape* crate = level.add_shapes();
  crate->set_id(3);
  *crate->mutable_box()->mutable_center() = collide::client::ToProto({-10, 0});
  *crate->mutable_box()->mutable_half_extents() =
      collide::client::ToProto({1, 1});
  return level;
}

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9; }

int failures = 0;

void Expect(bool ok, const std::string& name, const std::string& what) {
  std::printf("  %-8s %s\n", ok ? "ok" : "MISMATCH", name.c_str());
  if (!ok) {
    std::fprintf(stderr, "known_answers: %s: %s\n", name.c_str(), what.c_str());
    ++failures;
  }
}

void ExpectHit(const v1::QueryResult& result, const std::string& name,
               double fraction, Vec2 point, uint64_t shape_id) {
  const bool ok = result.status().code() == 0 &&
                  result.cast().hits_size() == 1 &&
                  Near(result.cast().hits(0).fraction(), fraction) &&
                  Near(result.cast().hits(0).point().x(), point.x) &&
                  Near(result.cast().hits(0).point().y(), point.y) &&
                  result.cast().hits(0).shape_id() == shape_id;
  Expect(ok, name, result.ShortDebugString());
}

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> flags = {
      {"address", "127.0.0.1:50051"}, {"admin_address", "127.0.0.1:50052"},
      {"admin_token_file", ""},       {"tls_ca_file", ""},
      {"tls_cert_file", ""},          {"tls_key_file", ""}};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t equals = arg.find('=');
    if (arg.rfind("--", 0) != 0 || equals == std::string::npos ||
        flags.count(arg.substr(2, equals - 2)) == 0) {
      std::fprintf(stderr, "known_answers: unknown argument %s\n", argv[i]);
      return 2;
    }
    flags[arg.substr(2, equals - 2)] = arg.substr(equals + 1);
  }

  collide::client::ClientOptions options;
  options.target = flags["address"];
  options.admin_target = flags["admin_address"];
  options.tls = !flags["tls_ca_file"].empty();
  options.tls_ca_file = flags["tls_ca_file"];
  options.tls_cert_file = flags["tls_cert_file"];
  options.tls_key_file = flags["tls_key_file"];
  if (!flags["admin_token_file"].empty()) {
    options.admin_token = ReadFirstLine(flags["admin_token_file"]);
  }
  auto client = collide::client::CollideClient::Connect(options);
  if (!client.ok()) {
    std::fprintf(stderr, "known_answers: %s\n",
                 client.status().ToString().c_str());
    return 1;
  }
  const std::string level = "known-answers-cpp";
  if (auto put = (*client)->PutLevel(level, ExampleLevel()); !put.ok()) {
    std::fprintf(stderr, "known_answers: PutLevel: %s\n",
                 put.status().ToString().c_str());
    return 1;
  }

  namespace q = collide::client;
  const std::vector<Vec2> triangle = {{-1, 0}, {0, -1}, {0, 1}};
  const std::vector<v1::Query> queries = {
      q::WithRequestId(q::RayCast({0, 0}, {20, 0}), 1),
      q::WithRequestId(q::CircleCast({0, 0}, 1, {0, 20}), 2),
      q::WithRequestId(q::PolygonCast(triangle, {-20, 0}), 3),
      q::WithRequestId(q::OverlapCircle({5, 0}, 15), 4),
      q::WithRequestId(q::ClosestPoint({0, 25}, 10), 5),
      q::WithRequestId(q::RayCast({0, 0}, {0, -20}), 6)};
  auto response = (*client)->RunQueries(level, queries);
  // The fog-of-war tick: a viewer at the origin sees all round at any
  // distance, one at (15, 0) within 6.
  q::ViewerOptions near;
  near.range = 6;
  const std::vector<v1::Viewer> viewers = {q::Viewer({0, 0}),
                                           q::Viewer({15, 0}, near)};
  const std::vector<v1::VisibilityTarget> targets = {
      q::PointTarget({20, 0}), q::PointTarget({0, 30}),
      q::PointTarget({0, -10}), q::DiscTarget({-20, 0}, 0.5)};
  auto tick = (*client)->RunQuery(level, q::Visibility(viewers, targets));
  (void)(*client)->DeleteLevel(level);
  if (!tick.ok()) {
    std::fprintf(stderr, "known_answers: visibility: %s\n",
                 tick.status().ToString().c_str());
    return 1;
  }
  if (!response.ok() || response->results_size() != 6) {
    std::fprintf(stderr, "known_answers: RunQueries: %s\n",
                 response.ok() ? "wrong number of results"
                               : response.status().ToString().c_str());
    return 1;
  }
  const auto& r = response->results();
  ExpectHit(r[0], "ray hits the wall", 0.5, {10, 0}, 1);
  ExpectHit(r[1], "circle hits the pillar", 0.85, {0, 18}, 2);
  ExpectHit(r[2], "triangle hits the crate", 0.4, {-9, 0}, 3);
  Expect(r[3].overlap().shapes_size() == 2 &&
             r[3].overlap().shapes(0).shape_id() == 1 &&
             r[3].overlap().shapes(1).shape_id() == 3,
         "disc overlaps wall and crate", r[3].ShortDebugString());
  Expect(r[4].closest_point().found() &&
             Near(r[4].closest_point().distance(), 3) &&
             r[4].closest_point().shape_id() == 2,
         "closest point on the pillar", r[4].ShortDebugString());
  Expect(r[5].status().code() == 0 && r[5].cast().hits_size() == 0,
         "ray misses", r[5].ShortDebugString());

  // The origin sees only (0, -10): the wall hides (20, 0), the pillar
  // (0, 30), the crate (-20, 0). (15, 0) sees (20, 0), 5 away; the rest
  // are farther than 6.
  const std::vector<std::vector<int>> seen = q::VisibleSets(tick->visibility());
  Expect(seen == std::vector<std::vector<int>>{{2}, {0}},
         "fog of war: each viewer's targets", tick->ShortDebugString());

  // The geometry core in process: the same ray against the same wall.
  const auto local = collide::CastRay(collide::RayInput{{0, 0}, {20, 0}},
                                      collide::Segment{{10, -5}, {10, 5}});
  Expect(local.has_value() && local->fraction == r[0].cast().hits(0).fraction(),
         "geometry core agrees with the server", "local ray cast differs");

  if (failures != 0) return 1;
  std::printf("all known answers match\n");
  return 0;
}
