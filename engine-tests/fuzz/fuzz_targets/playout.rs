//! Make/unmake invariants: random legal playouts in every variant, each move picked
//! by a fuzz byte. After every move the incremental key is the recomputed one. The
//! game's last `CHECKED` plies, wherever it ended, are then undone and replayed with
//! every check: the EFEN round-trips, undo restores the EFEN and key exactly, and the
//! played move's text and SAN parse back to it. Where the playout ends, no two legal
//! moves print the same text.
//!
//! The plies before those get the key check alone: libFuzzer shortens and lengthens
//! inputs all the time, so every position of a playout is also the end of other
//! inputs, and checking every ply in full held the target to about 250 executions a
//! second (see CONTRIBUTING.md, Fuzzing).
//!
//! Input: variant byte, two setup bytes, then one byte per ply (at most `MAX_PLIES`).
#![no_main]

use lancer::rules::{Game, Move, MoveList};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Plies played at most: a random game is decided or drawn by the 50-move rule by
/// then in nearly every variant.
const MAX_PLIES: usize = 256;
/// Plies at the game's end that get every check.
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
    for &b in plies {
        if g.outcome().is_some() {
            break;
        }
        list.clear();
        g.position().legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        g.play(list[b as usize % list.len()]);
        common::check_key(g.position());
    }
    // Back to CHECKED plies before the end, then forward again with every check: the
    // end of the game gets them whether the input ran out or the game was decided.
    let k = g.moves().len().min(CHECKED);
    let mut tail = [Move::NONE; CHECKED];
    tail[..k].copy_from_slice(&g.moves()[g.moves().len() - k..]);
    for &m in tail[..k].iter().rev() {
        assert_eq!(g.undo(), Some(m), "undo gives back the move played");
    }
    for &m in &tail[..k] {
        common::check_round_trip(g.position(), m, true);
        common::play_checked(&mut g, m);
    }
    common::check_unique_texts(g.position());
});
