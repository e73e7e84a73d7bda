#!/usr/bin/env python3
"""Chess openings that lancer's own evaluation did not choose: random lines of PLIES
plies from the start (each ply a uniformly random legal move), kept where Debian's
`stockfish` at DEPTH scores the position within MARGIN centipawns, one FEN a line
(EPD as `lancer match -openings format=epd` reads it). The same seed gives the same
file.

  engine-tests/scripts/sf_openings.py --count 100 --seed 41 > sf41.epd

Needs python-chess (`pip install chess`) and a Stockfish (`apt-get install
stockfish`; `--engine PATH` for another).
"""
import argparse
import random
import shutil
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--margin", type=int, default=60)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    a = ap.parse_args()
    if shutil.which(a.engine) is None:
        sys.exit(f"no engine at {a.engine}: apt-get install stockfish, or give --engine PATH")
    rng = random.Random(a.seed)
    seen = set()
    kept = tried = 0
    with chess.engine.SimpleEngine.popen_uci(a.engine) as sf:
        sf.configure({"Threads": 1, "Hash": 16})
        while kept < a.count:
            tried += 1
            if tried > 1000 * max(a.count, 1):
                sys.exit(f"only {kept} balanced openings in {tried} tries")
            b = chess.Board()
            for _ in range(a.plies):
                moves = list(b.legal_moves)
                if not moves:
                    break
                b.push(rng.choice(moves))
            if b.is_game_over() or b.ply() < a.plies:
                continue
            key = b.board_fen() + (" w" if b.turn else " b")
            if key in seen:
                continue
            info = sf.analyse(b, chess.engine.Limit(depth=a.depth))
            score = info["score"].pov(b.turn)
            if score.is_mate() or abs(score.score()) > a.margin:
                continue
            seen.add(key)
            kept += 1
            print(b.fen(), flush=True)
    print(f"{kept} openings kept of {tried} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
