#!/usr/bin/env python3
"""Independent reference move generator for The Royal Standard (`royalstandard`).

Written straight from docs/rules.md ("The Royal Standard") and
docs/notation.md, without looking at the engine's source. It is
meant to be slow and obviously correct, not fast.

Rules implemented (docs/rules.md):
  * 7x6 board, holes a1 g1 a6 g6.
  * Goal: capture the enemy king. No check: moves leaving one's own king attacked
    are legal. A side with no king has no moves (the game is over).
  * Mobility rule: every piece except the king and the standard-bearers may move
    only if its start square, every square it passes through and its destination
    are each occupied by or adjacent (king-wise) to a standard-bearer of its own
    colour, judged in the position before the move. (Frozen bearers count.)
  * Standard-bearer S: steps like a king to an EMPTY square; captures nothing but
    the enemy king. A frozen bearer has no moves at all.
  * Any other piece (king included: kingCapturesOwnBearer = true) may capture an
    enemy bearer or one of its own bearers under its normal move rules; the bearer
    is then displaced to an empty board square adjacent to the capture square,
    chosen after the capturer has landed (so the square the capturer left counts
    as empty). One move per displacement square; no free square -> no move.
  * A displaced bearer is frozen for its owner's next turn: the very next ply after
    an enemy capture, two plies later after a self-capture. Bookkeeping: when side
    X moves, X's frozen marks expire (that was X's "next turn"), then the bearer
    displaced by this move (of either colour) gets a fresh mark.
  * Windmill W: chooses a friendly bearer adjacent to it (frozen ones too) as
    pivot, moves around the 8 squares adjacent to the pivot clockwise or
    anticlockwise one ring square at a time; it may stop on any empty ring square,
    or stop on the first occupied ring square if that holds an enemy piece
    (capture) or a friendly bearer (displacement). It never passes an occupied
    square, a hole or the board edge and never ends where it began. Duplicate
    destinations count once.
  * King, rook, bishop as in chess (rook and bishop subject to the mobility rule).
    Kings may stand next to each other.

Move text (docs/notation.md): from+to, and for a bearer capture
`<from><to>,<to><displacement square>`.

Usage:
  royalstandard_ref.py perft  [--fen EFEN] [--moves m1 m2 ...] DEPTH [--divide]
  royalstandard_ref.py moves  [--fen EFEN] [--moves ...]      list legal moves
  royalstandard_ref.py play   [--fen EFEN] --moves ...        print the EFEN after
  royalstandard_ref.py outcome [--fen EFEN] [--moves ...]    none|kingcaptured|stalemate
  any command: --no-king-captures-own-bearer  (option kingCapturesOwnBearer = false)
"""

import sys

W, H = 7, 6
FILES = "abcdefg"
HOLES = {(0, 0), (6, 0), (0, 5), (6, 5)}  # (file, rank) 0-based: a1 g1 a6 g6
START = "*sskss*/br1w1br/7/7/BR1W1BR/*SSKSS* w - - 0 1"

# docs/rules.md option kingCapturesOwnBearer (default true); the command line flag
# --no-king-captures-own-bearer turns it off.
KING_CAPTURES_OWN_BEARER = True

KING_STEPS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
# The 8 squares around a pivot in cyclic (clockwise, White's view) order:
# n, ne, e, se, s, sw, w, nw.
RING = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


def on_board(sq):
    f, r = sq
    return 0 <= f < W and 0 <= r < H and sq not in HOLES


def sqname(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(t):
    return (FILES.index(t[0]), int(t[1:]) - 1)


def color(p):
    return "w" if p.isupper() else "b"


def kind(p):
    return p.upper()


class Pos:
    def __init__(self, board, frozen, side, half, full):
        self.board = board    # dict (file, rank) -> piece letter, on-board squares only
        self.frozen = frozen  # set of squares holding a frozen bearer
        self.side = side      # 'w' or 'b'
        self.half = half
        self.full = full

    # ---------------------------------------------------------------- EFEN
    @staticmethod
    def from_efen(efen):
        parts = efen.split()
        if len(parts) != 6:
            raise ValueError("EFEN needs 6 fields: " + efen)
        rows = parts[0].split("/")
        if len(rows) != H:
            raise ValueError("need %d ranks" % H)
        board, frozen = {}, set()
        for i, row in enumerate(rows):
            r = H - 1 - i
            f = 0
            j = 0
            while j < len(row):
                c = row[j]
                j += 1
                if c.isdigit():
                    for _ in range(int(c)):
                        if not on_board((f, r)):
                            raise ValueError("empty run over a hole at %s" % sqname((f, r)))
                        f += 1
                elif c == "*":
                    if (f, r) not in HOLES:
                        raise ValueError("'*' on a real square %s" % sqname((f, r)))
                    f += 1
                elif c.upper() in "KRBSW":
                    if not on_board((f, r)):
                        raise ValueError("piece on a hole")
                    board[(f, r)] = c
                    if row[j:j + 3] == "(f)":
                        if c.upper() != "S":
                            raise ValueError("only standard-bearers can be frozen")
                        frozen.add((f, r))
                        j += 3
                    f += 1
                else:
                    raise ValueError("bad character %r" % c)
            if f != W:
                raise ValueError("rank %d has width %d" % (r + 1, f))
        side = parts[1]
        if side not in ("w", "b"):
            raise ValueError("bad side")
        return Pos(board, frozen, side, int(parts[4]), int(parts[5]))

    def efen(self):
        rows = []
        for r in range(H - 1, -1, -1):
            s, run = "", 0
            for f in range(W):
                sq = (f, r)
                if sq in HOLES:
                    if run:
                        s += str(run)
                        run = 0
                    s += "*"
                elif sq in self.board:
                    if run:
                        s += str(run)
                        run = 0
                    s += self.board[sq] + ("(f)" if sq in self.frozen else "")
                else:
                    run += 1
            if run:
                s += str(run)
            rows.append(s)
        return "%s %s - - %d %d" % ("/".join(rows), self.side, self.half, self.full)

    def copy(self):
        return Pos(dict(self.board), set(self.frozen), self.side, self.half, self.full)

    # ------------------------------------------------------------- helpers
    def own(self, sq, side):
        p = self.board.get(sq)
        return p is not None and color(p) == side

    def enemy(self, sq, side):
        p = self.board.get(sq)
        return p is not None and color(p) != side

    def has_king(self, side):
        return any(kind(p) == "K" and color(p) == side for p in self.board.values())

    def bearer_zone(self, side):
        """Squares occupied by or adjacent to a bearer of `side` (frozen included)."""
        zone = set()
        for sq, p in self.board.items():
            if kind(p) == "S" and color(p) == side:
                zone.add(sq)
                for df, dr in KING_STEPS:
                    t = (sq[0] + df, sq[1] + dr)
                    if on_board(t):
                        zone.add(t)
        return zone

    def displacement_squares(self, frm, to):
        """Empty board squares adjacent to `to` once the capturer stands on `to`
        and `frm` has been vacated."""
        out = []
        for df, dr in KING_STEPS:
            t = (to[0] + df, to[1] + dr)
            if not on_board(t):
                continue
            if t == frm or t not in self.board:
                out.append(t)
        return out

    def add_landing(self, moves, frm, to, side, own_bearer_ok=True):
        """The capturer (not a bearer) arrives on `to` (empty, enemy or own piece);
        add the resulting move(s)."""
        p = self.board.get(to)
        if p is None:
            moves.add((frm, to, None))
        elif color(p) != side:
            if kind(p) == "S":
                for d in self.displacement_squares(frm, to):
                    moves.add((frm, to, d))
            else:
                moves.add((frm, to, None))
        else:
            if kind(p) == "S" and own_bearer_ok:  # capture of one's own bearer
                for d in self.displacement_squares(frm, to):
                    moves.add((frm, to, d))
            # any other own piece: no move

    # ------------------------------------------------------------ movegen
    def legal_moves(self):
        side = self.side
        if not self.has_king(side):
            return set()
        zone = self.bearer_zone(side)
        moves = set()
        for frm, p in list(self.board.items()):
            if color(p) != side:
                continue
            k = kind(p)
            if k == "K":
                for df, dr in KING_STEPS:
                    to = (frm[0] + df, frm[1] + dr)
                    if on_board(to):
                        self.add_landing(moves, frm, to, side, KING_CAPTURES_OWN_BEARER)
            elif k == "S":
                if frm in self.frozen:
                    continue
                for df, dr in KING_STEPS:
                    to = (frm[0] + df, frm[1] + dr)
                    if not on_board(to):
                        continue
                    q = self.board.get(to)
                    if q is None:
                        moves.add((frm, to, None))
                    elif color(q) != side and kind(q) == "K":
                        moves.add((frm, to, None))
            elif k in "RB":
                if frm not in zone:
                    continue
                dirs = ROOK_DIRS if k == "R" else BISHOP_DIRS
                for df, dr in dirs:
                    to = frm
                    while True:
                        to = (to[0] + df, to[1] + dr)
                        if not on_board(to) or to not in zone:
                            break
                        self.add_landing(moves, frm, to, side)
                        if to in self.board:
                            break
            elif k == "W":
                for pdf, pdr in KING_STEPS:
                    pivot = (frm[0] + pdf, frm[1] + pdr)
                    if not on_board(pivot):
                        continue
                    q = self.board.get(pivot)
                    if q is None or color(q) != side or kind(q) != "S":
                        continue
                    ring = [(pivot[0] + a, pivot[1] + b) for a, b in RING]
                    i = ring.index(frm)
                    for d in (1, -1):
                        for step in range(1, 8):  # step 8 would be the start square
                            to = ring[(i + d * step) % 8]
                            if not on_board(to):
                                break
                            # mobility rule: automatically met (ring squares are
                            # adjacent to the pivot); asserted for clarity
                            assert to in zone and frm in zone
                            self.add_landing(moves, frm, to, side)
                            if to in self.board:
                                break
            else:
                raise ValueError("unknown piece " + p)
        return moves

    def do_move(self, m):
        frm, to, disp = m
        side = self.side
        q = self.copy()
        p = q.board.pop(frm)
        captured = q.board.get(to)
        # the mover's own frozen marks expire now (this was their frozen turn)
        q.frozen = {s for s in self.frozen if color(self.board[s]) != side}
        q.board[to] = p
        if captured is not None:
            q.frozen.discard(to)
            if kind(captured) == "S":
                assert disp is not None and disp not in q.board and on_board(disp)
                q.board[disp] = captured
                q.frozen.add(disp)
            else:
                assert disp is None
        q.half = 0 if captured is not None else self.half + 1
        if side == "b":
            q.full = self.full + 1
        q.side = "b" if side == "w" else "w"
        return q

    def outcome(self):
        if not self.has_king(self.side):
            return "kingcaptured"
        if not self.legal_moves():
            return "stalemate"
        return "none"


def move_text(m):
    frm, to, disp = m
    s = sqname(frm) + sqname(to)
    if disp is not None:
        s += "," + sqname(to) + sqname(disp)
    return s


def parse_move(pos, text):
    for m in pos.legal_moves():
        if move_text(m) == text:
            return m
    raise ValueError("illegal move %s in %s" % (text, pos.efen()))


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = pos.legal_moves()
    if depth == 1:
        return len(ms)
    return sum(perft(pos.do_move(m), depth - 1) for m in ms)


def divide(pos, depth):
    return {move_text(m): perft(pos.do_move(m), depth - 1) for m in pos.legal_moves()}


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    cmd, args = argv[0], argv[1:]
    fen, moves, depth, div = START, [], None, False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--no-king-captures-own-bearer":
            global KING_CAPTURES_OWN_BEARER
            KING_CAPTURES_OWN_BEARER = False
            i += 1
        elif a == "--fen":
            fen = args[i + 1]
            i += 2
        elif a == "--divide":
            div = True
            i += 1
        elif a == "--moves":
            i += 1
            while i < len(args) and not args[i].startswith("--"):
                moves.extend(args[i].split())
                i += 1
        else:
            depth = int(a)
            i += 1
    pos = Pos.from_efen(fen)
    for t in moves:
        pos = pos.do_move(parse_move(pos, t))
    if cmd == "perft":
        if div:
            d = divide(pos, depth)
            for k in sorted(d):
                print("%s: %d" % (k, d[k]))
            print()
            print("Nodes searched: %d" % sum(d.values()))
        else:
            print("Nodes searched: %d" % perft(pos, depth))
    elif cmd == "moves":
        print(" ".join(sorted(move_text(m) for m in pos.legal_moves())))
    elif cmd == "play":
        print(pos.efen())
    elif cmd == "outcome":
        print(pos.outcome())
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
