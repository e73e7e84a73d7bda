#!/usr/bin/env python3
"""Compare lancer's Lighthouse move generation with Fairy-Stockfish (pyffish).

Usage (from the repository root, after `cargo build --release` and `pip install pyffish`):

    python3 engine-tests/reference/compare_lighthouse.py [--positions 600] [--seed 1]
        [--depth 3] [--depth4-limit 20000] [--jobs 2] [--lancer target/release/lancer]
        [--ini engine-tests/fsf/lighthouse.ini]
        [--fsf-bin PATH]                      # optional fast FSF UCI binary (see below)
        [--fen EFEN [--moves "m1 m2"]]      # compare one position only
        [--dump FILE]                         # write every compared position + counts

Speed: every pyffish call costs ~2 ms (it re-initialises the variant each call), so
pyffish-only perft 3 over hundreds of positions with full hands takes hours.  With
--fsf-bin the perft counts come from a Fairy-Stockfish UCI binary (`go perft N`); build it
from the same source as the installed pyffish, e.g.
    pip download --no-deps --no-binary :all: pyffish==0.0.90 && tar xzf pyffish-0.0.90.tar.gz
    cd pyffish-0.0.90/src && g++ -std=c++17 -O3 -DNDEBUG -DLARGEBOARDS -DALLVARS \
        -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF -DIS_64BIT -DUSE_POPCNT -mpopcnt $(ls *.cpp syzygy/*.cpp nnue/*.cpp nnue/features/*.cpp \
        | grep -v -e pyffish.cpp -e ffishjs.cpp) -o fairy-stockfish -lpthread
The depth-1 move list of every position is still checked against pyffish itself, so a
binary that does not match pyffish's rules is reported.  (The defines are those of
pyffish's setup.py; compiling the files one by one in parallel and linking is quicker.)

Positions: the start position, a few hand-made scenario positions, and positions from
random playouts (Fairy-Stockfish plays the moves, biased toward captures, drops,
promotions, dropped pawns' double steps and en passant).  Positions are picked so that
many have non-empty hands, queens on the board, pawns about to promote with and without
an own queen, en passant after a dropped pawn's double step, and checks that drops can
block.  A position is handed to both engines as `FEN + moves` (the FEN is
Fairy-Stockfish's, which lancer's EFEN parser accepts; the last 0-4 moves of the playout
are replayed by both engines), so FEN parsing and move making are both exercised.

For every position, perft 1..depth (and depth+1 where cheap) are compared through a
divide; on a disagreement the driver descends to the smallest position where the two
legal-move lists differ and prints it (EFEN, moves, moves only one side generates).

Known, expected differences between FSF and docs/rules.md (not move-generation issues):
  * FSF resets the 15-move (30-ply) counter on drops and promotions; docs/rules.md counts
    plies since the last capture only.  Perft ignores draw rules, so this never shows
    up here; the halfmove field of FSF's FENs is therefore not compared.
  * FSF needs a queen written `Q~` to demote it to a pawn when captured; the driver
    writes every queen as `Q~`/`q~` before handing a FEN to FSF.
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import re
import subprocess
import sys
import time

V = "lighthouse"
START = "bnkr/pppp/4/4/4/4/PPPP/BNKR[] w - - 0 1"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_INI = os.path.join(REPO, "engine-tests", "fsf", "lighthouse.ini")

sf = None
LANCER = None


def init(ini, lancer, fsf_bin=None):
    global sf, LANCER, FSF_BIN, INI
    import pyffish

    FSF_BIN, INI = fsf_bin, os.path.abspath(ini)

    sf = pyffish
    if V not in sf.variants():
        sf.load_variant_config(open(ini).read())
    assert V in sf.variants(), "variant 'lighthouse' not loaded from %s" % ini
    LANCER = lancer


# ---------------------------------------------------------------- FEN helpers
def to_fsf(fen):
    """lancer EFEN -> FSF FEN: every queen is a promoted queen (Q~)."""
    board, rest = fen.split(" ", 1)
    board = re.sub(r"([Qq])(?!~)", r"\1~", board)
    if "[" not in board:
        board += "[]"
    return board + " " + rest


def parse_board(fen):
    """FEN -> (dict square->piece char, hand string, side, ep)."""
    parts = fen.split()
    b = parts[0]
    hand = ""
    if "[" in b:
        b, hand = b.split("[", 1)
        hand = hand.rstrip("]")
    sq = {}
    ranks = b.split("/")
    for i, r in enumerate(ranks):
        rank = 8 - i
        f = 0
        for ch in r:
            if ch.isdigit():
                f += int(ch)
            elif ch == "~":
                continue
            else:
                sq["abcd"[f] + str(rank)] = ch
                f += 1
    return sq, hand, parts[1], parts[3]


# ---------------------------------------------------------------- perft, both sides
FSF_BIN = None  # optional: a Fairy-Stockfish UCI binary built from the same source
_proc = None


def fsf_moves(fen, moves):
    return sf.legal_moves(V, fen, moves)


def _py_perft(fen, moves, d):
    ms = sf.legal_moves(V, fen, moves)
    if d == 1:
        return len(ms)
    return sum(_py_perft(fen, moves + [m], d - 1) for m in ms)


def _uci(cmds, until):
    global _proc
    if _proc is None:
        _proc = subprocess.Popen([FSF_BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, bufsize=1)
        _proc.stdin.write("setoption name VariantPath value %s\n" % INI)
        _proc.stdin.write("setoption name UCI_Variant value %s\nisready\n" % V)
        while _proc.stdout.readline().strip() != "readyok":
            pass
    _proc.stdin.write(cmds)
    lines = []
    while True:
        line = _proc.stdout.readline()
        if not line:
            raise RuntimeError("fairy-stockfish binary died")
        lines.append(line.strip())
        if line.startswith(until):
            return lines


def fsf_divide(fen, moves, d):
    """{move: perft(d-1) below it} from Fairy-Stockfish."""
    if FSF_BIN is None:
        ms = sf.legal_moves(V, fen, moves)
        if d == 1:
            return {m: 1 for m in ms}
        return {m: _py_perft(fen, moves + [m], d - 1) for m in ms}
    cmd = "position fen %s%s\ngo perft %d\n" % (fen, " moves " + " ".join(moves) if moves else "", d)
    out = {}
    for line in _uci(cmd, "Nodes searched"):
        m = re.match(r"^(\S+): (\d+)$", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def fsf_perft(fen, moves, d):
    return sum(fsf_divide(fen, moves, d).values())


def lancer_divide(efen, moves, d):
    cmd = [LANCER, "perft", str(d), "--variant", V, "--fen", efen, "--divide"]
    if moves:
        cmd += ["--moves", " ".join(moves)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError("lancer failed: %s\n%s" % (" ".join(cmd), r.stderr.strip()))
    out = {}
    total = None
    for line in r.stdout.splitlines():
        m = re.match(r"^(\S+): (\d+)$", line.strip())
        if m:
            out[m.group(1)] = int(m.group(2))
        m = re.match(r"^Nodes searched: (\d+)", line.strip())
        if m:
            total = int(m.group(1))
    if total is None:
        raise RuntimeError("no 'Nodes searched' from lancer: %s" % " ".join(cmd))
    if d == 0:
        return {}
    assert sum(out.values()) == total, (cmd, out, total)
    return out


def find_diff(efen, fsf_fen, moves, d, out, limit=3):
    """Descend to the smallest positions where the move lists differ."""
    lm = lancer_divide(efen, moves, d)
    fm = fsf_divide(fsf_fen, moves, d)
    if set(lm) != set(fm):
        out.append(
            {
                "fen": efen,
                "moves": list(moves),
                "fsf_fen_here": sf.get_fen(V, fsf_fen, moves),
                "only_lancer": sorted(set(lm) - set(fm)),
                "only_fsf": sorted(set(fm) - set(lm)),
            }
        )
        return
    for m in lm:
        if lm[m] != fm[m] and len(out) < limit:
            find_diff(efen, fsf_fen, moves + [m], d - 1, out, limit)


def compare(task):
    """task: dict(efen, moves, depth, depth4_limit, tags). Returns a result dict."""
    efen, moves, depth = task["efen"], task["moves"], task["depth"]
    fsf_fen = to_fsf(efen)
    res = {"efen": efen, "moves": moves, "tags": task.get("tags", []), "counts": {},
           "diffs": [], "error": None}
    try:
        lm = lancer_divide(efen, moves, depth)
        fm = fsf_divide(fsf_fen, moves, depth)
        lt, ft = sum(lm.values()), sum(fm.values())
        res["counts"][depth] = (lt, ft)
        # lower depths are cheap on both sides
        for d in range(1, depth):
            ld = lancer_divide(efen, moves, d)
            fd = fsf_divide(fsf_fen, moves, d)
            res["counts"][d] = (sum(ld.values()), sum(fd.values()))
            if d == 1 and FSF_BIN is not None:
                # the binary must be the same rules as pyffish
                py = set(sf.legal_moves(V, fsf_fen, moves))
                if py != set(fd):
                    res["error"] = "pyffish and FSF binary differ: %s" % sorted(py ^ set(fd))
        if lm != fm:
            find_diff(efen, fsf_fen, moves, depth, res["diffs"])
        elif lt <= task.get("depth4_limit", 0):
            d = depth + 1
            l = sum(lancer_divide(efen, moves, d).values())
            f = fsf_perft(fsf_fen, moves, d)
            res["counts"][d] = (l, f)
            if l != f:
                find_diff(efen, fsf_fen, moves, d, res["diffs"])
    except Exception as e:  # report, don't stop the run
        res["error"] = repr(e)
    return res


# ---------------------------------------------------------------- playouts
def classify(fen, m):
    """Kind of FSF move m in fen: drop/capture/ep/promo/double/pawn/other."""
    sq, hand, side, ep = parse_board(fen)
    if "@" in m:
        return "drop"
    fr, to = m[:2], m[2:4]
    p = sq.get(fr, "")
    if len(m) > 4:
        return "promo"
    if to in sq:
        return "capture"
    if p in "Pp" and fr[0] != to[0]:
        return "ep"
    if p in "Pp" and abs(int(fr[1]) - int(to[1])) == 2:
        return "double"
    if p in "Pp":
        return "pawn"
    return "other"


def tags_of(fen, legal, dropped, in_check, last_kind):
    sq, hand, side, ep = parse_board(fen)
    tags = []
    if hand:
        tags.append("hand")
        if len(set(hand)) >= 3:
            tags.append("bighand")
    us_q = "Q" if side == "w" else "q"
    pawn = "P" if side == "w" else "p"
    seventh = "7" if side == "w" else "2"
    if any(v in "Qq" for v in sq.values()):
        tags.append("queen")
    pre = [s for s, v in sq.items() if v == pawn and s[1] == seventh]
    if pre:
        tags.append("promo_with_q" if us_q in sq.values() else "promo_no_q")
    if any(classify(fen, m) == "ep" for m in legal):
        tags.append("ep")
        if last_kind == "double_dropped":
            tags.append("ep_dropped")
    if in_check:
        tags.append("check")
        if any("@" in m for m in legal):
            tags.append("check_drop_block")
    if not legal:
        tags.append("mate" if in_check else "stalemate")
    return tags


def playout(seed, max_plies=140, start=START):
    """One FSF game; returns a list of (fen, tags, history) along it."""
    rng = random.Random(seed)
    fen = start
    dropped = set()  # squares holding a pawn that came from a hand
    out = []
    hist = []  # list of (fen_before, move)
    last_kind = None
    style = rng.choice(["capture", "drop", "promo", "mixed"])
    for ply in range(max_plies):
        legal = sf.legal_moves(V, fen, [])
        in_check = bool(sf.gives_check(V, fen, []))
        out.append((fen, tags_of(fen, legal, dropped, in_check, last_kind), list(hist[-4:])))
        if not legal:
            break
        sq, hand, side, ep = parse_board(fen)
        kinds = {}
        for m in legal:
            k = classify(fen, m)
            if k == "drop" and m[0] == "P" and m[3] == ("2" if side == "w" else "7"):
                k = "drop2"
            if k == "double" and m[:2] in dropped:
                k = "double_dropped"
            kinds.setdefault(k, []).append(m)
        w = {"capture": 4, "promo": 8, "ep": 10, "double_dropped": 8, "drop2": 2,
             "drop": 2, "double": 1, "pawn": 2, "other": 1}
        if style == "capture":
            w["capture"] = 8
        elif style == "drop":
            w["drop"] = 5
            w["drop2"] = 4
        elif style == "promo":
            w["pawn"] = 5
            w["promo"] = 20
        ks = list(kinds)
        k = rng.choices(ks, weights=[w[x] for x in ks])[0]
        m = rng.choice(kinds[k])
        # track dropped pawns
        if "@" in m:
            if m[0] == "P":
                dropped.add(m[2:4])
        else:
            fr, to = m[:2], m[2:4]
            dropped.discard(to)
            if fr in dropped:
                dropped.discard(fr)
                if k == "double_dropped":
                    dropped.add(to)  # the same (dropped) pawn, now on the 4th/5th rank
        last_kind = k
        hist.append((fen, m))
        fen = sf.get_fen(V, fen, [m])
    return out


# Hand-made scenario roots (played out briefly too).
SCENARIOS = [
    # white pawn about to promote, own queen on board / not
    "2k1/P3/4/4/4/4/1p2/Q~2K[PPnb] w - - 0 30",
    "2k1/P3/4/4/4/4/1p2/3K[PPnbr] w - - 0 30",
    "q~2k/P2P/4/4/4/4/1p1p/1K2[NB] b - - 0 30",
    # dropped pawn on 2nd rank next to an enemy pawn on the 4th rank
    "1k2/4/4/4/1p2/4/4/2K1[PPp] w - - 0 30",
    "2k1/4/4/4/4/2P1/4/1K2[Pppb] b - - 0 30",
    # check that drops can block, full hands
    "k3/4/4/4/4/4/4/R1K1[PNBRpnbr] b - - 0 30",
    "r1k1/4/4/4/4/4/4/2K1[PNBpnbr] w - - 0 30",
    # bishops that changed sides
    "2k1/4/1B2/4/4/b3/4/1K2[Bb] w - - 0 30",
    "2k1/4/1B2/4/4/b3/4/1K2[Bb] b - - 0 30",
]


# Hand-made lines (FEN + moves) compared as they are: en passant edge cases.
SCENARIO_LINES = [
    # e.p. would expose the king along rank 5 (both pawns leave the rank): illegal
    ("2k1/2p1/4/KP1r/4/4/4/4[] b - - 0 30", ["c7c5"]),
    # the same with a pawn that was dropped on c7 first
    ("2k1/4/4/KP1r/4/4/4/R3[p] b - - 0 30", ["P@c7", "a1a2", "c7c5"]),
    # the double step gives check; e.p. captures the checker
    ("2k1/2p1/4/1P2/3K/4/4/4[] b - - 0 30", ["c7c5"]),
    # White drops on a2, double-steps beside a black pawn, Black may take e.p.
    ("2k1/4/4/4/1p2/4/4/2K1[P] w - - 0 1", ["P@a2", "c8d8", "a2a4"]),
    # pawn on the 7th, own queen captured: may promote again
    ("2k1/P3/4/4/4/4/3K/q2Q~[] b - - 0 30", ["a1d1", "d2d1"]),
]


def gather(n, seed, depth, depth4_limit):
    rng = random.Random(seed)
    pool = []
    g = 0
    t0 = time.time()
    while (len(pool) < 40 * n and g < 4000) or g < 60:
        start = START if g % 4 else SCENARIOS[(g // 4) % len(SCENARIOS)]
        for fen, tags, hist in playout(seed * 100003 + g, start=start):
            pool.append((fen, tags, hist))
        g += 1
    quotas = {"bighand": 60, "hand": 80, "queen": 60, "promo_with_q": 60, "promo_no_q": 60,
              "ep": 40, "ep_dropped": 40, "check": 50, "check_drop_block": 60, "mate": 15,
              "stalemate": 5}
    chosen = {}
    rng.shuffle(pool)
    for tag, q in quotas.items():
        c = 0
        for i, (fen, tags, hist) in enumerate(pool):
            if c >= q:
                break
            if tag in tags and i not in chosen:
                chosen[i] = True
                c += 1
    i = 0
    while len(chosen) < n and i < len(pool):
        chosen.setdefault(i, True)
        i += 1
    tasks = [{"efen": START, "moves": [], "depth": depth + 1, "depth4_limit": 0,
              "tags": ["start"]}]
    for fen, moves in SCENARIO_LINES:
        tasks.append({"efen": fen, "moves": moves, "depth": depth,
                      "depth4_limit": depth4_limit, "tags": ["scenario_line"]})
    for s in SCENARIOS:
        tasks.append({"efen": s, "moves": [], "depth": depth, "depth4_limit": depth4_limit,
                      "tags": ["scenario"]})
    for i in list(chosen)[:n]:
        fen, tags, hist = pool[i]
        k = rng.choice([0, 0, 1, 2, 4])
        k = min(k, len(hist))
        if k:
            base = hist[-k][0]
            moves = [m for _, m in hist[-k:]]
        else:
            base, moves = fen, []
        tasks.append({"efen": base, "moves": moves, "depth": depth,
                      "depth4_limit": depth4_limit, "tags": tags})
    print("gathered %d candidate positions from %d playouts in %.1fs; comparing %d"
          % (len(pool), g, time.time() - t0, len(tasks)), flush=True)
    return tasks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--depth4-limit", type=int, default=20000,
                    help="also compare depth+1 when perft(depth) is at most this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--lancer", default=os.path.join(REPO, "target", "release", "lancer"))
    ap.add_argument("--ini", default=DEFAULT_INI)
    ap.add_argument("--fen")
    ap.add_argument("--moves", default="")
    ap.add_argument("--fsf-bin", help="a Fairy-Stockfish UCI binary built from the pyffish "
                    "source (much faster perft); default: pyffish alone")
    ap.add_argument("--dump")
    a = ap.parse_args()
    init(a.ini, a.lancer, a.fsf_bin)
    if a.fen:
        tasks = [{"efen": a.fen, "moves": a.moves.split(), "depth": a.depth,
                  "depth4_limit": a.depth4_limit, "tags": ["cli"]}]
    else:
        tasks = gather(a.positions, a.seed, a.depth, a.depth4_limit)
    t0 = time.time()
    with mp.Pool(a.jobs, initializer=init, initargs=(a.ini, a.lancer, a.fsf_bin)) as pool:
        results = pool.map(compare, tasks, chunksize=4)
    nodes = 0
    bad = 0
    tagcount = {}
    for r in results:
        for t in r["tags"]:
            tagcount[t] = tagcount.get(t, 0) + 1
        for d, (l, f) in r["counts"].items():
            nodes += f
        mism = {d: c for d, c in r["counts"].items() if c[0] != c[1]}
        if r["error"] or mism or r["diffs"]:
            bad += 1
            print("DISAGREE %s moves=%s tags=%s" % (r["efen"], " ".join(r["moves"]), r["tags"]))
            if r["error"]:
                print("   error:", r["error"])
            for d, (l, f) in sorted(mism.items()):
                print("   depth %d: lancer %d, fsf %d" % (d, l, f))
            for df in r["diffs"]:
                print("   at %s moves=%s (fsf: %s)" % (df["fen"], " ".join(df["moves"]),
                                                      df["fsf_fen_here"]))
                print("      only lancer: %s" % df["only_lancer"])
                print("      only fsf:    %s" % df["only_fsf"])
    if a.dump:
        with open(a.dump, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    print("tags: %s" % json.dumps(tagcount, sort_keys=True))
    print("%d positions, %d FSF perft nodes compared (all depths), %d disagreements, %.1fs"
          % (len(results), nodes, bad, time.time() - t0))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
