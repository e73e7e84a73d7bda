//! Pawn structure: doubled, isolated and passed pawns. A passed pawn is worth less
//! while its side may not promote (Lighthouse's one-queen limit).

use super::Score;
use crate::rules::bitboard::*;
use crate::rules::{Color, Kind, Position};

const FILE_A: Bitboard = 0x0101_0101_0101_0101;

/// Pawn-structure score of side `c`.
pub fn side(pos: &Position, c: Color) -> Score {
    let v = pos.variant();
    let own = pos.pieces_of(c, Kind::Pawn);
    if own == 0 {
        return Score::default();
    }
    let theirs = pos.pieces_of(c.flip(), Kind::Pawn);
    let promo_blocked = v
        .promotions
        .iter()
        .all(|&k| popcount(pos.pieces_of(c, k)) >= v.limits[k.idx()] as u32);
    let mut s = Score::default();
    for sq in squares(own) {
        let f = file_of(sq);
        let file = FILE_A << f;
        let adj = (if f > 0 { FILE_A << (f - 1) } else { 0 })
            | (if f < 7 { FILE_A << (f + 1) } else { 0 });
        if popcount(own & file) > 1 {
            s -= Score::new(6, 14);
        }
        if own & adj == 0 {
            s -= Score::new(8, 12);
        }
        let ahead = match c {
            Color::White if rank_of(sq) >= 7 => 0,
            Color::White => !0u64 << (8 * (rank_of(sq) as u32 + 1)),
            Color::Black => (1u64 << (8 * rank_of(sq) as u32)) - 1,
        };
        if theirs & (file | adj) & ahead == 0 {
            let rel = match c {
                Color::White => rank_of(sq) as i32,
                Color::Black => v.height as i32 - 1 - rank_of(sq) as i32,
            };
            let mut bonus = Score::new(4 * rel + rel * rel, 8 * rel + 3 * rel * rel);
            if promo_blocked {
                bonus = Score::new(bonus.mg / 3, bonus.eg / 3);
            }
            s += bonus;
        }
    }
    s
}
