//! What one search is asked to do: what a `go` says (depth, nodes, time, mate,
//! the root moves). How the engine searches (its evaluation, parameters, skill,
//! lines, threads) is [`super::Settings`], set once and passed beside these.

use crate::rules::moves::Move;

/// What one search is asked to do, as a `go` (UCI) or the clock and `sd`/`st`/`sn`
/// (XBoard) say it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Remaining time per side (ms), White first.
    pub time: [Option<u64>; 2],
    /// Increment per side (ms).
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<Move>,
}
