//! Material: pieces on the board, held units, pieces in hand, and the game phase.

use super::params::{BISHOP_PAIR, HAND, HELD, VALUE};
use super::Acc;
use crate::rules::bitboard::*;
use crate::rules::variant::phase_weight;
use crate::rules::{Color, Kind, Position};

/// Material of side `c`: each piece its value; a held one (8-Piece) its held weight on
/// top; pieces in hand (drop variants) their hand value.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, acc: &mut A) {
    let held = pos.held(c);
    for k in crate::rules::piece::ALL_KINDS {
        let b = pos.pieces_of(c, k);
        if b == 0 {
            continue;
        }
        acc.add(VALUE + k.idx(), popcount(b) as i32);
        let h = popcount(b & held) as i32;
        if h > 0 {
            acc.add(HELD + k.idx(), h);
        }
    }
    if popcount(pos.pieces_of(c, Kind::Bishop)) >= 2 {
        acc.add(BISHOP_PAIR, 1);
    }
    if pos.variant().drops {
        for k in crate::rules::piece::ALL_KINDS {
            let n = pos.hand(c, k) as i32;
            if n > 0 {
                acc.add(HAND + k.idx(), n);
            }
        }
    }
}

/// Game phase 0 (endgame) ..= 256 (start material).
pub fn phase(pos: &Position) -> i32 {
    let v = pos.variant();
    let mut p = 0;
    for k in crate::rules::piece::ALL_KINDS {
        let w = phase_weight(k);
        if w > 0 {
            let mut n = popcount(pos.kind_bb(k)) as i32;
            if v.drops {
                n += pos.hand(Color::White, k) as i32 + pos.hand(Color::Black, k) as i32;
            }
            p += w * n;
        }
    }
    (p.min(v.start_phase()) * 256) / v.start_phase().max(1)
}
