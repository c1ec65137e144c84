#!/usr/bin/python3
"""Calls a collide server from Python through the collide package: puts a
level, streams one batch of mixed queries and sends a packed batch of rays
(twice: varint, then fixed-width result columns), then runs a fog-of-war
tick on the bundled level levels/arena (which enemies each of three
players sees, and one player's visibility polygon), checks every result
against an answer worked out by hand, then deletes the level it put.

Run it with the python of a venv the package is installed in (see README.md
next to this file):

    .venv/bin/python collide_example.py \
        --address=127.0.0.1:50051 --admin_address=127.0.0.1:50052

The level is put and deleted through the server's admin listener
(--admin_address; collide_server --admin_listen), with the bearer token of
--admin_token_file when the server asks for one. With --tls_ca_file (and
--tls_cert_file/--tls_key_file for mutual TLS, --tls_server_name when the
certificate does not name the address) both connections use TLS.

With --loop_seconds=S it instead queries --loop_level (the bundled
levels/arena by default) for S seconds, or until SIGINT/SIGTERM, through a
unary loop and a QueryStream, and prints how many calls were answered and
how many failed: a caller that survives server drains.

Exit status (docs/tools.md): 0 when every result matches; 1 with a message
naming the query and the field of every mismatch, or when a call fails
(server unreachable, level refused, deadline passed) or it cannot start (no
collide package, a file that cannot be read); 2 for a bad command line.
--help prints the flags and exits 0.
"""

import argparse
import math
import signal
import sys
import threading


def cannot_start(message, code=1):
    """Exits with `message`: 1 for what is missing or unreadable, 2 for a
    bad command line (docs/tools.md)."""
    print(f"collide_example: {message}", file=sys.stderr)
    sys.exit(code)


try:
    import grpc

    import collide
    from collide.v1 import collision_service_pb2 as cs
    from collide.v1 import geometry_pb2 as geo
except ImportError as error:
    cannot_start(f"cannot import the collide package ({error}); install "
                 "client/python into a venv and run this with its python "
                 "(see client/examples/python/README.md)")

LEVEL_ID = "example-python"
LEVEL = f"levels/{LEVEL_ID}"
# Every call gets a deadline, so a stuck server fails the example instead of
# hanging it.
DEADLINE_SECONDS = 10
# The known answers are exact in real numbers; the server computes in
# double, so compare within a few rounding errors.
TOLERANCE = 1e-9

# ResultStatus.code holds gRPC status code numbers.
STATUS_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT.value[0]  # 3


def example_level():
    """Four shapes whose contacts are easy to work out by hand."""
    return collide.level(
        LEVEL_ID,
        # A wall: the segment x = 10, -5 <= y <= 5.
        collide.segment(1, (10, -5), (10, 5), user_data=101),
        # A pillar: the disc of radius 2 around (0, 20).
        collide.circle(2, (0, 20), 2, user_data=102),
        # A crate: the square -11 <= x <= -9, -1 <= y <= 1. Its edges are
        # numbered counter-clockwise from the lower-left corner, so its
        # right side (x = -9) is edge 1.
        collide.box(3, (-10, 0), (1, 1), user_data=103),
        # A jump-through platform: the one-sided segment y = 10,
        # 20 <= x <= 30, drawn left to right, so its front faces up.
        collide.segment(4, (20, 10), (30, 10), one_sided=True,
                        user_data=104))


def sword_swing(with_near_target):
    """A hit validation whose shot is a swing: a capsule turning about the
    wielder's hand (HitValidationQuery.swing, Turn), against targets 8 (and
    7). The package has no builder for it: it is made from the generated
    messages."""
    hand = (8.5, 0)

    def target(target_id, degrees):
        angle = math.radians(degrees)
        centre = (hand[0] + 1.2 * math.cos(angle),
                  hand[1] + 1.2 * math.sin(angle))
        return cs.ShotTarget(
            id=target_id,
            circle=geo.Circle(center=collide.vec(centre), radius=0.25))

    targets = [target(8, 60)]
    if with_near_target:
        targets.append(target(7, -60))
    return cs.Query(hit_validation=cs.HitValidationQuery(
        swing=cs.Swing(
            capsule=geo.Capsule(p1=collide.vec(hand),
                                p2=collide.vec((8.5, -2)), radius=0.1),
            turn=cs.Turn(angle=math.pi, pivot=collide.vec(hand))),
        targets=targets))


# Each entry: (what it is, the query, the known answer). An answer is a dict
# checked field by field by check_result below.
def example_queries():
    edge = cs.FEATURE_TYPE_EDGE
    surface = cs.FEATURE_TYPE_SURFACE
    return [
        # A bullet from the origin along +x meets the wall halfway.
        ("ray cast hits the wall",
         collide.ray((0, 0), (20, 0)),
         {"cast": dict(fraction=0.5, point=(10, 0), normal=(-1, 0),
                       shape_id=1, user_data=101, feature=(edge, 0))}),
        # A circle of radius 1 rising from the origin touches the pillar
        # when the centres are 1 + 2 apart: centre y = 17 of 20.
        ("circle cast hits the pillar",
         collide.circle_cast(((0, 0), 1), (0, 20)),
         {"cast": dict(fraction=0.85, point=(0, 18), normal=(0, -1),
                       shape_id=2, user_data=102, feature=(surface, 0))}),
        # A triangle pointing -x (tip at (-1, 0)) moving 20 left: its tip
        # meets the crate's right side x = -9 after 8, fraction 0.4.
        ("polygon cast hits the crate",
         collide.polygon_cast([(-1, 0), (0, -1), (0, 1)], (-20, 0)),
         {"cast": dict(fraction=0.4, point=(-9, 0), normal=(1, 0),
                       shape_id=3, user_data=103, feature=(edge, 1))}),
        # A horizontal capsule (axis (0,3)-(2,3), radius 0.5) moving 20
        # right: its front (2.5, 3) meets the wall after 7.5, fraction
        # 0.375.
        ("capsule cast hits the wall",
         collide.capsule_cast(((0, 3), (2, 3), 0.5), (20, 0)),
         {"cast": dict(fraction=0.375, point=(10, 3), normal=(-1, 0),
                       shape_id=1, user_data=101, feature=(edge, 0))}),
        # A disc of radius 15 at (5, 0) reaches the wall (5 away) and the
        # crate (14 away) but not the pillar (18 away).
        ("overlap finds the wall and the crate",
         collide.overlap(circle=((5, 0), 15)),
         {"overlap": [(1, 101), (3, 103)]}),
        # The level point nearest (0, 25) is the pillar's top, 3 away.
        ("closest point is on the pillar",
         collide.closest_point((0, 25), max_distance=10),
         {"closest_point": dict(point=(0, 22), distance=3, normal=(0, 1),
                                shape_id=2, user_data=102,
                                feature=(surface, 0))}),
        # Straight down from the origin there is nothing: a miss is an
        # answer with no hits, not an error.
        ("ray cast misses",
         collide.ray((0, 0), (0, -20)),
         {"miss": True}),
        # Falling onto the platform from above meets its front halfway.
        ("ray lands on the platform",
         collide.ray((25, 15), (0, -10)),
         {"cast": dict(fraction=0.5, point=(25, 10), normal=(0, 1),
                       shape_id=4, user_data=104, feature=(edge, 0))}),
        # Rising into it from below passes through.
        ("ray rises through the platform",
         collide.ray((25, 5), (0, 10)),
         {"miss": True}),
        # A deforming segment in general: a blade turning about its centre from
        # (-1, 0)-(1, 0) to (0, -1)-(0, 1), each end moving on its own, and
        # a point falling from (0.25, 0.75) by (0, -1). It lies on the
        # blade's line when t^2 - 2t + 0.75 = 0: t = 0.5, at (0.25, 0.25),
        # the blade's normal there facing the point's side. The level is
        # not read. The package has no builder for this query: it is made
        # from the generated messages.
        ("point meets a turning blade",
         cs.Query(pair_toi=cs.PairToiQuery(
             a=cs.MovingShape(point=collide.vec((0.25, 0.75)),
                              translation=collide.vec((0, -1))),
             b=cs.MovingShape(
                 segment=geo.Segment(p1=collide.vec((-1, 0)),
                                     p2=collide.vec((1, 0))),
                 segment_end=geo.Segment(p1=collide.vec((0, -1)),
                                         p2=collide.vec((0, 1)))))),
         {"pair_toi": dict(fraction=0.5, point=(0.25, 0.25),
                           normal=(-0.5 ** 0.5, 0.5 ** 0.5),
                           feature=(edge, 0))}),
        # A sword swing (a melee hit check): a blade from the hand at
        # (8.5, 0) to (8.5, -2), radius 0.1, turning a half turn
        # counter-clockwise about the hand during the tick. Target 7 (a
        # disc of radius 0.25 at 1.2 from the hand, 60 degrees below +x)
        # is met when the blade's axis is asin(0.35 / 1.2) short of it:
        # fraction 1/6 - asin(0.35 / 1.2) / pi. Target 8 (60 degrees above
        # +x) lies beyond the wall x = 10, which the blade's rim reaches
        # first (2 cos(phi) + 0.1 = 1.5): fraction asin(0.7) / pi.
        ("sword swing hits the near target",
         sword_swing(with_near_target=True),
         {"hit_validation": dict(
             outcome=cs.SHOT_OUTCOME_TARGET, id=7,
             fraction=1 / 6 - math.asin(0.35 / 1.2) / math.pi)}),
        ("sword swing is stopped by the wall",
         sword_swing(with_near_target=False),
         {"hit_validation": dict(outcome=cs.SHOT_OUTCOME_WALL, id=1,
                                 fraction=math.asin(0.7) / math.pi)}),
        # A negative radius is refused in this query's own result, naming
        # the field; the rest of the batch is still answered.
        ("bad query is refused alone",
         collide.circle_cast(((0, 0), -1), (1, 0)),
         {"error": (INVALID_ARGUMENT, "circle_cast.circle.radius")}),
    ]


class Mismatch(Exception):
    """A result field that differs from the known answer."""


def expect_near(name, got, want):
    if not math.isclose(got, want, rel_tol=0, abs_tol=TOLERANCE):
        raise Mismatch(f"{name} is {got!r}, expected {want!r}")


def expect_equal(name, got, want):
    if got != want:
        raise Mismatch(f"{name} is {got!r}, expected {want!r}")


def expect_vec(name, got, want):
    expect_near(f"{name}.x", got.x, want[0])
    expect_near(f"{name}.y", got.y, want[1])


def expect_contact(prefix, got, want):
    """Checks the fields a cast hit and a closest point share."""
    expect_vec(f"{prefix}.point", got.point, want["point"])
    expect_vec(f"{prefix}.normal", got.normal, want["normal"])
    expect_equal(f"{prefix}.shape_id", got.shape_id, want["shape_id"])
    expect_equal(f"{prefix}.user_data", got.user_data, want["user_data"])
    expect_equal(f"{prefix}.feature",
                 (got.feature.type, got.feature.index), want["feature"])


def check_result(result, want):
    """Raises Mismatch naming the first field that differs from `want`."""
    if "error" in want:
        code, field = want["error"]
        expect_equal("status.code", result.status.code, code)
        if field not in result.status.message:
            raise Mismatch(f"status.message {result.status.message!r} does "
                           f"not name {field!r}")
        expect_equal("result", result.WhichOneof("result"), None)
        return
    if result.status.code != 0:
        raise Mismatch(f"status is {result.status.code} "
                       f"({result.status.message}), expected OK")
    if "miss" in want:
        expect_equal("result", result.WhichOneof("result"), "cast")
        expect_equal("cast.hits count", len(result.cast.hits), 0)
    elif "cast" in want:
        expect_equal("result", result.WhichOneof("result"), "cast")
        expect_equal("cast.hits count", len(result.cast.hits), 1)
        hit = result.cast.hits[0]
        expect_near("cast.hits[0].fraction", hit.fraction,
                    want["cast"]["fraction"])
        expect_equal("cast.hits[0].status", hit.status, cs.HIT_STATUS_HIT)
        expect_contact("cast.hits[0]", hit, want["cast"])
    elif "overlap" in want:
        expect_equal("result", result.WhichOneof("result"), "overlap")
        expect_equal("overlap.shapes",
                     [(s.shape_id, s.user_data)
                      for s in result.overlap.shapes], want["overlap"])
    elif "pair_toi" in want:
        expect_equal("result", result.WhichOneof("result"), "pair_toi")
        pair, expected = result.pair_toi, want["pair_toi"]
        expect_equal("pair_toi.hit", pair.hit, True)
        expect_near("pair_toi.fraction", pair.fraction, expected["fraction"])
        expect_vec("pair_toi.point", pair.point, expected["point"])
        expect_vec("pair_toi.normal", pair.normal, expected["normal"])
        expect_equal("pair_toi.feature",
                     (pair.feature.type, pair.feature.index),
                     expected["feature"])
    elif "hit_validation" in want:
        expect_equal("result", result.WhichOneof("result"), "hit_validation")
        shot, expected = result.hit_validation, want["hit_validation"]
        expect_equal("hit_validation.outcome", shot.outcome,
                     expected["outcome"])
        expect_equal("hit_validation.id", shot.id, expected["id"])
        # The contact lies in the certified bracket [fraction,
        # turn.fraction_hi], at most 2^-30 wide.
        expect_equal("hit_validation.turn.status", shot.turn.status,
                     cs.TURN_STATUS_HIT)
        expect_near("hit_validation.fraction", shot.fraction,
                    expected["fraction"])
        if not (shot.fraction <= expected["fraction"] + TOLERANCE
                and expected["fraction"] <= shot.turn.fraction_hi + TOLERANCE):
            raise Mismatch("hit_validation's bracket "
                           f"[{shot.fraction!r}, {shot.turn.fraction_hi!r}] "
                           f"does not hold {expected['fraction']!r}")
    elif "closest_point" in want:
        expect_equal("result", result.WhichOneof("result"), "closest_point")
        found = result.closest_point
        expect_equal("closest_point.found", found.found, True)
        expect_near("closest_point.distance", found.distance,
                    want["closest_point"]["distance"])
        expect_contact("closest_point", found, want["closest_point"])


def number(value):
    """Formats a coordinate for people: shortest form, no "-0"."""
    return f"{value + 0.0:g}"


def describe(result):
    """One readable line for the summary."""
    if result.status.code != 0:
        name = STATUS_NAMES.get(result.status.code, result.status.code)
        return f"{name}: {result.status.message}"
    kind = result.WhichOneof("result")
    if kind == "cast":
        if not result.cast.hits:
            return "miss"
        hit = result.cast.hits[0]
        return (f"hit shape {hit.shape_id} at fraction "
                f"{number(hit.fraction)}, "
                f"point ({number(hit.point.x)}, {number(hit.point.y)}), "
                f"normal ({number(hit.normal.x)}, {number(hit.normal.y)})")
    if kind == "overlap":
        ids = ", ".join(str(s.shape_id) for s in result.overlap.shapes)
        return f"overlaps shapes [{ids}]"
    if kind == "pair_toi":
        pair = result.pair_toi
        if not pair.hit:
            return "no contact"
        return (f"contact at fraction {number(pair.fraction)}, point "
                f"({number(pair.point.x)}, {number(pair.point.y)})")
    if kind == "hit_validation":
        shot = result.hit_validation
        what = cs.ShotOutcome.Name(shot.outcome).removeprefix("SHOT_OUTCOME_")
        return (f"{what.lower()} {shot.id} at fraction "
                f"{number(shot.fraction)}")
    found = result.closest_point
    return (f"shape {found.shape_id} at ({number(found.point.x)}, "
            f"{number(found.point.y)}), distance {number(found.distance)}")


def run(client, fog_level):
    put = client.put_level(example_level())
    print(f"put {put.level}: version {put.version}, "
          f"{put.shape_count} shapes")
    try:
        code = stream_and_check(client, put.version)
        if code == 0:
            code = packed_rays_and_check(client)
        return code if code != 0 else fog_of_war_and_check(client, fog_level)
    finally:
        # Delete even after a mismatch or a failed call, so reruns start
        # clean.
        deleted = client.delete_level(LEVEL)
        print(f"deleted {LEVEL} (version {deleted})")


def stream_and_check(client, level_version):
    """Streams the example batch; returns the exit code (0: all match)."""
    examples = example_queries()
    # The stream numbers the queries 1..n (a result echoes its query's
    # request_id) and gives the batch its batch_id. A game loop keeps one
    # stream open and submits a batch per tick; this one submits one batch.
    with client.stream(LEVEL, stream_timeout=DEADLINE_SECONDS) as stream:
        response = stream.submit([query for _, query, _ in examples]).result()
    try:
        expect_equal("batch status", response.status.code, 0)
        expect_equal("level_version", response.level_version, level_version)
        expect_equal("number of results", len(response.results),
                     len(examples))
    except Mismatch as error:
        print(f"collide_example: stream: {error}", file=sys.stderr)
        return 1

    failures = []
    for index, ((name, _, want), result) in enumerate(
            zip(examples, response.results)):
        try:
            expect_equal("request_id", result.request_id, index + 1)
            check_result(result, want)
            mark = "ok"
        except Mismatch as error:
            failures.append(f"query {index + 1} ({name}): {error}")
            mark = "MISMATCH"
        print(f"  {index + 1} {mark:8} {name:38} {describe(result)}")
    for failure in failures:
        print(f"collide_example: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"all {len(examples)} results match the known answers")
    return 0


def packed_rays_and_check(client):
    """Sends three rays as one packed batch (columns instead of one Query
    message each: much cheaper to encode and parse for big batches), twice:
    with varint result columns, then asking for fixed-width ones
    (fixed_width_results: cheaper still to write and read). Checks the
    result columns; returns the exit code (0: all match)."""
    # (origin, translation, known answer: None for a miss, else fraction,
    # point, normal and shape id).
    rays = [((0, 0), (20, 0), (0.5, (10, 0), (-1, 0), 1)),     # the wall
            ((0, -10), (5, 0), None),                          # nothing
            ((0, 10), (0, 20), (0.4, (0, 18), (0, -1), 2))]    # the pillar
    for fixed_width in (False, True):
        code = packed_batch_and_check(client, rays, fixed_width)
        if code != 0:
            return code
    return 0


def packed_batch_and_check(client, rays, fixed_width):
    """One packed batch of `rays`, its result columns checked. The package
    has no helper for packed batches: the request is made from its
    generated messages and sent with RunQueries on the client's stub (its
    channel's retry policy applies)."""
    form = "fixed-width" if fixed_width else "varint"
    packed = cs.PackedRayCasts(
        origin_x=[o[0] for o, _, _ in rays], origin_y=[o[1] for o, _, _ in rays],
        translation_x=[t[0] for _, t, _ in rays],
        translation_y=[t[1] for _, t, _ in rays],
        fixed_width_results=fixed_width)
    response = client.collisions.RunQueries(
        cs.RunQueriesRequest(level=LEVEL, packed_rays=packed),
        timeout=client.timeout)
    failures = []
    try:
        hits = response.packed_casts
        expect_equal("refused queries", len(hits.errors), 0)
        # The status and shape columns the batch asked for (the others are
        # left empty).
        status = hits.hit_status_fixed if fixed_width else hits.hit_status
        shape_id = hits.shape_id_fixed if fixed_width else hits.shape_id
        expect_equal("number of rows", len(status), len(rays))
    except Mismatch as error:
        print(f"collide_example: packed ({form}): {error}", file=sys.stderr)
        return 1
    for i, (_, _, want) in enumerate(rays):
        try:
            if want is None:
                expect_equal("hit_status", status[i], cs.HIT_STATUS_UNSPECIFIED)
                text = "miss"
            else:
                fraction, point, normal, want_shape = want
                expect_equal("hit_status", status[i], cs.HIT_STATUS_HIT)
                expect_near("fraction", hits.fraction[i], fraction)
                expect_near("point.x", hits.point_x[i], point[0])
                expect_near("point.y", hits.point_y[i], point[1])
                expect_near("normal.x", hits.normal_x[i], normal[0])
                expect_near("normal.y", hits.normal_y[i], normal[1])
                expect_equal("shape_id", shape_id[i], want_shape)
                text = (f"hit shape {shape_id[i]} at fraction "
                        f"{number(hits.fraction[i])}")
            mark = "ok"
        except Mismatch as error:
            failures.append(f"packed ray {i} ({form}): {error}")
            mark, text = "MISMATCH", ""
        print(f"  packed ray {i} ({form}) {mark:8} {text}")
    for failure in failures:
        print(f"collide_example: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"all {len(rays)} packed ray results ({form}) match the known "
          "answers")
    return 0


# The fog-of-war tick: on the bundled level (levels/arena, which
# collide_server serves unless --default_level=false; server/levels/
# default_level.cc has its shapes), which enemies each player sees and so
# may be sent. One visibility query answers every player at once. Its
# filter counts only category 1: the glass pane (shape 60, category 2,
# x = 14, -8 <= y <= -2) blocks shots but not sight.
PLAYERS = [
    # All round, within 20. Enemy 0 (15, 0) is behind the pillar at
    # (10, 0) (radius 1.5; the sight line passes 0.98 from its centre) and
    # enemy 3 (-12, 0) behind the one at (-10, 0) (0.23 from it); enemies
    # 1 and 2 are in the open.
    ("scout", collide.viewer((5, 2), range=20)),
    # Facing west, 30 degrees either side, any distance: enemy 2, dead
    # ahead, through the glass; enemies 0 and 1 are outside the cone (68
    # and 41 degrees off), enemy 3 inside it but behind the pillar at
    # (-10, 0).
    ("sniper", collide.viewer((17, -5), cone=((-1, 0), math.pi / 6))),
    # All round, within 16: enemy 3 (5.8 away, 1.71 from the pillar at
    # (-10, 0), which has radius 1.5); enemy 1 (13.5 away) is behind the
    # barrier (the capsule along y = 12, -14 <= x <= -8); enemies 0 and 2
    # are out of range.
    ("guard", collide.viewer((-15, 5), range=16)),
]
# Points, and a disc (enemy 2) that counts by its centre.
ENEMIES = [(15, 0), (-6, 15), ((10, -5), 0.5), (-12, 0)]
# The enemies each player may be sent, by index.
FOG_ANSWER = {"scout": [1, 2], "sniper": [2], "guard": [3]}
# The scout's own view within 3: the polygon the client draws. The crate
# around (5, 5) (shape 20, half-size 1) is the only shape that near: its
# two near corners are the polygon's level vertices, (6, 4) first (the
# polygon runs counter-clockwise from +x), and every other vertex lies on
# the range circle.
FOG_POLYGON_RANGE = 3
FOG_POLYGON_CORNERS = [((6, 4), 20), ((4, 4), 20)]


def fog_of_war_and_check(client, level):
    """One tick's visibility and visibility polygon queries on `level`;
    returns the exit code (0: the answers match)."""
    scout = PLAYERS[0][1].position
    tick, polygon = client.run(level, [
        collide.visibility([viewer for _, viewer in PLAYERS], ENEMIES,
                           mask_bits=1),
        collide.visibility_polygon((scout.x, scout.y), FOG_POLYGON_RANGE)])
    failures = []
    try:
        seen = collide.visible_sets(tick)
        expect_equal("visibility rows", len(seen), len(PLAYERS))
    except (Mismatch, collide.QueryRefused) as error:
        print(f"collide_example: fog of war: {error}", file=sys.stderr)
        return 1
    print(f"fog of war on {level}: {len(PLAYERS)} players, "
          f"{len(ENEMIES)} enemies")
    for (name, viewer), enemies in zip(PLAYERS, seen):
        mark = "ok" if enemies == FOG_ANSWER[name] else "MISMATCH"
        if mark != "ok":
            failures.append(f"{name} sees enemies {enemies}, expected "
                            f"{FOG_ANSWER[name]}")
        at = f"({number(viewer.position.x)}, {number(viewer.position.y)})"
        print(f"  {name:7} at {at:9} {mark:8} may be sent enemies {enemies}")
    try:
        check_fog_polygon(polygon, scout)
        corners = ", ".join(f"({number(x)}, {number(y)})"
                            for (x, y), _ in FOG_POLYGON_CORNERS)
        print(f"  scout's view within {FOG_POLYGON_RANGE}: ok       "
              f"{len(collide.polygon_points(polygon))} vertices, crate "
              f"corners {corners}")
    except (Mismatch, collide.QueryRefused) as error:
        failures.append(f"scout's polygon: {error}")
    for failure in failures:
        print(f"collide_example: fog of war: {failure}", file=sys.stderr)
    return 1 if failures else 0


def check_fog_polygon(result, scout):
    """Raises Mismatch unless the polygon's level vertices are the crate's
    near corners and every other vertex lies on the range circle."""
    vertices = collide.check(result).visibility_polygon.vertices
    level_vertices = [((v.point.x, v.point.y), v.shape_id) for v in vertices
                      if v.kind == cs.VISIBILITY_VERTEX_KIND_LEVEL_VERTEX]
    expect_equal("level vertices", level_vertices, FOG_POLYGON_CORNERS)
    for i, vertex in enumerate(vertices):
        if vertex.kind != cs.VISIBILITY_VERTEX_KIND_LEVEL_VERTEX:
            expect_near(f"vertex {i}'s distance from the scout",
                        math.hypot(vertex.point.x - scout.x,
                                   vertex.point.y - scout.y),
                        FOG_POLYGON_RANGE)


# The --loop_seconds loop: batches of LOOP_RAYS rays, LOOP_WINDOW of them in
# flight on the stream.
LOOP_RAYS = 4
LOOP_WINDOW = 4


class Tally:
    """Counts shared by the two loops; the first answer kept to compare."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = dict(unary=0, unary_failed=0, batches=0,
                           batches_failed=0, mismatches=0)
        self.first_answer = None

    def add(self, name, count=1):
        with self.lock:
            self.counts[name] += count

    def check(self, where, results):
        """True when `results` is complete and as the first answer was."""
        answer = b"".join(result.SerializeToString() for result in results)
        with self.lock:
            if self.first_answer is None:
                self.first_answer = answer
            if (len(results) == LOOP_RAYS and answer == self.first_answer and
                    all(r.status.code == 0 for r in results)):
                return True
            self.counts["mismatches"] += 1
        print(f"query_loop: {where}: the answer differs from the first one",
              flush=True)
        return False


def loop_rays():
    """Ray casts across the middle of the level."""
    return [collide.ray((0, i), (20, 0)) for i in range(LOOP_RAYS)]


def unary_loop(client, level, stop, tally):
    """Client.run calls one after another: the channel's retry policy
    resends one a draining server failed or cancelled, and waitForReady
    holds it while no server listens."""
    while not stop.is_set():
        try:
            results = client.run(level, loop_rays())
        except grpc.RpcError as error:
            print(f"query_loop: RunQueries: {error.code().name}: "
                  f"{error.details()}", flush=True)
            tally.add("unary_failed")
            continue
        if tally.check("RunQueries", results):
            tally.add("unary")


def stream_loop(client, level, stop, tally, stream_timeout, reopens):
    """LOOP_WINDOW batches in flight on a QueryStream, which resends its
    unanswered batches on a new stream when a draining server ends one."""
    with client.stream(level, window=LOOP_WINDOW,
                       stream_timeout=stream_timeout) as stream:
        in_flight = []
        try:
            while not stop.is_set() or in_flight:
                while not stop.is_set() and len(in_flight) < LOOP_WINDOW:
                    in_flight.append(stream.submit(loop_rays()))
                response = in_flight.pop(0).result()
                if response.status.code != 0:
                    print(f"query_loop: batch {response.batch_id} refused: "
                          f"{response.status.message}", flush=True)
                    tally.add("batches_failed")
                elif tally.check("StreamQueries", response.results):
                    tally.add("batches")
        except (grpc.RpcError, collide.StreamClosed) as error:
            print(f"query_loop: stream: {error}", flush=True)
            tally.add("batches_failed", len(in_flight) + 1)
        finally:
            reopens.append(stream.reopens)


def run_loop(client, level, seconds):
    """Runs both loops for `seconds` or until SIGINT/SIGTERM; prints the
    summary. Returns the exit code: 0 when every call was answered as the
    first one was, else 1."""
    stop = threading.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signal_number, lambda *_: stop.set())
    tally, reopens = Tally(), []
    threads = [
        threading.Thread(target=unary_loop, args=(client, level, stop, tally)),
        # The stream lives as long as the loop, plus time to finish.
        threading.Thread(target=stream_loop,
                         args=(client, level, stop, tally,
                               seconds + DEADLINE_SECONDS, reopens)),
    ]
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    c = tally.counts
    print(f"loop: {c['unary']} unary calls answered, {c['unary_failed']} "
          f"failed; {c['batches']} stream batches answered, "
          f"{c['batches_failed']} failed; {sum(reopens)} stream reopens",
          flush=True)
    return 1 if (c["unary_failed"] or c["batches_failed"] or
                 c["mismatches"]) else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default="127.0.0.1:50051",
                        help="collide server's query port, host:port")
    parser.add_argument("--admin_address", default="127.0.0.1:50052",
                        help="its admin listener, where levels are put")
    parser.add_argument("--admin_token_file", default=None,
                        help="file holding the admin bearer token")
    parser.add_argument("--tls_ca_file", default=None,
                        help="PEM CAs that sign the server's certificate")
    parser.add_argument("--tls_cert_file", default=None,
                        help="PEM client certificate (mutual TLS)")
    parser.add_argument("--tls_key_file", default=None,
                        help="PEM key of --tls_cert_file")
    parser.add_argument("--tls_server_name", default=None,
                        help="name the server's certificate carries")
    parser.add_argument("--loop_seconds", type=float, default=0,
                        help="instead of the check, query --loop_level in a "
                        "loop for this long (or until SIGINT/SIGTERM) and "
                        "count failed calls")
    parser.add_argument("--loop_level", default="levels/arena",
                        help="the level the loop queries")
    parser.add_argument("--fog_level", default="levels/arena",
                        help="the level of the fog-of-war tick (its known "
                        "answers are the bundled level's)")
    args = parser.parse_args()
    if bool(args.tls_cert_file) != bool(args.tls_key_file):
        cannot_start("--tls_cert_file and --tls_key_file go together", 2)
    tls = None
    if (args.tls_ca_file or args.tls_cert_file or args.tls_key_file or
            args.tls_server_name):
        tls = collide.Tls(ca_file=args.tls_ca_file,
                          cert_file=args.tls_cert_file,
                          key_file=args.tls_key_file,
                          server_name=args.tls_server_name)
    try:
        client = collide.Client(args.address,
                                admin_address=args.admin_address, tls=tls,
                                admin_token_file=args.admin_token_file,
                                timeout=DEADLINE_SECONDS)
    except OSError as error:  # a TLS or token file that cannot be read
        cannot_start(f"cannot read {error.filename}: {error.strerror}")
    with client:
        if args.loop_seconds > 0:
            return run_loop(client, args.loop_level, args.loop_seconds)
        try:
            return run(client, args.fog_level)
        except grpc.RpcError as error:
            print(f"collide_example: {args.address}: {error.code().name}: "
                  f"{error.details()}", file=sys.stderr)
            return 1
        except collide.StreamClosed as error:
            print(f"collide_example: {args.address}: {error}",
                  file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
