//! `lancer match` against scripted fake engines (illegal move, hang, crash, slow,
//! garbage) and real lancer-vs-lancer games in every variant whose PGN must replay.

mod common;
use std::process::Command;

fn lancer() -> &'static str {
    env!("CARGO_BIN_EXE_lancer")
}

fn fake(mode: &str) -> String {
    format!(
        "cmd=python3 {}/engine-tests/fakes/fake_uci.py {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run_match(extra: &[&str]) -> (String, String, bool) {
    let o = Command::new(lancer())
        .arg("match")
        .args(extra)
        .output()
        .expect("lancer match runs");
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
        o.status.success(),
    )
}

/// A match that ran to its end: a zero exit status, `games` finished games, and no
/// illegal move, time loss, crash or protocol error.
fn assert_clean_match(what: &str, out: &str, err: &str, ok: bool, games: usize) {
    assert!(ok, "{what}: {out}\n{err}");
    assert_eq!(out.matches("Finished game").count(), games, "{what}: {out}");
    for bad in [
        "illegal move",
        "loses on time",
        "connection stalls",
        "protocol error",
    ] {
        assert!(!out.contains(bad), "{what}: {bad}: {out}");
    }
    assert!(out.contains("Finished match"), "{what}: {out}");
}

#[test]
fn fake_engines_lose_with_the_reason() {
    if !common::tools_present(
        "fake_engines_lose_with_the_reason",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let me = format!("cmd={}", lancer());
    for (mode, reason) in [
        ("illegal", "makes an illegal move: e2e5"),
        ("garbage", "makes an illegal move: banana"),
        ("hang", "loses on time"),
        ("slow", "loses on time"),
        ("crash", "connection stalls"),
    ] {
        let f = fake(mode);
        let args = [
            "-engine",
            &me,
            "name=lancer",
            "-engine",
            &f,
            "name=fake",
            "-each",
            "proto=uci",
            "tc=1+0.01",
            "-games",
            "2",
            "-recover",
        ];
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{mode}: {out}\n{err}");
        assert_eq!(out.matches(reason).count(), 2, "{mode}: {out}");
        assert!(
            out.contains("Score of lancer vs fake: 2 - 0 - 0  [1.000] 2"),
            "{mode}: {out}"
        );
        assert!(out.contains("Finished match"), "{mode}: {out}");
    }
}

#[test]
fn node_and_depth_limits_reach_the_engine() {
    if !common::tools_present(
        "node_and_depth_limits_reach_the_engine",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let (out, err, ok) = run_match(&[
        "-engine",
        &fake("limits"),
        "name=a",
        "-engine",
        &fake("limits"),
        "name=b",
        "-each",
        "proto=uci",
        "tc=inf",
        "nodes=1234",
        "plies=5",
        "-maxmoves",
        "1",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("1/2-1/2"), "both limits were sent: {out}");
    assert!(!out.contains("illegal"), "{out}");
    // cutechess spellings: arg= (one argument each), depth= for plies=, -srand for
    // -seed, initstr= lines after the handshake, and -debug printing the traffic.
    let script = format!(
        "{}/engine-tests/fakes/fake_uci.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (out, err, ok) = run_match(&[
        "-engine",
        "cmd=python3",
        &format!("arg={script}"),
        "arg=limits",
        "name=a",
        "initstr=isready",
        "-engine",
        &fake("limits"),
        "name=b",
        "-each",
        "proto=uci",
        "tc=inf",
        "nodes=1234",
        "depth=5",
        "-maxmoves",
        "1",
        "-srand",
        "9",
        "-debug",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("1/2-1/2"), "{out}");
    assert!(out.contains(">a: go depth 5 nodes 1234\n"), "{out}");
    assert!(out.contains("<b: bestmove e7e5"), "{out}");
    assert!(out.contains(">a: isready"), "initstr: {out}");
    let me = format!("cmd={}", lancer());
    let (_, err, ok) = run_match(&[
        "-engine",
        &me,
        "proto=xboard",
        "nodes=100",
        "-engine",
        &me,
        "-each",
        "tc=1",
    ]);
    assert!(!ok && err.contains("nodes= needs proto=uci"), "{err}");
    let (_, err, ok) = run_match(&["-engine", &me, "-engine", &me, "-each", "tc=1", "nodes=x"]);
    assert!(!ok && err.contains("nodes: 'x' is not a number"), "{err}");
}

/// `tc=inf` sends no clock, as cutechess-cli does: `go nodes N`, `go depth N`, and
/// `go infinite` when nothing else bounds the search; a clock without increments
/// sends none.
#[test]
fn infinite_time_control_sends_no_clock() {
    if !common::tools_present(
        "infinite_time_control_sends_no_clock",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    for (limits, go) in [
        (&["tc=inf", "nodes=1000"][..], "go nodes 1000"),
        (&["tc=inf", "depth=7"][..], "go depth 7"),
        (&["tc=inf"][..], "go infinite"),
        (&["st=2", "depth=3"][..], "go movetime 2000 depth 3"),
    ] {
        let f = fake(&format!("limits '{go}'"));
        let mut args = vec!["-engine", &f, "name=a", "-engine", &f, "name=b"];
        args.extend(["-each", "proto=uci"]);
        args.extend(limits);
        args.extend(["-maxmoves", "1"]);
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{go}: {out}\n{err}");
        assert!(out.contains("1/2-1/2"), "{go} was not sent: {out}");
        assert!(!out.contains("illegal"), "{go}: {out}");
    }
    let (out, err, ok) = run_match(&[
        "-engine",
        &fake("say e2e4"),
        "name=a",
        "-engine",
        &fake("say e7e5"),
        "name=b",
        "-each",
        "proto=uci",
        "tc=10",
        "-maxmoves",
        "1",
        "-debug",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains(">a: go wtime 10000 btime 10000\n"), "{out}");
}

/// A CECP engine that answers commands it does not know (`post`, `option memory=..`)
/// with `Error (...)` plays on, as under cutechess-cli: an error is not a forfeit.
#[test]
fn cecp_errors_are_not_forfeits() {
    if !common::tools_present(
        "cecp_errors_are_not_forfeits",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let f = format!(
        "cmd=python3 {}/engine-tests/fakes/fake_xboard.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (out, err, ok) = run_match(&[
        "-engine",
        &f,
        "name=a",
        "-engine",
        &f,
        "name=b",
        "-each",
        "proto=xboard",
        "tc=10+0.1",
        "option.memory=64",
        "option.cores=1",
        "-maxmoves",
        "2",
        "-debug",
    ]);
    assert_clean_match("cecp errors", &out, &err, ok, 1);
    assert!(out.contains("<a: Error (unknown command): "), "{out}");
    assert!(
        out.contains("Finished game 1 (a vs b): 1/2-1/2 {Draw by adjudication}"),
        "{out}"
    );
}

/// The move texts cutechess-cli 1.5.1 was seen to accept and reject get the same
/// verdict here (docs/match.md, "Engine moves").
#[test]
fn move_text_verdicts_agree_with_cutechess() {
    if !common::tools_present(
        "move_text_verdicts_agree_with_cutechess",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let accepted = ["e2e4", "e2e4!", "e2e4x", "Nf3", "Nf3+", "g1f3?"];
    let rejected = ["e2e4n", "e2-e4", "e2e4,e4e5", "0000", "e2e5"];
    for (text, ok) in accepted
        .iter()
        .map(|t| (t, true))
        .chain(rejected.iter().map(|t| (t, false)))
    {
        let (out, err, _) = run_match(&[
            "-engine",
            &format!("{} {text}", fake("say")),
            "name=a",
            "-engine",
            &format!("{} e7e5", fake("say")),
            "name=b",
            "-each",
            "proto=uci",
            "tc=inf",
            "-maxmoves",
            "1",
        ]);
        let illegal = format!("{{White makes an illegal move: {text}}}");
        if ok {
            assert!(
                out.contains("1/2-1/2") && !out.contains("illegal"),
                "{text}: {out}{err}"
            );
        } else {
            assert!(out.contains(&illegal), "{text}: {out}{err}");
        }
    }
}

/// -resign and -draw count as cutechess counts (per engine move, with its score).
#[test]
fn resign_and_draw_adjudication() {
    if !common::tools_present(
        "resign_and_draw_adjudication",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let play = |white_cp: &str, extra: &[&str]| {
        let w = format!("{} {white_cp} g1f3 f3g1", fake("cycle"));
        let b = format!("{} 0 g8f6 f6g8", fake("cycle"));
        let mut args = vec!["-engine", &w, "name=a", "-engine", &b, "name=b"];
        args.extend_from_slice(&["-each", "proto=uci", "tc=inf"]);
        args.extend_from_slice(extra);
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{out}{err}");
        out
    };
    // White's own score is -600 on each of its moves: it loses after its third.
    let out = play("-600", &["-resign", "movecount=3", "score=500"]);
    assert!(out.contains("0-1 {Black wins by adjudication}"), "{out}");
    // Two-sided: Black's 0 is no winning score, so nobody resigns; the game ends by
    // repetition instead.
    let out = play(
        "-600",
        &["-resign", "movecount=3", "score=500", "twosided=true"],
    );
    assert!(out.contains("1/2-1/2 {Draw by 3-fold repetition}"), "{out}");
    // Both at 0: a draw once 2 moves are played and 2 moves a side were within 10 cp.
    let out = play("0", &["-draw", "movenumber=2", "movecount=2", "score=10"]);
    assert!(out.contains("1/2-1/2 {Draw by adjudication}"), "{out}");
    // Beyond the score: no draw adjudication.
    let out = play("50", &["-draw", "movenumber=2", "movecount=2", "score=10"]);
    assert!(out.contains("{Draw by 3-fold repetition}"), "{out}");
    let out = play("0", &["-maxmoves", "1"]);
    assert!(out.contains("1/2-1/2 {Draw by adjudication}"), "{out}");
}

/// A CECP engine that reads move text gets the start as EFEN: XBoard's FEN would lose
/// the frozen mark, and the engine would then capture the king with a frozen bearer.
#[test]
fn cecp_peer_keeps_frozen_bearers() {
    let dir = std::env::temp_dir().join(format!("lancer-frozen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("frozen.epd");
    std::fs::write(&epd, "*5*/7/7/3k3/3S(f)3/*K4* w - - 0 1\n").unwrap();
    let me = format!("cmd={}", lancer());
    let (out, err, ok) = run_match(&[
        "-engine",
        &me,
        "name=cecp",
        "proto=xboard",
        "-engine",
        &me,
        "name=uci",
        "-each",
        "tc=10+0.1",
        "plies=3",
        "-variant",
        "royalstandard",
        "-openings",
        &format!("file={}", epd.display()),
        "-maxmoves",
        "2",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("Finished game 1") && !out.contains("illegal"),
        "{out}"
    );
}

#[test]
fn bad_arguments_fail_cleanly() {
    let (_, err, ok) = run_match(&["-engine", "cmd=x"]);
    assert!(!ok && err.contains("at least two -engine"), "{err}");
    let me = format!("cmd={}", lancer());
    let (_, err, ok) = run_match(&[
        "-engine", &me, "-engine", &me, "-each", "tc=1+0.1", "-variant", "nosuch",
    ]);
    assert!(!ok && err.contains("unknown variant 'nosuch'"), "{err}");
    let (_, err, ok) = run_match(&["-engine", &me, "-engine", &me, "-each", "tc=fast"]);
    assert!(!ok && err.contains("bad time control 'fast'"), "{err}");
    let (_, err, ok) = run_match(&[
        "-engine", &me, "name=a", "-engine", &me, "name=a", "-each", "tc=1",
    ]);
    assert!(!ok && err.contains("two engines are named 'a'"), "{err}");
}

/// lancer over UCI against lancer over CECP, one game with each colour per variant.
#[test]
fn lancer_vs_lancer_in_every_variant_replays() {
    let dir = std::env::temp_dir().join(format!("lancer-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let me = format!("cmd={}", lancer());
    for v in common::VARIANTS {
        let pgn = dir.join(format!("{v}.pgn"));
        let pgn_s = pgn.to_str().unwrap();
        let (out, err, ok) = run_match(&[
            "-engine",
            &me,
            "name=a",
            "-engine",
            &me,
            "name=b",
            "proto=xboard",
            "-each",
            "proto=uci",
            "tc=2+0.05",
            "-variant",
            v,
            "-games",
            "2",
            "-concurrency",
            "2",
            "-maxmoves",
            "40",
            "-pgnout",
            pgn_s,
            "-seed",
            "3",
        ]);
        assert_clean_match(v, &out, &err, ok, 2);
        let o = Command::new(lancer())
            .args(["pgn-check", pgn_s])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{v}: pgn-check: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        if v != "chess" {
            assert!(text.contains(&format!("[Variant \"{v}\"]")), "{v}");
        }
        if v.ends_with("random") {
            assert!(
                text.contains("[SetUp \"1\"]") && text.contains("[FEN "),
                "{v}: random setups carry their FEN"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pgn_check_reports_the_first_illegal_move() {
    let dir = std::env::temp_dir().join(format!("lancer-pgncheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.pgn");
    std::fs::write(
        &f,
        "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 {+0.1/3 0.1s} e5 2. Ke3 *\n",
    )
    .unwrap();
    let o = Command::new(lancer())
        .args(["pgn-check", f.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("ply 3") && err.contains("Ke3"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A temporary directory for one test, removed by the test.
fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lancer-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Issue 15: the engine's own options go before `UCI_Variant`, as cutechess sends
/// them (Fairy-Stockfish knows `lighthouse` only once `VariantPath` is set).
#[test]
fn engine_options_come_before_the_variant() {
    if !common::tools_present(
        "engine_options_come_before_the_variant",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let me = format!("cmd={}", lancer());
    let (out, err, ok) = run_match(&[
        "-engine",
        &fake("variantpath"),
        "name=fake",
        "option.VariantPath=lighthouse.ini",
        "-engine",
        &me,
        "name=lancer",
        "-each",
        "proto=uci",
        "tc=inf",
        "plies=1",
        "-variant",
        "lighthouse",
        "-maxmoves",
        "1",
        "-debug",
    ]);
    assert!(ok, "{out}{err}");
    assert!(!out.contains("illegal move"), "{out}");
    assert!(out.contains("1/2-1/2 {Draw by adjudication}"), "{out}");
    let path = out.find(">fake: setoption name VariantPath").expect(&out);
    let variant = out.find(">fake: setoption name UCI_Variant").expect(&out);
    assert!(path < variant, "{out}");
}

/// The Fairy-Stockfish that `engine-tests/scripts/build-fsf.sh` builds (`.ci/run` calls
/// it); under CI a missing binary fails the test, elsewhere the test says it skipped.
fn built_fsf() -> Option<std::path::PathBuf> {
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fsf/fairy-stockfish");
    if bin.exists() {
        return Some(bin);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must build Fairy-Stockfish: engine-tests/scripts/build-fsf.sh"
    );
    eprintln!(
        "SKIPPED: no {} (build it with engine-tests/scripts/build-fsf.sh)",
        bin.display()
    );
    None
}

/// Issue 15: a current Fairy-Stockfish plays Lighthouse under `lancer match` once its
/// `VariantPath` reaches it before `UCI_Variant`; before, it played chess and lost
/// every game with an illegal move.
#[test]
fn fairy_stockfish_plays_lighthouse() {
    let Some(fsf) = built_fsf() else {
        return;
    };
    let ini = common::data_path("fsf/lighthouse.ini");
    let dir = temp_dir("fsf");
    let pgn = dir.join("lighthouse.pgn");
    let (out, err, ok) = run_match(&[
        "-engine",
        &format!("cmd={}", fsf.display()),
        "name=fsf",
        &format!("option.VariantPath={}", ini.display()),
        "-engine",
        &format!("cmd={}", lancer()),
        "name=lancer",
        "-each",
        "proto=uci",
        "tc=2+0.05",
        "-variant",
        "lighthouse",
        "-games",
        "2",
        "-maxmoves",
        "25",
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert_clean_match("lighthouse", &out, &err, ok, 2);
    let o = Command::new(lancer())
        .args(["pgn-check", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// The start of a gauntlet of three lancers, a against b and c, one ply a move.
fn gauntlet_of_three(me: &str) -> Vec<&str> {
    vec![
        "-engine",
        me,
        "name=a",
        "-engine",
        me,
        "name=b",
        "-engine",
        me,
        "name=c",
        "-each",
        "tc=inf",
        "plies=1",
        "-tournament",
        "gauntlet",
    ]
}

/// `-openings policy=`: by default each encounter (two games with `-repeat`) takes
/// the next opening, so the challengers of a gauntlet play different ones;
/// `policy=round` gives every encounter of a round the same opening, as cutechess
/// does, which is what comparing two builds against a third needs.
#[test]
fn opening_policy_round_shares_the_opening_in_a_round() {
    let me = format!("cmd={}", lancer());
    let dir = temp_dir("policy");
    let epd = dir.join("o.epd");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
    ];
    std::fs::write(&epd, fens.join("\n") + "\n").unwrap();
    // The opening of each game, in the order they were scheduled.
    let starts = |policy: &str, games: &str, rounds: &str| -> Vec<usize> {
        let pgn = dir.join(format!("{policy}{games}.pgn"));
        let (file_arg, policy_arg) = (
            format!("file={}", epd.display()),
            format!("policy={policy}"),
        );
        let mut args = gauntlet_of_three(&me);
        args.extend_from_slice(&[
            "-games",
            games,
            "-rounds",
            rounds,
            "-repeat",
            "-maxmoves",
            "1",
            "-openings",
            &file_arg,
            "order=sequential",
            &policy_arg,
            "-pgnout",
            pgn.to_str().unwrap(),
        ]);
        let (out, err, ok) = run_match(&args);
        assert_clean_match(policy, &out, &err, ok, 8);
        let text = std::fs::read_to_string(&pgn).unwrap();
        let mut games: Vec<(usize, usize)> = text
            .split("[Event ")
            .skip(1)
            .map(|g| {
                let tag = |name: &str| {
                    let start = g.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
                    g[start..].split('"').next().unwrap().to_string()
                };
                let opening = fens.iter().position(|f| *f == tag("FEN")).unwrap();
                (tag("GameNumber").parse().unwrap(), opening)
            })
            .collect();
        games.sort();
        games.into_iter().map(|(_, o)| o).collect()
    };
    assert_eq!(starts("default", "2", "2"), [0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(starts("round", "2", "2"), [0, 0, 0, 0, 1, 1, 1, 1]);
    // Four games an encounter: two openings by default, one with `encounter`.
    assert_eq!(starts("default", "4", "1"), [0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(starts("encounter", "4", "1"), [0, 0, 0, 0, 1, 1, 1, 1]);
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 15: `-tournament gauntlet` pairs engine 1 with each of the others, the
/// ranking table of more than two engines is cutechess's, `-ratinginterval` prints it
/// every N games, and `-pgnout F min` writes the seven tags and bare moves.
#[test]
fn gauntlet_ranking_and_rating_interval() {
    let me = format!("cmd={}", lancer());
    let dir = temp_dir("gauntlet");
    let pgn = dir.join("g.pgn");
    let mut args = gauntlet_of_three(&me);
    args.extend_from_slice(&[
        "-games",
        "2",
        "-maxmoves",
        "2",
        "-ratinginterval",
        "2",
        "-variant",
        "Lighthouse",
        "-pgnout",
        pgn.to_str().unwrap(),
        "min",
    ]);
    let (out, err, ok) = run_match(&args);
    assert!(ok, "{out}{err}");
    let games: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Started game"))
        .collect();
    assert_eq!(
        games,
        [
            "Started game 1 of 4 (a vs b)",
            "Started game 2 of 4 (b vs a)",
            "Started game 3 of 4 (a vs c)",
            "Started game 4 of 4 (c vs a)",
        ],
        "{out}"
    );
    // Every game is drawn at the move limit: cutechess's table (as cutechess-cli
    // 1.5.1 prints it), the gauntlet engine ranked 0, ties listing the later engine
    // first, engines without a game last; after games 2 and 4 only.
    let header = "Rank Name                          Elo     +/-   Games   Score    Draw ";
    // cutechess's column widths: rank 4, name 25 (left), the rest 7; each ends in
    // a space (this row is cutechess-cli's own, from a gauntlet of Debian engines).
    let row = |rank: u32, name: &str, elo: &str, games: u32, score: &str, draw: &str| {
        format!("{rank:>4} {name:<25} {elo:>7} {elo:>7} {games:>7} {score:>6}% {draw:>6}% ")
    };
    assert_eq!(
        row(0, "sf1", "0", 2, "50.0", "100.0"),
        "   0 sf1                             0       0       2   50.0%  100.0% "
    );
    let after2 = [
        header.to_string(),
        row(0, "a", "0", 2, "50.0", "100.0"),
        row(1, "b", "0", 2, "50.0", "100.0"),
        row(2, "c", "nan", 0, "nan", "nan"),
        String::new(),
        "ETA: ".into(),
    ]
    .join("\n");
    let after4 = [
        header.to_string(),
        row(0, "a", "0", 4, "50.0", "100.0"),
        row(1, "c", "0", 2, "50.0", "100.0"),
        row(2, "b", "0", 2, "50.0", "100.0"),
        String::new(),
        "Finished match".into(),
    ]
    .join("\n");
    assert!(out.contains(&after2), "{out}");
    assert!(out.contains(&after4), "{out}");
    assert_eq!(out.matches(header).count(), 2, "{out}");
    assert!(
        !out.contains("Score of"),
        "no pair scores with 3 engines: {out}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let first = text.split("\n\n").take(2).collect::<Vec<_>>().join("\n\n");
    let tags: Vec<&str> = first.lines().filter(|l| l.starts_with('[')).collect();
    let names: Vec<&str> = tags
        .iter()
        .map(|t| t[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant"],
        "{text}"
    );
    assert!(!text.contains('{'), "no comments in min mode: {text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 15: two engines get cutechess's per-colour lines and Elo line, at
/// `-ratinginterval` and at the end.
#[test]
fn two_engine_results_as_cutechess_prints_them() {
    let me = format!("cmd={}", lancer());
    let (out, err, ok) = run_match(&[
        "-engine",
        &me,
        "name=a",
        "-engine",
        &me,
        "name=b",
        "-each",
        "tc=inf",
        "plies=1",
        "-games",
        "2",
        "-maxmoves",
        "1",
        "-ratinginterval",
        "1",
    ]);
    assert!(ok, "{out}{err}");
    let end = [
        "Score of a vs b: 0 - 0 - 2  [0.500] 2",
        "...      a playing White: 0 - 0 - 1  [0.500] 1",
        "...      a playing Black: 0 - 0 - 1  [0.500] 1",
        "...      White vs Black: 0 - 0 - 2  [0.500] 2",
        "Elo difference: 0.0 +/- 0.0, LOS: nan %, DrawRatio: 100.0 %",
        "Finished match",
    ]
    .join("\n");
    assert!(out.ends_with(&format!("{end}\n")), "{out}");
    let first = [
        "Score of a vs b: 0 - 0 - 1  [0.500] 1",
        "...      a playing White: 0 - 0 - 1  [0.500] 1",
        "...      White vs Black: 0 - 0 - 1  [0.500] 1",
        "Elo difference: 0.0 +/- 0.0, LOS: nan %, DrawRatio: 100.0 %",
        "ETA: ",
    ]
    .join("\n");
    assert!(out.contains(&first), "{out}");
    // The time left after each interval but the last (issue 17).
    let eta = regex::Regex::new(
        r"(?m)^ETA: \d+s \(1 of 2 games, \d+\.\d s a game\)\nStarted game 2 of 2",
    )
    .unwrap();
    assert!(eta.is_match(&out), "{out}");
    assert_eq!(out.matches("ETA: ").count(), 1, "{out}");
}

/// Short, one-sided matches, with and without `-repeat`: the error bar is what
/// cutechess prints where the difference has no number (all games won: `inf +/-
/// nan`), and a number beside every finite difference (0-0-10: `0.0 +/- 0.0`).
/// 7-1-2, which gave `240.8 +/- nan`, is in `referee::stats`' unit tests.
#[test]
fn short_one_sided_matches_print_their_error_bar() {
    let me = format!("cmd={}", lancer());
    for repeat in [false, true] {
        let extra: &[&str] = if repeat { &["-repeat"] } else { &[] };
        // 10-0-0: every reply of the fake is illegal.
        let illegal = fake("illegal");
        let mut args = vec!["-engine", &me, "name=a", "-engine", &illegal, "name=b"];
        args.extend(["-each", "proto=uci", "tc=1+0.01", "-games", "10"]);
        args.extend(extra);
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{out}{err}");
        assert!(
            out.contains("Score of a vs b: 10 - 0 - 0  [1.000] 10"),
            "{out}"
        );
        assert!(out.contains("Elo difference: inf +/- nan,"), "{out}");
        // 0-0-10: two knights going out and back, a draw by repetition each game.
        let knights = fake("ponder");
        let mut args = vec!["-engine", &knights, "name=a", "-engine", &knights, "name=b"];
        args.extend(["-each", "proto=uci", "tc=1+0.01", "-games", "10"]);
        args.extend(extra);
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{out}{err}");
        assert!(
            out.contains("Score of a vs b: 0 - 0 - 10  [0.500] 10"),
            "{out}"
        );
        assert!(out.contains("Elo difference: 0.0 +/- 0.0,"), "{out}");
    }
}

/// Issue 15: what `lancer match` does not do is refused, not ignored.
#[test]
fn unknown_and_unimplemented_arguments_are_refused() {
    let me = format!("cmd={}", lancer());
    for (extra, needle) in [
        (
            &["-tournament", "gauntlet2"][..],
            "unknown type 'gauntlet2'",
        ),
        (
            &["-tournament", "knockout"][..],
            "-tournament knockout is not implemented",
        ),
        (&["-each", "book=foo.bin"][..], "book= is not implemented"),
        (
            &["-each", "bookdepth=4"][..],
            "bookdepth= is not implemented",
        ),
        (
            &["-each", "ponder=maybe"][..],
            "ponder: 'maybe' is not true/false",
        ),
        (&["-each", "trust"][..], "trust is not implemented"),
        (
            &["-each", "restart=off"][..],
            "restart=off is not implemented",
        ),
        (
            &["-each", "frobnicate=1"][..],
            "unknown engine field 'frobnicate'",
        ),
        (
            &["-outcomeinterval", "2"][..],
            "-outcomeinterval is not implemented",
        ),
        (&["-pgnout", "x.pgn", "max"][..], "unknown flag 'max'"),
        (&["-repeat", "4"][..], "-repeat 4 is not implemented"),
        (
            &["-openings", "file=x.epd", "policy=keep"][..],
            "unknown policy 'keep' (default, encounter, round)",
        ),
        (&["-frobnicate"][..], "unknown option '-frobnicate'"),
        (
            &["-each", "st=1e30"][..],
            "st: '1e30' is not a time in seconds",
        ),
        (
            &["-engine", "cmd=lancer 'unclosed", "name=c"][..],
            "c: cmd=lancer 'unclosed: unbalanced quotes",
        ),
    ] {
        let mut args = vec![
            "-engine", &me, "name=a", "-engine", &me, "name=b", "-each", "tc=1",
        ];
        args.extend_from_slice(extra);
        let (out, err, ok) = run_match(&args);
        assert!(!ok, "{extra:?}: accepted: {out}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{extra:?}: {err}"
        );
        assert!(out.is_empty(), "{extra:?}: nothing is played: {out}");
    }
}

/// The lines `-debug` shows going to or coming from engine `name` (without the time
/// stamps): `>name: line` and `<name: line`.
fn traffic<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let (to, from) = (format!(">{name}: "), format!("<{name}: "));
    out.lines()
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
        .filter(|l| l.starts_with(&to) || l.starts_with(&from))
        .collect()
}

/// `ponder` (cutechess's engine flag): lancer over UCI and lancer over CECP both
/// ponder through two games. The UCI engine gets `Ponder`, `go ponder` after its moves,
/// and `ponderhit` or `stop` at the opponent's; the CECP engine gets `hard` and stays out
/// of force mode (one `go` a game), so that its pondering is not cut off.
#[test]
fn lancer_ponders_over_uci_and_cecp() {
    let me = format!("cmd={}", lancer());
    let (out, err, ok) = run_match(&[
        "-engine",
        &me,
        "name=u",
        "proto=uci",
        "-engine",
        &me,
        "name=x",
        "proto=xboard",
        "-each",
        "tc=1+0.01",
        "ponder",
        "-games",
        "2",
        "-debug",
    ]);
    assert_clean_match("ponder", &out, &err, ok, 2);
    let u = traffic(&out, "u");
    assert_eq!(
        u.iter()
            .filter(|l| **l == ">u: setoption name Ponder value true")
            .count(),
        2,
        "{out}"
    );
    let ponders = u
        .iter()
        .filter(|l| l.starts_with(">u: go ponder wtime "))
        .count();
    let answers = u
        .iter()
        .filter(|l| **l == ">u: ponderhit" || **l == ">u: stop")
        .count();
    assert!(ponders >= 4, "{ponders} go ponder: {out}");
    // Every ponder search ends with ponderhit or stop: at the opponent's move, or at
    // the end of the game.
    assert_eq!(answers, ponders, "{out}");
    // The move after a ponderhit is timed from the ponderhit: no forfeit above, and
    // the answer is the engine's move.
    for (i, l) in u.iter().enumerate() {
        if *l == ">u: ponderhit" {
            let next = u[i + 1..].iter().find(|l| !l.starts_with("<u: info"));
            assert!(
                next.is_some_and(|n| n.starts_with("<u: bestmove ")),
                "{out}"
            );
        }
    }
    let x = traffic(&out, "x");
    assert_eq!(x.iter().filter(|l| **l == ">x: hard").count(), 2, "{out}");
    assert!(!x.contains(&">x: easy"), "{out}");
    assert!(
        x.iter().filter(|l| **l == ">x: go").count() <= 2,
        "one go a game, then usermove alone: {out}"
    );
    // Without `ponder`, CECP engines get `easy` and UCI engines no `go ponder`.
    let (out, err, ok) = run_match(&[
        "-engine",
        &me,
        "name=u",
        "-engine",
        &me,
        "name=x",
        "proto=xboard",
        "-each",
        "tc=1+0.01",
        "-maxmoves",
        "4",
        "-debug",
    ]);
    assert_clean_match("no ponder", &out, &err, ok, 1);
    assert!(
        out.contains(">x: easy\n") && !out.contains("go ponder"),
        "{out}"
    );
}

/// Pondering with scripted engines: hits, a miss (`stop`, its bestmove dropped, then
/// the usual `go`), the game ending while an engine ponders (`stop` before `quit`),
/// ponder moves that are illegal or absent (no pondering), an engine without the
/// `Ponder` option or in a game without a clock (no pondering), and engines that never
/// answer a `go ponder` (the game goes on: a time loss, or a kill at the end).
#[test]
fn ponder_hits_misses_and_the_end_of_a_game() {
    if !common::tools_present(
        "ponder_hits_misses_and_the_end_of_a_game",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    // Engine a and b, with -each fields (default tc=1+0.01) and more options.
    let play = |a: &str, b: &str, extra: &[&str]| {
        let (fa, fb) = (fake(a), fake(b));
        let mut args = vec!["-engine", &fa, "name=a", "-engine", &fb, "name=b"];
        args.extend(["-each", "proto=uci", "ponder"]);
        let (fields, options) = extra.split_at(
            extra
                .iter()
                .position(|e| e.starts_with('-'))
                .unwrap_or(extra.len()),
        );
        args.extend(if fields.is_empty() {
            &["tc=1+0.01"][..]
        } else {
            fields
        });
        args.push("-debug");
        args.extend(options);
        let t = std::time::Instant::now();
        let (out, err, ok) = run_match(&args);
        assert!(ok, "{a} vs {b}: {out}\n{err}");
        assert!(out.contains("Finished match"), "{a} vs {b}: {out}");
        assert!(t.elapsed().as_secs() < 20, "{a} vs {b} took too long");
        out
    };
    // Hits: both predict the other's knight move. After three moves each the game is
    // adjudicated while a ponders: it gets stop, answers, and only then quit.
    let out = play("ponder", "ponder", &["-maxmoves", "3"]);
    assert!(out.contains("{Draw by adjudication}"), "{out}");
    let a = traffic(&out, "a");
    assert!(a.contains(&">a: setoption name Ponder value true"), "{out}");
    assert!(
        a.contains(&">a: position startpos moves g1f3 g8f6")
            && a.iter()
                .any(|l| l.starts_with(">a: go ponder wtime ") && l.ends_with(" winc 10 binc 10")),
        "{out}"
    );
    assert_eq!(
        a.iter().filter(|l| **l == ">a: ponderhit").count(),
        2,
        "{out}"
    );
    let tail: Vec<&str> = a[a.len() - 3..].to_vec();
    assert_eq!(
        tail,
        [">a: stop", "<a: bestmove f3g1 ponder f6g8", ">a: quit"],
        "{out}"
    );
    // A miss: b expects b1c3, a plays f3g1.
    let out = play("cycle 0 g1f3 f3g1", "ponderwith b1c3", &[]);
    let b = traffic(&out, "b");
    let i = b.iter().position(|l| *l == ">b: stop").expect("stop");
    assert_eq!(
        b[i..i + 3],
        [
            ">b: stop",
            "<b: bestmove f6g8 ponder b1c3",
            ">b: position startpos moves g1f3 g8f6 f3g1",
        ],
        "{out}"
    );
    assert!(b[i + 3].starts_with(">b: go wtime "), "{out}");
    assert!(!out.contains("ponderhit"), "{out}");
    // No pondering: an illegal ponder move, none at all, no Ponder option, no clock.
    for (engine, extra) in [
        ("ponderwith e2e5", &[][..]),
        ("ponderwith banana", &[][..]),
        ("cycle 0 g1f3 f3g1", &[][..]),
        ("pondernooption", &[][..]),
        ("ponder", &["tc=inf", "nodes=1000", "-maxmoves", "3"][..]),
    ] {
        let out = play(engine, engine, extra);
        assert!(!out.contains("go ponder"), "{engine} {extra:?}: {out}");
        assert!(!out.contains(": stop"), "{engine} {extra:?}: {out}");
        assert!(!out.contains("loses on time"), "{engine} {extra:?}: {out}");
        if engine == "pondernooption" || extra.contains(&"tc=inf") {
            assert!(!out.contains("Ponder value"), "{engine} {extra:?}: {out}");
        }
    }
    // A fixed time a move ponders with it.
    let out = play("ponder", "ponder", &["st=1", "-maxmoves", "2"]);
    assert!(out.contains(">a: go ponder movetime 1000\n"), "{out}");
    // An engine that never answers a go ponder: at a hit it loses on time; at the end
    // of the game it is ended without its answer.
    let out = play("ponder", "ponderdeaf", &[]);
    assert!(out.contains("1-0 {Black loses on time}"), "{out}");
    let out = play("ponderdeaf", "ponder", &["-maxmoves", "1"]);
    assert!(out.contains("{Draw by adjudication}"), "{out}");
    let a = traffic(&out, "a");
    assert_eq!(a[a.len() - 2..], [">a: stop", ">a: quit"], "{out}");
}

/// Issue 15: a match cut short by an engine failure, or by an engine that cannot
/// start, exits with a non-zero status (with -recover, a crash does not stop it).
#[test]
fn an_engine_failure_fails_the_match() {
    let me = format!("cmd={}", lancer());
    let o = Command::new(lancer())
        .args([
            "match",
            "-engine",
            &me,
            "name=a",
            "-engine",
            "cmd=/nonexistent/engine",
            "name=b",
            "-each",
            "tc=1",
            "-games",
            "2",
            "-recover",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("Terminating the match: an engine could not start"),
        "{out}"
    );
    assert!(err.contains("error: the match was cut short"), "{err}");
    if !common::tools_present(
        "an_engine_failure_fails_the_match",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let crash = fake("crash");
    let args = [
        "match",
        "-engine",
        &me,
        "name=a",
        "-engine",
        &crash,
        "name=b",
        "-each",
        "proto=uci",
        "tc=1",
        "-games",
        "2",
    ];
    let o = Command::new(lancer()).args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("Terminating the match: an engine failed"),
        "{out}"
    );
    assert_eq!(out.matches("Started game").count(), 1, "{out}");
    let o = Command::new(lancer())
        .args(args)
        .arg("-recover")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

/// Issue 15: move comments as cutechess writes them: mate scores `+M1` (plies), the
/// time with fewer decimals as it grows, the end reason joined to the last move's
/// comment; and `tc=inf` is the TimeControl `inf`.
#[test]
fn pgn_comments_as_cutechess_writes_them() {
    if !common::tools_present(
        "pgn_comments_as_cutechess_writes_them",
        &["python3"],
        "apt install python3",
    ) {
        return;
    }
    let dir = temp_dir("comments");
    let epd = dir.join("mate.epd");
    std::fs::write(&epd, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n").unwrap();
    let pgn = dir.join("mate.pgn");
    let (out, err, ok) = run_match(&[
        "-engine",
        &format!("{} 'score mate 1' d1d8", fake("sayinfo")),
        "name=a",
        "-engine",
        &format!("{} 'score cp -30000' g8h8", fake("sayinfo")),
        "name=b",
        "-each",
        "proto=uci",
        "tc=inf",
        "-openings",
        &format!("file={}", epd.display()),
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("1-0 {White mates}"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(text.contains("[TimeControl \"inf\"]"), "{text}");
    let moves = text.split("\n\n").nth(1).unwrap().trim();
    let re = regex::Regex::new(r"^1\. Rd8# \{\+M1/1 (0s|0\.\d{3}s), White mates\} 1-0$").unwrap();
    assert!(re.is_match(moves), "{moves}");
}

/// Issue 15: `lancer pgn-check` reads `;` comments, `%` escape lines, and names in
/// any case (`[Variant "Standard"]`).
#[test]
fn pgn_check_reads_every_pgn_comment_form() {
    let dir = temp_dir("pgnforms");
    let f = dir.join("forms.pgn");
    std::fs::write(
        &f,
        "% an escape line for another program\n[Event \"x\"]\n[Variant \"Standard\"]\n\
         [Result \"*\"]\n\n1. e4 ; to the end of the line, braces too: 2. Ke3 {\n\
         %an escape line between moves\n\
         e5 2. Nf3 {a comment ; with a semicolon} Nc6 *\n\n\
         [Event \"y\"]\n[Variant \"LIGHTHOUSE\"]\n[Result \"*\"]\n\n1. a4 b5 2. axb5 *\n",
    )
    .unwrap();
    let o = Command::new(lancer())
        .args(["pgn-check", f.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("2 games replayed"));
}

/// Issue 17: weaker must mean weaker. Full strength (5000 nodes a move) against
/// `Skill Level 0`, four games in chess and four in Full Cavalry: full strength scores
/// at least 6 of the 8 points. (Skill Level 0 draws its moves at random from a search
/// of 1,000,000 nodes: a lucky game may win, so one loss is not a failure.)
#[test]
fn full_strength_beats_the_lowest_skill_level() {
    let me = format!("cmd={}", lancer());
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for v in ["chess", "fullcavalry"] {
        let (out, err, ok) = run_match(&[
            "-engine",
            &me,
            "name=full",
            "nodes=5000",
            "-engine",
            &me,
            "name=weak",
            "option.Skill Level=0",
            "nodes=1000000",
            "-each",
            "proto=uci",
            "tc=inf",
            "-variant",
            v,
            "-games",
            "4",
            "-concurrency",
            "2",
            "-maxmoves",
            "150",
            "-seed",
            "5",
        ]);
        assert!(ok, "{v}: {out}\n{err}");
        let score = out
            .lines()
            .rfind(|l| l.starts_with("Score of full vs weak: "))
            .unwrap_or_else(|| panic!("{v}: {out}"));
        let nums: Vec<u32> = score["Score of full vs weak: ".len()..]
            .split(" - ")
            .take(3)
            .map(|t| t.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        wins += nums[0];
        losses += nums[1];
        draws += nums[2];
    }
    assert_eq!(wins + losses + draws, 8, "{wins}-{losses}-{draws}");
    assert!(
        2 * wins + draws >= 12,
        "full strength {wins}-{losses}-{draws} of 8"
    );
}
