//! Square tables that work on any board size, built from features per piece kind:
//! distance from the centre, ranks advanced, a weight per relative rank and per file
//! (from the nearer edge); plus the pawn's central files and the king's rank.

use super::params::{Params, ADVANCE, CENTRE, FILE, KING_RANK, KING_RANK_FAR, PAWN_CENTRAL, RANK};
use super::tables::Tables;
use super::{Acc, MgEg};
use crate::rules::bitboard::*;
use crate::rules::variant::Variant;
use crate::rules::{Color, Kind, Position};

/// Distance from the board centre in half-squares (0 in the middle).
#[inline(always)]
fn centre_distance(w: u8, h: u8, sq: Square) -> i32 {
    let fx = (2 * file_of(sq) as i32 - (w as i32 - 1)).abs();
    let fy = (2 * rank_of(sq) as i32 - (h as i32 - 1)).abs();
    fx + fy
}

/// Square-table score of side `c`.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, t: &Tables, acc: &mut A) {
    if A::TRACE {
        let v = pos.variant();
        for sq in squares(pos.pieces(c)) {
            features(v, pos.piece_at(sq).kind(), c, sq, |i, n| acc.add(i, n));
        }
    } else {
        let mut s = MgEg::default();
        for sq in squares(pos.pieces(c)) {
            s += t.pst[c.idx()][pos.piece_at(sq).kind().idx()][sq as usize];
        }
        acc.add_squares(s);
    }
}

/// The features of a `k` of side `c` on `sq` in variant `v`, as (weight, count) pairs.
pub fn features(v: &Variant, k: Kind, c: Color, sq: Square, mut f: impl FnMut(usize, i32)) {
    let (w, h) = (v.width, v.height);
    let cd = centre_distance(w, h, sq);
    let rel_rank = v.relative_rank(c, sq) as i32;
    f(CENTRE + k.idx(), cd);
    f(ADVANCE + k.idx(), rel_rank);
    f(RANK + 8 * k.idx() + rel_rank.clamp(0, 7) as usize, 1);
    let edge = (file_of(sq) as i32).min(w as i32 - 1 - file_of(sq) as i32);
    f(FILE + 4 * k.idx() + edge.clamp(0, 3) as usize, 1);
    match k {
        Kind::Pawn if rel_rank >= 2 => {
            let central = 3 - (2 * file_of(sq) as i32 - (w as i32 - 1)).abs().min(6) / 2;
            f(PAWN_CENTRAL, central);
        }
        Kind::King => {
            f(KING_RANK, rel_rank.min(3));
            f(KING_RANK_FAR, (rel_rank - 3).max(0));
        }
        _ => {}
    }
}

/// The square-table entry of a `k` of side `c` on `sq` in variant `v`.
pub fn entry(v: &Variant, p: &Params, k: Kind, c: Color, sq: Square) -> MgEg {
    let mut s = MgEg::default();
    features(v, k, c, sq, |i, n| s += p.w[i] * n);
    s
}
