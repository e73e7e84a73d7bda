//! The short soak for CI: `engine-tests/scripts/soak.sh 2` on the built binary, two
//! games per variant at 1+0.01, UCI against CECP. Any illegal move, time forfeit,
//! crash, protocol error or PGN that does not replay fails it. The long run
//! (`soak.sh 20`, CONTRIBUTING.md "Reliability") is done by hand.

use std::process::Command;

#[test]
fn two_games_per_variant_without_a_forfeit() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("lancer-soak-test-{}", std::process::id()));
    let out = Command::new("bash")
        .arg(format!("{root}/engine-tests/scripts/soak.sh"))
        .arg("2")
        .env("LANCER", env!("CARGO_BIN_EXE_lancer"))
        .env("SOAK_DIR", &dir)
        .output()
        .expect("run soak.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("soak: "))
        .unwrap_or_else(|| panic!("no summary line; logs in {}", dir.display()));
    assert_eq!(
        summary,
        "soak: 14 games, 0 time forfeits, 0 illegal moves, 0 crashes, 0 protocol errors, 0 PGNs not replayed",
        "logs in {}",
        dir.display()
    );
    assert!(out.status.success(), "logs in {}", dir.display());
    let _ = std::fs::remove_dir_all(&dir);
}
