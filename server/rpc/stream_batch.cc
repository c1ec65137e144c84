#include "server/rpc/stream_batch.h"

#include <algorithm>
#include <cstddef>
#include <memory>

#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/arena.h"

namespace collide::server {
namespace {

// Blocks the arena adds when a batch outgrows its first block: large enough
// that a 256-query batch needs few of them on its first use.
constexpr size_t kGrowthBlockBytes = size_t{64} << 10;

}  // namespace

StreamBatch::StreamBatch() { StartArena(); }

void StreamBatch::Reset() {
  const size_t used = arena_->SpaceAllocated();
  arena_.reset();  // frees every block but block_
  if (used > block_size_ && block_size_ < kMaxKeptBytes) {
    block_size_ = std::min(used, kMaxKeptBytes);
    block_ = std::make_unique_for_overwrite<char[]>(block_size_);
  }
  StartArena();
}

void StreamBatch::StartArena() {
  google::protobuf::ArenaOptions options;
  options.initial_block = block_.get();
  options.initial_block_size = block_size_;
  options.max_block_size = kGrowthBlockBytes;
  arena_.emplace(options);
  request_ = google::protobuf::Arena::CreateMessage<v1::StreamQueriesRequest>(
      &*arena_);
  response_ = google::protobuf::Arena::CreateMessage<v1::StreamQueriesResponse>(
      &*arena_);
}

}  // namespace collide::server
