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

/// Formats a score as UCI does: `cp N` or `mate N` (moves, negative when mated).
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
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
