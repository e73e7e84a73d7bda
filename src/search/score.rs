//! Search scores: centipawns, with mates encoded as distances from `MATE`, and the
//! conversions the transposition table and the protocols need.

/// Deepest ply searched.
pub const MAX_PLY: usize = 120;
/// Score of mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Beyond every score.
pub(crate) const INF: i32 = 32500;

/// A search score as the front ends see it: centipawns from the side to move's
/// view, or a mate in so many moves. The one place that knows how mates are
/// encoded (`MATE - plies`); the protocols, the web board, the review and the
/// training ask it (`is_mate`, `mate_in`, `for_side`, `capped`) rather than compare
/// with `MATE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// Level.
    pub const DRAW: Score = Score(0);
    /// The side to move has won: a finished game's score (a mate in 0 given).
    pub const WON: Score = Score(MATE);
    /// The side to move has lost: a finished game's score (mated).
    pub const LOST: Score = Score(-MATE);

    /// Centipawns (less than a mate's encoding: `cp.abs()` below 31000).
    pub const fn cp(cp: i32) -> Score {
        Score(cp)
    }

    /// The side to move mates in `plies` plies (1: this move mates).
    pub const fn mate_after(plies: i32) -> Score {
        Score(MATE - plies)
    }

    /// The side to move is mated in `plies` plies (0: it is mated now).
    pub const fn mated_after(plies: i32) -> Score {
        Score(-MATE + plies)
    }

    /// A score in the search's own encoding (centipawns, mates as `MATE - plies`).
    pub const fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// The search's own encoding, for the evaluation's models (win/draw/loss) and
    /// the search's tests; front ends ask the other methods.
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Moves to mate (negative when mated, `-0` as 0 for a side already mated), or
    /// `None` for a centipawn score.
    pub fn mate_in(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some((MATE - self.0 + 1) / 2)
        } else if self.0 <= -MATE_BOUND {
            Some(-((MATE + self.0) / 2))
        } else {
            None
        }
    }

    /// The centipawns of a score that is not a mate.
    pub fn centipawns(self) -> Option<i32> {
        self.mate_in().is_none().then_some(self.0)
    }

    /// Whether the score is a mate (for either side).
    pub fn is_mate(self) -> bool {
        self.mate_in().is_some()
    }

    /// Centipawns within ±`cap`; a mate counts as `cap` (or `-cap` when mated).
    pub fn capped(self, cap: i32) -> i32 {
        if self.is_mate() {
            cap * self.0.signum()
        } else {
            self.0.clamp(-cap, cap)
        }
    }

    /// The score from `side`'s view, when it is `to_move`'s.
    pub fn for_side(self, to_move: crate::rules::Color, side: crate::rules::Color) -> Score {
        if to_move == side {
            self
        } else {
            -self
        }
    }

    /// The score as CECP writes it: centipawns, or 100000 + moves for a mate
    /// (-100000 - moves when mated).
    pub fn xboard(self) -> i32 {
        match self.mate_in() {
            Some(m) if m > 0 => 100000 + m,
            Some(m) => -100000 + m,
            None => self.0,
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// UCI's form: `cp N` or `mate N` (moves, negative when mated).
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mate_in() {
            Some(m) if m > 0 => write!(f, "mate {m}"),
            Some(m) => write!(f, "mate -{}", -m),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// Formats a score as UCI does: `cp N` or `mate N` (moves, negative when mated).
pub fn uci_score(score: i32) -> String {
    Score(score).to_string()
}

/// A score as stored in the table: mates count from the stored node, not the root.
#[inline]
pub(crate) fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// A stored score seen from `ply`.
#[inline]
pub(crate) fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_encoding() {
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-MATE), "mate -0");
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(Score(MATE - 1).xboard(), 100001);
        assert_eq!(Score(-(MATE - 4)).xboard(), -100002);
        assert_eq!(Score(-12).xboard(), -12);
        assert_eq!(Score(MATE - 5).mate_in(), Some(3));
        assert_eq!(Score(-(MATE - 5)).mate_in(), Some(-2));
        assert_eq!(Score(MATE - 5).capped(1000), 1000);
        assert_eq!(Score(-(MATE - 5)).capped(1000), -1000);
        assert_eq!(Score(1234).capped(1000), 1000);
        assert_eq!(Score(-40).capped(1000), -40);
        use crate::rules::Color::{Black, White};
        assert_eq!(Score(35).for_side(White, Black), Score(-35));
        assert_eq!(Score(35).for_side(Black, Black), Score(35));
        assert!(Score::WON.is_mate() && Score::LOST.is_mate() && !Score::DRAW.is_mate());
    }
}
