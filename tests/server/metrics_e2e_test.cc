// The collide_server binary with --metrics_listen, scraped with
// Debian's curl as Prometheus would. The page parses as the text exposition
// format (HELP and TYPE for every family, every sample name{labels} value),
// and its values move with traffic: queries by kind and outcome, RPCs by
// method and code, batches, streams, level puts and deletes, builds.
// Loopback only; every wait is bounded.
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "collide/version.h"
#include "e2e_helpers.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::server {
namespace {

using testing::Deadline;

class ServerProcess : public ::collide::testing::ServerProcess {
 public:
  ServerProcess() : ::collide::testing::ServerProcess(COLLIDE_SERVER_BINARY) {}

  // The metrics port from the "(metrics port N)" line that follows the
  // listening line; 0 if it does not come within 10 s.
  int MetricsPort() {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < give_up) {
      const std::string text = log();
      const size_t at = text.find("(metrics port ");
      if (at != std::string::npos) {
        return std::atoi(text.c_str() + at + 14);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
  }
};

// curl's output for `url` and its exit status (-1 if it could not run).
struct CurlResult {
  int exit_code = -1;
  std::string body;
};

CurlResult Curl(const std::string& arguments) {
  CurlResult result;
  FILE* pipe =
      popen(absl::StrCat("curl --silent --show-error --max-time 10 ", arguments)
                .c_str(),
            "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    result.body.append(buffer, n);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// A scraped page: each sample's value by its exact "name{labels}" text, and
// every way it breaks the text format.
struct Page {
  std::map<std::string, double> samples;
  std::vector<std::string> errors;

  // The value of `series`, or NaN if the page lacks it.
  double operator[](const std::string& series) const {
    const auto it = samples.find(series);
    return it == samples.end() ? std::numeric_limits<double>::quiet_NaN()
                               : it->second;
  }
};

// Parses the text exposition format 0.0.4 strictly enough to catch what a
// Prometheus server would refuse: every family has one HELP and one TYPE
// line before its samples, every sample line is name{label="value",...}
// value with escaped label values, no series appears twice, and histogram
// samples (_bucket with le, _sum, _count) belong to a histogram family.
Page ParsePage(const std::string& text) {
  static const std::regex kSample(
      R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\[\\"n]|[^"\\\n])*")(,[a-zA-Z_][a-zA-Z0-9_]*="(\\[\\"n]|[^"\\\n])*")*\})? ([-+]?([0-9.]+(e[-+]?[0-9]+)?|Inf|NaN))$)");
  Page page;
  std::map<std::string, std::string> types;
  std::set<std::string> helps;
  if (text.empty() || text.back() != '\n') {
    page.errors.push_back("the page does not end with a newline");
  }
  for (const absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    const std::string l(line);
    if (absl::StartsWith(l, "# HELP ")) {
      const std::string name = l.substr(7, l.find(' ', 7) - 7);
      if (!helps.insert(name).second) page.errors.push_back("two HELP: " + l);
      continue;
    }
    if (absl::StartsWith(l, "# TYPE ")) {
      const std::vector<std::string> parts = absl::StrSplit(l, ' ');
      if (parts.size() != 4 || !helps.count(parts[2]) ||
          !types.emplace(parts[2], parts[3]).second) {
        page.errors.push_back("TYPE without HELP, or twice: " + l);
      }
      continue;
    }
    std::smatch match;
    if (!std::regex_match(l, match, kSample)) {
      page.errors.push_back("not a sample line: " + l);
      continue;
    }
    const std::string name = match[1];
    std::string family = name;
    if (!types.count(family)) {
      for (const char* suffix : {"_bucket", "_sum", "_count"}) {
        if (absl::EndsWith(name, suffix)) {
          family = name.substr(0, name.size() - strlen(suffix));
          if (types.count(family) && types[family] != "histogram") {
            page.errors.push_back("histogram sample of a " + types[family] +
                                  ": " + l);
          }
        }
      }
    }
    if (!types.count(family)) {
      page.errors.push_back("sample before its family's TYPE: " + l);
    }
    if (absl::EndsWith(name, "_bucket") &&
        l.find("le=\"") == std::string::npos) {
      page.errors.push_back("bucket without le: " + l);
    }
    const size_t space = l.rfind(' ');
    const std::string value = l.substr(space + 1);
    double number = 0;
    if (value == "+Inf") {
      number = std::numeric_limits<double>::infinity();
    } else if (!absl::SimpleAtod(value, &number)) {
      page.errors.push_back("bad value: " + l);
    }
    if (!page.samples.emplace(l.substr(0, space), number).second) {
      page.errors.push_back("series twice: " + l);
    }
  }
  return page;
}

// Scrapes and parses; fails the test on a curl error or a malformed page.
Page Scrape(int metrics_port) {
  const CurlResult curl =
      Curl(absl::StrCat("http://127.0.0.1:", metrics_port, "/metrics"));
  EXPECT_EQ(curl.exit_code, 0) << "curl failed (is Debian's curl installed?)";
  Page page = ParsePage(curl.body);
  EXPECT_TRUE(page.errors.empty())
      << absl::StrJoin(page.errors, "\n") << "\n--- page:\n"
      << curl.body;
  return page;
}

constexpr char kRunQueriesOk[] =
    R"(grpc_server_handled_total{grpc_type="unary",grpc_service="collide.v1.CollisionService",grpc_method="RunQueries",grpc_code="OK"})";
constexpr char kRunQueriesNotFound[] =
    R"(grpc_server_handled_total{grpc_type="unary",grpc_service="collide.v1.CollisionService",grpc_method="RunQueries",grpc_code="NOT_FOUND"})";
constexpr char kStreamQueriesOk[] =
    R"(grpc_server_handled_total{grpc_type="bidi_stream",grpc_service="collide.v1.CollisionService",grpc_method="StreamQueries",grpc_code="OK"})";
constexpr char kPutLevelOk[] =
    R"(grpc_server_handled_total{grpc_type="unary",grpc_service="collide.v1.LevelService",grpc_method="PutLevel",grpc_code="OK"})";
constexpr char kRayHit[] =
    R"(collide_queries_total{kind="ray_cast",outcome="hit"})";
constexpr char kRayMiss[] =
    R"(collide_queries_total{kind="ray_cast",outcome="miss"})";
constexpr char kRayStartOverlap[] =
    R"(collide_queries_total{kind="ray_cast",outcome="start_overlap"})";
constexpr char kRayRefused[] =
    R"(collide_queries_total{kind="ray_cast",outcome="refused"})";

// Polls until `done(page)` or 10 s pass; returns the last page.
template <typename Done>
Page ScrapeUntil(int metrics_port, Done done) {
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  Page page = Scrape(metrics_port);
  while (!done(page) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    page = Scrape(metrics_port);
  }
  return page;
}

TEST(MetricsE2eTest, CurlScrapesAPageThatParsesAndMovesWithTraffic) {
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  ASSERT_NE(metrics_port, server.port());

  const Page before = Scrape(metrics_port);
  EXPECT_EQ(before[kRayHit], 0);
  EXPECT_EQ(before[kRayMiss], 0);
  EXPECT_EQ(before["collide_levels_loaded"], 1);
  // One build_info series, for this build's version.
  int build_info_series = 0;
  for (const auto& [series, value] : before.samples) {
    if (!absl::StartsWith(series, "collide_build_info{")) continue;
    ++build_info_series;
    EXPECT_TRUE(absl::StrContains(
        series, absl::StrCat("version=\"", collide::kVersion, "\"")))
        << series;
    EXPECT_TRUE(absl::StrContains(series, "grpc_version=\"1.")) << series;
    EXPECT_EQ(value, 1) << series;
  }
  EXPECT_EQ(build_info_series, 1);
  EXPECT_GT(before[R"(collide_level_held_bytes{level="levels/arena"})"], 0);
  EXPECT_EQ(before["collide_level_store_held_bytes"],
            before[R"(collide_level_held_bytes{level="levels/arena"})"]);
  EXPECT_EQ(before["collide_level_build_seconds_count"], 1);  // the arena
  EXPECT_EQ(before["collide_batch_size_count"], 0);
  EXPECT_GT(before["process_resident_memory_bytes"], 1 << 20);
  EXPECT_GT(before["process_virtual_memory_bytes"],
            before["process_resident_memory_bytes"]);
  EXPECT_GT(before["process_open_fds"], 2);
  EXPECT_GE(before["process_cpu_seconds_total"], 0);
  EXPECT_NEAR(before["process_start_time_seconds"],
              static_cast<double>(std::time(nullptr)), 120);

  const auto channel = testing::Connect(server.port());
  const auto collisions = v1::CollisionService::NewStub(channel);
  // Level changes go to the admin listener (counted there too).
  const auto levels =
      v1::LevelService::NewStub(testing::Connect(server.admin_port()));

  // One batch: two hits (the pillar at x = 10), one miss (above the
  // arena), one start inside the pillar, one NaN origin (refused).
  v1::RunQueriesRequest batch;
  batch.set_level("levels/arena");
  *batch.add_queries() = testing::RayAlongX(1, 0);
  *batch.add_queries() = testing::RayAlongX(2, 0.5);
  *batch.add_queries() = testing::RayAlongX(3, 100);
  *batch.add_queries() = testing::RayAlongX(4, 0);
  batch.mutable_queries(3)->mutable_ray_cast()->mutable_origin()->set_x(10);
  *batch.add_queries() = testing::RayAlongX(5, 0);
  batch.mutable_queries(4)->mutable_ray_cast()->mutable_origin()->set_x(
      std::numeric_limits<double>::quiet_NaN());
  v1::RunQueriesResponse response;
  ASSERT_TRUE(testing::RunQueries(*collisions, batch, &response).ok());
  ASSERT_EQ(response.results_size(), 5);
  EXPECT_NE(response.results(4).status().code(), 0);

  // A batch for a level nobody serves: NOT_FOUND, its query refused.
  v1::RunQueriesRequest unknown;
  unknown.set_level("levels/nowhere");
  *unknown.add_queries() = testing::RayAlongX(6, 0);
  EXPECT_EQ(testing::RunQueries(*collisions, unknown, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);

  // Health, and a method no service has (its name is the client's choice,
  // so it is counted as "unknown", not under a label of its own).
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::health::v1::HealthCheckResponse health;
    EXPECT_TRUE(grpc::health::v1::Health::NewStub(channel)
                    ->Check(&context, {}, &health)
                    .ok());
  }
  {
    grpc::GenericStub generic(channel);
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::CompletionQueue cq;
    grpc::ByteBuffer request;
    auto call = generic.PrepareUnaryCall(&context, "/x.Y/Z", request, &cq);
    call->StartCall();
    grpc::ByteBuffer reply;
    grpc::Status status;
    call->Finish(&reply, &status, nullptr);
    void* tag = nullptr;
    bool ok = false;
    ASSERT_TRUE(cq.Next(&tag, &ok));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
    cq.Shutdown();
    while (cq.Next(&tag, &ok)) {
    }
  }

  v1::PutLevelResponse put;
  ASSERT_TRUE(
      testing::PutLevel(*levels, testing::WallLevel("wall", 5, 7), &put).ok());

  // A stream, open while scraped.
  grpc::ClientContext stream_context;
  stream_context.set_deadline(Deadline());
  auto stream = collisions->StreamQueries(&stream_context);
  v1::StreamQueriesRequest stream_batch;
  stream_batch.set_level("levels/wall");
  stream_batch.set_batch_id(1);
  *stream_batch.add_queries() = testing::RayAlongX(7, 0);
  ASSERT_TRUE(stream->Write(stream_batch));
  v1::StreamQueriesResponse stream_response;
  ASSERT_TRUE(stream->Read(&stream_response));

  const Page during = Scrape(metrics_port);
  EXPECT_EQ(during["collide_streams_open"], 1);
  EXPECT_EQ(during["collide_batches_in_flight"], 0);
  EXPECT_EQ(during[kRayHit], 3);  // two arena hits and the wall
  EXPECT_EQ(during[kRayMiss], 1);
  EXPECT_EQ(during[kRayStartOverlap], 1);
  EXPECT_EQ(during[kRayRefused], 2);  // NaN, and the unknown level's
  EXPECT_EQ(
      during[R"(collide_queries_total{kind="circle_cast",outcome="hit"})"], 0);
  EXPECT_EQ(during[kRunQueriesOk], 1);
  EXPECT_EQ(during[kRunQueriesNotFound], 1);
  EXPECT_EQ(during[kPutLevelOk], 1);
  EXPECT_EQ(
      during
          [R"(grpc_server_handled_total{grpc_type="unary",grpc_service="grpc.health.v1.Health",grpc_method="Check",grpc_code="OK"})"],
      1);
  EXPECT_EQ(
      during
          [R"(grpc_server_handled_total{grpc_type="unknown",grpc_service="unknown",grpc_method="unknown",grpc_code="UNIMPLEMENTED"})"],
      1);
  EXPECT_EQ(during["collide_batch_size_count"], 3);
  EXPECT_EQ(during["collide_batch_size_sum"], 5 + 1 + 1);
  EXPECT_EQ(during[R"(collide_batch_size_bucket{le="1"})"], 2);
  EXPECT_EQ(during[R"(collide_batch_size_bucket{le="+Inf"})"], 3);
  EXPECT_EQ(during["collide_batch_latency_seconds_count"], 3);
  EXPECT_GT(during["collide_batch_latency_seconds_sum"], 0);
  EXPECT_EQ(during["collide_level_puts_total"], 1);
  EXPECT_EQ(during["collide_level_build_seconds_count"], 2);
  EXPECT_EQ(during["collide_levels_loaded"], 2);
  const double wall_bytes =
      during[R"(collide_level_held_bytes{level="levels/wall"})"];
  EXPECT_GT(wall_bytes, 0);
  EXPECT_EQ(
      during["collide_level_store_held_bytes"],
      wall_bytes + during[R"(collide_level_held_bytes{level="levels/arena"})"]);
  EXPECT_EQ(during[R"(collide_level_version{level="levels/wall"})"],
            put.summary().version());

  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  grpc::ClientContext delete_context;
  delete_context.set_deadline(Deadline());
  v1::DeleteLevelRequest delete_request;
  delete_request.set_level("levels/wall");
  v1::DeleteLevelResponse deleted;
  ASSERT_TRUE(
      levels->DeleteLevel(&delete_context, delete_request, &deleted).ok());

  // The stream's end is counted as gRPC finishes the call, just after the
  // client sees it.
  const Page after = ScrapeUntil(metrics_port, [](const Page& page) {
    return page["collide_streams_open"] == 0 && page[kStreamQueriesOk] == 1;
  });
  EXPECT_EQ(after["collide_streams_open"], 0);
  EXPECT_EQ(after[kStreamQueriesOk], 1);
  EXPECT_EQ(after["collide_level_deletes_total"], 1);
  EXPECT_EQ(after["collide_levels_loaded"], 1);
  EXPECT_TRUE(
      std::isnan(after[R"(collide_level_held_bytes{level="levels/wall"})"]));
  EXPECT_GE(after["process_cpu_seconds_total"],
            before["process_cpu_seconds_total"]);
}

TEST(MetricsE2eTest, OnlyMetricsIsServedAndOnlyToGetAndHead) {
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  const std::string base = absl::StrCat("http://127.0.0.1:", metrics_port);
  const auto status_of = [&](const std::string& arguments) {
    return Curl(absl::StrCat("--output /dev/null --write-out '%{http_code}' ",
                             arguments))
        .body;
  };
  EXPECT_EQ(status_of(base + "/metrics"), "200");
  EXPECT_EQ(status_of("--head " + base + "/metrics"), "200");
  EXPECT_EQ(status_of(base + "/"), "404");
  EXPECT_EQ(status_of(base + "/metrics/x"), "404");
  EXPECT_EQ(status_of("--request POST " + base + "/metrics"), "405");
  EXPECT_EQ(
      Curl(absl::StrCat("--output /dev/null --write-out '%{content_type}' ",
                        base, "/metrics"))
          .body,
      "text/plain; version=0.0.4; charset=utf-8");
}

TEST(MetricsE2eTest, WithoutMetricsListenNoEndpointIsStarted) {
  // No flag, an empty value and `none` (as --admin_listen takes) all mean
  // off.
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{
           {"--listen=127.0.0.1:0"},
           {"--listen=127.0.0.1:0", "--metrics_listen="},
           {"--listen=127.0.0.1:0", "--metrics_listen=none"}}) {
    ServerProcess server;
    ASSERT_TRUE(server.Start(flags)) << server.log();
    server.Signal(SIGTERM);
    EXPECT_EQ(server.Wait(15), std::optional<int>(0));
    EXPECT_EQ(server.log().find("metrics port"), std::string::npos)
        << flags.back() << "\n"
        << server.log();
  }
}

TEST(MetricsE2eTest, AMetricsAddressThatCannotBeBoundFailsTheStart) {
  ServerProcess first;
  ASSERT_TRUE(
      first.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << first.log();
  const int taken = first.MetricsPort();
  ASSERT_GT(taken, 0);
  ServerProcess second;
  EXPECT_FALSE(
      second.Start({"--listen=127.0.0.1:0",
                    absl::StrCat("--metrics_listen=127.0.0.1:", taken)}));
  EXPECT_EQ(second.Wait(15), std::optional<int>(1)) << second.log();
  EXPECT_NE(second.log().find("metrics_listen"), std::string::npos)
      << second.log();
}

}  // namespace
}  // namespace collide::server
