// A stand-in CollisionService for the load tester's tests: answers every
// batch after a known delay, one batch at a time over all streams (one
// worker thread), so a test knows exactly how fast it can serve. It can also
// answer with per-query errors, refuse batches, or end streams.
#ifndef COLLIDE_TESTS_CLIENT_LOAD_FAKE_COLLISION_SERVICE_H_
#define COLLIDE_TESTS_CLIENT_LOAD_FAKE_COLLISION_SERVICE_H_

#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide::client::load {

struct FakeBehaviour {
  // How long each batch takes; batches are served one after another.
  absl::Duration delay = absl::Milliseconds(10);
  // Every query whose request_id is 2 gets this status code (0: none).
  int error_code_for_second_query = 0;
  // Batches for this level are refused with NOT_FOUND.
  std::string refused_level = "";
  // When > 0, each stream ends with INTERNAL after answering this many
  // batches (not UNAVAILABLE, which QueryStream answers by reopening
  // itself: the load runner would never see the stream fail).
  int end_stream_after = 0;
};

class FakeCollisionService final
    : public v1::CollisionService::CallbackService {
 public:
  explicit FakeCollisionService(FakeBehaviour behaviour);
  ~FakeCollisionService() override;

  grpc::ServerBidiReactor<v1::StreamQueriesRequest, v1::StreamQueriesResponse>*
  StreamQueries(grpc::CallbackServerContext* context) override;

  // The client metadata of every stream opened, "key: value" per entry, in
  // the order streams opened.
  std::vector<std::vector<std::string>> StreamMetadata();
  // The queries answered so far (the first 10000), in answer order.
  std::vector<v1::Query> ReceivedQueries();

  class Reactor;

 private:
  friend class Reactor;
  // Queues a reactor whose request is to be answered after the delay.
  void Enqueue(Reactor* reactor);
  void Record(const v1::StreamQueriesRequest& request);
  void Work();

  const FakeBehaviour behaviour_;
  absl::Mutex mutex_;
  std::deque<Reactor*> queue_ ABSL_GUARDED_BY(mutex_);
  std::vector<std::vector<std::string>> stream_metadata_
      ABSL_GUARDED_BY(mutex_);
  std::vector<v1::Query> received_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread worker_;
};

// A gRPC server on 127.0.0.1 (ephemeral port) serving `service`.
struct FakeServer {
  std::unique_ptr<FakeCollisionService> service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;

  ~FakeServer();
};
std::unique_ptr<FakeServer> StartFakeServer(FakeBehaviour behaviour);

}  // namespace collide::client::load

#endif  // COLLIDE_TESTS_CLIENT_LOAD_FAKE_COLLISION_SERVICE_H_
