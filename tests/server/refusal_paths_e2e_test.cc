// Every refusal names a field the refused request has: the inputs of the
// fuzz corpora (tests/fuzz/corpus, tests/fuzz/regressions) and the bad
// inputs of the service's bad-input tests go through a real server, and
// each refusal (a call's status, a query's own status) must start with a
// field path that resolves in the request, name only list entries the
// request holds, and repeat no word (tests/support/field_path_check.h).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "proto/formats/level_file.h"
#include "server/collide_server.h"
#include "tests/support/field_path_check.h"

namespace collide::server {
namespace {

using testing::Deadline;
using testing::Set;

constexpr int kMaxBatch = 8;

class RefusalPathsE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerOptions options = testing::TestOptions();
    options.limits.max_batch_size = kMaxBatch;
    options.limits.max_vertices = 16;
    options.limits.max_level_shapes = 20;
    options.limits.max_shot_targets = 2;
    options.limits.max_slide_iterations = 4;
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    collisions_ =
        v1::CollisionService::NewStub(testing::Connect(server_->port()));
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
  }

  // Checks a refusal of `request` (nothing for an OK status).
  void Check(const google::protobuf::Message& request, int code,
             const std::string& message) {
    if (code == 0) return;
    ++refusals_;
    EXPECT_EQ(collide::testing::RefusalProblem(request, message), "")
        << request.GetDescriptor()->name() << " refused with code " << code;
  }

  // Runs `request` and checks the call's refusal or each query's.
  void Run(const v1::RunQueriesRequest& request) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::RunQueriesResponse response;
    const grpc::Status status =
        collisions_->RunQueries(&context, request, &response);
    Check(request, status.error_code(), status.error_message());
    for (const v1::QueryResult& result : response.results()) {
      Check(request, result.status().code(), result.status().message());
    }
  }

  void Put(const v1::PutLevelRequest& request) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::PutLevelResponse response;
    const grpc::Status status = levels_->PutLevel(&context, request, &response);
    Check(request, status.error_code(), status.error_message());
  }

  void Put(const std::string& name, const v1::Level& content) {
    v1::PutLevelRequest request;
    request.set_level(name);
    *request.mutable_content() = content;
    Put(request);
  }

  void Patch(const v1::PatchLevelRequest& request) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::PatchLevelResponse response;
    const grpc::Status status =
        levels_->PatchLevel(&context, request, &response);
    Check(request, status.error_code(), status.error_message());
  }

  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
  int refusals_ = 0;
};

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename() != "README.md") {
      files.push_back(entry.path().string());
    }
  }
  return files;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

// A bow tie: edges 0 and 2 cross at (1, 1), and its lobes cancel to zero
// area.
void AddBowTie(v1::Polygon* polygon) {
  for (const auto& [x, y] :
       {std::pair{0.0, 0.0}, {2.0, 2.0}, {2.0, 0.0}, {0.0, 2.0}}) {
    Set(polygon->add_vertices(), x, y);
  }
}

TEST_F(RefusalPathsE2eTest, FuzzCorporaRefusalsNameTheirFields) {
  // query_batch inputs: a 2-byte length, a Level, a RunQueriesRequest.
  for (const char* dir : {COLLIDE_FUZZ_DIR "/corpus/query_batch",
                          COLLIDE_FUZZ_DIR "/regressions/query_batch"}) {
    for (const std::string& path : FilesIn(dir)) {
      SCOPED_TRACE(path);
      const std::string bytes = ReadBytes(path);
      if (bytes.size() < 2) continue;
      const size_t level_size = std::min<size_t>(
          bytes.size() - 2,
          static_cast<uint8_t>(bytes[0]) |
              (static_cast<size_t>(static_cast<uint8_t>(bytes[1])) << 8));
      v1::Level level;
      v1::RunQueriesRequest batch;
      if (!level.ParseFromArray(bytes.data() + 2,
                                static_cast<int>(level_size)) ||
          !batch.ParseFromArray(
              bytes.data() + 2 + level_size,
              static_cast<int>(bytes.size() - 2 - level_size))) {
        continue;
      }
      level.clear_id();
      Put("levels/fuzz", level);
      batch.set_level("levels/fuzz");
      Run(batch);
    }
  }
  // level_decode inputs: a byte choosing the decoder, then the file.
  for (const char* dir : {COLLIDE_FUZZ_DIR "/corpus/level_decode",
                          COLLIDE_FUZZ_DIR "/regressions/level_decode"}) {
    for (const std::string& path : FilesIn(dir)) {
      SCOPED_TRACE(path);
      const std::string bytes = ReadBytes(path);
      if (bytes.empty()) continue;
      const absl::string_view contents = absl::string_view(bytes).substr(1);
      const uint8_t selector = static_cast<uint8_t>(bytes[0]) % 5;
      const formats::LevelFileFormat format =
          selector == 0   ? formats::LevelFileFormat::kBinary
          : selector == 1 ? formats::LevelFileFormat::kJson
          : selector == 4 ? formats::DetectLevelFileFormat("f.json", contents)
                          : formats::LevelFileFormat::kTiledJson;
      absl::StatusOr<v1::Level> level =
          formats::ParseLevel(contents, format, "fuzz");
      if (!level.ok()) continue;
      level->clear_id();
      Put("levels/decoded", *level);
    }
  }
}

// The bad queries of bad_input_e2e_test and query_handler_validation_test,
// and values just outside their limits.
TEST_F(RefusalPathsE2eTest, BadQueriesNameTheirFields) {
  const std::vector<std::function<void(v1::Query*)>> bad = {
      [](v1::Query* q) {
        q->mutable_ray_cast()->mutable_origin()->set_x(std::nan(""));
      },
      [](v1::Query* q) {
        q->mutable_ray_cast()->mutable_translation()->set_y(INFINITY);
      },
      [](v1::Query* q) {
        q->mutable_ray_cast()->mutable_origin()->set_x(
            std::nextafter(1e60, INFINITY));
      },
      [](v1::Query* q) {
        q->mutable_ray_cast()->mutable_translation()->set_x(1e-200);
      },
      [](v1::Query* q) {
        q->mutable_ray_cast()->mutable_options()->set_max_fraction(
            std::nextafter(1.0, 2.0));
      },
      [](v1::Query* q) {
        q->mutable_circle_cast()->mutable_circle()->set_radius(-1);
      },
      [](v1::Query* q) {
        v1::Polygon* p = q->mutable_polygon_cast()->mutable_polygon();
        for (const auto& [x, y] : {std::pair{0.0, 0.0},
                                   {2.0, 0.0},
                                   {1.0, 0.5},
                                   {2.0, 2.0},
                                   {0.0, 2.0}}) {
          Set(p->add_vertices(), x, y);
        }
      },
      [](v1::Query* q) {
        AddBowTie(q->mutable_polygon_cast()->mutable_polygon());
      },
      [](v1::Query* q) {
        v1::Polygon* p = q->mutable_overlap()->mutable_polygon();
        for (int k = 0; k < 9; ++k) {
          Set(p->add_vertices(), std::cos(k * 0.69), std::sin(k * 0.69));
        }
      },
      [](v1::Query* q) { q->clear_ray_cast(); },
      [](v1::Query* q) { q->mutable_move_validation(); },
      [](v1::Query* q) {
        q->mutable_move_validation()->mutable_circle()->set_radius(-1);
      },
      [](v1::Query* q) {
        q->mutable_move_validation()->mutable_circle();
        q->mutable_move_validation()->set_max_slide_iterations(5);
      },
      [](v1::Query* q) {
        q->mutable_move_validation()->mutable_circle();
        q->mutable_move_validation()->set_skin(std::nan(""));
      },
      [](v1::Query* q) { q->mutable_hit_validation()->set_radius(-0.5); },
      [](v1::Query* q) {
        for (int k = 0; k < 3; ++k) {
          q->mutable_hit_validation()->add_targets()->mutable_circle();
        }
      },
      [](v1::Query* q) {
        q->mutable_hit_validation()->add_targets()->mutable_circle();
        q->mutable_hit_validation()->add_targets();
      },
      [](v1::Query* q) { q->mutable_pair_toi(); },
      [](v1::Query* q) {
        q->mutable_pair_toi()->mutable_a()->mutable_point();
        q->mutable_pair_toi()->mutable_b()->mutable_capsule()->set_radius(-1);
      },
      [](v1::Query* q) {
        q->mutable_visibility()->add_viewers()->mutable_position()->set_x(
            std::nan(""));
      },
      [](v1::Query* q) {
        q->mutable_visibility()->add_viewers();
        q->mutable_visibility()->add_viewers()->mutable_cone();
      },
      [](v1::Query* q) {
        q->mutable_visibility()->add_viewers();
        q->mutable_visibility()->add_targets();
      },
      [](v1::Query* q) {
        q->mutable_visibility()->set_target_rule(
            static_cast<v1::TargetRule>(7));
      },
      [](v1::Query* q) { q->mutable_visibility_polygon()->set_range(-1); },
  };
  // Each bad query at index 1 of a batch, after a good one: one refusal.
  for (size_t i = 0; i < bad.size(); ++i) {
    v1::RunQueriesRequest request;
    request.set_level("levels/arena");
    *request.add_queries() = testing::RayAlongX(1, 0);
    *request.add_queries() = testing::RayAlongX(2, 0);
    bad[i](request.mutable_queries(1));
    const int before = refusals_;
    Run(request);
    EXPECT_EQ(refusals_, before + 1) << "bad query " << i;
  }
  // Batches refused whole.
  for (const char* name :
       {"levels/nope", "nope", "levels/", "levels/a/b", "levels/../x", ""}) {
    v1::RunQueriesRequest request;
    request.set_level(name);
    *request.add_queries() = testing::RayAlongX(1, 0);
    Run(request);
  }
  v1::RunQueriesRequest empty;
  empty.set_level("levels/arena");
  Run(empty);
  v1::RunQueriesRequest large = empty;
  for (int i = 0; i <= kMaxBatch; ++i) {
    *large.add_queries() = testing::RayAlongX(i, 0);
  }
  Run(large);
  EXPECT_EQ(refusals_, static_cast<int>(bad.size()) + 8);
}

// The bad levels of bad_input_e2e_test and hostile_level_e2e_test.
TEST_F(RefusalPathsE2eTest, BadLevelsNameTheirFields) {
  const std::vector<std::function<void(v1::Level*)>> bad = {
      [](v1::Level* l) {
        l->mutable_shapes(0)->mutable_segment()->mutable_p2()->set_y(
            std::nan(""));
      },
      [](v1::Level* l) { *l->add_shapes() = l->shapes(0); },
      [](v1::Level* l) { l->mutable_shapes(0)->clear_segment(); },
      [](v1::Level* l) {
        v1::Shape* s = l->add_shapes();
        s->set_id(2);
        s->mutable_circle()->set_radius(-2);
      },
      [](v1::Level* l) {
        for (int i = 2; i <= 21; ++i) {
          v1::Shape* s = l->add_shapes();
          *s = l->shapes(0);
          s->set_id(static_cast<uint64_t>(i));
        }
      },
      [](v1::Level* l) {
        v1::Shape* s = l->add_shapes();
        s->set_id(2);
        for (int k = 0; k < 17; ++k) {
          Set(s->mutable_polyline()->add_vertices(), k, 0);
        }
      },
      [](v1::Level* l) {
        v1::Shape* s = l->add_shapes();
        s->set_id(2);
        AddBowTie(s->mutable_polygon());
      },
      [](v1::Level* l) {
        v1::Shape* s = l->add_shapes();
        s->set_id(2);
        Set(s->mutable_box()->mutable_half_extents(), -1, 1);
      },
      [](v1::Level* l) { l->set_cell_size(std::nan("")); },
      [](v1::Level* l) { l->set_cell_size(1e-4); },
      [](v1::Level* l) { l->set_id("other"); },
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    v1::Level level = testing::WallLevel("", 7, 2);
    bad[i](&level);
    const int before = refusals_;
    Put("levels/wall", level);
    EXPECT_EQ(refusals_, before + 1) << "bad level " << i;
  }
  Put("walls", testing::WallLevel("", 7, 2));
  v1::PutLevelRequest no_content;
  no_content.set_level("levels/wall");
  Put(no_content);
  EXPECT_EQ(refusals_, static_cast<int>(bad.size()) + 2);
}

// The bad patches of patch_e2e_test, and a bow tie among several upserts.
TEST_F(RefusalPathsE2eTest, BadPatchesNameTheirFields) {
  v1::PutLevelRequest put;
  put.set_level("levels/doors");
  *put.mutable_content() = testing::WallLevel("", 30, 1);
  Put(put);
  ASSERT_EQ(refusals_, 0);
  const auto patch = [](std::function<void(v1::PatchLevelRequest*)> make) {
    v1::PatchLevelRequest request;
    request.set_level("levels/doors");
    for (uint64_t id = 200; id < 202; ++id) {
      v1::Shape* shape = request.add_upserts();
      *shape = testing::WallLevel("", 31, 0).shapes(0);
      shape->set_id(id);
    }
    make(&request);
    return request;
  };
  const std::vector<v1::PatchLevelRequest> bad = {
      patch([](v1::PatchLevelRequest* r) {
        v1::Shape* s = r->add_upserts();
        s->set_id(300);
        AddBowTie(s->mutable_polygon());
      }),
      patch([](v1::PatchLevelRequest* r) {
        v1::Shape* s = r->add_upserts();
        s->set_id(300);
        Set(s->mutable_polygon()->add_vertices(), 0, 0);
      }),
      patch(
          [](v1::PatchLevelRequest* r) { r->mutable_upserts(1)->set_id(200); }),
      patch([](v1::PatchLevelRequest* r) { r->add_remove_ids(4242); }),
      patch([](v1::PatchLevelRequest* r) { r->add_remove_ids(200); }),
      patch([](v1::PatchLevelRequest* r) {
        r->add_remove_ids(1);
        r->add_remove_ids(1);
      }),
      patch([](v1::PatchLevelRequest* r) {
        r->mutable_upserts(0)->mutable_circle()->set_radius(
            std::nextafter(0.0, -1.0));
      }),
      patch([](v1::PatchLevelRequest* r) { r->set_level("levels/nowhere"); }),
      patch([](v1::PatchLevelRequest* r) { r->set_level("doors"); }),
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const int before = refusals_;
    Patch(bad[i]);
    EXPECT_EQ(refusals_, before + 1) << "bad patch " << i;
  }
  EXPECT_EQ(refusals_, static_cast<int>(bad.size()));
}

}  // namespace
}  // namespace collide::server
