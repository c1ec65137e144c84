#include "server/ops/admin_gate.h"

#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"

namespace collide::server {
namespace {

using ::testing::HasSubstr;

TEST(IsLoopbackAddressTest, OnlyThisMachinesAddressesAreLoopback) {
  for (const char* local :
       {"127.0.0.1:50052", "127.1.2.3:1", "[::1]:50052", "localhost:50052",
        "LOCALHOST:1", "unix:/run/collide/admin.sock", "unix-abstract:x"}) {
    EXPECT_TRUE(IsLoopbackAddress(local)) << local;
  }
  for (const char* exposed :
       {"0.0.0.0:50052", "[::]:50052", "10.0.0.5:50052", "127.0.0.1.evil:1",
        "127.example.com:1", "localhost.example.com:1", "[::2]:1", "", ":1",
        "127.0.0.1"}) {
    EXPECT_FALSE(IsLoopbackAddress(exposed)) << exposed;
  }
}

TEST(ConstantTimeEqualsTest, EqualOnlyForTheSameBytes) {
  EXPECT_TRUE(ConstantTimeEquals("token", "token"));
  EXPECT_FALSE(ConstantTimeEquals("token", "tokex"));
  EXPECT_FALSE(ConstantTimeEquals("toke", "token"));
  EXPECT_FALSE(ConstantTimeEquals("token!", "token"));
  EXPECT_FALSE(ConstantTimeEquals("", "token"));
  // A prefix padded with the NUL bytes past its end is still shorter.
  EXPECT_FALSE(ConstantTimeEquals(std::string("tok\0\0", 5), "tok"));
  EXPECT_FALSE(ConstantTimeEquals("tok", std::string("tok\0\0", 5)));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
}

TEST(CheckAdminOptionsTest, AnExposedAdminListenerNeedsCredentials) {
  EXPECT_TRUE(CheckAdminOptions("127.0.0.1:50052", {}, false).ok());
  EXPECT_TRUE(CheckAdminOptions("", {}, false).ok());
  const absl::Status exposed = CheckAdminOptions("0.0.0.0:50052", {}, false);
  EXPECT_EQ(exposed.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(exposed.message(), HasSubstr("admin_listen \"0.0.0.0:50052\""));
  AdminAuthOptions token;
  token.admin_token = "t";
  EXPECT_TRUE(CheckAdminOptions("0.0.0.0:50052", token, false).ok());
  AdminAuthOptions names;
  names.admin_client_names = {"ops"};
  EXPECT_TRUE(CheckAdminOptions("0.0.0.0:50052", names, true).ok());
  EXPECT_THAT(CheckAdminOptions("127.0.0.1:1", names, false).message(),
              HasSubstr("admin_client_names needs mutual TLS"));
}

}  // namespace
}  // namespace collide::server
