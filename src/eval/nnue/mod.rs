//! Small efficiently updatable networks, one per variant that has one: the inputs of
//! [`features`] seen from each side, a hidden layer of clipped-ReLU units per side (its
//! size is the network's own, up to [`HIDDEN`]), and one output, the side to move's
//! score in centipawns.
//!
//! The accumulators (the hidden layer before clipping) are not updated inside
//! `do_move`: the search keeps one per ply with the input bits it was built from, and
//! brings the nearest one up to date by the bits that differ ([`Net::update`]). That
//! works whatever the two positions are and whatever the move was (a lancer's turn, a
//! displacement, a windmill, a drop, a capture into the hand), so it can never be
//! stale, and after one move only a few inputs change.
//!
//! A network is either the whole evaluation or a correction added to the hand-made one
//! (a flag in its file). Its inputs may be relative to each side's king (a copy of
//! them per bucket of king squares, and the board turned left to right for a king on
//! the right half: [`KingBuckets`]); its hidden units are clipped ReLUs or
//! squared clipped ReLUs ([`Activation`]); and its output layer may have a bucket per
//! range of the count of pieces on the board.
//!
//! Files (`LNN3`, and `LNN2` of the networks before buckets) are read and written by
//! [`format`], described in docs/formats.md, Networks. A network runs at its own
//! size: the accumulators have room for [`HIDDEN`] units and a network uses the first
//! `h`. Input weights and biases are scaled by [`QA`], output weights by [`QB`], the
//! output biases by `QA·QB`; the output times [`SCALE`] is centipawns.

mod accumulator;
mod builtin;
pub mod features;
pub mod format;
mod kings;
mod network;

pub use accumulator::Accumulator;
pub use builtin::{builtin, builtin_names, check};
pub use features::{Group, Layout, MAX_GROUPS};
pub use format::{load, write, Shape};
pub use kings::{KingBuckets, Perspective, MAX_KING_BUCKETS};
pub use network::{
    output_table, Activation, Net, Unscaled, MAX_OUTPUT_BUCKETS, MAX_SCRELU_W2, OUTPUT_TABLE,
};

/// The most hidden units per side a network may have.
pub const HIDDEN: usize = 256;
/// Hidden units per side of a network trained without saying how many.
pub const DEFAULT_HIDDEN: usize = 64;
/// Scale of the input layer: the clipped ReLU's ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The file's first bytes.
pub const MAGIC: &[u8; 4] = b"LNN3";
