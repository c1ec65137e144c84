// The grpc_server_* families against the collide_server binary after known
// traffic: exact counts of calls started and handled, messages received and
// sent (a StreamQueries message is one batch), handling-time histograms,
// for every call type on the query and the admin port; the latency
// buckets; the health gauges; and Debian's `promtool check metrics` over a
// real scrape. Loopback only; every wait is bounded.
#include <stdio.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"
#include "tests/support/temp_dir.h"

#ifndef COLLIDE_SERVER_DOC
#error "COLLIDE_SERVER_DOC must name docs/server.md"
#endif

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::server {
namespace {

using testing::Deadline;

class ServerProcess : public ::collide::testing::ServerProcess {
 public:
  ServerProcess() : ::collide::testing::ServerProcess(COLLIDE_SERVER_BINARY) {}

  // The metrics port from the "(metrics port N)" log line; 0 if it does not
  // come within 10 s.
  int MetricsPort() {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < give_up) {
      const std::string text = log();
      const size_t at = text.find("(metrics port ");
      if (at != std::string::npos) return std::atoi(text.c_str() + at + 14);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
  }
};

// What `command` (run by /bin/sh) prints on stdout, and its exit status
// (-1 if it could not run).
struct ShellRun {
  int exit_code = -1;
  std::string output;
};

ShellRun Shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    run.output.append(buffer, n);
  }
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string CurlMetrics(int metrics_port) {
  const ShellRun curl = Shell(
      absl::StrCat("curl --silent --show-error --max-time 10 http://127.0.0.1:",
                   metrics_port, "/metrics"));
  EXPECT_EQ(curl.exit_code, 0) << "curl failed (is Debian's curl installed?)";
  return curl.output;
}

// Each sample's value by its "name{labels}" text; -1 for a missing one
// (metrics_e2e_test checks the format itself, promtool below).
struct Page {
  std::map<std::string, double> samples;
  double operator[](const std::string& series) const {
    const auto it = samples.find(series);
    return it == samples.end() ? -1 : it->second;
  }
};

Page Scrape(int metrics_port) {
  Page page;
  for (const absl::string_view line :
       absl::StrSplit(CurlMetrics(metrics_port), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    double value = 0;
    if (!absl::SimpleAtod(line.substr(space + 1), &value)) continue;
    page.samples[std::string(line.substr(0, space))] = value;
  }
  return page;
}

// The labels of one method, as the page prints them.
std::string MethodLabels(absl::string_view type, absl::string_view service,
                         absl::string_view method) {
  return absl::StrCat("grpc_type=\"", type, "\",grpc_service=\"", service,
                      "\",grpc_method=\"", method, "\"");
}

// Calls started, handled with `code`, messages received and sent, and
// handling-time observations of one method, as the page says them.
struct MethodCounts {
  double started, handled, received, sent, timed;
  bool operator==(const MethodCounts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const MethodCounts& counts) {
  return out << "started " << counts.started << ", handled " << counts.handled
             << ", received " << counts.received << ", sent " << counts.sent
             << ", timed " << counts.timed;
}

MethodCounts CountsOf(const Page& page, const std::string& labels,
                      absl::string_view code = "OK") {
  return {page["grpc_server_started_total{" + labels + "}"],
          page[absl::StrCat("grpc_server_handled_total{", labels,
                            ",grpc_code=\"", code, "\"}")],
          page["grpc_server_msg_received_total{" + labels + "}"],
          page["grpc_server_msg_sent_total{" + labels + "}"],
          page["grpc_server_handling_seconds_count{" + labels + "}"]};
}

const std::string kRunQueries =
    MethodLabels("unary", "collide.v1.CollisionService", "RunQueries");
const std::string kStreamQueries =
    MethodLabels("bidi_stream", "collide.v1.CollisionService", "StreamQueries");
const std::string kPutLevel =
    MethodLabels("unary", "collide.v1.LevelService", "PutLevel");
const std::string kHealthCheck =
    MethodLabels("unary", "grpc.health.v1.Health", "Check");
const std::string kHealthWatch =
    MethodLabels("server_stream", "grpc.health.v1.Health", "Watch");
const std::string kReflectionV1 =
    MethodLabels("bidi_stream", "grpc.reflection.v1.ServerReflection",
                 "ServerReflectionInfo");
const std::string kReflectionV1Alpha =
    MethodLabels("bidi_stream", "grpc.reflection.v1alpha.ServerReflection",
                 "ServerReflectionInfo");

// Calls of the method with `labels` handled, whatever their code.
double HandledWithAnyCode(const Page& page, const std::string& labels) {
  double handled = 0;
  const std::string prefix =
      absl::StrCat("grpc_server_handled_total{", labels, ",grpc_code=");
  for (const auto& [series, value] : page.samples) {
    if (absl::StartsWith(series, prefix)) handled += value;
  }
  return handled;
}

// Polls until the stream's and the watch's ends are counted (gRPC
// finishes a call just after the client sees it end) or 10 s pass.
Page ScrapeWhenStreamsHandled(int metrics_port) {
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  const auto handled = [](const Page& page) {
    return CountsOf(page, kStreamQueries).handled == 1 &&
           CountsOf(page, kReflectionV1).handled == 1 &&
           CountsOf(page, kReflectionV1Alpha).handled == 1 &&
           HandledWithAnyCode(page, kHealthWatch) == 1;
  };
  Page page = Scrape(metrics_port);
  while (!handled(page) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    page = Scrape(metrics_port);
  }
  return page;
}

// A reflection stream of `Service` asking for the services `requests`
// times, answered each time.
template <typename Service, typename Request, typename Response>
void ListServices(const std::shared_ptr<grpc::Channel>& channel, int requests) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stub = Service::NewStub(channel);
  auto stream = stub->ServerReflectionInfo(&context);
  for (int i = 0; i < requests; ++i) {
    Request request;
    request.set_list_services("");
    ASSERT_TRUE(stream->Write(request));
    Response response;
    ASSERT_TRUE(stream->Read(&response));
  }
  stream->WritesDone();
  ASSERT_TRUE(stream->Finish().ok());
}

// Three unary calls, one stream of four batches, one health check, one
// health watch (answered, then cancelled), a reflection v1 stream of two
// requests; on the admin port one PutLevel and a reflection v1alpha stream
// of one request.
void SendKnownTraffic(const ServerProcess& server) {
  const auto channel = testing::Connect(server.port());
  const auto collisions = v1::CollisionService::NewStub(channel);
  v1::RunQueriesRequest batch;
  batch.set_level("levels/arena");
  *batch.add_queries() = testing::RayAlongX(1, 0);
  for (int i = 0; i < 3; ++i) {
    v1::RunQueriesResponse response;
    ASSERT_TRUE(testing::RunQueries(*collisions, batch, &response).ok());
  }
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    auto stream = collisions->StreamQueries(&context);
    for (int i = 0; i < 4; ++i) {
      v1::StreamQueriesRequest request;
      request.set_level("levels/arena");
      request.set_batch_id(i + 1);
      *request.add_queries() = testing::RayAlongX(i, 0);
      ASSERT_TRUE(stream->Write(request));
      v1::StreamQueriesResponse response;
      ASSERT_TRUE(stream->Read(&response));
    }
    stream->WritesDone();
    ASSERT_TRUE(stream->Finish().ok());
  }
  const auto health = grpc::health::v1::Health::NewStub(channel);
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(health->Check(&context, {}, &response).ok());
  }
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    auto watch = health->Watch(&context, {});
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(watch->Read(&response));
    context.TryCancel();
    while (watch->Read(&response)) {
    }
    EXPECT_EQ(watch->Finish().error_code(), grpc::StatusCode::CANCELLED);
  }
  ListServices<grpc::reflection::v1::ServerReflection,
               grpc::reflection::v1::ServerReflectionRequest,
               grpc::reflection::v1::ServerReflectionResponse>(channel, 2);
  const auto admin = testing::Connect(server.admin_port());
  const auto levels = v1::LevelService::NewStub(admin);
  v1::PutLevelResponse put;
  ASSERT_TRUE(
      testing::PutLevel(*levels, testing::WallLevel("wall", 5, 7), &put).ok());
  ListServices<grpc::reflection::v1alpha::ServerReflection,
               grpc::reflection::v1alpha::ServerReflectionRequest,
               grpc::reflection::v1alpha::ServerReflectionResponse>(admin, 1);
}

TEST(GrpcMetricsE2eTest, CountsMatchTheTrafficSentExactly) {
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();

  const Page before = Scrape(metrics_port);
  // Every known method is on the page from the start, at 0.
  EXPECT_EQ(before["grpc_server_started_total{" + kRunQueries + "}"], 0);
  EXPECT_EQ(before["grpc_server_msg_received_total{" + kStreamQueries + "}"],
            0);
  EXPECT_EQ(before["grpc_server_msg_sent_total{" + kHealthWatch + "}"], 0);
  EXPECT_EQ(before["collide_serving"], 1);
  EXPECT_EQ(before["collide_level_files_skipped"], 0);

  SendKnownTraffic(server);
  if (HasFatalFailure()) return;
  const Page page = ScrapeWhenStreamsHandled(metrics_port);

  EXPECT_EQ(CountsOf(page, kRunQueries), (MethodCounts{3, 3, 3, 3, 3}));
  // One message is one batch.
  EXPECT_EQ(CountsOf(page, kStreamQueries), (MethodCounts{1, 1, 4, 4, 1}));
  EXPECT_EQ(CountsOf(page, kHealthCheck), (MethodCounts{1, 1, 1, 1, 1}));
  EXPECT_EQ(CountsOf(page, kPutLevel), (MethodCounts{1, 1, 1, 1, 1}));
  EXPECT_EQ(CountsOf(page, kReflectionV1), (MethodCounts{1, 1, 2, 2, 1}));
  EXPECT_EQ(CountsOf(page, kReflectionV1Alpha), (MethodCounts{1, 1, 1, 1, 1}));
  // The watch's first answer, then the client cancelled it: handled once,
  // with the code gRPC's health service finishes a cancelled watch with
  // (UNKNOWN in gRPC 1.51), or CANCELLED where it sends none.
  EXPECT_EQ(CountsOf(page, kHealthWatch).started, 1);
  EXPECT_EQ(CountsOf(page, kHealthWatch).received, 1);
  EXPECT_GE(CountsOf(page, kHealthWatch).sent, 1);
  EXPECT_EQ(HandledWithAnyCode(page, kHealthWatch), 1);
  EXPECT_EQ(CountsOf(page, kHealthWatch).timed, 1);
  EXPECT_EQ(page[absl::StrCat("grpc_server_handling_seconds_bucket{",
                              kRunQueries, ",le=\"+Inf\"}")],
            3);
  EXPECT_EQ(page[absl::StrCat("grpc_server_handling_seconds_bucket{",
                              kRunQueries, ",le=\"10\"}")],
            3);
  // Methods never called have no histogram.
  EXPECT_EQ(
      page["grpc_server_handling_seconds_count{" +
           MethodLabels("unary", "collide.v1.LevelService", "DeleteLevel") +
           "}"],
      -1);
  // No call was taken for an unknown method.
  EXPECT_EQ(page["grpc_server_started_total{" +
                 MethodLabels("unknown", "unknown", "unknown") + "}"],
            0);
}

// 1 us to 10 s in 1-2-5 steps, for both latency histograms.
TEST(GrpcMetricsE2eTest, LatencyBucketsRunFromAMicrosecondToTenSeconds) {
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  SendKnownTraffic(server);
  if (HasFatalFailure()) return;
  const Page page = ScrapeWhenStreamsHandled(metrics_port);
  const std::vector<std::string> bounds = {
      "1e-06", "2e-06", "5e-06", "1e-05", "2e-05", "5e-05", "1e-04", "2e-04",
      "5e-04", "0.001", "0.002", "0.005", "0.01",  "0.02",  "0.05",  "0.1",
      "0.2",   "0.5",   "1",     "2",     "5",     "10"};
  // Seven batches (three unary, four on the stream); three RunQueries.
  const std::map<std::string, double> families = {
      {"collide_batch_latency_seconds_bucket{", 7},
      {absl::StrCat("grpc_server_handling_seconds_bucket{", kRunQueries, ","),
       3}};
  for (const auto& [family, total] : families) {
    int seen = 0;
    for (const auto& [series, value] : page.samples) {
      if (absl::StartsWith(series, family)) ++seen;
    }
    EXPECT_EQ(seen, static_cast<int>(bounds.size()) + 1) << family;  // +Inf
    double previous = 0;
    for (const std::string& le : bounds) {
      const double count = page[absl::StrCat(family, "le=\"", le, "\"}")];
      EXPECT_GE(count, previous) << family << le;
      previous = count;
    }
    EXPECT_EQ(previous, total) << family;
  }
}

// A level file that cannot be loaded shows in collide_level_files_skipped
// while it stays.
TEST(GrpcMetricsE2eTest, ASkippedLevelFileIsCountedWhileItStays) {
  const testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::ofstream(absl::StrCat(dir.path(), "/empty.binpb"));
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0",
                    absl::StrCat("--level_dir=", dir.path())}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  const Page page = Scrape(metrics_port);
  EXPECT_EQ(page["collide_level_files_skipped"], 1);
  EXPECT_EQ(page["collide_serving"], 1);
  EXPECT_EQ(page["collide_level_load_failures_total"], 1);
}

// Debian's promtool (package prometheus) finds nothing to say about a real
// scrape after real traffic of every call type: the format, the names
// (units and _total), HELP on every family.
TEST(GrpcMetricsE2eTest, PromtoolCheckMetricsIsCleanOnARealScrape) {
  ASSERT_EQ(Shell("command -v promtool >/dev/null").exit_code, 0)
      << "promtool not found: install it (bash scripts/install_deps.sh)";
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  SendKnownTraffic(server);
  if (HasFatalFailure()) return;
  ScrapeWhenStreamsHandled(metrics_port);
  const ShellRun promtool = Shell(
      absl::StrCat("curl --silent --show-error --max-time 10 http://127.0.0.1:",
                   metrics_port, "/metrics | promtool check metrics 2>&1"));
  EXPECT_EQ(promtool.exit_code, 0) << promtool.output;
  EXPECT_EQ(promtool.output, "") << promtool.output;
}

// The metrics table of docs/server.md: each family it names, with the type
// of its row ("" for a row naming several families of mixed types).
std::map<std::string, std::string> DocumentedFamilies() {
  std::map<std::string, std::string> families;
  std::ifstream page(COLLIDE_SERVER_DOC);
  std::string line;
  bool in_table = false;
  while (std::getline(page, line)) {
    if (absl::StartsWith(line, "| metric | type |")) {
      in_table = true;
      continue;
    }
    if (!in_table || absl::StartsWith(line, "|---")) continue;
    if (!absl::StartsWith(line, "|")) break;
    const std::vector<std::string> cells = absl::StrSplit(line, '|');
    if (cells.size() < 3) continue;
    const std::string type(absl::StripAsciiWhitespace(cells[2]));
    for (const absl::string_view name : absl::StrSplit(cells[1], ',')) {
      // Without the backticks.
      const absl::string_view bare = absl::StripSuffix(
          absl::StripPrefix(absl::StripAsciiWhitespace(name), "`"), "`");
      families[std::string(bare)] = type;
    }
  }
  return families;
}

// The table lists every family the page has, with its type, and no family
// the page lacks.
TEST(GrpcMetricsE2eTest, TheDocsTableListsEveryFamilyOfThePage) {
  const std::map<std::string, std::string> documented = DocumentedFamilies();
  ASSERT_GT(documented.size(), 20u)
      << "no metrics table in " << COLLIDE_SERVER_DOC;
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--metrics_listen=127.0.0.1:0"}))
      << server.log();
  const int metrics_port = server.MetricsPort();
  ASSERT_GT(metrics_port, 0) << server.log();
  std::map<std::string, std::string> served;
  for (const absl::string_view line :
       absl::StrSplit(CurlMetrics(metrics_port), '\n')) {
    if (!absl::StartsWith(line, "# TYPE ")) continue;
    const std::vector<std::string> parts = absl::StrSplit(line, ' ');
    ASSERT_EQ(parts.size(), 4u) << line;
    served[parts[2]] = parts[3];
  }
  for (const auto& [name, type] : served) {
    const auto it = documented.find(name);
    if (it == documented.end()) {
      ADD_FAILURE() << name << " (" << type << ") is missing from the table";
    } else if (!it->second.empty()) {
      EXPECT_EQ(it->second, type) << name;
    }
  }
  for (const auto& [name, type] : documented) {
    EXPECT_TRUE(served.count(name)) << name << " is in the table, not served";
  }
}

}  // namespace
}  // namespace collide::server
