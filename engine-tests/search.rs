//! Search tests: mate suites per variant (`engine-tests/mates/<variant>.epd`:
//! `EFEN ;mate N ;bm MOVE [MOVE...]`), reproducibility, draw rules inside the tree.

mod common;
use common::*;
use lancer::rules::notation::{move_text, parse_move};
use lancer::rules::Position;
use lancer::search::{search, Limits, SearchResult, Settings, Shared, MATE, MATE_BOUND};
use std::sync::Arc;

fn go(pos: &Position, keys: &[u64], limits: Limits) -> SearchResult {
    go_with(pos, keys, limits, &Settings::default())
}

fn go_with(pos: &Position, keys: &[u64], limits: Limits, settings: &Settings) -> SearchResult {
    let shared = Arc::new(Shared::new(16));
    search(pos, keys, &limits, settings, &shared, &mut |_| {})
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
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
            // Two plies beyond the mate's length, and three more for the selective
            // search: reductions follow the evaluation, so a network changes where a
            // mate shows up (Lighthouse's 1k2/4/4/2K1/4/4/4/4[R] finds its mate in 3 at
            // depth 12 with its first network, at depth 13 with its second).
            let r = go(&p, &[p.key()], depth(2 * mate + 7));
            n += 1;
            let want = MATE - (2 * mate - 1);
            let got = r.best.map(|m| move_text(&p, m)).unwrap_or_default();
            if r.score.raw() != want || !bm.contains(&got.as_str()) {
                errs.push(format!(
                    "{variant} {}: expected mate {mate} with {bm:?}, got {} with {got}",
                    parts[0], r.score
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
const BENCH_NODES: u64 = 219382;

#[test]
fn bench_nodes_are_pinned() {
    let (nodes, _) = lancer::engine::bench::run(variants(), 9).unwrap();
    assert_eq!(
        nodes, BENCH_NODES,
        "bench changed: update BENCH_NODES if the search was meant to change"
    );
}

/// Every search feature the `Ablation` option names does something: switched off, it
/// changes the node count of a mate-in-3 search or of some bench position (depth 9,
/// where singular extensions and ProbCut start to act).
/// `engine-tests/scripts/ablation.sh` knows every name.
#[test]
fn every_ablation_switch_changes_the_search() {
    let script = std::fs::read_to_string(format!(
        "{}/engine-tests/scripts/ablation.sh",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let listed: Vec<&str> = script
        .lines()
        .find_map(|l| l.strip_prefix("all_features=\""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("ablation.sh sets all_features")
        .split_whitespace()
        .collect();
    let names: Vec<&str> = lancer::search::Feature::ALL.iter().map(|f| f.0).collect();
    assert_eq!(listed, names, "ablation.sh's all_features");
    let mate = pos(
        "chess",
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    );
    let mate_nodes = |disabled| {
        let settings = Settings {
            disabled,
            ..Settings::default()
        };
        go_with(&mate, &[mate.key()], depth(8), &settings).nodes
    };
    let full_mate = mate_nodes(0);
    let full = lancer::engine::bench::nodes_per_position(variants(), 9, "").unwrap();
    assert_eq!(full.iter().sum::<u64>(), BENCH_NODES);
    let mut same = Vec::new();
    // History pruning needs histories deep in the red, which depth 9 may not reach.
    let mut deeper = None;
    for &(name, f) in lancer::search::Feature::ALL {
        if mate_nodes(f as u32) != full_mate {
            continue;
        }
        if lancer::engine::bench::nodes_per_position(variants(), 9, name).unwrap() != full {
            continue;
        }
        let full12 = deeper.get_or_insert_with(|| {
            lancer::engine::bench::nodes_per_position(variants(), 12, "").unwrap()
        });
        if lancer::engine::bench::nodes_per_position(variants(), 12, name).unwrap() == *full12 {
            same.push(name);
        }
    }
    assert!(
        same.is_empty(),
        "switching these off changes nothing: {same:?}"
    );
    let e = lancer::engine::bench::nodes_per_position(variants(), 1, "nul").unwrap_err();
    assert!(
        e.contains("unknown search feature 'nul' (null, lmr, "),
        "{e}"
    );
}

/// The optional reductions, extensions and pruning (checks and late captures
/// reduced, less reduction on a principal variation, more after a capture in the
/// table, futility in quiescence, double and negative singular extensions, a
/// re-search deeper or shallower after a reduction) are each used (switching one
/// changes the search) and keep a mate within reach.
#[test]
fn optional_reductions_and_pruning_change_the_search() {
    // Black mates in 3 (1... Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#).
    let mate = pos(
        "chess",
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    );
    let middle = pos(
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P3BPPP/R2QKB1R w KQ - 0 9",
    );
    let run = |p: &Position, list: &str, d: i32| {
        let mut settings = Settings::default();
        settings.apply_params(list).unwrap();
        go_with(p, &[p.key()], depth(d), &settings)
    };
    let nodes = |l: &str| run(&mate, l, 10).nodes + run(&middle, l, 11).nodes;
    // (name, off, on); chess's own parameters set some of them, so each is named.
    let all = [
        ("lmr_check", 0, 1),
        ("lmr_noisy", 0, 1),
        ("singular_neg_beta", 1, 2),
    ];
    let list = |on: Option<&str>| {
        all.iter()
            .map(|&(name, off, v)| {
                format!(
                    "{name}={}",
                    if on.is_none_or(|o| o == name) { v } else { off }
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let none = nodes(&list(Some("")));
    for (name, ..) in all {
        assert_ne!(none, nodes(&list(Some(name))), "{name} changes nothing");
    }
    let r = run(&mate, &list(None), 11);
    assert!(
        r.score.raw() >= MATE_BOUND,
        "no mate with all of them: {}",
        r.score
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
    assert_eq!(r.score.raw(), 0, "{}", r.score);
    assert_eq!(r.best, Some(m));
    // Without that history the same position is lost.
    let r = go(&p, &[p.key()], depth(6));
    assert!(r.score.raw() < -300, "{}", r.score);
}

#[test]
fn n_move_rule_draws_in_the_tree() {
    // KQ v K with the 50-move counter at 99: the next move is not mate, so it is a draw.
    let p = pos("chess", "8/8/8/4k3/8/8/8/1Q2K3 w - - 99 80");
    let r = go(&p, &[p.key()], depth(4));
    assert_eq!(r.score.raw(), 0, "{}", r.score);
    // Lighthouse counts 30 plies; a pawn move does not reset it.
    let p = pos("lighthouse", "1k2/4/4/4/4/4/P3/K2R[] w - - 29 40");
    let r = go(&p, &[p.key()], depth(4));
    assert_eq!(r.score.raw(), 0, "{}", r.score);
}

#[test]
fn king_capture_scores_as_mate() {
    // The black king stands next to White's bearers, king and rook: it can be taken at once.
    let p = pos("royalstandard", "*ss1ss*/7/7/7/2kR3/*SSKSS* w - - 0 1");
    let r = go(&p, &[p.key()], depth(3));
    assert_eq!(r.score.raw(), MATE - 1, "{}", r.score);
    let best = r.best.map(|m| move_text(&p, m)).unwrap_or_default();
    assert!(
        ["d2c2", "d1c2", "b1c2", "c1c2"].contains(&best.as_str()),
        "{best}"
    );
    // A rook may not capture outside its bearers' range (mobility rule).
    let p = pos("royalstandard", "*ss1ss*/7/3k3/7/3R3/*SSKSS* w - - 0 1");
    let r = go(&p, &[p.key()], depth(1));
    assert!(r.score.raw() < MATE_BOUND, "{}", r.score);
}

/// The EFEN of `efen` with the colours swapped and the board turned upside down:
/// ranks reversed, letters' case swapped, lancer facings mirrored north-south, hands,
/// side, castling rights and the en-passant square swapped with them.
fn colour_mirror(efen: &str) -> String {
    let f: Vec<&str> = efen.split_whitespace().collect();
    let (board, hand) = match f[0].find('[') {
        Some(i) => (&f[0][..i], Some(&f[0][i..])),
        None => (f[0], None),
    };
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<&str> = board.split('/').collect();
    let height = ranks.len() as u32;
    let mut out = Vec::new();
    for r in ranks.iter().rev() {
        let mut s = String::new();
        let mut chars = r.chars();
        while let Some(c) = chars.next() {
            if c == '(' {
                let state: String = chars.by_ref().take_while(|&c| c != ')').collect();
                let flipped = match state.as_str() {
                    "n" => "s",
                    "s" => "n",
                    "ne" => "se",
                    "se" => "ne",
                    "nw" => "sw",
                    "sw" => "nw",
                    other => other,
                };
                s.push_str(&format!("({flipped})"));
            } else if c.is_ascii_alphabetic() {
                s.push(swap(c));
            } else {
                s.push(c);
            }
        }
        out.push(s);
    }
    let mut b = out.join("/");
    if let Some(h) = hand {
        b.extend(h.chars().map(swap));
    }
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s: Vec<char> = f[2].chars().map(swap).collect();
        let mut c: String = s.iter().filter(|c| c.is_ascii_uppercase()).collect();
        c.extend(s.iter().filter(|c| c.is_ascii_lowercase()));
        c
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let rank: u32 = f[3][1..].parse().unwrap();
        format!("{}{}", &f[3][..1], height + 1 - rank)
    };
    format!("{b} {side} {castling} {ep} {} {}", f[4], f[5])
}

/// Issue 14: the evaluation does not favour a colour. A position and its colour mirror
/// (same side to move, colours swapped) get the same score for the side to move, in
/// every variant, over random games; and `eval`'s parts add up to the evaluation.
#[test]
fn evaluation_is_colour_symmetric() {
    use lancer::eval::{
        breakdown, cache, counter_scale, evaluate, evaluate_with, params, trace, MgEg,
    };
    use lancer::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(14);
    let mut checked = 0;
    for v in variants().all() {
        let built = cache::build(v, params::for_variant(v));
        let mut random = params::defaults(v);
        for w in random.w.iter_mut() {
            *w = MgEg::new(rng.gen_range(-60..60), rng.gen_range(-60..60));
        }
        let random = cache::build(v, random);
        for game in 0..12 {
            let mut p = random_start(v, &mut rng);
            for _ply in 0..80 {
                let efen = p.efen();
                let m = colour_mirror(&efen);
                let q = Position::from_efen(v, &m)
                    .unwrap_or_else(|e| panic!("{}: mirror {m} of {efen}: {e}", v.name));
                assert_eq!(colour_mirror(&m), efen, "{}: mirror twice", v.name);
                assert_eq!(
                    evaluate(&p),
                    evaluate(&q),
                    "{} game {game}: {efen} and its mirror {m}: {:?} / {:?}",
                    v.name,
                    breakdown(&p),
                    breakdown(&q)
                );
                assert_eq!(
                    p.legal_move_count(),
                    q.legal_move_count(),
                    "{}: {efen} / {m}",
                    v.name
                );
                let b = breakdown(&p);
                let sum = b
                    .terms()
                    .map(|t| t.1)
                    .fold((0, 0), |a, s| (a.0 + s.mg, a.1 + s.eg));
                assert_eq!(sum, (b.sum().mg, b.sum().eg));
                assert_eq!(b.for_side(p.side()), evaluate(&p));
                // The tuner's view (counts times weights) is the evaluation, for the
                // build's weights and for random ones (every term weighs something).
                let (n, phase, _) = trace(&p);
                for t in [&built, &random] {
                    let mut lin = 0.0;
                    for (i, w) in t.params.w.iter().enumerate() {
                        lin += n[i] as f64 * (w.mg * phase + w.eg * (256 - phase)) as f64 / 256.0;
                    }
                    lin *= counter_scale(&p, &t.params, phase) as f64 / 256.0;
                    let e = evaluate_with(&p, t);
                    let white = if p.side() == lancer::rules::Color::White {
                        e
                    } else {
                        -e
                    };
                    assert!(
                        (lin - white as f64).abs() <= 3.0,
                        "{}: {efen}: traced {lin}, evaluated {white}",
                        v.name
                    );
                    assert_eq!(
                        evaluate_with(&p, t),
                        evaluate_with(&q, t),
                        "{}: {efen} / {m} (weights {})",
                        v.name,
                        if std::ptr::eq(t, &built) {
                            "built"
                        } else {
                            "random"
                        }
                    );
                }
                checked += 1;
                let mut l = MoveList::new();
                p.legal_moves(&mut l);
                if l.is_empty() {
                    break;
                }
                let mv = l.as_slice()[rng.gen_range(0..l.len())];
                p.do_move(mv);
                if p.king_sq(lancer::rules::Color::White).is_none()
                    || p.king_sq(lancer::rules::Color::Black).is_none()
                {
                    break;
                }
            }
        }
    }
    eprintln!("{checked} positions");
    assert!(checked > 3000, "{checked}");
}

/// Issue 14's terms that count particular shapes: a backward pawn, a windmill's
/// pivots, bearers an enemy can displace or stands next to; and the n-move counter,
/// which scales the evaluation instead of adding to it.
#[test]
fn eval_terms_count_what_they_name() {
    use lancer::eval::{cache, evaluate_with, params, trace, MgEg};
    let count = |variant: &str, efen: &str, i: usize| {
        let v = variants().get(variant).unwrap();
        let p = Position::from_efen(v, efen).unwrap_or_else(|e| panic!("{efen}: {e}"));
        trace(&p).0[i]
    };
    // d2 has its neighbour e3 only ahead, and the black pawn c4 guards d3: backward.
    // e3 is supported by d2; c4 is isolated, not backward.
    let fen = "4k3/8/8/8/2p5/4P3/3P4/4K3 w - - 0 1";
    assert_eq!(count("chess", fen, params::BACKWARD), 1);
    assert_eq!(count("chess", fen, params::ISOLATED), -1);
    // Without c4, d3 is safe: no backward pawn.
    assert_eq!(
        count(
            "chess",
            "4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1",
            params::BACKWARD
        ),
        0
    );
    // The Royal Standard's start with Black's windmill gone: White's d2 has the pivots
    // c1 and e1. Black's bearers are out of every White piece's reach.
    let rs = "*sskss*/br3br/7/7/BR1W1BR/*SSKSS* w - - 0 1";
    assert_eq!(count("royalstandard", rs, params::WINDMILL_PIVOTS), 2);
    assert_eq!(count("royalstandard", rs, params::BEARER_ATTACKED), 0);
    // The white king on c5 stands next to the black bearers b6 and c6 (and attacks
    // them); nothing of Black's reaches a white bearer.
    let rs = "*sskss*/brK2br/7/7/BR1W1BR/*SS1SS* w - - 0 1";
    assert_eq!(count("royalstandard", rs, params::BEARER_BY_KING), 2);
    assert_eq!(count("royalstandard", rs, params::BEARER_ATTACKED), 2);
    // The queen a1 reaches g7 and h8 of the black king's zone (g8 and its neighbours),
    // the knight d6 reaches f7, the king c1 nothing of it.
    let fen = "6k1/8/3N4/8/8/8/8/Q1K5 w - - 0 1";
    let queen = params::KING_ATTACK + lancer::rules::Kind::Queen.idx();
    let knight = params::KING_ATTACK + lancer::rules::Kind::Knight.idx();
    assert_eq!(count("chess", fen, queen), 2);
    assert_eq!(count("chess", fen, knight), 1);
    // Bishop pair, rooks on an open (h) and a half-open (a) file.
    let t = |fen: &str, i: usize| count("chess", fen, i);
    let fen = "4k3/p7/8/8/8/8/1P6/R1B1KB1R w - - 0 1";
    assert_eq!(t(fen, params::BISHOP_PAIR), 1);
    assert_eq!(t(fen, params::ROOK_OPEN), 1);
    assert_eq!(t(fen, params::ROOK_SEMI_OPEN), 1);
    // The knight e5, guarded by d4, is an outpost until a black pawn on f7 can chase it.
    assert_eq!(t("4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", params::OUTPOST), 1);
    assert_eq!(t("4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", params::OUTPOST), 0);
    // The knight a1, hemmed in by its own pawns b3 and c2, has no square: 3 short.
    let low = params::LOW_MOBILITY + lancer::rules::Kind::Knight.idx();
    assert_eq!(t("4k3/8/8/8/8/1P6/2P5/N3K3 w - - 0 1", low), 3);
    // Pawns d3 and e3 stand side by side; e4 is guarded by d3, which has no partner.
    let c = params::CONNECTED;
    assert_eq!(t("4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1", c + 2), 2);
    assert_eq!(t("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1", c + 3), 1);
    assert_eq!(t("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1", c + 2), 0);
    // The passed pawn d5 may step to d6 unless the king stands there.
    let free = params::PASSED_FREE + 4;
    assert_eq!(t("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", free), 1);
    assert_eq!(t("8/8/3k4/3P4/8/8/8/4K3 w - - 0 1", free), 0);
    // The bishop c1 shares its (dark) colour with the pawns b2 and d2.
    let fen = "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1";
    assert_eq!(t(fen, params::BISHOP_PAWNS), 2);
    assert_eq!(t(fen, params::MINOR_BEHIND_PAWN), 0);
    let behind = "4k3/8/8/8/8/2P5/2N5/4K3 w - - 0 1";
    assert_eq!(t(behind, params::MINOR_BEHIND_PAWN), 1);
    // Space: Black's pawn d5 takes c4 and e4 from White's twelve squares and one of
    // its own: 10 against 11.
    assert_eq!(t("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", params::SPACE), -1);
    // The rook a1 can check from a8 unless the knight b6 guards it.
    let rook_check = params::SAFE_CHECK + 2;
    assert_eq!(t("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", rook_check), 1);
    assert_eq!(t("4k3/8/1n6/8/8/8/8/R3K3 w - - 0 1", rook_check), 0);
    assert_eq!(
        t("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", params::THREAT_BY_ROOK),
        1
    );
    assert_eq!(
        t("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", params::THREAT_BY_KING),
        1
    );
    // d3-d4 would attack the knight c5.
    let push = "4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1";
    assert_eq!(t(push, params::PAWN_PUSH_THREAT), 1);
    assert_eq!(
        t("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", params::KING_PAWN_DIST),
        4
    );
    assert_eq!(t("6k1/8/8/6P1/8/8/8/4K3 w - - 0 1", params::PAWN_STORM), 1);
    // The counter: with weight 128 the evaluation halves when the counter is full.
    let v = variants().get("lighthouse").unwrap();
    let mut w = params::for_variant(v);
    w.w[params::COUNTER] = MgEg::new(128, 128);
    let t = cache::build(v, w);
    let at = |clock: u32| {
        let efen = format!("bnkr/1ppp/4/4/1P2/2P1/B2P/1NKR[Pp] b - - {clock} 5");
        evaluate_with(&Position::from_efen(v, &efen).unwrap(), &t)
    };
    let (fresh, full) = (at(0), at(30));
    assert_ne!(fresh, 0);
    assert!((full - fresh / 2).abs() <= 1, "{fresh} at 0, {full} at 30");
    assert!(
        (at(15) - fresh * 3 / 4).abs() <= 1,
        "{fresh} at 0, {} at 15",
        at(15)
    );
}
