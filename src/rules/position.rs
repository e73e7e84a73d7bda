//! `Position`: bitboards, per-square piece state, hands, side, castling, en passant,
//! clocks and an incremental Zobrist key; `do_move` (copy-make: copy, then play).

use super::bitboard::*;
use super::geometry::front;
use super::moves::*;
use super::piece::*;
use super::variant::*;
use super::zobrist::zobrist;

/// A position of some variant. Cheap to copy; search and perft copy before `do_move`.
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) variant: &'static Variant,
    pub(crate) board: [Piece; 64],
    pub(crate) state: [u8; 64],
    pub(crate) by_kind: [Bitboard; NKINDS],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) frozen: Bitboard,
    pub(crate) hands: [[u8; NKINDS]; 2],
    pub(crate) side: Color,
    /// Castling partner square per slot (side*2 + 0 king side / 1 queen side).
    pub(crate) castle: [Square; 4],
    pub(crate) ep: Square,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
}

const NOT_A: Bitboard = !super::geometry::FILE_A;
const NOT_H: Bitboard = !0x8080_8080_8080_8080;

/// The four orthogonal neighbours of every square of `b`.
#[inline(always)]
pub fn orth_neighbours(b: Bitboard) -> Bitboard {
    (b << 8) | (b >> 8) | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H)
}

/// The eight king-step neighbours of every square of `b`.
#[inline(always)]
pub fn king_neighbours(b: Bitboard) -> Bitboard {
    let east = b << 1 & NOT_A;
    let west = b >> 1 & NOT_H;
    let row = b | east | west;
    (row << 8) | (row >> 8) | east | west
}

impl Position {
    /// An empty board of `variant`, White to move.
    pub fn empty(variant: &'static Variant) -> Position {
        Position {
            variant,
            board: [NO_PIECE; 64],
            state: [0; 64],
            by_kind: [0; NKINDS],
            by_color: [0; 2],
            frozen: 0,
            hands: [[0; NKINDS]; 2],
            side: Color::White,
            castle: [NO_SQUARE; 4],
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            key: 0,
        }
    }

    /// The variant this position belongs to.
    #[inline(always)]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    /// Side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    /// The piece on `sq` (or [`NO_PIECE`]).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq as usize & 63]
    }
    /// The piece state byte on `sq` (lancer facing, [`FROZEN`]).
    #[inline(always)]
    pub fn state_at(&self, sq: Square) -> u8 {
        self.state[sq as usize & 63]
    }
    /// The facing of the lancer on `sq`.
    #[inline(always)]
    pub fn facing_at(&self, sq: Square) -> u8 {
        self.state[sq as usize & 63] & FACING_MASK
    }
    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    /// A side's pieces.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.idx()]
    }
    /// Pieces of a kind, both sides.
    #[inline(always)]
    pub fn kind_bb(&self, k: Kind) -> Bitboard {
        self.by_kind[k.idx()]
    }
    /// Pieces of a side and kind.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, k: Kind) -> Bitboard {
        self.by_kind[k.idx()] & self.by_color[c.idx()]
    }
    /// Frozen standard-bearers.
    #[inline(always)]
    pub fn frozen(&self) -> Bitboard {
        self.frozen
    }
    /// Count of `k` in `c`'s hand.
    #[inline(always)]
    pub fn hand(&self, c: Color, k: Kind) -> u8 {
        self.hands[c.idx()][k.idx()]
    }
    /// En passant square, if set.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(self.ep)
    }
    /// Plies counted for the n-move rule.
    #[inline(always)]
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }
    /// Move number.
    #[inline(always)]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }
    /// Plies played since the game's first move (from the move number and the side to move).
    pub fn game_ply(&self) -> u32 {
        (self.fullmove.max(1) as u32 - 1) * 2 + self.side().idx() as u32
    }
    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Castling partner squares still usable: (slot, square).
    pub fn castling_rights(&self) -> impl Iterator<Item = (usize, Square)> + '_ {
        (0..4)
            .filter(|&i| self.castle[i] != NO_SQUARE)
            .map(|i| (i, self.castle[i]))
    }
    /// The king square of `c`, if it has a king.
    #[inline(always)]
    pub fn king_sq(&self, c: Color) -> Option<Square> {
        let k = self.pieces_of(c, Kind::King);
        (k != 0).then(|| lsb(k))
    }

    /// Puts a piece with its state on an empty square.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, p: Piece, st: u8) {
        let z = zobrist();
        let i = sq as usize & 63;
        self.board[i] = p;
        self.state[i] = st;
        self.by_kind[p.kind().idx()] |= bb(sq);
        self.by_color[p.color().idx()] |= bb(sq);
        if st & FROZEN != 0 {
            self.frozen |= bb(sq);
        }
        self.key ^= z.psq[p.idx()][i] ^ z.state[(st & 15) as usize][i];
    }

    /// Removes the piece on `sq`, returning it with its state.
    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> (Piece, u8) {
        let z = zobrist();
        let i = sq as usize & 63;
        let p = self.board[i];
        let st = self.state[i];
        self.board[i] = NO_PIECE;
        self.state[i] = 0;
        self.by_kind[p.kind().idx()] &= !bb(sq);
        self.by_color[p.color().idx()] &= !bb(sq);
        self.frozen &= !bb(sq);
        self.key ^= z.psq[p.idx()][i] ^ z.state[(st & 15) as usize][i];
        (p, st)
    }

    #[inline(always)]
    fn set_hand(&mut self, c: Color, k: Kind, n: u8) {
        let z = zobrist();
        let n = n.min(63);
        let old = self.hands[c.idx()][k.idx()];
        self.key ^= z.hand[c.idx()][k.idx()][old as usize] ^ z.hand[c.idx()][k.idx()][n as usize];
        self.hands[c.idx()][k.idx()] = n;
    }

    /// Adds one piece of kind `k` to `c`'s hand.
    pub(crate) fn add_to_hand(&mut self, c: Color, k: Kind) {
        let n = self.hand(c, k).saturating_add(1);
        self.set_hand(c, k, n);
    }

    pub(crate) fn set_castle(&mut self, slot: usize, sq: Square) {
        let z = zobrist();
        if self.castle[slot] != NO_SQUARE {
            self.key ^= z.castle[slot][self.castle[slot] as usize & 63];
        }
        self.castle[slot] = sq;
        if sq != NO_SQUARE {
            self.key ^= z.castle[slot][sq as usize & 63];
        }
    }

    pub(crate) fn set_ep(&mut self, sq: Square) {
        let z = zobrist();
        if self.ep != NO_SQUARE {
            self.key ^= z.ep[self.ep as usize & 63];
        }
        self.ep = sq;
        if sq != NO_SQUARE {
            self.key ^= z.ep[sq as usize & 63];
        }
    }

    pub(crate) fn set_side(&mut self, c: Color) {
        if c != self.side {
            self.key ^= zobrist().side;
            self.side = c;
        }
    }

    /// Recomputes the Zobrist key from scratch (for tests and after parsing).
    pub fn compute_key(&self) -> u64 {
        let z = zobrist();
        let mut k = 0;
        for sq in squares(self.occupied()) {
            let i = sq as usize;
            k ^= z.psq[self.board[i].idx()][i] ^ z.state[(self.state[i] & 15) as usize][i];
        }
        for c in 0..2 {
            for kind in 0..NKINDS {
                k ^= z.hand[c][kind][self.hands[c][kind].min(63) as usize];
            }
        }
        for slot in 0..4 {
            if self.castle[slot] != NO_SQUARE {
                k ^= z.castle[slot][self.castle[slot] as usize];
            }
        }
        if self.ep != NO_SQUARE {
            k ^= z.ep[self.ep as usize];
        }
        if self.side == Color::Black {
            k ^= z.side;
        }
        k
    }

    /// Pieces of `c` held by the enemy's jailers (they neither move nor attack).
    #[inline(always)]
    pub fn held(&self, c: Color) -> Bitboard {
        let j = self.by_kind[Kind::Jailer.idx()];
        if j == 0 {
            return 0;
        }
        orth_neighbours(j & self.by_color[c.flip().idx()]) & self.by_color[c.idx()]
    }

    /// Squares from which `c`'s non-exempt pieces may move under the mobility rule:
    /// occupied by or adjacent to one of `c`'s standard-bearers (all squares without the rule).
    #[inline(always)]
    pub fn mobility_zone(&self, c: Color) -> Bitboard {
        if !self.variant.mobility_rule {
            return !0;
        }
        let b = self.pieces_of(c, Kind::Bearer);
        (b | king_neighbours(b)) & self.variant.mask
    }

    /// Pieces of `c` that attack `sq` (as a square a king of the other side would stand on),
    /// given the occupancy `occ` and ignoring the pieces in `excluded` (held or lifted ones).
    pub fn attackers_to(
        &self,
        sq: Square,
        c: Color,
        occ: Bitboard,
        excluded: Bitboard,
    ) -> Bitboard {
        let t = tables();
        let v = self.variant;
        let ours = self.by_color[c.idx()] & occ & !excluded;
        let k = &self.by_kind;
        let zone = self.mobility_zone(c);
        let blk = occ | !v.mask | !zone;
        let mut a = 0;
        if zone & bb(sq) != 0 {
            a |= t.pawn(c.flip().idx(), sq) & k[Kind::Pawn.idx()];
            a |= t.knight(sq) & k[Kind::Knight.idx()];
            let diag = k[Kind::Bishop.idx()] | k[Kind::Queen.idx()] | k[Kind::ForwardBishop.idx()];
            let orth = k[Kind::Rook.idx()] | k[Kind::Queen.idx()];
            if diag & ours != 0 {
                a |= t.bishop(sq, blk) & diag;
            }
            if orth & ours != 0 {
                a |= t.rook(sq, blk) & orth;
            }
            a &= zone;
        }
        a |= t.king(sq) & k[Kind::King.idx()];
        a &= ours;
        let special = v.kinds
            & ((1 << Kind::ForwardBishop as u32)
                | (1 << Kind::Lancer as u32)
                | (1 << Kind::Sentry as u32)
                | (1 << Kind::Bearer as u32)
                | (1 << Kind::Windmill as u32));
        if special == 0 {
            return a;
        }
        if v.has(Kind::ForwardBishop) && zone & bb(sq) != 0 {
            // The step is straight forward for the attacker, so it stands one rank behind sq.
            let from = match c {
                Color::White => sq.checked_sub(8),
                Color::Black => (sq + 8 < 64).then_some(sq + 8),
            };
            if let Some(f) = from {
                a |= bb(f) & k[Kind::ForwardBishop.idx()] & ours & zone;
            }
        }
        if v.has(Kind::Lancer) {
            let not_ours = (occ & !self.by_color[c.idx()]) | !v.mask;
            for l in squares(k[Kind::Lancer.idx()] & ours) {
                let f = self.state[l as usize] & FACING_MASK;
                if t.ray(f as usize, l) & bb(sq) != 0 && t.between(l, sq) & not_ours == 0 {
                    a |= bb(l);
                }
            }
        }
        if v.has(Kind::Sentry) {
            let sentries = k[Kind::Sentry.idx()] & ours;
            if sentries != 0 {
                let blk = occ | !v.mask;
                for d in DIAGONALS {
                    let r = t.ray_attack(d, sq, blk) & blk & sentries;
                    if r != 0 {
                        let beyond_free = match step(sq, (d + 4) & 7) {
                            None => true,
                            Some(b) => !v.on_board(b) || occ & bb(b) == 0,
                        };
                        if beyond_free {
                            a |= r;
                        }
                    }
                }
            }
        }
        if v.has(Kind::Bearer) {
            a |= t.king(sq) & k[Kind::Bearer.idx()] & ours & !self.frozen;
        }
        if v.has(Kind::Windmill) {
            let bearers = k[Kind::Bearer.idx()] & self.by_color[c.idx()];
            for w in squares(k[Kind::Windmill.idx()] & ours) {
                if self.windmill_reaches(w, bearers, occ) & bb(sq) != 0 {
                    a |= bb(w);
                }
            }
        }
        a
    }

    /// Squares a windmill on `w` can stop on (empty, or the first occupied ring square),
    /// around every pivot in `bearers` adjacent to it.
    #[inline]
    pub fn windmill_reaches(&self, w: Square, bearers: Bitboard, occ: Bitboard) -> Bitboard {
        let t = tables();
        let mut out = 0;
        for p in squares(t.king(w) & bearers) {
            let start = (0..8).find(|&d| step(p, d) == Some(w)).unwrap_or(0);
            for dir in [1usize, 7] {
                let mut i = start;
                for _ in 0..7 {
                    i = (i + dir) & 7;
                    match step(p, i) {
                        Some(s) if self.variant.on_board(s) => {
                            out |= bb(s);
                            if occ & bb(s) != 0 {
                                break;
                            }
                        }
                        _ => break,
                    }
                }
            }
        }
        out & !bb(w)
    }

    /// Whether `c`'s king is attacked (pieces held by `c`'s jailers do not attack).
    #[inline]
    pub fn king_attacked(&self, c: Color) -> bool {
        match self.king_sq(c) {
            Some(k) => self.attackers_to(k, c.flip(), self.occupied(), self.held(c.flip())) != 0,
            None => false,
        }
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        match self.king_sq(us) {
            Some(k) => self.attackers_to(k, us.flip(), self.occupied(), self.held(us.flip())),
            None => 0,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Whether `m` gives check, found without playing it: only in the chess family's
    /// variants and for plain moves and promotions; `None` elsewhere, where only
    /// playing the move tells.
    #[inline]
    pub fn gives_check_fast(&self, m: Move) -> Option<bool> {
        let v = self.variant;
        if !v.simple {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let kind = match m.move_type() {
            MoveType::Normal => self.board[from as usize].kind(),
            MoveType::Promotion => m.kind()?,
            _ => return None,
        };
        let us = self.side;
        let ksq = self.king_sq(us.flip())?;
        let t = tables();
        let occ = (self.occupied() & !bb(from)) | bb(to);
        let blk = occ | !v.mask;
        let direct = match kind {
            Kind::Pawn => t.pawn(us.idx(), to),
            Kind::Knight => t.knight(to),
            Kind::Bishop => t.bishop(to, blk),
            Kind::Rook => t.rook(to, blk),
            Kind::Queen => t.queen(to, blk),
            Kind::ForwardBishop => t.bishop(to, blk) | front(us, to).map_or(0, bb),
            Kind::King => 0,
            _ => return None,
        };
        if direct & bb(ksq) != 0 {
            return Some(true);
        }
        // A discovered check: one of our sliders now sees the king past `from` (only a
        // slider can be uncovered; the cheaper test than `attackers_to` pays in search).
        let k = &self.by_kind;
        let ours = self.by_color[us.idx()] & occ;
        let diag =
            (k[Kind::Bishop.idx()] | k[Kind::Queen.idx()] | k[Kind::ForwardBishop.idx()]) & ours;
        let orth = (k[Kind::Rook.idx()] | k[Kind::Queen.idx()]) & ours;
        Some((t.bishop(ksq, blk) & diag) | (t.rook(ksq, blk) & orth) != 0)
    }

    /// The king's and partner's destinations for castling with the partner on `partner`.
    #[inline(always)]
    pub fn castle_targets(&self, king: Square, partner: Square) -> (Square, Square) {
        let r = rank_of(king);
        if partner > king {
            (
                square(self.variant.width - 2, r),
                square(self.variant.width - 3, r),
            )
        } else {
            (square(2, r), square(3, r))
        }
    }

    #[inline(always)]
    fn clear_castle_on(&mut self, sq: Square) {
        for slot in 0..4 {
            if self.castle[slot] == sq {
                self.set_castle(slot, NO_SQUARE);
            }
        }
    }

    /// Plays `m` (which must be legal, or at least pseudo-legal) on this position.
    pub fn do_move(&mut self, m: Move) {
        let v = self.variant;
        let us = self.side;
        let them = us.flip();
        let mut ep_candidate = NO_SQUARE;
        if self.ep != NO_SQUARE {
            self.set_ep(NO_SQUARE);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        // A frozen bearer stays frozen for exactly one turn of its owner.
        let thaw = self.frozen & self.by_color[us.idx()];
        if thaw != 0 {
            let z = zobrist();
            for s in squares(thaw) {
                let i = s as usize;
                let st = self.state[i];
                self.key ^=
                    z.state[(st & 15) as usize][i] ^ z.state[(st & !FROZEN & 15) as usize][i];
                self.state[i] = st & !FROZEN;
            }
            self.frozen &= !thaw;
        }
        match m.move_type() {
            MoveType::Pass => {}
            MoveType::Drop => {
                let k = m.kind().unwrap_or(Kind::Pawn);
                let n = self.hand(us, k).saturating_sub(1);
                self.set_hand(us, k, n);
                self.put(m.to(), Piece::new(k, us), m.facing().unwrap_or(0));
            }
            MoveType::Castle => {
                let (kfrom, pfrom) = (m.from(), m.to());
                let (kto, pto) = self.castle_targets(kfrom, pfrom);
                let (kp, _) = self.remove(kfrom);
                let (pp, pst) = self.remove(pfrom);
                self.put(kto, kp, 0);
                self.put(pto, pp, m.facing().unwrap_or(pst));
                self.set_castle(us.idx() * 2, NO_SQUARE);
                self.set_castle(us.idx() * 2 + 1, NO_SQUARE);
            }
            t => {
                let (from, to) = (m.from(), m.to());
                let (pc, st) = self.remove(from);
                let (cap_sq, dest) = match t {
                    MoveType::EnPassant => (square(file_of(to), rank_of(from)), to),
                    MoveType::SentryCapture => (to, m.aux()),
                    MoveType::SentryEdge => (to, NO_SQUARE),
                    _ => (
                        if self.board[to as usize & 63].is_none() {
                            NO_SQUARE
                        } else {
                            to
                        },
                        to,
                    ),
                };
                if cap_sq != NO_SQUARE {
                    let (cp, cst) = self.remove(cap_sq);
                    if m.is_displacement() {
                        self.put(m.aux(), cp, (cst & FACING_MASK) | FROZEN);
                    } else if v.drops && cp.kind() != Kind::King {
                        self.add_to_hand(us, v.demote[cp.kind().idx()]);
                    }
                    self.halfmove = 0;
                    self.clear_castle_on(cap_sq);
                }
                if dest != NO_SQUARE {
                    let (np, ns) = match m.kind() {
                        Some(k) => (Piece::new(k, us), m.facing().unwrap_or(0)),
                        None => (pc, m.facing().unwrap_or(st & FACING_MASK)),
                    };
                    self.put(dest, np, ns);
                }
                match pc.kind() {
                    Kind::Pawn => {
                        if v.n_move_reset_on_pawn {
                            self.halfmove = 0;
                        }
                        if from.abs_diff(to) == 16 && t == MoveType::Normal && v.en_passant {
                            ep_candidate = (from + to) / 2;
                        }
                    }
                    Kind::King => {
                        self.set_castle(us.idx() * 2, NO_SQUARE);
                        self.set_castle(us.idx() * 2 + 1, NO_SQUARE);
                    }
                    _ => self.clear_castle_on(from),
                }
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_side(them);
        // The en passant square is kept (and hashed) only when the capture is legal,
        // so that the key agrees with the EFEN, which writes it only then.
        if ep_candidate != NO_SQUARE {
            self.set_ep(ep_candidate);
            if !self.ep_capture_legal() {
                self.set_ep(NO_SQUARE);
            }
        }
    }

    /// Whether the side to move has a legal en passant capture on the current ep square.
    pub(crate) fn ep_capture_legal(&self) -> bool {
        if self.ep == NO_SQUARE {
            return false;
        }
        let us = self.side;
        let capturers = tables().pawn(us.flip().idx(), self.ep)
            & self.pieces_of(us, Kind::Pawn)
            & !self.held(us);
        squares(capturers).any(|from| {
            self.variant.goal == Goal::KingCapture
                || !self
                    .after(Move::new(MoveType::EnPassant, from, self.ep))
                    .king_attacked(us)
        })
    }

    /// The position after `m`.
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut p = *self;
        p.do_move(m);
        p
    }

    /// Whether `m` wins material: a capture that removes a piece. Capturing a
    /// standard-bearer only displaces it, so it does not count (the search treats it
    /// as a quiet move, and quiescence would otherwise chase endless displacements).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.move_type() {
            MoveType::EnPassant | MoveType::SentryCapture | MoveType::SentryEdge => true,
            MoveType::Normal | MoveType::Promotion => {
                !self.piece_at(m.to()).is_none() && !m.is_displacement()
            }
            _ => false,
        }
    }

    /// The kind `m` removes from the board, if any (none for a displacement).
    #[inline]
    pub fn captured_kind(&self, m: Move) -> Option<Kind> {
        match m.move_type() {
            MoveType::EnPassant => Some(Kind::Pawn),
            MoveType::SentryCapture
            | MoveType::SentryEdge
            | MoveType::Normal
            | MoveType::Promotion => {
                let p = self.piece_at(m.to());
                (!p.is_none() && !m.is_displacement()).then(|| p.kind())
            }
            _ => None,
        }
    }

    /// The piece `m` moves: a dropped piece, the pawn that promotes; none for the pass.
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Piece {
        match m.move_type() {
            MoveType::Drop => Piece::new(m.kind().unwrap_or(Kind::Pawn), self.side),
            MoveType::Pass => NO_PIECE,
            _ => self.piece_at(m.from()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_sets() {
        let e4 = parse_square("e4").unwrap();
        assert_eq!(king_neighbours(bb(e4)), tables().king(e4));
        assert_eq!(orth_neighbours(bb(e4)), tables().orth_adjacent(e4));
        for sq in 0..64u8 {
            assert_eq!(king_neighbours(bb(sq)), tables().king(sq), "{sq}");
            assert_eq!(orth_neighbours(bb(sq)), tables().orth_adjacent(sq), "{sq}");
        }
    }
}
