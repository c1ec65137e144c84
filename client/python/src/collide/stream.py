"""A batching query stream that survives server drains.

QueryStream keeps one StreamQueries call open and up to `window` batches in
flight on it. submit() sends a batch and returns a Future of its
StreamQueriesResponse. Every batch is kept until its answer arrives; when
the stream ends with UNAVAILABLE or CANCELLED (a server draining or going
away) it opens a new stream and resends the unanswered batches in order,
with their batch ids (queries are read-only, so a batch answered twice is
harmless), at most MAX_REOPENS times in a row without an answer in between.
Any other error fails the batches in flight and the stream.
"""

import concurrent.futures
import itertools
import queue
import threading
from typing import Dict, Iterable, List, Optional

import grpc

from collide.names import numbered
from collide.v1 import collision_service_pb2 as cs

# New streams in a row that may end before answering anything.
MAX_REOPENS = 3
RESENDABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


class BatchRefused(Exception):
    """The server refused a whole batch (its response's status is not OK:
    an unknown level, a stale expected_content_hash, a full server)."""

    def __init__(self, response: "cs.StreamQueriesResponse"):
        super().__init__(f"batch {response.batch_id}: status "
                         f"{response.status.code}: {response.status.message}")
        self.response = response


class StreamClosed(Exception):
    """submit() on a stream that was closed or failed."""


class QueryStream:
    """See the module docstring. Use as a context manager, or call close()
    (which waits for the batches in flight)."""

    def __init__(self, stub, level: str, *, window: int = 4,
                 timeout: Optional[float] = None):
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        self._stub, self._level, self._timeout = stub, level, timeout
        self._room = threading.Semaphore(window)
        self._lock = threading.Lock()
        self._pending: Dict[int, tuple] = {}  # batch id -> (request, future)
        self._ids = itertools.count(1)
        self._outbox: "queue.Queue" = queue.Queue()
        self._closing = False
        self._error: Optional[BaseException] = None
        self.reopens = 0
        self._runner = threading.Thread(target=self._run, daemon=True,
                                        name="collide-query-stream")
        self._runner.start()

    def submit(self, queries: Iterable["cs.Query"]
               ) -> "concurrent.futures.Future[cs.StreamQueriesResponse]":
        """Sends one batch (blocks while `window` batches are in flight)."""
        self._room.acquire()
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            if self._closing or self._error is not None:
                self._room.release()
                raise StreamClosed(f"the stream is closed ({self._error})"
                                   if self._error else "the stream is closed")
            request = cs.StreamQueriesRequest(level=self._level,
                                              batch_id=next(self._ids),
                                              queries=numbered(queries))
            self._pending[request.batch_id] = (request, future)
            self._outbox.put(request)
        return future

    def query(self, queries: Iterable["cs.Query"],
              timeout: Optional[float] = None) -> List["cs.QueryResult"]:
        """submit() and wait: the batch's results, BatchRefused when the
        server refused the whole batch."""
        response = self.submit(queries).result(timeout)
        if response.status.code != 0:
            raise BatchRefused(response)
        return list(response.results)

    def close(self) -> None:
        """Waits for every batch in flight, then ends the call."""
        with self._lock:
            self._closing = True
            if not self._pending:
                self._outbox.put(None)
        self._runner.join()

    def __enter__(self) -> "QueryStream":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def _requests(self, outbox):
        while (request := outbox.get()) is not None:
            yield request

    def _run(self) -> None:
        reopens_in_a_row = 0
        while True:
            with self._lock:
                if self._closing and not self._pending:
                    return
                outbox: "queue.Queue" = queue.Queue()
                for batch_id in sorted(self._pending):
                    outbox.put(self._pending[batch_id][0])
                self._outbox = outbox
            responses = self._stub.StreamQueries(self._requests(outbox),
                                                 timeout=self._timeout)
            try:
                for response in responses:
                    self._answer(response)
                    reopens_in_a_row = 0
                # The call ended with OK: the request side was closed, so
                # nothing should be left.
                with self._lock:
                    left = bool(self._pending)
                if left:
                    self._fail(StreamClosed("the server ended the stream "
                                            "with batches unanswered"))
                return
            except grpc.RpcError as error:
                outbox.put(None)
                with self._lock:
                    waiting = bool(self._pending)
                    if not waiting and self._closing:
                        return
                if error.code() in RESENDABLE and (
                        not waiting or reopens_in_a_row < MAX_REOPENS):
                    if waiting:
                        reopens_in_a_row += 1
                    self.reopens += 1
                    continue
                self._fail(error)
                return

    def _answer(self, response) -> None:
        with self._lock:
            entry = self._pending.pop(response.batch_id, None)
            if self._closing and not self._pending:
                self._outbox.put(None)
        if entry is not None:
            entry[1].set_result(response)
            self._room.release()

    def _fail(self, error: BaseException) -> None:
        with self._lock:
            self._error = error
            pending, self._pending = self._pending, {}
        for _, future in pending.values():
            future.set_exception(error)
            self._room.release()
