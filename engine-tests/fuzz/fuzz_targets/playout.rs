//! Make/unmake invariants: random legal playouts in every variant, each move picked
//! by a fuzz byte. After every move the incremental key is the recomputed one, the
//! EFEN round-trips, undo restores the EFEN and key exactly, and the played move's
//! text and SAN parse back to it. Where the playout ends, no two legal moves print
//! the same text (checked once per input: over every ply it cost most of the run,
//! and the movetext and efen targets check it in positions of their own).
//!
//! Input: variant byte, two setup bytes, then one byte per ply (at most `MAX_PLIES`).
#![no_main]

use lancer::rules::{Game, MoveList};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Plies played at most: a random game is decided or drawn by the 50-move rule by
/// then in nearly every variant.
const MAX_PLIES: usize = 256;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let v = common::variant(data[0]);
    let start = common::start(v, u16::from_le_bytes([data[1], data[2]]));
    common::check_position(&start);
    let mut g = Game::new(start);
    let mut list = MoveList::new();
    // Each later position is checked by `play_checked` as it is reached. Longer
    // inputs add plies, not new code paths, at a cost that grows with each ply.
    for &b in data[3..].iter().take(MAX_PLIES) {
        let p = *g.position();
        if g.outcome().is_some() {
            break;
        }
        list.clear();
        p.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list[b as usize % list.len()];
        common::check_round_trip(&p, m, true);
        common::play_checked(&mut g, m);
    }
    common::check_unique_texts(g.position());
});
