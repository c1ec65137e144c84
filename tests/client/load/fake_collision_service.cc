#include "tests/client/load/fake_collision_service.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace collide::client::load {

// Reads one request, has the service's worker answer it after the delay,
// writes the answer, then reads the next: one batch of a stream at a time.
class FakeCollisionService::Reactor final
    : public grpc::ServerBidiReactor<v1::StreamQueriesRequest,
                                     v1::StreamQueriesResponse> {
 public:
  explicit Reactor(FakeCollisionService* service) : service_(service) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status::OK);
      return;
    }
    service_->Enqueue(this);
  }

  // On the worker thread, after the delay.
  void Answer() {
    const FakeBehaviour& behaviour = service_->behaviour_;
    response_.Clear();
    response_.set_batch_id(request_.batch_id());
    if (request_.level() == "levels/" + behaviour.refused_level) {
      response_.mutable_status()->set_code(
          static_cast<int>(grpc::StatusCode::NOT_FOUND));
      response_.mutable_status()->set_message("unknown level");
    } else {
      service_->Record(request_);
      for (const v1::Query& query : request_.queries()) {
        v1::QueryResult* result = response_.add_results();
        result->set_request_id(query.request_id());
        if (query.request_id() == 2 &&
            behaviour.error_code_for_second_query != 0) {
          result->mutable_status()->set_code(
              behaviour.error_code_for_second_query);
          result->mutable_status()->set_message("queries[1] is bad");
        } else {
          result->mutable_cast();
        }
      }
    }
    ++answered_;
    StartWrite(&response_);
  }

  void OnWriteDone(bool ok) override {
    const int end_after = service_->behaviour_.end_stream_after;
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::CANCELLED, "write failed"));
    } else if (end_after > 0 && answered_ >= end_after) {
      Finish(grpc::Status(grpc::StatusCode::INTERNAL, "going away"));
    } else {
      StartRead(&request_);
    }
  }

  void OnDone() override { delete this; }

 private:
  FakeCollisionService* service_;
  v1::StreamQueriesRequest request_;
  v1::StreamQueriesResponse response_;
  int answered_ = 0;
};

FakeCollisionService::FakeCollisionService(FakeBehaviour behaviour)
    : behaviour_(std::move(behaviour)), worker_([this] { Work(); }) {}

FakeCollisionService::~FakeCollisionService() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  worker_.join();
}

grpc::ServerBidiReactor<v1::StreamQueriesRequest, v1::StreamQueriesResponse>*
FakeCollisionService::StreamQueries(grpc::CallbackServerContext* context) {
  std::vector<std::string> metadata;
  for (const auto& [key, value] : context->client_metadata()) {
    metadata.push_back(
        absl::StrCat(absl::string_view(key.data(), key.size()), ": ",
                     absl::string_view(value.data(), value.size())));
  }
  {
    absl::MutexLock lock(&mutex_);
    stream_metadata_.push_back(std::move(metadata));
  }
  return new Reactor(this);
}

std::vector<std::vector<std::string>> FakeCollisionService::StreamMetadata() {
  absl::MutexLock lock(&mutex_);
  return stream_metadata_;
}

std::vector<v1::Query> FakeCollisionService::ReceivedQueries() {
  absl::MutexLock lock(&mutex_);
  return received_;
}

void FakeCollisionService::Record(const v1::StreamQueriesRequest& request) {
  absl::MutexLock lock(&mutex_);
  for (const v1::Query& query : request.queries()) {
    if (received_.size() < 10000) received_.push_back(query);
  }
}

void FakeCollisionService::Enqueue(Reactor* reactor) {
  absl::MutexLock lock(&mutex_);
  queue_.push_back(reactor);
}

void FakeCollisionService::Work() {
  while (true) {
    Reactor* reactor = nullptr;
    {
      absl::MutexLock lock(&mutex_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        return stopping_ || !queue_.empty();
      };
      mutex_.Await(absl::Condition(&ready));
      // Requests still queued are answered even when stopping: their
      // reactors cannot finish otherwise.
      if (queue_.empty()) return;
      reactor = queue_.front();
      queue_.pop_front();
    }
    // sleep_for never returns early, so every answer takes at least the
    // delay.
    std::this_thread::sleep_for(absl::ToChronoNanoseconds(behaviour_.delay));
    reactor->Answer();
  }
}

FakeServer::~FakeServer() {
  if (server != nullptr) {
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::seconds(5));
    server->Wait();
  }
  service.reset();
}

std::unique_ptr<FakeServer> StartFakeServer(FakeBehaviour behaviour) {
  auto fake = std::make_unique<FakeServer>();
  fake->service = std::make_unique<FakeCollisionService>(std::move(behaviour));
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &fake->port);
  builder.RegisterService(fake->service.get());
  fake->server = builder.BuildAndStart();
  return fake;
}

}  // namespace collide::client::load
