//! The command line, run as a user would: output format, exit codes, error messages.

mod common;
use std::process::{Command, Output};

fn lancer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(args)
        .output()
        .expect("lancer runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or("").to_string()
}

/// A failure is one line on stderr, a non-zero exit, and never a panic.
fn assert_clean_failure(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(o.status.code(), Some(1), "exit code: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
}

#[test]
fn perft_last_line_is_nodes_searched() {
    let o = lancer(&["perft", "--variant", "chess", "3"]);
    assert!(o.status.success());
    assert_eq!(last_line(&o), "Nodes searched: 8902");
    assert!(stderr(&o).contains("nodes/s"), "time and nps go to stderr");
}

/// Issue 17: `perft --divide` prints each root move as soon as it is counted, not
/// everything at the end (a deep perft would otherwise show nothing for minutes).
#[test]
fn perft_divide_streams_root_moves() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(["perft", "--variant", "chess", "--divide", "8"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("lancer runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // Perft 8 of chess is 84 998 978 956 leaves: far from done when the first line comes.
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(running, "the first line came only at the end: {first}");
    let (mv, n) = first.trim().split_once(": ").expect("MOVE: COUNT");
    assert_eq!(mv.len(), 4, "{first}");
    assert!(n.parse::<u64>().unwrap() > 10_000_000, "{first}");
}

/// Issue 17: OpenBench builds with `make EXE=<path>` and reads `bench`'s last
/// `N nodes` and `M nps` lines (it scans the output from the end).
#[test]
fn openbench_make_target_and_bench_lines() {
    let o = Command::new("make")
        .args(["-n", "EXE=/tmp/openbench/lancer-x"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CARGO")
        .output()
        .expect("make runs (.ci/run installs it)");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().collect::<Vec<_>>(),
        [
            "cargo build --release",
            "cp target/release/lancer /tmp/openbench/lancer-x"
        ]
    );
    let o = lancer(&["bench", "3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let mut tail = out.lines().rev();
    let nps = tail.next().unwrap();
    let nodes = tail.next().unwrap();
    let num = |l: &str, unit: &str| l.strip_suffix(unit).and_then(|n| n.parse::<u64>().ok());
    assert!(num(nps, " nps").is_some(), "{out}");
    assert!(num(nodes, " nodes").is_some_and(|n| n > 0), "{out}");
}

#[test]
fn perft_divide_and_threads() {
    let o = lancer(&[
        "perft",
        "--variant",
        "eightpiece",
        "--divide",
        "--threads",
        "2",
        "2",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len(), 56, "55 root moves + total");
    assert!(
        out.contains("b1h7nw: "),
        "lancer move with a new facing: {out}"
    );
    assert!(out.contains("b1g6: "), "lancer move keeping its facing");
    assert!(
        !out.contains("b1h7: "),
        "ne would face off the board from h7"
    );
    let sum: u64 = lines[..55]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2992);
    assert_eq!(last_line(&o), "Nodes searched: 2992");
}

#[test]
fn perft_with_fen_and_moves() {
    let o = lancer(&[
        "perft",
        "--variant",
        "lighthouse",
        "--fen",
        "bnkr/pppp/4/4/4/4/PPPP/BNKR[] w - - 0 1",
        "--moves",
        "a2a4",
        "b7b5",
        "a4b5",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n: u64 = last_line(&o)
        .trim_start_matches("Nodes searched: ")
        .parse()
        .unwrap();
    assert!(n > 0);
    // SAN is accepted too.
    let o = lancer(&["perft", "--moves", "e4", "e5", "Nf3", "--", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "Nodes searched: 29");
}

#[test]
fn bad_input_fails_cleanly() {
    assert_clean_failure(
        &lancer(&[
            "perft",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "1",
        ]),
        "rank 1 has 7 files",
    );
    assert_clean_failure(
        &lancer(&[
            "perft",
            "--variant",
            "fullcavalry",
            "--fen",
            "4k3/8/8/8/8/8/8/L3K3 w - - 0 1",
            "1",
        ]),
        "lancer on a1 has no facing",
    );
    assert_clean_failure(&lancer(&["perft", "--moves", "e2e5", "1"]), "'e2e5'");
    assert_clean_failure(
        &lancer(&["perft", "--variant", "nosuch", "1"]),
        "unknown variant 'nosuch'",
    );
    assert_clean_failure(
        &lancer(&["perft", "--fen", "\u{1F600}/8 w", "1"]),
        "bad EFEN",
    );
    assert_clean_failure(
        &lancer(&[
            "perft",
            "--variant",
            "royalstandard",
            "--fen",
            "*sskss*/br1w1br/7/7/BR1W1BR/SSSKSS* w - - 0 1",
            "1",
        ]),
        "hole",
    );
}

#[test]
fn broken_variants_file_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("lancer-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.ini");
    std::fs::write(&f, "[mini : chess]\nboard = 9x9\n").unwrap();
    let o = lancer(&["--variants", f.to_str().unwrap(), "variants"]);
    assert_clean_failure(&o, "bad.ini:2: board:");
    // A good user file adds a variant.
    std::fs::write(
        &f,
        "[minichess : chess]\nboard = 5x6\nstart = rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1\ncastling = none\n",
    )
    .unwrap();
    let o = lancer(&[
        "--variants",
        f.to_str().unwrap(),
        "perft",
        "--variant",
        "minichess",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(last_line(&o).starts_with("Nodes searched: "));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn variants_and_setups() {
    let o = lancer(&["variants"]);
    let out = stdout(&o);
    for v in common::VARIANTS {
        assert!(out.lines().any(|l| l.starts_with(v)), "{v} listed");
    }
    let o = lancer(&[
        "variants",
        "--setups",
        "eightpiecerandom",
        "--setup",
        "5147",
    ]);
    assert_eq!(
        stdout(&o).trim(),
        "5147 jl(s)sqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JL(n)SQKBNR w HAha - 0 1"
    );
    let o = lancer(&["variants", "--setups", "eightpiecerandom"]);
    assert_eq!(stdout(&o).lines().count(), 7680);
    let a = lancer(&["variants", "--setups", "eightpiecerandom", "--seed", "7"]);
    let b = lancer(&["variants", "--setups", "eightpiecerandom", "--seed", "7"]);
    assert_eq!(stdout(&a), stdout(&b), "the seed decides the setup");
    assert_clean_failure(
        &lancer(&[
            "variants",
            "--setups",
            "eightpiecerandom",
            "--setup",
            "7680",
        ]),
        "7680",
    );
}

#[test]
fn openings_are_distinct_balanced_and_replayable() {
    for v in ["eightpiece", "eightpiecerandom", "lighthouse"] {
        let args = [
            "openings",
            "--variant",
            v,
            "--count",
            "12",
            "--plies",
            "4",
            "--depth",
            "3",
            "--seed",
            "5",
        ];
        let o = lancer(&args);
        assert!(o.status.success(), "{v}: {}", stderr(&o));
        let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 12, "{v}");
        let mut uniq = lines.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), 12, "{v}: distinct");
        for l in &lines {
            // Each line is a position the engine accepts (perft 1 from it runs).
            let p = lancer(&["perft", "--variant", v, "--fen", l, "1"]);
            assert!(p.status.success(), "{v}: {l}: {}", stderr(&p));
        }
        let again = lancer(&args);
        assert_eq!(stdout(&again), stdout(&o), "{v}: same seed, same file");
    }
    assert_clean_failure(
        &lancer(&["openings", "--variant", "nosuch"]),
        "unknown variant",
    );
}

/// Issue 15: one convention for command-line errors. A usage error (an unknown
/// option, a malformed or out-of-range value; `lancer match`'s cutechess options
/// too) prints `error: ...` and the usage, and exits with status 2, as clap and
/// other command-line tools do; a command that cannot do its work prints one line
/// `error: ...` and exits with status 1.
#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    for (args, needle) in [
        (
            &["perft", "--bogus", "1"][..],
            "unexpected argument '--bogus'",
        ),
        (&["perft", "--threads", "0", "1"][..], "--threads"),
        (&["perft", "--threads", "100000", "1"][..], "--threads"),
        (&["analyse", "--hash", "0"][..], "--hash"),
        (&["analyse", "--multipv", "0"][..], "--multipv"),
        (&["match", "-bogus"][..], "unknown option '-bogus'"),
        (&["match", "-engine", "cmd=x"][..], "at least two -engine"),
    ] {
        let o = lancer(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(err.contains("--help'."), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert_clean_failure(&lancer(&["perft", "--variant", "nosuch", "1"]), "nosuch");
}

/// Issue 15: variant names are case-insensitive, as Fairy-Stockfish takes them.
#[test]
fn variant_names_ignore_case() {
    let o = lancer(&["perft", "--variant", "Chess960", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "Nodes searched: 400");
    let o = lancer(&["perft", "--variant", "LIGHTHOUSE", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = lancer(&[
        "variants",
        "--setups",
        "EightPieceRandom",
        "--setup",
        "5147",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}
