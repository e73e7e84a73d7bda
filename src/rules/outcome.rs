//! Game results: checkmate, king capture, stalemate, n-move rule, repetition,
//! insufficient material, with their one text. Threefold repetition needs the game's
//! history, so [`super::game::Game`] decides it.

use super::bitboard::*;
use super::piece::*;
use super::position::*;
use super::variant::*;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    Checkmate,
    KingCaptured,
    Stalemate,
    NMoveRule,
    Repetition,
    InsufficientMaterial,
}

impl Reason {
    /// Human-readable text, as used in PGN and result comments.
    pub fn text(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::KingCaptured => "king captured",
            Reason::Stalemate => "stalemate",
            Reason::NMoveRule => "n-move rule",
            Reason::Repetition => "threefold repetition",
            Reason::InsufficientMaterial => "insufficient material",
        }
    }
}

/// A finished game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: Reason,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The outcome in words for a game of `v` (`White mates`, `Draw by 50-move
    /// rule`), as PGN result comments and XBoard claims write it.
    pub fn describe(self, v: &Variant) -> Described<'_> {
        Described { outcome: self, v }
    }
}

/// An outcome in words: see [`Outcome::describe`].
pub struct Described<'a> {
    outcome: Outcome,
    v: &'a Variant,
}

impl std::fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = self.outcome;
        match (o.reason, o.winner) {
            (Reason::Checkmate, Some(c)) => write!(f, "{} mates", c.name()),
            (Reason::KingCaptured, Some(c)) => write!(f, "{} captures the king", c.name()),
            (Reason::Stalemate, _) => f.write_str("Draw by stalemate"),
            (Reason::Repetition, _) => f.write_str("Draw by 3-fold repetition"),
            (Reason::NMoveRule, _) => write!(f, "Draw by {}-move rule", self.v.n_move_rule / 2),
            (Reason::InsufficientMaterial, _) => {
                f.write_str("Draw by insufficient mating material")
            }
            (Reason::Checkmate | Reason::KingCaptured, None) => f.write_str("game over"),
        }
    }
}

/// PGN's `Termination` tag: how a game came to its end, in cutechess's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules, or a resignation or agreement.
    Normal,
    /// Decided by a referee's rule (`-draw`, `-resign`, `-maxmoves`).
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// An engine crashed, stalled or broke the protocol.
    Abandoned,
    /// Not finished.
    Unterminated,
}

impl Termination {
    /// The tag's value: `normal`, `time forfeit`, ...
    pub fn text(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::Unterminated => "unterminated",
        }
    }
}

/// How a game ended, as the referee, the web board and a PGN record it: the
/// result, the reason in words (PGN's result comment: `White mates`, `Black loses
/// on time`, `Black resigns`) and the termination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    pub reason: String,
    pub termination: Termination,
}

impl GameEnd {
    /// The end the rules gave a game of `v`.
    pub fn by_rules(o: Outcome, v: &Variant) -> GameEnd {
        GameEnd {
            winner: o.winner,
            reason: o.describe(v).to_string(),
            termination: Termination::Normal,
        }
    }

    /// `loser` lost (resigned, on time, by a forfeit).
    pub fn loss(loser: Color, reason: impl Into<String>, termination: Termination) -> GameEnd {
        GameEnd {
            winner: Some(loser.flip()),
            reason: reason.into(),
            termination,
        }
    }

    /// A draw not given by the rules (agreed, adjudicated).
    pub fn draw(reason: impl Into<String>, termination: Termination) -> GameEnd {
        GameEnd {
            winner: None,
            reason: reason.into(),
            termination,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl Position {
    /// The result decided by this position alone (no history): king captured,
    /// checkmate, stalemate, n-move rule, insufficient material.
    pub fn outcome(&self) -> Option<Outcome> {
        let v = self.variant;
        let us = self.side;
        if self.king_sq(us).is_none() {
            return Some(Outcome {
                winner: Some(us.flip()),
                reason: Reason::KingCaptured,
            });
        }
        if self.legal_move_count() == 0 {
            return Some(if v.goal == Goal::Checkmate && self.in_check() {
                Outcome {
                    winner: Some(us.flip()),
                    reason: Reason::Checkmate,
                }
            } else {
                Outcome {
                    winner: None,
                    reason: Reason::Stalemate,
                }
            });
        }
        if v.n_move_rule > 0 && self.halfmove >= v.n_move_rule {
            return Some(Outcome {
                winner: None,
                reason: Reason::NMoveRule,
            });
        }
        if v.insufficient_material && self.insufficient_material() {
            return Some(Outcome {
                winner: None,
                reason: Reason::InsufficientMaterial,
            });
        }
        None
    }

    /// FIDE dead positions the engine recognises: K v K, K+minor v K, K+B v K+B (bishops on one colour).
    pub fn insufficient_material(&self) -> bool {
        let k = &self.by_kind;
        let heavy = k[Kind::Pawn.idx()] | k[Kind::Rook.idx()] | k[Kind::Queen.idx()];
        if heavy != 0 || self.hands.iter().flatten().any(|&n| n > 0) {
            return false;
        }
        let kings = k[Kind::King.idx()];
        let others = self.occupied() & !kings;
        let bishops = k[Kind::Bishop.idx()];
        if others & !(bishops | k[Kind::Knight.idx()]) != 0 {
            return false;
        }
        if popcount(others) <= 1 {
            return true;
        }
        const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;
        others == bishops && (bishops & DARK == 0 || bishops & !DARK == 0)
    }
}
