#!/usr/bin/python3
"""Queries a level in a loop through the collide package until
--loop_seconds pass or SIGINT/SIGTERM arrives, on two threads: Client.run
calls one after another, and a QueryStream with batches in flight. Every
answer must be complete and the same as the first answer to the same batch;
the package's retry policy and the stream's resends carry the calls through
server drains.

    query_loop.py --address=HOST:PORT --loop_seconds=S [--level=arena]

Prints "loop: N unary calls answered, F failed; B stream batches answered,
G failed; R stream reopens". Exit status: 0 nothing failed or differed; 1 a
call failed or an answer differed; 2 a bad command line.
"""

import argparse
import signal
import sys
import threading

import grpc

import collide

RAYS = 4
WINDOW = 4


def rays():
    return [collide.ray((0, i), (20, 0)) for i in range(RAYS)]


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = dict(unary=0, unary_failed=0, batches=0,
                           batches_failed=0, mismatches=0)
        self.first = None

    def add(self, name, count=1):
        with self.lock:
            self.counts[name] += count

    def same_as_first(self, results):
        answer = b"".join(r.SerializeToString() for r in results)
        with self.lock:
            if self.first is None:
                self.first = answer
            ok = (len(results) == RAYS and answer == self.first and
                  all(r.status.code == 0 for r in results))
            if not ok:
                self.counts["mismatches"] += 1
        return ok


def unary_loop(client, level, stop, tally):
    while not stop.is_set():
        try:
            results = client.run(level, rays())
        except grpc.RpcError as error:
            print(f"query_loop: RunQueries: {error.code().name}: "
                  f"{error.details()}", flush=True)
            tally.add("unary_failed")
            continue
        if tally.same_as_first(results):
            tally.add("unary")


def stream_loop(client, level, stop, tally, reopens):
    with client.stream(level, window=WINDOW) as stream:
        in_flight = []
        try:
            while not stop.is_set() or in_flight:
                while not stop.is_set() and len(in_flight) < WINDOW:
                    in_flight.append(stream.submit(rays()))
                response = in_flight.pop(0).result()
                if response.status.code == 0 and tally.same_as_first(
                        list(response.results)):
                    tally.add("batches")
                else:
                    tally.add("batches_failed")
        except (grpc.RpcError, collide.StreamClosed) as error:
            print(f"query_loop: stream: {error}", flush=True)
            tally.add("batches_failed", len(in_flight) + 1)
        finally:
            reopens.append(stream.reopens)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("--level", default="arena")
    parser.add_argument("--loop_seconds", type=float, default=10)
    args = parser.parse_args()
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    tally, reopens = Tally(), []
    with collide.Client(args.address) as client:
        threads = [
            threading.Thread(target=unary_loop,
                             args=(client, args.level, stop, tally)),
            threading.Thread(target=stream_loop,
                             args=(client, args.level, stop, tally, reopens)),
        ]
        for thread in threads:
            thread.start()
        stop.wait(args.loop_seconds)
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


if __name__ == "__main__":
    sys.exit(main())
