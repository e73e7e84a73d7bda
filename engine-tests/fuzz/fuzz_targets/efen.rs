//! EFEN parsing: any text either is rejected with a message or gives a position
//! whose key, EFEN round trip, move generation and move texts are consistent.
#![no_main]

use lancer::rules::notation::xboard_fen::{efen_from_xboard, xboard_fen};
use lancer::rules::Position;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&b, rest)) = data.split_first() else {
        return;
    };
    let v = common::variant(b);
    let text = String::from_utf8_lossy(rest);
    // The XBoard form is translated first; the translation must not panic either.
    let _ = Position::from_efen(v, &efen_from_xboard(v, &text));
    let Ok(p) = Position::from_efen(v, &text) else {
        return;
    };
    common::check_position(&p);
    let back = efen_from_xboard(v, &xboard_fen(&p));
    let q = Position::from_efen(v, &back)
        .unwrap_or_else(|e| panic!("XBoard FEN of {} gives '{back}': {e}", p.efen()));
    // XBoard cannot show a frozen standard-bearer (docs/xboard.md, "Known limits of XBoard"): only that is lost.
    assert_eq!(
        q.efen(),
        p.efen().replace("(f)", ""),
        "XBoard FEN round trip"
    );
    let _ = p.outcome();
    let mut list = lancer::rules::MoveList::new();
    p.legal_moves(&mut list);
    for &m in list.iter() {
        common::check_move_texts(&p, m, true);
        common::check_position(&p.after(m));
    }
});
