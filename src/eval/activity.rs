//! Piece activity: mobility (under the mobility rule where it applies), the lancer's
//! facing, the jailer's holds, the sentry's capture chances, standard-bearer range,
//! the windmill's pivots (each a ring it can turn on);
//! and, from the same attack sets, the attack on the enemy king that [`super::king`]
//! scores.

use super::params::*;
use super::{count, Acc};
use crate::rules::bitboard::*;
use crate::rules::geometry::{adjacent_files, front, ranks_ahead, FILE_A};
use crate::rules::{Color, Kind, Position};

/// The attack a side brings against the enemy king.
#[derive(Clone, Copy, Default, Debug)]
pub struct Attack {
    /// Attack units: each attacked king-zone square weighted by its attacker's kind.
    pub units: i32,
    /// Pieces attacking the zone (pieces in hand count as one).
    pub attackers: i32,
    /// Squares where the side could capture a piece (its king's included; its
    /// standard-bearers', which capture only the king, not).
    pub all: Bitboard,
    /// Squares its pawns attack.
    pub by_pawn: Bitboard,
    /// Squares its minor pieces attack (knight, bishops, sentry, windmill).
    pub by_minor: Bitboard,
    /// Squares its king attacks.
    pub by_king: Bitboard,
    /// Squares its rooks and lancers attack.
    pub by_rook: Bitboard,
    /// Squares from which its pieces of each of [`CHECK_KINDS`] could check the enemy
    /// king.
    pub checks: [Bitboard; 4],
}

/// The dark squares (a1's colour).
const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;

/// King-attack weight of a piece near the enemy king.
fn attack_weight(k: Kind) -> i32 {
    match k {
        Kind::Queen => 5,
        Kind::Rook | Kind::Lancer => 3,
        Kind::Knight | Kind::Bishop | Kind::ForwardBishop | Kind::Sentry | Kind::Windmill => 2,
        Kind::Pawn => 1,
        // It captures nothing but the king: one next to the king's square wins it.
        Kind::Bearer => 3,
        _ => 0,
    }
}

/// What a side's pieces see: the board as each of them needs it.
struct View {
    /// The board's squares.
    mask: Bitboard,
    occ: Bitboard,
    own: Bitboard,
    enemy: Bitboard,
    /// Blockers for sliders: pieces, holes, and squares outside the mobility zone.
    blk: Bitboard,
    /// Squares that count for mobility.
    targets: Bitboard,
    king_zone: Bitboard,
    /// Where each of [`CHECK_KINDS`] checks the enemy king from.
    check_from: [Bitboard; 4],
    own_pawns: Bitboard,
    their_pawns: Bitboard,
}

/// Activity of side `c`, and its attack on the enemy king.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, acc: &mut A) -> Attack {
    let v = pos.variant();
    let t = tables();
    let them = c.flip();
    let occ = pos.occupied();
    let own = pos.pieces(c);
    let zone = pos.mobility_zone(c);
    let enemy_king = pos.king_sq(them);
    let real = occ | !v.mask;
    let view = View {
        mask: v.mask,
        occ,
        own,
        enemy: pos.pieces(them),
        blk: occ | !v.mask | !zone,
        targets: !own & v.mask & zone,
        king_zone: enemy_king.map_or(0, |k| (t.king(k) | bb(k)) & v.mask),
        // Sliding rays stop on the first square off the board: `v.mask` keeps only real ones.
        check_from: enemy_king.map_or([0; 4], |k| {
            let (b, r) = (t.bishop(k, real), t.rook(k, real));
            [t.knight(k), b, r, b | r]
        }),
        own_pawns: pos.pieces_of(c, Kind::Pawn),
        their_pawns: pos.pieces_of(them, Kind::Pawn),
    };
    let mut attack = Attack::default();
    let free = own & !pos.held(c);
    // Pawns all at once: each attacks its two forward diagonals and nothing else
    // counts for them, so shifts of the whole set do what a loop over them would.
    let pawns = free & view.own_pawns;
    if pawns != 0 {
        pawn_tally(c, pawns, &view, acc, &mut attack);
    }
    for sq in squares(free & !pawns) {
        let k = pos.piece_at(sq).kind();
        placement(pos, c, sq, k, &view, acc);
        let att = piece_attacks(pos, c, sq, k, &view, acc, &mut attack);
        tally(k, att, &view, acc, &mut attack);
    }
    // The sentries' victims are so far only in `by_minor`.
    attack.all |= attack.by_minor;
    if let Some(k) = pos.king_sq(c) {
        attack.by_king = t.king(k) & v.mask;
        attack.all |= attack.by_king;
    }
    // Pieces in hand can be dropped next to the king.
    if v.drops {
        let hand: i32 = crate::rules::piece::ALL_KINDS
            .iter()
            .map(|&k| pos.hand(c, k) as i32 * attack_weight(k).max(1))
            .sum();
        attack.units += hand;
        attack.attackers += (hand > 0) as i32;
    }
    if v.mobility_rule {
        let bearers = pos.pieces_of(c, Kind::Bearer);
        // Pieces outside every bearer's range cannot move.
        let exempt = bearers | pos.pieces_of(c, Kind::King);
        acc.add(OUT_OF_RANGE, count(own & !exempt & !zone));
        acc.add(FROZEN_BEARER, count(bearers & pos.frozen()));
    }
    attack
}

/// Where a rook or a minor piece stands against the pawns: open files, a bishop's
/// pawns on its colour, a minor behind a pawn, outposts.
#[inline(always)]
fn placement<A: Acc>(pos: &Position, c: Color, sq: Square, k: Kind, view: &View, acc: &mut A) {
    let (own_pawns, their_pawns) = (view.own_pawns, view.their_pawns);
    match k {
        Kind::Rook => {
            let file = FILE_A << file_of(sq);
            if file & own_pawns == 0 {
                acc.add(
                    if file & their_pawns == 0 {
                        ROOK_OPEN
                    } else {
                        ROOK_SEMI_OPEN
                    },
                    1,
                );
            }
        }
        Kind::Knight | Kind::Bishop => {
            if k == Kind::Bishop {
                let colour = if bb(sq) & DARK != 0 { DARK } else { !DARK };
                acc.add(BISHOP_PAWNS, count(own_pawns & colour));
            }
            if front(c, sq).is_some_and(|f| own_pawns & bb(f) != 0) {
                acc.add(MINOR_BEHIND_PAWN, 1);
            }
            let rel = pos.variant().relative_rank(c, sq) as i32;
            let adj = adjacent_files(file_of(sq));
            if (3..=5).contains(&rel)
                && tables().pawn(c.flip().idx(), sq) & own_pawns != 0
                && their_pawns & adj & ranks_ahead(c, sq) == 0
            {
                acc.add(OUTPOST, 1);
            }
        }
        _ => {}
    }
}

/// The squares the piece of kind `k` on `sq` attacks, with the terms its kind earns
/// on the way (a lancer's jumps, a jailer's holds, a sentry's capture chances, a
/// windmill's pivots).
#[inline(always)]
fn piece_attacks<A: Acc>(
    pos: &Position,
    c: Color,
    sq: Square,
    k: Kind,
    view: &View,
    acc: &mut A,
    attack: &mut Attack,
) -> Bitboard {
    let v = pos.variant();
    let t = tables();
    let (occ, own, blk) = (view.occ, view.own, view.blk);
    match k {
        Kind::Knight => t.knight(sq),
        Kind::Bishop => t.bishop(sq, blk),
        Kind::Rook => t.rook(sq, blk),
        Kind::Queen => t.queen(sq, blk),
        Kind::ForwardBishop => t.bishop(sq, blk) | front(c, sq).map_or(0, bb),
        Kind::Lancer => {
            let f = pos.facing_at(sq) as usize;
            let ray = t.ray_attack(f, sq, (occ & !own) | !v.mask);
            let moves = ray & !own & v.mask;
            acc.add(LANCER_JUMP, count(ray & own));
            if moves == 0 {
                // Facing the edge or a friendly wall: it must wait for nothing.
                acc.add(LANCER_STUCK, 1);
            }
            moves
        }
        Kind::Jailer => {
            // Holding power: every enemy unit it holds is worth a bonus beyond the
            // value the held unit loses.
            acc.add(JAILER_HOLD, count(t.orth_adjacent(sq) & view.enemy));
            t.rook(sq, blk) & !occ
        }
        Kind::Sentry => {
            let quiet = t.bishop(sq, blk) & !occ;
            let mut chances = 0;
            for d in DIAGONALS {
                let victim = t.ray_attack(d, sq, occ | !v.mask) & view.enemy & v.mask;
                if victim != 0 {
                    let beyond = step(lsb(victim), d);
                    if beyond.is_none_or(|b| !v.on_board(b) || occ & bb(b) == 0) {
                        chances += 1;
                        attack.by_minor |= victim;
                    }
                }
            }
            acc.add(SENTRY_CHANCE, chances);
            quiet
        }
        Kind::Windmill => {
            let pivots = t.king(sq) & pos.pieces_of(c, Kind::Bearer);
            acc.add(WINDMILL_PIVOTS, count(pivots));
            pos.windmill_reaches(sq, pos.pieces_of(c, Kind::Bearer), occ)
        }
        Kind::Bearer if pos.frozen() & bb(sq) == 0 => t.king(sq) & v.mask,
        _ => 0,
    }
}

/// The squares that pawns of side `c` on `pawns` attack toward the lower and the
/// higher file, the same squares as the pawn table's, one set per diagonal.
#[inline(always)]
pub(crate) fn pawn_diagonals(c: Color, pawns: Bitboard) -> [Bitboard; 2] {
    let (west, east) = (pawns & !FILE_A, pawns & !(FILE_A << 7));
    match c {
        Color::White => [west << 7, east << 9],
        Color::Black => [west >> 9, east >> 7],
    }
}

/// [`tally`] for all of side `c`'s pawns on `pawns` at once.
#[inline(always)]
fn pawn_tally<A: Acc>(c: Color, pawns: Bitboard, view: &View, acc: &mut A, attack: &mut Attack) {
    let [west, east] = pawn_diagonals(c, pawns);
    let att = west | east;
    attack.all |= att;
    attack.by_pawn |= att;
    let units = count(west & view.king_zone) + count(east & view.king_zone);
    if units != 0 {
        // The pawns that attack the zone stand where the other side's pawns would
        // attack it from.
        let [a, b] = pawn_diagonals(c.flip(), view.king_zone);
        attack.attackers += count(pawns & (a | b));
        attack.units += attack_weight(Kind::Pawn) * units;
        acc.add(KING_ATTACK + Kind::Pawn.idx(), units);
    }
}

/// Adds the attacks `att` of a piece of kind `k` (not a pawn: see [`pawn_tally`]) to
/// the side's attack sets, its mobility, and its attack on the enemy king.
#[inline(always)]
fn tally<A: Acc>(k: Kind, att: Bitboard, view: &View, acc: &mut A, attack: &mut Attack) {
    debug_assert!(k != Kind::Pawn, "pawns go through pawn_tally");
    // A standard-bearer captures nothing but the king: its squares are not attacks
    // on pieces (the king zone below still counts them).
    if k != Kind::Bearer {
        attack.all |= att;
    }
    if let Some(i) = CHECK_KINDS.iter().position(|&x| x == k) {
        attack.checks[i] |= att & view.check_from[i] & view.mask;
    }
    match k {
        Kind::Rook | Kind::Lancer => attack.by_rook |= att,
        Kind::Knight | Kind::Bishop | Kind::ForwardBishop | Kind::Sentry | Kind::Windmill => {
            attack.by_minor |= att
        }
        _ => {}
    }
    let mob = count(att & view.targets);
    acc.add(MOBILITY + k.idx(), mob);
    if mob < 3 && !matches!(k, Kind::King | Kind::Bearer) {
        acc.add(LOW_MOBILITY + k.idx(), 3 - mob);
    }
    let a = att & view.king_zone;
    if a != 0 {
        attack.attackers += 1;
        attack.units += attack_weight(k) * count(a);
        acc.add(KING_ATTACK + k.idx(), count(a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_diagonals_are_the_pawn_table() {
        let t = tables();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            // A xorshift sequence: sparse and dense sets, edges included.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pawns = x & x.rotate_left(23);
            for c in [Color::White, Color::Black] {
                let [west, east] = pawn_diagonals(c, pawns);
                let mut want = [0; 2];
                for sq in squares(pawns) {
                    let a = t.pawn(c.idx(), sq);
                    for s in squares(a) {
                        want[usize::from(file_of(s) > file_of(sq))] |= bb(s);
                    }
                }
                assert_eq!([west, east], want, "{c:?} pawns {pawns:#x}");
            }
        }
    }
}
