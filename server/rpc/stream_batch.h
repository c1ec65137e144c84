// StreamBatch: one StreamQueries batch's request and response, allocated on
// an arena of their own. Parsing 256 queries and building their results
// otherwise costs about ten heap allocations per query, and freeing them as
// much again; on an arena they are pointer bumps, and the whole batch is
// dropped at once. A reused batch keeps one block as big as its last use,
// so a stream's steady traffic allocates nothing per batch.
#ifndef COLLIDE_SERVER_RPC_STREAM_BATCH_H_
#define COLLIDE_SERVER_RPC_STREAM_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/arena.h"

namespace collide::server {

class StreamBatch {
 public:
  // Empty messages on a fresh arena.
  StreamBatch();
  StreamBatch(const StreamBatch&) = delete;
  StreamBatch& operator=(const StreamBatch&) = delete;

  // Both live until Reset() or destruction.
  v1::StreamQueriesRequest* request() { return request_; }
  v1::StreamQueriesResponse* response() { return response_; }

  // Drops both messages and starts empty ones; the arena's next first block
  // is as big as everything this batch allocated (up to kMaxKeptBytes), so
  // a batch of the same size fits it without a heap allocation.
  void Reset();

  // What the arena holds now: the messages' blocks, the kept one included.
  int64_t space_allocated() const {
    return static_cast<int64_t>(arena_->SpaceAllocated());
  }

  // The block kept for the next use (0 before the first Reset).
  size_t kept_bytes() const { return block_size_; }

  // What one batch keeps between uses at most: a rare huge batch (the
  // limit is max_batch_size queries) is not pinned for the stream's life.
  static constexpr size_t kMaxKeptBytes = size_t{1} << 20;

 private:
  void StartArena();

  std::unique_ptr<char[]> block_;
  size_t block_size_ = 0;
  std::optional<google::protobuf::Arena> arena_;
  v1::StreamQueriesRequest* request_ = nullptr;
  v1::StreamQueriesResponse* response_ = nullptr;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_STREAM_BATCH_H_
