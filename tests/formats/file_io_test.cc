// Whole-file reads and atomic writes, byte for byte (level_file_test.cc
// checks the same through level files).
#include "proto/formats/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"

namespace collide::formats {
namespace {

using ::testing::HasSubstr;

TEST(FileIoTest, BytesRoundTripExactlyWithNulsAndNoTrailingNewline) {
  collide::testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = absl::StrCat(dir.path(), "/bytes");
  const std::string bytes("a\0b\xff\n\0", 6);
  ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());
  absl::StatusOr<std::string> read = ReadFileContents(path, 6);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bytes);
  EXPECT_NE(access(absl::StrCat(path, ".tmp.", getpid()).c_str(), F_OK), 0);
}

TEST(FileIoTest, EmptyFileReadsAsNoBytes) {
  collide::testing::TempDir dir;
  const std::string path = absl::StrCat(dir.path(), "/empty");
  ASSERT_TRUE(WriteFileAtomically(path, "").ok());
  absl::StatusOr<std::string> read = ReadFileContents(path, 0);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(read->empty());
}

TEST(FileIoTest, OneByteOverTheLimitIsResourceExhaustedNamingThePath) {
  collide::testing::TempDir dir;
  const std::string path = absl::StrCat(dir.path(), "/seven");
  ASSERT_TRUE(WriteFileAtomically(path, "1234567").ok());
  EXPECT_TRUE(ReadFileContents(path, 7).ok());
  const absl::Status over = ReadFileContents(path, 6).status();
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(over.message()), HasSubstr(path));
}

TEST(FileIoTest, FifoIsNotARegularFile) {
  collide::testing::TempDir dir;
  const std::string path = absl::StrCat(dir.path(), "/fifo");
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  // Opening a FIFO for reading would block until a writer came: the check
  // must refuse it without reading.
  const absl::Status status = ReadFileContents(path, 1 << 20).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("not a regular file"));
}

TEST(FileIoTest, ReplacingKeepsNoOldBytes) {
  collide::testing::TempDir dir;
  const std::string path = absl::StrCat(dir.path(), "/level");
  ASSERT_TRUE(WriteFileAtomically(path, "a much longer old content").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  absl::StatusOr<std::string> read = ReadFileContents(path, 1 << 20);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "new");
}

TEST(ReadTokenFileTest, TheFileIsOneTokenAndATrailingNewline) {
  const collide::testing::TempDir dir;
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = absl::StrCat(dir.path(), "/", name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  };
  absl::StatusOr<std::string> token = ReadTokenFile(write("ok", "abc-123\n"));
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(*token, "abc-123");

  const absl::Status empty = ReadTokenFile(write("empty", " \n")).status();
  EXPECT_EQ(empty.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(empty.message(), HasSubstr("admin_token_file: "));
  EXPECT_THAT(empty.message(), HasSubstr("is empty"));
  EXPECT_THAT(ReadTokenFile(write("two", "abc def\n")).status().message(),
              HasSubstr("without spaces"));
  const absl::Status missing =
      ReadTokenFile(absl::StrCat(dir.path(), "/none")).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(missing.message(), HasSubstr("admin_token_file: cannot open"));
}

}  // namespace
}  // namespace collide::formats
