"""Levels and shapes from plain tuples: `(x, y)` for a point, numbers for
lengths (level units), radians for angles. Each function returns the
collide.v1 message, so anything the helpers leave out can still be set on
it.

    level = collide.level("arena",
                          collide.segment(1, (10, -5), (10, 5)),
                          collide.circle(2, (0, 20), 2, user_data=102),
                          collide.box(3, (-10, 0), (1, 1)))
"""

from typing import Iterable, Optional, Sequence, Tuple, Union

from collide.v1 import geometry_pb2 as geo

Point = Union[Tuple[float, float], Sequence[float], "geo.Vec2"]


def vec(point: Point) -> "geo.Vec2":
    """A Vec2 from (x, y) (a Vec2 is returned as it is)."""
    if isinstance(point, geo.Vec2):
        return point
    x, y = point
    return geo.Vec2(x=x, y=y)


def _shape(shape_id: int, user_data: int, category_bits: Optional[int],
           mask_bits: Optional[int], group: int, one_sided: bool = False,
           **geometry) -> "geo.Shape":
    """A Shape with `geometry`. category_bits and mask_bits are left unset
    unless given, so the server's defaults apply (category 1, a mask of all
    bits)."""
    shape = geo.Shape(id=shape_id, user_data=user_data, group=group,
                      one_sided=one_sided, **geometry)
    if category_bits is not None:
        shape.category_bits = category_bits
    if mask_bits is not None:
        shape.mask_bits = mask_bits
    return shape


# Every shape builder takes the two-way filter's keywords: category_bits
# (the shape's categories, which a query's mask_bits must share; default
# 1), mask_bits (the query categories it blocks, which a query's
# category_bits must share; default all bits) and group (Box2D's group
# index: a shape and a query of the same positive group always meet, of
# the same negative group never; default 0, no group). Segments and
# polylines also take one_sided: they then block only what moves into
# their front, the left of p1 -> p2 (y up: a platform drawn left to right
# faces up, so a mover rising through it from below passes).


def segment(shape_id: int, p1: Point, p2: Point, *, user_data: int = 0,
            category_bits: Optional[int] = None,
            mask_bits: Optional[int] = None, group: int = 0,
            one_sided: bool = False) -> "geo.Shape":
    """A segment from p1 to p2 (no inside)."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  one_sided, segment=geo.Segment(p1=vec(p1), p2=vec(p2)))


def polyline(shape_id: int, vertices: Iterable[Point], *, closed: bool = False,
             user_data: int = 0, category_bits: Optional[int] = None,
             mask_bits: Optional[int] = None, group: int = 0,
             one_sided: bool = False) -> "geo.Shape":
    """A chain of segments through `vertices` (no inside, even closed);
    one-sided, each segment's front is the left of vertex i -> i + 1."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  one_sided,
                  polyline=geo.Polyline(vertices=[vec(v) for v in vertices],
                                        closed=closed))


def polygon(shape_id: int, vertices: Iterable[Point], *, user_data: int = 0,
            category_bits: Optional[int] = None,
            mask_bits: Optional[int] = None, group: int = 0) -> "geo.Shape":
    """A solid polygon, convex or concave, either winding."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  polygon=polygon_of(vertices))


def circle(shape_id: int, center: Point, radius: float, *, user_data: int = 0,
           category_bits: Optional[int] = None,
           mask_bits: Optional[int] = None, group: int = 0) -> "geo.Shape":
    """A solid disc."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  circle=circle_of(center, radius))


def box(shape_id: int, center: Point, half_extents: Point, *,
        angle_radians: float = 0, user_data: int = 0,
        category_bits: Optional[int] = None, mask_bits: Optional[int] = None,
        group: int = 0) -> "geo.Shape":
    """A solid rectangle, turned counter-clockwise by angle_radians."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  box=geo.Box(center=vec(center), half_extents=vec(half_extents),
                              angle_radians=angle_radians))


def capsule(shape_id: int, p1: Point, p2: Point, radius: float, *,
            user_data: int = 0, category_bits: Optional[int] = None,
            mask_bits: Optional[int] = None, group: int = 0) -> "geo.Shape":
    """A solid stadium: the points within radius of segment p1-p2."""
    return _shape(shape_id, user_data, category_bits, mask_bits, group,
                  capsule=capsule_of(p1, p2, radius))


def level(level_id: str, *shapes: "geo.Shape",
          cell_size: float = 0) -> "geo.Level":
    """A Level holding `shapes`; cell_size 0 lets the server choose."""
    return geo.Level(id=level_id, shapes=list(shapes), cell_size=cell_size)


# The bare geometry messages that queries take.

def circle_of(center: Point, radius: float) -> "geo.Circle":
    return geo.Circle(center=vec(center), radius=radius)


def capsule_of(p1: Point, p2: Point, radius: float) -> "geo.Capsule":
    return geo.Capsule(p1=vec(p1), p2=vec(p2), radius=radius)


def polygon_of(vertices: Iterable[Point]) -> "geo.Polygon":
    return geo.Polygon(vertices=[vec(v) for v in vertices])
