//! Every notation, parsed and printed side by side. Positions: EFEN (`efen.rs`,
//! docs/notation.md) and XBoard's FEN (`xboard_fen.rs`). Moves: move text
//! (docs/notation.md, UCI, CLI), SAN, and XBoard's move text; parsing matches a
//! token against the printed form of every legal move, so printing and parsing
//! cannot disagree. Games: PGN (`pgn.rs`); opening books, EPD or PGN (`book.rs`).

pub mod book;
pub mod efen;
pub mod pgn;
pub mod san;
pub mod text;
pub mod xboard;
pub mod xboard_fen;

pub use san::{parse_san, san};
pub use text::{move_text, parse_move, MoveError};

use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Parses move text, falling back to SAN.
pub fn parse_any(pos: &Position, token: &str) -> Result<Move, MoveError> {
    parse_move(pos, token).or_else(|e| parse_san(pos, token).map_err(|_| e))
}
