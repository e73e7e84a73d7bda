//! King safety: the danger a side's attack puts on the enemy king (a table by attack
//! units, from [`super::activity`]'s attack sets and pieces in hand), own pawns
//! sheltering the king, and (drop variants) checks a piece in hand could give.

use super::activity::Attack;
use super::params::{
    DANGER_SIZE, DROP_CHECK, KING_DANGER, KING_OPEN_FILE, PAWN_STORM, SAFE_CHECK, SHELTER,
};
use super::{count, Acc};
use crate::rules::bitboard::*;
use crate::rules::geometry::{adjacent_files, ranks_ahead, FILE_A};
use crate::rules::variant::Goal;
use crate::rules::{Color, Kind, Position};

/// King safety for side `c`: the danger of its `attack` on the enemy king (which
/// `theirs` defends), and the shelter of its own king.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, attack: &Attack, theirs: &Attack, acc: &mut A) {
    let v = pos.variant();
    if v.drops {
        drop_checks(pos, c, theirs, acc);
    }
    // One attacker rarely mates; where capturing the king wins, one can.
    if attack.attackers >= 2 || (v.goal == Goal::KingCapture && attack.attackers >= 1) {
        let u = (attack.units.max(0) as usize).min(DANGER_SIZE - 1);
        acc.add(KING_DANGER + u, 1);
    }
    for (i, &b) in attack.checks.iter().enumerate() {
        if b & !pos.pieces(c) & !theirs.all != 0 {
            acc.add(SAFE_CHECK + i, 1);
        }
    }
    if let Some(ek) = pos.king_sq(c.flip()) {
        let files = FILE_A << file_of(ek) | adjacent_files(file_of(ek));
        let storm = pos.pieces_of(c, Kind::Pawn) & files;
        let n = squares(storm)
            .filter(|&s| (3..=5).contains(&v.relative_rank(c, s)))
            .count();
        acc.add(PAWN_STORM, n as i32);
    }
    if v.goal == Goal::Checkmate {
        if let Some(k) = pos.king_sq(c) {
            let front = tables().king(k) & ranks_ahead(c, k);
            let pawns = pos.pieces_of(c, Kind::Pawn);
            acc.add(SHELTER, count(front & pawns));
            let f = file_of(k) as i32;
            let open = (f - 1..=f + 1)
                .filter(|&x| (0..v.width as i32).contains(&x))
                .filter(|&x| pawns & (FILE_A << x) == 0)
                .count();
            acc.add(KING_OPEN_FILE, open as i32);
        }
    }
}

/// Pieces in hand that could be dropped with check on a square the enemy does not
/// attack: a threat the opponent must keep answering.
fn drop_checks<A: Acc>(pos: &Position, c: Color, theirs: &Attack, acc: &mut A) {
    let v = pos.variant();
    let them = c.flip();
    let Some(k) = pos.king_sq(them) else {
        return;
    };
    let t = tables();
    let occ = pos.occupied();
    let safe = !occ & v.mask & !theirs.all;
    for kind in crate::rules::piece::ALL_KINDS {
        if pos.hand(c, kind) == 0 {
            continue;
        }
        // The squares from which a `kind` of side `c` attacks the king.
        let from = match kind {
            Kind::Pawn => t.pawn(them.idx(), k),
            Kind::Knight => t.knight(k),
            Kind::Bishop => t.bishop(k, occ),
            Kind::Rook => t.rook(k, occ),
            Kind::Queen => t.queen(k, occ),
            Kind::ForwardBishop => {
                let behind = match c {
                    Color::White => k.checked_sub(8).map(bb).unwrap_or(0),
                    Color::Black if k < 56 => bb(k + 8),
                    Color::Black => 0,
                };
                t.bishop(k, occ) | behind
            }
            _ => 0,
        };
        let n = count(from & safe).min(3);
        if n > 0 {
            acc.add(DROP_CHECK + kind.idx(), n);
        }
    }
}
