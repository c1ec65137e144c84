// The packed batch form against the real server (the collide_server binary
// on an ephemeral loopback port): the same queries sent per query and
// packed, on the stream and unary, must get bitwise the same answers,
// misses, initial overlaps and refused values included; and the
// batch-level refusals name the field.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/packed_batch.h"
#include "client/lib/packed_results.h"
#include "client/lib/query_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"
#include "tests/support/splitmix64.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client {
namespace {

using ::testing::HasSubstr;

constexpr int kMaxBatchSize = 512;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Bitwise equality of two doubles (NaN payloads, -0.0 and all).
void ExpectSameBits(double packed, double per_query, const std::string& what) {
  EXPECT_EQ(std::bit_cast<uint64_t>(packed), std::bit_cast<uint64_t>(per_query))
      << what << ": packed " << packed << ", per query " << per_query;
}

// One query of a test batch: the circle's centre (or ray origin), radius
// (ignored for rays) and translation.
struct Motion {
  Vec2 start;
  double radius = 0.0;
  Vec2 translation;
};

// Random motions inside the level's bounds (hits, misses and starts inside
// solid shapes), then values each form must refuse alike, at known indices.
std::vector<Motion> TestMotions(const v1::Aabb& bounds, int count,
                                bool with_radius) {
  collide::testing::SplitMix64 random(15);
  std::vector<Motion> motions;
  for (int i = 0; i < count; ++i) {
    const Vec2 start{random.Uniform(bounds.lower().x(), bounds.upper().x()),
                     random.Uniform(bounds.lower().y(), bounds.upper().y())};
    const double angle = random.Uniform(0, 2 * M_PI);
    const double length = random.Uniform(0, 25);
    motions.push_back({start,
                       with_radius ? random.Uniform(0, 2) : 0.0,
                       {length * std::cos(angle), length * std::sin(angle)}});
  }
  // Far outside: a sure miss; zero translation; exact integer values.
  motions.push_back({{1e6, 1e6}, 0.5, {1, 0}});
  motions.push_back({{0, 0}, 0.5, {0, 0}});
  // Refused in both forms.
  motions.push_back({{kNaN, 0}, 0.5, {1, 0}});
  motions.push_back({{0, kInf}, 0.5, {1, 0}});
  motions.push_back({{0, 0}, 0.5, {1e61, 0}});
  motions.push_back({{0, 0}, 0.5, {0, -kInf}});
  // Below the least magnitude (a subnormal, from a velocity decayed
  // towards 0): refused, as 1e61 is.
  motions.push_back({{0, 0}, 0.5, {1, 5e-324}});
  if (with_radius) motions.push_back({{0, 0}, -1.0, {1, 0}});
  return motions;
}

class PackedE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<collide::testing::ServerProcess>(
        COLLIDE_SERVER_BINARY);
    ASSERT_TRUE(
        server_->Start({"--listen=127.0.0.1:0", "--shutdown_grace=2s",
                        absl::StrCat("--max_batch_size=", kMaxBatchSize)}))
        << "collide_server did not start";
    ClientOptions options;
    options.target = absl::StrCat("127.0.0.1:", server_->port());
    options.call_timeout = absl::Seconds(20);
    absl::StatusOr<std::unique_ptr<CollideClient>> client =
        CollideClient::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
    absl::StatusOr<v1::LevelSummary> arena = client_->DescribeLevel("arena");
    ASSERT_TRUE(arena.ok()) << arena.status();
    bounds_ = arena->bounds();
  }

  // The per-query answers, unary.
  std::vector<v1::QueryResult> PerQuery(const std::vector<v1::Query>& queries) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        client_->RunQueries("arena", queries);
    EXPECT_TRUE(response.ok()) << response.status();
    if (!response.ok()) return {};
    return {response->results().begin(), response->results().end()};
  }

  // A packed request answered on a stream, then unary: both responses, in
  // the unary response's type (the packed results are the same messages).
  std::vector<v1::RunQueriesResponse> Packed(
      const v1::RunQueriesRequest& request) {
    std::vector<v1::RunQueriesResponse> answers;
    absl::StatusOr<std::unique_ptr<QueryStream>> stream =
        client_->OpenStream("arena");
    EXPECT_TRUE(stream.ok()) << stream.status();
    if (!stream.ok()) return answers;
    v1::StreamQueriesRequest streamed;
    if (request.has_packed_rays()) {
      *streamed.mutable_packed_rays() = request.packed_rays();
    } else if (request.has_packed_circles()) {
      *streamed.mutable_packed_circles() = request.packed_circles();
    } else {
      *streamed.mutable_packed_moves() = request.packed_moves();
    }
    EXPECT_TRUE((*stream)->Send(std::move(streamed)).ok());
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    EXPECT_TRUE(outcome.ok() && outcome->response.ok());
    if (outcome.ok() && outcome->response.ok()) {
      const v1::StreamQueriesResponse& response = *outcome->response;
      EXPECT_EQ(response.status().code(), 0) << response.status().message();
      v1::RunQueriesResponse as_unary;
      if (response.has_packed_casts()) {
        *as_unary.mutable_packed_casts() = response.packed_casts();
      }
      if (response.has_packed_moves()) {
        *as_unary.mutable_packed_moves() = response.packed_moves();
      }
      answers.push_back(std::move(as_unary));
    }
    EXPECT_TRUE((*stream)->Finish().ok());
    absl::StatusOr<v1::RunQueriesResponse> unary =
        client_->RunQueries("arena", request);
    EXPECT_TRUE(unary.ok()) << unary.status();
    if (unary.ok()) answers.push_back(*std::move(unary));
    return answers;
  }

  std::unique_ptr<collide::testing::ServerProcess> server_;
  std::unique_ptr<CollideClient> client_;
  v1::Aabb bounds_;
};

// A refused query: the same code in both forms, the packed message naming
// "{arm}.{column}[{index}]" and saying what the per-query message says.
void ExpectSameRefusal(const absl::Status& packed,
                       const v1::ResultStatus& per_query,
                       const std::string& arm, int index) {
  EXPECT_EQ(static_cast<int>(packed.code()), per_query.code());
  EXPECT_THAT(std::string(packed.message()), HasSubstr(absl::StrCat(arm, ".")));
  EXPECT_THAT(std::string(packed.message()),
              HasSubstr(absl::StrCat("[", index, "] must be")));
  const std::string& expected = per_query.message();
  EXPECT_EQ(packed.message().substr(packed.message().find(" must")),
            expected.substr(expected.find(" must")));
}

// What the two forms of a cast batch must agree on, query by query.
struct CastCounts {
  int hits = 0;
  int overlaps = 0;
  int misses = 0;
  int refused = 0;
};

CastCounts ExpectSameCasts(const v1::PackedCastResults& packed,
                           const std::vector<v1::QueryResult>& per_query,
                           const std::string& arm) {
  CastCounts counts;
  const int n = static_cast<int>(per_query.size());
  const absl::StatusOr<PackedCastView> view = PackedCastView::Read(packed, n);
  EXPECT_TRUE(view.ok()) << view.status();
  if (!view.ok()) return counts;
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(absl::StrCat(arm, " query ", i));
    const v1::QueryResult& expected = per_query[static_cast<size_t>(i)];
    const PackedCastRow row = view->row(i);
    if (expected.status().code() != 0) {
      ++counts.refused;
      ExpectSameRefusal(view->status(i), expected.status(), arm, i);
      EXPECT_FALSE(row.hit());
      continue;
    }
    EXPECT_TRUE(view->status(i).ok()) << view->status(i);
    if (expected.cast().hits().empty()) {
      ++counts.misses;
      EXPECT_FALSE(row.hit());
      EXPECT_EQ(std::bit_cast<uint64_t>(row.fraction()), 0u);
      continue;
    }
    const v1::CastHit& hit = expected.cast().hits(0);
    (hit.status() == v1::HIT_STATUS_INITIAL_OVERLAP ? counts.overlaps
                                                    : counts.hits)++;
    EXPECT_EQ(row.status(), hit.status());
    ExpectSameBits(row.fraction(), hit.fraction(), "fraction");
    ExpectSameBits(row.point().x, hit.point().x(), "point.x");
    ExpectSameBits(row.point().y, hit.point().y(), "point.y");
    ExpectSameBits(row.normal().x, hit.normal().x(), "normal.x");
    ExpectSameBits(row.normal().y, hit.normal().y(), "normal.y");
    ExpectSameBits(row.depth(), hit.depth(), "depth");
    EXPECT_EQ(row.shape_id(), hit.shape_id());
    EXPECT_EQ(row.user_data(), hit.user_data());
    EXPECT_EQ(row.feature_type(), hit.feature().type());
    EXPECT_EQ(row.feature_index(), hit.feature().index());
  }
  return counts;
}

v1::CastOptions SharedCastOptions() {
  v1::CastOptions options;
  options.set_max_fraction(0.875);
  options.set_target_distance(0.01);
  options.mutable_filter()->set_mask_bits(~uint64_t{0});
  return options;
}

TEST_F(PackedE2eTest, RaysAreAnsweredBitwiseAsPerQuery) {
  const std::vector<Motion> motions = TestMotions(bounds_, 400, false);
  std::vector<v1::Query> queries;
  v1::RunQueriesRequest request;
  PackedRayBuilder rays(request.mutable_packed_rays());
  rays.Reserve(static_cast<int>(motions.size()));
  *rays.options() = SharedCastOptions();
  for (const Motion& m : motions) {
    queries.push_back(RayCast(m.start, m.translation, SharedCastOptions()));
    rays.Add(m.start, m.translation);
  }
  const std::vector<v1::QueryResult> expected = PerQuery(queries);
  ASSERT_EQ(expected.size(), motions.size());
  const std::vector<v1::RunQueriesResponse> answers = Packed(request);
  ASSERT_EQ(answers.size(), 2u) << "stream and unary";
  for (const v1::RunQueriesResponse& answer : answers) {
    ASSERT_TRUE(answer.has_packed_casts());
    const CastCounts counts =
        ExpectSameCasts(answer.packed_casts(), expected, "packed_rays");
    EXPECT_GT(counts.hits, 20);
    EXPECT_GT(counts.overlaps, 0) << "rays starting inside solid shapes";
    EXPECT_GT(counts.misses, 20);
    EXPECT_EQ(counts.refused, 5);
  }
  // Named as the issue asks: the column and the index.
  const absl::StatusOr<PackedCastView> view =
      PackedCastView::Read(answers[0].packed_casts(), rays.size());
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->status(402).message(),
            "packed_rays.origin_x[402] must be finite");
  EXPECT_EQ(view->status(404).message(),
            "packed_rays.translation_x[404] must be within +-1e60, got 1e+61");
  EXPECT_EQ(view->status(406).message(),
            "packed_rays.translation_y[406] must be 0 or at least 1e-60 in "
            "magnitude, got 5e-324");
}

TEST_F(PackedE2eTest, CircleCastsAreAnsweredBitwiseAsPerQuery) {
  const std::vector<Motion> motions = TestMotions(bounds_, 400, true);
  std::vector<v1::Query> queries;
  v1::RunQueriesRequest request;
  PackedCircleBuilder circles(request.mutable_packed_circles());
  circles.Reserve(static_cast<int>(motions.size()));
  *circles.options() = SharedCastOptions();
  for (const Motion& m : motions) {
    queries.push_back(
        CircleCast(m.start, m.radius, m.translation, SharedCastOptions()));
    circles.Add(m.start, m.radius, m.translation);
  }
  const std::vector<v1::QueryResult> expected = PerQuery(queries);
  ASSERT_EQ(expected.size(), motions.size());
  const std::vector<v1::RunQueriesResponse> answers = Packed(request);
  ASSERT_EQ(answers.size(), 2u);
  for (const v1::RunQueriesResponse& answer : answers) {
    ASSERT_TRUE(answer.has_packed_casts());
    const CastCounts counts =
        ExpectSameCasts(answer.packed_casts(), expected, "packed_circles");
    EXPECT_GT(counts.hits, 20);
    EXPECT_GT(counts.overlaps, 0);
    EXPECT_GT(counts.misses, 20);
    EXPECT_EQ(counts.refused, 6);
  }
  const absl::StatusOr<PackedCastView> view =
      PackedCastView::Read(answers[1].packed_casts(), circles.size());
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->status(407).message(),
            "packed_circles.radius[407] must be >= 0, got -1");
}

// fixed_width_results: the same answers, in the *_fixed integer columns
// only (the varint ones stay empty), for rays and circles, on the stream
// and unary.
TEST_F(PackedE2eTest, FixedWidthResultsCarryTheSameAnswers) {
  const std::vector<Motion> motions = TestMotions(bounds_, 300, true);
  std::vector<v1::Query> ray_queries;
  std::vector<v1::Query> circle_queries;
  v1::RunQueriesRequest ray_request;
  v1::RunQueriesRequest circle_request;
  PackedRayBuilder rays(ray_request.mutable_packed_rays());
  PackedCircleBuilder circles(circle_request.mutable_packed_circles());
  rays.set_fixed_width_results(true);
  circles.set_fixed_width_results(true);
  *rays.options() = SharedCastOptions();
  *circles.options() = SharedCastOptions();
  for (const Motion& m : motions) {
    ray_queries.push_back(RayCast(m.start, m.translation, SharedCastOptions()));
    rays.Add(m.start, m.translation);
    circle_queries.push_back(
        CircleCast(m.start, m.radius, m.translation, SharedCastOptions()));
    circles.Add(m.start, m.radius, m.translation);
  }
  const struct {
    const char* arm;
    const v1::RunQueriesRequest& request;
    std::vector<v1::QueryResult> expected;
  } cases[] = {{"packed_rays", ray_request, PerQuery(ray_queries)},
               {"packed_circles", circle_request, PerQuery(circle_queries)}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.arm);
    const int n = static_cast<int>(motions.size());
    ASSERT_EQ(c.expected.size(), motions.size());
    const std::vector<v1::RunQueriesResponse> answers = Packed(c.request);
    ASSERT_EQ(answers.size(), 2u) << "stream and unary";
    for (const v1::RunQueriesResponse& answer : answers) {
      ASSERT_TRUE(answer.has_packed_casts());
      const v1::PackedCastResults& packed = answer.packed_casts();
      EXPECT_EQ(packed.hit_status_fixed_size(), n);
      EXPECT_EQ(packed.shape_id_fixed_size(), n);
      EXPECT_EQ(packed.user_data_fixed_size(), n);
      EXPECT_EQ(packed.feature_type_fixed_size(), n);
      EXPECT_EQ(packed.feature_index_fixed_size(), n);
      EXPECT_EQ(packed.hit_status_size() + packed.shape_id_size() +
                    packed.user_data_size() + packed.feature_type_size() +
                    packed.feature_index_size(),
                0);
      const CastCounts counts = ExpectSameCasts(packed, c.expected, c.arm);
      EXPECT_GT(counts.hits, 20);
      EXPECT_GT(counts.misses, 20);
    }
  }
}

TEST_F(PackedE2eTest, MovesAreAnsweredBitwiseAsPerQuery) {
  const std::vector<Motion> motions = TestMotions(bounds_, 400, true);
  std::vector<v1::Query> queries;
  v1::RunQueriesRequest request;
  PackedMoveBuilder moves(request.mutable_packed_moves());
  moves.Reserve(static_cast<int>(motions.size()));
  moves.message()->set_skin(0.01);
  moves.message()->set_max_slide_iterations(4);
  for (const Motion& m : motions) {
    queries.push_back(MoveCircle(m.start, m.radius, m.translation, 0.01, 4));
    moves.Add(m.start, m.radius, m.translation);
  }
  const std::vector<v1::QueryResult> expected = PerQuery(queries);
  ASSERT_EQ(expected.size(), motions.size());
  const std::vector<v1::RunQueriesResponse> answers = Packed(request);
  ASSERT_EQ(answers.size(), 2u);
  for (const v1::RunQueriesResponse& answer : answers) {
    ASSERT_TRUE(answer.has_packed_moves());
    const v1::PackedMoveResults& packed = answer.packed_moves();
    const int n = static_cast<int>(expected.size());
    const absl::StatusOr<PackedMoveView> view = PackedMoveView::Read(packed, n);
    ASSERT_TRUE(view.ok()) << view.status();
    int verdicts[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(absl::StrCat("move ", i));
      const v1::QueryResult& want = expected[static_cast<size_t>(i)];
      if (want.status().code() != 0) {
        ExpectSameRefusal(view->status(i), want.status(), "packed_moves", i);
        EXPECT_EQ(view->row(i).verdict(), v1::MOVE_VERDICT_UNSPECIFIED);
        continue;
      }
      const v1::MoveValidationResult& m = want.move_validation();
      ++verdicts[m.verdict()];
      EXPECT_EQ(packed.verdict(i), m.verdict());
      EXPECT_EQ(packed.first_hit_status(i), m.first_hit().status());
      ExpectSameBits(packed.first_hit_fraction(i), m.first_hit().fraction(),
                     "first_hit.fraction");
      ExpectSameBits(packed.first_hit_point_x(i), m.first_hit().point().x(),
                     "first_hit.point.x");
      ExpectSameBits(packed.first_hit_point_y(i), m.first_hit().point().y(),
                     "first_hit.point.y");
      ExpectSameBits(packed.first_hit_normal_x(i), m.first_hit().normal().x(),
                     "first_hit.normal.x");
      ExpectSameBits(packed.first_hit_normal_y(i), m.first_hit().normal().y(),
                     "first_hit.normal.y");
      ExpectSameBits(packed.first_hit_depth(i), m.first_hit().depth(),
                     "first_hit.depth");
      EXPECT_EQ(packed.first_hit_shape_id(i), m.first_hit().shape_id());
      EXPECT_EQ(packed.first_hit_user_data(i), m.first_hit().user_data());
      EXPECT_EQ(packed.first_hit_feature_type(i),
                m.first_hit().feature().type());
      EXPECT_EQ(packed.first_hit_feature_index(i),
                m.first_hit().feature().index());
      ExpectSameBits(packed.safe_fraction(i), m.safe_fraction(),
                     "safe_fraction");
      ExpectSameBits(packed.safe_translation_x(i), m.safe_translation().x(),
                     "safe_translation.x");
      ExpectSameBits(packed.safe_translation_y(i), m.safe_translation().y(),
                     "safe_translation.y");
      EXPECT_EQ(packed.claimed_end_reachable(i), m.claimed_end_reachable());
      ExpectSameBits(packed.slide_translation_x(i), m.slide().translation().x(),
                     "slide.translation.x");
      ExpectSameBits(packed.slide_translation_y(i), m.slide().translation().y(),
                     "slide.translation.y");
      EXPECT_EQ(packed.slide_iteration_count(i), m.slide().iteration_count());
      EXPECT_EQ(packed.slide_out_of_iterations(i),
                m.slide().out_of_iterations());
      EXPECT_EQ(packed.exit_separated(i), m.exit().separated());
      ExpectSameBits(packed.exit_translation_x(i), m.exit().translation().x(),
                     "exit.translation.x");
      ExpectSameBits(packed.exit_translation_y(i), m.exit().translation().y(),
                     "exit.translation.y");
      EXPECT_EQ(packed.exit_iteration_count(i), m.exit().iteration_count());
      ExpectSameBits(packed.exit_depth(i), m.exit().depth(), "exit.depth");
    }
    EXPECT_GT(verdicts[v1::MOVE_VERDICT_ALLOWED], 20);
    EXPECT_GT(verdicts[v1::MOVE_VERDICT_BLOCKED], 20);
    EXPECT_GT(verdicts[v1::MOVE_VERDICT_STARTS_INSIDE], 0);
    EXPECT_EQ(packed.errors_size(), 6);
  }
}

TEST_F(PackedE2eTest, BatchLevelRefusalsNameTheField) {
  // Columns of different lengths.
  v1::RunQueriesRequest uneven;
  PackedRayBuilder rays(uneven.mutable_packed_rays());
  rays.Add({0, 0}, {1, 0});
  rays.Add({0, 1}, {1, 0});
  uneven.mutable_packed_rays()->add_origin_y(7);
  absl::StatusOr<v1::RunQueriesResponse> answer =
      client_->RunQueries("arena", uneven);
  EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(answer.status().message(),
            "packed_rays.origin_y holds 3 values, but origin_x holds 2: every "
            "column holds one value per query");

  // More queries than --max_batch_size.
  v1::RunQueriesRequest big;
  PackedCircleBuilder circles(big.mutable_packed_circles());
  for (int i = 0; i <= kMaxBatchSize; ++i) circles.Add({0, 0}, 1, {1, 0});
  answer = client_->RunQueries("arena", big);
  EXPECT_EQ(answer.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(answer.status().message(),
              HasSubstr("packed_circles holds 513 queries, more than "
                        "max_batch_size 512"));

  // A shared option out of range, and all hits (one hit per row only).
  v1::RunQueriesRequest bad_options;
  PackedRayBuilder one(bad_options.mutable_packed_rays());
  one.Add({0, 0}, {1, 0});
  one.options()->set_max_fraction(2);
  answer = client_->RunQueries("arena", bad_options);
  EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(answer.status().message(),
              HasSubstr("packed_rays.options.max_fraction must be in [0, 1]"));
  one.options()->clear_max_fraction();
  one.options()->set_mode(v1::CAST_MODE_ALL);
  answer = client_->RunQueries("arena", bad_options);
  EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(answer.status().message(),
              HasSubstr("packed_rays.options.mode must be CAST_MODE_CLOSEST"));

  // Both forms in one request.
  v1::RunQueriesRequest both = bad_options;
  both.mutable_packed_rays()->mutable_options()->Clear();
  *both.add_queries() = RayCast({0, 0}, {1, 0});
  answer = client_->RunQueries("arena", both);
  EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(answer.status().message(), HasSubstr("not both"));

  // On the stream a refused batch is a response with its status, and the
  // stream goes on.
  absl::StatusOr<std::unique_ptr<QueryStream>> stream =
      client_->OpenStream("arena");
  ASSERT_TRUE(stream.ok()) << stream.status();
  v1::StreamQueriesRequest moves;
  PackedMoveBuilder builder(moves.mutable_packed_moves());
  builder.Add({0, 0}, 0.5, {1, 0});
  builder.message()->set_skin(-1);
  ASSERT_TRUE((*stream)->Send(moves).ok());
  builder.message()->set_skin(0.01);
  ASSERT_TRUE((*stream)->Send(moves).ok());
  absl::StatusOr<BatchOutcome> refused = (*stream)->Next();
  ASSERT_TRUE(refused.ok() && refused->response.ok());
  EXPECT_EQ(refused->response->status().code(),
            static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(refused->response->status().message(),
            "packed_moves.skin must be >= 0, got -1");
  absl::StatusOr<BatchOutcome> answered = (*stream)->Next();
  ASSERT_TRUE(answered.ok() && answered->response.ok());
  EXPECT_EQ(answered->response->status().code(), 0);
  ASSERT_TRUE(answered->response->has_packed_moves());
  EXPECT_EQ(answered->response->packed_moves().verdict_size(), 1);
  EXPECT_TRUE((*stream)->Finish().ok());
}

}  // namespace
}  // namespace collide::client
