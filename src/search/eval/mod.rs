//! Static evaluation, tapered between middlegame and endgame, from the side to move's
//! point of view, in centipawns. Each feature lives in its own place:
//! - [`material`]: piece values (the inventors' where they give them), hands, held units;
//! - [`pst`]: generic square tables (centrality, pawn advance, king shelter) for any board;
//! - [`activity`]: mobility, lancer facing, jailer holds, sentry capture chances,
//!   standard-bearer range, king danger;
//! - [`pawns`]: doubled, isolated and passed pawns (with Lighthouse's one-queen limit).

pub mod activity;
pub mod cache;
pub mod material;
pub mod pawns;
pub mod pst;
pub mod tables;

use crate::rules::bitboard::*;
use crate::rules::{Color, Position};

/// A middlegame/endgame score pair.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

impl Score {
    /// A pair.
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score::new(self.mg * k, self.eg * k)
    }
}

/// Bonus for having the move.
pub const TEMPO: i32 = 12;

/// Per-side evaluation terms, White minus Black.
#[derive(Default, Debug)]
pub struct Breakdown {
    pub material: Score,
    pub pst: Score,
    pub activity: Score,
    pub pawns: Score,
    /// 0 (endgame) ..= 256 (full material).
    pub phase: i32,
}

/// Evaluates every term for White minus Black.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut b = Breakdown::default();
    cache::with_tables(pos.variant(), |t| {
        for c in [Color::White, Color::Black] {
            let sign = if c == Color::White { 1 } else { -1 };
            b.material += material::side(pos, c, t) * sign;
            b.pst += pst::side(pos, c, t) * sign;
            b.activity += activity::side(pos, c) * sign;
            b.pawns += pawns::side(pos, c) * sign;
        }
    });
    b.phase = material::phase(pos);
    b
}

impl Breakdown {
    /// The terms by name, in the order `eval` prints them.
    pub fn terms(&self) -> [(&'static str, Score); 4] {
        [
            ("material", self.material),
            ("squares", self.pst),
            ("activity", self.activity),
            ("pawns", self.pawns),
        ]
    }

    /// The sum of the terms (White's view, middlegame and endgame).
    pub fn sum(&self) -> Score {
        let mut t = Score::default();
        for (_, s) in self.terms() {
            t += s;
        }
        t
    }

    /// The sum blended by the phase (White's view, centipawns).
    pub fn tapered(&self) -> i32 {
        let t = self.sum();
        (t.mg * self.phase + t.eg * (256 - self.phase)) / 256
    }

    /// The evaluation for `side` to move: the tapered sum from its side, plus the tempo.
    pub fn for_side(&self, side: Color) -> i32 {
        let v = self.tapered();
        let v = if side == Color::White { v } else { -v };
        v + TEMPO
    }
}

/// The static evaluation for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    breakdown(pos).for_side(pos.side())
}

/// Squares of `b` a bitboard helper re-export for the feature files.
#[inline(always)]
pub(crate) fn count(b: Bitboard) -> i32 {
    popcount(b) as i32
}
