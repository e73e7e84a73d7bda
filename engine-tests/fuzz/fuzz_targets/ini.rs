//! `variants.ini` parsing: any file either is rejected as `file:line: what` or loads
//! variants whose start positions parse and can be played from.
#![no_main]

use lancer::rules::{MoveList, Position, Variants};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let vs = match Variants::load(&[(&text, "fuzz.ini")]) {
        Ok(vs) => vs,
        Err(e) => {
            assert_eq!(e.file, "fuzz.ini");
            assert!(
                e.line <= text.lines().count().max(1),
                "line {} of {e}",
                e.line
            );
            return;
        }
    };
    for &v in vs.all() {
        let fen = v.default_start_fen();
        let mut p = Position::from_efen(v, &fen).unwrap_or_else(|e| {
            panic!("[{}] start '{fen}' loaded but does not parse: {e}", v.name)
        });
        let mut list = MoveList::new();
        for ply in 0..6 {
            common::check_position(&p);
            list.clear();
            p.legal_moves(&mut list);
            if list.is_empty() || p.outcome().is_some() {
                break;
            }
            let m = list[(ply * 7) % list.len()];
            common::check_move_texts(&p, m, true);
            p.do_move(m);
        }
    }
});
