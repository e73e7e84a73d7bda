//! Shared helpers for the engine tests.
#![allow(dead_code)]

use lancer::rules::{Position, Variants};
use std::sync::OnceLock;

/// The built-in variants, loaded once.
pub fn variants() -> &'static Variants {
    static V: OnceLock<Variants> = OnceLock::new();
    V.get_or_init(Variants::builtin)
}

/// Parses an EFEN of a built-in variant, panicking with the reason.
pub fn pos(variant: &str, efen: &str) -> Position {
    let v = variants()
        .get(variant)
        .unwrap_or_else(|| panic!("unknown variant {variant}"));
    Position::from_efen(v, efen).unwrap_or_else(|e| panic!("{variant} {efen}: {e}"))
}

/// Path of a file under engine-tests/.
pub fn data_path(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join(rel)
}

/// Every built-in variant.
pub const VARIANTS: [&str; 7] = [
    "chess",
    "fischerandom",
    "fullcavalry",
    "eightpiece",
    "eightpiecerandom",
    "royalstandard",
    "lighthouse",
];
