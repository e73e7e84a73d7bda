//! Rule-position tests from `engine-tests/positions/<variant>.pos`, and randomized
//! playout invariants (incremental key, EFEN round trip, move text round trip).
//!
//! A `.pos` file is a list of cases:
//! ```text
//! [what the case shows]
//! fen = EFEN
//! moves = a1a2 ...        exact set of legal moves (checked by hand against docs/rules.md)
//! count = N               number of legal moves
//! legal = ...             these moves are legal
//! illegal = ...           these are not
//! check = true|false      the side to move is in check
//! outcome = none|checkmate|stalemate|kingcaptured|nmoverule|insufficient
//! perft = 2:N 3:N
//! san = MOVE SAN          the SAN of a move (repeatable)
//! play = MOVES            then `after` is the EFEN after these moves
//! after = EFEN
//! ```

mod common;
use common::*;
use lancer::rules::notation::{move_text, parse_move, parse_san, san};
use lancer::rules::perft::perft;
use lancer::rules::{MoveList, Position, Reason};
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn legal_texts(p: &Position) -> BTreeSet<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    l.iter().map(|&m| move_text(p, m)).collect()
}

/// The `outcome` key's name of the position's outcome.
fn outcome_name(pos: &Position) -> &'static str {
    match pos.outcome() {
        None => "none",
        Some(o) => match o.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::KingCaptured => "kingcaptured",
            Reason::NMoveRule => "nmoverule",
            Reason::InsufficientMaterial => "insufficient",
            Reason::Repetition => "repetition",
        },
    }
}

/// A `san = MOVE SAN` key: the move's SAN is SAN, which parses back to the move.
fn check_san(pos: &Position, val: &str, ctx: &str, errs: &mut Vec<String>) {
    let (mt, want) = val.split_once(' ').unwrap();
    match parse_move(pos, mt) {
        Ok(m) => {
            let got = san(pos, m);
            if got != want.trim() {
                errs.push(format!("{ctx}: SAN of {mt} is {got}, expected {want}"));
            }
            if parse_san(pos, &got) != Ok(m) {
                errs.push(format!("{ctx}: SAN {got} does not parse back"));
            }
        }
        Err(e) => errs.push(format!("{ctx}: {e}")),
    }
}

fn run_case(variant: &str, name: &str, keys: &[(String, String)]) -> Vec<String> {
    let mut errs = Vec::new();
    let mut p: Option<Position> = None;
    let mut played: Option<Position> = None;
    for (k, val) in keys {
        let ctx = format!("{variant} [{name}] {k}");
        if k == "fen" {
            let v = variants().get(variant).unwrap();
            match Position::from_efen(v, val) {
                Ok(x) => p = Some(x),
                Err(e) => {
                    errs.push(format!("{ctx}: EFEN rejected: {e}"));
                    return errs;
                }
            }
            continue;
        }
        let Some(pos) = p.as_ref() else {
            errs.push(format!("{ctx}: no fen before it"));
            return errs;
        };
        let legal = legal_texts(pos);
        match k.as_str() {
            "moves" => {
                let want: BTreeSet<String> = val.split_whitespace().map(String::from).collect();
                if want != legal {
                    let missing: Vec<_> = want.difference(&legal).collect();
                    let extra: Vec<_> = legal.difference(&want).collect();
                    errs.push(format!("{ctx}: missing {missing:?}, unexpected {extra:?}"));
                }
            }
            "count" => {
                let n: usize = val.parse().unwrap();
                if legal.len() != n {
                    errs.push(format!(
                        "{ctx}: {} legal moves, expected {n}: {legal:?}",
                        legal.len()
                    ));
                }
            }
            "legal" => {
                for m in val.split_whitespace() {
                    if !legal.contains(m) {
                        errs.push(format!("{ctx}: {m} should be legal; legal: {legal:?}"));
                    }
                }
            }
            "illegal" => {
                for m in val.split_whitespace() {
                    if legal.contains(m) || parse_move(pos, m).is_ok() {
                        errs.push(format!("{ctx}: {m} should be illegal"));
                    }
                }
            }
            "check" => {
                let want = val == "true";
                if pos.in_check() != want {
                    errs.push(format!("{ctx}: in_check is {}", pos.in_check()));
                }
            }
            "outcome" => {
                let got = outcome_name(pos);
                if got != val {
                    errs.push(format!("{ctx}: outcome {got}"));
                }
            }
            "perft" => {
                for t in val.split_whitespace() {
                    let (d, n) = t.split_once(':').unwrap();
                    let (d, n): (u32, u64) = (d.parse().unwrap(), n.parse().unwrap());
                    let got = perft(pos, d);
                    if got != n {
                        errs.push(format!("{ctx}: perft {d} = {got}, expected {n}"));
                    }
                }
            }
            "san" => check_san(pos, val, &ctx, &mut errs),
            "play" => {
                let mut q = *pos;
                for t in val.split_whitespace() {
                    match parse_move(&q, t) {
                        Ok(m) => q.do_move(m),
                        Err(e) => {
                            errs.push(format!("{ctx}: {e}"));
                            break;
                        }
                    }
                }
                played = Some(q);
            }
            "after" => match &played {
                Some(q) if q.efen() == *val => {}
                Some(q) => errs.push(format!("{ctx}: EFEN after play is {}", q.efen())),
                None => errs.push(format!("{ctx}: 'after' without 'play'")),
            },
            other => errs.push(format!("{ctx}: unknown key '{other}'")),
        }
    }
    errs
}

#[test]
fn rule_positions() {
    let dir = data_path("positions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pos"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .pos files in {}", dir.display());
    let mut errs = Vec::new();
    let mut cases = 0;
    for f in files {
        let variant = f.file_stem().unwrap().to_string_lossy().to_string();
        let variant = variant.split('-').next().unwrap().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        let mut name = String::new();
        let mut keys: Vec<(String, String)> = Vec::new();
        let mut flush = |name: &str, keys: &mut Vec<(String, String)>, errs: &mut Vec<String>| {
            if !keys.is_empty() {
                cases += 1;
                errs.extend(run_case(&variant, name, keys));
                keys.clear();
            }
        };
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(n) = line.strip_prefix('[') {
                flush(&name, &mut keys, &mut errs);
                name = n.trim_end_matches(']').to_string();
                continue;
            }
            let (k, v) = line
                .split_once('=')
                .unwrap_or_else(|| panic!("{}: bad line {line}", f.display()));
            keys.push((k.trim().to_string(), v.trim().to_string()));
        }
        flush(&name, &mut keys, &mut errs);
    }
    eprintln!("{cases} rule-position cases");
    assert!(cases > 0, "no rule-position cases in {}", dir.display());
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

/// Random playouts in every variant: the incremental key equals the recomputed key, the
/// EFEN round-trips, every move's text parses back to the same move and so does its SAN.
#[test]
fn random_playouts_keep_invariants() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(20261122);
    for v in variants().all() {
        for game in 0..60 {
            let mut p = random_start(v, &mut rng);
            for ply in 0..160 {
                assert_eq!(
                    p.key(),
                    p.compute_key(),
                    "{} game {game} ply {ply}: {}",
                    v.name,
                    p.efen()
                );
                let efen = p.efen();
                let q = Position::from_efen(v, &efen)
                    .unwrap_or_else(|e| panic!("{}: own EFEN {efen} rejected: {e}", v.name));
                assert_eq!(q.efen(), efen);
                assert_eq!(
                    q.key(),
                    p.key(),
                    "{} key after EFEN round trip: {efen}",
                    v.name
                );
                let mut l = MoveList::new();
                p.legal_moves(&mut l);
                if l.is_empty() {
                    break;
                }
                for &m in l.iter() {
                    let t = move_text(&p, m);
                    assert_eq!(parse_move(&p, &t), Ok(m), "{}: {t} in {efen}", v.name);
                    if game % 10 == 0 {
                        let s = san(&p, m);
                        assert_eq!(
                            parse_san(&p, &s),
                            Ok(m),
                            "{}: SAN {s} ({t}) in {efen}",
                            v.name
                        );
                    }
                }
                let m = l[rng.gen_range(0..l.len())];
                p.do_move(m);
            }
        }
    }
}

#[test]
fn start_positions_print_as_given() {
    for v in variants().all() {
        let f = v.default_start_fen();
        assert_eq!(pos(&v.name, &f).efen(), f, "{}", v.name);
    }
}
