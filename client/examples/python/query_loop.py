"""The query loop of collide_example.py --loop_seconds: a caller that keeps
querying through server drains and loses nothing.

For --loop_seconds (or until SIGINT or SIGTERM) it sends RunQueries calls
one after another on one thread and keeps up to WINDOW batches in flight on
one StreamQueries stream on another, all against a level every server holds
(--loop_level; the bundled levels/arena by default). Every answer must be
complete and bitwise the same as the first answer to the same batch.

What keeps it whole while a server drains (SIGTERM: the server sends
GOAWAY, lets unary calls finish, answers the batches each stream has read
and ends the stream with UNAVAILABLE, and cancels what is left when its
grace runs out):
- Unary calls: the channel's retry policy (collide_example.SERVICE_CONFIG)
  resends a call that failed with UNAVAILABLE or CANCELLED, and
  waitForReady makes a call wait for a connection (up to its deadline)
  while no server is listening.
- Streams: gRPC does not retry a stream once an answer has arrived on it,
  so the loop keeps every batch until its answer arrives; when the stream
  ends with UNAVAILABLE or CANCELLED it opens a new one and resends the
  unanswered batches, in order and with their batch ids (queries are
  read-only, so answering one twice is harmless), at most MAX_REOPENS times
  in a row without an answer in between.
"""

import collections
import queue
import signal
import threading

import grpc

from collide.v1 import collision_service_pb2 as cs
from collide.v1 import collision_service_pb2_grpc as cs_grpc
from collide.v1 import geometry_pb2 as geo

# Batches in flight on the stream.
WINDOW = 4
# Rays per batch.
RAYS = 4
# New streams in a row that may end before answering anything.
MAX_REOPENS = 3
RESENDABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


def ray_queries():
    """Ray casts across the middle of the level, RAYS of them, request ids
    1..RAYS."""
    return [cs.Query(request_id=i + 1,
                     ray_cast=cs.RayCastQuery(origin=geo.Vec2(x=0, y=i),
                                              translation=geo.Vec2(x=20, y=0)))
            for i in range(RAYS)]


class Tally:
    """Counts shared by the two loops; the first answer kept to compare."""

    def __init__(self):
        self.lock = threading.Lock()
        self.unary_answered = self.unary_failed = 0
        self.batches_answered = self.batches_failed = 0
        self.reopens = 0
        self.mismatches = 0
        self.first_answer = None

    def check(self, where, results):
        """True when `results` is complete and as the first answer was."""
        answer = b"".join(result.SerializeToString() for result in results)
        with self.lock:
            if self.first_answer is None:
                self.first_answer = answer
            if (len(results) == RAYS and answer == self.first_answer and
                    all(r.status.code == 0 for r in results)):
                return True
            self.mismatches += 1
        print(f"query_loop: {where}: the answer differs from the first one",
              flush=True)
        return False

    def failed(self, where, error, count=1):
        print(f"query_loop: {where}: {error.code().name}: {error.details()}",
              flush=True)
        with self.lock:
            if where == "RunQueries":
                self.unary_failed += count
            else:
                self.batches_failed += count

    def summary(self):
        return (f"loop: {self.unary_answered} unary calls answered, "
                f"{self.unary_failed} failed; {self.batches_answered} stream "
                f"batches answered, {self.batches_failed} failed; "
                f"{self.reopens} stream reopens")


def unary_loop(collisions, level, stop, tally, timeout):
    request = cs.RunQueriesRequest(level=level, queries=ray_queries())
    while not stop.is_set():
        try:
            response = collisions.RunQueries(request, timeout=timeout)
        except grpc.RpcError as error:
            tally.failed("RunQueries", error)
            continue
        if tally.check("RunQueries", response.results):
            with tally.lock:
                tally.unary_answered += 1


def stream_loop(collisions, level, stop, tally, timeout):
    unanswered = collections.deque()  # batches sent, oldest first
    next_batch_id = 1
    reopens_in_a_row = 0
    while not (stop.is_set() and not unanswered):
        # The request side of this stream: a generator gRPC drains on its
        # own thread; None closes it.
        outbox = queue.Queue()

        def requests(outbox=outbox):
            while (batch := outbox.get()) is not None:
                yield batch

        responses = collisions.StreamQueries(requests(), timeout=timeout)
        for batch in unanswered:
            outbox.put(batch)
        try:
            while True:
                while not stop.is_set() and len(unanswered) < WINDOW:
                    batch = cs.StreamQueriesRequest(
                        level=level, batch_id=next_batch_id,
                        queries=ray_queries())
                    next_batch_id += 1
                    unanswered.append(batch)
                    outbox.put(batch)
                if not unanswered:
                    break
                response = next(responses)
                sent = unanswered.popleft()
                reopens_in_a_row = 0
                if (response.batch_id == sent.batch_id and
                        response.status.code == 0 and
                        tally.check("StreamQueries", response.results)):
                    with tally.lock:
                        tally.batches_answered += 1
                elif response.status.code != 0:
                    print(f"query_loop: batch {sent.batch_id} refused: "
                          f"{response.status.message}", flush=True)
                    with tally.lock:
                        tally.batches_failed += 1
            outbox.put(None)
            for _ in responses:  # the server ends the call
                pass
            return
        except StopIteration:
            # The server ended the call without answering everything.
            outbox.put(None)
            print(f"query_loop: the stream ended with {len(unanswered)} "
                  "batches unanswered", flush=True)
            with tally.lock:
                tally.batches_failed += len(unanswered)
            return
        except grpc.RpcError as error:
            outbox.put(None)
            if not unanswered and stop.is_set():
                return
            if error.code() in RESENDABLE and reopens_in_a_row < MAX_REOPENS:
                reopens_in_a_row += 1
                with tally.lock:
                    tally.reopens += 1
                print(f"query_loop: the stream ended ({error.code().name}: "
                      f"{error.details()}): resending {len(unanswered)} "
                      "batches on a new one", flush=True)
                continue
            tally.failed("StreamQueries", error, len(unanswered))
            return


def run_loop(channel, level, seconds, call_timeout):
    """Runs both loops for `seconds` or until SIGINT/SIGTERM; prints the
    summary. Returns the exit code: 0 when every call was answered as the
    first one was, 1 when an answer differed, 2 when a call failed."""
    collisions = cs_grpc.CollisionServiceStub(channel)
    stop = threading.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signal_number, lambda *_: stop.set())
    tally = Tally()
    # A stream lives as long as the loop, plus time to finish.
    stream_timeout = seconds + call_timeout
    threads = [
        threading.Thread(target=unary_loop,
                         args=(collisions, level, stop, tally, call_timeout)),
        threading.Thread(target=stream_loop,
                         args=(collisions, level, stop, tally,
                               stream_timeout)),
    ]
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    print(tally.summary(), flush=True)
    if tally.unary_failed or tally.batches_failed or tally.mismatches:
        return 1
    return 0
