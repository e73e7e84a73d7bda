//! Search tests: mate suites per variant (`engine-tests/mates/<variant>.epd`:
//! `EFEN ;mate N ;bm MOVE [MOVE...]`), reproducibility, draw rules inside the tree.

mod common;
use common::*;
use lancer::rules::notation::{move_text, parse_move};
use lancer::rules::Position;
use lancer::search::{search, uci_score, Limits, SearchResult, Shared, MATE, MATE_BOUND};
use std::sync::Arc;

fn go(pos: &Position, keys: &[u64], limits: Limits) -> SearchResult {
    let shared = Arc::new(Shared::new(16));
    search(pos, keys, &limits, &shared, 1, &mut |_| {})
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Default::default()
    }
}

#[test]
fn mate_suites() {
    let dir = data_path("mates");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "epd"));
    files.sort();
    assert!(!files.is_empty(), "no .epd files in {}", dir.display());
    let nfiles = files.len();
    let mut errs = Vec::new();
    let mut n = 0;
    for f in files {
        let variant = f.file_stem().unwrap().to_string_lossy().to_string();
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.split(';').map(str::trim).collect();
            let p = pos(&variant, parts[0]);
            let mate: i32 = parts[1].strip_prefix("mate ").unwrap().parse().unwrap();
            let bm: Vec<&str> = parts[2]
                .strip_prefix("bm ")
                .unwrap()
                .split_whitespace()
                .collect();
            for b in &bm {
                parse_move(&p, b).unwrap_or_else(|e| panic!("{variant} {}: bm {b}: {e}", parts[0]));
            }
            let r = go(&p, &[p.key()], depth(2 * mate + 4));
            n += 1;
            let want = MATE - (2 * mate - 1);
            let got = r.best.map(|m| move_text(&p, m)).unwrap_or_default();
            if r.score != want || !bm.contains(&got.as_str()) {
                errs.push(format!(
                    "{variant} {}: expected mate {mate} with {bm:?}, got {} with {got}",
                    parts[0],
                    uci_score(r.score)
                ));
            }
        }
    }
    eprintln!("{n} mate positions");
    assert!(n >= nfiles, "{n} mate positions in {nfiles} files");
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn node_limited_search_is_reproducible() {
    for (variant, moves) in [
        ("chess", "e2e4 e7e5"),
        ("eightpiece", "d2d4"),
        ("lighthouse", "a2a3"),
    ] {
        let v = variants().get(variant).unwrap();
        let mut p = Position::from_efen(v, &v.default_start_fen()).unwrap();
        let mut keys = vec![p.key()];
        for t in moves.split_whitespace() {
            p.do_move(parse_move(&p, t).unwrap());
            keys.push(p.key());
        }
        let lim = Limits {
            nodes: Some(20_000),
            multipv: 1,
            ..Default::default()
        };
        let a = go(&p, &keys, lim.clone());
        let b = go(&p, &keys, lim);
        assert_eq!(a.best, b.best, "{variant}");
        assert_eq!(a.nodes, b.nodes, "{variant}");
        assert!(
            a.nodes >= 20_000 && a.nodes < 21_000,
            "{variant}: {}",
            a.nodes
        );
    }
}

/// The node count of `lancer bench` (depth 9). Change it with each commit that
/// changes the search's behaviour, and quote it as `Bench: N` in that commit's
/// message; a commit that should not change behaviour must leave it as it is.
const BENCH_NODES: u64 = 492697;

#[test]
fn bench_nodes_are_pinned() {
    let (nodes, _) = lancer::bench::run(variants(), 9).unwrap();
    assert_eq!(
        nodes, BENCH_NODES,
        "bench changed: update BENCH_NODES if the search was meant to change"
    );
}

#[test]
fn repetition_is_a_draw_in_the_tree() {
    // White is a queen down. The position after Nb1-c3 already occurred in the game, so
    // that move repeats it and scores as a draw: the best White can do.
    let p = pos("chess", "7k/8/8/3q4/8/8/8/KN6 w - - 10 60");
    let m = parse_move(&p, "b1c3").unwrap();
    let x = p.after(m);
    let r = go(&p, &[x.key(), p.key()], depth(6));
    assert_eq!(r.score, 0, "{}", uci_score(r.score));
    assert_eq!(r.best, Some(m));
    // Without that history the same position is lost.
    let r = go(&p, &[p.key()], depth(6));
    assert!(r.score < -300, "{}", uci_score(r.score));
}

#[test]
fn n_move_rule_draws_in_the_tree() {
    // KQ v K with the 50-move counter at 99: the next move is not mate, so it is a draw.
    let p = pos("chess", "8/8/8/4k3/8/8/8/1Q2K3 w - - 99 80");
    let r = go(&p, &[p.key()], depth(4));
    assert_eq!(r.score, 0, "{}", uci_score(r.score));
    // Lighthouse counts 30 plies; a pawn move does not reset it.
    let p = pos("lighthouse", "1k2/4/4/4/4/4/P3/K2R[] w - - 29 40");
    let r = go(&p, &[p.key()], depth(4));
    assert_eq!(r.score, 0, "{}", uci_score(r.score));
}

#[test]
fn king_capture_scores_as_mate() {
    // The black king stands next to White's bearers, king and rook: it can be taken at once.
    let p = pos("royalstandard", "*ss1ss*/7/7/7/2kR3/*SSKSS* w - - 0 1");
    let r = go(&p, &[p.key()], depth(3));
    assert_eq!(r.score, MATE - 1, "{}", uci_score(r.score));
    let best = r.best.map(|m| move_text(&p, m)).unwrap_or_default();
    assert!(
        ["d2c2", "d1c2", "b1c2", "c1c2"].contains(&best.as_str()),
        "{best}"
    );
    // A rook may not capture outside its bearers' range (mobility rule).
    let p = pos("royalstandard", "*ss1ss*/7/3k3/7/3R3/*SSKSS* w - - 0 1");
    let r = go(&p, &[p.key()], depth(1));
    assert!(r.score < MATE_BOUND, "{}", uci_score(r.score));
}
