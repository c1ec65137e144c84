#!/usr/bin/env python3
"""Lists likely store-forwarding stalls in a binary's collide functions.

A load can take its value from a store still in flight only when the store
covers it; a 16-byte load over two 8-byte stores (GCC copying a Hit or an
optional it has just written field by field, or merging return paths in a
stack slot) waits instead until the stores reach the cache. Callgrind counts
no extra instructions for it, so it shows only as time (docs/performance.md).

Heuristic, one function at a time in address order: a 16-byte load or packed
operand from [reg+offset] is flagged when one of the WINDOW instructions
before it, with no call between, stores fewer bytes to an overlapping place
through the same register. Read each hit in the disassembly before acting.

usage: scripts/store_forward_scan.py BINARY [WINDOW]
  e.g. scripts/store_forward_scan.py build/bench/collide_toi_bench 40
"""
import collections
import re
import subprocess
import sys

WIDE = re.compile(
    r"\s(movdqu|movdqa|movupd|movapd|movaps|movups|lddqu|andpd|andnpd|orpd|"
    r"xorpd|addpd|subpd|mulpd|divpd|maxpd|minpd|unpcklpd|unpckhpd|shufpd|"
    r"cmppd|pand|por|pxor|sqrtpd|haddpd)\s+(-?0x[0-9a-f]+|)\((%r\w+)\),%xmm")
STORE = re.compile(
    r"\s(movsd|movq|mov|movl|movb|movw|movss|movlpd|movhpd)\s+[^,]+,"
    r"(-?0x[0-9a-f]+|)\((%r\w+)\)$")


def store_bytes(op, text):
    if op in ("movsd", "movq", "movlpd", "movhpd"):
        return 8
    if op in ("movss", "movl"):
        return 4
    if op == "movw":
        return 2
    if op == "movb":
        return 1
    source = re.search(r"%(\w+),", text)  # mov: by its source register
    name = source.group(1) if source else ""
    if re.fullmatch(r"r\w*[dwb]|e\w+|\w[lh]", name):
        return 4 if name.startswith("e") or name.endswith("d") else 1
    return 8


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    window = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", "-C", binary],
        capture_output=True, text=True, check=True).stdout
    found = collections.defaultdict(list)
    function, recent = None, []
    for line in listing.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            function, recent = header.group(1), []
            continue
        if function is None or "collide::" not in function:
            continue
        instruction = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if not instruction:
            continue
        address, text = instruction.groups()
        wide = WIDE.search(" " + text)
        if wide:
            offset = int(wide.group(2), 16) if wide.group(2) else 0
            for before in reversed(recent[-window:]):
                if "call" in before:
                    break
                store = STORE.search(" " + before)
                if not store or store.group(3) != wide.group(3):
                    continue
                start = int(store.group(2), 16) if store.group(2) else 0
                size = store_bytes(store.group(1), before)
                if start < offset + 16 and start + size > offset:
                    found[function].append(address)
                    break
        recent.append(text)
    for function, addresses in sorted(found.items(), key=lambda f: -len(f[1])):
        print(f"{len(addresses)} {function[:150]} {' '.join(addresses[:4])}")


if __name__ == "__main__":
    main()
