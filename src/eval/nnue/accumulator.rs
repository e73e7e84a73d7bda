//! The hidden layer's sums of one position for both views, kept by the search one per
//! ply and brought up to date from a neighbour's ([`super::Net::update`]).

use super::kings::Perspective;
use super::{HIDDEN, MAX_GROUPS};
use crate::rules::bitboard::Bitboard;

/// One position's hidden sums for both views (a network of `h` units uses the first
/// `h`), the input bits they were built from (White's groups, then Black's), and how
/// each view saw the board (its king's bucket and mirror).
#[derive(Clone)]
pub struct Accumulator {
    pub(super) v: [[i16; HIDDEN]; 2],
    pub(super) bits: [Bitboard; 2 * MAX_GROUPS],
    pub(super) persp: [Perspective; 2],
    pub(super) valid: bool,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
            bits: [0; 2 * MAX_GROUPS],
            persp: [Perspective::default(); 2],
            valid: false,
        }
    }
}
