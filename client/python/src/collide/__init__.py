"""collide: a client for the collide 2D collision query service.

    import collide
    with collide.Client("127.0.0.1:50051") as client:
        [hit] = client.run("arena", [collide.ray((0, 0), (20, 0))])

Level builders (collide.level, segment, circle, box, capsule, polygon,
polyline), query builders (collide.ray, circle_cast, capsule_cast,
polygon_cast, overlap, closest_point, validate_move, validate_shot,
target), line of sight (collide.visibility, viewer, view_cone,
visibility_polygon, and visible_sets, sees, polygon_points to read the
answers), collide.Client and its QueryStream, collide.aio for asyncio, and
the generated messages under collide.v1.
"""

from importlib import metadata as _metadata

from collide.client import Client, QueryRefused, check
from collide.connection import SERVICE_CONFIG, Tls, open_channel
from collide.names import level_name
from collide.queries import (capsule_cast, circle_cast, closest_point,
                             overlap, polygon_cast, query_filter, ray, target,
                             validate_move, validate_shot)
from collide.shapes import (box, capsule, capsule_of, circle, circle_of,
                            level, polygon, polygon_of, polyline, segment, vec)
from collide.stream import BatchRefused, QueryStream, StreamClosed
from collide.visibility import (polygon_points, sees, view_cone, viewer,
                                visibility, visibility_polygon,
                                visibility_target, visible_sets)

try:
    __version__ = _metadata.version("collide-client")
except _metadata.PackageNotFoundError:  # imported from a source tree
    __version__ = "0"
