//! `lancer perft` and `lancer bench`: counting the move tree, and the search's
//! signature.

use super::{build_position, PositionArgs};
use crate::progress::{self, Progress};
use crate::rules::{perft, Variants};
use clap::Args;
use std::time::Instant;

/// `lancer perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Threads (root moves are split over them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64))]
    pub threads: u64,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Depth in plies.
    pub depth: Option<u32>,
}

/// `lancer bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(default_value_t = 9)]
    pub depth: i32,
}

/// Counts the leaves to the depth, by root move with `--divide`; prints the speed.
pub(super) fn run_perft(vs: &Variants, mut a: PerftArgs) -> Result<(), String> {
    // `--moves e2e4 3` swallows the depth: take a trailing number back.
    if a.depth.is_none() {
        if let Some(last) = a.pos.moves.last() {
            if let Ok(d) = last.parse::<u32>() {
                a.depth = Some(d);
                a.pos.moves.pop();
            }
        }
    }
    let depth = a.depth.ok_or("perft needs a DEPTH")?;
    let pos = build_position(vs, &a.pos)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads as usize)
        .build()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let progress = Progress::stderr();
    // On a terminal the one-thread count goes by root move too, to show progress: a
    // move text per root move is all that costs.
    let nodes = if depth == 0 {
        1
    } else if a.divide || a.threads > 1 || progress.enabled() {
        let divide = a.divide;
        let roots = pos.legal_move_count();
        // Root moves done and their nodes; counted under one lock so that the line
        // never goes backwards when two threads finish together.
        let counted = std::sync::Mutex::new((0usize, 0u64));
        let total = pool.install(|| {
            perft::divide(&pos, depth, &|m, n| {
                if divide {
                    progress.println(&format!("{m}: {n}"));
                }
                if let Ok(mut c) = counted.lock() {
                    *c = (c.0 + 1, c.1 + n);
                    progress.show(&progress::perft_text(c.0, roots, c.1));
                }
            })
        });
        progress.clear();
        if divide {
            println!();
        }
        total
    } else {
        perft::perft(&pos, depth)
    };
    let secs = t0.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// Searches the bench positions; prints the nodes and the speed.
pub(super) fn run_bench(vs: &Variants, a: BenchArgs) -> Result<(), String> {
    let (nodes, nps) = crate::engine::bench::run(vs, a.depth)?;
    println!("{nodes} nodes");
    println!("{nps} nps");
    Ok(())
}
