//! `lancer openings`: balanced opening positions for `lancer match -openings`.

use super::{engine_for, variant, PositionArgs};
use crate::engine::openings::{generate, Spec, Starts};
use crate::progress::{self, Progress};
use crate::rules::start::start_position;
use crate::rules::Variants;
use clap::Args;
use rand::SeedableRng;

/// `lancer openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// How many distinct positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random legal plies played from the start (random setups are drawn per line).
    #[arg(long, default_value_t = 6)]
    pub plies: usize,
    /// Depth of the search that judges balance.
    #[arg(long, default_value_t = 6)]
    pub depth: i32,
    /// Keep a position only if the search scores it within this many centipawns.
    #[arg(long, default_value_t = 60)]
    pub max_score: i32,
}

/// Random playouts from the start, kept when a shallow search finds them balanced; one
/// EFEN per line. The seed (`--seed`, default 1) makes the file reproducible.
pub(super) fn run_openings(vs: &Variants, a: OpeningsArgs) -> Result<(), String> {
    let v = variant(vs, &a.pos.variant)?;
    if a.pos.fen.is_some() || !a.pos.moves.is_empty() {
        return Err("openings: --fen and --moves are not used here".into());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(a.pos.seed.unwrap_or(1));
    let mut engine = engine_for(vs, &v.name, start_position(v, None)?, |_| {}, &[])?;
    engine.set_hash(16)?;
    let spec = Spec {
        plies: (a.plies, a.plies),
        depth: a.depth,
        max_score: a.max_score,
    };
    // Cleared when dropped, also on the error returns below.
    let progress = Progress::stderr();
    let found = generate(
        &mut engine,
        &Starts::Setup(v),
        a.count,
        &spec,
        &mut rng,
        &mut |pos| progress.println(&pos.efen()),
        &mut |found, tries| progress.show(&progress::openings_text(found, a.count, tries)),
    )?;
    if found < a.count {
        return Err(format!(
            "openings: found only {found} balanced positions; try fewer plies or a larger --max-score"
        ));
    }
    Ok(())
}
