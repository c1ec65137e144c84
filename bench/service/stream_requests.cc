#include "stream_requests.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "client/lib/packed_batch.h"

namespace collide_bench {

namespace v1 = collide::v1;

v1::Level LevelProto(const Scene& scene) {
  v1::Level level;
  level.set_id("s1");
  for (size_t i = 0; i < scene.segments.size(); ++i) {
    const collide::Segment& s = scene.segments[i];
    v1::Shape* shape = level.add_shapes();
    shape->set_id(i);
    shape->mutable_segment()->mutable_p1()->set_x(s.p1.x);
    shape->mutable_segment()->mutable_p1()->set_y(s.p1.y);
    shape->mutable_segment()->mutable_p2()->set_x(s.p2.x);
    shape->mutable_segment()->mutable_p2()->set_y(s.p2.y);
  }
  return level;
}

namespace {

// Distinct batches cycling through `set` (at most 512), each filled by
// `add`.
template <typename Add>
std::vector<v1::StreamQueriesRequest> Batches(const QuerySet& set, int batch,
                                              Add add) {
  batch = std::max(1, batch);
  const int pool = static_cast<int>(std::max<size_t>(
      1, std::min<size_t>(512, set.size() / static_cast<size_t>(batch))));
  std::vector<v1::StreamQueriesRequest> requests(static_cast<size_t>(pool));
  for (int b = 0; b < pool; ++b) {
    v1::StreamQueriesRequest& request = requests[static_cast<size_t>(b)];
    request.set_level("levels/s1");
    request.set_batch_id(b);
    add(set, static_cast<size_t>(b) * batch, batch, &request);
  }
  return requests;
}

}  // namespace

void AddRayQueries(const QuerySet& set, size_t first, int count,
                   v1::StreamQueriesRequest* request) {
  for (int q = 0; q < count; ++q) {
    const size_t i = (first + q) % set.size();
    v1::Query* query = request->add_queries();
    query->set_request_id(i);
    v1::RayCastQuery* ray = query->mutable_ray_cast();
    ray->mutable_origin()->set_x(set.origins[i].x);
    ray->mutable_origin()->set_y(set.origins[i].y);
    ray->mutable_translation()->set_x(set.translations[i].x);
    ray->mutable_translation()->set_y(set.translations[i].y);
  }
}

void AddPackedRays(const QuerySet& set, size_t first, int count,
                   bool fixed_width, v1::StreamQueriesRequest* request) {
  collide::client::PackedRayBuilder rays(request->mutable_packed_rays());
  rays.set_fixed_width_results(fixed_width);
  rays.Reserve(count);
  for (int q = 0; q < count; ++q) {
    const size_t i = (first + q) % set.size();
    rays.Add(set.origins[i], set.translations[i]);
  }
}

std::vector<v1::StreamQueriesRequest> RayBatches(const QuerySet& set,
                                                 int batch) {
  return Batches(set, batch, AddRayQueries);
}

std::vector<v1::StreamQueriesRequest> PackedRayBatches(const QuerySet& set,
                                                       int batch,
                                                       bool fixed_width) {
  return Batches(set, batch,
                 [fixed_width](const QuerySet& s, size_t first, int count,
                               v1::StreamQueriesRequest* request) {
                   AddPackedRays(s, first, count, fixed_width, request);
                 });
}

}  // namespace collide_bench
