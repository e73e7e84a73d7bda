//! Legal move generation for every variant.
//!
//! Pseudo-legal moves of each mover family are generated with the variant's data read
//! once per call. Legality then takes one of three paths:
//! - king capture (The Royal Standard): every pseudo-legal move is legal;
//! - `simple` variants (chess movers only): pins and checks decide, as in Stockfish;
//! - the rest: a move is tested by playing it when it could matter (king moves, jailer
//!   moves, captures that vacate a square, pieces on a line from the king, or any move
//!   while in check); other moves cannot expose the king.

use super::bitboard::*;
use super::moves::*;
use super::piece::*;
use super::position::*;
use super::variant::*;

const NOT_A: Bitboard = !super::geometry::FILE_A;
const NOT_H: Bitboard = !0x8080_8080_8080_8080;

/// What the generator needs to know, computed once per call.
struct Gen {
    us: Color,
    occ: Bitboard,
    own: Bitboard,
    /// Squares a non-king piece may move to: empty squares and capturable pieces.
    dest: Bitboard,
    /// Allowed destinations for non-king moves (check evasions), else all.
    target: Bitboard,
    /// Pieces that may move at all (not held, not frozen).
    movable: Bitboard,
    /// The mobility rule's zone (all squares without the rule).
    zone: Bitboard,
    /// Standard-bearers on the board: capturing one displaces it.
    bearers: Bitboard,
    mask: Bitboard,
    /// Destinations allowed by the kind of generation: enemy pieces only for captures,
    /// else every square.
    capmask: Bitboard,
    /// Whether non-captures are generated.
    quiets: bool,
}

impl Position {
    /// All legal moves of the side to move.
    pub fn legal_moves(&self, list: &mut MoveList) {
        self.legal(list, true, !0);
    }

    /// The legal moves that capture an enemy piece (not displacements of bearers), plus
    /// promotions by a push, en passant and sentry captures. Drops, castling and the
    /// pass are not captures.
    pub fn legal_captures(&self, list: &mut MoveList) {
        self.legal(list, false, !0);
    }

    /// The legal captures of [`Position::legal_captures`] whose victim stands on `sq`,
    /// and possibly others (en passant, king captures elsewhere): filter by square. Made
    /// for a short list; when it fills up ([`MoveList::is_full`]) moves may be missing.
    pub fn legal_captures_on<const N: usize>(&self, sq: Square, list: &mut MoveList<N>) {
        self.legal(list, false, bb(sq));
    }

    /// Generates into `list`; `only` limits the destinations (victims for sentries) of
    /// every piece but the king.
    fn legal<const N: usize>(&self, list: &mut MoveList<N>, quiets: bool, only: Bitboard) {
        list.clear();
        let v = self.variant;
        let us = self.side;
        let Some(ksq) = self.king_sq(us) else {
            return;
        };
        if v.goal == Goal::KingCapture {
            let g = self.gen_ctx(only, quiets);
            self.generate(list, &g, !0, false);
            return;
        }
        let checkers = self.checkers();
        if v.simple {
            self.legal_simple(list, ksq, checkers, quiets, only);
        } else {
            self.legal_generic(list, ksq, checkers, quiets, only);
        }
    }

    /// The number of legal moves (perft's last ply).
    #[inline]
    pub fn legal_move_count(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.contains(m)
    }

    fn gen_ctx(&self, target: Bitboard, quiets: bool) -> Gen {
        let v = self.variant;
        let us = self.side;
        let occ = self.occupied();
        let own = self.by_color[us.idx()];
        let bearers = self.by_kind[Kind::Bearer.idx()];
        Gen {
            us,
            occ,
            own,
            dest: (!own | bearers) & v.mask,
            target,
            movable: own & !self.held(us) & !self.frozen,
            zone: self.mobility_zone(us),
            bearers,
            mask: v.mask,
            capmask: if quiets {
                !0
            } else {
                self.by_color[us.flip().idx()]
            },
            quiets,
        }
    }

    fn legal_simple<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        ksq: Square,
        checkers: Bitboard,
        quiets: bool,
        only: Bitboard,
    ) {
        let t = tables();
        let v = self.variant;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let own = self.by_color[us.idx()];
        let enemy = self.by_color[them.idx()];
        let k = &self.by_kind;
        let (target, drop_target) = match popcount(checkers) {
            0 => (!0, !0),
            1 => {
                let b = t.between(ksq, lsb(checkers));
                (b | checkers, b)
            }
            _ => (0, 0),
        };
        let snipers = ((t.rook(ksq, !v.mask) & (k[Kind::Rook.idx()] | k[Kind::Queen.idx()]))
            | (t.bishop(ksq, !v.mask)
                & (k[Kind::Bishop.idx()] | k[Kind::Queen.idx()] | k[Kind::ForwardBishop.idx()])))
            & enemy;
        let mut pinned = 0;
        for s in squares(snipers) {
            let b = t.between(ksq, s) & occ;
            if b & (b.wrapping_sub(1)) == 0 && b & own != 0 {
                pinned |= b;
            }
        }
        let g = self.gen_ctx(target & only, quiets);
        self.generate(list, &g, drop_target, checkers == 0 && quiets);
        list.retain(|m| match m.move_type() {
            MoveType::Drop | MoveType::Castle | MoveType::Pass => true,
            MoveType::EnPassant => !self.after(m).king_attacked(us),
            _ => {
                let from = m.from();
                if from == ksq {
                    self.attackers_to(m.to(), them, occ ^ bb(ksq), 0) == 0
                } else {
                    pinned & bb(from) == 0 || t.line(from, ksq) & bb(m.to()) != 0
                }
            }
        });
    }

    fn legal_generic<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        ksq: Square,
        checkers: Bitboard,
        quiets: bool,
        only: Bitboard,
    ) {
        let t = tables();
        let v = self.variant;
        let us = self.side;
        let in_check = checkers != 0;
        let own = self.by_color[us.idx()];
        let g = self.gen_ctx(only, quiets);
        self.generate(list, &g, !0, !in_check && quiets);
        if quiets && v.pass_when_held && !in_check && self.held(us) & bb(ksq) != 0 {
            list.push(Move::PASS);
        }
        let danger = t.queen(ksq, own | !v.mask);
        let jailers = self.by_kind[Kind::Jailer.idx()];
        list.retain(|m| {
            let safe = !in_check
                && match m.move_type() {
                    MoveType::Drop | MoveType::Pass => true,
                    MoveType::Normal | MoveType::Promotion => {
                        let from = bb(m.from());
                        from & (danger | jailers) == 0 && m.from() != ksq
                    }
                    _ => false,
                };
            safe || !self.after(m).king_attacked(us)
        });
    }

    /// Pseudo-legal moves (pass excluded). `castle` enables castling (only when not in check).
    fn generate<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        g: &Gen,
        drop_target: Bitboard,
        castle: bool,
    ) {
        let v = self.variant;
        let t = tables();
        let us = g.us;
        let k = &self.by_kind;
        let movable = g.movable;
        let slide_blk = g.occ | !g.mask | !g.zone;
        let dest = g.dest & g.target & g.zone & g.capmask;
        if v.has(Kind::Pawn) {
            self.gen_pawns(list, g);
        }
        for from in squares(k[Kind::Knight.idx()] & movable & g.zone) {
            self.push_all(list, g, from, t.knight(from) & dest);
        }
        let diag = (k[Kind::Bishop.idx()] | k[Kind::Queen.idx()]) & movable & g.zone;
        for from in squares(diag) {
            self.push_all(list, g, from, t.bishop(from, slide_blk) & dest);
        }
        let orth = (k[Kind::Rook.idx()] | k[Kind::Queen.idx()]) & movable & g.zone;
        for from in squares(orth) {
            self.push_all(list, g, from, t.rook(from, slide_blk) & dest);
        }
        if let Some(ksq) = self.king_sq(us).filter(|&s| movable & bb(s) != 0) {
            let kdest = if v.king_captures_own_bearer {
                g.dest
            } else {
                !g.own & g.mask
            };
            self.push_all(list, g, ksq, t.king(ksq) & kdest & g.capmask);
        }
        if v.kinds & !0x3F != 0 {
            self.gen_fairy(list, g, slide_blk, dest);
        }
        if v.drops && g.quiets {
            self.gen_drops(list, g, drop_target);
        }
        if castle && v.castling != Castling::None {
            self.gen_castling(list, g);
        }
    }

    /// The pieces beyond chess's: forward bishops, lancers (one move per allowed
    /// facing), jailers, sentries, standard-bearers and windmills.
    #[inline(always)]
    fn gen_fairy<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        g: &Gen,
        slide_blk: Bitboard,
        dest: Bitboard,
    ) {
        let v = self.variant;
        let t = tables();
        let us = g.us;
        let k = &self.by_kind;
        let movable = g.movable;
        if v.has(Kind::ForwardBishop) {
            for from in squares(k[Kind::ForwardBishop.idx()] & movable & g.zone) {
                let fwd = match us {
                    Color::White => (from + 8 < 64).then(|| bb(from + 8)),
                    Color::Black => from.checked_sub(8).map(bb),
                }
                .unwrap_or(0);
                self.push_all(list, g, from, (t.bishop(from, slide_blk) | fwd) & dest);
            }
        }
        if v.has(Kind::Lancer) {
            let enemy_blk = (g.occ & !g.own) | !g.mask | !g.zone;
            for from in squares(k[Kind::Lancer.idx()] & movable & g.zone) {
                let f = self.facing_at(from) as usize;
                let to_set = t.ray_attack(f, from, enemy_blk)
                    & !g.own
                    & g.mask
                    & g.target
                    & g.zone
                    & g.capmask;
                for to in squares(to_set) {
                    let base = Move::normal(from, to);
                    let ok = v.facing_ok[to as usize];
                    for nf in 0..8u8 {
                        if ok & (1 << nf) != 0 {
                            self.push_to(list, g, base.with_facing(nf), to);
                        }
                    }
                }
            }
        }
        if v.has(Kind::Jailer) && g.quiets {
            for from in squares(k[Kind::Jailer.idx()] & movable & g.zone) {
                let to_set = t.rook(from, slide_blk) & !g.occ & g.mask & g.target & g.zone;
                for to in squares(to_set) {
                    list.push(Move::normal(from, to));
                }
            }
        }
        if v.has(Kind::Sentry) {
            self.gen_sentries(list, g);
        }
        if v.has(Kind::Bearer) {
            let enemy_king = self.pieces_of(us.flip(), Kind::King);
            for from in squares(k[Kind::Bearer.idx()] & movable) {
                let to_set = t.king(from) & ((!g.occ & g.mask) | enemy_king) & g.target & g.capmask;
                for to in squares(to_set) {
                    list.push(Move::normal(from, to));
                }
            }
        }
        if v.has(Kind::Windmill) {
            let own_bearers = g.bearers & g.own;
            for from in squares(k[Kind::Windmill.idx()] & movable) {
                let reach = self.windmill_reaches(from, own_bearers, g.occ);
                self.push_all(list, g, from, reach & dest);
            }
        }
    }

    /// Drops from the hand of the side to move onto the empty squares of
    /// `drop_target` (no pawn on the first or last rank; a lancer in each facing
    /// allowed there).
    #[inline(always)]
    fn gen_drops<const N: usize>(&self, list: &mut MoveList<N>, g: &Gen, drop_target: Bitboard) {
        let v = self.variant;
        let us = g.us;
        let empty = !g.occ & g.mask & drop_target;
        for kind in ALL_KINDS {
            if self.hands[us.idx()][kind.idx()] == 0 {
                continue;
            }
            let squares_ok = if kind == Kind::Pawn {
                empty & !v.rank_bb(0) & !v.rank_bb(v.height - 1)
            } else {
                empty
            };
            for to in squares(squares_ok) {
                let m = Move::drop(kind, to);
                if kind == Kind::Lancer {
                    for nf in 0..8u8 {
                        if v.facing_ok[to as usize] & (1 << nf) != 0 {
                            list.push(m.with_facing(nf));
                        }
                    }
                } else {
                    list.push(m);
                }
            }
        }
    }

    /// Pushes a move from `from` to each square of `to_set`.
    #[inline(always)]
    fn push_all<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        g: &Gen,
        from: Square,
        to_set: Bitboard,
    ) {
        if g.bearers == 0 {
            for to in squares(to_set) {
                list.push(Move::normal(from, to));
            }
        } else {
            for to in squares(to_set) {
                self.push_to(list, g, Move::normal(from, to), to);
            }
        }
    }

    /// Pushes `m`, expanded into one move per displacement square when it captures a bearer.
    #[inline(always)]
    fn push_to<const N: usize>(&self, list: &mut MoveList<N>, g: &Gen, m: Move, to: Square) {
        if g.bearers & bb(to) != 0 {
            let empties = tables().king(to) & g.mask & !(g.occ ^ bb(m.from()));
            for s in squares(empties) {
                list.push(m.with_displacement(s));
            }
        } else {
            list.push(m);
        }
    }

    fn push_promotions<const N: usize>(
        &self,
        list: &mut MoveList<N>,
        g: &Gen,
        from: Square,
        to: Square,
    ) {
        let v = self.variant;
        let base = Move::new(MoveType::Promotion, from, to);
        for &kind in &v.promotions {
            if popcount(self.pieces_of(g.us, kind)) >= v.limits[kind.idx()] as u32 {
                continue;
            }
            let m = base.with_kind(kind);
            if kind == Kind::Lancer {
                for nf in 0..8u8 {
                    if v.facing_ok[to as usize] & (1 << nf) != 0 {
                        self.push_to(list, g, m.with_facing(nf), to);
                    }
                }
            } else {
                self.push_to(list, g, m, to);
            }
        }
    }

    fn gen_pawns<const N: usize>(&self, list: &mut MoveList<N>, g: &Gen) {
        let v = self.variant;
        let us = g.us;
        let pawns = self.pieces_of(us, Kind::Pawn) & g.movable & g.zone;
        if pawns == 0 {
            return;
        }
        let empty = !g.occ & g.mask & g.zone;
        let enemy = g.occ & !g.own;
        let capt = (enemy | (g.bearers & g.own)) & g.mask & g.zone & g.target & g.capmask;
        let prom = v.rank_bb(v.promotion_rank(us));
        let third = match us {
            Color::White => v.rank_bb(2),
            Color::Black => v.rank_bb(v.height.saturating_sub(3)),
        };
        let (up, single, left, right, dl, dr): (i8, Bitboard, Bitboard, Bitboard, i8, i8) = match us
        {
            Color::White => (
                8,
                (pawns << 8) & empty,
                (pawns << 7) & NOT_H & capt,
                (pawns << 9) & NOT_A & capt,
                7,
                9,
            ),
            Color::Black => (
                -8,
                (pawns >> 8) & empty,
                (pawns >> 9) & NOT_H & capt,
                (pawns >> 7) & NOT_A & capt,
                -9,
                -7,
            ),
        };
        let sub = |to: Square, d: i8| (to as i8 - d) as Square;
        let double = if v.double_step {
            match us {
                Color::White => ((single & third) << 8) & empty,
                Color::Black => ((single & third) >> 8) & empty,
            }
        } else {
            0
        };
        if g.quiets {
            for to in squares(single & g.target & !prom) {
                list.push(Move::normal(sub(to, up), to));
            }
            for to in squares(double & g.target) {
                list.push(Move::normal(sub(to, 2 * up), to));
            }
        }
        for to in squares(left & !prom) {
            self.push_to(list, g, Move::normal(sub(to, dl), to), to);
        }
        for to in squares(right & !prom) {
            self.push_to(list, g, Move::normal(sub(to, dr), to), to);
        }
        if (single | left | right) & prom != 0 {
            for to in squares(single & g.target & prom) {
                self.push_promotions(list, g, sub(to, up), to);
            }
            for to in squares(left & prom) {
                self.push_promotions(list, g, sub(to, dl), to);
            }
            for to in squares(right & prom) {
                self.push_promotions(list, g, sub(to, dr), to);
            }
        }
        if self.ep != NO_SQUARE && v.en_passant {
            for from in squares(tables().pawn(us.flip().idx(), self.ep) & pawns) {
                list.push(Move::new(MoveType::EnPassant, from, self.ep));
            }
        }
    }

    fn gen_sentries<const N: usize>(&self, list: &mut MoveList<N>, g: &Gen) {
        let t = tables();
        let v = self.variant;
        let blk = g.occ | !g.mask;
        let enemy = g.occ & !g.own;
        for from in squares(self.pieces_of(g.us, Kind::Sentry) & g.movable & g.zone) {
            if g.quiets {
                for to in
                    squares(t.bishop(from, blk | !g.zone) & !g.occ & g.mask & g.target & g.zone)
                {
                    list.push(Move::normal(from, to));
                }
            }
            for d in DIAGONALS {
                let victim = t.ray_attack(d, from, blk) & enemy & g.mask;
                if victim == 0 {
                    continue;
                }
                let vs = lsb(victim);
                if g.target & bb(vs) == 0 {
                    continue;
                }
                match step(vs, d) {
                    Some(b) if v.on_board(b) => {
                        if g.occ & bb(b) == 0 {
                            list.push(Move::new(MoveType::SentryCapture, from, vs).with_aux(b));
                        }
                    }
                    _ => list.push(Move::new(MoveType::SentryEdge, from, vs)),
                }
            }
        }
    }

    fn gen_castling<const N: usize>(&self, list: &mut MoveList<N>, g: &Gen) {
        let t = tables();
        let v = self.variant;
        let us = g.us;
        let them = us.flip();
        let Some(ksq) = self.king_sq(us) else {
            return;
        };
        if g.movable & bb(ksq) == 0 {
            return;
        }
        let enemy = g.occ & !g.own;
        let jailers = self.pieces_of(us, Kind::Jailer);
        for slot in [us.idx() * 2, us.idx() * 2 + 1] {
            let p = self.castle[slot];
            if p == NO_SQUARE || g.movable & bb(p) == 0 {
                continue;
            }
            let (kto, pto) = self.castle_targets(ksq, p);
            let lifted = bb(ksq) | bb(p);
            let king_path = t.between(ksq, kto) | bb(kto);
            let partner_pass = t.between(p, pto) & !king_path & !lifted;
            let is_lancer = self.board[p as usize].kind() == Kind::Lancer;
            let mut must_empty = (king_path | bb(pto)) & !lifted;
            if is_lancer {
                if partner_pass & enemy != 0 {
                    continue;
                }
            } else {
                must_empty |= partner_pass;
            }
            if g.occ & must_empty != 0 {
                continue;
            }
            let occ_lifted = g.occ & !lifted;
            let held_them = if jailers != 0 {
                orth_neighbours(jailers & !bb(p)) & enemy
            } else {
                0
            };
            let attacked = squares(king_path)
                .any(|s| self.attackers_to(s, them, occ_lifted | bb(s), held_them) != 0);
            if attacked {
                continue;
            }
            let m = Move::new(MoveType::Castle, ksq, p);
            if is_lancer {
                for nf in 0..8u8 {
                    if v.facing_ok[pto as usize] & (1 << nf) != 0 {
                        list.push(m.with_facing(nf));
                    }
                }
            } else {
                list.push(m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::moves::MoveType;
    use crate::rules::{Move, MoveList, Position, Variants};

    /// Plays `games` random games of up to `plies` plies from each variant's start,
    /// calling `f` with every position reached that has a legal move, and its moves.
    fn random_playouts(
        seed: u64,
        games: usize,
        plies: usize,
        mut f: impl FnMut(&Position, &MoveList),
    ) {
        let vs = Variants::builtin();
        let mut seed = seed;
        let mut rnd = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for v in vs.all() {
            for _ in 0..games {
                let mut p = Position::from_efen(v, &v.default_start_fen()).unwrap();
                for _ in 0..plies {
                    let mut all = MoveList::new();
                    p.legal_moves(&mut all);
                    if all.is_empty() {
                        break;
                    }
                    f(&p, &all);
                    p.do_move(all[rnd(all.len())]);
                }
            }
        }
    }

    /// The capture generator gives exactly the legal moves that capture (or promote by
    /// a push), in every variant, over random playouts; and on any one square, exactly
    /// those that take the piece there.
    #[test]
    fn captures_are_the_capturing_legal_moves() {
        random_playouts(12345, 30, 120, |p, all| {
            let name = &p.variant().name;
            let mut caps = MoveList::new();
            p.legal_captures(&mut caps);
            let them = p.pieces(p.side().flip());
            let want: Vec<_> = all
                .iter()
                .copied()
                .filter(|m| match m.move_type() {
                    MoveType::EnPassant | MoveType::SentryCapture | MoveType::SentryEdge => true,
                    MoveType::Promotion => true,
                    MoveType::Normal => them & (1u64 << m.to()) != 0,
                    _ => false,
                })
                .collect();
            let mut got: Vec<_> = caps.iter().copied().collect();
            let mut w = want.clone();
            got.sort_by_key(|m| m.0);
            w.sort_by_key(|m| m.0);
            assert_eq!(got, w, "{name}: {}", p.efen());
            // On one square: the same captures of the piece there.
            for sq in crate::rules::bitboard::squares(them) {
                let on = |m: &Move| m.to() == sq && m.move_type() != MoveType::EnPassant;
                let mut short = MoveList::<64>::empty();
                p.legal_captures_on(sq, &mut short);
                assert!(!short.is_full(), "{name}: {} on {sq}", p.efen());
                let mut got: Vec<_> = short.iter().copied().filter(on).collect();
                let mut w: Vec<_> = want.iter().copied().filter(on).collect();
                got.sort_by_key(|m| m.0);
                w.sort_by_key(|m| m.0);
                assert_eq!(got, w, "{name}: {} on {sq}", p.efen());
            }
        });
    }

    /// The check test without playing the move agrees with playing it, over random
    /// playouts in every variant (it answers only in the chess family, and must there
    /// answer every plain move and promotion).
    #[test]
    fn fast_check_test_agrees_with_playing_the_move() {
        let mut answered = 0;
        let mut checks = 0;
        random_playouts(777, 20, 150, |p, all| {
            let name = &p.variant().name;
            for &m in all.iter() {
                let fast = p.gives_check_fast(m);
                let plain = matches!(m.move_type(), MoveType::Normal | MoveType::Promotion);
                assert_eq!(
                    fast.is_some(),
                    p.variant().simple() && plain,
                    "{name}: {} {m:?}",
                    p.efen()
                );
                if let Some(g) = fast {
                    assert_eq!(g, p.after(m).in_check(), "{name}: {} {m:?}", p.efen());
                    answered += 1;
                    checks += g as usize;
                }
            }
        });
        assert!(
            answered > 10_000 && checks > 100,
            "{answered} moves, {checks} checks"
        );
    }
}
