#!/usr/bin/python3
"""Writes the fuzz targets' seed corpus (tests/fuzz/corpus/<target>/).

Seeds come from the repository's own examples (levels/*.json, the Tiled map
under tests/data/tiled/, client/examples/*.json requests) converted to each
target's input form, plus hand-made geometry inputs. Re-run after changing a
target's input form; the fuzzers grow their own corpus in a scratch copy
(scripts/fuzz.sh), so what is checked in only changes when a person adds it.

Usage: /usr/bin/python3 tests/fuzz/make_seeds.py  (Debian python3-protobuf)
"""
import glob
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def load_protos(tmp):
    subprocess.run(
        ["protoc", "--proto_path=" + os.path.join(ROOT, "proto"),
         "--python_out=" + tmp,
         "collide/v1/geometry.proto", "collide/v1/collision_service.proto"],
        check=True)
    for d in ("collide", os.path.join("collide", "v1")):
        open(os.path.join(tmp, d, "__init__.py"), "a").close()
    sys.path.insert(0, tmp)
    from collide.v1 import collision_service_pb2, geometry_pb2
    return geometry_pb2, collision_service_pb2


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


# A small level with one shape of each kind, near the origin.
SMALL_LEVEL = """{
  "id": "small",
  "shapes": [
    {"id": "1", "segment": {"p1": {"x": 0, "y": 0}, "p2": {"x": 4, "y": 0}}},
    {"id": "2", "polyline": {"vertices": [{"x": 0, "y": 2}, {"x": 2, "y": 2},
                                          {"x": 2, "y": 4}], "closed": true}},
    {"id": "3", "polygon": {"vertices": [{"x": 5, "y": 0}, {"x": 7, "y": 0},
                                         {"x": 7, "y": 2}, {"x": 6, "y": 1},
                                         {"x": 5, "y": 2}]}},
    {"id": "4", "circle": {"center": {"x": -3, "y": 0}, "radius": 1}},
    {"id": "5", "box": {"center": {"x": 0, "y": -3}, "halfExtents": {"x": 1, "y": 1}}},
    {"id": "6", "capsule": {"p1": {"x": 3, "y": 5}, "p2": {"x": 5, "y": 5}, "radius": 0.5}}
  ]
}"""

# One query of each kind against SMALL_LEVEL, including a closest point
# without max_distance and a pair TOI.
SMALL_BATCH = """{
  "level": "levels/small",
  "queries": [
    {"requestId": "1", "rayCast": {"origin": {"x": -8, "y": 1}, "translation": {"x": 16, "y": 0}}},
    {"requestId": "2", "circleCast": {"circle": {"center": {"x": 2, "y": 8}, "radius": 0.5},
                      "translation": {"x": 0, "y": -10}, "options": {"mode": "CAST_MODE_ALL"}}},
    {"requestId": "3", "polygonCast": {"polygon": {"vertices": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 0, "y": 1}]},
                       "translation": {"x": 4, "y": 4}}},
    {"requestId": "4", "capsuleCast": {"capsule": {"p1": {"x": -6, "y": 5}, "p2": {"x": -6, "y": 6}, "radius": 0.25},
                       "translation": {"x": 12, "y": 0}, "options": {"targetDistance": 0.01}}},
    {"requestId": "5", "overlap": {"circle": {"center": {"x": 0, "y": 0}, "radius": 3}}},
    {"requestId": "6", "closestPoint": {"point": {"x": 10, "y": 10}}},
    {"requestId": "7", "closestPoint": {"point": {"x": 1, "y": 1}, "maxDistance": 2}},
    {"requestId": "8", "pairToi": {"a": {"circle": {"center": {"x": 0, "y": 0}, "radius": 1}, "translation": {"x": 4, "y": 0}},
                                   "b": {"segment": {"p1": {"x": 3, "y": -1}, "p2": {"x": 3, "y": 1}}}}},
    {"requestId": "9", "hitValidation": {"origin": {"x": -8, "y": 3}, "translation": {"x": 16, "y": 0}, "radius": 0.1,
                       "targets": [{"id": "7", "circle": {"center": {"x": -1, "y": 3}, "radius": 0.5},
                                    "translation": {"x": 0, "y": 1}}]}}
  ]
}"""


def level_decode_seeds(geometry_pb2, json_format):
    levels = [("dock", read("levels/dock.json")), ("small", SMALL_LEVEL.encode())]
    for name, text in levels:
        level = json_format.Parse(text, geometry_pb2.Level())
        write("level_decode", name + ".binary", b"\x00" + level.SerializeToString())
        write("level_decode", name + ".json", b"\x01" + text)
        write("level_decode", name + ".detect", b"\x04" + text)
    tiled = read("tests/data/tiled/arena.tmj")
    write("level_decode", "arena.tiled", b"\x02" + tiled)
    # Selector 3 + 5 * flags: LevelFromTiledMap with y up (1), hidden layers
    # skipped (2), and external tilesets read as the map itself (32).
    write("level_decode", "arena.tiled_options", bytes([3 + 5 * 35]) + tiled)
    write("level_decode", "props.tiled", b"\x02" + read("tests/data/tiled/props.tsj"))


def query_batch_seeds(geometry_pb2, service_pb2, json_format):
    levels = {
        "dock": json_format.Parse(read("levels/dock.json"), geometry_pb2.Level()),
        "small": json_format.Parse(SMALL_LEVEL, geometry_pb2.Level()),
    }
    batches = {"small": SMALL_BATCH.encode()}
    for path in sorted(glob.glob(os.path.join(ROOT, "client", "examples", "*.json"))):
        batches[os.path.splitext(os.path.basename(path))[0]] = read(path)
    for level_name, level in levels.items():
        level_bytes = level.SerializeToString()
        for batch_name, text in batches.items():
            request = json_format.Parse(text, service_pb2.RunQueriesRequest())
            # The harness caps the batch (InputLimits.max_batch_size 16).
            del request.queries[16:]
            write("query_batch", f"{level_name}.{batch_name}",
                  struct.pack("<H", len(level_bytes)) + level_bytes +
                  request.SerializeToString())


def geometry_seeds():
    # FuzzInput reads a selector byte per double: 1..4 mean "the next byte
    # % 17 - 8", a small integer. Each seed is a family byte, a few choice
    # bytes, then small integers.
    def ints(*values):
        out = b""
        for v in values:
            out += bytes([1, (v + 8) % 17])
        return out
    # family 0: circle cast (mover 1) at a segment (obstacle 1), head on.
    write("geometry", "circle_vs_segment", b"\x00\x01" + ints(-4, 0, 1, 8, 0) +
          b"\x01" + ints(0, -2, 0, 2) + b"\x00")
    # family 0: ray (mover 0) at a convex box (obstacle 4, box 1).
    write("geometry", "ray_vs_box", b"\x00\x00" + ints(-4, 0, 8, 0) +
          b"\x04\x01" + ints(0, 0, 1, 1, 0) + b"\x00")
    # family 0: capsule (mover 2) at a concave polygon (obstacle 5, 5 vertices).
    write("geometry", "capsule_vs_concave", b"\x00\x02" + ints(-4, 0, -4, 1, 0, 8, 0) +
          b"\x05\x02" + ints(0, 0, 2, 0, 2, 2, 1, 1, 0, 2) + b"\x00")
    # family 1: polygon (mover 3, regular triangle 2) at a moving circle.
    write("geometry", "polygon_vs_moving_circle", b"\x01\x03\x02" + ints(0, 0, 1) +
          b"\x00\x00" + ints(4, 0) + b"\x02" + ints(4, 0, 1) + ints(-4, 0) + b"\x00")
    # family 2: ray against a turning segment.
    write("geometry", "ray_vs_deforming", b"\x02" + ints(0, -2, 0, 4, -1, 0, 1, 0, 0, 1, 0, -1) + b"\x00")
    # family 3: collinear segments overlapping; a tangent line and circle.
    write("geometry", "collinear_segments", b"\x03\x00" + ints(0, 0, 4, 0, 2, 0, 6, 0))
    write("geometry", "tangent_line_circle", b"\x03\x01" + ints(-2, 1, 2, 1, 0, 0, 1) + b"\x01")
    # family 3: overlap of a capsule and a convex polygon.
    write("geometry", "overlap_capsule_polygon", b"\x03\x03\x03" + ints(0, 0, 2, 0, 1) +
          b"\x04\x01" + ints(3, 0, 1, 1, 0))
    # family 4: a level of 3 shapes, then a ray, a closest point, a move.
    level = (b"\x04\x02" +
             b"\x01\x01\x05\x00" + ints(0, 0, 4, 0) +          # segment id 1
             b"\x02\x01\x06\x03" + ints(0, 4, 1) +             # circle id 2
             b"\x03\x01\x07\x04" + ints(6, 0, 1, 1, 0) +       # box id 3
             b"\x00")                                          # cell size auto
    write("geometry", "level_queries", level +
          b"\x00\x00\x00\x00" + ints(-2, 1, 12, 0) +            # ray cast
          b"\x00\x00\x03" + ints(2, 6, 3) +                     # closest point
          b"\x00\x00\x04\x00" + ints(0, 2, 1) + ints(0, -4) + b"\x01\x04\x04")
    write("geometry", "level_hit_validation", level +
          b"\x00\x00\x05" + ints(-4, 1, 12, 0, 0) + b"\x01\x00" + ints(2, 1, 1) + ints(0, 0))
    # family 5: CastPair of two circles approaching.
    write("geometry", "pair_circles", b"\x05\x02" + ints(0, 0, 1, 4, 0) + b"\x02" +
          ints(6, 0, 1, -4, 0) + b"\x00")


def main():
    from google.protobuf import json_format
    with tempfile.TemporaryDirectory() as tmp:
        geometry_pb2, service_pb2 = load_protos(tmp)
        level_decode_seeds(geometry_pb2, json_format)
        query_batch_seeds(geometry_pb2, service_pb2, json_format)
    geometry_seeds()


if __name__ == "__main__":
    main()
