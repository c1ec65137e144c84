"""Line of sight for an authority (server-side fog of war): the visibility
query (which targets each viewer sees), the visibility polygon query (the
region one point sees within a range), and helpers that read their
results. The rules (what blocks a sight line, ranges and cone edges) are
in the proto, at VisibilityQuery.

    tick = collide.visibility(
        [collide.viewer((5, 2), range=20),
         collide.viewer((17, -5), cone=((-1, 0), math.pi / 6))],
        [(15, 0), (-6, 15), ((10, -5), 0.5)], mask_bits=1)
    [result] = client.run("arena", [tick])
    collide.visible_sets(result)  # target indices per viewer: [[1, 2], [2]]

Both queries take the query keywords of the two-way filter (mask_bits,
category_bits, group, ignore_ids; see collide.queries): they choose which
level shapes occlude, so glass that blocks movement but not sight is a
category left out of mask_bits.
"""

from typing import Iterable, List, Optional, Tuple, Union

from collide.client import check
from collide.queries import query_filter
from collide.shapes import Point, circle_of, vec
from collide.v1 import collision_service_pb2 as cs
from collide.v1 import geometry_pb2 as geo

ConeLike = Union["cs.ViewCone", Tuple[Point, float]]
ViewerLike = Union["cs.Viewer", Point]
# A point (x, y) or Vec2; a circle ((x, y), radius) or Circle.
TargetLike = Union["cs.VisibilityTarget", "geo.Circle", Point,
                   Tuple[Point, float]]


def view_cone(direction: Point, half_angle_radians: float) -> "cs.ViewCone":
    """The cone around `direction` (any non-zero length) opening
    half_angle_radians (in [0, pi]) either side; a target exactly on an
    edge is in view."""
    return cs.ViewCone(direction=vec(direction),
                       half_angle_radians=half_angle_radians)


def viewer(position: Point, *, range: Optional[float] = None,
           cone: Optional[ConeLike] = None) -> "cs.Viewer":
    """A viewer at `position`: within `range` level units (default
    unlimited; a target at exactly range is in view) and a view cone, a
    ViewCone or (direction, half_angle_radians) (default every
    direction)."""
    result = cs.Viewer(position=vec(position))
    if range is not None:
        result.range = range
    if cone is not None:
        result.cone.CopyFrom(cone if isinstance(cone, cs.ViewCone) else
                             view_cone(*cone))
    return result


def _is_point(value) -> bool:
    if isinstance(value, geo.Vec2):
        return True
    return (not isinstance(value, (str, bytes)) and len(value) == 2 and
            all(isinstance(c, (int, float)) for c in value))


def visibility_target(target: TargetLike) -> "cs.VisibilityTarget":
    """A target: a point (x, y) or Vec2, or a disc ((x, y), radius) or
    Circle (seen when its centre is, under TARGET_RULE_CENTER; when any
    point of it is, under TARGET_RULE_ANY_PART)."""
    if isinstance(target, cs.VisibilityTarget):
        return target
    if isinstance(target, geo.Circle):
        return cs.VisibilityTarget(circle=target)
    if _is_point(target):
        return cs.VisibilityTarget(point=vec(target))
    center, radius = target
    return cs.VisibilityTarget(circle=circle_of(center, radius))


def visibility(viewers: Iterable[ViewerLike], targets: Iterable[TargetLike],
               *, target_rule: int = cs.TARGET_RULE_UNSPECIFIED,
               mask_bits: Optional[int] = None,
               ignore_ids: Iterable[int] = (),
               category_bits: Optional[int] = None,
               group: int = 0) -> "cs.Query":
    """Which of `targets` each of `viewers` sees past the level's
    occluders: a Viewer (see viewer()) or a bare position (all round,
    unlimited range) each. target_rule: TARGET_RULE_ANY_PART counts a
    circle target seen when any part of it is (the default, the centre,
    only when its centre is). visible_sets() reads the answer."""
    return cs.Query(visibility=cs.VisibilityQuery(
        viewers=[v if isinstance(v, cs.Viewer) else viewer(v)
                 for v in viewers],
        targets=[visibility_target(t) for t in targets],
        target_rule=target_rule,
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group)))


def visibility_polygon(position: Point, range: float, *,
                       max_arc_angle_radians: float = 0,
                       mask_bits: Optional[int] = None,
                       ignore_ids: Iterable[int] = (),
                       category_bits: Optional[int] = None,
                       group: int = 0) -> "cs.Query":
    """The region seen from `position` within `range` (> 0), as a polygon
    star-shaped around it; arcs drawn as chords of at most
    max_arc_angle_radians (0: the server's 0.2). polygon_points() reads
    it."""
    return cs.Query(visibility_polygon=cs.VisibilityPolygonQuery(
        viewer=vec(position), range=range,
        max_arc_angle_radians=max_arc_angle_radians,
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group)))


def _answer(result, kind: str, message_type):
    """The `kind` answer of a QueryResult (QueryRefused if the server
    refused the query, ValueError if it answers another kind), or
    `result` itself when it is already one."""
    if isinstance(result, message_type):
        return result
    check(result)
    if result.WhichOneof("result") != kind:
        raise ValueError(f"query {result.request_id} has a "
                         f"{result.WhichOneof('result')} result, not "
                         f"{kind}")
    return getattr(result, kind)


def visible_sets(result: Union["cs.QueryResult", "cs.VisibilityResult"],
                 viewer_count: Optional[int] = None) -> List[List[int]]:
    """Per viewer, in the query's order, the indices of the targets it
    sees, ascending. With no targets the answer holds no rows: pass
    viewer_count to get that many empty lists (else [])."""
    answer = _answer(result, "visibility", cs.VisibilityResult)
    words, per_viewer = answer.visible_words, answer.words_per_viewer
    if per_viewer == 0:
        return [[] for _ in range(viewer_count or 0)]
    rows = []
    for start in range(0, len(words), per_viewer):
        row = []
        for w, word in enumerate(words[start:start + per_viewer]):
            while word:
                low = word & -word  # the lowest set bit
                row.append(w * 64 + low.bit_length() - 1)
                word ^= low
        rows.append(row)
    return rows


def sees(result: Union["cs.QueryResult", "cs.VisibilityResult"],
         viewer_index: int, target_index: int) -> bool:
    """Whether viewer viewer_index sees target target_index (IndexError
    for indices outside the answer)."""
    answer = _answer(result, "visibility", cs.VisibilityResult)
    per_viewer = answer.words_per_viewer
    index = viewer_index * per_viewer + target_index // 64
    if (viewer_index < 0 or target_index < 0 or
            target_index // 64 >= per_viewer or
            index >= len(answer.visible_words)):
        raise IndexError(f"no target {target_index} of viewer "
                         f"{viewer_index} in the answer")
    word = answer.visible_words[index]
    return bool(word >> (target_index % 64) & 1)


def polygon_points(result: Union["cs.QueryResult",
                                 "cs.VisibilityPolygonResult"]
                   ) -> List[Tuple[float, float]]:
    """A visibility polygon's vertices as (x, y), counter-clockwise from
    direction +x; empty when the viewer is inside a solid occluder."""
    answer = _answer(result, "visibility_polygon", cs.VisibilityPolygonResult)
    return [(v.point.x, v.point.y) for v in answer.vertices]
