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
//! (a flag in its file).
//!
//! File format (little-endian; docs/protocols.md, Networks): `LNN2`, flags (u16: bit
//! 0, a correction), the board's width and height (u8 each), the group count `n` (u16)
//! and `n` groups of two bytes ([`Group::encode`]), the hidden size `h` (u16, 1 to
//! [`HIDDEN`]), then the input weights `[2n·64][h]` i16, the hidden biases `[h]` i16,
//! the output weights `[2·h]` i16 (side to move's half first) and the output bias i32.
//! A network runs at its own size: the accumulators have room for [`HIDDEN`] units and
//! a network uses the first `h`. Input weights and biases are scaled by [`QA`], output
//! weights by [`QB`], the output bias by `QA·QB`; the output times [`SCALE`] is
//! centipawns.

mod accumulator;
mod builtin;
pub mod features;
mod format;
mod network;

pub use accumulator::Accumulator;
pub use builtin::{builtin, builtin_names, check};
pub use features::{Group, Layout, MAX_GROUPS};
pub use format::{load, write};
pub use network::Net;

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
pub const MAGIC: &[u8; 4] = b"LNN2";
