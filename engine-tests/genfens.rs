//! `genfens` (OpenBench's DATAGEN openings) and UCI command lines given as lancer's
//! arguments: `lancer "genfens N seed S book None" quit`, as OpenBench's workers run
//! engines (docs/cli.md and docs/uci.md, "Commands").

mod common;
use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn lancer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lancer"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("lancer runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The EFENs of a run's `info string genfens` lines, after checking it succeeded
/// quietly.
fn genfens_lines(o: &Output) -> Vec<String> {
    let out = stdout(o);
    assert!(o.status.success(), "{out}{}", stderr(o));
    assert!(!out.contains("error"), "{out}");
    assert_eq!(stderr(o), "", "nothing on stderr");
    out.lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect()
}

/// `genfens` in `variant` (set by UCI_Variant first), as OpenBench sends it.
fn genfens(variant: &str, count: usize, seed: u64) -> Vec<String> {
    let set = format!("setoption name UCI_Variant value {variant}");
    let gen = format!("genfens {count} seed {seed} book None");
    genfens_lines(&lancer(&[&set, &gen, "quit"]))
}

/// Every line is a position of `variant` the rules core accepts (a legal position:
/// the side not to move is not in check), written as lancer writes it, with a move
/// to play and no result yet.
fn assert_playable(variant: &str, lines: &[String]) {
    for l in lines {
        let p = common::pos(variant, l);
        assert_eq!(&p.efen(), l, "{variant}: the EFEN round trip");
        assert!(p.legal_move_count() > 0, "{variant}: {l} has no move");
        assert!(p.outcome().is_none(), "{variant}: {l} is over");
    }
}

#[test]
fn genfens_in_every_variant() {
    for v in common::variants().all() {
        let name = v.name.as_str();
        let lines = genfens(name, 12, 7);
        assert_eq!(lines.len(), 12, "{name}");
        let distinct: HashSet<&String> = lines.iter().collect();
        assert_eq!(distinct.len(), 12, "{name}: distinct");
        assert_playable(name, &lines);
        // 8 or 9 random plies from the start: the fifth move, either side to move.
        let sides: HashSet<&str> = lines
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(sides.len(), 2, "{name}: both sides to move in {lines:?}");
        for l in &lines {
            assert_eq!(l.split_whitespace().last(), Some("5"), "{name}: {l}");
        }
        assert_eq!(genfens(name, 12, 7), lines, "{name}: the same seed");
        assert_ne!(genfens(name, 12, 8), lines, "{name}: another seed");
    }
}

/// The back rank of each line's White pieces (random setups: not all the same).
fn white_back_ranks(lines: &[String]) -> HashSet<String> {
    lines
        .iter()
        .map(|l| {
            let board = l.split_whitespace().next().unwrap();
            board.rsplit('/').next().unwrap().to_string()
        })
        .collect()
}

#[test]
fn random_setups_vary() {
    for v in ["fischerandom", "eightpiecerandom"] {
        let lines = genfens(v, 8, 3);
        assert!(white_back_ranks(&lines).len() > 1, "{v}: {lines:?}");
    }
    // Chess with UCI_Chess960 on plays Chess960's random setups.
    let o = lancer(&[
        "setoption name UCI_Chess960 value true",
        "genfens 8 seed 3 book None",
    ]);
    let lines = genfens_lines(&o);
    assert_eq!(lines.len(), 8);
    assert_playable("fischerandom", &lines);
    assert!(white_back_ranks(&lines).len() > 1, "{lines:?}");
    // Without it, chess starts from its one setup, with chess's castling letters.
    for l in genfens("chess", 8, 3) {
        let castling = l.split_whitespace().nth(2).unwrap();
        assert!(castling.chars().all(|c| "KQkq-".contains(c)), "{l}");
    }
}

#[test]
fn genfens_from_a_book() {
    let dir = std::env::temp_dir().join(format!("lancer-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    // A FEN, an EPD line as OpenBench writes them, one with opcodes, a Chess960 setup
    // (read as Chess960 in chess, as OpenBench's FRC books are), a comment and a blank.
    let lines = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 3;",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 bm Nf3; id \"sicilian\";",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "# a comment",
        "",
    ];
    std::fs::write(&book, lines.join("\n")).unwrap();
    let gen = format!("genfens 16 seed 11 book {}", book.display());
    let out = genfens_lines(&lancer(&[&gen, "quit"]));
    assert_eq!(out.len(), 16);
    let chess = common::variants().get("chess").unwrap();
    for l in &out {
        // The lines of the Chess960 setup are Chess960 positions (castling HFhf).
        let variant = match lancer::rules::Position::from_efen(chess, l) {
            Ok(_) => "chess",
            Err(_) => "fischerandom",
        };
        assert_playable(variant, std::slice::from_ref(l));
        assert!(!lines.contains(&l.as_str()), "{l} is the book's own line");
    }
    let starts: HashSet<&str> = out.iter().map(|l| &l[..4]).collect();
    assert!(
        starts.len() > 1,
        "lines from more than one book line: {out:?}"
    );
    assert_eq!(genfens_lines(&lancer(&[&gen])), out, "the same seed");

    // A book that cannot be read, or a line that is no position, is one error line
    // naming it; the session goes on.
    std::fs::write(dir.join("bad.epd"), "not a position\n").unwrap();
    for (book, needle) in [
        (dir.join("missing.epd"), "missing.epd: "),
        (dir.clone(), "not a file"),
        (dir.join("bad.epd"), "bad.epd:1: "),
    ] {
        let gen = format!("genfens 2 seed 1 book {}", book.display());
        let o = lancer(&[&gen, "isready"]);
        let text = stdout(&o);
        assert!(o.status.success());
        let errors: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("info string error: genfens: book "))
            .collect();
        assert_eq!(errors.len(), 1, "{text}");
        assert!(errors[0].contains(needle), "{text}");
        assert!(!text.contains("info string genfens"), "{text}");
        assert!(text.ends_with("readyok\n"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn genfens_typed_into_a_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lancer"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\nposition startpos moves e2e4\ngenfens 3 seed 7 book None\ngenfens x\nd\nquit\n",
        )
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = stdout(&o);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string genfens "))
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    // The same as given as arguments, and the game is where it was.
    let args = genfens("chess", 3, 7);
    assert_eq!(
        lines,
        args.iter()
            .map(|l| format!("info string genfens {l}"))
            .collect::<Vec<_>>()
    );
    assert!(
        out.contains("info string error: genfens: N is not a count"),
        "{out}"
    );
    assert!(
        out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{out}"
    );
}

#[test]
fn arguments_run_as_uci_lines() {
    // A search that ends by itself is waited for; the last line need not be `quit`.
    let o = lancer(&["position startpos moves e2e4", "go depth 5"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("info depth 5 "), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    // An open search is stopped when the arguments end; `quit` stops any.
    for args in [&["go infinite"][..], &["go depth 60", "quit"][..]] {
        let t = std::time::Instant::now();
        let o = lancer(args);
        assert!(o.status.success(), "{args:?}");
        assert!(t.elapsed().as_secs() < 20, "{args:?}");
        assert!(stdout(&o).contains("bestmove "), "{args:?}");
    }
    // A line lancer does not know is an error line, and the rest still run.
    let o = lancer(&["isready", "nosuch", "isready"]);
    let out = stdout(&o);
    assert!(
        out.contains("info string error: unknown command 'nosuch'"),
        "{out}"
    );
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    // A variants file given first serves the lines.
    let dir = std::env::temp_dir().join(format!("lancer-genfens-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ini = dir.join("mine.ini");
    std::fs::write(&ini, "[mycavalry : fullcavalry]\nnMoveRule = 150\n").unwrap();
    let o = lancer(&[
        "--variants",
        ini.to_str().unwrap(),
        "setoption name UCI_Variant value mycavalry",
        "genfens 2 seed 1 book None",
    ]);
    let lines = genfens_lines(&o);
    assert_eq!(lines.len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn commands_and_typos_are_as_before() {
    // The commands keep their meaning: `bench` is lancer's bench, `"bench 1"` the
    // UCI line; both end in the node and nps lines.
    let o = lancer(&["bench", "1"]);
    assert!(o.status.success());
    assert!(!stderr(&o).is_empty(), "lancer bench reports each position");
    let o = lancer(&["bench 1"]);
    assert!(o.status.success());
    assert!(stdout(&o).trim_end().ends_with(" nps"), "{}", stdout(&o));
    // A word that is neither a command nor a UCI command is clap's usage error,
    // with its tip for a near miss.
    for (word, tip) in [
        ("analyze", Some("a similar subcommand exists: 'analyse'")),
        ("foo", None),
        ("genfen 3", None),
    ] {
        let o = lancer(&[word]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{word}: {err}");
        assert!(
            err.starts_with(&format!("error: unrecognized subcommand '{word}'")),
            "{err}"
        );
        if let Some(t) = tip {
            assert!(err.contains(t), "{err}");
        }
        assert!(err.contains("try '--help'"), "{err}");
        assert_eq!(stdout(&o), "", "{word}");
    }
    // --help says that UCI commands may be given.
    let help = stdout(&lancer(&["--help"]));
    assert!(help.contains("genfens 12 seed 7 book None"), "{help}");
    // Every word the session knows is taken as a UCI line (unless it is a command).
    for word in lancer::protocol::uci::COMMANDS {
        if ["uci", "bench"].contains(&word) {
            continue;
        }
        let o = lancer(&[word, "quit"]);
        assert!(o.status.success(), "{word}: {}", stderr(&o));
        assert!(!stdout(&o).contains("unknown command"), "{word}");
    }
}
