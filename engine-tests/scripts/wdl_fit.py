#!/usr/bin/env python3
"""Fits UCI_ShowWDL's win/draw/loss model (src/search/wdl.rs) to lancer's own games.

Reads PGNs written by `lancer match` (every move's comment holds the mover's score,
`{+0.35/12 0.5s}`), takes each scored move with the game's result for the mover, and
finds the `wdlModel = a0 a1 a2 b0 b1 b2` of variants.ini that makes those results
most likely: the mover wins with chance 1/(1+exp((a-x)/b)) and loses with chance
1/(1+exp((a+x)/b)), a = a0 + a1*m + a2*m^2, b = b0 + b1*m + b2*m^2,
m = min(ply, 240)/64.

It also reads `lancer datagen` files (any file not ending in .pgn): the binary
records (`LDT1`, docs/formats.md, Data files) or the older text lines
`EFEN | result | score`. Each position gives its ply (from its side to move and move
number) and the search's score from White's view, turned to the mover's.

Usage: wdl_fit.py [--model "a0 a1 a2 b0 b1 b2"] [--cross] GAMES.pgn|DATAGEN.data|DATAGEN.txt [MORE ...]
Prints the variants.ini line, the fit's likelihood and a table of observed against
modelled win/draw/loss rates; with --model, first the given model's log-loss on the
same moves (the model in use, to compare with the refit). --cross also fits each
half of the PGN games (even, odd) and scores it on the other half: a refit must beat
the given model there, on games it was not fitted to, before it replaces it. Make the games with self-play, for example:

    lancer openings --variant V --count 150 --plies 8 --seed 21 > V.epd
    lancer match -engine cmd=lancer name=a -engine cmd=lancer name=b \\
        -each proto=uci tc=inf nodes=20000 -variant V -games 300 -repeat \\
        -concurrency 2 -openings file=V.epd format=epd order=sequential -pgnout V.pgn
"""
import math
import re
import struct
import sys
from collections import defaultdict

SCORE = re.compile(r"^([+-]?)(M?)(\d+(?:\.\d+)?)/")
TOKEN = re.compile(r"\{[^}]*\}|\S+")
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
MAX_SCORE = 2000  # centipawns; beyond this a game is decided either way


def games(text):
    """Yields (tags, movetext) of each game."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        if tags:
            yield tags, body


def samples(tags, body):
    """Yields (ply, score for the mover, result for the mover) of each scored move."""
    result = RESULTS.get(tags.get("Result", "*"))
    if result is None or tags.get("Termination", "normal") not in ("normal", "adjudication"):
        return
    ply = 0
    fen = tags.get("FEN")
    if fen:
        f = fen.split()
        side = 0 if len(f) < 2 or f[1] == "w" else 1
        full = int(f[5]) if len(f) > 5 and f[5].isdigit() else 1
        ply = 2 * (full - 1) + side
    last_move_ply = None
    for tok in TOKEN.findall(body):
        if tok.startswith("{"):
            m = SCORE.match(tok[1:].strip())
            if m and last_move_ply is not None and not m.group(2):
                x = float(m.group(3)) * 100 * (-1 if m.group(1) == "-" else 1)
                white = last_move_ply % 2 == 0
                r = result if white else 1 - result
                yield last_move_ply, x, r
            last_move_ply = None
        elif re.match(r"^\d+\.+$", tok) or tok in RESULTS or tok == "*":
            continue
        else:
            last_move_ply = ply
            ply += 1


def datagen_samples(text):
    """Yields (ply, score for the mover, result for the mover) of each datagen line."""
    for line in text.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) < 3 or parts[1] not in RESULTS:
            continue
        fields = parts[0].split()
        if len(fields) < 2 or not fields[-1].isdigit():
            continue
        white = fields[1] == "w"
        ply = 2 * (int(fields[-1]) - 1) + (0 if white else 1)
        x = float(parts[2])
        result = RESULTS[parts[1]]
        yield ply, x if white else -x, result if white else 1 - result


def binary_samples(data):
    """Yields (ply, score for the mover, result for the mover) of each position of a
    binary data file (header `LDT1`); a cut tail (a killed run) is left out."""
    n = data[4]
    at = 5 + n + 18
    while at < len(data) and data[at] == ord("G"):
        try:
            _game, res, count = struct.unpack_from("<IBH", data, at + 1)
            at += 8
            white_result = res / 2.0
            found = []
            for _ in range(count):
                (score,) = struct.unpack_from("<h", data, at)
                occupied = struct.unpack_from("<Q", data, at + 2)[0]
                at += 10 + bin(occupied).count("1")
                flags = data[at]
                black = flags & 1
                half, full = struct.unpack_from("<HH", data, at + 6)
                at += 10
                if flags & 2:
                    at += 1 + 2 * data[at]
                ply = 2 * (full - 1) + black
                found.append((ply, -score if black else score, 1 - white_result if black else white_result))
        except (struct.error, IndexError):
            return
        yield from found


def model(p, ply, x):
    m = min(ply, 240) / 64.0
    k = len(p) // 2
    a = sum(c * m**i for i, c in enumerate(p[:k]))
    b = max(sum(c * m**i for i, c in enumerate(p[k:])), 1.0)

    def chance(y):
        z = (a - y) / b
        return 1.0 / (1.0 + math.exp(min(z, 700)))

    w, l = chance(x), chance(-x)
    return w, max(1.0 - w - l, 1e-9), l


def nll(p, bins):
    # Over every ply the model meets, a must not be negative (a draw cannot be less
    # likely than both a win and a loss at score 0) and b must stay clear of zero.
    k = len(p) // 2
    total = 0.0
    for i in range(16):
        m = i * 3.75 / 15
        a = sum(c * m**j for j, c in enumerate(p[:k]))
        b = sum(c * m**j for j, c in enumerate(p[k:]))
        total += 1e6 * (max(0.0, -a) + max(0.0, 20.0 - b))
    for (ply, x), (w, d, l) in bins.items():
        pw, pd, pl = model(p, ply, x)
        total -= w * math.log(max(pw, 1e-12)) + d * math.log(pd) + l * math.log(max(pl, 1e-12))
    return total


def nelder_mead(f, x0, step, iters=3000):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step[j] if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) < 1e-6 * (1 + abs(vals[0])):
            break
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        refl = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(refl)
        if fr < vals[0]:
            exp = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(exp)
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    return pts[0], vals[0]


def fit(bins, n):
    """The model of least log-loss on `bins` (n scored moves) and that log-loss."""
    k = 3  # a quadratic in m: a line fits late endgames badly, a cubic gains little
    x0 = [250.0] + [0.0] * (k - 1) + [100.0] + [0.0] * (k - 1)
    p, v = nelder_mead(lambda p: nll(p, bins), x0, [60.0] + [30.0] * (k - 1) + [30.0] + [15.0] * (k - 1), 6000)
    p, v = nelder_mead(lambda q: nll(q, bins), p, [20.0] + [10.0] * (k - 1) + [10.0] + [5.0] * (k - 1), 6000)
    return p, v / n


def read_samples(path):
    """Yields (game index or None, ply, score for the mover, result for the mover)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:4] == b"LDT1":
        for s in binary_samples(raw):
            yield (None, *s)
    elif path.endswith(".pgn"):
        for i, (tags, body) in enumerate(games(raw.decode("utf-8", errors="replace"))):
            for s in samples(tags, body):
                yield (i, *s)
    else:
        for s in datagen_samples(raw.decode("utf-8", errors="replace")):
            yield (None, *s)


def main():
    args = sys.argv[1:]
    given = None
    cross = False
    while args and args[0] in ("--model", "--cross"):
        if args[0] == "--cross":
            cross, args = True, args[1:]
            continue
        if len(args) < 2:
            sys.exit("--model needs six numbers: a0 a1 a2 b0 b1 b2")
        given = [float(c) for c in args[1].split()]
        if len(given) != 6:
            sys.exit("--model needs six numbers: a0 a1 a2 b0 b1 b2")
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    bins = defaultdict(lambda: [0, 0, 0])
    # The same moves split by game (even and odd games of each PGN) for --cross.
    halves = [defaultdict(lambda: [0, 0, 0]), defaultdict(lambda: [0, 0, 0])]
    half_n = [0, 0]
    n_games = n = 0
    for path in args:
        last = None
        for game, ply, x, r in read_samples(path):
            if game is not None and game != last:
                n_games += 1
                last = game
            if abs(x) > MAX_SCORE:
                continue
            key = (ply // 4 * 4 + 2, round(x / 10) * 10)
            col = 0 if r == 1 else 1 if r == 0.5 else 2
            bins[key][col] += 1
            n += 1
            if game is not None:
                halves[game % 2][key][col] += 1
                half_n[game % 2] += 1
    if n == 0:
        sys.exit("no scored moves found")
    if given:
        print(f"given model: mean log-loss {nll(given, bins) / n:.4f}")
    if cross:
        # Each half's refit scored on the other half: a refit's log-loss on games it
        # has not seen, to set beside the given model's on the same games.
        if min(half_n) == 0:
            sys.exit("--cross needs PGN games in both halves")
        refit = given_loss = 0.0
        for h in (0, 1):
            p, _ = fit(halves[h], half_n[h])
            refit += nll(p, halves[1 - h])
            if given:
                given_loss += nll(given, halves[1 - h])
        line = f"cross-validated (fit on half the games, scored on the other): refit {refit / n:.4f}"
        if given:
            line += f", given model {given_loss / n:.4f}"
        print(line)
    p, v = fit(bins, n)
    print(f"{n_games} PGN games, {n} scored positions, mean log-loss {v:.4f}")
    print("wdlModel = " + " ".join(f"{x:.1f}" for x in p))
    print("ply   score   observed W/D/L      model W/D/L")
    for lo, hi in ((0, 40), (40, 80), (80, 160), (160, 400)):
        for x in (0, 100, 200, 400):
            obs = [0, 0, 0]
            for (ply, s), c in bins.items():
                if lo <= ply < hi and abs(s - x) <= 30:
                    obs = [o + k for o, k in zip(obs, c)]
            tot = sum(obs)
            if tot < 30:
                continue
            mw = model(p, (lo + hi) // 2, x)
            print(f"{lo:3}-{hi:<3} {x:5}  " + "/".join(f"{o / tot:.2f}" for o in obs)
                  + f"  ({tot:5})  " + "/".join(f"{q:.2f}" for q in mw))


if __name__ == "__main__":
    main()
