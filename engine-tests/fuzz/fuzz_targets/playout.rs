//! Make/unmake invariants: random legal playouts in every variant, each move picked
//! by a fuzz byte. After every move the incremental key is the recomputed one. For
//! the plies picked by the input's last `CHECKED` bytes, also: the EFEN round-trips,
//! undo restores the EFEN and key exactly, and the played move's text and SAN parse
//! back to it (a game that ends before those bytes gets the key checks alone). Where
//! the playout ends, no two legal moves print the same text.
//!
//! The plies before those get the key check alone: libFuzzer shortens and lengthens
//! inputs all the time, so every position of a playout is also the end of other
//! inputs, and checking every ply in full held the target to about 250 executions a
//! second (see CONTRIBUTING.md, Fuzzing).
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
/// Input bytes at the end whose plies get every check.
const CHECKED: usize = 16;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let v = common::variant(data[0]);
    let start = common::start(v, u16::from_le_bytes([data[1], data[2]]));
    common::check_position(&start);
    let mut g = Game::new(start);
    let mut list = MoveList::new();
    let plies = &data[3..][..(data.len() - 3).min(MAX_PLIES)];
    let full_from = plies.len().saturating_sub(CHECKED);
    for (i, &b) in plies.iter().enumerate() {
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
        if i >= full_from {
            common::check_round_trip(&p, m, true);
            common::play_checked(&mut g, m);
        } else {
            g.play(m);
            common::check_key(g.position());
        }
    }
    common::check_unique_texts(g.position());
});
