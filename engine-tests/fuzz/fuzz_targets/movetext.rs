//! Move text and SAN parsing: in a position reached by a few fuzz-chosen legal moves,
//! any token is rejected or names a legal move whose printed text parses back to it.
//!
//! Input: variant byte, setup byte, ply count byte, one byte per ply, then the text.
#![no_main]

use lancer::rules::notation::xboard::parse_xboard_move;
use lancer::rules::notation::{move_text, parse_any, parse_move, parse_san};
use lancer::rules::MoveList;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Whitespace-separated tokens parsed at most (after the whole text).
const MAX_TOKENS: usize = 16;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let v = common::variant(data[0]);
    let mut p = common::start(v, data[1] as u16 * 31);
    let plies = (data[2] % 32) as usize;
    let picks = &data[3..];
    let plies = plies.min(picks.len());
    let mut list = MoveList::new();
    for &b in &picks[..plies] {
        list.clear();
        p.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        p.do_move(list[b as usize % list.len()]);
    }
    list.clear();
    p.legal_moves(&mut list);
    let text = String::from_utf8_lossy(&picks[plies..]);
    // Sixteen tokens are plenty to mix forms; longer inputs only repeat the work.
    let tokens = text.split_whitespace().take(MAX_TOKENS);
    for tok in std::iter::once(text.as_ref()).chain(tokens) {
        let parsed = [
            parse_move(&p, tok).ok(),
            parse_san(&p, tok).ok(),
            parse_any(&p, tok).ok(),
            parse_xboard_move(&p, tok).ok(),
        ];
        for m in parsed.into_iter().flatten() {
            assert!(list.contains(m), "'{tok}' parsed to an illegal move");
            let t = move_text(&p, m);
            assert_eq!(parse_move(&p, &t), Ok(m), "'{tok}' -> '{t}'");
        }
    }
});
