//! Generic square tables that work on any board size: centrality for pieces,
//! advance for pawns, shelter for the king in the middlegame.

use super::tables::Tables;
use super::Score;
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
pub fn side(pos: &Position, c: Color, t: &Tables) -> Score {
    let mut s = Score::default();
    for sq in squares(pos.pieces(c)) {
        s += t.pst[c.idx()][pos.piece_at(sq).kind().idx()][sq as usize];
    }
    s
}

/// The square-table entry of a `k` of side `c` on `sq` in variant `v`.
pub fn entry(v: &Variant, k: Kind, c: Color, sq: Square) -> Score {
    let (w, h) = (v.width, v.height);
    {
        let cd = centre_distance(w, h, sq);
        let rel_rank = match c {
            Color::White => rank_of(sq) as i32,
            Color::Black => h as i32 - 1 - rank_of(sq) as i32,
        };
        match k {
            Kind::Pawn => {
                let central = 3 - (2 * file_of(sq) as i32 - (w as i32 - 1)).abs().min(6) / 2;
                Score::new(
                    rel_rank * 3 + central * 4 * (rel_rank >= 2) as i32,
                    rel_rank * 6,
                )
            }
            Kind::Knight => Score::new(-4 * cd, -4 * cd),
            Kind::Bishop | Kind::ForwardBishop | Kind::Sentry => Score::new(-2 * cd, -2 * cd),
            Kind::Jailer | Kind::Windmill => Score::new(-2 * cd, -2 * cd),
            Kind::Queen => Score::new(-cd, -2 * cd),
            Kind::Rook | Kind::Lancer => Score::new(0, -cd),
            Kind::King => {
                if v.goal == crate::rules::variant::Goal::KingCapture {
                    Score::new(-3 * rel_rank, -cd)
                } else {
                    Score::new(-12 * rel_rank.min(3), -4 * cd)
                }
            }
            Kind::Bearer => Score::new(-cd, -cd),
        }
    }
}
