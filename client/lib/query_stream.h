// QueryStream: a CollisionService.StreamQueries call against one level
// (reopened when a replica drains, see below), with a bounded window of batches
// in flight. The high-rate path: a game server sends a tick's queries as a
// batch and keeps a few ticks in flight instead of paying a round trip per
// batch.
//
// Flow control: at most `window` batches are outstanding (sent and not yet
// delivered); Send() blocks until one is delivered, so a slow server slows
// the caller instead of growing a queue. gRPC's own rules (one write and one
// read in flight per stream) are kept inside.
//
// Responses are delivered in the order the batches were sent, either to an
// on_response callback (called on a gRPC thread; keep it short) or, without
// one, through Next(). When the stream fails, every batch still outstanding
// is delivered with the stream's status: nothing is silently lost.
//
// Reopening: a server that drains (SIGTERM), or closes a connection past
// its max_connection_age_grace, ends the streams on it with UNAVAILABLE (or
// CANCELLED).
// Queries are read-only, so the stream then reopens itself (a new
// StreamQueries call, which round_robin places on a replica that is still
// serving) and resends its unanswered batches, in order, before any batch
// sent later; the caller sees the same batch ids and answers, only later.
// Up to max_reopens reopenings in a row without an answer between them;
// after that, or on any other error, the outstanding batches are delivered
// with the error as above. A batch may so be answered twice by servers
// (once unseen), never delivered twice. Each unanswered batch's request is
// kept (a copy) until its answer is delivered.
#ifndef COLLIDE_CLIENT_LIB_QUERY_STREAM_H_
#define COLLIDE_CLIENT_LIB_QUERY_STREAM_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide::client {

// What happened to one batch: its id (as Send returned it) and its
// response, or the status that ended the stream before it was answered.
// A batch the server refused as a whole (unknown level, over the batch
// limit) is a response whose status field says so; the stream goes on.
struct BatchOutcome {
  uint64_t batch_id = 0;
  absl::StatusOr<v1::StreamQueriesResponse> response;
};

struct QueryStreamOptions {
  // Batches outstanding at most (>= 1).
  int window = 8;
  // Deadline of the whole stream, reopenings included: it is cancelled
  // (DEADLINE_EXCEEDED) this long after it opened. Open a new stream for
  // longer runs.
  absl::Duration timeout = absl::Hours(1);
  // When set, every outcome goes here, in order, on a gRPC thread, and
  // Next() is not used.
  std::function<void(BatchOutcome)> on_response;
  // Metadata (key, value) sent when the stream opens; CollideClient adds
  // its ClientOptions::metadata.
  std::vector<std::pair<std::string, std::string>> metadata;
  // Reopenings in a row (without an answer between them) after the stream
  // ended with UNAVAILABLE or CANCELLED (not by this side: destroying the
  // QueryStream cancels it for good); 0: never reopen, deliver the error.
  int max_reopens = 3;
};

class QueryStream {
 public:
  // Opens the stream on `stub` for "levels/{level_id}"; `level` is the full
  // resource name. Use CollideClient::OpenStream.
  QueryStream(v1::CollisionService::StubInterface& stub, std::string level,
              QueryStreamOptions options);
  // Cancels the stream if it is still open and waits until gRPC is done
  // with it (the on_response callback is not called after this returns).
  ~QueryStream();

  QueryStream(const QueryStream&) = delete;
  QueryStream& operator=(const QueryStream&) = delete;

  // Sends one batch, blocking while `window` batches are outstanding.
  // Returns its batch id (1, 2, ... in send order). Errors: the status that
  // ended the stream, FAILED_PRECONDITION after Finish(), INVALID_ARGUMENT
  // for an empty batch (checked here, so it never costs a round trip).
  absl::StatusOr<uint64_t> Send(absl::Span<const v1::Query> queries);
  // The same for a prepared request (its level and batch_id are set here);
  // avoids a copy when the caller builds requests itself.
  absl::StatusOr<uint64_t> Send(v1::StreamQueriesRequest request);

  // Without on_response: the next outcome in send order, blocking until it
  // arrives. FAILED_PRECONDITION when no batch is outstanding (it would
  // block forever).
  absl::StatusOr<BatchOutcome> Next();

  // Half-closes the stream and waits until every outstanding batch has
  // been answered (delivered to on_response, or queued for Next) and the
  // server has closed it. Returns the stream's final status. Idempotent.
  absl::Status Finish();

  // Batches sent and not yet delivered: not yet passed to on_response, or
  // not yet taken by Next(). Send() blocks while this equals the window.
  int outstanding() const;

  // How many times the stream reopened (see the top of this file).
  int reopened() const;

 private:
  class Call;
  class Impl;

  std::unique_ptr<Impl> impl_;
};

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_QUERY_STREAM_H_
