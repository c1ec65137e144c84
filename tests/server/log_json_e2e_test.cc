// The collide_server binary with --log_format=json. Every line it
// writes to stderr, gRPC core's own included (GRPC_VERBOSITY=DEBUG makes
// gRPC log at start), is one JSON object with time, level, logger and
// message; caller-controlled values arrive as fields with their raw text
// (a newline stays inside its string, it does not start a line), and huge
// ones are cut. Loopback only; every wait is bounded.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server/ops/log.h"
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
};

grpc::Status DeleteLevel(v1::LevelService::Stub& levels,
                         const std::string& name) {
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::DeleteLevelRequest request;
  request.set_level(name);
  v1::DeleteLevelResponse response;
  return levels.DeleteLevel(&context, request, &response);
}

// The log's lines, each parsed; a line that is not a JSON object with the
// required keys fails the test, naming it.
std::vector<nlohmann::json> ParseJsonLines(const std::string& log) {
  static const std::regex kTime(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$)");
  std::vector<nlohmann::json> lines;
  EXPECT_TRUE(log.empty() || log.back() == '\n');
  for (const absl::string_view text : absl::StrSplit(log, '\n')) {
    if (text.empty()) continue;
    nlohmann::json line =
        nlohmann::json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
    EXPECT_TRUE(line.is_object()) << "not a JSON object: " << text;
    if (!line.is_object()) continue;
    for (const char* key : {"time", "level", "logger", "message"}) {
      EXPECT_TRUE(line.contains(key) && line[key].is_string())
          << "no string \"" << key << "\": " << text;
    }
    if (line.value("time", "").empty() ||
        !std::regex_match(line.value("time", ""), kTime)) {
      ADD_FAILURE() << "time not RFC 3339 UTC with ms: " << text;
    }
    const std::string level = line.value("level", "");
    EXPECT_TRUE(level == "debug" || level == "info" || level == "warning" ||
                level == "error")
        << text;
    lines.push_back(std::move(line));
  }
  return lines;
}

TEST(LogJsonE2eTest, EveryLineIsAJsonObjectGrpcCoreLinesIncluded) {
  const std::string forged_name =
      "levels/a\n{\"time\":\"2026-01-01T00:00:00.000Z\",\"level\":\"info\","
      "\"message\":\"level deleted\"}";
  const std::string huge_name = "levels/" + std::string(1 << 20, 'x');
  ServerProcess server;
  // Inherited by the child only; gRPC core then logs its experiments at
  // start (debug) through the server's writer.
  setenv("GRPC_VERBOSITY", "DEBUG", /*overwrite=*/1);
  const bool started =
      server.Start({"--listen=127.0.0.1:0", "--log_format=json"});
  unsetenv("GRPC_VERBOSITY");
  ASSERT_TRUE(started) << server.log();
  {
    const auto levels =
        v1::LevelService::NewStub(testing::Connect(server.admin_port()));
    EXPECT_FALSE(DeleteLevel(*levels, forged_name).ok());
    EXPECT_FALSE(DeleteLevel(*levels, huge_name).ok());
    v1::PutLevelResponse put;
    ASSERT_TRUE(
        testing::PutLevel(*levels, testing::WallLevel("wall", 5, 7), &put)
            .ok());
  }
  server.Signal(SIGTERM);
  ASSERT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  const std::string log = server.log();
  EXPECT_LT(log.size(), 64u << 10);

  const std::vector<nlohmann::json> lines = ParseJsonLines(log);
  bool grpc_line = false;
  bool forged_refusal = false;
  bool huge_refusal = false;
  bool put_line = false;
  bool listening = false;
  for (const nlohmann::json& line : lines) {
    const std::string logger = line.value("logger", "");
    if (logger == "grpc") {
      grpc_line = true;
      EXPECT_TRUE(line.contains("file") && line["file"].is_string()) << line;
      EXPECT_TRUE(line.contains("line") && line["line"].is_number()) << line;
      continue;
    }
    EXPECT_EQ(logger, "collide_server") << line;
    const std::string message = line.value("message", "");
    if (message.rfind("listening on", 0) == 0) {
      listening = true;
      EXPECT_EQ(line.value("port", 0), server.port()) << line;
    }
    if (message.rfind("DeleteLevel ", 0) == 0) {
      EXPECT_EQ(line.value("level", ""), "warning") << line;
      EXPECT_TRUE(line.contains("status") && line.contains("peer")) << line;
      const std::string name = line.value("level_name", "");
      if (name == forged_name) {
        // The raw name, newline and quotes intact, inside its string; the
        // message holds it decoded the same (escaped once, by JSON).
        forged_refusal = true;
        EXPECT_NE(message.find(forged_name), std::string::npos) << line;
        EXPECT_EQ(message.find("\\n"), std::string::npos) << line;
      } else if (name.rfind("levels/xxxx", 0) == 0) {
        huge_refusal = true;
        EXPECT_LT(name.size(), kMaxLogValueBytes + 32) << name.size();
        EXPECT_NE(name.find("...(1048583 bytes)"), std::string::npos);
      }
    }
    if (line.value("level_id", "") == "wall" &&
        message.find("created") != std::string::npos) {
      put_line = true;
      EXPECT_EQ(line.value("version", int64_t{0}), 2) << line;  // arena is 1
      EXPECT_EQ(line.value("created", false), true) << line;
      EXPECT_NE(line.value("peer", "").find("127.0.0.1"), std::string::npos)
          << line;
    }
  }
  EXPECT_TRUE(grpc_line) << log;
  EXPECT_TRUE(forged_refusal) << log;
  EXPECT_TRUE(huge_refusal) << log;
  EXPECT_TRUE(put_line) << log;
  EXPECT_TRUE(listening) << log;
}

// --log_json_fields=ecs: Elastic's keys on every line; an admin call
// without the token is a warning naming the peer, the status and its code.
TEST(LogJsonE2eTest, EcsFieldsAndRefusedAdminCallsAtWarning) {
  char dir[] = "/tmp/collide_log_ecs_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string token_file = std::string(dir) + "/token";
  FILE* file = fopen(token_file.c_str(), "w");
  ASSERT_NE(file, nullptr);
  fputs("ecs-token\n", file);
  fclose(file);
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--log_format=json",
                            "--log_json_fields=ecs",
                            "--admin_token_file=" + token_file}))
      << server.log();
  {
    const auto levels =
        v1::LevelService::NewStub(testing::Connect(server.admin_port()));
    v1::PutLevelResponse put;
    EXPECT_EQ(testing::PutLevel(*levels, testing::WallLevel("wall", 5, 7), &put)
                  .error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  server.Signal(SIGTERM);
  ASSERT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  unlink(token_file.c_str());
  rmdir(dir);
  bool refusal = false;
  for (const absl::string_view text : absl::StrSplit(server.log(), '\n')) {
    if (text.empty()) continue;
    const nlohmann::json line =
        nlohmann::json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(line.is_object()) << text;
    for (const char* key :
         {"@timestamp", "log.level", "log.logger", "message"}) {
      EXPECT_TRUE(line.contains(key)) << key << " missing: " << text;
    }
    EXPECT_FALSE(line.contains("time") || line.contains("level")) << text;
    if (line.value("message", "").rfind("PutLevel from", 0) == 0) {
      refusal = true;
      EXPECT_EQ(line.value("log.level", ""), "warning") << text;
      EXPECT_EQ(line.value("code", ""), "UNAUTHENTICATED") << text;
      EXPECT_EQ(line.value("method", ""), "PutLevel") << text;
      EXPECT_NE(line.value("peer", "").find("127.0.0.1"), std::string::npos)
          << text;
      EXPECT_NE(line.value("status", "").find("UNAUTHENTICATED"),
                std::string::npos)
          << text;
    }
  }
  EXPECT_TRUE(refusal) << server.log();
}

TEST(LogJsonE2eTest, TextStaysTheDefault) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0"})) << server.log();
  server.Signal(SIGTERM);
  ASSERT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  const std::string log = server.log();
  static const std::regex kTextLine(
      R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z collide_server: .+$)");
  for (const absl::string_view text : absl::StrSplit(log, '\n')) {
    if (text.empty()) continue;
    EXPECT_TRUE(std::regex_match(std::string(text), kTextLine)) << text;
  }
}

TEST(LogJsonE2eTest, AnUnknownLogFormatIsRefused) {
  ServerProcess server;
  EXPECT_FALSE(server.Start({"--listen=127.0.0.1:0", "--log_format=xml"}));
  EXPECT_EQ(server.Wait(15), std::optional<int>(2));
  EXPECT_NE(server.log().find("log_format"), std::string::npos) << server.log();
}

}  // namespace
}  // namespace collide::server
