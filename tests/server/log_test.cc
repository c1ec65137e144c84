// Log values and lines: whatever a caller puts in an id, a path or a
// message, a log call writes exactly one line of bounded length.
#include "server/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

}  // namespace
}  // namespace collide::server
