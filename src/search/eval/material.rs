//! Material: piece values, pieces in hand, held units, game phase.

use super::tables::Tables;
use super::Score;
use crate::rules::bitboard::*;
use crate::rules::variant::{phase_weight, Variant};
use crate::rules::{Color, Kind, Position};

/// Value of a piece of `k` on the board in this variant (middlegame, endgame).
/// Chess values; the lancer 4.75, jailer ~3.75 and sentry ~2.35 pawns as their
/// inventor gives them; Lighthouse values shrink the long-range pieces on its 4-file
/// board; The Royal Standard's windmill is an estimate (a short-range piece tied
/// to its bearers). A variant with `smallBoardValues` (Lighthouse) gets the
/// small-board values.
pub fn value(v: &Variant, k: Kind) -> Score {
    let small = v.small_board_values;
    match k {
        Kind::Pawn => Score::new(90, 120),
        Kind::Knight => {
            if small {
                Score::new(280, 260)
            } else {
                Score::new(310, 300)
            }
        }
        Kind::Bishop => Score::new(330, 340),
        Kind::ForwardBishop => Score::new(330, 330),
        Kind::Rook => {
            if small {
                Score::new(430, 470)
            } else {
                Score::new(480, 520)
            }
        }
        Kind::Queen => {
            if small {
                Score::new(800, 850)
            } else {
                Score::new(920, 960)
            }
        }
        Kind::Lancer => Score::new(460, 490),
        Kind::Jailer => Score::new(370, 380),
        Kind::Sentry => Score::new(235, 240),
        Kind::Windmill => Score::new(260, 280),
        Kind::King | Kind::Bearer => Score::new(0, 0),
    }
}

/// Material of side `c`: pieces on the board (held ones lose most of their value),
/// pieces in hand (worth more than on the board: they can go anywhere).
pub fn side(pos: &Position, c: Color, t: &Tables) -> Score {
    let v = pos.variant();
    let held = pos.held(c);
    {
        let mut s = Score::default();
        for k in crate::rules::piece::ALL_KINDS {
            let b = pos.pieces_of(c, k);
            if b == 0 {
                continue;
            }
            let val = t.value[k.idx()];
            let h = popcount(b & held) as i32;
            s += val * (popcount(b) as i32 - h);
            if h > 0 {
                // A held unit cannot move, capture or defend until its jailer leaves.
                s += Score::new(val.mg * 2 / 5, val.eg * 2 / 5) * h;
                if k == Kind::King {
                    s -= Score::new(45, 25);
                }
            }
        }
        if v.drops {
            for k in crate::rules::piece::ALL_KINDS {
                let n = pos.hand(c, k) as i32;
                if n > 0 {
                    let val = t.value[k.idx()];
                    s += Score::new(val.mg * 6 / 5, val.eg * 11 / 10) * n;
                }
            }
        }
        s
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
    (p.min(v.start_phase) * 256) / v.start_phase.max(1)
}
