//! Pawn structure: doubled, isolated, backward and passed pawns. A passed pawn is worth less
//! while its side may not promote (Lighthouse's one-queen limit).

use super::params::{
    BACKWARD, CONNECTED, DOUBLED, ISOLATED, KING_PAWN_DIST, PASSED, PASSED_BLOCKED, PASSED_FREE,
    PASSED_KING_OWN, PASSED_KING_THEIR,
};
use super::Acc;
use crate::rules::bitboard::*;
use crate::rules::geometry::{adjacent_files, distance, front, ranks_ahead, FILE_A};
use crate::rules::{Color, Kind, Position};

/// Pawn structure of side `c`.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, acc: &mut A) {
    let v = pos.variant();
    let own = pos.pieces_of(c, Kind::Pawn);
    if own == 0 {
        return;
    }
    let theirs = pos.pieces_of(c.flip(), Kind::Pawn);
    if let Some(k) = pos.king_sq(c) {
        let d = squares(own).map(|s| distance(s, k)).min().unwrap_or(0);
        acc.add(KING_PAWN_DIST, d);
    }
    let promo_blocked = v
        .promotions
        .iter()
        .all(|&k| popcount(pos.pieces_of(c, k)) >= v.limits[k.idx()] as u32);
    for sq in squares(own) {
        let f = file_of(sq);
        let file = FILE_A << f;
        let adj = adjacent_files(f);
        if popcount(own & file) > 1 {
            acc.add(DOUBLED, 1);
        }
        let ahead = ranks_ahead(c, sq);
        let stop = front(c, sq);
        let rank = 0xFFu64 << (8 * rank_of(sq) as u32);
        if tables().pawn(c.flip().idx(), sq) & own != 0 || own & adj & rank != 0 {
            acc.add(CONNECTED + (v.relative_rank(c, sq) as usize).min(7), 1);
        }
        if own & adj == 0 {
            acc.add(ISOLATED, 1);
        } else if own & adj & !ahead == 0
            && stop.is_some_and(|s| tables().pawn(c.idx(), s) & theirs != 0)
        {
            acc.add(BACKWARD, 1);
        }
        if theirs & (file | adj) & ahead == 0 {
            let rel = v.relative_rank(c, sq) as i32;
            // The kings' race to the promotion square matters more the further it is.
            if rel >= 3 {
                let promo = square(file_of(sq), v.promotion_rank(c));
                let dist = |k: Option<Square>| k.map_or(0, |k| distance(k, promo));
                acc.add(PASSED_KING_OWN, dist(pos.king_sq(c)) * (rel - 2));
                acc.add(PASSED_KING_THEIR, dist(pos.king_sq(c.flip())) * (rel - 2));
            }
            let rel = rel.clamp(0, 7) as usize;
            if stop.is_some_and(|s| v.on_board(s) && pos.occupied() & bb(s) == 0) {
                acc.add(PASSED_FREE + rel, 1);
            }
            acc.add(
                if promo_blocked {
                    PASSED_BLOCKED
                } else {
                    PASSED
                } + rel,
                1,
            );
        }
    }
}
