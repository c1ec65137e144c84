// ArenaMessageAllocator: gRPC's per-call messages of a callback unary method
// on a protobuf arena of their own. By default gRPC heap-allocates the
// request and response, and parsing a batch of queries and building its
// results then costs about ten heap allocations per query and as many
// frees; on the call's arena they are pointer bumps and all of it is
// dropped with the call. Register with the generated
// SetMessageAllocatorFor_<Method>(); the allocator must outlive the server.
#ifndef COLLIDE_SERVER_ARENA_MESSAGE_ALLOCATOR_H_
#define COLLIDE_SERVER_ARENA_MESSAGE_ALLOCATOR_H_

#include <cstddef>

#include "google/protobuf/arena.h"
#include "grpcpp/support/message_allocator.h"

namespace collide::server {

template <typename Request, typename Response>
class ArenaMessageAllocator final
    : public grpc::MessageAllocator<Request, Response> {
 public:
  grpc::MessageHolder<Request, Response>* AllocateMessages() override {
    return new Holder();
  }

 private:
  class Holder final : public grpc::MessageHolder<Request, Response> {
   public:
    Holder() : arena_(Options()) {
      this->set_request(
          google::protobuf::Arena::CreateMessage<Request>(&arena_));
      this->set_response(
          google::protobuf::Arena::CreateMessage<Response>(&arena_));
    }
    // gRPC calls this once it is done with both messages.
    void Release() override { delete this; }

   private:
    // A small first block for small calls; blocks up to 64 KiB, so a
    // 256-query call takes a handful of them rather than dozens.
    static google::protobuf::ArenaOptions Options() {
      google::protobuf::ArenaOptions options;
      options.start_block_size = size_t{4} << 10;
      options.max_block_size = size_t{64} << 10;
      return options;
    }

    google::protobuf::Arena arena_;
  };
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_ARENA_MESSAGE_ALLOCATOR_H_
