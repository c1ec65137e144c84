// collide-load --queries=FILE: JSON lines of collide.v1.Query,
// replayed in order.
#include "client/load/query_file.h"

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

using ::testing::HasSubstr;

class QueryFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/collide_query_file_XXXXXX";
    const int fd = mkstemp(pattern);
    ASSERT_GE(fd, 0);
    close(fd);
    path_ = pattern;
  }
  void TearDown() override { unlink(path_.c_str()); }
  void Write(const std::string& text) { std::ofstream(path_) << text; }

  std::string path_;
};

TEST_F(QueryFileTest, ReadsOneQueryPerLineSkippingCommentsAndBlanks) {
  Write(R"(# recorded on the arena
{"rayCast": {"origin": {"x": 1, "y": 2}, "translation": {"x": 30}}}

{"circle_cast": {"circle": {"radius": 0.5}, "translation": {"y": 3}}, "requestId": "9"}
)");
  absl::StatusOr<std::vector<v1::Query>> queries = ReadQueryLines(path_);
  ASSERT_TRUE(queries.ok()) << queries.status();
  ASSERT_EQ(queries->size(), 2u);
  EXPECT_EQ((*queries)[0].ray_cast().origin().y(), 2);
  EXPECT_EQ((*queries)[1].circle_cast().circle().radius(), 0.5);

  // Batches cycle through the file and number their own queries.
  size_t next = 0;
  const v1::StreamQueriesRequest first = ReplayBatch(*queries, 3, &next);
  ASSERT_EQ(first.queries_size(), 3);
  EXPECT_TRUE(first.queries(0).has_ray_cast());
  EXPECT_TRUE(first.queries(1).has_circle_cast());
  EXPECT_TRUE(first.queries(2).has_ray_cast());
  EXPECT_EQ(first.queries(1).request_id(), 2u);
  EXPECT_EQ(next, 1u);
  EXPECT_TRUE(ReplayBatch(*queries, 1, &next).queries(0).has_circle_cast());
}

TEST_F(QueryFileTest, BadLinesAreRefusedWithFileAndLine) {
  Write("{\"rayCast\": {}}\n{\"rayCast\": {\"origin\": 7}}\n");
  absl::Status status = ReadQueryLines(path_).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("queries: " + path_ + ":2:"));

  Write("{}\n");
  status = ReadQueryLines(path_).status();
  EXPECT_THAT(status.message(), HasSubstr(":1: the query sets no kind"));

  Write("# nothing\n\n");
  EXPECT_THAT(ReadQueryLines(path_).status().message(),
              HasSubstr("holds no query"));

  const absl::Status missing =
      ReadQueryLines("/nonexistent/collide.jsonl").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("queries: "));
}

}  // namespace
}  // namespace collide::client::load
