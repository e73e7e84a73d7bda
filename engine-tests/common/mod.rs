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

/// A variant's start position; random-setup variants draw their setup from `rng`.
pub fn random_start(
    v: &'static lancer::rules::variant::Variant,
    rng: &mut impl rand::Rng,
) -> Position {
    match &v.start {
        lancer::rules::variant::Start::Random(r) => {
            let n = rng.gen_range(0..lancer::rules::setups::setup_count(*r));
            Position::from_efen(v, &v.setup_fen(*r, n).unwrap()).unwrap()
        }
        _ => Position::from_efen(v, &v.default_start_fen()).unwrap(),
    }
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

/// Whether every tool `test` needs is here (a tool with a `/` is a path, any other a
/// name looked up on PATH). When one is missing the test says it skipped, naming
/// what to install, and should return; under CI (`CI` set), which must have them, it
/// fails instead.
pub fn tools_present(test: &str, tools: &[&str], install: &str) -> bool {
    let have = |tool: &str| {
        if tool.contains('/') {
            return std::path::Path::new(tool).exists();
        }
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
            .unwrap_or(false)
    };
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !have(t)).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must install {} (.ci/run does)",
        missing.join(", ")
    );
    eprintln!("SKIPPED {test}: missing {} ({install})", missing.join(", "));
    false
}

/// The address in the first line `lancer serve` prints (`lancer serve: http://ADDR/`),
/// read from the server's stdout.
pub fn served_address(stdout: std::process::ChildStdout) -> std::net::SocketAddr {
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    line.trim()
        .trim_start_matches("lancer serve: http://")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|_| panic!("no address in {line:?}"))
}
