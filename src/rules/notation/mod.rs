//! Every move notation, parse and print side by side: move text (docs/notation.md, UCI,
//! CLI), SAN, and XBoard's move text. Parsing matches a token against the printed
//! form of every legal move, so printing and parsing cannot disagree.

pub mod pgn;
pub mod san;
pub mod text;
pub mod xboard;

pub use san::{parse_san, san};
pub use text::{move_text, parse_move, MoveError};

use crate::rules::{Move, Position};

/// Parses move text, falling back to SAN.
pub fn parse_any(pos: &Position, token: &str) -> Result<Move, MoveError> {
    parse_move(pos, token).or_else(|e| parse_san(pos, token).map_err(|_| e))
}
