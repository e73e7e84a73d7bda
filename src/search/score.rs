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

/// A search score as the protocols see it: centipawns, or a mate in so many moves.
/// The one place that knows how mates are encoded (`MATE - plies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score(pub i32);

impl Score {
    /// Moves to mate (negative when mated), or `None` for a centipawn score.
    pub fn mate_moves(self) -> Option<i32> {
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
        self.mate_moves().is_none().then_some(self.0)
    }

    /// Whether the score is a mate (for either side).
    pub fn is_mate(self) -> bool {
        self.mate_moves().is_some()
    }

    /// The score as CECP writes it: centipawns, or 100000 + moves for a mate
    /// (-100000 - moves when mated).
    pub fn xboard(self) -> i32 {
        match self.mate_moves() {
            Some(m) if m > 0 => 100000 + m,
            Some(m) => -100000 + m,
            None => self.0,
        }
    }
}

/// UCI's form: `cp N` or `mate N` (moves, negative when mated).
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mate_moves() {
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
        assert_eq!(Score(MATE - 5).mate_moves(), Some(3));
        assert_eq!(Score(-(MATE - 5)).mate_moves(), Some(-2));
    }
}
