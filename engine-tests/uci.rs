//! UCI tests against the built binary: transcripts in `engine-tests/protocol/uci/`,
//! plus games of a few plies in every variant and raw-byte abuse.

mod common;
mod protocol;
use protocol::*;
use regex::Regex;
use std::time::Duration;

#[test]
fn uci_transcripts() {
    run_transcript_dir("uci", &["uci"], 5);
}

/// For every variant: `position startpos moves ...` + `go depth 4`, six plies in a row,
/// each best move accepted by the next `position`.
#[test]
fn six_plies_in_every_variant() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove (\S+)").unwrap();
    let err = Regex::new(r"^info string error").unwrap();
    let readyok = Regex::new("^readyok$").unwrap();
    for v in common::VARIANTS {
        s.send(&format!("setoption name UCI_Variant value {v}"));
        s.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..6 {
            let cmd = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            s.send(&cmd);
            s.send("go depth 4");
            let line = s.expect(&best, Duration::from_secs(60)).unwrap();
            let m = best.captures(&line).unwrap()[1].to_string();
            assert_ne!(m, "(none)", "{v} ply {ply}: no move in {cmd}");
            moves.push(m);
        }
        s.send(&format!("position startpos moves {}", moves.join(" ")));
        s.send("isready");
        s.expect(&readyok, Duration::from_secs(10)).unwrap();
        eprintln!("{v}: {}", moves.join(" "));
    }
    s.send("quit");
    let (_, seen) = s.finish().unwrap();
    for l in &seen {
        assert!(!err.is_match(l), "engine rejected something: {l}");
    }
}

#[test]
fn garbage_bytes_do_not_hurt() {
    let mut s = Session::start(&["uci"]);
    s.send_bytes(b"\xff\xfe\x00garbage\x07\n");
    s.send_bytes(b"position \xc3\x28 moves\n");
    s.send_bytes(b"go \xff depth 2\n");
    s.send_bytes(&[b'x'; 100_000]);
    s.send_bytes(b"\nsetoption name Hash value 99999999999999999999999999\n");
    s.send("isready");
    s.expect(&Regex::new("^readyok$").unwrap(), Duration::from_secs(20))
        .unwrap();
    s.send("position startpos moves e2e4");
    s.send("go depth 3");
    s.expect(
        &Regex::new("^bestmove [a-h][1-8][a-h][1-8]").unwrap(),
        Duration::from_secs(20),
    )
    .unwrap();
    s.send("quit");
    s.finish().unwrap();
}

/// `go movetime N` is a promise from the GUI: the engine spends it (less `Move
/// Overhead`) rather than answering early. Before issue 15 lancer answered at ~0.58·N.
#[test]
fn movetime_is_spent_whole() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove (\S+)").unwrap();
    s.send("setoption name Move Overhead value 10");
    s.send("position startpos");
    s.send("isready");
    s.expect(&Regex::new("^readyok$").unwrap(), Duration::from_secs(10))
        .unwrap();
    let t = std::time::Instant::now();
    s.send("go movetime 1000");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    let ms = t.elapsed().as_millis();
    s.send("quit");
    s.finish().unwrap();
    assert!(ms >= 900, "go movetime 1000 answered after {ms} ms");
}

/// A ponder search that has thought longer than time management would have let it
/// (20 s on the clock: about 0.4 s a move, at most 1.7 s) answers `ponderhit` at once
/// instead of finishing the iteration it is in (Stockfish's `stopOnPonderhit`); one
/// hit early, before its time is spent, still thinks on. The early one has 60 s on the
/// clock (about 1.4 s a move): a settled search may end at 0.55 of its optimum scaled
/// down to 0.29, about 0.23 s, so anything under 150 ms would be answering at once.
#[test]
fn ponderhit_after_the_time_is_spent_answers_at_once() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove (\S+)").unwrap();
    let ready = Regex::new("^readyok$").unwrap();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("isready");
    s.expect(&ready, Duration::from_secs(10)).unwrap();
    s.send("go ponder wtime 20000 btime 20000");
    std::thread::sleep(Duration::from_millis(1200));
    let t = std::time::Instant::now();
    s.send("ponderhit");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    let late = t.elapsed().as_millis();
    s.send("position startpos moves d2d4 d7d5");
    s.send("isready");
    s.expect(&ready, Duration::from_secs(10)).unwrap();
    s.send("go ponder wtime 60000 btime 60000");
    let t = std::time::Instant::now();
    s.send("ponderhit");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    let early = t.elapsed().as_millis();
    s.send("quit");
    s.finish().unwrap();
    assert!(late < 150, "ponderhit after 1.2 s answered after {late} ms");
    assert!(early >= 150, "an early ponderhit answered after {early} ms");
}

/// Issue 17: after the first second a search names each root move it starts
/// (`info depth D currmove M currmovenumber N`, as Stockfish does); a shorter search
/// sends none.
#[test]
fn current_move_lines_after_the_first_second() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove (\S+)").unwrap();
    let cur = Regex::new(r"^info depth (\d+) currmove (\S+) currmovenumber (\d+)$").unwrap();
    s.send("setoption name UCI_Variant value fullcavalry");
    s.send("position startpos");
    s.send("go movetime 300");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    assert!(
        !s.seen.iter().any(|l| l.contains("currmove")),
        "a 300 ms search: {:?}",
        s.seen
    );
    s.send("go infinite");
    let t = std::time::Instant::now();
    let first = s.expect(&cur, Duration::from_secs(30)).unwrap();
    let ms = t.elapsed().as_millis();
    std::thread::sleep(Duration::from_millis(1500));
    s.send("stop");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    s.send("quit");
    let (_, seen) = s.finish().unwrap();
    assert!(ms >= 1000, "first current-move line after {ms} ms: {first}");
    let v = lancer::rules::Variants::builtin();
    let fc = v.get("fullcavalry").unwrap();
    let p = lancer::rules::Position::from_efen(fc, &fc.default_start_fen()).unwrap();
    let mut n = 0;
    for l in &seen {
        if let Some(c) = cur.captures(l) {
            let m = lancer::rules::notation::parse_move(&p, &c[2]);
            assert!(m.is_ok(), "not a legal root move: {l}");
            let k: usize = c[3].parse().unwrap();
            assert!((1..=p.legal_move_count()).contains(&k), "{l}");
            n += 1;
        }
    }
    assert!(n >= 1, "{seen:?}");
}

/// Issue 17: with `UCI_ShowWDL` every score line carries `wdl W D L` right after the
/// score (per mille, adding up to 1000, the winning side's chance above the loser's);
/// without it, none does. A mated side's line says all loss.
#[test]
fn show_wdl_follows_the_score() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove").unwrap();
    assert!(s
        .seen
        .iter()
        .any(|l| l == "option name UCI_ShowWDL type check default false"));
    s.send("position startpos");
    s.send("go depth 4");
    s.expect(&best, Duration::from_secs(20)).unwrap();
    assert!(!s.seen.iter().any(|l| l.contains(" wdl ")), "{:?}", s.seen);
    s.send("setoption name UCI_ShowWDL value true");
    let wdl = Regex::new(r" score (cp -?\d+|mate -?\d+) wdl (\d+) (\d+) (\d+) ").unwrap();
    for (variant, fen) in [
        // White is a queen up.
        ("chess", "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"),
        ("lighthouse", ""),
        ("royalstandard", ""),
        // Black to move and mated next move: 1... Kb8 2. Qh8#.
        ("chess", "k7/8/1K6/8/8/8/8/7Q b - - 0 1"),
    ] {
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        if fen.is_empty() {
            s.send("position startpos");
        } else {
            s.send(&format!("position fen {fen}"));
        }
        let from = s.seen.len();
        s.send("go depth 5");
        s.expect(&best, Duration::from_secs(20)).unwrap();
        let lines: Vec<&String> = s.seen[from..]
            .iter()
            .filter(|l| l.contains(" score "))
            .collect();
        assert!(!lines.is_empty(), "{variant}");
        let last = lines[lines.len() - 1].clone();
        for l in lines {
            let c = wdl.captures(l).unwrap_or_else(|| panic!("{variant}: {l}"));
            let n = |i: usize| c[i].parse::<u32>().unwrap();
            assert_eq!(n(2) + n(3) + n(4), 1000, "{l}");
            if fen.starts_with("4k3") {
                assert!(n(2) > 900, "a queen up: {l}");
            }
            if fen.starts_with("k7") && *l == last {
                assert!(l.contains("score mate -1 wdl 0 0 1000 "), "mated: {l}");
            }
        }
    }
    s.send("quit");
    s.finish().unwrap();
}

/// Issue 17: `Skill Level` and `UCI_LimitStrength` + `UCI_Elo` are listed, and a weak
/// level answers with a legal move after a small search, while the GUI still sees the
/// single line it asked for.
#[test]
fn skill_levels_play_legal_moves_quickly() {
    let mut s = Session::uci();
    let best = Regex::new(r"^bestmove (\S+)").unwrap();
    for o in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
    ] {
        assert!(s.seen.iter().any(|l| l == o), "{o}: {:?}", s.seen);
    }
    assert!(s
        .seen
        .iter()
        .any(|l| l.starts_with("option name UCI_Elo type spin")));
    let v = lancer::rules::Variants::builtin();
    for (opts, variant) in [
        (vec!["Skill Level value 0"], "chess"),
        (vec!["Skill Level value 7"], "eightpiece"),
        (
            vec![
                "Skill Level value 20",
                "UCI_LimitStrength value true",
                "UCI_Elo value 1500",
            ],
            "lighthouse",
        ),
    ] {
        for o in opts {
            s.send(&format!("setoption name {o}"));
        }
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send("position startpos");
        let from = s.seen.len();
        s.send("go wtime 60000 btime 60000");
        let line = s.expect(&best, Duration::from_secs(20)).unwrap();
        let var = v.get(variant).unwrap();
        let p = lancer::rules::Position::from_efen(var, &var.default_start_fen()).unwrap();
        let m = best.captures(&line).unwrap()[1].to_string();
        assert!(
            lancer::rules::notation::parse_move(&p, &m).is_ok(),
            "{line}"
        );
        let infos: Vec<&String> = s.seen[from..]
            .iter()
            .filter(|l| l.contains(" pv "))
            .collect();
        assert!(infos.iter().all(|l| l.contains(" multipv 1 ")), "{infos:?}");
        let nodes: u64 = infos
            .last()
            .and_then(|l| l.split(" nodes ").nth(1))
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!((1..=2_000_000).contains(&nodes), "{variant}: {nodes} nodes");
    }
    s.send("quit");
    s.finish().unwrap();
}

/// The node count of `go depth 8` after four plies of chess.
fn depth8_nodes(s: &mut Session) -> u64 {
    let best = Regex::new(r"^bestmove ").unwrap();
    let nodes = Regex::new(r"^info depth 8 .* nodes (\d+) ").unwrap();
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    s.send("go depth 8");
    let line = s.expect(&nodes, Duration::from_secs(60)).unwrap();
    s.expect(&best, Duration::from_secs(60)).unwrap();
    nodes.captures(&line).unwrap()[1].parse().unwrap()
}

/// The `SearchParams` option changes the search (the node count of a fixed-depth
/// search), a parameter is an option of its own name too, and a bad list is an
/// error line that keeps the values in use.
#[test]
fn search_params_change_the_search_and_bad_ones_are_refused() {
    let mut s = Session::uci();
    let err = Regex::new(r"^info string error").unwrap();
    let search = depth8_nodes;
    let default = search(&mut s);
    s.send("setoption name SearchParams value lmr_base=150 rfp_margin=60");
    let changed = search(&mut s);
    assert_ne!(changed, default, "the parameters changed nothing");
    for bad in [
        "setoption name SearchParams value nosuch=1",
        "setoption name SearchParams value lmr_base=100 rfp_margin=100000",
        "setoption name SearchParams value lmr_base=x",
        "setoption name lmr_base value 100000",
    ] {
        s.send(bad);
        let line = s.expect(&err, Duration::from_secs(10)).unwrap();
        assert!(line.contains("search parameter"), "{bad}: {line}");
    }
    assert_eq!(search(&mut s), changed, "a refused list changed the values");
    s.send("setoption name SearchParams value default");
    assert_eq!(search(&mut s), default);
    s.send("setoption name LMR_base value 150");
    s.send("setoption name rfp_margin value 60");
    assert_eq!(search(&mut s), changed);
    s.send("quit");
    s.finish().unwrap();
}

/// A variant's `searchParams` (variants.ini) are the parameters its searches use,
/// inherited by a child variant; a parameter the user sets wins over the variant's
/// in every variant, and `default` gives the variant's own back.
#[test]
fn a_variants_search_params_are_its_searches_own() {
    let dir = std::env::temp_dir().join(format!("lancer-uci-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("tuned.ini");
    std::fs::write(
        &f,
        // `plain` is chess with the default parameters (chess has values of its own).
        "[plain : chess]\nsearchParams = default\n\n\
         [tuned : chess]\nsearchParams = lmr_base=150 rfp_margin=60\n\n[tuned2 : tuned]\n",
    )
    .unwrap();
    let mut s = Session::uci();
    s.send(&format!("setoption name VariantPath value {}", f.display()));
    s.send("setoption name UCI_Variant value plain");
    let chess = depth8_nodes(&mut s);
    s.send("setoption name UCI_Variant value tuned");
    let tuned = depth8_nodes(&mut s);
    assert_ne!(tuned, chess, "the variant's parameters changed nothing");
    s.send("setoption name UCI_Variant value tuned2");
    assert_eq!(
        depth8_nodes(&mut s),
        tuned,
        "a child keeps its parent's parameters"
    );
    // The same values set by the user in plain search as the variant does.
    s.send("setoption name UCI_Variant value plain");
    s.send("setoption name SearchParams value lmr_base=150 rfp_margin=60");
    assert_eq!(depth8_nodes(&mut s), tuned);
    // The user's rfp_margin (the default value) wins over the variant's 60.
    s.send("setoption name SearchParams value default lmr_base=150");
    let lmr_only = depth8_nodes(&mut s);
    s.send("setoption name rfp_margin value 80");
    s.send("setoption name UCI_Variant value tuned");
    assert_eq!(
        depth8_nodes(&mut s),
        lmr_only,
        "the user's value lost to the variant's"
    );
    s.send("setoption name SearchParams value default");
    assert_eq!(depth8_nodes(&mut s), tuned);
    s.send("quit");
    s.finish().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
