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
    // Issue 17: progress is for terminals; a pipe gets the time line only.
    for args in [
        &["perft", "3"][..],
        &["perft", "--threads", "2", "--divide", "3"],
    ] {
        let o = lancer(args);
        let err = stderr(&o);
        assert!(
            err.starts_with("time ") && err.lines().count() == 1 && !err.contains('\r'),
            "{args:?}: {err:?}"
        );
    }
}

/// Issue 17: on a terminal, `perft` and `openings` redraw a progress line on stderr
/// and blank it at the end. (util-linux `script` gives the terminal; skipped without
/// it, except under CI.)
#[test]
fn progress_on_a_terminal() {
    let has_script = Command::new("script")
        .args(["-qec", "true", "/dev/null"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs util-linux script"
        );
        eprintln!("skipped: no util-linux script");
        return;
    }
    let on_tty = |cmd: &str| {
        let o = Command::new("script")
            .args(["-qec", cmd, "/dev/null"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}");
        stdout(&o)
    };
    let bin = env!("CARGO_BIN_EXE_lancer");
    let out = on_tty(&format!("{bin} perft --variant chess 3"));
    assert!(out.contains("\rroot move 1/20 done, "), "{out:?}");
    let last = "root move 20/20 done, 8902 nodes";
    let blanked = format!("\r{last}\r{}\r", " ".repeat(last.len()));
    assert!(
        out.contains(&format!("{blanked}Nodes searched: 8902")),
        "{out:?}"
    );
    // `--divide` lines are never mixed into the progress line.
    let out = on_tty(&format!("{bin} perft --variant chess --divide 2"));
    for l in out.lines() {
        let l = l.trim_end_matches('\r');
        let shown = l.rsplit('\r').next().unwrap_or("");
        assert!(
            shown.is_empty() || !shown.contains("root move"),
            "{l:?} in {out:?}"
        );
    }
    assert!(out.contains("a2a3: 20\r\n"), "{out:?}");
    let out = on_tty(&format!(
        "{bin} openings --variant chess --count 2 --depth 2 > /dev/null"
    ));
    assert!(out.contains("\r  2/2 openings ("), "{out:?}");
    assert!(out.ends_with("\r"), "blanked at the end: {out:?}");
    let pgn = std::env::temp_dir().join(format!("lancer-progress-{}.pgn", std::process::id()));
    std::fs::write(&pgn, CHESS_BLUNDER).unwrap();
    let out = on_tty(&format!(
        "{bin} annotate --depth 2 {} > /dev/null",
        pgn.display()
    ));
    std::fs::remove_file(&pgn).ok();
    assert!(out.contains("\rgame 1: 1/8 positions, ETA "), "{out:?}");
    assert!(out.contains("game 1: 8/8 positions"), "{out:?}");
}

/// A chess game whose 3...Nf6 lets White mate at once.
const CHESS_BLUNDER: &str = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {Black's comment} 4. Qxf7# 1-0\n";

/// A Lighthouse game whose 1...Rb8 blocks the king's square: the knight dropped on c7 mates.
const LIGHTHOUSE_BLUNDER: &str = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"lighthouse\"]\n[FEN \"k1r1/pp2/4/4/4/4/4/3K[N] b - - 0 1\"]\n[SetUp \"1\"]\n\n1... Rb8 2. N@c7# 1-0\n";

/// The value of an `[%eval V]` in a comment, checked to be what lichess writes:
/// pawns with up to two decimals, or `#N` / `#-N`.
fn eval_of(comment: &str) -> Option<String> {
    let i = comment.find("[%eval ")?;
    let rest = &comment[i + 7..];
    let v = &rest[..rest.find(']')?];
    let ok = match v.strip_prefix('#') {
        Some(m) => m.trim_start_matches('-').parse::<u32>().is_ok(),
        None => {
            v.parse::<f64>().is_ok()
                && v.split('.')
                    .nth(1)
                    .is_some_and(|d| (1..=2).contains(&d.len()))
        }
    };
    assert!(ok, "not an eval as lichess writes it: {v:?} in {comment:?}");
    Some(v.to_string())
}

/// `lancer annotate` on a game with a known blunder: it gets `??` and the best
/// line, every position but the mate has an `[%eval]` that parses back, the old
/// comment stays, the summary names the blunder, and the output replays.
fn annotate_finds(pgn: &str, blunder_san: &str, args: &[&str]) {
    use lancer::rules::notation::pgn;
    let dir = std::env::temp_dir().join(format!("lancer-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{blunder_san}.pgn").replace('@', "_"));
    std::fs::write(&f, pgn).unwrap();
    let mut a = vec!["annotate"];
    a.extend_from_slice(args);
    let path = f.to_str().unwrap().to_string();
    a.push(&path);
    let o = lancer(&a);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(pgn::check(&out, common::variants()), Ok(1), "{out}");
    let game = pgn::read(&out)
        .remove(0)
        .replay(common::variants())
        .unwrap();
    let t = &game.tree;
    let line = t.mainline();
    let mut pos = game.start;
    let mut blunders = Vec::new();
    for (i, &id) in line.iter().enumerate() {
        let n = t.node(id);
        let m = n.mv.unwrap();
        let san = lancer::rules::notation::san(&pos, m);
        pos.do_move(m);
        if n.nags.contains(&4) {
            blunders.push(san.clone());
            // The best line is a variation beside it.
            let parent = t.node(n.parent.unwrap());
            assert!(parent.children.len() >= 2, "{out}");
            assert!(n.comment.contains("Blunder. "), "{out}");
        }
        let last = i + 1 == line.len();
        assert_eq!(
            eval_of(&n.comment).is_some(),
            !last,
            "move {}: {out}",
            i + 1
        );
    }
    assert_eq!(blunders, [blunder_san], "{out}");
    assert!(
        eval_of(&t.node(lancer::rules::tree::ROOT).comment).is_some(),
        "{out}"
    );
    assert_eq!(game.tag("Annotator"), Some("lancer annotate"));
    let err = stderr(&o);
    assert!(err.contains("game 1 (a vs b): White: "), "{err}");
    assert!(err.contains(", 1 blunder, "), "{err}");
    // From stdin, with `-`, the same moves are judged.
    let again = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(&a[..a.len() - 1])
        .arg("-")
        .stdin(std::fs::File::open(&f).unwrap())
        .output()
        .unwrap();
    assert!(
        stdout(&again).contains(&format!("{blunder_san}??")),
        "{}",
        stdout(&again)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn annotate_marks_a_blunder_in_chess_and_lighthouse() {
    // Depth 12: chess reduces more than the defaults (its searchParams), and at depth 10
    // its score of 1...e5 swings (+0.72 there, +0.13 at 11, +0.21 at 12).
    annotate_finds(CHESS_BLUNDER, "Nf6", &["--depth", "12"]);
    assert!(stdout(&lancer(&["annotate", "--help"])).contains("--multipv"));
    annotate_finds(
        LIGHTHOUSE_BLUNDER,
        "Rb8",
        &["--depth", "6", "--multipv", "2"],
    );
    // A game that does not replay is named, and the others are still written.
    let dir = std::env::temp_dir().join(format!("lancer-annotate-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("two.pgn");
    std::fs::write(
        &f,
        format!("[White \"x\"]\n\n1. e4 Ke7 2. Kf8 *\n\n{CHESS_BLUNDER}"),
    )
    .unwrap();
    let o = lancer(&["annotate", "--depth", "2", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("game 1: ply 2: illegal or unknown move 'Ke7'"),
        "{err}"
    );
    assert!(stdout(&o).contains("Nf6??"), "{}", stdout(&o));
    // A search by time finds the mate as well.
    let o = lancer(&["annotate", "--movetime", "50", f.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("Nf6?? {[%eval #1] Blunder."),
        "{}",
        stdout(&o)
    );
    let o = lancer(&["annotate", "--variant", "nosuch", f.to_str().unwrap()]);
    assert_clean_failure(&o, "unknown variant 'nosuch'");
    std::fs::remove_dir_all(&dir).ok();
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
    std::fs::write(&f, "[mini : chess]\n\nwdlModel = 1 2 3\n").unwrap();
    let o = lancer(&["--variants", f.to_str().unwrap(), "variants"]);
    assert_clean_failure(&o, "bad.ini:3: wdlModel: expected six numbers");
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
    // A network the build lacks is refused.
    std::fs::write(&f, "[mine : chess]\nnetwork = nosuch\n").unwrap();
    let o = lancer(&["--variants", f.to_str().unwrap(), "variants"]);
    assert_clean_failure(&o, "bad.ini: [mine]: network 'nosuch' is not built in");
    // So are search parameters the search does not have, or out of their range.
    std::fs::write(&f, "[mine : chess]\nsearchParams = nosuch=1\n").unwrap();
    let o = lancer(&["--variants", f.to_str().unwrap(), "variants"]);
    assert_clean_failure(
        &o,
        "bad.ini: [mine] searchParams: unknown search parameter 'nosuch'",
    );
    std::fs::write(&f, "[mine : chess]\nsearchParams = rfp_margin=100000\n").unwrap();
    let o = lancer(&["--variants", f.to_str().unwrap(), "variants"]);
    assert_clean_failure(&o, "rfp_margin: 100000 is outside");
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
        // Issue 17: no progress line when stderr is not a terminal.
        assert_eq!(stderr(&o), "", "{v}");
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

/// One element of a parsed XML document: its (local) name and attributes.
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|t| t == class))
    }
}

/// The elements of `text` in document order, once roxmltree has found it well-formed
/// XML (one root, nested tags, quoted and unique attributes, known entities).
fn parse_xml(text: &str) -> Result<Vec<Element>, roxmltree::Error> {
    let doc = roxmltree::Document::parse(text)?;
    let elements = doc
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| Element {
            name: n.tag_name().name().to_string(),
            attrs: n
                .attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect(),
        });
    Ok(elements.collect())
}

/// `lancer diagram ARGS`: it succeeds and writes well-formed XML with unique ids;
/// returns the elements.
fn diagram(args: &[&str]) -> Vec<Element> {
    let mut all = vec!["diagram"];
    all.extend_from_slice(args);
    let o = lancer(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let text = stdout(&o);
    let elements = parse_xml(&text).unwrap_or_else(|e| panic!("{args:?}: not XML: {e}"));
    assert_eq!(elements[0].name, "svg", "{args:?}: the root is <svg>");
    let mut ids: Vec<&str> = elements.iter().filter_map(|e| e.attr("id")).collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "{args:?}: ids are unique");
    elements
}

fn count(elements: &[Element], class: &str) -> usize {
    elements.iter().filter(|e| e.has_class(class)).count()
}

/// The `data-square` of the elements of `class`, sorted.
fn marked(elements: &[Element], class: &str) -> Vec<String> {
    let mut v: Vec<String> = elements
        .iter()
        .filter(|e| e.has_class(class))
        .map(|e| e.attr("data-square").unwrap_or("?").to_string())
        .collect();
    v.sort();
    v
}

/// Issue 17: `lancer diagram` draws every variant: its real board (squares and holes),
/// one image per piece, one facing arrow per lancer (none with `--arrows off`).
#[test]
fn diagram_of_every_variant() {
    use lancer::rules::bitboard::popcount;
    use lancer::rules::{Kind, Position};
    for name in common::VARIANTS {
        let v = common::variants().get(name).unwrap();
        let start = Position::from_efen(v, &v.default_start_fen()).unwrap();
        let squares = popcount(v.mask) as usize;
        let holes = v.width as usize * v.height as usize - squares;
        let pieces = popcount(start.occupied()) as usize;
        let lancers = popcount(start.kind_bb(Kind::Lancer)) as usize;
        let e = diagram(&["--variant", name]);
        assert_eq!(count(&e, "square"), squares, "{name}: squares");
        assert_eq!(count(&e, "hole"), holes, "{name}: holes");
        assert_eq!(count(&e, "piece"), pieces, "{name}: pieces");
        assert_eq!(count(&e, "arrow"), lancers, "{name}: arrows");
        assert_eq!(count(&e, "lastmove"), 0, "{name}: no move played");
        assert_eq!(count(&e, "held") + count(&e, "frozen"), 0, "{name}");
        let e = diagram(&["--variant", name, "--arrows", "off"]);
        assert_eq!(count(&e, "piece"), pieces, "{name}: pieces");
        assert_eq!(count(&e, "arrow"), 0, "{name}: --arrows off");
    }
    // The numbers the library gave above, as the rules state them.
    let e = diagram(&["--variant", "royalstandard"]);
    assert_eq!((count(&e, "square"), count(&e, "hole")), (38, 4));
    assert_eq!(marked(&e, "hole").len(), 4);
    let e = diagram(&["--variant", "lighthouse"]);
    assert_eq!((count(&e, "square"), count(&e, "hole")), (32, 0));
    assert_eq!(count(&e, "piece"), 16);
    let e = diagram(&["--variant", "fullcavalry", "--arrows", "on"]);
    let mut facings: Vec<&str> = e
        .iter()
        .filter(|e| e.has_class("arrow"))
        .map(|e| e.attr("data-facing").unwrap())
        .collect();
    facings.sort();
    assert_eq!(facings, ["e", "e", "w", "w"]);
    // A drawn setup of a random variant: still 32 pieces, two lancers.
    let e = diagram(&["--variant", "eightpiecerandom", "--seed", "7"]);
    assert_eq!((count(&e, "piece"), count(&e, "arrow")), (32, 2));
}

/// The hand of each side, beside the board, with counts.
#[test]
fn diagram_shows_both_hands() {
    let hand = |e: &[Element]| -> Vec<String> {
        let mut v: Vec<String> = e
            .iter()
            .filter(|e| e.has_class("hand-piece"))
            .map(|e| {
                format!(
                    "{} {} {}",
                    e.attr("data-side").unwrap(),
                    e.attr("data-kind").unwrap(),
                    e.attr("data-count").unwrap()
                )
            })
            .collect();
        v.sort();
        v
    };
    assert!(hand(&diagram(&["--variant", "lighthouse"])).is_empty());
    let e = diagram(&["--variant", "lighthouse", "--moves", "a2a4", "b7b5", "a4b5"]);
    assert_eq!(hand(&e), ["white pawn 1"]);
    assert_eq!(count(&e, "piece"), 15);
    let e = diagram(&[
        "--variant",
        "lighthouse",
        "--moves",
        "a2a4 b7b5 a4b5 c7c6 b5c6 d7c6",
    ]);
    assert_eq!(hand(&e), ["black pawn 1", "white pawn 2"]);
    // Chess has no hands to draw.
    assert!(hand(&diagram(&["--moves", "e4", "d5", "exd5"])).is_empty());
}

/// Held units (8-Piece Chess) and frozen standard-bearers (The Royal Standard) are
/// marked, and the legend says what the marks mean.
#[test]
fn diagram_marks_held_units_and_frozen_bearers() {
    let e = diagram(&[
        "--variant",
        "eightpiece",
        "--fen",
        "4k3/8/8/8/8/8/3j4/3K4 w - - 0 1",
    ]);
    assert_eq!(marked(&e, "held"), ["d1"]);
    assert_eq!(count(&e, "frozen"), 0);
    // The same pieces apart: nothing is held.
    let e = diagram(&[
        "--variant",
        "eightpiece",
        "--fen",
        "4k3/8/8/8/8/3j4/8/3K4 w - - 0 1",
    ]);
    assert_eq!(count(&e, "held"), 0);
    // The rook takes the bearer on c1, which is displaced to c2 and frozen.
    let o = lancer(&[
        "diagram",
        "--variant",
        "royalstandard",
        "--fen",
        "*1skss*/7/7/7/2R4/*SSKSS* w - - 0 1",
        "--moves",
        "c2c1,c1c2",
    ]);
    let text = stdout(&o);
    let e = parse_xml(&text).unwrap();
    assert_eq!(marked(&e, "frozen"), ["c2"]);
    assert_eq!(count(&e, "held"), 0);
    assert_eq!(marked(&e, "lastmove"), ["c1", "c2"]);
    assert!(text.contains("frozen standard-bearer"), "legend: {text}");
    assert!(
        text.contains("*1skss*/7/7/7/2S(f)4/*SRKSS* b - - 0 1"),
        "the EFEN in the caption"
    );
}

/// The last move is marked on its squares (a drop on its square only); the caption
/// names the variant and the side to move.
#[test]
fn diagram_marks_the_last_move() {
    let o = lancer(&["diagram", "--moves", "e2e4", "e7e5", "g1f3"]);
    let text = stdout(&o);
    let e = parse_xml(&text).unwrap();
    assert_eq!(marked(&e, "lastmove"), ["f3", "g1"]);
    assert!(text.contains("chess · Black to move"), "{text}");
    let e = diagram(&["--moves", "e4"]);
    assert_eq!(marked(&e, "lastmove"), ["e2", "e4"]);
    let e = diagram(&[
        "--variant",
        "lighthouse",
        "--moves",
        "a2a4 b7b5 a4b5 c7c6 b5c6 d7c6 P@d5",
    ]);
    assert_eq!(marked(&e, "lastmove"), ["d5"]);
    // Castling: the king's path, as the move text names it.
    let e = diagram(&[
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "--moves",
        "e1g1",
    ]);
    assert_eq!(marked(&e, "lastmove"), ["e1", "g1"]);
    // A lancer's move: the arrow shows its new facing.
    let e = diagram(&["--variant", "eightpiece", "--moves", "b1h7nw"]);
    assert_eq!(marked(&e, "lastmove"), ["b1", "h7"]);
    let facing = e
        .iter()
        .find(|e| e.has_class("arrow") && e.attr("data-facing") == Some("nw"));
    assert!(facing.is_some(), "the lancer on h7 faces nw");
}

/// `-o FILE` writes the picture there and nothing to stdout; bad input is one
/// `error:` line and status 1, a bad option value a usage error (status 2).
#[test]
fn diagram_output_file_and_errors() {
    let dir = std::env::temp_dir().join(format!("lancer-diagram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("start.svg");
    let o = lancer(&[
        "diagram",
        "--variant",
        "lighthouse",
        "-o",
        f.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&f).unwrap();
    assert_eq!(count(&parse_xml(&text).unwrap(), "square"), 32);
    let o = lancer(&[
        "diagram",
        "--output",
        dir.join("no/such/dir.svg").to_str().unwrap(),
    ]);
    assert_clean_failure(&o, "cannot write");
    std::fs::remove_dir_all(&dir).ok();

    assert_clean_failure(
        &lancer(&["diagram", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1"]),
        "bad EFEN",
    );
    assert_clean_failure(&lancer(&["diagram", "--fen", "\u{1F600}/8 w"]), "bad EFEN");
    assert_clean_failure(&lancer(&["diagram", "--moves", "e2e5"]), "'e2e5'");
    assert_clean_failure(
        &lancer(&["diagram", "--variant", "nosuch"]),
        "unknown variant 'nosuch'",
    );
    let o = lancer(&["diagram", "--arrows", "maybe"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

/// `lancer variants --setups eightpiecerandom | head -1`: the output command ends
/// quietly when its reader goes away, without a panic report.
#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    for args in [
        &["variants", "--setups", "eightpiecerandom"][..],
        &["analyse", "--depth", "30"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lancer"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}");
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
    }
}

/// The arguments of `lancer datagen` for `games` Lighthouse games at 400 nodes a move
/// (seed 9) on `threads` threads into `out`.
fn datagen_args(threads: &'static str, games: &'static str, out: &str) -> Vec<&'static str> {
    let mut a = vec![
        "datagen",
        "--variant",
        "lighthouse",
        "--games",
        games,
        "--nodes",
        "400",
        "--seed",
        "9",
        "--threads",
        threads,
        "-o",
    ];
    a.push(Box::leak(out.to_string().into_boxed_str()));
    a
}

/// `lancer datagen` into `data`: the records, the WDL fit's reading of them, the same
/// file from one thread and from a resumed run; returns the file's bytes.
fn datagen_writes_and_resumes(dir: &std::path::Path, data: &std::path::Path) -> Vec<u8> {
    let data_s = data.to_str().unwrap();
    let o = lancer(&datagen_args("2", "6", data_s));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("6 games") && err.contains("positions/s"),
        "{err}"
    );
    let bytes = std::fs::read(data).unwrap();
    assert!(bytes.starts_with(b"LDT1"));
    let v = common::variants().get("lighthouse").unwrap();
    let samples = lancer::training::data::read(v, &[data_s.to_string()]).unwrap();
    assert!(samples.len() >= 20, "{} positions", samples.len());
    for s in &samples {
        assert!(!s.pos.in_check(), "a quiet position: {}", s.pos.efen());
        assert!([0.0, 0.5, 1.0].contains(&s.result));
    }
    // The WDL fit reads the same records (docs/formats.md, Data files).
    let fit = Command::new("python3")
        .args(["engine-tests/scripts/wdl_fit.py", data_s])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let scored = samples.iter().filter(|s| s.score.abs() <= 2000.0).count();
    let text = String::from_utf8_lossy(&fit.stdout);
    assert!(
        text.contains(&format!("0 PGN games, {scored} scored positions")),
        "{text}{}",
        String::from_utf8_lossy(&fit.stderr)
    );
    // One thread, four games, then a rerun to six: the same file.
    let one = dir.join("one.data");
    let one_s = one.to_str().unwrap();
    let o = lancer(&datagen_args("1", "4", one_s));
    assert!(o.status.success(), "{}", stderr(&o));
    // A killed run leaves a cut game behind; the rerun cuts it off and goes on.
    let mut cut = std::fs::read(&one).unwrap();
    cut.extend_from_slice(&bytes[bytes.len() - 40..]);
    std::fs::write(&one, &cut).unwrap();
    let o = lancer(&datagen_args("1", "6", one_s));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("this run 2 games"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&one).unwrap(), bytes, "same seed, same data");
    // Other settings into the same file are refused.
    let mut other = datagen_args("1", "6", one_s);
    other[8] = "10";
    assert_clean_failure(&lancer(&other), "other settings");
    bytes
}

/// `lancer tune` on `data` (whose bytes are `bytes`): only its variant's section of
/// the weights file, only the chosen terms; bad data, terms and variants fail cleanly.
fn tune_rewrites_its_section(dir: &std::path::Path, data_s: &str, bytes: &[u8]) {
    let v = common::variants().get("lighthouse").unwrap();
    let weights = dir.join("weights.ini");
    let start = "# mine\n[chess]\ntempo = 20 20\n\n[lighthouse]\ntempo = 5 5\n";
    std::fs::write(&weights, start).unwrap();
    let w = weights.to_str().unwrap();
    let tune = |extra: &[&str]| {
        let mut a = vec![
            "tune",
            "--variant",
            "lighthouse",
            "--weights",
            w,
            "--epochs",
            "5",
        ];
        a.extend_from_slice(extra);
        lancer(&a)
    };
    let o = tune(&[data_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("K = ") && err.contains("epoch     5"), "{err}");
    let new = std::fs::read_to_string(&weights).unwrap();
    assert!(new.starts_with("# mine\n[chess]\ntempo = 20 20\n"), "{new}");
    let section = new.split("[lighthouse]").nth(1).unwrap();
    assert!(section.lines().count() > 3, "tuned weights written: {new}");
    lancer::eval::params::from_text(v, &new).unwrap();
    // Only the chosen group moves.
    std::fs::write(&weights, start).unwrap();
    let o = tune(&["--terms", "tempo", data_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let new = std::fs::read_to_string(&weights).unwrap();
    let section = new.split("[lighthouse]").nth(1).unwrap();
    assert_eq!(section.trim().lines().count(), 1, "{new}");
    assert!(section.trim().starts_with("tempo = "), "{new}");

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4/4/4/4/4/4/4/4 w - - 0 1 | 2-0 | 0\n").unwrap();
    assert_clean_failure(&tune(&[bad.to_str().unwrap()]), "bad.txt:1");
    // Text lines are still read.
    std::fs::write(&bad, "bnkr/pppp/4/4/4/4/PPPP/BNKR[] w - - 0 1 | 1-0 | 12\n").unwrap();
    let o = tune(&[bad.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let broken = dir.join("broken.data");
    std::fs::write(&broken, &bytes[..bytes.len() - 5]).unwrap();
    assert_clean_failure(&tune(&[broken.to_str().unwrap()]), "broken.data");
    assert_clean_failure(
        &tune(&["--terms", "nosuch", data_s]),
        "unknown term 'nosuch'",
    );
    assert_clean_failure(
        &lancer(&[
            "datagen",
            "--variant",
            "nosuch",
            "--games",
            "1",
            "-o",
            data_s,
        ]),
        "unknown variant",
    );
}

/// Issue 14 and 32: `lancer datagen` writes a data file of quiet positions labelled
/// with their game's result; a seed gives the same file with one thread or two, and a
/// run killed part way goes on from its last whole game to the same file. `lancer
/// tune` fits the weights to them and rewrites only its variant's section of the
/// weights file, which then reads back; bad data, terms and variants fail cleanly.
#[test]
fn datagen_and_tune() {
    let dir = std::env::temp_dir().join(format!("lancer-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("lighthouse.data");
    let bytes = datagen_writes_and_resumes(&dir, &data);
    tune_rewrites_its_section(&dir, data.to_str().unwrap(), &bytes);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `lancer uci` on `lines` (then `quit`) and returns what it printed.
fn uci_session(lines: &[&str]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("lancer runs");
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The nodes of the last `info depth` line of a UCI transcript.
fn last_nodes(out: &str) -> u64 {
    out.lines()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .and_then(|l| l.split(" nodes ").nth(1))
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {out}"))
}

/// A fresh temporary folder `lancer-TAG-PID` and, in it, `VARIANT.data`: four
/// `lancer datagen` games of `variant` at 300 nodes a move (seed 5).
fn small_datagen(tag: &str, variant: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("lancer-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join(format!("{variant}.data"));
    let o = lancer(&[
        "datagen",
        "--variant",
        variant,
        "--games",
        "4",
        "--nodes",
        "300",
        "--seed",
        "5",
        "-o",
        data.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (dir, data)
}

/// `lancer train --held` gives units held by a jailer inputs of their own (128 more
/// in 8-Piece Chess); `EvalFile` loads a network with and without them, and `eval`
/// judges a held king with it.
#[test]
fn train_held_inputs() {
    let (dir, data) = small_datagen("held", "eightpiece");
    let data_s = data.to_str().unwrap();
    for held in [false, true] {
        let net = dir.join(format!("held-{held}.nnue"));
        let net_s = net.to_str().unwrap();
        let mut args = vec![
            "train",
            "--variant",
            "eightpiece",
            "--epochs",
            "1",
            "-o",
            net_s,
        ];
        if held {
            args.push("--held");
        }
        args.push(data_s);
        let o = lancer(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(if held { "2176 inputs" } else { "2048 inputs" }));
        let set = format!("setoption name EvalFile value {net_s}");
        let out = uci_session(&[
            "setoption name UCI_Variant value eightpiece",
            &set,
            // Black's king on e8 held by White's jailer on e7.
            "position fen 4k3/4J3/8/8/8/8/8/4K3 b - - 0 1",
            "eval",
        ]);
        let line = out
            .lines()
            .find(|l| l.starts_with("info string eval network "))
            .unwrap_or_else(|| panic!("no network line: {out}"));
        assert!(
            line.contains(&format!("held-{held}.nnue correction cp ")),
            "{out}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `lancer train --init` starts from a network file: with no epoch to run it writes
/// the same network back (the weights survive the way into training and out, from a
/// file of the format before buckets too), one epoch refines it, and a file of other
/// inputs or of the other kind fails cleanly.
#[test]
fn train_from_a_network() {
    let (dir, data) = small_datagen("init", "lighthouse");
    let data_s = data.to_str().unwrap();
    let net = dir.join("again.nnue");
    let net_s = net.to_str().unwrap();
    let train = |extra: &[&str]| {
        let mut args = vec!["train", "--variant", "lighthouse", "-o", net_s];
        args.extend_from_slice(extra);
        args.push(data_s);
        lancer(&args)
    };
    // A network of 64 units, then the same in the format of the networks before
    // buckets (`LNN2`): after the magic, flags, board, group count and 10 groups it
    // lacks the king and output bucket tables, 64 + 65 bytes.
    let o = train(&["--epochs", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v3 = std::fs::read(&net).unwrap();
    assert!(v3.starts_with(b"LNN3"));
    let header = 10 + 2 * 10;
    let mut v2 = b"LNN2".to_vec();
    v2.extend_from_slice(&v3[4..header]);
    v2.extend_from_slice(&v3[header + 129..]);
    let old = dir.join("old.nnue");
    std::fs::write(&old, &v2).unwrap();
    let old_s = old.to_str().unwrap();
    let o = train(&["--epochs", "0", "--init", old_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("starting from"), "{}", stderr(&o));
    // Written back in the new format, byte for byte the network it was made from.
    assert!(std::fs::read(&net).unwrap() == v3);
    let o = train(&["--epochs", "1", "--init", old_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("epoch 1:"), "{}", stderr(&o));
    assert!(std::fs::read(&net).unwrap().starts_with(b"LNN3"));
    // A network without buckets starts every king bucket and output bucket of a
    // bucketed training; one with other buckets cannot.
    let o = train(&[
        "--epochs",
        "1",
        "--kings",
        "4",
        "--outputs",
        "4",
        "--init",
        old_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("x 4 king buckets mirrored") && err.contains("4 output buckets"),
        "{err}"
    );
    let bucketed = dir.join("bucketed.nnue");
    std::fs::copy(&net, &bucketed).unwrap();
    let bucketed_s = bucketed.to_str().unwrap();
    assert_clean_failure(
        &train(&["--kings", "8", "--outputs", "4", "--init", bucketed_s]),
        "king buckets are not this training's",
    );
    assert_clean_failure(
        &train(&["--kings", "4", "--outputs", "2", "--init", bucketed_s]),
        "output buckets are not this training's",
    );
    assert_clean_failure(&train(&["--kings", "3"]), "unknown king buckets '3'");
    assert_clean_failure(&train(&["--outputs", "17"]), "17 output buckets (1 to 16)");
    // A wider training keeps the file's units and adds its own; a narrower one cannot.
    let o = train(&["--epochs", "1", "--hidden", "100", "--init", old_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("100 hidden"), "{}", stderr(&o));
    let wide = std::fs::read(&net).unwrap();
    // After the magic, flags, board, group count, 10 groups and the two bucket
    // tables: the hidden size.
    assert_eq!(u16::from_le_bytes([wide[159], wide[160]]), 100);
    let set = format!("setoption name EvalFile value {net_s}");
    let out = uci_session(&["setoption name UCI_Variant value lighthouse", &set, "eval"]);
    assert!(out.contains("again.nnue correction cp "), "{out}");
    assert_clean_failure(
        &train(&["--hidden", "32", "--init", old_s]),
        "has 64 hidden units, more than this training's 32",
    );
    assert_clean_failure(&train(&["--hidden", "257"]), "257 hidden units (1 to 256)");
    assert_clean_failure(
        &train(&["--init", "src/eval/nnue/chess.nnue"]),
        "has other inputs than this training",
    );
    assert_clean_failure(
        &train(&["--whole", "--init", old_s]),
        "is a correction (without --whole) with clipped ReLU units, this training a whole evaluation",
    );
    assert_clean_failure(&train(&["--init", "Cargo.toml"]), "not a lancer network");
    // Read no further than the largest network, as `EvalFile` reads.
    assert_clean_failure(&train(&["--init", "/dev/zero"]), "not a lancer network");
    std::fs::remove_dir_all(&dir).ok();
}

/// `lancer train`'s other networks (a whole evaluation with buckets, one learning
/// from a teacher) and its failures: a teacher that is no network or cannot judge the
/// variant, data of another variant, a bad line.
fn train_options_and_failures(dir: &std::path::Path, data_s: &str, net_s: &str) {
    // A whole evaluation with king and output buckets and SCReLU units.
    let whole = dir.join("whole.nnue");
    let whole_s = whole.to_str().unwrap();
    let o = lancer(&[
        "train",
        "--epochs",
        "1",
        "--whole",
        "--kings",
        "8",
        "--outputs",
        "8",
        "--screlu",
        "--hidden",
        "32",
        "-o",
        whole_s,
        data_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = uci_session(&[
        &format!("setoption name EvalFile value {whole_s}"),
        "position startpos moves e2e4 e7e5 e1e2",
        "eval",
        "go depth 4",
    ]);
    assert!(out.contains("whole.nnue cp "), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    // Learning from the build's evaluation beside the labels; a teacher that is no
    // network, or cannot judge the variant, fails cleanly.
    let o = lancer(&[
        "train",
        "--epochs",
        "1",
        "--whole",
        "--teacher",
        "builtin",
        "--teacher-weight",
        "0.7",
        "-o",
        whole_s,
        data_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_clean_failure(
        &lancer(&["train", "--teacher", "Cargo.toml", "-o", whole_s, data_s]),
        "teacher Cargo.toml: not a lancer network",
    );
    assert_clean_failure(
        &lancer(&[
            "train",
            "--teacher",
            "src/eval/nnue/lighthouse.nnue",
            "-o",
            whole_s,
            data_s,
        ]),
        "cannot judge chess",
    );
    // Chess positions are no Lighthouse data.
    assert_clean_failure(
        &lancer(&["train", "--variant", "lighthouse", "-o", net_s, data_s]),
        "data of chess, not lighthouse",
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "8/8/8/8/8/8/8/8 w - - 0 1 | 1-0 | x\n").unwrap();
    assert_clean_failure(
        &lancer(&["train", "-o", net_s, bad.to_str().unwrap()]),
        "bad.txt:1",
    );
}

/// `EvalFile` in a UCI session: the built-in network, the file's, none, files that
/// fail (the choice before them kept), and each variant's own through variants.ini.
fn evalfile_chooses_the_network(net_s: &str) {
    let set = format!("setoption name EvalFile value {net_s}");
    let out = uci_session(&[
        "position startpos moves e2e4",
        "eval",
        &set,
        "eval",
        "setoption name EvalFile value none",
        "eval",
        "setoption name EvalFile value /no/such/file.nnue",
        "setoption name EvalFile value Cargo.toml",
        "setoption name EvalFile value /dev/zero",
        "eval",
        "setoption name EvalFile value src/eval/nnue/chess.nnue",
        "eval",
        "setoption name UCI_Variant value lighthouse",
        "position startpos",
        "setoption name EvalFile value",
        "eval",
        "setoption name UCI_Variant value fischerandom",
        "position startpos",
        "eval",
    ]);
    let network: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string eval network "))
        .collect();
    // Built in (chess's is a whole evaluation, docs/networks.md), the file's (a
    // correction), and the file of chess's network: not the "none" one (kept through
    // the files that failed); then Lighthouse's own (a correction) and, in Chess960,
    // chess's, found through variants.ini's inheritance.
    assert_eq!(network.len(), 5, "{out}");
    assert!(
        network[0].starts_with("info string eval network chess cp "),
        "{out}"
    );
    assert!(network[1].contains("mine.nnue correction"), "{out}");
    assert!(network[2].contains("chess.nnue cp "), "{out}");
    assert!(network[3].starts_with("info string eval network lighthouse correction"));
    assert!(
        network[4].starts_with("info string eval network chess cp "),
        "{out}"
    );
    assert_eq!(out.matches("info string eval tempo").count(), 7, "{out}");
    assert!(
        out.contains("info string error: EvalFile /no/such/file.nnue:"),
        "{out}"
    );
    assert!(
        out.contains("info string error: EvalFile Cargo.toml: not a lancer network"),
        "{out}"
    );
    assert!(
        out.contains("info string error: EvalFile /dev/zero: not a lancer network"),
        "{out}"
    );
}

/// The search follows the choice: the same depth takes other nodes without the net.
fn the_search_follows_the_evalfile(net_s: &str) {
    let nodes = |choice: &str| {
        let opt = format!("EvalFile={choice}");
        let o = lancer(&[
            "analyse",
            "--fen",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "--depth",
            "9",
            "--option",
            &opt,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        last_nodes(&stdout(&o))
    };
    let builtin = nodes("");
    assert_eq!(builtin, nodes(""), "a fixed depth searches the same tree");
    assert_ne!(builtin, nodes("none"));
    assert_ne!(builtin, nodes(net_s));
}

/// `lancer train` fits a network to `lancer datagen` positions and writes a file the
/// `EvalFile` option loads; every variant has a network built in (a correction to the
/// hand-made evaluation), found through variants.ini, which `EvalFile none` switches
/// off; bad data, variants and files fail cleanly, and the engine goes on.
#[test]
fn train_and_evalfile() {
    let (dir, data) = small_datagen("train", "chess");
    let data_s = data.to_str().unwrap();
    let net = dir.join("mine.nnue");
    let net_s = net.to_str().unwrap();
    let o = lancer(&["train", "--epochs", "2", "-o", net_s, data_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("hand-made evaluation's held-out error") && err.contains("epoch 2:"),
        "{err}"
    );
    assert!(std::fs::read(&net).unwrap().starts_with(b"LNN3"));
    train_options_and_failures(&dir, data_s, net_s);
    evalfile_chooses_the_network(net_s);
    the_search_follows_the_evalfile(net_s);
    std::fs::remove_dir_all(&dir).ok();
}

/// `wdl_fit.py --cross` splits the PGN games into halves (even, odd), fits each half
/// and scores it on the other: every scored move lands in exactly one half, so the
/// given model's log-loss over the halves equals its log-loss over all the moves.
#[test]
fn wdl_fit_cross_validates_by_game() {
    let dir = std::env::temp_dir().join(format!("lancer-wdlcross-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let mut text = String::new();
    // Nine games of 40 plies whose scores lean toward their results.
    for g in 0..9 {
        let (result, lean) = [("1-0", 1.0), ("0-1", -1.0), ("1/2-1/2", 0.0)][g % 3];
        text.push_str(&format!(
            "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n"
        ));
        for ply in 0..40 {
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            // Scores are the mover's: White's lean for White, its negation for Black.
            let white = lean * (0.2 + 0.05 * ply as f64) + 0.1 * ((g + ply) % 5) as f64 - 0.2;
            let mover = if ply % 2 == 0 { white } else { -white };
            text.push_str(&format!("m{ply} {{{mover:+.2}/10 0.1s}} "));
        }
        text.push_str(&format!("{result}\n\n"));
    }
    std::fs::write(&pgn, text).unwrap();
    let fit = Command::new("python3")
        .args([
            "engine-tests/scripts/wdl_fit.py",
            "--model",
            "150 0 0 100 0 0",
            "--cross",
            pgn.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let out = String::from_utf8_lossy(&fit.stdout);
    assert!(
        fit.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&fit.stderr)
    );
    let number = |after: &str| -> f64 {
        let at = out
            .find(after)
            .unwrap_or_else(|| panic!("no '{after}' in {out}"));
        out[at + after.len()..]
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("no number after '{after}' in {out}"))
    };
    let given = number("given model: mean log-loss ");
    let given_halves = number("given model ");
    let refit_halves = number("other): refit ");
    let refit_all = number("scored positions, mean log-loss ");
    assert!(out.contains("9 PGN games, 360 scored positions"), "{out}");
    assert!((given - given_halves).abs() < 1e-4, "{out}");
    // A refit scored on games it has not seen does no better than on its own.
    assert!(refit_halves >= refit_all - 1e-4, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `lancer dump` prints a data file's positions as the text lines `train` reads, one
/// per position, in order; `relabel.py` replaces their scores with another UCI
/// engine's (lancer itself here, in Lighthouse), and `train` reads the result.
#[test]
fn dump_and_relabel() {
    let (dir, data) = small_datagen("dump", "lighthouse");
    let data_s = data.to_str().unwrap();
    let o = lancer(&["dump", "--variant", "lighthouse", data_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 20, "{text}");
    for l in &lines {
        let f: Vec<&str> = l.split(" | ").collect();
        assert_eq!(f.len(), 3, "{l}");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&f[1]), "{l}");
        assert!(f[2].parse::<f32>().is_ok(), "{l}");
    }
    // The text trains as the binary file does: the same positions.
    let txt = dir.join("lighthouse.txt");
    std::fs::write(&txt, &text).unwrap();
    let net = dir.join("t.nnue");
    let o = lancer(&[
        "train",
        "--variant",
        "lighthouse",
        "--epochs",
        "1",
        "-o",
        net.to_str().unwrap(),
        txt.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n = lines.len() * 2; // mirrored too
    assert!(
        stderr(&o).contains(&format!("{n} positions")),
        "{}",
        stderr(&o)
    );
    // Bad input: a missing file and a file of another variant fail in one line.
    assert_clean_failure(
        &lancer(&["dump", "--variant", "lighthouse", "/nonexistent.data"]),
        "/nonexistent.data",
    );
    assert_clean_failure(
        &lancer(&["dump", "--variant", "chess", data_s]),
        "not chess",
    );
    // relabel.py with lancer as the other engine, every other line.
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/scripts/relabel.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .args([
            "--engine",
            env!("CARGO_BIN_EXE_lancer"),
            "--nodes",
            "200",
            "--every",
            "2",
            "--option",
            "UCI_Variant=lighthouse",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let relabelled: Vec<&str> = out.lines().collect();
    assert_eq!(relabelled.len(), lines.len().div_ceil(2), "{out}");
    for (r, l) in relabelled.iter().zip(lines.iter().step_by(2)) {
        let (rf, lf): (Vec<&str>, Vec<&str>) = (r.split(" | ").collect(), l.split(" | ").collect());
        assert_eq!(rf[..2], lf[..2], "same position and result");
        let s: i32 = rf[2].parse().unwrap_or_else(|_| panic!("{r}"));
        assert!(s.abs() <= 3000, "{r}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `lancer params --variant V` lists the values of V's `searchParams` (variants.ini)
/// and the defaults elsewhere.
#[test]
fn params_of_a_variant() {
    let dir = std::env::temp_dir().join(format!("lancer-cli-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("tuned.ini");
    std::fs::write(&f, "[tuned : chess]\nsearchParams = lmr_base=150\n").unwrap();
    let value = |args: &[&str], name: &str| -> String {
        let o = lancer(args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name));
        line.unwrap().split_whitespace().nth(1).unwrap().to_string()
    };
    let file = f.to_str().unwrap();
    assert_eq!(value(&["params"], "lmr_base"), "75");
    assert_eq!(
        value(
            &["--variants", file, "params", "--variant", "tuned"],
            "lmr_base"
        ),
        "150"
    );
    assert_eq!(
        value(
            &["--variants", file, "params", "--variant", "tuned"],
            "lmr_div"
        ),
        "225"
    );
    // Lighthouse's short games are given more time a move (docs/networks.md).
    let lh = ["params", "--variant", "lighthouse"];
    assert_eq!(value(&lh, "time_percent"), "150");
    assert_eq!(
        value(&["params", "--variant", "chess"], "time_percent"),
        "100"
    );
    let o = lancer(&["params", "--variant", "nosuch"]);
    assert_clean_failure(&o, "unknown variant 'nosuch'");
    std::fs::remove_dir_all(&dir).ok();
}

/// `spsa.py` tunes search parameters by `lancer match` games: its arithmetic finds
/// known best values of a made-up match (`--self-test`), and a real run of two
/// iterations writes its log, goes on from it, and refuses a log of other parameters
/// and unknown ones.
#[test]
fn spsa_tunes_by_matches() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/scripts/spsa.py");
    let spsa = |args: &[&str]| {
        Command::new("python3")
            .arg(&script)
            .args(["--lancer", env!("CARGO_BIN_EXE_lancer")])
            .args(args)
            .output()
            .expect("python3 runs")
    };
    let o = spsa(&["--self-test"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("self-test passed"), "{}", stdout(&o));

    let dir = std::env::temp_dir().join(format!("lancer-cli-spsa-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("o.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    let out = dir.join("run");
    let (epd_s, out_s) = (epd.to_str().unwrap(), out.to_str().unwrap());
    let run = |iterations: &str| {
        spsa(&[
            "--variant",
            "chess",
            "--nodes",
            "200",
            "--pairs",
            "1",
            "--iterations",
            iterations,
            "--openings",
            epd_s,
            "--out",
            out_s,
            "lmr_base:15",
            "nmp_base:1:4",
        ]) // fmt: skip
    };
    let o = run("2");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("searchParams = lmr_base="),
        "{}",
        stdout(&o)
    );
    let log = || std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let rows = |text: &str| -> Vec<Vec<f64>> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
            .collect()
    };
    let text = log();
    assert!(
        text.starts_with("iteration,wins,losses,draws,lmr_base,nmp_base\n"),
        "{text}"
    );
    let r = rows(&text);
    assert_eq!(r.len(), 2, "{text}");
    for (i, row) in r.iter().enumerate() {
        assert_eq!(row[0], (i + 1) as f64, "{text}");
        assert_eq!(row[1] + row[2] + row[3], 2.0, "one pair of games: {text}");
        assert!((0.0..=300.0).contains(&row[4]), "{text}");
        assert!((1.0..=8.0).contains(&row[5]), "{text}");
    }
    // Started again with more iterations, it goes on from its log.
    let o = run("3");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let r = rows(&log());
    assert_eq!(r.len(), 3, "{}", log());
    assert_eq!(r[2][0], 3.0);
    // Another set of parameters on the same log, and an unknown one, are refused.
    let o = spsa(&["--iterations", "4", "--out", out_s, "lmr_base"]);
    assert!(
        !o.status.success() && stderr(&o).contains("other parameters"),
        "{}",
        stderr(&o)
    );
    let o = spsa(&["--out", out_s, "no_such_param"]);
    assert!(
        !o.status.success() && stderr(&o).contains("no_such_param"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}
