#include "client/load/packed_batches.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/lib/packed_batch.h"
#include "client/lib/query_builders.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::load {

namespace {

const v1::CastOptions& OptionsOf(const v1::Query& query) {
  return query.has_ray_cast() ? query.ray_cast().options()
                              : query.circle_cast().options();
}

}  // namespace

absl::StatusOr<v1::StreamQueriesRequest> PackBatch(
    const v1::StreamQueriesRequest& batch, bool fixed_width) {
  v1::StreamQueriesRequest packed;
  packed.set_level(batch.level());
  packed.set_batch_id(batch.batch_id());
  if (batch.queries().empty()) return packed;
  const v1::Query::QueryCase kind = batch.queries(0).query_case();
  const std::string options = OptionsOf(batch.queries(0)).SerializeAsString();
  for (int i = 0; i < batch.queries_size(); ++i) {
    const v1::Query& query = batch.queries(i);
    if ((kind != v1::Query::kRayCast && kind != v1::Query::kCircleCast) ||
        query.query_case() != kind ||
        OptionsOf(query).SerializeAsString() != options) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queries[", i,
          "] does not fit a packed batch: --packed needs one kind, ray or "
          "circle, with the same options in every query"));
    }
  }
  if (kind == v1::Query::kRayCast) {
    PackedRayBuilder rays(packed.mutable_packed_rays());
    rays.Reserve(batch.queries_size());
    *rays.options() = batch.queries(0).ray_cast().options();
    packed.mutable_packed_rays()->set_fixed_width_results(fixed_width);
    for (const v1::Query& query : batch.queries()) {
      rays.Add(FromProto(query.ray_cast().origin()),
               FromProto(query.ray_cast().translation()));
    }
  } else {
    PackedCircleBuilder circles(packed.mutable_packed_circles());
    circles.Reserve(batch.queries_size());
    *circles.options() = batch.queries(0).circle_cast().options();
    packed.mutable_packed_circles()->set_fixed_width_results(fixed_width);
    for (const v1::Query& query : batch.queries()) {
      circles.Add(FromProto(query.circle_cast().circle().center()),
                  query.circle_cast().circle().radius(),
                  FromProto(query.circle_cast().translation()));
    }
  }
  return packed;
}

int QueryCount(const v1::StreamQueriesRequest& request) {
  switch (request.packed_case()) {
    case v1::StreamQueriesRequest::kPackedRays:
      return request.packed_rays().origin_x_size();
    case v1::StreamQueriesRequest::kPackedCircles:
      return request.packed_circles().center_x_size();
    case v1::StreamQueriesRequest::kPackedMoves:
      return request.packed_moves().center_x_size();
    case v1::StreamQueriesRequest::PACKED_NOT_SET:
      break;
  }
  return request.queries_size();
}

AnsweredQueries CountAnswered(const v1::StreamQueriesResponse& response) {
  AnsweredQueries counts;
  switch (response.packed_results_case()) {
    case v1::StreamQueriesResponse::kPackedCasts:
      // One of the two status columns, as the batch asked.
      counts.answered =
          std::max(response.packed_casts().hit_status_size(),
                   response.packed_casts().hit_status_fixed_size());
      counts.refused = response.packed_casts().errors_size();
      return counts;
    case v1::StreamQueriesResponse::kPackedMoves:
      counts.answered = response.packed_moves().verdict_size();
      counts.refused = response.packed_moves().errors_size();
      return counts;
    case v1::StreamQueriesResponse::PACKED_RESULTS_NOT_SET:
      break;
  }
  counts.answered = response.results_size();
  for (const v1::QueryResult& result : response.results()) {
    if (result.status().code() != 0) ++counts.refused;
  }
  return counts;
}

}  // namespace collide::client::load
