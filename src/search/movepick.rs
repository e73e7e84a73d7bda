//! Move ordering: what a move captures, its ordering score, and the selection of the
//! next best move.

use super::history::moved_piece;
use super::limits::Feature;
use super::see::{see_ge, value as see_value};
use super::worker::Worker;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::Position;

/// Whether `m` wins material: a capture that removes a piece. Capturing a
/// standard-bearer only displaces it, so the search treats it as a quiet move
/// (quiescence would otherwise chase endless displacements).
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.move_type() {
        MoveType::EnPassant | MoveType::SentryCapture | MoveType::SentryEdge => true,
        MoveType::Normal | MoveType::Promotion => {
            !pos.piece_at(m.to()).is_none() && !m.is_displacement()
        }
        _ => false,
    }
}

/// The kind captured by `m`, if any.
#[inline]
pub(crate) fn captured_kind(pos: &Position, m: Move) -> Option<Kind> {
    match m.move_type() {
        MoveType::EnPassant => Some(Kind::Pawn),
        MoveType::SentryCapture | MoveType::SentryEdge | MoveType::Normal | MoveType::Promotion => {
            let p = pos.piece_at(m.to());
            (!p.is_none() && !m.is_displacement()).then(|| p.kind())
        }
        _ => None,
    }
}

pub(crate) fn ordering_value(k: Kind) -> i32 {
    match k {
        Kind::Pawn => 1,
        Kind::Knight | Kind::Bishop | Kind::ForwardBishop | Kind::Sentry | Kind::Windmill => 3,
        Kind::Jailer => 4,
        Kind::Rook | Kind::Lancer => 5,
        Kind::Queen => 9,
        Kind::King => 50,
        Kind::Bearer => 2,
    }
}

/// Moves the best-scored move of `moves[i..]` to `i` (selection sort, one step) and returns it.
#[inline]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut bi = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[bi] {
            bi = j;
        }
    }
    moves.swap(i, bi);
    scores.swap(i, bi);
    moves[i]
}

/// Index of a move in the history tables: (from or 64 for drops, to).
#[inline(always)]
pub(crate) fn hist_idx(m: Move) -> (usize, usize) {
    let from = if m.move_type() == MoveType::Drop || m.is_pass() {
        64
    } else {
        m.from() as usize & 63
    };
    (from, m.to() as usize & 63)
}

impl Worker<'_> {
    pub(crate) fn order(
        &self,
        pos: &Position,
        list: &MoveList,
        scores: &mut [i32],
        tt_move: Move,
        ply: usize,
        see_captures: bool,
    ) {
        let (pp, psq) = if ply > 0 {
            self.prev[ply - 1]
        } else {
            (NO_PIECE, 0)
        };
        let counter = if pp.is_none() {
            Move::NONE
        } else {
            self.counters[pp.idx()][psq as usize & 63]
        };
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                10_000_000
            } else if let Some(victim) = captured_kind(pos, m) {
                // Captures that lose material come after the quiet moves.
                let base = if see_captures && !see_ge(pos, m, 0) {
                    -1_000_000
                } else {
                    1_000_000
                };
                // Most valuable victim first, least valuable attacker first among equals.
                let attacker = moved_piece(pos, m);
                let lva = if attacker.is_none() {
                    0
                } else {
                    see_value(attacker.kind()).min(1000) / 8
                };
                base + 16 * see_value(victim) - lva
                    + self.capture_score(pos, m, victim) / 8
                    + m.kind().map_or(0, |k| 16 * see_value(k))
            } else if let Some(k) = m.kind().filter(|_| m.move_type() == MoveType::Promotion) {
                900_000 + ordering_value(k)
            } else if m == self.killers[ply][0] && self.on(Feature::Killers) {
                800_000
            } else if m == self.killers[ply][1] && self.on(Feature::Killers) {
                700_000
            } else if m == counter && self.on(Feature::CounterMove) {
                600_000
            } else if self.on(Feature::History) {
                self.quiet_score(pos, m, ply)
            } else {
                0
            };
        }
    }
}
