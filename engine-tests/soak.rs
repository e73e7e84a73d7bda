//! The short soak for CI: `engine-tests/scripts/soak.sh 2 1+0.05` on the built binary,
//! two games per variant, UCI against CECP, both engines pondering with a 16 MB table.
//! One thread an engine: CI has two cores, and two threads each while the other side
//! ponders put four searches on them (time forfeits under load; the long run with
//! the script's Threads 2 is done by hand, CONTRIBUTING.md "Reliability"). Any
//! illegal move, time forfeit, crash, protocol error, PGN that does not replay or
//! engine memory beyond its bound fails it.

use regex::Regex;
use std::process::Command;

#[test]
fn two_games_per_variant_without_a_forfeit() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("lancer-soak-test-{}", std::process::id()));
    let out = Command::new("bash")
        .arg(format!("{root}/engine-tests/scripts/soak.sh"))
        .args(["2", "1+0.05"])
        .env("LANCER", env!("CARGO_BIN_EXE_lancer"))
        .env("SOAK_DIR", &dir)
        .env("THREADS", "1")
        .env_remove("PONDER")
        .env_remove("HASH")
        .env_remove("MEMORY")
        .env_remove("MEM_MARGIN")
        .output()
        .expect("run soak.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("soak: "))
        .unwrap_or_else(|| panic!("no summary line; logs in {}", dir.display()));
    let re = Regex::new(concat!(
        r"^soak: 14 games, 0 time forfeits, 0 illegal moves, 0 crashes, 0 protocol errors, ",
        r"0 PGNs not replayed; peak RSS (\d+) MB of (\d+) MB allowed \(in play (\d+) of (\d+)\), ",
        r"Hash 16 MB, Threads 1, ponder on$"
    ))
    .unwrap();
    let c = re
        .captures(summary)
        .unwrap_or_else(|| panic!("{summary}; logs in {}", dir.display()));
    let n = |i: usize| c[i].parse::<u64>().unwrap();
    assert!(n(1) > 0 && n(1) <= n(2), "{summary}");
    assert!(
        n(3) > 16 && n(3) <= n(4),
        "the table is resident: {summary}"
    );
    assert!(out.status.success(), "logs in {}", dir.display());
    let _ = std::fs::remove_dir_all(&dir);
}
