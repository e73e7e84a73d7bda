//! Helpers shared by the fuzz targets: the built-in variants, start positions and
//! the position invariants every target checks.
#![allow(dead_code)]

use lancer::rules::notation::{move_text, parse_move, parse_san, san};
use lancer::rules::setups::setup_count;
use lancer::rules::variant::{Start, Variant};
use lancer::rules::{Game, MoveList, Position, Variants};
use std::sync::OnceLock;

/// The built-in variants, loaded once.
pub fn variants() -> &'static Variants {
    static V: OnceLock<Variants> = OnceLock::new();
    V.get_or_init(Variants::builtin)
}

/// The built-in variant number `b` (modulo their count).
pub fn variant(b: u8) -> &'static Variant {
    let all = variants().all();
    all[b as usize % all.len()]
}

/// A start position of `v`; `seed` picks the setup of a random-setup variant.
pub fn start(v: &'static Variant, seed: u16) -> Position {
    let fen = match &v.start {
        Start::Fen(f) => f.clone(),
        Start::Random(r) => v
            .setup_fen(*r, seed as usize % setup_count(*r))
            .expect("setup"),
    };
    Position::from_efen(v, &fen).expect("start EFEN parses")
}

/// The incremental key is the recomputed one.
pub fn check_key(p: &Position) {
    assert_eq!(p.key(), p.compute_key(), "incremental key of {}", p.efen());
}

/// The incremental key is the recomputed one, and the printed EFEN parses back to
/// the same EFEN and key.
pub fn check_position(p: &Position) {
    check_key(p);
    let e = p.efen();
    let q = Position::from_efen(p.variant(), &e)
        .unwrap_or_else(|err| panic!("printed EFEN '{e}' does not parse: {err}"));
    assert_eq!(q.efen(), e, "EFEN round trip");
    assert_eq!(q.key(), p.key(), "key after EFEN round trip of {e}");
}

/// No two legal moves print the same move text (so each text names its move, as
/// `parse_move` matches texts); `m`'s text and, when `with_san`, its SAN parse back to it.
pub fn check_move_texts(p: &Position, m: lancer::rules::Move, with_san: bool) {
    check_unique_texts(p);
    check_round_trip(p, m, with_san);
}

/// No two legal moves of `p` print the same move text.
pub fn check_unique_texts(p: &Position) {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut texts: Vec<String> = list
        .iter()
        .map(|&x| move_text(p, x).to_ascii_lowercase())
        .collect();
    texts.sort();
    if let Some(w) = texts.windows(2).find(|w| w[0] == w[1]) {
        panic!("two legal moves print as '{}' in {}", w[0], p.efen());
    }
}

/// `m`'s text and, when `with_san`, its SAN parse back to `m`.
pub fn check_round_trip(p: &Position, m: lancer::rules::Move, with_san: bool) {
    let t = move_text(p, m);
    assert_eq!(parse_move(p, &t), Ok(m), "move text '{t}' in {}", p.efen());
    if with_san {
        let s = san(p, m);
        assert_eq!(parse_san(p, &s), Ok(m), "SAN '{s}' in {}", p.efen());
    }
}

/// Plays `m` into `g` and checks that undoing it restores the EFEN and key exactly,
/// then plays it again.
pub fn play_checked(g: &mut Game, m: lancer::rules::Move) {
    let before = g.position().efen();
    let key = g.position().key();
    g.play(m);
    check_position(g.position());
    assert_eq!(g.undo(), Some(m));
    assert_eq!(g.position().efen(), before, "undo restores the EFEN");
    assert_eq!(g.position().key(), key, "undo restores the key");
    g.play(m);
}
