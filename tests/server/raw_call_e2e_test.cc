// Calls a real in-process server with raw bytes through grpc::GenericStub:
// what a client in another language, a proxy or a fuzzer can send that the
// generated stubs never do. An unknown method and a request that does not
// parse each get a status a user can act on, and the server keeps serving.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using testing::Deadline;
using ::testing::HasSubstr;

grpc::ByteBuffer Bytes(const std::string& bytes) {
  grpc::Slice slice(bytes.data(), bytes.size());
  return grpc::ByteBuffer(&slice, 1);
}

class RawCallE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(testing::TestOptions());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    channel_ = testing::Connect(server_->port());
    stub_ = std::make_unique<grpc::GenericStub>(channel_);
  }

  void TearDown() override {
    // Whatever came before, the server still answers.
    if (channel_ == nullptr) return;
    v1::RunQueriesRequest request;
    request.set_level("levels/arena");
    *request.add_queries() = testing::RayAlongX(1, 0);
    v1::RunQueriesResponse response;
    const auto collisions = v1::CollisionService::NewStub(channel_);
    EXPECT_TRUE(testing::RunQueries(*collisions, request, &response).ok());
  }

  // A unary call of `method` carrying `bytes` as its request.
  grpc::Status Unary(const std::string& method, const std::string& bytes) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::CompletionQueue cq;
    auto call = stub_->PrepareUnaryCall(&context, method, Bytes(bytes), &cq);
    call->StartCall();
    grpc::ByteBuffer response;
    grpc::Status status;
    call->Finish(&response, &status, this);
    void* tag = nullptr;
    bool ok = false;
    cq.Next(&tag, &ok);
    cq.Shutdown();
    while (cq.Next(&tag, &ok)) {
    }
    return status;
  }

  // A bidi call of `method`: writes each of `messages`, closes its side,
  // reads until the end (counting into *responses and keeping the last
  // response's bytes in *last when given); returns the final status.
  grpc::Status Stream(const std::string& method,
                      const std::vector<std::string>& messages,
                      int* responses = nullptr, std::string* last = nullptr) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    grpc::CompletionQueue cq;
    auto call = stub_->PrepareCall(&context, method, &cq);
    void* tag = nullptr;
    bool ok = false;
    call->StartCall(this);
    cq.Next(&tag, &ok);
    for (const std::string& bytes : messages) {
      if (!ok) break;
      call->Write(Bytes(bytes), this);
      cq.Next(&tag, &ok);
    }
    if (ok) {
      call->WritesDone(this);
      cq.Next(&tag, &ok);
    }
    grpc::ByteBuffer response;
    for (int reads = 0; reads < 16; ++reads) {
      call->Read(&response, this);
      cq.Next(&tag, &ok);
      if (!ok) break;
      if (responses != nullptr) ++*responses;
      if (last != nullptr) {
        std::vector<grpc::Slice> slices;
        EXPECT_TRUE(response.Dump(&slices).ok());
        last->clear();
        for (const grpc::Slice& slice : slices) {
          last->append(reinterpret_cast<const char*>(slice.begin()),
                       slice.size());
        }
      }
    }
    grpc::Status status;
    call->Finish(&status, this);
    cq.Next(&tag, &ok);
    cq.Shutdown();
    while (cq.Next(&tag, &ok)) {
    }
    return status;
  }

  std::unique_ptr<CollideServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<grpc::GenericStub> stub_;
};

TEST_F(RawCallE2eTest, UnknownMethodIsUnimplementedNamingWhatIsServed) {
  for (const std::string method :
       {"/x.Y/Z", "/collide.v1.CollisionService/NoSuchMethod",
        "/collide.v2.CollisionService/RunQueries"}) {
    const grpc::Status status = Unary(method, "\x01\x02");
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED) << method;
    EXPECT_THAT(status.error_message(),
                HasSubstr(absl::StrCat("unknown method ", method)));
    EXPECT_THAT(status.error_message(),
                HasSubstr("collide.v1.CollisionService"));
    EXPECT_THAT(status.error_message(), HasSubstr("grpc.health.v1.Health"));
    // Streaming calls of unknown methods get the same answer.
    EXPECT_EQ(Stream(method, {"\x01"}).error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }
}

TEST_F(RawCallE2eTest, AHugeOrOddUnknownMethodNameIsEscapedAndCut) {
  // Within gRPC's 8 KiB metadata limit, which refuses longer ones itself.
  const std::string method = "/a\"b/" + std::string(4000, 'd');
  const grpc::Status status = Unary(method, "");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_LT(status.error_message().size(), 1000u);
  EXPECT_THAT(status.error_message(), HasSubstr("unknown method /a\\\"b/dd"));
  EXPECT_THAT(status.error_message(), HasSubstr("...(4005 bytes)"));
}

TEST_F(RawCallE2eTest, UnparseableUnaryRequestIsAnErrorThatSaysSo) {
  const grpc::Status status =
      Unary("/collide.v1.CollisionService/RunQueries", "\xff\xff\xff\xff");
  // gRPC's own answer was UNIMPLEMENTED with no message.
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "the request does not parse as a collide.v1.RunQueriesRequest "
            "(protobuf binary)");
}

TEST_F(RawCallE2eTest, UnparseableStreamMessageIsAnErrorThatSaysSo) {
  const grpc::Status status = Stream(
      "/collide.v1.CollisionService/StreamQueries", {"\xff\xff\xff\xff"});
  // gRPC's own typed read took it for the client closing its side: the
  // stream ended OK.
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "StreamQueries message 1 does not parse as a "
            "collide.v1.StreamQueriesRequest (protobuf binary); the stream "
            "is closed");
}

TEST_F(RawCallE2eTest, BatchesBeforeAnUnparseableStreamMessageAreAnswered) {
  v1::StreamQueriesRequest good;
  good.set_level("levels/arena");
  good.set_batch_id(1);
  *good.add_queries() = testing::RayAlongX(1, 0);
  int responses = 0;
  const grpc::Status status =
      Stream("/collide.v1.CollisionService/StreamQueries",
             {good.SerializeAsString(), good.SerializeAsString(), "\xff\xff"},
             &responses);
  EXPECT_EQ(responses, 2);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("StreamQueries message 3 "));
}

// A batch of more than a few KiB is parsed on the worker that answers it,
// after later batches may have been read: the answers before it still go
// out in order, and nothing read after it is answered.
TEST_F(RawCallE2eTest, BigBatchesBeforeAnUnparseableBigMessageAreAnswered) {
  v1::StreamQueriesRequest big;
  big.set_level("levels/arena");
  for (int i = 0; i < 300; ++i) *big.add_queries() = testing::RayAlongX(1, 0);
  const std::string good = big.SerializeAsString();
  ASSERT_GT(good.size(), 4096u);
  // Well-formed at the top level (one more `queries` entry, 2 bytes long),
  // but that query is a varint cut short.
  const std::string bad = good + std::string("\x12\x02\xff\xff", 4);
  int responses = 0;
  const grpc::Status status =
      Stream("/collide.v1.CollisionService/StreamQueries",
             {good, good, good, bad, good, good}, &responses);
  EXPECT_EQ(responses, 3);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("StreamQueries message 4 "));
}

// The level of a big batch is read ahead of its parse, and as parsing
// reads it: the last occurrence of the field wins.
TEST_F(RawCallE2eTest, ABigBatchNamingItsLevelTwiceRunsOnTheLastOne) {
  v1::StreamQueriesRequest big;
  big.set_level("levels/no-such-level");
  for (int i = 0; i < 300; ++i) *big.add_queries() = testing::RayAlongX(1, 0);
  v1::StreamQueriesRequest last;
  last.set_level("levels/arena");
  const std::string bytes = big.SerializeAsString() + last.SerializeAsString();
  int responses = 0;
  std::string answer;
  const grpc::Status status =
      Stream("/collide.v1.CollisionService/StreamQueries", {bytes}, &responses,
             &answer);
  EXPECT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(responses, 1);
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(response.ParseFromString(answer));
  EXPECT_EQ(response.status().code(), 0) << response.status().message();
  EXPECT_EQ(response.results_size(), 300);
}

}  // namespace
}  // namespace collide::server
