#!/usr/bin/env python3
"""Relabel training positions with another UCI engine's scores (docs/training.md,
Labels from another engine).

Reads text lines `EFEN | result | score` (`lancer dump`'s output) on stdin and
writes the same lines with the score replaced by the engine's, in centipawns from
White's view, after `go nodes N`. Mates become +-MATE. Lines keep their order.

    lancer dump --variant chess data/chess.*.data \
        | engine-tests/scripts/relabel.py --engine stockfish --nodes 3000 > chess.sf.txt

--every K keeps one line in K (the first of each K, or the one --offset I names),
--jobs the engine processes,
--option NAME=VALUE a setoption sent to each (UCI_Variant for Fairy-Stockfish).
"""
import argparse
import subprocess
import sys
from multiprocessing import Pool

MATE = 3000

ARGS = None
ENGINE = None


def start():
    global ENGINE
    ENGINE = subprocess.Popen(
        ARGS.engine.split(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    send("uci")
    wait("uciok")
    send("setoption name Threads value 1")
    send("setoption name Hash value 16")
    for o in ARGS.option:
        name, _, value = o.partition("=")
        send(f"setoption name {name} value {value}")
    send("isready")
    wait("readyok")


def send(line):
    ENGINE.stdin.write(line + "\n")


def wait(word):
    while True:
        line = ENGINE.stdout.readline()
        if not line:
            sys.exit(f"relabel: the engine ended while waiting for {word}")
        if line.split()[:1] == [word]:
            return line


def score(fen):
    """The engine's score for the side to move, centipawns, or None."""
    send(f"position fen {fen}")
    send(f"go nodes {ARGS.nodes}")
    last = None
    while True:
        line = ENGINE.stdout.readline()
        if not line:
            sys.exit("relabel: the engine ended during a search")
        w = line.split()
        if w[:1] == ["bestmove"]:
            return last
        if "score" in w and "upperbound" not in w and "lowerbound" not in w:
            i = w.index("score")
            kind, value = w[i + 1], int(w[i + 2])
            if kind == "cp":
                last = max(-MATE, min(MATE, value))
            elif kind == "mate":
                last = MATE if value > 0 else -MATE


def relabel(line):
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 2:
        return None
    fen, result = parts[0], parts[1]
    s = score(fen)
    if s is None:
        return None
    white = s if fen.split()[1] == "w" else -s
    return f"{fen} | {result} | {white}"


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="the command of a UCI engine")
    p.add_argument("--nodes", type=int, default=3000)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--offset", type=int, default=0, help="which line of each K")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    ARGS = p.parse_args()
    lines = (
        l.rstrip("\n")
        for i, l in enumerate(sys.stdin)
        if i % ARGS.every == ARGS.offset % ARGS.every and l.strip() and not l.startswith("#")
    )
    done = 0
    with Pool(ARGS.jobs, initializer=start) as pool:
        for out in pool.imap(relabel, lines, chunksize=64):
            if out is not None:
                print(out)
                done += 1
                if done % 10000 == 0:
                    print(f"relabel: {done} positions", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
