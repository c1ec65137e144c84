"""Queries from plain tuples. Each returns a collide.v1 Query; request ids
are given by the client (the position in the batch, from 1) unless set.

Shapes a query moves or tests are given as bare geometry: a circle as
`((x, y), radius)`, a capsule as `((x1, y1), (x2, y2), radius)`, a convex
polygon as a list of points; shapes.circle_of and friends make them too.

Common keywords, the query's side of the two-way filter: `mask_bits` (the
shape categories that count; default all bits), `category_bits` (the
query's own categories, which a shape's mask_bits must share; default 1),
`group` (Box2D's group index: a shape of the same positive group always
counts, of the same negative group never; default 0, no group) and
`ignore_ids` (shape ids to skip). Casts also take `max_fraction`
(default 1), `all_hits` (every shape hit, sorted by fraction then id,
instead of the first) and `target_distance`.
"""

from typing import Iterable, Optional, Sequence, Tuple, Union

from collide.shapes import Point, capsule_of, circle_of, polygon_of, vec
from collide.v1 import collision_service_pb2 as cs
from collide.v1 import geometry_pb2 as geo

CircleLike = Union["geo.Circle", Tuple[Point, float]]
CapsuleLike = Union["geo.Capsule", Tuple[Point, Point, float]]
PolygonLike = Union["geo.Polygon", Sequence[Point]]


def _circle(shape: CircleLike) -> "geo.Circle":
    return shape if isinstance(shape, geo.Circle) else circle_of(*shape)


def _capsule(shape: CapsuleLike) -> "geo.Capsule":
    return shape if isinstance(shape, geo.Capsule) else capsule_of(*shape)


def _polygon(shape: PolygonLike) -> "geo.Polygon":
    return shape if isinstance(shape, geo.Polygon) else polygon_of(shape)


def query_filter(mask_bits: Optional[int] = None,
                 ignore_ids: Iterable[int] = (), *,
                 category_bits: Optional[int] = None,
                 group: int = 0) -> "cs.QueryFilter":
    """Which shapes count: those whose categories share a bit with
    mask_bits and whose mask shares a bit with category_bits (or of the
    query's positive group, never of its negative one), not in ignore_ids.
    Unset bits keep the server's defaults."""
    result = cs.QueryFilter(ignore_ids=list(ignore_ids), group=group)
    if mask_bits is not None:
        result.mask_bits = mask_bits
    if category_bits is not None:
        result.category_bits = category_bits
    return result


def cast_options(*, max_fraction: Optional[float] = None,
                 all_hits: bool = False, target_distance: float = 0,
                 max_hits: int = 0, mask_bits: Optional[int] = None,
                 ignore_ids: Iterable[int] = (),
                 category_bits: Optional[int] = None,
                 group: int = 0) -> "cs.CastOptions":
    options = cs.CastOptions(
        mode=cs.CAST_MODE_ALL if all_hits else cs.CAST_MODE_CLOSEST,
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group),
        target_distance=target_distance, max_hits=max_hits)
    if max_fraction is not None:
        options.max_fraction = max_fraction
    return options


def ray(origin: Point, translation: Point, **options) -> "cs.Query":
    """A point moving from origin to origin + translation."""
    return cs.Query(ray_cast=cs.RayCastQuery(
        origin=vec(origin), translation=vec(translation),
        options=cast_options(**options)))


def circle_cast(circle: CircleLike, translation: Point,
                **options) -> "cs.Query":
    """A disc moving by translation."""
    return cs.Query(circle_cast=cs.CircleCastQuery(
        circle=_circle(circle), translation=vec(translation),
        options=cast_options(**options)))


def capsule_cast(capsule: CapsuleLike, translation: Point,
                 **options) -> "cs.Query":
    """A capsule moving by translation."""
    return cs.Query(capsule_cast=cs.CapsuleCastQuery(
        capsule=_capsule(capsule), translation=vec(translation),
        options=cast_options(**options)))


def polygon_cast(polygon: PolygonLike, translation: Point,
                 **options) -> "cs.Query":
    """A strictly convex polygon (3 to 8 vertices) moving by translation."""
    return cs.Query(polygon_cast=cs.PolygonCastQuery(
        polygon=_polygon(polygon), translation=vec(translation),
        options=cast_options(**options)))


def overlap(*, circle: Optional[CircleLike] = None,
            capsule: Optional[CapsuleLike] = None,
            polygon: Optional[PolygonLike] = None, max_results: int = 0,
            mask_bits: Optional[int] = None,
            ignore_ids: Iterable[int] = (),
            category_bits: Optional[int] = None,
            group: int = 0) -> "cs.Query":
    """The shapes one shape at rest touches or overlaps (give exactly one
    of circle, capsule, polygon)."""
    given = [s for s in (circle, capsule, polygon) if s is not None]
    if len(given) != 1:
        raise ValueError("overlap: give exactly one of circle, capsule, "
                         f"polygon (got {len(given)})")
    query = cs.OverlapQuery(
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group),
        max_results=max_results)
    if circle is not None:
        query.circle.CopyFrom(_circle(circle))
    elif capsule is not None:
        query.capsule.CopyFrom(_capsule(capsule))
    else:
        query.polygon.CopyFrom(_polygon(polygon))
    return cs.Query(overlap=query)


def closest_point(point: Point, *, max_distance: Optional[float] = None,
                  mask_bits: Optional[int] = None,
                  ignore_ids: Iterable[int] = (),
                  category_bits: Optional[int] = None,
                  group: int = 0) -> "cs.Query":
    """The level point nearest `point`, within max_distance if given."""
    query = cs.ClosestPointQuery(
        point=vec(point),
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group))
    if max_distance is not None:
        query.max_distance = max_distance
    return cs.Query(closest_point=query)


def validate_move(translation: Point, *, circle: Optional[CircleLike] = None,
                  capsule: Optional[CapsuleLike] = None,
                  polygon: Optional[PolygonLike] = None, skin: float = 0,
                  max_slide_iterations: int = 0,
                  mask_bits: Optional[int] = None,
                  ignore_ids: Iterable[int] = (),
                  category_bits: Optional[int] = None,
                  group: int = 0) -> "cs.Query":
    """May a mover (exactly one of circle, capsule, polygon, at its start
    pose) go by translation in one step?"""
    given = [s for s in (circle, capsule, polygon) if s is not None]
    if len(given) != 1:
        raise ValueError("validate_move: give exactly one of circle, "
                         f"capsule, polygon (got {len(given)})")
    query = cs.MoveValidationQuery(
        translation=vec(translation), skin=skin,
        max_slide_iterations=max_slide_iterations,
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group))
    if circle is not None:
        query.circle.CopyFrom(_circle(circle))
    elif capsule is not None:
        query.capsule.CopyFrom(_capsule(capsule))
    else:
        query.polygon.CopyFrom(_polygon(polygon))
    return cs.Query(move_validation=query)


def target(target_id: int, *, circle: Optional[CircleLike] = None,
           capsule: Optional[CapsuleLike] = None,
           polygon: Optional[PolygonLike] = None,
           translation: Point = (0, 0)) -> "cs.ShotTarget":
    """A shot's target: its hitbox at the start of the tick (exactly one of
    circle, capsule, polygon) and its translation over the tick."""
    result = cs.ShotTarget(id=target_id, translation=vec(translation))
    if circle is not None:
        result.circle.CopyFrom(_circle(circle))
    elif capsule is not None:
        result.capsule.CopyFrom(_capsule(capsule))
    elif polygon is not None:
        result.polygon.CopyFrom(_polygon(polygon))
    else:
        raise ValueError(f"target {target_id}: give a circle, capsule or "
                         "polygon hitbox")
    return result


def validate_shot(origin: Point, translation: Point,
                  targets: Iterable["cs.ShotTarget"], *, radius: float = 0,
                  mask_bits: Optional[int] = None,
                  ignore_ids: Iterable[int] = (),
                  category_bits: Optional[int] = None,
                  group: int = 0) -> "cs.Query":
    """What a shot (a point, or a disc of `radius`) meets first among the
    level and `targets` moving during the same tick."""
    return cs.Query(hit_validation=cs.HitValidationQuery(
        origin=vec(origin), translation=vec(translation), radius=radius,
        targets=list(targets),
        filter=query_filter(mask_bits, ignore_ids,
                            category_bits=category_bits, group=group)))
