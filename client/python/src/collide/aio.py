"""The asyncio client (grpc.aio): the same calls as collide.Client, as
coroutines, and an AsyncQueryStream with QueryStream's resend rules.

    async with collide.aio.Client("127.0.0.1:50051") as client:
        results = await client.run("arena", [collide.ray((0, 0), (20, 0))])
        async with client.stream("arena") as stream:
            results = await stream.query([collide.ray((0, 1), (20, 0))])
"""

import asyncio
import itertools
from typing import Dict, Iterable, List, Optional

import grpc

from collide.client import check  # noqa: F401  (re-exported)
from collide.connection import Tls, open_aio_channel, token_metadata
from collide.names import level_name, numbered
from collide.stream import MAX_REOPENS, RESENDABLE, BatchRefused, StreamClosed
from collide.v1 import collision_service_pb2 as cs
from collide.v1 import collision_service_pb2_grpc as cs_grpc
from collide.v1 import geometry_pb2 as geo
from collide.v1 import level_service_pb2 as ls
from collide.v1 import level_service_pb2_grpc as ls_grpc


class Client:
    """See collide.Client; every method is a coroutine."""

    def __init__(self, address: str = "127.0.0.1:50051", *,
                 admin_address: Optional[str] = None,
                 tls: Optional[Tls] = None, admin_token: Optional[str] = None,
                 admin_token_file: Optional[str] = None,
                 timeout: float = 10.0):
        self.timeout = timeout
        self._channel = open_aio_channel(address, tls)
        self._admin_channel = (open_aio_channel(admin_address, tls)
                               if admin_address else self._channel)
        self._admin_metadata = token_metadata(admin_token, admin_token_file)
        self.collisions = cs_grpc.CollisionServiceStub(self._channel)
        self.levels = ls_grpc.LevelServiceStub(self._channel)
        self.admin = ls_grpc.LevelServiceStub(self._admin_channel)

    async def close(self) -> None:
        if self._admin_channel is not self._channel:
            await self._admin_channel.close()
        await self._channel.close()

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *_) -> None:
        await self.close()

    async def put_level(self, content: "geo.Level",
                        level: Optional[str] = None, *,
                        expected_version: int = 0) -> "ls.LevelSummary":
        response = await self.admin.PutLevel(
            ls.PutLevelRequest(level=level_name(level or content.id),
                               content=content,
                               expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.summary

    async def patch_level(self, level: str,
                          upserts: Iterable["geo.Shape"] = (),
                          remove_ids: Iterable[int] = (), *,
                          expected_version: int = 0) -> "ls.LevelSummary":
        response = await self.admin.PatchLevel(
            ls.PatchLevelRequest(level=level_name(level), upserts=list(upserts),
                                 remove_ids=list(remove_ids),
                                 expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.summary

    async def delete_level(self, level: str, *,
                           expected_version: int = 0) -> int:
        response = await self.admin.DeleteLevel(
            ls.DeleteLevelRequest(level=level_name(level),
                                  expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.deleted_version

    async def list_levels(self) -> List["ls.LevelSummary"]:
        response = await self.levels.ListLevels(ls.ListLevelsRequest(),
                                                timeout=self.timeout)
        return list(response.levels)

    async def describe_level(self, level: str) -> "ls.LevelSummary":
        response = await self.levels.DescribeLevel(
            ls.DescribeLevelRequest(level=level_name(level)),
            timeout=self.timeout)
        return response.summary

    async def get_level(self, level: str) -> "geo.Level":
        response = await self.levels.GetLevel(
            ls.GetLevelRequest(level=level_name(level)), timeout=self.timeout)
        return response.content

    async def run(self, level: str,
                  queries: Iterable["cs.Query"]) -> List["cs.QueryResult"]:
        response = await self.collisions.RunQueries(
            cs.RunQueriesRequest(level=level_name(level),
                                 queries=numbered(queries)),
            timeout=self.timeout)
        return list(response.results)

    def stream(self, level: str, *, window: int = 4,
               stream_timeout: Optional[float] = None) -> "AsyncQueryStream":
        return AsyncQueryStream(self.collisions, level_name(level),
                                window=window, timeout=stream_timeout)


class AsyncQueryStream:
    """collide.QueryStream for asyncio: `await submit(queries)` gives a
    future of the batch's StreamQueriesResponse; `await query(queries)` its
    results. Use with `async with`, or `await close()`."""

    def __init__(self, stub, level: str, *, window: int = 4,
                 timeout: Optional[float] = None):
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        self._stub, self._level, self._timeout = stub, level, timeout
        self._room = asyncio.Semaphore(window)
        self._lock = asyncio.Lock()
        self._pending: Dict[int, tuple] = {}
        self._ids = itertools.count(1)
        self._call = None
        self._closing = False
        self._error: Optional[BaseException] = None
        self._opened = asyncio.Event()
        self.reopens = 0
        self._reader = asyncio.get_running_loop().create_task(self._run())

    async def submit(self, queries: Iterable["cs.Query"]) -> "asyncio.Future":
        await self._room.acquire()
        await self._opened.wait()
        async with self._lock:
            if self._closing or self._error is not None:
                self._room.release()
                raise StreamClosed(f"the stream is closed ({self._error})"
                                   if self._error else "the stream is closed")
            request = cs.StreamQueriesRequest(level=self._level,
                                              batch_id=next(self._ids),
                                              queries=numbered(queries))
            future = asyncio.get_running_loop().create_future()
            self._pending[request.batch_id] = (request, future)
            await self._write(request)
        return future

    async def query(self, queries: Iterable["cs.Query"]
                    ) -> List["cs.QueryResult"]:
        response = await (await self.submit(queries))
        if response.status.code != 0:
            raise BatchRefused(response)
        return list(response.results)

    async def close(self) -> None:
        async with self._lock:
            self._closing = True
            if not self._pending:
                await self._done_writing()
        await self._reader

    async def __aenter__(self) -> "AsyncQueryStream":
        return self

    async def __aexit__(self, *_) -> None:
        await self.close()

    async def _write(self, request) -> None:
        try:
            await self._call.write(request)
        except (grpc.RpcError, asyncio.InvalidStateError):
            pass  # the call ended: the reader resends what is pending

    async def _done_writing(self) -> None:
        try:
            await self._call.done_writing()
        except (grpc.RpcError, asyncio.InvalidStateError):
            pass

    async def _run(self) -> None:
        reopens_in_a_row = 0
        while True:
            async with self._lock:
                if self._closing and not self._pending:
                    return
                self._call = self._stub.StreamQueries(timeout=self._timeout)
                for batch_id in sorted(self._pending):
                    await self._write(self._pending[batch_id][0])
                self._opened.set()
            try:
                while (response := await self._call.read()) is not grpc.aio.EOF:
                    reopens_in_a_row = 0
                    await self._answer(response)
                if self._pending:
                    self._fail(StreamClosed("the server ended the stream "
                                            "with batches unanswered"))
                return
            except grpc.RpcError as error:
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

    async def _answer(self, response) -> None:
        entry = self._pending.pop(response.batch_id, None)
        if entry is not None:
            entry[1].set_result(response)
            self._room.release()
        if self._closing and not self._pending:
            async with self._lock:
                await self._done_writing()

    def _fail(self, error: BaseException) -> None:
        self._error = error
        pending, self._pending = self._pending, {}
        for _, future in pending.values():
            future.set_exception(error)
            self._room.release()
