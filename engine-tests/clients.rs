//! Real clients drive the engine: python-chess plays fast chess games, lancer against
//! itself and against Debian's fairy-stockfish, and must see no protocol error.
//! `.ci/run` installs python-chess and fairy-stockfish; without them (outside CI) the
//! test says so and passes, under CI it fails.

use std::process::Command;

fn have_python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn fsf() -> Option<&'static str> {
    ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
}

fn run_match(opponent: &str, games: u32, tc: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/clients/match.py");
    let lancer = format!("lancer:uci:{}", env!("CARGO_BIN_EXE_lancer"));
    let o = Command::new("python3")
        .args([
            script,
            "--engine",
            &lancer,
            "--engine",
            opponent,
            "--games",
            &games.to_string(),
            "--tc",
            tc,
        ])
        .output()
        .expect("python3 runs");
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "match failed:\n{out}\n{err}");
    assert!(!out.contains("PROTOCOL ERRORS"), "{out}");
    assert!(
        !out.contains("illegal move")
            && !out.contains("engine error")
            && !out.contains("time forfeit"),
        "{out}"
    );
    eprintln!("{out}");
    out
}

#[test]
fn python_chess_plays_lancer() {
    let ci = std::env::var_os("CI").is_some();
    if !have_python_chess() {
        assert!(!ci, "CI must install python-chess");
        eprintln!("python-chess not installed: skipped");
        return;
    }
    let out = run_match(
        &format!("lancer2:uci:{}", env!("CARGO_BIN_EXE_lancer")),
        2,
        "2+0.05",
    );
    assert_eq!(out.matches("Finished game").count(), 2);
    match fsf() {
        Some(f) => {
            let out = run_match(&format!("fairy-stockfish:uci:{f}"), 2, "2+0.05");
            assert_eq!(out.matches("Finished game").count(), 2);
        }
        None => assert!(!ci, "CI must install fairy-stockfish"),
    }
}
