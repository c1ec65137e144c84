// Log values and lines: whatever a caller puts in an id, a path or a
// message, a log call writes exactly one line of bounded length.
#include "server/ops/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "grpc/grpc.h"
#include "grpc/support/log.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace collide::server {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(LogValueTest, PrintableAsciiIsKeptAsIs) {
  EXPECT_EQ(LogValue("levels/arena-2_b.json"), "levels/arena-2_b.json");
  EXPECT_EQ(LogValue(""), "");
}

TEST(LogValueTest, NewlinesQuotesAndControlCharactersAreEscaped) {
  const std::string forged =
      "x\n2024-01-01T00:00:00.000Z collide_server: level \"admin\" deleted\r\t";
  const std::string logged = LogValue(forged);
  EXPECT_THAT(logged, Not(HasSubstr("\n")));
  EXPECT_THAT(logged, Not(HasSubstr("\r")));
  EXPECT_THAT(logged, Not(HasSubstr("\t")));
  EXPECT_EQ(logged,
            "x\\n2024-01-01T00:00:00.000Z collide_server: level \\\"admin\\\" "
            "deleted\\r\\t");
  EXPECT_EQ(LogValue(std::string("a\0z", 3)), "a\\x00z");
}

TEST(LogValueTest, NonUtf8AndHighBytesAreHexEscaped) {
  EXPECT_EQ(LogValue("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(LogValue("\x1b[31m"), "\\x1b[31m");  // terminal escape
}

TEST(LogValueTest, LongValuesAreCutAndSayTheirLength) {
  const std::string huge(32 << 20, 'a');
  const std::string logged = LogValue(huge);
  EXPECT_EQ(logged, absl::StrCat(std::string(kMaxLogValueBytes, 'a'),
                                 "...(33554432 bytes)"));
  EXPECT_EQ(LogValue(std::string(kMaxLogValueBytes, 'b')),
            std::string(kMaxLogValueBytes, 'b'));
  EXPECT_EQ(LogValue("abcdef", 3), "abc...(6 bytes)");
  // The worst case: every kept byte escaped to four.
  EXPECT_LE(LogValue(std::string(1 << 20, '\n')).size(),
            4 * kMaxLogValueBytes + 32);
}

TEST(LogValueTest, StatusIsItsEscapedText) {
  EXPECT_EQ(LogValue(absl::InvalidArgumentError("bad\nid")),
            "INVALID_ARGUMENT: bad\\nid");
  // Its quotes are kept (a status is logged unquoted); backslashes before
  // them are still escaped.
  EXPECT_EQ(LogValue(absl::UnavailableError("metrics_listen \"zzz\": can't")),
            "UNAVAILABLE: metrics_listen \"zzz\": can't");
  EXPECT_EQ(LogValue(absl::InvalidArgumentError("a\\\"b\n")),
            "INVALID_ARGUMENT: a\\\\\"b\\n");
}

// Runs `log` with stderr sent to a temporary file; returns what it wrote.
template <typename F>
std::string CaptureStderr(F log) {
  char path[] = "/tmp/collide_log_test_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "";
  const int saved = dup(STDERR_FILENO);
  dup2(fd, STDERR_FILENO);
  log();
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  lseek(fd, 0, SEEK_SET);
  char buffer[4096];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, n);
  close(fd);
  unlink(path);
  return text;
}

TEST(LogLineTest, OneCallIsExactlyOneLineEvenWithRawControlCharacters) {
  const std::string text = CaptureStderr(
      [] { Log("level %s refused", std::string("a\nforged line\r")); });
  EXPECT_THAT(text, EndsWith(" collide_server: level a\\nforged line\\r "
                             "refused\n"));
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(text, '\n')).size(), 2u);
}

TEST(LogLineTest, AHugeValueThroughLogValueGivesABoundedLine) {
  const std::string text = CaptureStderr(
      [] { Log("level %s refused", LogValue(std::string(32 << 20, 'x'))); });
  EXPECT_LT(text.size(), 400u);
  EXPECT_THAT(text, HasSubstr("...(33554432 bytes) refused\n"));
}

// --log_format=json: one JSON object per line.
class JsonLogTest : public ::testing::Test {
 protected:
  void SetUp() override { SetLogFormat(LogFormat::kJson); }
  void TearDown() override { SetLogFormat(LogFormat::kText); }

  // The one line `log` writes, parsed; null (and a failure) otherwise.
  template <typename F>
  static nlohmann::ordered_json OneLine(F log) {
    const std::string text = CaptureStderr(log);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_THAT(text, EndsWith("}\n"));
    return nlohmann::ordered_json::parse(text, nullptr,
                                         /*allow_exceptions=*/false);
  }
};

TEST_F(JsonLogTest, ALineIsOneObjectWithTimeLevelLoggerMessageAndFields) {
  const nlohmann::ordered_json line = OneLine([] {
    LogAt(LogSeverity::kWarning,
          {{"level_id", "arena"}, {"version", int64_t{7}}, {"created", true}},
          "level %s replaced", "arena");
  });
  ASSERT_TRUE(line.is_object());
  EXPECT_EQ(line.begin().key(), "time");
  EXPECT_EQ(line["level"], "warning");
  EXPECT_EQ(line["logger"], "collide_server");
  EXPECT_EQ(line["message"], "level arena replaced");
  EXPECT_EQ(line["level_id"], "arena");
  EXPECT_EQ(line["version"], 7);
  EXPECT_EQ(line["created"], true);
}

TEST_F(JsonLogTest, FieldsKeepTheirRawTextEscapedByJsonAndAreCut) {
  const std::string forged = "a\n{\"level\":\"error\"}\x1b\"\\";
  const nlohmann::ordered_json line = OneLine([&] {
    LogEvent(LogSeverity::kInfo, "m\nx",
             {{"level_name", forged},
              {"huge", std::string(1 << 20, 'h')},
              {"status", absl::NotFoundError("gone\n")}});
  });
  ASSERT_TRUE(line.is_object());
  EXPECT_EQ(line["level_name"], forged);
  EXPECT_EQ(line["message"], "m\nx");
  EXPECT_EQ(line["huge"],
            std::string(kMaxLogValueBytes, 'h') + "...(1048576 bytes)");
  EXPECT_EQ(line["status"], "NOT_FOUND: gone\n");
}

// A value through LogValue is escaped once, by JSON: the decoded message
// holds it as it was (no literal backslash-n or backslash-quote).
TEST_F(JsonLogTest, AMessageDecodesToTheValuesLogged) {
  const std::string forged = "a\n{\"level\":\"error\"}\t\\";
  const nlohmann::ordered_json line = OneLine([&] {
    Log("level %s refused: %s", LogValue(forged),
        LogValue(absl::NotFoundError("gone\n")));
  });
  ASSERT_TRUE(line.is_object());
  EXPECT_EQ(line["message"], "level " + forged + " refused: NOT_FOUND: gone\n");
  // Cut as in text, without the escaping.
  EXPECT_EQ(LogValue("abcdef", 3), "abc...(6 bytes)");
}

TEST_F(JsonLogTest, CloudLoggingAndEcsNamesAreChosenByFlag) {
  SetLogJsonFields(LogJsonFields::kCloudLogging);
  nlohmann::ordered_json line = OneLine([] {
    LogEvent(LogSeverity::kWarning, "w", {{"peer", "p"}});
  });
  SetLogJsonFields(LogJsonFields::kEcs);
  nlohmann::ordered_json ecs =
      OneLine([] { LogEvent(LogSeverity::kError, "e"); });
  SetLogJsonFields(LogJsonFields::kCollide);
  ASSERT_TRUE(line.is_object() && ecs.is_object());
  EXPECT_EQ(line["severity"], "WARNING");
  EXPECT_EQ(line["message"], "w");
  EXPECT_EQ(line["peer"], "p");
  EXPECT_FALSE(line.contains("level"));
  EXPECT_EQ(ecs.begin().key(), "@timestamp");
  EXPECT_EQ(ecs["log.level"], "error");
  EXPECT_EQ(ecs["log.logger"], "collide_server");
  EXPECT_EQ(ecs["message"], "e");
}

TEST_F(JsonLogTest, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const nlohmann::ordered_json line = OneLine([] {
    LogEvent(LogSeverity::kError, "x", {{"path", "\xff\xfe/a"}});
  });
  ASSERT_TRUE(line.is_object());
  EXPECT_EQ(line["path"], "\xEF\xBF\xBD\xEF\xBF\xBD/a");
  EXPECT_EQ(line["level"], "error");
}

TEST_F(JsonLogTest, GrpcCoreLinesComeThroughTheSameWriter) {
  // gpr_log drops lines until gRPC is initialised (the server's is by
  // then).
  grpc_init();
  RouteGrpcLogs();
  const nlohmann::ordered_json line =
      OneLine([] { gpr_log(GPR_ERROR, "core says %s", "hi\nthere"); });
  ASSERT_TRUE(line.is_object());
  EXPECT_EQ(line["logger"], "grpc");
  EXPECT_EQ(line["level"], "error");
  EXPECT_EQ(line["message"], "core says hi\nthere");
  EXPECT_THAT(line["file"].get<std::string>(), EndsWith("log_test.cc"));
  EXPECT_TRUE(line["line"].is_number());
  grpc_shutdown();
}

}  // namespace
}  // namespace collide::server
