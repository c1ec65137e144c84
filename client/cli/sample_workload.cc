// collide_sample_workload: a short workload against a running collide_server,
// the way a game server would use it: describe the level, then send one
// tick's worth of casts (bullets, a player's move, a vehicle, a spawn check,
// a move claim and a lag-compensated shot to validate) as a batch through the
// bidirectional stream and print what each hit. Exits 0 when every call
// succeeded and every query was answered.
//
// Usage: collide_sample_workload [--address=127.0.0.1:50051]
//        [--level=levels/arena]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/tool_command_line.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051",
          "Server address, host:port.");
ABSL_FLAG(std::string, level, "levels/arena", "Level to query.");

namespace {

namespace v1 = collide::v1;

void Set(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

std::chrono::system_clock::time_point Deadline() {
  return std::chrono::system_clock::now() + std::chrono::seconds(5);
}

// The batch: one query of each kind, ids 1.., and what each one is.
struct Sample {
  const char* what;
  v1::Query query;
};

std::vector<Sample> MakeBatch() {
  std::vector<Sample> batch;
  auto add = [&batch](const char* what) -> v1::Query& {
    batch.push_back({what, v1::Query()});
    v1::Query& query = batch.back().query;
    query.set_request_id(batch.size());
    return query;
  };
  {
    v1::RayCastQuery* ray = add("bullet (0,0) -> (30,0)").mutable_ray_cast();
    Set(ray->mutable_origin(), 0, 0);
    Set(ray->mutable_translation(), 30, 0);
  }
  {
    v1::RayCastQuery* ray =
        add("bullet (0,0) -> (0,30), all hits").mutable_ray_cast();
    Set(ray->mutable_origin(), 0, 0);
    Set(ray->mutable_translation(), 0, 30);
    ray->mutable_options()->set_mode(v1::CAST_MODE_ALL);
  }
  {
    v1::RayCastQuery* ray =
        add("bullet (12,-5) -> (25,-5) through glass").mutable_ray_cast();
    Set(ray->mutable_origin(), 12, -5);
    Set(ray->mutable_translation(), 13, 0);
    ray->mutable_options()->mutable_filter()->set_mask_bits(1);
  }
  {
    v1::CircleCastQuery* move =
        add("player r=0.5 (0,5) -> (10,5), skin 0.01").mutable_circle_cast();
    move->mutable_circle()->set_radius(0.5);
    Set(move->mutable_circle()->mutable_center(), 0, 5);
    Set(move->mutable_translation(), 10, 0);
    move->mutable_options()->set_target_distance(0.01);
  }
  {
    v1::CapsuleCastQuery* move =
        add("capsule (-3,-6)..(-3,-4) r=0.4 -> (+30,0)").mutable_capsule_cast();
    Set(move->mutable_capsule()->mutable_p1(), -3, -6);
    Set(move->mutable_capsule()->mutable_p2(), -3, -4);
    move->mutable_capsule()->set_radius(0.4);
    Set(move->mutable_translation(), 30, 0);
  }
  {
    v1::PolygonCastQuery* move =
        add("crate 1x1 at (-5,-10) -> (-5,-20)").mutable_polygon_cast();
    for (const auto& [x, y] :
         {std::pair{-5.5, -10.5}, {-4.5, -10.5}, {-4.5, -9.5}, {-5.5, -9.5}}) {
      Set(move->mutable_polygon()->add_vertices(), x, y);
    }
    Set(move->mutable_translation(), 0, -10);
  }
  {
    v1::OverlapQuery* spawn = add("spawn check r=2 at (5,6)").mutable_overlap();
    spawn->mutable_circle()->set_radius(2);
    Set(spawn->mutable_circle()->mutable_center(), 5, 6);
  }
  {
    v1::ClosestPointQuery* near =
        add("closest point to (8,3)").mutable_closest_point();
    Set(near->mutable_point(), 8, 3);
  }
  {
    v1::MoveValidationQuery* claim =
        add("claim r=0.5 (0,5) -> (10,7), slide").mutable_move_validation();
    claim->mutable_circle()->set_radius(0.5);
    Set(claim->mutable_circle()->mutable_center(), 0, 5);
    Set(claim->mutable_translation(), 10, 2);
    claim->set_skin(0.01);
    claim->set_max_slide_iterations(4);
  }
  {
    // A target crossing the line of fire as the bullet passes x = 8.
    v1::HitValidationQuery* shot =
        add("shot (0,0) -> (30,0), target crossing").mutable_hit_validation();
    Set(shot->mutable_origin(), 0, 0);
    Set(shot->mutable_translation(), 30, 0);
    v1::ShotTarget* target = shot->add_targets();
    target->set_id(7);
    Set(target->mutable_circle()->mutable_center(), 8, -1.6);
    target->mutable_circle()->set_radius(0.5);
    Set(target->mutable_translation(), 0, 6);
  }
  return batch;
}

void PrintResult(const Sample& sample, const v1::QueryResult& result) {
  std::printf("  #%llu %-42s ",
              static_cast<unsigned long long>(result.request_id()),
              sample.what);
  if (result.status().code() != 0) {
    std::printf("error %d: %s\n", result.status().code(),
                result.status().message().c_str());
    return;
  }
  switch (result.result_case()) {
    case v1::QueryResult::kCast: {
      if (result.cast().hits().empty()) {
        std::printf("miss\n");
        break;
      }
      const char* sep = "";
      for (const v1::CastHit& hit : result.cast().hits()) {
        std::printf(
            "%shit shape %llu at fraction %.4f, point (%.3f, %.3f), "
            "normal (%.3f, %.3f)",
            sep, static_cast<unsigned long long>(hit.shape_id()),
            hit.fraction(), hit.point().x(), hit.point().y(), hit.normal().x(),
            hit.normal().y());
        // Further hits of an all-hits cast line up under the first.
        sep = "\n                                                   then ";
      }
      std::printf("\n");
      break;
    }
    case v1::QueryResult::kOverlap: {
      std::printf("overlaps %d shape(s):", result.overlap().shapes_size());
      for (const v1::ShapeRef& shape : result.overlap().shapes()) {
        std::printf(" %llu", static_cast<unsigned long long>(shape.shape_id()));
      }
      std::printf("\n");
      break;
    }
    case v1::QueryResult::kClosestPoint: {
      const v1::ClosestPointResult& closest = result.closest_point();
      if (!closest.found()) {
        std::printf("nothing in range\n");
      } else {
        std::printf("shape %llu at (%.3f, %.3f), distance %.4f\n",
                    static_cast<unsigned long long>(closest.shape_id()),
                    closest.point().x(), closest.point().y(),
                    closest.distance());
      }
      break;
    }
    case v1::QueryResult::kMoveValidation: {
      const v1::MoveValidationResult& move = result.move_validation();
      std::printf("%s, safe at fraction %.4f",
                  v1::MoveVerdict_Name(move.verdict()).c_str(),
                  move.safe_fraction());
      if (move.has_slide()) {
        std::printf(", slides to +(%.3f, %.3f) touching %d plane(s)",
                    move.slide().translation().x(),
                    move.slide().translation().y(),
                    move.slide().contacts_size());
      }
      std::printf("\n");
      break;
    }
    case v1::QueryResult::kHitValidation: {
      const v1::HitValidationResult& shot = result.hit_validation();
      std::printf("%s", v1::ShotOutcome_Name(shot.outcome()).c_str());
      if (shot.outcome() != v1::SHOT_OUTCOME_MISS) {
        std::printf(" %llu at fraction %.4f, point (%.3f, %.3f)",
                    static_cast<unsigned long long>(shot.id()), shot.fraction(),
                    shot.point().x(), shot.point().y());
      }
      std::printf("\n");
      break;
    }
    case v1::QueryResult::kPairToi:
      std::printf(
          result.pair_toi().hit() ? "meet at fraction %.4f\n" : "never meet\n",
          result.pair_toi().fraction());
      break;
    case v1::QueryResult::kVisibility: {
      // One row of words per viewer: the count of set bits is the number
      // of targets that viewer sees.
      const v1::VisibilityResult& sight = result.visibility();
      const int per_viewer = sight.words_per_viewer();
      std::printf("targets seen per viewer:");
      for (int start = 0; per_viewer > 0 && start < sight.visible_words_size();
           start += per_viewer) {
        int seen = 0;
        for (int w = start;
             w < start + per_viewer && w < sight.visible_words_size(); ++w) {
          seen += __builtin_popcountll(sight.visible_words(w));
        }
        std::printf(" %d", seen);
      }
      std::printf("\n");
      break;
    }
    case v1::QueryResult::kVisibilityPolygon:
      std::printf("visibility polygon of %d vertices\n",
                  result.visibility_polygon().vertices_size());
      break;
    case v1::QueryResult::RESULT_NOT_SET:
      std::printf("no result\n");
      break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "A short game-server workload against a running collide_server: "
      "describe the level, send one tick's queries through the stream, "
      "print what they hit.\n"
      "  collide_sample_workload [--address=127.0.0.1:50051] "
      "[--level=levels/arena]",
      __FILE__, "collide_sample_workload");
  const std::string target = absl::GetFlag(FLAGS_address);
  const std::string level = absl::GetFlag(FLAGS_level);
  const auto channel =
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials());

  // 1. What level is served.
  {
    const auto levels = v1::LevelService::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::DescribeLevelRequest request;
    request.set_level(level);
    v1::DescribeLevelResponse response;
    const grpc::Status status =
        levels->DescribeLevel(&context, request, &response);
    if (!status.ok()) {
      std::fprintf(stderr, "DescribeLevel %s: %s\n", level.c_str(),
                   status.error_message().c_str());
      return 1;
    }
    const v1::LevelSummary& summary = response.summary();
    std::printf(
        "%s version %lld: %d shape%s in (%.1f, %.1f)-(%.1f, %.1f), "
        "cell %.3f, %lld bytes\n",
        summary.level().c_str(), static_cast<long long>(summary.version()),
        summary.shape_count(), summary.shape_count() == 1 ? "" : "s",
        summary.bounds().lower().x(), summary.bounds().lower().y(),
        summary.bounds().upper().x(), summary.bounds().upper().y(),
        summary.cell_size(), static_cast<long long>(summary.memory_bytes()));
  }

  // 2. One tick's queries as a batch through the stream.
  const std::vector<Sample> batch = MakeBatch();
  const auto collisions = v1::CollisionService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions->StreamQueries(&context);
  v1::StreamQueriesRequest request;
  request.set_level(level);
  request.set_batch_id(1);
  for (const Sample& sample : batch) *request.add_queries() = sample.query;
  if (!stream->Write(request)) {
    std::fprintf(stderr, "StreamQueries: write failed\n");
  }
  stream->WritesDone();
  v1::StreamQueriesResponse response;
  bool answered = false;
  while (stream->Read(&response)) {
    if (response.status().code() != 0) {
      std::fprintf(stderr, "batch %llu refused: %s\n",
                   static_cast<unsigned long long>(response.batch_id()),
                   response.status().message().c_str());
      continue;
    }
    answered = response.results_size() == static_cast<int>(batch.size());
    std::printf("batch %llu on version %lld:\n",
                static_cast<unsigned long long>(response.batch_id()),
                static_cast<long long>(response.level_version()));
    for (int i = 0; i < response.results_size(); ++i) {
      PrintResult(batch[i], response.results(i));
    }
  }
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    std::fprintf(stderr, "StreamQueries: %s\n", status.error_message().c_str());
    return 1;
  }
  return answered ? 0 : 1;
}
