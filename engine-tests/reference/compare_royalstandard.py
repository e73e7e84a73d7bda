#!/usr/bin/env python3
"""Compare the engine's royalstandard perft with the independent reference
(royalstandard_ref.py) on the start position and on positions from random
playouts.

  compare_royalstandard.py [--seeds N] [--per-seed K] [--depth D] [--depth4-limit L]
                           [--engine PATH] [--jobs J] [--fen EFEN ...]

For every position: the depth-1 move sets must be equal (as move text), and
perft 2..D must agree (depth D+1 too when the reference's depth-D count is at most
L). On a disagreement the driver walks down the tree (engine --divide vs reference
divide) to the first position whose legal move lists differ and prints it.

Playouts are biased so that the interesting rules occur often: bearer captures
(enemy and self), frozen bearers, windmills with two pivots, king captures
(the king-less position after it is compared too).
Assumes target/release/lancer exists (cargo build --release).
"""

import argparse
import os
import random
import subprocess
import sys
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import royalstandard_ref as ref  # noqa: E402

ENGINE = os.path.join(HERE, "..", "..", "target", "release", "lancer")


VARIANTS_OVERRIDE = None  # a variants.ini for --no-king-captures-own-bearer


def engine_divide(fen, depth, moves=()):
    cmd = [ENGINE, "perft", "--variant", "royalstandard", "--fen", fen, "--divide", str(depth)]
    if VARIANTS_OVERRIDE:
        cmd += ["--variants", VARIANTS_OVERRIDE]
    if moves:
        cmd += ["--moves"] + list(moves)
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("engine failed on %s %s: %s" % (fen, moves, out.stderr.strip()))
    res = {}
    for line in out.stdout.splitlines():
        if ": " in line and not line.startswith("Nodes"):
            k, v = line.rsplit(": ", 1)
            res[k.strip()] = int(v)
    return res


def locate(fen, depth, path=()):
    """Walk down to the first position where the move lists differ."""
    pos = ref.Pos.from_efen(fen)
    for t in path:
        pos = pos.do_move(ref.parse_move(pos, t))
    e = engine_divide(fen, depth, path)
    r = ref.divide(pos, depth)
    if set(e) != set(r):
        return {
            "efen": pos.efen(),
            "path": list(path),
            "engine_only": sorted(set(e) - set(r)),
            "reference_only": sorted(set(r) - set(e)),
        }
    for m in sorted(r):
        if e[m] != r[m]:
            return locate(fen, depth - 1, tuple(path) + (m,))
    return None


def features(pos):
    f = set()
    if pos.frozen:
        f.add("frozen")
    if not pos.has_king(pos.side):
        f.add("kingless")
    side = pos.side
    for sq, p in pos.board.items():
        if ref.kind(p) == "W" and ref.color(p) == side:
            n = 0
            for df, dr in ref.KING_STEPS:
                q = pos.board.get((sq[0] + df, sq[1] + dr))
                if q and ref.kind(q) == "S" and ref.color(q) == side:
                    n += 1
            if n >= 2:
                f.add("windmill2pivots")
    for m in pos.legal_moves():
        frm, to, disp = m
        if disp is not None:
            if ref.color(pos.board[to]) == side:
                f.add("selfcapture_available")
            else:
                f.add("bearercapture_available")
        elif to in pos.board and ref.kind(pos.board[to]) == "K":
            f.add("kingcapture_available")
        if ref.kind(pos.board[frm]) == "W":
            f.add("windmill_move")
    return f


def pick(pos, moves, rng, style):
    moves = sorted(moves)
    if style == "uniform":
        return rng.choice(moves)
    # weighted: prefer captures of bearers, windmill moves and forward moves
    weights = []
    for m in moves:
        frm, to, disp = m
        w = 1.0
        p = pos.board[frm]
        q = pos.board.get(to)
        if disp is not None:
            w = 6.0 if ref.color(q) == pos.side else 4.0
        elif q is not None:
            w = 8.0 if ref.kind(q) == "K" and style == "aggressive" else 3.0
        if ref.kind(p) == "W":
            w *= 2.0
        weights.append(w)
    return rng.choices(moves, weights)[0]


def playout(seed, per_seed):
    rng = random.Random(seed)
    style = ["uniform", "weighted", "aggressive"][seed % 3]
    pos = ref.Pos.from_efen(ref.START)
    out = []
    plies = rng.randint(6, 200)
    sample_every = max(1, plies // per_seed)
    since_self = None
    for ply in range(plies):
        ms = pos.legal_moves()
        if not ms:
            out.append((pos.efen(), "kingless" if not pos.has_king(pos.side) else "stalemate"))
            break
        m = pick(pos, ms, rng, style)
        frm, to, disp = m
        tag = ""
        if disp is not None and ref.color(pos.board[to]) == pos.side:
            since_self = 0
            tag = "after_selfcapture"
        elif since_self is not None:
            since_self += 1
            if since_self <= 2:
                tag = "selfcapture+%d" % since_self
        pos = pos.do_move(m)
        if tag or ply % sample_every == 0 or (pos.frozen and rng.random() < 0.2):
            out.append((pos.efen(), tag))
    else:
        out.append((pos.efen(), "last"))
    seen, res = set(), []
    for e, tag in out:
        if e not in seen:
            seen.add(e)
            res.append((e, tag))
    special = [x for x in res if x[1]]
    plain = [x for x in res if not x[1]]
    rng.shuffle(special)
    rng.shuffle(plain)
    keep = special[:per_seed]
    return keep + plain[: max(0, per_seed - len(keep))]


def random_position(seed):
    """A random legal-looking placement (both kings, 1-5 bearers a side, some
    rooks/bishops/windmills, random frozen marks, dense boards included) to reach
    configurations random play rarely produces (full rings, no displacement square,
    windmills by holes and edges)."""
    rng = random.Random(1000003 * seed + 7)
    squares = [(f, r) for f in range(ref.W) for r in range(ref.H) if ref.on_board((f, r))]
    rng.shuffle(squares)
    board, frozen = {}, set()
    pieces = ["K", "k"]
    for c in ("w", "b"):
        up = (lambda x: x) if c == "w" else str.lower
        pieces += [up("S")] * rng.randint(1, 5)
        pieces += [up("R")] * rng.randint(0, 2)
        pieces += [up("B")] * rng.randint(0, 2)
        pieces += [up("W")] * rng.randint(0, 2)
    density = rng.choice([0, 0, 4, 10, 16])
    pieces += [rng.choice("SRBWsrbw") for _ in range(density)]
    # the engine holds at most 16 pieces a side (the start has 10)
    kept = []
    for p in pieces:
        if sum(1 for q in kept if q.isupper() == p.isupper()) < 16:
            kept.append(p)
    pieces = kept
    for p, sq in zip(pieces, squares):
        board[sq] = p
        if p in "Ss" and rng.random() < 0.25:
            frozen.add(sq)
    pos = ref.Pos(board, frozen, rng.choice("wb"), rng.randint(0, 20), rng.randint(1, 40))
    return pos.efen()


def check(args):
    fen, depth, d4limit = args
    pos = ref.Pos.from_efen(fen)
    res = {"efen": fen, "nodes": 0, "depths": [], "problem": None, "features": sorted(features(pos))}
    # EFEN round trip of the reference itself
    assert pos.efen() == fen, (pos.efen(), fen)
    d = 1
    last = None
    while True:
        if d > depth and not (d == depth + 1 and last is not None and last <= d4limit):
            break
        try:
            e = engine_divide(fen, d)
        except RuntimeError as err:
            res["problem"] = {"efen": fen, "path": [], "engine_only": [str(err)], "reference_only": []}
            break
        r = ref.divide(pos, d)
        res["nodes"] += sum(r.values())
        res["depths"].append((d, sum(r.values()), sum(e.values())))
        if e != r:
            res["problem"] = locate(fen, d)
            break
        last = sum(r.values())
        d += 1
    return res


def main():
    global ENGINE, VARIANTS_OVERRIDE
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=1)
    ap.add_argument("--per-seed", type=int, default=6)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--depth4-limit", type=int, default=30000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument("--fen", nargs="*", default=None)
    ap.add_argument("--random-positions", type=int, default=0,
                    help="also compare this many random placements")
    ap.add_argument("--dump", help="write compared EFENs with their counts here")
    ap.add_argument("--no-king-captures-own-bearer", action="store_true",
                    help="compare with the option kingCapturesOwnBearer = false")
    a = ap.parse_args()
    if a.no_king_captures_own_bearer:
        ref.KING_CAPTURES_OWN_BEARER = False
        import tempfile
        fd, VARIANTS_OVERRIDE = tempfile.mkstemp(suffix=".ini")
        with os.fdopen(fd, "w") as fh:
            fh.write("[royalstandard]\nkingCapturesOwnBearer = false\n")
    ENGINE = a.engine
    if a.fen:
        fens = a.fen
    else:
        fens = [ref.START]
        seen = {ref.START}
        with Pool(a.jobs) as pool:
            for lst in pool.starmap(playout, [(s, a.per_seed) for s in range(a.seed0, a.seed0 + a.seeds)]):
                for e, _ in lst:
                    if e not in seen:
                        seen.add(e)
                        fens.append(e)
        for i in range(a.random_positions):
            e = random_position(a.seed0 + i)
            if e not in seen:
                seen.add(e)
                fens.append(e)
    with Pool(a.jobs) as pool:
        results = pool.map(check, [(f, a.depth, a.depth4_limit) for f in fens])
    nodes = sum(r["nodes"] for r in results)
    feat = {}
    for r in results:
        for f in r["features"]:
            feat[f] = feat.get(f, 0) + 1
    bad = [r for r in results if r["problem"] or any(x[1] != x[2] for x in r["depths"])]
    print("positions compared: %d, reference nodes compared: %d" % (len(results), nodes))
    print("features: " + ", ".join("%s=%d" % kv for kv in sorted(feat.items())))
    d4 = sum(1 for r in results if len(r["depths"]) > a.depth)
    print("positions with depth %d too: %d" % (a.depth + 1, d4))
    if a.dump:
        with open(a.dump, "w") as fh:
            for r in results:
                fh.write("%s ;%s ;%s\n" % (r["efen"], " ".join(r["features"]),
                                          " ".join("D%d %d/%d" % x for x in r["depths"])))
    for r in bad:
        print("DISAGREEMENT at %s" % r["efen"])
        print("  depths (d, reference, engine): %s" % r["depths"])
        if r["problem"]:
            p = r["problem"]
            print("  first differing node: %s after %s" % (p["efen"], " ".join(p["path"]) or "-"))
            print("  engine only: %s" % p["engine_only"])
            print("  reference only: %s" % p["reference_only"])
    print("disagreements: %d" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
