// Helpers shared by the end-to-end tests: a CollideServer started
// in-process on an ephemeral loopback port, stubs on a channel to it, and
// message builders. Loopback only; every call has a deadline.
#ifndef COLLIDE_TESTS_SERVER_E2E_HELPERS_H_
#define COLLIDE_TESTS_SERVER_E2E_HELPERS_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"
#include "tests/support/temp_dir.h"

namespace collide::server::testing {

// Generous for a loaded 2-core machine; a hang fails instead of stalling.
inline std::chrono::system_clock::time_point Deadline(int seconds = 20) {
  return std::chrono::system_clock::now() + std::chrono::seconds(seconds);
}

inline void Set(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

// Options for a test server: loopback, ephemeral ports, a short grace.
inline ServerOptions TestOptions() {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  // Level changes on an admin listener of its own (admin_port()).
  options.admin_listen = "127.0.0.1:0";
  options.shutdown_grace = absl::Seconds(5);
  return options;
}

using collide::testing::TempDir;

inline std::shared_ptr<grpc::Channel> Connect(int port) {
  return grpc::CreateChannel(absl::StrCat("127.0.0.1:", port),
                             grpc::InsecureChannelCredentials());
}

// Field-by-field equality, doubles compared exactly; the difference, if
// any, in the failure message.
inline ::testing::AssertionResult ProtoEqual(
    const google::protobuf::Message& expected,
    const google::protobuf::Message& actual) {
  google::protobuf::util::MessageDifferencer differencer;
  std::string report;
  differencer.ReportDifferencesToString(&report);
  if (differencer.Compare(expected, actual)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << report;
}

// PutLevel through the API; returns the status and fills *response.
inline grpc::Status PutLevel(v1::LevelService::Stub& stub,
                             const v1::Level& level,
                             v1::PutLevelResponse* response) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::PutLevelRequest request;
  request.set_level(absl::StrCat("levels/", level.id()));
  *request.mutable_content() = level;
  return stub.PutLevel(&context, request, response);
}

inline grpc::Status Describe(v1::LevelService::Stub& stub,
                             const std::string& name,
                             v1::DescribeLevelResponse* response) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::DescribeLevelRequest request;
  request.set_level(name);
  return stub.DescribeLevel(&context, request, response);
}

inline grpc::Status RunQueries(v1::CollisionService::Stub& stub,
                               const v1::RunQueriesRequest& request,
                               v1::RunQueriesResponse* response) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  return stub.RunQueries(&context, request, response);
}

// A one-segment level: a wall x = wall_x, y in [-100, 100], shape id 1,
// user_data = tag (so a result tells which content it was computed on).
inline v1::Level WallLevel(const std::string& id, double wall_x, uint64_t tag) {
  v1::Level level;
  level.set_id(id);
  v1::Shape* shape = level.add_shapes();
  shape->set_id(1);
  shape->set_user_data(tag);
  Set(shape->mutable_segment()->mutable_p1(), wall_x, -100);
  Set(shape->mutable_segment()->mutable_p2(), wall_x, 100);
  return level;
}

// A ray from (0, y) along +x, 1000 long.
inline v1::Query RayAlongX(uint64_t request_id, double y) {
  v1::Query query;
  query.set_request_id(request_id);
  Set(query.mutable_ray_cast()->mutable_origin(), 0, y);
  Set(query.mutable_ray_cast()->mutable_translation(), 1000, 0);
  return query;
}

}  // namespace collide::server::testing

#endif  // COLLIDE_TESTS_SERVER_E2E_HELPERS_H_
