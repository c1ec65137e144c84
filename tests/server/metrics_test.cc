// Metric primitives and their text exposition: label values
// escaped, histograms cumulative with le buckets and exact bounds, and
// query outcomes classified as /metrics reports them.
#include "server/ops/metrics.h"

#include <chrono>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "gtest/gtest.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

TEST(EscapeLabelValueTest, BackslashQuoteAndNewlineAreEscaped) {
  EXPECT_EQ(EscapeLabelValue("arena"), "arena");
  EXPECT_EQ(EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(EscapeLabelValue("\n"), "\\n");
}

TEST(ExpositionWriterTest, FamilyThenSamplesWithEscapedLabels) {
  ExpositionWriter writer;
  writer.Family("x_total", "counter", "Things.");
  writer.Sample("x_total", {{"level", "a\"\n"}, {"kind", "b"}}, 3);
  writer.Sample("x_total", {}, 12345678901.0);
  EXPECT_EQ(writer.text(),
            "# HELP x_total Things.\n"
            "# TYPE x_total counter\n"
            "x_total{level=\"a\\\"\\n\",kind=\"b\"} 3\n"
            "x_total 12345678901\n");
}

TEST(HistogramTest, BucketsAreCumulativeWithExactBoundsSumAndCount) {
  Histogram latency({10'000, 1'000'000, 1'000'000'000}, 1e9);
  latency.Observe(10'000);         // le 1e-05: bounds are inclusive
  latency.Observe(10'001);         // le 0.001
  latency.Observe(5'000'000'000);  // +Inf
  ExpositionWriter writer;
  writer.HistogramSamples("lat_seconds", latency, {{"method", "m"}});
  EXPECT_EQ(writer.text(),
            "lat_seconds_bucket{method=\"m\",le=\"1e-05\"} 1\n"
            "lat_seconds_bucket{method=\"m\",le=\"0.001\"} 2\n"
            "lat_seconds_bucket{method=\"m\",le=\"1\"} 2\n"
            "lat_seconds_bucket{method=\"m\",le=\"+Inf\"} 3\n"
            "lat_seconds_sum{method=\"m\"} 5.000020001\n"
            "lat_seconds_count{method=\"m\"} 3\n");
}

// 1 us to 10 s in 1-2-5 steps; a 3 us batch is read in the 2-5 us bucket.
TEST(HistogramTest, LatencyBoundsRunFromAMicrosecondToTenSeconds) {
  Histogram latency(kLatencyBoundsNs, 1e9);
  ASSERT_EQ(latency.bound_count(), 22u);
  EXPECT_EQ(latency.bound(0), 1'000u);
  EXPECT_EQ(latency.bound(21), 10'000'000'000u);
  for (size_t i = 1; i < latency.bound_count(); ++i) {
    const uint64_t step = latency.bound(i) * 10 / latency.bound(i - 1);
    EXPECT_TRUE(step == 20 || step == 25) << i;  // x2, x2.5, x2
  }
  latency.Observe(3'000);
  EXPECT_EQ(latency.bucket(1), 0u);
  EXPECT_EQ(latency.bucket(2), 1u);
}

TEST(CounterAndGaugeTest, AddAndRead) {
  Counter counter;
  counter.Add();
  counter.Add(4);
  EXPECT_EQ(counter.value(), 5u);
  Gauge gauge;
  gauge.Add(2);
  gauge.Add(-3);
  EXPECT_EQ(gauge.value(), -1);
}

v1::QueryResult CastResult(int hits, v1::HitStatus status) {
  v1::QueryResult result;
  v1::CastResult* cast = result.mutable_cast();
  for (int i = 0; i < hits; ++i) cast->add_hits()->set_status(status);
  return result;
}

TEST(OutcomeOfTest, EachKindOfResultMapsToItsOutcome) {
  EXPECT_EQ(OutcomeOf(CastResult(0, v1::HIT_STATUS_HIT)), QueryOutcome::kMiss);
  EXPECT_EQ(OutcomeOf(CastResult(2, v1::HIT_STATUS_HIT)), QueryOutcome::kHit);
  EXPECT_EQ(OutcomeOf(CastResult(1, v1::HIT_STATUS_INITIAL_OVERLAP)),
            QueryOutcome::kStartOverlap);

  v1::QueryResult overlap;
  overlap.mutable_overlap();
  EXPECT_EQ(OutcomeOf(overlap), QueryOutcome::kMiss);
  overlap.mutable_overlap()->add_shapes();
  EXPECT_EQ(OutcomeOf(overlap), QueryOutcome::kHit);

  v1::QueryResult move;
  move.mutable_move_validation()->set_verdict(v1::MOVE_VERDICT_ALLOWED);
  EXPECT_EQ(OutcomeOf(move), QueryOutcome::kMiss);
  move.mutable_move_validation()->set_verdict(v1::MOVE_VERDICT_BLOCKED);
  EXPECT_EQ(OutcomeOf(move), QueryOutcome::kHit);
  move.mutable_move_validation()->set_verdict(v1::MOVE_VERDICT_STARTS_INSIDE);
  EXPECT_EQ(OutcomeOf(move), QueryOutcome::kStartOverlap);

  v1::QueryResult shot;
  shot.mutable_hit_validation()->set_outcome(v1::SHOT_OUTCOME_MISS);
  EXPECT_EQ(OutcomeOf(shot), QueryOutcome::kMiss);
  shot.mutable_hit_validation()->set_outcome(v1::SHOT_OUTCOME_WALL);
  EXPECT_EQ(OutcomeOf(shot), QueryOutcome::kHit);

  v1::QueryResult pair;
  pair.mutable_pair_toi()->set_hit(true);
  pair.mutable_pair_toi()->set_status(v1::HIT_STATUS_INITIAL_OVERLAP);
  EXPECT_EQ(OutcomeOf(pair), QueryOutcome::kStartOverlap);

  v1::QueryResult closest;
  closest.mutable_closest_point()->set_found(true);
  EXPECT_EQ(OutcomeOf(closest), QueryOutcome::kHit);
}

TEST(OutcomeOfTest, LineOfSightAnswersHaveTheirOutcomes) {
  v1::QueryResult sight;
  sight.mutable_visibility()->add_visible_words(0);
  sight.mutable_visibility()->add_visible_words(0);
  EXPECT_EQ(OutcomeOf(sight), QueryOutcome::kMiss);
  sight.mutable_visibility()->set_visible_words(1, uint64_t{1} << 63);
  EXPECT_EQ(OutcomeOf(sight), QueryOutcome::kHit);

  v1::QueryResult polygon;
  polygon.mutable_visibility_polygon();
  EXPECT_EQ(OutcomeOf(polygon), QueryOutcome::kStartOverlap);
  for (const v1::VisibilityVertexKind kind :
       {v1::VISIBILITY_VERTEX_KIND_ARC, v1::VISIBILITY_VERTEX_KIND_ARC_END,
        v1::VISIBILITY_VERTEX_KIND_VIEWER}) {
    polygon.mutable_visibility_polygon()->add_vertices()->set_kind(kind);
  }
  EXPECT_EQ(OutcomeOf(polygon), QueryOutcome::kMiss);
  polygon.mutable_visibility_polygon()->add_vertices()->set_kind(
      v1::VISIBILITY_VERTEX_KIND_RAY_HIT);
  EXPECT_EQ(OutcomeOf(polygon), QueryOutcome::kHit);
}

TEST(QueryLimitTest, RefusalsAreCountedAndPassedToTheHook) {
  static int calls = 0;
  static std::string last;
  SetQueryOverLimitHook([](QueryLimit limit, absl::string_view message) {
    ++calls;
    last = absl::StrCat(QueryLimitFlag(limit), ": ", message);
  });
  Counter& counter = Metrics().queries_over_limit[static_cast<size_t>(
      QueryLimit::kVisibilityPolygonEdges)];
  const uint64_t before = counter.value();
  RecordQueryOverLimit(QueryLimit::kVisibilityPolygonEdges, "too many");
  SetQueryOverLimitHook(nullptr);
  RecordQueryOverLimit(QueryLimit::kVisibilityPolygonEdges, "not passed on");
  EXPECT_EQ(counter.value(), before + 2);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(last, "max_visibility_polygon_edges: too many");
}

TEST(OutcomeOfTest, ErrorStatusesAreRefusedOrStopped) {
  v1::QueryResult result;
  result.mutable_status()->set_code(3);  // INVALID_ARGUMENT
  EXPECT_EQ(OutcomeOf(result), QueryOutcome::kRefused);
  result.mutable_status()->set_code(4);  // DEADLINE_EXCEEDED
  EXPECT_EQ(OutcomeOf(result), QueryOutcome::kStopped);
  result.mutable_status()->set_code(1);  // CANCELLED
  EXPECT_EQ(OutcomeOf(result), QueryOutcome::kStopped);
}

TEST(RecordBatchTest, CountsEachQueryUnderItsKindAndOutcome) {
  ServerMetrics& metrics = Metrics();
  const size_t ray = v1::Query::kRayCast;
  const size_t overlap = v1::Query::kOverlap;
  const auto count = [&](size_t kind, QueryOutcome outcome) {
    return metrics.queries[kind][static_cast<size_t>(outcome)].value();
  };
  const uint64_t ray_hits = count(ray, QueryOutcome::kHit);
  const uint64_t ray_refused = count(ray, QueryOutcome::kRefused);
  const uint64_t overlap_misses = count(overlap, QueryOutcome::kMiss);
  const uint64_t batches = metrics.batch_size.bucket(2);  // le 4

  v1::RunQueriesRequest request;
  request.add_queries()->mutable_ray_cast();
  request.add_queries()->mutable_ray_cast();
  request.add_queries()->mutable_overlap();
  v1::RunQueriesResponse response;
  *response.add_results() = CastResult(1, v1::HIT_STATUS_HIT);
  response.add_results()->mutable_status()->set_code(3);
  response.add_results()->mutable_overlap();
  RecordBatch(request.queries(), response.results(),
              std::chrono::steady_clock::now());
  EXPECT_EQ(count(ray, QueryOutcome::kHit), ray_hits + 1);
  EXPECT_EQ(count(ray, QueryOutcome::kRefused), ray_refused + 1);
  EXPECT_EQ(count(overlap, QueryOutcome::kMiss), overlap_misses + 1);
  EXPECT_EQ(metrics.batch_size.bucket(2), batches + 1);

  // Refused as a whole: no results, every query refused.
  RecordBatch(request.queries(), v1::RunQueriesResponse().results(),
              std::chrono::steady_clock::now());
  EXPECT_EQ(count(ray, QueryOutcome::kRefused), ray_refused + 3);
}

// A packed cast batch is tallied from whichever hit status column the
// server filled: the varint one, or the fixed-width one when the batch set
// fixed_width_results; rows in errors count as refused, not missed.
TEST(RecordBatchTest, PackedCastsCountFromEitherHitStatusColumn) {
  ServerMetrics& metrics = Metrics();
  const size_t ray = v1::Query::kRayCast;
  const auto count = [&](QueryOutcome outcome) {
    return metrics.queries[ray][static_cast<size_t>(outcome)].value();
  };
  for (const bool fixed : {false, true}) {
    SCOPED_TRACE(fixed ? "fixed width" : "varint");
    const uint64_t hits = count(QueryOutcome::kHit);
    const uint64_t overlaps = count(QueryOutcome::kStartOverlap);
    const uint64_t misses = count(QueryOutcome::kMiss);
    const uint64_t refused = count(QueryOutcome::kRefused);
    v1::RunQueriesRequest request;
    for (int i = 0; i < 4; ++i) {
      request.mutable_packed_rays()->add_origin_x(0);
    }
    v1::RunQueriesResponse response;
    v1::PackedCastResults* casts = response.mutable_packed_casts();
    for (const v1::HitStatus status :
         {v1::HIT_STATUS_HIT, v1::HIT_STATUS_INITIAL_OVERLAP,
          v1::HIT_STATUS_UNSPECIFIED, v1::HIT_STATUS_UNSPECIFIED}) {
      if (fixed) {
        casts->add_hit_status_fixed(status);
      } else {
        casts->add_hit_status(status);
      }
    }
    casts->add_errors()->set_index(3);
    casts->mutable_errors(0)->mutable_status()->set_code(3);
    RecordBatch(request, response, std::chrono::steady_clock::now());
    EXPECT_EQ(count(QueryOutcome::kHit), hits + 1);
    EXPECT_EQ(count(QueryOutcome::kStartOverlap), overlaps + 1);
    EXPECT_EQ(count(QueryOutcome::kMiss), misses + 1);
    EXPECT_EQ(count(QueryOutcome::kRefused), refused + 1);
  }
}

}  // namespace
}  // namespace collide::server
