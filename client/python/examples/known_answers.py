#!/usr/bin/python3
"""Runs the six known-answer queries every collide client package checks,
through the installed collide package: puts a small level, answers the
queries with Client.run, a QueryStream and the asyncio client, compares
each answer with one worked out by hand, and deletes the level.

    known_answers.py --address=HOST:PORT [--admin_address=HOST:PORT]
        [--admin_token_file=F] [--tls_ca_file=F --tls_cert_file=F
        --tls_key_file=F --tls_server_name=NAME]

Exit status: 0 every answer matches; 1 a call failed, the server refused
something or an answer differs (each named on stderr); 2 a bad command
line.
"""

import argparse
import asyncio
import math
import sys

import grpc

import collide
import collide.aio
from collide.v1 import collision_service_pb2 as cs

LEVEL = "known-answers-python"
EDGE, SURFACE = cs.FEATURE_TYPE_EDGE, cs.FEATURE_TYPE_SURFACE


def example_level():
    """A wall (x = 10), a pillar (radius 2 at (0, 20)) and a crate (the
    square around (-10, 0) of half-size 1; its right side is edge 1)."""
    return collide.level(
        LEVEL,
        collide.segment(1, (10, -5), (10, 5), user_data=101),
        collide.circle(2, (0, 20), 2, user_data=102),
        collide.box(3, (-10, 0), (1, 1), user_data=103))


# (name, query, answer): a cast hit as (fraction, point, normal, shape id,
# feature), an overlap as its shape ids, a closest point as (point,
# distance, shape id), a miss as None.
def known_answers():
    return [
        ("ray hits the wall", collide.ray((0, 0), (20, 0)),
         ("cast", 0.5, (10, 0), (-1, 0), 1, (EDGE, 0))),
        ("circle hits the pillar", collide.circle_cast(((0, 0), 1), (0, 20)),
         ("cast", 0.85, (0, 18), (0, -1), 2, (SURFACE, 0))),
        ("triangle hits the crate",
         collide.polygon_cast([(-1, 0), (0, -1), (0, 1)], (-20, 0)),
         ("cast", 0.4, (-9, 0), (1, 0), 3, (EDGE, 1))),
        ("disc overlaps wall and crate",
         collide.overlap(circle=((5, 0), 15)), ("overlap", [1, 3])),
        ("closest point on the pillar",
         collide.closest_point((0, 25), max_distance=10),
         ("closest", (0, 22), 3, 2)),
        ("ray misses", collide.ray((0, 0), (0, -20)), ("miss",)),
    ]


def near(a, b):
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


def differences(result, answer):
    """What differs between a result and its answer (empty: it matches)."""
    if result.status.code != 0:
        return [f"status {result.status.code}: {result.status.message}"]
    kind = answer[0]
    if kind in ("cast", "miss"):
        hits = result.cast.hits
        if kind == "miss":
            return [] if not hits else [f"{len(hits)} hits, expected a miss"]
        if len(hits) != 1:
            return [f"{len(hits)} hits, expected 1"]
        hit = hits[0]
        _, fraction, point, normal, shape_id, feature = answer
        got = (hit.fraction, (hit.point.x, hit.point.y),
               (hit.normal.x, hit.normal.y), hit.shape_id,
               (hit.feature.type, hit.feature.index))
        ok = (near(got[0], fraction) and all(map(near, got[1], point)) and
              all(map(near, got[2], normal)) and got[3] == shape_id and
              got[4] == feature)
        return [] if ok else [f"got {got}, expected {answer[1:]}"]
    if kind == "overlap":
        ids = [s.shape_id for s in result.overlap.shapes]
        return [] if ids == answer[1] else [f"shapes {ids}, expected {answer[1]}"]
    found = result.closest_point
    got = ((found.point.x, found.point.y), found.distance, found.shape_id)
    ok = (found.found and all(map(near, got[0], answer[1])) and
          near(got[1], answer[2]) and got[2] == answer[3])
    return [] if ok else [f"got {got}, expected {answer[1:]}"]


def compare(how, results, cases):
    failures = 0
    for (name, _, answer), result in zip(cases, results):
        problems = differences(result, answer)
        print(f"  {how:8} {'ok' if not problems else 'MISMATCH':8} {name}")
        for problem in problems:
            print(f"known_answers: {how}: {name}: {problem}", file=sys.stderr)
            failures += 1
    if len(results) != len(cases):
        print(f"known_answers: {how}: {len(results)} results for "
              f"{len(cases)} queries", file=sys.stderr)
        failures += 1
    return failures


async def run_async(args, tls):
    async with collide.aio.Client(args.address, tls=tls) as client:
        cases = known_answers()
        failures = compare("aio run", await client.run(
            LEVEL, [q for _, q, _ in cases]), cases)
        async with client.stream(LEVEL) as stream:
            cases = known_answers()
            failures += compare("aio strm", await stream.query(
                [q for _, q, _ in cases]), cases)
        return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("--admin_address", default="127.0.0.1:50052")
    parser.add_argument("--admin_token_file", default=None)
    for flag in ("ca", "cert", "key"):
        parser.add_argument(f"--tls_{flag}_file", default=None)
    parser.add_argument("--tls_server_name", default=None)
    args = parser.parse_args()
    tls = None
    if args.tls_ca_file or args.tls_cert_file or args.tls_server_name:
        tls = collide.Tls(ca_file=args.tls_ca_file, cert_file=args.tls_cert_file,
                          key_file=args.tls_key_file,
                          server_name=args.tls_server_name)
    print(f"collide client {collide.__version__}")
    try:
        with collide.Client(args.address, admin_address=args.admin_address,
                            tls=tls, admin_token_file=args.admin_token_file
                            ) as client:
            summary = client.put_level(example_level())
            print(f"put {summary.level}: {summary.shape_count} shapes")
            try:
                cases = known_answers()
                failures = compare("run", client.run(
                    LEVEL, [q for _, q, _ in cases]), cases)
                with client.stream(LEVEL) as stream:
                    cases = known_answers()
                    failures += compare("stream", stream.query(
                        [q for _, q, _ in cases]), cases)
                failures += asyncio.run(run_async(args, tls))
            finally:
                client.delete_level(LEVEL)
    except (grpc.RpcError, collide.BatchRefused) as error:
        detail = (f"{error.code().name}: {error.details()}"
                  if isinstance(error, grpc.RpcError) else str(error))
        print(f"known_answers: {args.address}: {detail}", file=sys.stderr)
        return 1
    if failures:
        return 1
    print("all known answers match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
