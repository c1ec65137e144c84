#include "echo_service.h"

#include <deque>
#include <utility>

#include "absl/synchronization/mutex.h"

namespace collide_bench {
namespace {

using collide::bench::v1::StreamEchoRequest;
using collide::bench::v1::StreamEchoResponse;

class EchoReactor final
    : public grpc::ServerBidiReactor<StreamEchoRequest, StreamEchoResponse> {
 public:
  EchoReactor() { StartRead(&request_); }

  void OnReadDone(bool ok) override {
    const StreamEchoResponse* write = nullptr;
    bool finish = false;
    {
      absl::MutexLock lock(&mutex_);
      if (!ok) {
        reads_done_ = true;
        finish = !writing_ && queue_.empty() && !finished_;
        finished_ = finished_ || finish;
      } else {
        queue_.emplace_back();
        queue_.back().set_payload(std::move(*request_.mutable_payload()));
        if (!writing_) {
          writing_ = true;
          write = &queue_.front();
        }
      }
    }
    if (write != nullptr) StartWrite(write);
    if (ok) StartRead(&request_);
    if (finish) Finish(grpc::Status::OK);
  }

  void OnWriteDone(bool ok) override {
    const StreamEchoResponse* write = nullptr;
    bool finish = false;
    {
      absl::MutexLock lock(&mutex_);
      queue_.pop_front();
      writing_ = false;
      if (!ok) {
        queue_.clear();
      } else if (!queue_.empty()) {
        writing_ = true;
        write = &queue_.front();
      }
      if (!writing_ && (reads_done_ || !ok) && !finished_) {
        finished_ = finish = true;
      }
    }
    if (write != nullptr) StartWrite(write);
    if (finish) Finish(grpc::Status::OK);
  }

  void OnDone() override { delete this; }

 private:
  StreamEchoRequest request_;
  absl::Mutex mutex_;
  std::deque<StreamEchoResponse> queue_ ABSL_GUARDED_BY(mutex_);
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool reads_done_ ABSL_GUARDED_BY(mutex_) = false;
  bool finished_ ABSL_GUARDED_BY(mutex_) = false;
};

}  // namespace

grpc::ServerBidiReactor<StreamEchoRequest, StreamEchoResponse>*
EchoServiceImpl::StreamEcho(grpc::CallbackServerContext* /*context*/) {
  return new EchoReactor();
}

}  // namespace collide_bench
