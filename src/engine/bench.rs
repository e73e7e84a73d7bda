//! `lancer bench` and UCI's `bench`: a fixed set of positions from every variant
//! searched to a fixed depth on one thread. The node total is a signature of the
//! search's behaviour. It lives in the engine, below both callers, and searches
//! through the engine's own door like any other client.

use super::{Engine, Limits, Sandbox};
use crate::rules::Variants;
use std::time::Instant;

/// (variant, EFEN or "start", moves played first).
pub const BENCH: &[(&str, &str, &str)] = &[
    ("chess", "start", ""),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "",
    ),
    (
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "",
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ""),
    (
        "fischerandom",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "",
    ),
    ("fullcavalry", "start", ""),
    ("fullcavalry", "start", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"),
    ("eightpiece", "start", ""),
    ("eightpiece", "start", "e2e4 e7e5 g1f3 g8f6 d2d4"),
    ("eightpiecerandom", "start", "d2d4 d7d5"),
    ("royalstandard", "start", ""),
    ("royalstandard", "start", "d2c2 d5c5"),
    ("lighthouse", "start", ""),
    ("lighthouse", "start", "a2a4 b7b5 a4b5 a7a6"),
];

/// Runs the bench at `depth` through the engine facade (one thread, a 16 MB table
/// and empty history tables for each position); prints per-position lines to stderr
/// and returns (nodes, nps).
pub fn run(vs: &Variants, depth: i32) -> Result<(u64, u64), String> {
    run_in(vs, depth, None)
}

/// [`run`] in an engine bounded by `sandbox` (the table, nodes, threads, positions
/// and whether it searches inline are the sandbox's), as a sandboxed session's
/// `bench` runs.
pub fn run_in(vs: &Variants, depth: i32, sandbox: Option<Sandbox>) -> Result<(u64, u64), String> {
    let t0 = Instant::now();
    let nodes = search_each(vs, depth, "", sandbox, |i, name, nodes| {
        eprintln!("position {:>2} {:<17} nodes {}", i + 1, name, nodes)
    })?;
    let total: u64 = nodes.iter().sum();
    let secs = t0.elapsed().as_secs_f64();
    Ok((total, (total as f64 / secs.max(1e-9)) as u64))
}

/// The nodes of each bench position at `depth` with the search features named in
/// `ablation` (the `Ablation` option's value) switched off.
pub fn nodes_per_position(vs: &Variants, depth: i32, ablation: &str) -> Result<Vec<u64>, String> {
    search_each(vs, depth, ablation, None, |_, _, _| {})
}

fn search_each(
    vs: &Variants,
    depth: i32,
    ablation: &str,
    sandbox: Option<Sandbox>,
    mut each: impl FnMut(usize, &str, u64),
) -> Result<Vec<u64>, String> {
    let mut engine = match sandbox {
        Some(s) => Engine::sandboxed(vs.clone(), s),
        None => Engine::with_variants(vs.clone()),
    };
    engine.set_hash(16)?;
    engine.set_move_overhead(0);
    engine.set_ablation(ablation)?;
    let mut nodes = Vec::new();
    let positions = sandbox.map_or(BENCH.len(), |s| s.bench);
    for (i, (name, efen, moves)) in BENCH.iter().enumerate().take(positions) {
        if vs.get(name).is_none() {
            return Err(format!("bench needs variant {name}"));
        }
        engine.set_variant(name)?;
        let fen = (*efen != "start").then_some(*efen);
        let moves: Vec<&str> = moves.split_whitespace().collect();
        engine
            .set_position(fen, &moves)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.clear_hash()?;
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = engine.analyse(limits, Box::new(|_, _| {}))?;
        each(i, name, r.nodes);
        nodes.push(r.nodes);
    }
    Ok(nodes)
}
