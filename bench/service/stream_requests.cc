#include "stream_requests.h"

#include <algorithm>
#include <cstddef>
#include <vector>

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

std::vector<v1::StreamQueriesRequest> RayBatches(const QuerySet& set,
                                                 int batch) {
  batch = std::max(1, batch);
  const int pool = static_cast<int>(std::max<size_t>(
      1, std::min<size_t>(512, set.size() / static_cast<size_t>(batch))));
  std::vector<v1::StreamQueriesRequest> requests(static_cast<size_t>(pool));
  for (int b = 0; b < pool; ++b) {
    v1::StreamQueriesRequest& request = requests[static_cast<size_t>(b)];
    request.set_level("levels/s1");
    request.set_batch_id(b);
    for (int q = 0; q < batch; ++q) {
      const size_t i = static_cast<size_t>(b) * batch + q;
      v1::Query* query = request.add_queries();
      query->set_request_id(i);
      v1::RayCastQuery* ray = query->mutable_ray_cast();
      ray->mutable_origin()->set_x(set.origins[i].x);
      ray->mutable_origin()->set_y(set.origins[i].y);
      ray->mutable_translation()->set_x(set.translations[i].x);
      ray->mutable_translation()->set_y(set.translations[i].y);
    }
  }
  return requests;
}

}  // namespace collide_bench
