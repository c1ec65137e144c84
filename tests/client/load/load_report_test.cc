// The reports of a load test (text summary, progress line, JSON, SVG and
// HTML plot) over a result recorded from known batches.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "client/load/latency_plot.h"
#include "client/load/load_recorder.h"
#include "client/load/summary_json.h"
#include "client/load/summary_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tinyxml2.h"

namespace collide::client::load {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;

const Clock::time_point kStart = Clock::time_point() + std::chrono::hours(1);

v1::StreamQueriesResponse Answer(int queries, int bad_code) {
  v1::StreamQueriesResponse response;
  for (int i = 0; i < queries; ++i) {
    v1::QueryResult* result = response.add_results();
    if (i == 0 && bad_code != 0) {
      result->mutable_status()->set_code(bad_code);
      result->mutable_status()->set_message("queries[0] <bad> & \"worse\"");
    }
  }
  return response;
}

// 100 batches over 1 s, one every 10 ms, batch i answered after (i + 1) ms;
// every tenth has a bad first query; two are lost with their stream.
LoadResult KnownResult() {
  LoadRecorder recorder(kStart, milliseconds(250));
  SentBatch warmup{kStart - milliseconds(5), kStart - milliseconds(5), false,
                   4};
  recorder.RecordSent(warmup);
  recorder.RecordOutcome(warmup, Answer(4, 0), kStart);
  for (int i = 0; i < 100; ++i) {
    const Clock::time_point due = kStart + milliseconds(10 * i);
    SentBatch batch{due, due + milliseconds(i % 2), true, 4};
    recorder.RecordSent(batch);
    recorder.RecordOutcome(batch, Answer(4, i % 10 == 0 ? 3 : 0),
                           due + milliseconds(i + 1));
  }
  SentBatch lost{kStart + milliseconds(995), kStart + milliseconds(995), true,
                 4};
  recorder.RecordSent(lost);
  recorder.RecordOutcome(lost, absl::UnavailableError("connection reset"),
                         kStart + milliseconds(996));
  recorder.RecordSendFailure(lost, absl::UnavailableError("stream ended"));
  return recorder.Result();
}

RunDescription Description() {
  RunDescription run;
  run.target = "127.0.0.1:50051";
  run.load_balancing = "round_robin";
  run.level_id = "arena";
  run.connections = 2;
  run.streams_per_connection = 3;
  run.window = 4;
  run.batch_size = 4;
  run.rate = 100;
  run.warmup = absl::Milliseconds(5);
  run.duration = absl::Seconds(1);
  run.mix = "ray=6,circle=3,polygon=1";
  run.seed = 7;
  return run;
}

TEST(LoadRecorderTest, CountsWhatHappenedToEveryBatch) {
  const LoadResult result = KnownResult();
  EXPECT_EQ(result.warmup_batches, 1);
  EXPECT_EQ(result.batches_sent, 101);
  EXPECT_EQ(result.batches_answered, 100);
  EXPECT_EQ(result.queries_answered, 400);
  EXPECT_EQ(result.queries_ok, 390);
  EXPECT_EQ(result.latency.min(), 1'000'000);
  EXPECT_EQ(result.latency.max(), 100'000'000);
  EXPECT_EQ(result.max_send_lag, absl::Milliseconds(1));
  // The last answer came at 990 + 100 ms.
  EXPECT_EQ(result.elapsed, absl::Milliseconds(1090));
  EXPECT_EQ(result.error_count(), 12);
  EXPECT_EQ(result.errors
                .at({ErrorOrigin::kQuery, absl::StatusCode::kInvalidArgument})
                .count,
            10);
  EXPECT_EQ(
      result.errors.at({ErrorOrigin::kStream, absl::StatusCode::kUnavailable})
          .example,
      "connection reset");
  ASSERT_EQ(result.intervals.size(), 5u);
  EXPECT_EQ(result.intervals[0].latency.count(), 25);
  EXPECT_EQ(result.intervals[3].latency.count(), 25);
  // Interval 0 holds batches 0-24, answered after 1-25 ms.
  EXPECT_EQ(result.intervals[0].latency.max(), 25'000'000);
  EXPECT_EQ(result.intervals[0].errors, 3);
}

TEST(SummaryTextTest, ShowsTheRunThroughputPercentilesErrorsAndHistogram) {
  const std::string text = SummaryText(Description(), KnownResult());
  EXPECT_THAT(text, HasSubstr("open loop at 100 batches/s (400 queries/s)"));
  EXPECT_THAT(text, HasSubstr("2 connections x 3 streams, window 4"));
  EXPECT_THAT(text, HasSubstr("100 answered of 101 sent"));
  EXPECT_THAT(text, HasSubstr("(scheduled 100/s); sends left up to 1.00 ms"));
  EXPECT_THAT(text, HasSubstr("400 answered (390 OK)"));
  // p50 of 1..100 ms is 50 ms, reported within 0.4% above.
  EXPECT_THAT(text, HasSubstr("p50 50.1"));
  EXPECT_THAT(text, HasSubstr("max 100"));
  EXPECT_THAT(text, HasSubstr("query  INVALID_ARGUMENT"));
  EXPECT_THAT(text, HasSubstr("stream UNAVAILABLE"));
  EXPECT_THAT(text, HasSubstr("<=     50.0 ms"));
  EXPECT_THAT(text, HasSubstr("100.00%"));
}

TEST(SummaryTextTest, HistogramRowsFollowA125Scale) {
  LatencyHistogram histogram;
  for (int64_t ms : {1, 3, 3, 40}) histogram.Record(ms * 1'000'000);
  const std::vector<HistogramRow> rows = HistogramRows(histogram);
  std::vector<int64_t> uppers;
  std::vector<int64_t> counts;
  for (const HistogramRow& row : rows) {
    uppers.push_back(row.upper_ns / 1'000'000);
    counts.push_back(row.count);
  }
  // Buckets go to the range of their lowest value: 1 ms is <= 1 ms.
  EXPECT_THAT(uppers, ::testing::ElementsAre(1, 2, 5, 10, 20, 50));
  EXPECT_THAT(counts, ::testing::ElementsAre(1, 0, 2, 0, 0, 1));
}

TEST(SummaryTextTest, ProgressLineShowsRatesSinceThePreviousLine) {
  ProgressSnapshot previous{.batches_answered = 100, .queries_answered = 1600};
  ProgressSnapshot now{.batches_answered = 300,
                       .queries_answered = 4800,
                       .measured_batches = 150,
                       .p50_ns = 1'500'000,
                       .p99_ns = 12'340'000,
                       .errors = 3};
  const std::string line = ProgressLine(4.0, false, now, previous, 2.0);
  EXPECT_THAT(line, HasSubstr("1600 queries/s"));
  EXPECT_THAT(line, HasSubstr("100 batches/s"));
  EXPECT_THAT(line, HasSubstr("p99 12.3 ms"));
  EXPECT_THAT(line, HasSubstr("errors 3"));
  EXPECT_THAT(ProgressLine(0.5, true, now, previous, 0.5),
              HasSubstr("warm-up"));
  EXPECT_THAT(ProgressLine(0.5, true, previous, previous, 0.5),
              HasSubstr("p50 - ms  p99 - ms"));
}

TEST(SummaryJsonTest, HoldsTheFiguresOfTheTextSummary) {
  const LoadResult result = KnownResult();
  const nlohmann::json json =
      nlohmann::json::parse(SummaryJson(Description(), result));
  EXPECT_EQ(json["run"]["loop"], "open");
  EXPECT_EQ(json["run"]["connections"], 2);
  EXPECT_EQ(json["batches_answered"], 100);
  EXPECT_EQ(json["queries_ok"], 390);
  EXPECT_NEAR(json["latency_ms"]["p50"].get<double>(), 50, 50 * 0.004);
  EXPECT_EQ(json["latency_ms"]["max"].get<double>(), 100);
  EXPECT_EQ(json["error_count"], 12);
  ASSERT_EQ(json["errors"].size(), 2u);
  bool found = false;
  for (const auto& error : json["errors"]) {
    if (error["where"] == "query") {
      found = true;
      EXPECT_EQ(error["status"], "INVALID_ARGUMENT");
      EXPECT_EQ(error["code"], 3);
      EXPECT_EQ(error["count"], 10);
    }
  }
  EXPECT_TRUE(found);
  int64_t histogram_total = 0;
  for (const auto& bucket : json["histogram"]) {
    histogram_total += bucket["count"].get<int64_t>();
  }
  EXPECT_EQ(histogram_total, 100);
  EXPECT_EQ(json["interval_s"].get<double>(), 0.25);
  ASSERT_EQ(json["intervals"].size(), 5u);
  EXPECT_EQ(json["intervals"][1]["start_s"].get<double>(), 0.25);
  EXPECT_EQ(json["intervals"][0]["batches"], 25);
}

TEST(LatencyPlotTest, SvgIsWellFormedWithThreeSeriesAndAHistogram) {
  const std::string svg = LatencyPlotSvg(Description(), KnownResult());
  tinyxml2::XMLDocument document;
  ASSERT_EQ(document.Parse(svg.c_str()), tinyxml2::XML_SUCCESS)
      << document.ErrorStr();
  int polylines = 0;
  int rects = 0;
  for (const tinyxml2::XMLElement* e =
           document.RootElement()->FirstChildElement();
       e != nullptr; e = e->NextSiblingElement()) {
    polylines += std::string(e->Name()) == "polyline";
    rects += std::string(e->Name()) == "rect";
  }
  EXPECT_EQ(polylines, 3);
  // The background and one bar per 1-2-5 range from 1 to 100 ms.
  EXPECT_EQ(rects, 1 + 7);
  EXPECT_THAT(svg, HasSubstr("open loop at 100 batches/s"));
}

TEST(LatencyPlotTest, HtmlHoldsThePlotAndTheEscapedSummary) {
  const LoadResult result = KnownResult();
  const std::string text = SummaryText(Description(), result);
  const std::string html = LatencyPlotHtml(Description(), result, text);
  EXPECT_TRUE(absl::StartsWith(html, "<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<svg "));
  EXPECT_THAT(html, ::testing::Not(HasSubstr("<?xml")));
  EXPECT_THAT(html, HasSubstr("queries[0] &lt;bad&gt; &amp;"));
  EXPECT_THAT(html, HasSubstr("<pre>collide-load: 127.0.0.1:50051"));
}

TEST(LatencyPlotTest, WriteRefusesOtherExtensionsNamingPlot) {
  const absl::Status status = WriteLatencyPlot(
      "/tmp/collide-load-plot.png", Description(), KnownResult(), "");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("plot"));
}

}  // namespace
}  // namespace collide::client::load
