#!/usr/bin/env python3
"""Measures two of lancer's limits (issue #9) on the release binary:

- resident memory per Hash setting: `setoption name Hash value N`, `isready`, a short
  search (`go depth 10`), then VmRSS and VmHWM from /proc/PID/status (Linux);
- stop latency: N times (default 100, cycling through the variants) `go infinite`,
  `stop` after a random 10-300 ms delay, and the time from sending `stop` to reading
  `bestmove` (worst, mean, median), with Threads 1 and 2.

    engine-tests/scripts/limits.py [--bin target/release/lancer] [--stops 100]
        [--hash 16,256,1024]

Build first (`cargo build --release`). These are measurements, not pass/fail tests;
engine-tests/limits.rs checks that `stop` is answered at all.
"""

import argparse
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

VARIANTS = ["chess", "fischerandom", "fullcavalry", "eightpiece", "eightpiecerandom",
            "royalstandard", "lighthouse"]


class Engine:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait("uciok")

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.monotonic(), line.rstrip("\n")))
        self.q.put((time.monotonic(), None))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout=60.0):
        end = time.monotonic() + timeout
        while True:
            t, line = self.q.get(timeout=max(0.0, end - time.monotonic()))
            if line is None:
                sys.exit(f"engine exited while waiting for {prefix!r}")
            if line.startswith(prefix):
                return t, line

    def status_mb(self, key):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def rss(binary, sizes):
    print("Hash MB | VmRSS after isready | VmRSS after search | VmHWM (MB)")
    for mb in sizes:
        e = Engine(binary)
        e.send(f"setoption name Hash value {mb}")
        e.send("isready")
        e.wait("readyok")
        ready = e.status_mb("VmRSS")
        e.send("position startpos")
        e.send("go depth 10")
        e.wait("bestmove")
        print(f"{mb:7} | {ready:19.0f} | {e.status_mb('VmRSS'):18.0f} | {e.status_mb('VmHWM'):.0f}")
        e.quit()
    print("(VmHWM also holds the 64 MB default table made at start-up.)")


def stop_latency(binary, n, threads, rng):
    e = Engine(binary)
    e.send(f"setoption name Threads value {threads}")
    lat = []
    for i in range(n):
        e.send(f"setoption name UCI_Variant value {VARIANTS[i % len(VARIANTS)]}")
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(rng.uniform(0.010, 0.300))
        t0 = time.monotonic()
        e.send("stop")
        t1, _ = e.wait("bestmove", timeout=30)
        lat.append((t1 - t0) * 1000)
    e.quit()
    print(f"stop latency, Threads {threads}, {n} stops: worst {max(lat):.2f} ms, "
          f"mean {statistics.mean(lat):.2f} ms, median {statistics.median(lat):.2f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/lancer")
    ap.add_argument("--stops", type=int, default=100)
    ap.add_argument("--hash", default="16,256,1024")
    ap.add_argument("--seed", type=int, default=9)
    a = ap.parse_args()
    rss(a.bin, [int(x) for x in a.hash.split(",") if x])
    rng = random.Random(a.seed)
    for threads in (1, 2):
        stop_latency(a.bin, a.stops, threads, rng)


if __name__ == "__main__":
    main()
