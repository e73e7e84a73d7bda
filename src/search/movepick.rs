//! Move ordering: a move picker scores a node's moves from the heuristics it
//! borrows, and the search takes them best first.

use super::history::Heuristics;
use super::see::{see_ge, value as see_value};
use super::settings::Feature;
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

    /// Writes each move's ordering score to `scores` (same index as in `moves`).
    pub(crate) fn score(&self, pos: &Position, moves: &[Move], scores: &mut [i32]) {
        let ply = self.ply;
        let [killer1, killer2] = self.heur.killers(ply);
        let counter = self.heur.counter(ply);
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if m == self.tt_move {
                TT_SCORE
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

/// The ordering score of the table move.
const TT_SCORE: i32 = 10_000_000;

/// Moves taken selection-sort style before the rest are sorted at once: most nodes
/// that cut off do so within the first few moves, and the others try them all.
const SELECT: usize = 3;

/// Moves scored by a [`MovePicker`], taken best first: one selection-sort step for
/// each of the first [`SELECT`] moves, so a node cut off early sorts little, then the
/// rest sorted once. With [`Picked::lazy`] the table move comes first and the others
/// are scored only if it does not cut the node off.
pub(crate) struct Picked<'b> {
    moves: &'b mut [Move],
    scores: &'b mut [i32],
    next: usize,
    /// Whether `scores` holds every move's score.
    scored: bool,
    /// Whether the first move is the table move, which needs no score.
    tt_first: bool,
}

impl<'b> Picked<'b> {
    /// Moves whose `scores` are written.
    pub(crate) fn new(moves: &'b mut [Move], scores: &'b mut [i32]) -> Picked<'b> {
        Picked {
            moves,
            scores,
            next: 0,
            scored: true,
            tt_first: false,
        }
    }

    /// Moves not yet scored: the table move `tt`, when among them, is taken first, and
    /// the scores [`Picked::next_with`] writes are needed only after it.
    pub(crate) fn lazy(moves: &'b mut [Move], scores: &'b mut [i32], tt: Move) -> Picked<'b> {
        let at = moves.iter().position(|&m| m == tt && m != Move::NONE);
        if let Some(i) = at {
            moves.swap(0, i);
            scores[0] = TT_SCORE;
        }
        Picked {
            moves,
            scores,
            next: 0,
            scored: false,
            tt_first: at.is_some(),
        }
    }

    /// The next move, best first; `score` writes the scores of the moves it is given
    /// when they are first needed.
    #[inline]
    pub(crate) fn next_with(&mut self, score: impl FnOnce(&[Move], &mut [i32])) -> Option<Move> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        if !self.scored && (i > 0 || !self.tt_first) {
            score(&self.moves[i..], &mut self.scores[i..]);
            self.scored = true;
        }
        self.next = i + 1;
        if i < SELECT {
            let mut bi = i;
            for j in i + 1..self.moves.len() {
                if self.scores[j] > self.scores[bi] {
                    bi = j;
                }
            }
            self.moves.swap(i, bi);
            self.scores.swap(i, bi);
        } else if i == SELECT {
            // Insertion sort of the rest, best first (stable among equals).
            for j in i + 1..self.moves.len() {
                let (m, sc) = (self.moves[j], self.scores[j]);
                let mut k = j;
                while k > i && self.scores[k - 1] < sc {
                    self.moves[k] = self.moves[k - 1];
                    self.scores[k] = self.scores[k - 1];
                    k -= 1;
                }
                self.moves[k] = m;
                self.scores[k] = sc;
            }
        }
        Some(self.moves[i])
    }
}

impl Iterator for Picked<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        // Made by `new`: the scores are written.
        self.next_with(|_, _| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` distinct moves and scores with many ties.
    fn moves(n: usize, seed: u64) -> (Vec<Move>, Vec<i32>) {
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let ms = (0..n)
            .map(|i| Move::normal(i as u8, 63 - i as u8))
            .collect();
        let sc = (0..n).map(|_| (next() % 7) as i32 * 100 - 300).collect();
        (ms, sc)
    }

    #[test]
    fn picked_takes_every_move_once_best_first() {
        for n in [0, 1, 2, 3, 4, 5, 9, 40] {
            let (ms, sc) = moves(n, n as u64 + 7);
            let (mut m2, mut s2) = (ms.clone(), sc.clone());
            let got: Vec<Move> = Picked::new(&mut m2, &mut s2).collect();
            let score = |m: &Move| sc[ms.iter().position(|x| x == m).unwrap()];
            let scores: Vec<i32> = got.iter().map(score).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
            let (mut sorted, mut all) = (got.clone(), ms.clone());
            sorted.sort_by_key(|m| m.0);
            all.sort_by_key(|m| m.0);
            assert_eq!(sorted, all, "each move once");
        }
    }

    #[test]
    fn lazy_picked_scores_only_after_the_table_move() {
        for n in [1, 2, 5, 40] {
            let (ms, sc) = moves(n, 99 + n as u64);
            let tt = ms[n / 2];
            let (mut m2, mut s2) = (ms.clone(), vec![TT_SCORE; n]);
            let mut p = Picked::lazy(&mut m2, &mut s2, tt);
            let mut calls = 0;
            let mut got = Vec::new();
            let score = |m: &Move| sc[ms.iter().position(|x| x == m).unwrap()];
            while let Some(m) = p.next_with(|part, out| {
                calls += 1;
                assert_eq!(
                    part.len(),
                    n - 1,
                    "the others, once the table move is tried"
                );
                for (o, m) in out.iter_mut().zip(part) {
                    *o = score(m);
                }
            }) {
                got.push(m);
                assert_eq!(
                    calls,
                    usize::from(got.len() > 1),
                    "scored once, when needed"
                );
            }
            assert_eq!(got[0], tt);
            let rest: Vec<i32> = got[1..].iter().map(score).collect();
            assert!(rest.windows(2).all(|w| w[0] >= w[1]), "{rest:?}");
            assert_eq!(got.len(), n);
            // Without the table move among them, every move is scored before the first.
            let (mut m3, mut s3) = (ms.clone(), vec![TT_SCORE; n]);
            let mut p = Picked::lazy(&mut m3, &mut s3, Move::normal(62, 61));
            let mut scored = false;
            let first = p.next_with(|part, out| {
                scored = true;
                assert_eq!(part.len(), n);
                for (o, m) in out.iter_mut().zip(part) {
                    *o = score(m);
                }
            });
            assert!(scored);
            assert_eq!(first.map(|m| score(&m)), sc.iter().max().copied());
        }
    }
}
