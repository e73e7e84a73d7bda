//! The rules core: variants as data, positions, move generation, notation, perft.
//! It knows nothing of protocols or search.

pub mod bitboard;
pub mod game;
pub mod geometry;
pub mod ini;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod setups;
pub mod start;
pub mod tree;
pub mod variant;
pub mod zobrist;

pub use bitboard::{Bitboard, Square};
pub use game::Game;
pub use ini::{IniError, Variants};
pub use moves::{Move, MoveList, MoveType};
pub use outcome::{GameEnd, Outcome, Reason, Termination};
pub use piece::{Color, Kind, Piece};
pub use position::Position;
pub use variant::Variant;
