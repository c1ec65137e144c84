// The frame of binary level files: what it writes, and every way a framed
// file can be cut or damaged, each refused with a message naming the file
// and what is wrong.
#include "proto/formats/level_frame.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::formats {
namespace {

using ::testing::HasSubstr;

TEST(LevelFrameTest, HeaderCarriesMagicVersionLengthAndChecksum) {
  const std::string framed = FrameLevelPayload("hello");
  ASSERT_EQ(framed.size(), kLevelFrameHeaderBytes + 5);
  EXPECT_EQ(framed.substr(0, 8), kLevelFrameMagic);
  EXPECT_EQ(framed.substr(8, 4), std::string("\x01\0\0\0", 4));
  EXPECT_EQ(framed.substr(12, 8), std::string("\x05\0\0\0\0\0\0\0", 8));
  // crc32("hello") = 0x3610a686, little-endian.
  EXPECT_EQ(framed.substr(20, 4), "\x86\xa6\x10\x36");
  EXPECT_EQ(framed.substr(24), "hello");
}

TEST(LevelFrameTest, RoundTripsIncludingAnEmptyPayload) {
  for (const absl::string_view payload : {"", "x", "\0\xff\n{"}) {
    const std::string framed = FrameLevelPayload(payload);
    absl::StatusOr<absl::string_view> back =
        UnframeLevelPayload(framed, "a.binpb");
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, payload);
  }
}

TEST(LevelFrameTest, LooksFramedOnTheMagicOrAPrefixOfIt) {
  EXPECT_TRUE(LooksFramed(FrameLevelPayload("x")));
  EXPECT_TRUE(LooksFramed(kLevelFrameMagic.substr(0, 1)));
  EXPECT_TRUE(LooksFramed(kLevelFrameMagic.substr(0, 5)));
  EXPECT_FALSE(LooksFramed(""));
  EXPECT_FALSE(
      LooksFramed("\x0a\x05"
                  "arena"));  // an unframed Level
  EXPECT_FALSE(LooksFramed("{\"id\": \"a\"}"));
}

TEST(LevelFrameTest, EveryCutIsDataLossNamingTheFile) {
  const std::string framed = FrameLevelPayload(std::string(100, 'p'));
  for (size_t keep = 1; keep < framed.size(); ++keep) {
    const absl::Status status =
        UnframeLevelPayload(framed.substr(0, keep), "levels/x.binpb").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << keep;
    EXPECT_THAT(std::string(status.message()),
                HasSubstr("levels/x.binpb: truncated: "))
        << keep;
  }
}

TEST(LevelFrameTest, CutMessagesSayHowMuchIsMissing) {
  const std::string framed = FrameLevelPayload(std::string(5123, 'p'));
  EXPECT_EQ(
      UnframeLevelPayload(framed.substr(0, 10), "x.binpb").status().message(),
      "x.binpb: truncated: header holds 10 of 24 bytes");
  EXPECT_EQ(
      UnframeLevelPayload(framed.substr(0, 124), "x.binpb").status().message(),
      "x.binpb: truncated: header says 5123 payload bytes, file holds "
      "100");
}

TEST(LevelFrameTest, EveryFlippedPayloadByteIsACorruption) {
  const std::string framed = FrameLevelPayload("some level bytes");
  for (size_t at = kLevelFrameHeaderBytes; at < framed.size(); ++at) {
    std::string damaged = framed;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x01);
    const absl::Status status =
        UnframeLevelPayload(damaged, "x.binpb").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << at;
    EXPECT_THAT(std::string(status.message()),
                HasSubstr("x.binpb: corrupted: checksum mismatch"))
        << at;
  }
}

TEST(LevelFrameTest, DamagedHeaderFieldsAreRefused) {
  const std::string framed = FrameLevelPayload("payload");
  std::string longer = framed + "junk";
  EXPECT_THAT(std::string(UnframeLevelPayload(longer, "x").status().message()),
              HasSubstr("trailing data: header says 7 payload bytes, file "
                        "holds 11"));
  std::string version = framed;
  version[8] = 2;
  const absl::Status version_status =
      UnframeLevelPayload(version, "x").status();
  EXPECT_EQ(version_status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(version_status.message()),
              HasSubstr("format version 2 is not supported"));
  std::string length = framed;
  length[12] = 100;
  EXPECT_EQ(UnframeLevelPayload(length, "x").status().code(),
            absl::StatusCode::kDataLoss);
  std::string crc = framed;
  crc[21] = static_cast<char>(crc[21] ^ 0x40);
  EXPECT_EQ(UnframeLevelPayload(crc, "x").status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace collide::formats
