//! `lancer openings`: balanced opening positions for `lancer match -openings`.

use super::{engine_for, variant, PositionArgs};
use crate::progress::{self, Progress};
use crate::rules::start::start_position;
use crate::rules::Variants;
use clap::Args;
use rand::{Rng, SeedableRng};

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
    use crate::search::{Limits, MATE_BOUND};
    let v = variant(vs, &a.pos.variant)?;
    if a.pos.fen.is_some() || !a.pos.moves.is_empty() {
        return Err("openings: --fen and --moves are not used here".into());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(a.pos.seed.unwrap_or(1));
    let mut engine = engine_for(vs, &v.name, start_position(v, None)?, &[])?;
    engine.set_hash(16)?;
    let limits = Limits {
        depth: Some(a.depth.clamp(1, 64)),
        multipv: 1,
        ..Default::default()
    };
    let mut seen = std::collections::HashSet::new();
    let mut list = crate::rules::MoveList::new();
    // Cleared when dropped, also on the error returns below.
    let progress = Progress::stderr();
    let mut tries = 0usize;
    while seen.len() < a.count {
        tries += 1;
        if tries > a.count.saturating_mul(200).saturating_add(1000) {
            return Err(format!(
                "openings: found only {} balanced positions; try fewer plies or a larger --max-score",
                seen.len()
            ));
        }
        engine.set_start(start_position(v, Some(rng.gen()))?);
        let mut ok = true;
        for _ in 0..a.plies {
            let pos = *engine.position();
            pos.legal_moves(&mut list);
            if list.is_empty() || pos.outcome().is_some() {
                ok = false;
                break;
            }
            engine.play(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        let pos = *engine.position();
        if !ok || pos.outcome().is_some() || !seen.insert(pos.key()) {
            continue;
        }
        // The table starts empty for each position; the history tables go on.
        engine.clear_table();
        let r = engine.analyse(limits.clone(), Box::new(|_, _| {}))?;
        if r.score.abs() > a.max_score.min(MATE_BOUND - 1) {
            seen.remove(&pos.key());
        } else {
            progress.println(&pos.efen());
        }
        progress.show(&progress::openings_text(seen.len(), a.count, tries));
    }
    Ok(())
}
