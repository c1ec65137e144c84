#!/usr/bin/env python3
"""Checks that the source tree's layers read one way:

    lib/  <-  proto/formats/  <-  server/, client/

and inside lib/src, one folder per layer:

    exact/  <-  sweep/  <-  pairs/  <-  world/  <-  validate/  <-  visibility/

- lib/ includes nothing generated from protobuf, nothing of gRPC, and no
  header of another layer;
- every file of lib/src lies in one of its layer folders, and includes no
  header of a later layer (a sweep may use exact predicates, never a pair
  family); lib/include's public headers include nothing of lib/src;
- proto/formats/ includes no server/ or client/ header;
- client/ and tests/client/ include no server/ header (clients see the
  server only through the wire); server/ includes no client/ header;
- no include cycle among the project's headers, and none among its
  compiled modules: a module is a header and its .cc together, and it
  depends on another module when one of its files includes that module's
  header and that module has a .cc (code it links against; a.cc including
  b.h and b.cc including a.h is a cycle). Header-only helpers are compiled
  into their includers and may use the types of the module that uses them.

Prints every violation and exits 1 if there is any, else prints a summary
and exits 0. Usage: check_layers.py REPOSITORY_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCE_DIRS = ["lib", "proto/formats", "server", "client", "tests", "bench"]
# lib/src's layers, lowest first: a file includes only its own layer and
# those before it.
LIB_LAYERS = ["exact", "sweep", "pairs", "world", "validate", "visibility"]


def sources(root):
    for top in SOURCE_DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".h", ".cc")):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, root)


def includes_of(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def resolve(root, path, included):
    """The repository path of a quoted include, or None if not ours.

    lib/ names its internal headers relative to lib/src ("exact/sign.h") and
    its public ones relative to lib/include ("collide/toi.h"); other code
    names headers relative to the repository root or to its own folder.
    """
    lib_roots = [os.path.join("lib/src", included),
                 os.path.join("lib/include", included)]
    others = [included, os.path.join(os.path.dirname(path), included)]
    order = lib_roots + others if path.startswith("lib/") else (
        others + lib_roots[::-1])
    for candidate in order:
        candidate = os.path.normpath(candidate)
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def rule_violations(path, included):
    """Messages for an include that breaks a layer rule."""
    out = []
    generated = included.endswith(".pb.h") or included.startswith("grpcpp/")
    other_layer = included.startswith(("server/", "client/", "proto/"))
    if path.startswith("lib/") and (generated or other_layer):
        out.append("lib/ is pure geometry")
    if path.startswith("proto/formats/") and included.startswith(
            ("server/", "client/")):
        out.append("formats stand below server/ and client/")
    if path.startswith(("client/", "tests/client/")) and included.startswith(
            "server/"):
        out.append("clients see the server only through the wire")
    if path.startswith("server/") and included.startswith("client/"):
        out.append("the server does not use the client")
    return out


def lib_layer(path):
    """The index in LIB_LAYERS of a lib/src file's layer, -1 for a lib/src
    file outside every layer folder, None for a file outside lib/src."""
    parts = path.split("/")
    if parts[:2] != ["lib", "src"]:
        return None
    if len(parts) == 4 and parts[2] in LIB_LAYERS:
        return LIB_LAYERS.index(parts[2])
    return -1


def layer_violations(path, target):
    """Messages for an include, resolved to `target`, that points the wrong
    way between lib's layers."""
    if path.startswith("lib/include/") and target.startswith("lib/src/"):
        return ["a public header includes nothing of lib/src"]
    own = lib_layer(path)
    other = lib_layer(target)
    if own is None or other is None or own < 0 or other < 0:
        return []
    if other > own:
        return [f"lib/src/{LIB_LAYERS[own]}/ stands below "
                f"lib/src/{LIB_LAYERS[other]}/ "
                f"({' <- '.join(LIB_LAYERS)})"]
    return []


def module(path):
    return os.path.splitext(path)[0]


def find_cycle(graph):
    """One cycle of module names as a list, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    problems = []
    headers = {}  # header -> headers it includes
    modules = {}  # module -> compiled modules it depends on
    paths = sorted(sources(root))
    compiled = {module(p) for p in paths if p.endswith(".cc")}
    for path in paths:
        if lib_layer(path) == -1:
            problems.append(f"{path}: lib/src files live in one of "
                            f"{', '.join(LIB_LAYERS)}")
        for included in includes_of(root, path):
            for why in rule_violations(path, included):
                problems.append(f"{path} includes \"{included}\": {why}")
            target = resolve(root, path, included)
            if not target:
                continue
            for why in layer_violations(path, target):
                problems.append(f"{path} includes \"{included}\": {why}")
            if module(target) == module(path):
                continue
            if path.endswith(".h"):
                headers.setdefault(path, set()).add(target)
            if module(target) in compiled:
                modules.setdefault(module(path), set()).add(module(target))
    for kind, graph in (("header", headers), ("module", modules)):
        cycle = find_cycle(graph)
        if cycle:
            problems.append(f"{kind} include cycle: " + " -> ".join(cycle))
    count = len(paths)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layering problems in {count} files")
        return 1
    print(f"layers read one way: {count} files, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
