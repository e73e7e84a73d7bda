#!/usr/bin/env python3
"""Chess matches driven by python-chess (a real UCI/XBoard client).

Used by the test suite (a few fast games: lancer against itself and against Debian's
fairy-stockfish, asserting no protocol error) and for strength measurement until
`lancer match` exists (lancer against fairymax / sjaakii at 10+0.1).

    match.py --engine NAME:PROTO:COMMAND ... --engine NAME:PROTO:COMMAND ... \
             --games N --tc 10+0.1 [--concurrency K] [--pgn FILE]

Colours alternate every game; game pairs share an opening from a small book of
balanced lines. The clock is kept here: a move that takes longer than the time left
plus a 200 ms margin loses on time. Results print cutechess-style.
"""
import argparse
import concurrent.futures
import math
import shlex
import sys
import time

import chess
import chess.engine
import chess.pgn

BOOK = [
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6", "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6", "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6",
    "d2d4 d7d5 c2c4 c7c6", "e2e4 e7e5 f1c4 g8f6", "d2d4 g8f6 c2c4 e7e6", "e2e4 d7d6 d2d4 g8f6",
    "c2c4 c7c5 g1f3 g8f6", "e2e4 c7c5 b1c3 b8c6", "d2d4 f7f5 g2g3 g8f6", "e2e4 g7g6 d2d4 f8g7",
]


class RawXBoard:
    """A minimal CECP driver for engines python-chess refuses (fairymax lacks setboard):
    new, force, the moves so far, time/otim, go; reads `move X`."""

    def __init__(self, argv, base, inc):
        import subprocess
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.sent = 0
        self.usermove = False
        self.send("xboard")
        self.send("protover 2")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            line = self.p.stdout.readline()
            if not line:
                break
            if "usermove=1" in line:
                self.usermove = True
            if "done=1" in line:
                break
        minutes, seconds = divmod(int(base), 60)
        self.send("new")
        self.send("post") if False else None
        self.send(f"level 0 {minutes}:{seconds:02d} {inc:g}")
        self.send("force")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def play(self, board, limit):
        moves = [m.uci() for m in board.move_stack]
        self.send("force")
        for m in moves[self.sent:]:
            self.send(("usermove " if self.usermove else "") + m)
        self.sent = len(moves)
        me, other = (limit.white_clock, limit.black_clock) if board.turn else (limit.black_clock, limit.white_clock)
        self.send(f"time {max(1, int(me * 100))}")
        self.send(f"otim {max(1, int(other * 100))}")
        self.send("go")
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise chess.engine.EngineTerminatedError("engine exited")
            t = line.split()
            if len(t) >= 2 and t[0] == "move":
                self.sent += 1
                return chess.engine.PlayResult(chess.Move.from_uci(t[1]), None)
            if t and (t[0] == "Illegal" or t[0] == "Error"):
                raise chess.engine.EngineError(line.strip())

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def open_engine(spec, base=10, inc=0.1):
    name, proto, cmd = spec.split(":", 2)
    argv = shlex.split(cmd)
    if proto == "rawxboard":
        return name, RawXBoard(argv, base, inc)
    if proto == "uci":
        eng = chess.engine.SimpleEngine.popen_uci(argv, timeout=30)
    elif proto == "xboard":
        eng = chess.engine.SimpleEngine.popen_xboard(argv, timeout=30)
    else:
        raise SystemExit(f"unknown protocol {proto}")
    return name, eng


def play_game(i, white_spec, black_spec, base, inc, max_plies=400):
    opening = BOOK[(i // 2) % len(BOOK)].split()
    board = chess.Board()
    for u in opening:
        board.push_uci(u)
    names = {}
    engines = {}
    errors = []
    try:
        for color, spec in ((chess.WHITE, white_spec), (chess.BLACK, black_spec)):
            names[color], engines[color] = open_engine(spec, base, inc)
        clock = {chess.WHITE: base, chess.BLACK: base}
        result, reason = None, None
        while result is None:
            if board.is_game_over(claim_draw=True):
                outcome = board.outcome(claim_draw=True)
                result = outcome.result()
                reason = outcome.termination.name.lower().replace("_", " ")
                break
            if board.ply() >= max_plies:
                result, reason = "1/2-1/2", "max moves"
                break
            side = board.turn
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t0 = time.monotonic()
            try:
                played = engines[side].play(board, limit)
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                errors.append(f"{names[side]}: {e}")
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"engine error: {e}"
                break
            used = time.monotonic() - t0
            clock[side] -= used
            if clock[side] < -0.2:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "time forfeit"
                break
            clock[side] += inc
            if played.move is None or played.move not in board.legal_moves:
                errors.append(f"{names[side]}: illegal move {played.move}")
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "illegal move"
                break
            board.push(played.move)
    finally:
        for e in engines.values():
            try:
                e.quit()
            except Exception:
                pass
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = names.get(chess.WHITE, "?")
    game.headers["Black"] = names.get(chess.BLACK, "?")
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    game.headers["Round"] = str(i + 1)
    return i, names.get(chess.WHITE), names.get(chess.BLACK), result, reason, errors, game


def elo(score, n):
    if n == 0 or score <= 0 or score >= n:
        return float("inf") if n and score >= n else float("-inf"), 0.0
    p = score / n
    e = -400 * math.log10(1 / p - 1)
    return e, p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgn")
    a = ap.parse_args()
    if len(a.engine) != 2:
        raise SystemExit("give exactly two --engine")
    base, _, inc = a.tc.partition("+")
    base, inc = float(base), float(inc or 0)
    first = a.engine[0].split(":", 1)[0]
    w = l = d = 0
    all_errors = []
    games = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.concurrency) as ex:
        futs = []
        for i in range(a.games):
            wspec, bspec = (a.engine[0], a.engine[1]) if i % 2 == 0 else (a.engine[1], a.engine[0])
            futs.append(ex.submit(play_game, i, wspec, bspec, base, inc))
        for f in concurrent.futures.as_completed(futs):
            i, wn, bn, result, reason, errors, game = f.result()
            games.append((i, game))
            all_errors += errors
            if result == "1/2-1/2":
                d += 1
            elif (result == "1-0") == (wn == first):
                w += 1
            else:
                l += 1
            print(f"Finished game {i + 1} ({wn} vs {bn}): {result} {{{reason}}}", flush=True)
            n = w + l + d
            print(f"Score of {a.engine[0].split(':')[0]} vs {a.engine[1].split(':')[0]}: {w} - {l} - {d} "
                  f"[{(w + d / 2) / n:.3f}] {n}", flush=True)
    n = w + l + d
    score = w + d / 2
    if 0 < score < n:
        p = score / n
        e = -400 * math.log10(1 / p - 1)
        var = (w * (1 - p) ** 2 + l * p ** 2 + d * (0.5 - p) ** 2) / n
        se = math.sqrt(var / n)
        lo, hi = p - 1.96 * se, p + 1.96 * se
        def to_elo(x):
            x = min(max(x, 1e-6), 1 - 1e-6)
            return -400 * math.log10(1 / x - 1)
        print(f"Elo difference: {e:.1f} +/- {(to_elo(hi) - to_elo(lo)) / 2:.1f}")
    else:
        print("Elo difference: out of range (all wins or all losses)")
    if a.pgn:
        with open(a.pgn, "w") as f:
            for _, g in sorted(games, key=lambda x: x[0]):
                print(g, file=f, end="\n\n")
    if all_errors:
        print("PROTOCOL ERRORS:", *all_errors, sep="\n  ")
        sys.exit(1)


if __name__ == "__main__":
    main()
