//! What a search is asked to do, and the features that can be switched off.

use super::eval::nnue::{self, Net};
use crate::rules::moves::Move;
use crate::rules::Variant;

/// What the search is asked to do.
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
    /// Number of principal variations.
    pub multipv: usize,
    /// Safety margin subtracted from the clock (ms).
    pub move_overhead: u64,
    /// Search features switched off, for measuring what each one gains (bits of [`Feature`]).
    pub disabled: u32,
    /// Play at this skill level (0 to 20, see [`super::skill`]); `None`: full strength.
    pub skill: Option<f64>,
    /// The evaluation to use (the `EvalFile` option).
    pub eval: EvalChoice,
}

/// Which evaluation the search uses.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The build's network where it has one for the variant, else the hand-made one.
    #[default]
    Builtin,
    /// The hand-made evaluation alone.
    Hand,
    /// This network where it covers the variant, else the build's network for it.
    Net(std::sync::Arc<Net>),
}

impl EvalChoice {
    /// The network used for variant `v`, if any.
    pub fn net_for(&self, v: &Variant) -> Option<&Net> {
        match self {
            EvalChoice::Builtin => nnue::builtin(v),
            EvalChoice::Hand => None,
            EvalChoice::Net(n) if n.covers(v) => Some(&**n),
            EvalChoice::Net(_) => nnue::builtin(v),
        }
    }
}

/// Search features that can be switched off for self-play measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    NullMove = 1,
    Lmr = 2,
    /// Reverse futility, futility and late-move pruning.
    Pruning = 4,
    Aspiration = 8,
    /// Reverse futility pruning alone.
    Rfp = 16,
    /// Futility and late-move pruning of quiet moves alone.
    Futility = 32,
}

impl Feature {
    /// Parses a comma list such as `null,lmr` into bits.
    pub fn parse_list(s: &str) -> Result<u32, String> {
        let mut bits = 0;
        for t in s
            .split([',', ' '])
            .filter(|t| !t.is_empty() && *t != "<empty>" && *t != "none")
        {
            bits |= match t {
                "null" => Feature::NullMove as u32,
                "lmr" => Feature::Lmr as u32,
                "pruning" => Feature::Pruning as u32,
                "aspiration" => Feature::Aspiration as u32,
                _ => {
                    return Err(format!(
                        "unknown search feature '{t}' (null, lmr, pruning, aspiration)"
                    ))
                }
            };
        }
        Ok(bits)
    }
}
