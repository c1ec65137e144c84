// CollisionService over gRPC's callback API: a thin adapter that resolves
// each batch's level to the snapshot served now, calls the query handlers
// (query_handler.h) and sends what they return. All query logic lives in
// the handlers; this file only schedules and converts statuses.
#ifndef COLLIDE_SERVER_RPC_COLLISION_SERVICE_H_
#define COLLIDE_SERVER_RPC_COLLISION_SERVICE_H_

#include <atomic>

#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/collision_service.pb.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_store.h"
#include "server/rpc/call_budget.h"
#include "server/rpc/worker_pool.h"

namespace collide::server {

// Both methods are registered raw: the reactors parse and serialize the
// messages themselves (as gRPC would), so that a request that does not parse
// gets INVALID_ARGUMENT saying so (see collision_service.cc).
class CollisionServiceImpl final
    : public v1::CollisionService::WithRawCallbackMethod_StreamQueries<
          v1::CollisionService::WithRawCallbackMethod_RunQueries<
              v1::CollisionService::Service>> {
 public:
  // `store` and `workers` must outlive the service (and so the grpc::Server
  // using it). Batches are answered on `workers`, not in gRPC's reactions.
  // Calls are admitted and their queued bytes bounded by `call_limits`
  // (call_budget.h): a call past a stream limit gets RESOURCE_EXHAUSTED
  // naming the flag, a unary call while its byte budget is spent too.
  CollisionServiceImpl(const LevelStore& store,
                       const formats::InputLimits& limits, WorkerPool& workers,
                       const CallLimits& call_limits = {})
      : store_(store),
        limits_(limits),
        workers_(workers),
        budget_(call_limits) {}

  // Answers each batch against the snapshot its level has when the batch
  // is read, writing responses in request order. A batch answered after the
  // call's deadline or cancellation stops between queries: those not yet
  // answered get DEADLINE_EXCEEDED / CANCELLED in their own result status.
  // A message that does not parse ends the stream, after the responses to
  // the batches before it, with INVALID_ARGUMENT saying which message. A
  // batch refused as a whole gets a response carrying the status; the stream
  // ends OK once the client closes its side and every response is written.
  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* StreamQueries(
      grpc::CallbackServerContext* context) override;

  // One batch (a collide.v1.RunQueriesRequest, answered with a
  // RunQueriesResponse): NOT_FOUND / INVALID_ARGUMENT / RESOURCE_EXHAUSTED
  // for a batch refused as a whole, INVALID_ARGUMENT for a request that does
  // not parse, else the results (stopping at the call's deadline or
  // cancellation as StreamQueries does).
  grpc::ServerUnaryReactor* RunQueries(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;

  // From now on every batch still running or queued stops at its next
  // check, its remaining queries CANCELLED ("the server is shutting
  // down"), whatever gRPC says of its call. CollideServer calls it when the
  // drain's grace is over: gRPC's Server::Shutdown can return while
  // reactors still run batches, and the server's destruction waits for
  // them. Irreversible; thread-safe.
  void StopBatches() { stopping_.store(true); }

  // From now on each stream, at its next batch read, reads no more: it
  // answers the batches it has read and ends with UNAVAILABLE, so clients
  // resend the rest on a new stream (another replica) at once rather than
  // when the drain's grace runs out. CollideServer calls it as the drain
  // starts. Irreversible; thread-safe.
  void Drain() { draining_.store(true); }

 private:
  const LevelStore& store_;
  const formats::InputLimits limits_;
  WorkerPool& workers_;
  CallBudget budget_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> draining_{false};
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_COLLISION_SERVICE_H_
