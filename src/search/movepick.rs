//! Move ordering: a move picker scores a node's moves from the heuristics it
//! borrows, and the search takes them best first.

use super::history::Heuristics;
use super::limits::Feature;
use super::see::{see_ge, value as see_value};
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::Position;

fn ordering_value(k: Kind) -> i32 {
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

/// Scores the moves of one node for ordering: the table move first, then captures
/// (winning ones first), promotions, killers, the counter move, and quiet moves by
/// their history.
pub(crate) struct MovePicker<'a> {
    heur: &'a Heuristics,
    ply: usize,
    tt_move: Move,
    /// Captures that lose material (SEE) go after the quiet moves.
    see_captures: bool,
    /// Search features switched off (bits of [`Feature`]).
    disabled: u32,
}

impl<'a> MovePicker<'a> {
    pub(crate) fn new(
        heur: &'a Heuristics,
        ply: usize,
        tt_move: Move,
        see_captures: bool,
        disabled: u32,
    ) -> MovePicker<'a> {
        MovePicker {
            heur,
            ply,
            tt_move,
            see_captures,
            disabled,
        }
    }

    #[inline(always)]
    fn on(&self, f: Feature) -> bool {
        self.disabled & f as u32 == 0
    }

    /// Writes each move's ordering score to `scores` (same index as in `list`).
    pub(crate) fn score(&self, pos: &Position, list: &MoveList, scores: &mut [i32]) {
        let ply = self.ply;
        let [killer1, killer2] = self.heur.killers(ply);
        let counter = self.heur.counter(ply);
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == self.tt_move {
                10_000_000
            } else if let Some(victim) = pos.captured_kind(m) {
                // Captures that lose material come after the quiet moves.
                let base = if self.see_captures && !see_ge(pos, m, 0) {
                    -1_000_000
                } else {
                    1_000_000
                };
                // Most valuable victim first, least valuable attacker first among equals.
                let attacker = pos.moved_piece(m);
                let lva = if attacker.is_none() {
                    0
                } else {
                    see_value(attacker.kind()).min(1000) / 8
                };
                base + 16 * see_value(victim) - lva
                    + self.heur.capture_score(pos, m, victim) / 8
                    + m.kind().map_or(0, |k| 16 * see_value(k))
            } else if let Some(k) = m.kind().filter(|_| m.move_type() == MoveType::Promotion) {
                900_000 + ordering_value(k)
            } else if m == killer1 && self.on(Feature::Killers) {
                800_000
            } else if m == killer2 && self.on(Feature::Killers) {
                700_000
            } else if m == counter && self.on(Feature::CounterMove) {
                600_000
            } else if self.on(Feature::History) {
                self.heur.quiet_score(pos, m, ply)
            } else {
                0
            };
        }
    }
}

/// Moves scored by a [`MovePicker`], taken best first (one selection-sort step a
/// move, so a node cut off early sorts little).
pub(crate) struct Picked<'b> {
    moves: &'b mut [Move],
    scores: &'b mut [i32],
    next: usize,
}

impl<'b> Picked<'b> {
    pub(crate) fn new(moves: &'b mut [Move], scores: &'b mut [i32]) -> Picked<'b> {
        Picked {
            moves,
            scores,
            next: 0,
        }
    }
}

impl Iterator for Picked<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        let mut bi = i;
        for j in i + 1..self.moves.len() {
            if self.scores[j] > self.scores[bi] {
                bi = j;
            }
        }
        self.moves.swap(i, bi);
        self.scores.swap(i, bi);
        self.next = i + 1;
        Some(self.moves[i])
    }
}
