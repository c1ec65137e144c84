#!/usr/bin/env python3
"""Markdown table from collide_toi_bench's JSON output.

Usage:
  collide_toi_bench --benchmark_format=json > toi.json
  bench/toi_table.py toi.json            # or: ... | bench/toi_table.py

Benchmarks named BM_<Pair>/collide and BM_<Pair>/box2d are paired up; one
row per pair: ns per call on each side (CPU time by default, --time real for
wall time; the median when the run used --benchmark_repetitions),
the Box2D function (the box2d benchmark's label), the ratio collide / Box2D
(below 1: collide is faster) and the hit counts (with how many cases the
two disagree on, when any). Moving-vs-moving pairs also have
BM_<Pair>/box2d_toi (b2TimeOfImpact): its ns, ratio and hit counts fill the
last three columns ("-" for the other pairs). Rows keep the benchmarks'
registration order, also for a run with
--benchmark_enable_random_interleaving.
"""

import argparse
import json
import statistics
import sys
from collections import OrderedDict

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load_rows(doc, time_key):
    """{run_name: {'ns': float, 'label': str, counters...}}, in run order.

    With --benchmark_repetitions the median aggregate is used (its counters
    too), so --benchmark_report_aggregates_only=true output works as well.
    """
    rows = OrderedDict()
    # Registration order (--benchmark_enable_random_interleaving shuffles
    # the output's).
    benchmarks = sorted(doc.get("benchmarks", []),
                        key=lambda b: b.get("family_index", 0))
    for b in benchmarks:
        if b.get("error_occurred"):
            continue
        aggregate = b.get("run_type") == "aggregate"
        if aggregate and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        row = rows.setdefault(name, {"times": [], "median": None})
        ns = b[time_key] * TO_NS[b.get("time_unit", "ns")]
        if aggregate:
            row["median"] = ns
        else:
            row["times"].append(ns)
        if aggregate or "label" not in row:
            row["label"] = b.get("label", "")
            for key in ("hits", "cases", "disagree"):
                if key in b:
                    row[key] = b[key]
    for row in rows.values():
        row["ns"] = row["median"] if row["median"] is not None else statistics.median(row["times"])
    return rows


def fmt_ns(ns):
    return "%.1f" % ns if ns < 100 else "%.0f" % ns


def fmt_count(x):
    return "%d" % round(x)


def hits(c, b):
    """'collide/Box2D of N (K differ)', '-' for a side that did not run."""
    c_hits = fmt_count(c["hits"]) if c and "hits" in c else "-"
    b_hits = fmt_count(b["hits"]) if b and "hits" in b else "-"
    out = "%s/%s" % (c_hits, b_hits)
    if c and "cases" in c:
        out += " of %s" % fmt_count(c["cases"])
    if b and b.get("disagree"):
        out += " (%s differ)" % fmt_count(b["disagree"])
    return out


def ratio(c, b):
    return "%.2f" % (c["ns"] / b["ns"]) if c and b else "-"


def table(rows):
    pairs = OrderedDict()
    for name, row in rows.items():
        pair, _, side = name.rpartition("/")
        if not pair:
            pair, side = name, "collide"
        pairs.setdefault(pair, {})[side] = row
    lines = [
        "| pair | collide ns | Box2D ns | Box2D function used | ratio | hits (collide/Box2D)"
        " | b2TimeOfImpact ns | ratio | hits (collide/b2TimeOfImpact) |",
        "|---|---:|---:|---|---:|---|---:|---:|---|",
    ]
    for pair, sides in pairs.items():
        c = sides.get("collide")
        b = sides.get("box2d")
        toi = sides.get("box2d_toi")
        label = pair[3:] if pair.startswith("BM_") else pair
        c_ns = fmt_ns(c["ns"]) if c else "-"
        b_ns = fmt_ns(b["ns"]) if b else "-"
        func = b["label"] if b else "none (no Box2D equivalent)"
        toi_ns = fmt_ns(toi["ns"]) if toi else "-"
        toi_hits = hits(c, toi) if toi else "-"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, c_ns, b_ns, func, ratio(c, b), hits(c, b), toi_ns, ratio(c, toi), toi_hits))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="?", help="benchmark JSON (default: stdin)")
    parser.add_argument("--time", choices=("cpu", "real"), default="cpu")
    args = parser.parse_args()
    if args.json:
        with open(args.json) as f:
            doc = json.load(f)
    else:
        doc = json.load(sys.stdin)
    rows = load_rows(doc, "cpu_time" if args.time == "cpu" else "real_time")
    print(table(rows))


if __name__ == "__main__":
    main()
