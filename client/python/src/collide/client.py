"""The synchronous client: level management on the admin listener, queries
on the query port.

    with collide.Client("127.0.0.1:50051", admin_address="127.0.0.1:50052",
                        admin_token_file="token") as client:
        client.put_level(collide.level("demo", collide.segment(1, (10, -5), (10, 5))))
        [result] = client.run("demo", [collide.ray((0, 0), (20, 0))])

Every call has a deadline (`timeout` seconds). A failed call raises
grpc.RpcError; a query the server refused comes back in its result
(result.status.code != 0, the message naming the field) while the rest of
the batch is answered: see check().
"""

from typing import Iterable, List, Optional

from collide.connection import Tls, open_channel, token_metadata
from collide.names import level_name, numbered
from collide.stream import QueryStream
from collide.v1 import collision_service_pb2 as cs
from collide.v1 import collision_service_pb2_grpc as cs_grpc
from collide.v1 import geometry_pb2 as geo
from collide.v1 import level_service_pb2 as ls
from collide.v1 import level_service_pb2_grpc as ls_grpc


class QueryRefused(Exception):
    """A query's result carried a non-OK status."""

    def __init__(self, result: "cs.QueryResult"):
        super().__init__(f"query {result.request_id}: status "
                         f"{result.status.code}: {result.status.message}")
        self.result = result


def check(result: "cs.QueryResult") -> "cs.QueryResult":
    """The result, or QueryRefused when the server refused that query."""
    if result.status.code != 0:
        raise QueryRefused(result)
    return result


class Client:
    """A collide server: `address` is its query port (host:port);
    `admin_address` its admin listener (None: the query port, for a server
    run with --admin_listen equal to --listen). `tls` applies to both.
    `admin_token` or `admin_token_file`: the bearer token admin calls carry.
    """

    def __init__(self, address: str = "127.0.0.1:50051", *,
                 admin_address: Optional[str] = None,
                 tls: Optional[Tls] = None, admin_token: Optional[str] = None,
                 admin_token_file: Optional[str] = None,
                 timeout: float = 10.0):
        self.timeout = timeout
        self._channel = open_channel(address, tls)
        self._admin_channel = (open_channel(admin_address, tls)
                               if admin_address else self._channel)
        self._admin_metadata = token_metadata(admin_token, admin_token_file)
        self.collisions = cs_grpc.CollisionServiceStub(self._channel)
        self.levels = ls_grpc.LevelServiceStub(self._channel)
        self.admin = ls_grpc.LevelServiceStub(self._admin_channel)

    def close(self) -> None:
        if self._admin_channel is not self._channel:
            self._admin_channel.close()
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    # Levels.

    def put_level(self, content: "geo.Level", level: Optional[str] = None,
                  *, expected_version: int = 0) -> "ls.LevelSummary":
        """Puts `content` as `level` (default: levels/{content.id}).
        expected_version > 0: only if the level is at that version."""
        response = self.admin.PutLevel(
            ls.PutLevelRequest(level=level_name(level or content.id),
                               content=content,
                               expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.summary

    def patch_level(self, level: str, upserts: Iterable["geo.Shape"] = (),
                    remove_ids: Iterable[int] = (), *,
                    expected_version: int = 0) -> "ls.LevelSummary":
        """Adds or replaces `upserts` and removes `remove_ids`, atomically."""
        response = self.admin.PatchLevel(
            ls.PatchLevelRequest(level=level_name(level), upserts=list(upserts),
                                 remove_ids=list(remove_ids),
                                 expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.summary

    def delete_level(self, level: str, *, expected_version: int = 0) -> int:
        """Deletes the level; returns the version it had."""
        response = self.admin.DeleteLevel(
            ls.DeleteLevelRequest(level=level_name(level),
                                  expected_version=expected_version),
            timeout=self.timeout, metadata=self._admin_metadata)
        return response.deleted_version

    def list_levels(self) -> List["ls.LevelSummary"]:
        return list(self.levels.ListLevels(ls.ListLevelsRequest(),
                                           timeout=self.timeout).levels)

    def describe_level(self, level: str) -> "ls.LevelSummary":
        return self.levels.DescribeLevel(
            ls.DescribeLevelRequest(level=level_name(level)),
            timeout=self.timeout).summary

    def get_level(self, level: str) -> "geo.Level":
        return self.levels.GetLevel(ls.GetLevelRequest(level=level_name(level)),
                                    timeout=self.timeout).content

    # Queries.

    def run(self, level: str,
            queries: Iterable["cs.Query"]) -> List["cs.QueryResult"]:
        """One batch in one unary call (retried by the service config on a
        drain); the results in the order of `queries`."""
        response = self.collisions.RunQueries(
            cs.RunQueriesRequest(level=level_name(level),
                                 queries=numbered(queries)),
            timeout=self.timeout)
        return list(response.results)

    def stream(self, level: str, *, window: int = 4,
               stream_timeout: Optional[float] = None) -> QueryStream:
        """A QueryStream on `level` with up to `window` batches in flight."""
        return QueryStream(self.collisions, level_name(level), window=window,
                           timeout=stream_timeout)
