#!/usr/bin/env python3
"""Independent reference move generator for fullcavalry, eightpiece and
eightpiecerandom, written straight from the rules and the notation (docs/rules.md and
docs/notation.md), without looking at the engine's source.

Plain and slow on purpose: a 64-square mailbox, pseudo-legal moves, then
"play the move and test whether the mover's own king is attacked".

Usage:
  eightpiece_ref.py perft VARIANT 'EFEN' DEPTH [--divide]
  eightpiece_ref.py moves VARIANT 'EFEN'
  eightpiece_ref.py play  VARIANT 'EFEN' MOVE...      (prints the EFEN after)
Runs with python3 or (faster) pypy3.
"""
import sys

# ---------------------------------------------------------------- basics

FACINGS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]
DIRS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
WHITE, BLACK = 0, 1

VARIANTS = {
    "fullcavalry": {
        "letters": "PNBLQK",
        "promo": ["q", "l", "b", "n"],
        "castling": "standard",
        # partner kind for the king side (h-file) and queen side (a-file)
        "partner": {7: "L", 0: "L"},
        "b1_friend_ok": True,
        "jailers": False,
        "pass": False,
    },
    "eightpiece": {
        "letters": "PNBRQKLJS",
        "promo": ["q", "r", "b", "n", "l", "j", "s"],
        "castling": "standard",
        "partner": {7: "R", 0: "J"},
        "b1_friend_ok": False,
        "jailers": True,
        "pass": True,
    },
    "eightpiecerandom": {
        "letters": "PNBRQKLJS",
        "promo": ["q", "r", "b", "n", "l", "j", "s"],
        "castling": "960",
        "partner_kinds": "RJ",
        "b1_friend_ok": False,
        "jailers": True,
        "pass": True,
    },
}


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def sq(f, r):
    return r * 8 + f


def fr(s):
    return s % 8, s // 8


def name(s):
    return "abcdefgh"[s % 8] + str(s // 8 + 1)


def parse_sq(t):
    return sq("abcdefgh".index(t[0]), int(t[1]) - 1)


def facing_ok(s, d):
    """Rule 3: a facing is allowed when its first square is on the board."""
    f, r = fr(s)
    return on(f + DIRS[d][0], r + DIRS[d][1])


def allowed_facings(s):
    return [d for d in range(8) if facing_ok(s, d)]


# A piece is a tuple (color, kind, facing); facing is None except for lancers.


class Pos:
    __slots__ = ("v", "board", "side", "castle", "ep", "half", "full")

    def __init__(self, v, board, side, castle, ep, half, full):
        self.v = v              # variant name
        self.board = board      # list of 64 pieces / None
        self.side = side
        self.castle = castle    # frozenset of (color, partner file)
        self.ep = ep            # square passed over by a double step, or None
        self.half = half
        self.full = full


# ---------------------------------------------------------------- EFEN

def parse_efen(v, text):
    parts = text.split()
    boardtxt = parts[0]
    if "[" in boardtxt:
        boardtxt = boardtxt[: boardtxt.index("[")]
    rows = boardtxt.split("/")
    assert len(rows) == 8, "8 ranks"
    board = [None] * 64
    for i, row in enumerate(rows):
        r = 7 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                f += int(c)
                j += 1
                continue
            assert c.upper() in VARIANTS[v]["letters"], "letter %s" % c
            color = WHITE if c.isupper() else BLACK
            kind = c.upper()
            j += 1
            facing = None
            if j < len(row) and row[j] == "~":
                j += 1
            if j < len(row) and row[j] == "(":
                k = row.index(")", j)
                facing = FACINGS.index(row[j + 1: k])
                j = k + 1
            if j < len(row) and row[j] == "~":
                j += 1
            if kind == "L":
                assert facing is not None and facing_ok(sq(f, r), facing)
            board[sq(f, r)] = (color, kind, facing)
            f += 1
        assert f == 8, "rank width"
    side = WHITE if parts[1] == "w" else BLACK
    castle = set()
    if parts[2] != "-":
        for c in parts[2]:
            color = WHITE if c.isupper() else BLACK
            br = 0 if color == WHITE else 7
            u = c.upper()
            ks = [s for s in range(64) if board[s] == (color, "K", None)]
            kf = fr(ks[0])[0]
            if u == "K" or u == "Q":
                if VARIANTS[v]["castling"] == "standard":
                    castle.add((color, 7 if u == "K" else 0))
                else:  # outermost partner on that side
                    rng = range(7, kf, -1) if u == "K" else range(0, kf)
                    for f in rng:
                        p = board[sq(f, br)]
                        if p and p[0] == color and p[1] in VARIANTS[v]["partner_kinds"]:
                            castle.add((color, f))
                            break
            else:
                castle.add((color, "ABCDEFGH".index(u)))
    ep = None if parts[3] == "-" else parse_sq(parts[3])
    half = int(parts[4]) if len(parts) > 4 else 0
    full = int(parts[5]) if len(parts) > 5 else 1
    return Pos(v, board, side, frozenset(castle), ep, half, full)


def efen(pos):
    rows = []
    for r in range(7, -1, -1):
        row = ""
        empty = 0
        for f in range(8):
            p = pos.board[sq(f, r)]
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            c = p[1] if p[0] == WHITE else p[1].lower()
            if p[1] == "L":
                c += "(" + FACINGS[p[2]] + ")"
            row += c
        if empty:
            row += str(empty)
        rows.append(row)
    cs = ""
    for color in (WHITE, BLACK):
        for f in sorted([f for (c, f) in pos.castle if c == color], reverse=True):
            if VARIANTS[pos.v]["castling"] == "standard":
                l = "K" if f == 7 else "Q"
            else:
                l = "ABCDEFGH"[f]
            cs += l if color == WHITE else l.lower()
    ep = "-"
    if pos.ep is not None and any(m[0] == "ep" for m in legal_moves(pos)):
        ep = name(pos.ep)
    return "%s %s %s %s %d %d" % ("/".join(rows), "wb"[pos.side], cs or "-", ep,
                                  pos.half, pos.full)


# ---------------------------------------------------------------- holds and attacks

def held(board, s):
    """A unit is held when an enemy jailer stands orthogonally next to it."""
    p = board[s]
    if p is None:
        return False
    f, r = fr(s)
    for df, dr in ORTHO:
        if on(f + df, r + dr):
            q = board[sq(f + df, r + dr)]
            if q is not None and q[1] == "J" and q[0] != p[0]:
                return True
    return False


def attacks_king(board, s, t):
    """Does the (unheld) piece on s attack the enemy king standing on t?"""
    color, kind, facing = board[s]
    f, r = fr(s)
    tf, tr = fr(t)
    if kind == "P":
        dr = 1 if color == WHITE else -1
        return tr == r + dr and abs(tf - f) == 1
    if kind == "N":
        return (tf - f, tr - r) in KNIGHT
    if kind == "K":
        return s != t and max(abs(tf - f), abs(tr - r)) == 1
    if kind in "BRQ":
        dirs = {"B": DIAG, "R": ORTHO, "Q": DIAG + ORTHO}[kind]
        for df, dr in dirs:
            x, y = f + df, r + dr
            while on(x, y):
                if sq(x, y) == t:
                    return True
                if board[sq(x, y)] is not None:
                    break
                x, y = x + df, y + dr
        return False
    if kind == "L":
        df, dr = DIRS[facing]
        x, y = f + df, r + dr
        while on(x, y):
            if sq(x, y) == t:
                return True
            q = board[sq(x, y)]
            if q is not None and q[0] != color:
                return False      # an enemy (of the lancer) blocks
            x, y = x + df, y + dr  # empty or friendly: the attack goes on
        return False
    if kind == "J":
        return False
    if kind == "S":
        for df, dr in DIAG:
            x, y = f + df, r + dr
            while on(x, y) and board[sq(x, y)] is None:
                x, y = x + df, y + dr
            if on(x, y) and sq(x, y) == t:
                bx, by = x + df, y + dr
                return (not on(bx, by)) or board[sq(bx, by)] is None
        return False
    raise ValueError(kind)


def king_attacked(board, color):
    """Is the king of `color` attacked by an enemy unit that is not held?"""
    ks = [s for s in range(64) if board[s] is not None and board[s][0] == color
          and board[s][1] == "K"]
    if not ks:
        return False
    k = ks[0]
    for s in range(64):
        p = board[s]
        if p is not None and p[0] != color and not held(board, s):
            if attacks_king(board, s, k):
                return True
    return False


def in_check(pos):
    return king_attacked(pos.board, pos.side)


# ---------------------------------------------------------------- moves
# A move is a tuple (type, from, to, extra, text):
#   ("n",  from, to, newfacing|None)     ordinary move / capture / lancer move
#   ("dbl", from, to, None)              pawn double step
#   ("ep", from, to, victim square)
#   ("pr", from, to, (kind, facing))     promotion
#   ("sx", from, victim, landing|None)   sentry capture (None: sentry lost)
#   ("ca", kingfrom, kingto, (partnerfrom, partnerto, newfacing))
#   ("pass", None, None, None)


def pseudo_moves(pos):
    V = VARIANTS[pos.v]
    b = pos.board
    c = pos.side
    out = []

    def add(t, a, z, x, text):
        out.append((t, a, z, x, text))

    for s in range(64):
        p = b[s]
        if p is None or p[0] != c or held(b, s):
            continue
        kind = p[1]
        f, r = fr(s)
        if kind == "P":
            dr = 1 if c == WHITE else -1
            last = 7 if c == WHITE else 0
            start = 1 if c == WHITE else 6
            targets = []
            if on(f, r + dr) and b[sq(f, r + dr)] is None:
                targets.append(sq(f, r + dr))
                if r == start and b[sq(f, r + 2 * dr)] is None:
                    t = sq(f, r + 2 * dr)
                    add("dbl", s, t, None, name(s) + name(t))
            for df in (-1, 1):
                if on(f + df, r + dr):
                    t = sq(f + df, r + dr)
                    q = b[t]
                    if q is not None and q[0] != c:
                        targets.append(t)
                    elif q is None and pos.ep == t:
                        add("ep", s, t, sq(f + df, r), name(s) + name(t))
            for t in targets:
                if fr(t)[1] == last:
                    for pl in V["promo"]:
                        if pl == "l":
                            for d in allowed_facings(t):
                                add("pr", s, t, ("L", d), name(s) + name(t) + "l" + FACINGS[d])
                        else:
                            add("pr", s, t, (pl.upper(), None), name(s) + name(t) + pl)
                else:
                    add("n", s, t, None, name(s) + name(t))
        elif kind in "NK":
            for df, dr in (KNIGHT if kind == "N" else DIRS):
                if on(f + df, r + dr):
                    t = sq(f + df, r + dr)
                    if b[t] is None or b[t][0] != c:
                        add("n", s, t, None, name(s) + name(t))
        elif kind in "BRQ":
            dirs = {"B": DIAG, "R": ORTHO, "Q": DIAG + ORTHO}[kind]
            for df, dr in dirs:
                x, y = f + df, r + dr
                while on(x, y):
                    t = sq(x, y)
                    if b[t] is None:
                        add("n", s, t, None, name(s) + name(t))
                    else:
                        if b[t][0] != c:
                            add("n", s, t, None, name(s) + name(t))
                        break
                    x, y = x + df, y + dr
        elif kind == "J":
            for df, dr in ORTHO:
                x, y = f + df, r + dr
                while on(x, y) and b[sq(x, y)] is None:
                    t = sq(x, y)
                    add("n", s, t, None, name(s) + name(t))
                    x, y = x + df, y + dr
        elif kind == "S":
            for df, dr in DIAG:
                x, y = f + df, r + dr
                while on(x, y) and b[sq(x, y)] is None:
                    t = sq(x, y)
                    add("n", s, t, None, name(s) + name(t))
                    x, y = x + df, y + dr
                if on(x, y) and b[sq(x, y)][0] != c:
                    v = sq(x, y)
                    bx, by = x + df, y + dr
                    if not on(bx, by):
                        add("sx", s, v, None, name(s) + name(v))
                    elif b[sq(bx, by)] is None:
                        add("sx", s, v, sq(bx, by), name(s) + name(v))
        elif kind == "L":
            df, dr = DIRS[p[2]]
            x, y = f + df, r + dr
            while on(x, y):
                t = sq(x, y)
                q = b[t]
                if q is None or q[0] != c:
                    for d in allowed_facings(t):
                        add("n", s, t, d, name(s) + name(t) + ("" if d == p[2] else FACINGS[d]))
                    if q is not None:
                        break  # captured the first enemy piece
                x, y = x + df, y + dr  # friendly pieces are jumped
        else:
            raise ValueError(kind)
    out.extend(castling_moves(pos))
    if V["pass"]:
        ks = [s for s in range(64) if b[s] == (c, "K", None)]
        if ks and held(b, ks[0]) and not in_check(pos):
            add("pass", None, None, None, "0000")
    return out


def castling_moves(pos):
    V = VARIANTS[pos.v]
    b = pos.board
    c = pos.side
    out = []
    br = 0 if c == WHITE else 7
    ks = [s for s in range(64) if b[s] == (c, "K", None)]
    if not ks:
        return out
    k = ks[0]
    kf, kr = fr(k)
    if kr != br:
        return out
    if V["castling"] == "standard" and kf != 4:
        return out
    rights = [f for (col, f) in pos.castle if col == c]
    if not rights:
        return out
    if in_check(pos) or held(b, k):
        return out
    for pf in sorted(rights):
        ps = sq(pf, br)
        partner = b[ps]
        if partner is None or partner[0] != c:
            continue
        if V["castling"] == "standard":
            if pf not in (0, 7) or partner[1] != V["partner"][pf]:
                continue
        else:
            if partner[1] not in V["partner_kinds"]:
                continue
        if held(b, ps):
            continue
        kingside = pf > kf
        kt = 6 if kingside else 2
        pt = 5 if kingside else 3
        # every square the king or the partner crosses or lands on is empty,
        # apart from the two castling pieces themselves
        need_empty = set(range(min(kf, kt), max(kf, kt) + 1))
        need_empty |= set(range(min(pf, pt), max(pf, pt) + 1))
        need_empty -= {kf, pf}
        ok = True
        for f in need_empty:
            q = b[sq(f, br)]
            if q is None:
                continue
            if V["b1_friend_ok"] and not kingside and f == 1 and q[0] == c:
                continue  # Full Cavalry: the lancer jumps a friendly b1 piece
            ok = False
        if not ok:
            continue
        # attacked squares: the squares the king crosses or lands on, each tested
        # with the king standing there and king and partner lifted off. The
        # start square is not crossed: for it only "not in check" (in the real
        # position, tested above) counts. This matters when the partner is a
        # jailer holding an enemy unit that attacks the king's start square.
        if kf == kt:
            path = [kt]
        else:
            step = 1 if kt > kf else -1
            path = list(range(kf + step, kt + step, step))
        for f in path:
            tb = list(b)
            tb[k] = None
            tb[ps] = None
            tb[sq(f, br)] = (c, "K", None)
            if king_attacked(tb, c):
                ok = False
                break
        if not ok:
            continue
        kts = sq(kt, br)
        pts = sq(pt, br)
        if V["castling"] == "standard":
            base = name(k) + name(kts)
        else:
            base = name(k) + name(ps)
        if partner[1] == "L":
            for d in allowed_facings(pts):
                out.append(("ca", k, kts, (ps, pts, d),
                            base + ("" if d == partner[2] else FACINGS[d])))
        else:
            out.append(("ca", k, kts, (ps, pts, None), base))
    return out


def make(pos, m):
    t, a, z, x, _ = m
    b = list(pos.board)
    c = pos.side
    br = 0 if c == WHITE else 7
    castle = set(pos.castle)
    ep = None
    half = pos.half + 1
    touched = []
    if t == "pass":
        pass
    elif t == "ca":
        ps, pts, d = x
        partner = b[ps]
        b[a] = None
        b[ps] = None
        b[z] = (c, "K", None)
        b[pts] = (c, partner[1], d if partner[1] == "L" else None)
        castle = {r for r in castle if r[0] != c}
    else:
        p = b[a]
        touched = [a, z]
        if t == "sx":
            land = x
            b[a] = None
            b[z] = None
            if land is not None:
                b[land] = p
            half = 0
        else:
            if b[z] is not None or p[1] == "P":
                half = 0
            b[a] = None
            if t == "n":
                b[z] = (c, p[1], x if p[1] == "L" else None)
            elif t == "dbl":
                b[z] = p
                ep = (a + z) // 2
            elif t == "ep":
                b[z] = p
                b[x] = None
            elif t == "pr":
                b[z] = (c, x[0], x[1])
        if p[1] == "K":
            castle = {r for r in castle if r[0] != c}
        for s in touched:
            f, r = fr(s)
            castle = {cr for cr in castle if not (cr[1] == f and r == (0 if cr[0] == WHITE else 7))}
    full = pos.full + (1 if c == BLACK else 0)
    return Pos(pos.v, b, 1 - c, frozenset(castle), ep, half, full)


def legal_moves(pos):
    out = []
    for m in pseudo_moves(pos):
        n = make(pos, m)
        if not king_attacked(n.board, pos.side):
            out.append(m)
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(make(pos, m), depth - 1) for m in ms)


def divide(pos, depth):
    return {m[4]: perft(make(pos, m), depth - 1) for m in legal_moves(pos)}


def play(pos, texts):
    for t in texts:
        ms = [m for m in legal_moves(pos) if m[4] == t]
        if len(ms) != 1:
            raise ValueError("move %s: %d matches in %s" % (t, len(ms), efen(pos)))
        pos = make(pos, ms[0])
    return pos


def main(argv):
    cmd, v, fen = argv[1], argv[2], argv[3]
    pos = parse_efen(v, fen)
    if cmd == "perft":
        d = int(argv[4])
        if "--divide" in argv:
            dv = divide(pos, d)
            for k in sorted(dv):
                print("%s: %d" % (k, dv[k]))
            print("Nodes searched: %d" % sum(dv.values()))
        else:
            print(perft(pos, d))
    elif cmd == "moves":
        print(" ".join(sorted(m[4] for m in legal_moves(pos))))
    elif cmd == "play":
        print(efen(play(pos, argv[4:])))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
