#!/usr/bin/env python3
"""Compare the engine's perft with the independent reference (eightpiece_ref.py)
for fullcavalry, eightpiece and eightpiecerandom.

Positions: the start positions, positions reached by random playouts (biased
toward promotions, castling, sentry captures, passes, holds) and random sparse
positions (few pieces: lancers near edges, jailers next to kings, sentries near
edges, pawns about to promote). For every position the root divide is compared
at depth 1, 2 and 3 (depth 3 only when the reference's depth-2 count is small
enough); a disagreement is drilled down move by move to the first position whose
move lists differ, which is printed with the missing / unexpected moves.

Playout positions are given to the engine both as EFEN and as start EFEN +
`--moves` (the engine then makes the moves itself).

Usage (from the repository root; needs target/release/lancer):
  engine-tests/reference/compare_eightpiece.py [--positions N] [--seed S]
      [--variants fullcavalry,eightpiece,eightpiecerandom] [--max3 N] [--jobs J]
      [--sparse N (extra sparse positions per variant)] [--out results.json]
Runs faster under pypy3 when it is installed (the script re-executes itself
with it).
"""
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import eightpiece_ref as R  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
ENGINE = os.path.join(ROOT, "target", "release", "lancer")

STARTS = {
    "fullcavalry": "l(e)nbqkbnl(w)/pppppppp/8/8/8/8/PPPPPPPP/L(e)NBQKBNL(w) w KQkq - 0 1",
    "eightpiece": "jl(se)sqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JL(ne)SQKBNR w KQkq - 0 1",
    "eightpiecerandom": "jl(s)sqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JL(n)SQKBNR w HAha - 0 1",
}


class EngineError(Exception):
    pass


def engine_divide(v, fen, depth, moves=None):
    cmd = [ENGINE, "perft", "--variant", v, "--fen", fen, "--divide", str(depth)]
    if moves:
        cmd += ["--moves"] + list(moves)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise EngineError((p.stderr or p.stdout).strip())
    out = {}
    for line in p.stdout.splitlines():
        line = line.strip()
        if ":" in line and not line.startswith("Nodes"):
            k, _, n = line.partition(":")
            n = n.strip().split()[0] if n.strip() else ""
            if n.isdigit():
                out[k.strip()] = int(n)
    return out


def drill(v, fen, depth, moves=None):
    """Find the first position below `fen` whose move lists differ.
    `moves`: engine-side moves to reach the position (None: engine gets fen)."""
    pos = R.parse_efen(v, fen)
    if moves:
        pos = R.play(pos, moves)
    path = []
    while True:
        ref = R.divide(pos, depth)
        eng = engine_divide(v, fen, depth, (moves or []) + path)
        if set(ref) != set(eng):
            return {
                "efen": R.efen(pos),
                "path_from_given": path,
                "missing_in_engine": sorted(set(ref) - set(eng)),
                "extra_in_engine": sorted(set(eng) - set(ref)),
            }
        diff = [m for m in ref if ref[m] != eng[m]]
        if not diff or depth == 1:
            return {"efen": R.efen(pos), "path_from_given": path, "note": "no drill result",
                    "ref": ref, "eng": eng}
        m = diff[0]
        path.append(m)
        pos = R.play(pos, [m])
        depth -= 1


# ---------------------------------------------------------------- positions

def random_setup(rng):
    """A Randomized 8-Piece Chess setup from the two constraints of docs/rules.md."""
    while True:
        pcs = list("RJKBSLNQ")
        rng.shuffle(pcs)
        k = pcs.index("K")
        partners = [i for i, c in enumerate(pcs) if c in "RJ"]
        if not (partners[0] < k < partners[1]):
            continue
        if pcs.index("B") % 2 == pcs.index("S") % 2:
            continue
        break
    white = "".join("L(n)" if c == "L" else c for c in pcs)
    black = "".join("l(s)" if c == "L" else c.lower() for c in pcs)
    rights = "".join("ABCDEFGH"[i] for i in reversed(partners))
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1" % (black, white, rights,
                                                              rights.lower())


def interesting(pos, m):
    t = m[0]
    if t in ("pr", "ca", "sx", "ep", "pass"):
        return True
    if t == "n":
        p = pos.board[m[1]]
        if p[1] == "J":
            n = R.make(pos, m)
            f, r = R.fr(m[2])
            for df, dr in R.ORTHO:
                if R.on(f + df, r + dr):
                    q = n.board[R.sq(f + df, r + dr)]
                    if q is not None and q[0] != p[0]:
                        return True
        if p[1] == "L" and pos.board[m[2]] is not None:
            return True
        if p[1] == "P" and R.fr(m[2])[1] in (1, 6):
            return True
    return False


def playout(v, rng, start):
    pos = R.parse_efen(v, start)
    n = rng.randint(2, 90)
    bias = rng.choice([0.0, 0.3, 0.7])
    moves = []
    for _ in range(n):
        ms = R.legal_moves(pos)
        if not ms:
            break
        good = [m for m in ms if interesting(pos, m)]
        if good and rng.random() < bias:
            m = rng.choice(good)
        else:
            # pawns forward more often, so that promotions happen
            pawnish = [m for m in ms if m[1] is not None and pos.board[m[1]][1] == "P"]
            m = rng.choice(pawnish if pawnish and rng.random() < 0.3 else ms)
        moves.append(m[4])
        pos = R.make(pos, m)
    return pos, moves


def sparse(v, rng):
    """Few pieces at random; kings, a couple of officers, maybe castling pieces."""
    kinds = R.VARIANTS[v]["letters"].replace("K", "")
    for _ in range(1000):
        b = [None] * 64
        rights = set()
        # kings: sometimes on their castling squares with partners
        for color in (R.WHITE, R.BLACK):
            br = 0 if color == R.WHITE else 7
            if rng.random() < 0.4:
                if v == "eightpiecerandom":
                    kf = rng.randint(1, 6)
                    lf = rng.randint(0, kf - 1)
                    hf = rng.randint(kf + 1, 7)
                    pk = rng.sample("RJ", 2)
                    cand = [(lf, pk[0]), (hf, pk[1])]
                else:
                    kf = 4
                    part = R.VARIANTS[v]["partner"]
                    cand = [(0, part[0]), (7, part[7])]
                b[R.sq(kf, br)] = (color, "K", None)
                for f, kind in cand:
                    if rng.random() < 0.75:
                        fac = None
                        if kind == "L":
                            fac = 2 if f == 0 else 6
                        b[R.sq(f, br)] = (color, kind, fac)
                        rights.add((color, f))
            else:
                while True:
                    s = rng.randrange(64)
                    if b[s] is None:
                        b[s] = (color, "K", None)
                        break
        n = rng.randint(1, 6)
        for _ in range(n):
            kind = rng.choice(kinds + "LLJJSS" if "J" in kinds else kinds + "LL")
            color = rng.randint(0, 1)
            if kind == "P":
                r = rng.choice([1, 2, 3, 4, 5, 6, 6, 6, 1, 1])
                f = rng.randrange(8)
            else:
                # prefer edges
                if rng.random() < 0.5:
                    f = rng.choice([0, 7, rng.randrange(8)])
                    r = rng.choice([0, 7, rng.randrange(8)])
                else:
                    f, r = rng.randrange(8), rng.randrange(8)
            s = R.sq(f, r)
            if b[s] is not None:
                continue
            fac = None
            if kind == "L":
                fac = rng.choice(R.allowed_facings(s))
            b[s] = (color, kind, fac)
        side = rng.randint(0, 1)
        ep = None
        # an en passant chance now and then
        if rng.random() < 0.2:
            r = 4 if side == R.WHITE else 3
            f = rng.randrange(8)
            s = R.sq(f, r)
            behind = R.sq(f, r + (1 if side == R.WHITE else -1))
            start = R.sq(f, r + (2 if side == R.WHITE else -2))
            if b[s] is None and b[behind] is None and b[start] is None:
                b[s] = (1 - side, "P", None)
                ep = behind
                for df in (-1, 1):
                    if R.on(f + df, r) and b[R.sq(f + df, r)] is None and rng.random() < 0.7:
                        b[R.sq(f + df, r)] = (side, "P", None)
        pos = R.Pos(v, b, side, frozenset(rights), ep, 0, 1)
        # validity: side not to move not in check
        if R.king_attacked(b, 1 - side):
            continue
        if len([s for s in range(64) if b[s] and b[s][1] == "K"]) != 2:
            continue
        pos.castle = frozenset(rights)
        return pos
    raise RuntimeError("no sparse position")


# ---------------------------------------------------------------- comparing

def compare_one(job):
    v, fen, moves, (max3, max4), label = job
    res = {"variant": v, "label": label, "fen": fen, "moves": moves, "nodes": 0,
           "depths": [], "problems": []}
    try:
        pos = R.parse_efen(v, fen)
        if moves:
            pos = R.play(pos, moves)
        here = R.efen(pos)
        res["efen"] = here
        ways = [("efen", here, None)]
        if moves:
            ways.append(("moves", fen, moves))
        ref2 = None
        for depth in (1, 2, 3, 4):
            if depth == 3 and ref2 is not None and ref2 > max3:
                break
            if depth == 4 and (ref2 is None or ref2 > max4):
                break
            ref = R.divide(pos, depth)
            tot = sum(ref.values())
            if depth == 2:
                ref2 = tot
            for how, f, ms in ways:
                try:
                    eng = engine_divide(v, f, depth, ms)
                except EngineError as e:
                    res["problems"].append({"how": how, "depth": depth, "engine_error": str(e)})
                    continue
                res["nodes"] += tot
                if eng != ref:
                    d = drill(v, f, depth, ms)
                    res["problems"].append({"how": how, "depth": depth, "ref": tot,
                                            "eng": sum(eng.values()), "drill": d})
            res["depths"].append((depth, tot))
            if res["problems"]:
                break
    except Exception as e:  # a bug in the harness or the reference
        import traceback
        res["problems"].append({"harness_error": traceback.format_exc()})
    return res


def main():
    args = sys.argv[1:]

    def opt(n, d):
        return args[args.index(n) + 1] if n in args else d

    npos = int(opt("--positions", "320"))
    nsparse = int(opt("--sparse", "0"))
    seed = int(opt("--seed", "1"))
    max3 = int(opt("--max3", "6000"))
    jobs = int(opt("--jobs", str(os.cpu_count() or 1)))
    variants = opt("--variants", "fullcavalry,eightpiece,eightpiecerandom").split(",")
    out = opt("--out", "")
    if not os.path.exists(ENGINE):
        raise SystemExit("build first: cargo build --release (%s missing)" % ENGINE)
    rng = random.Random(seed)
    work = []
    for v in variants:
        work.append((v, STARTS[v], [], (10 ** 9, 10 ** 9), "start"))
        if v == "eightpiecerandom":
            for _ in range(5):
                work.append((v, random_setup(rng), [], (10 ** 9, 0), "random setup"))
        for i in range(npos):
            kind = i % 3
            if kind < 2:
                start = STARTS[v] if v != "eightpiecerandom" or rng.random() < 0.3 \
                    else random_setup(rng)
                pos, moves = playout(v, rng, start)
                work.append((v, start, moves, (max3, max3 // 40), "playout"))
            else:
                pos = sparse(v, rng)
                work.append((v, R.efen(pos), [], (max3 * 3, max3 // 4), "sparse"))
        for i in range(nsparse):
            pos = sparse(v, rng)
            work.append((v, R.efen(pos), [], (max3 * 3, max3 // 4), "sparse"))
    results = []

    def note(r):
        results.append(r)
        if r["problems"]:
            print("DISAGREEMENT (found)", r["variant"], r.get("efen", r["fen"]), file=sys.stderr,
                  flush=True)
        if len(results) % 50 == 0:
            print("... %d/%d positions" % (len(results), len(work)), file=sys.stderr, flush=True)

    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(compare_one, work, chunksize=1):
                note(r)
    else:
        for w in work:
            note(compare_one(w))
    summary = {}
    bad = []
    for r in results:
        s = summary.setdefault(r["variant"], {"positions": 0, "nodes": 0, "bad": 0,
                                              "maxdepth": {}})
        s["positions"] += 1
        s["nodes"] += r["nodes"]
        md = max([d for d, _ in r["depths"]] or [0])
        s["maxdepth"][md] = s["maxdepth"].get(md, 0) + 1
        if r["problems"]:
            s["bad"] += 1
            bad.append(r)
    for v, s in summary.items():
        print("%-17s positions %4d  perft nodes compared %10d  disagreeing %3d  "
              "deepest depth per position %s" % (v, s["positions"], s["nodes"], s["bad"],
                                                  dict(sorted(s["maxdepth"].items()))))
    for r in bad:
        print("DISAGREEMENT", json.dumps({k: r[k] for k in ("variant", "label", "efen",
                                                            "problems") if k in r}))
    if out:
        with open(out, "w") as f:
            json.dump(results, f, indent=1)
    print("%d passed, %d failed" % (len(results) - len(bad), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if "PYPY_VERSION" not in dir(sys) and not hasattr(sys, "pypy_version_info") \
            and shutil.which("pypy3") and os.environ.get("NO_PYPY") is None:
        os.execvp("pypy3", ["pypy3"] + sys.argv)
    main()
