//! `lancer annotate`: a game review written into the PGN (docs/cli.md,
//! `lancer annotate`), with a progress line and each game's summary on stderr.

use super::{engine_for, variant};
use crate::progress::{self, Progress};
use crate::review::{self, Budget};
use crate::rules::notation::pgn;
use crate::rules::Variants;
use clap::Args;
use std::io::Read;
use std::sync::atomic::AtomicBool;

/// `lancer annotate`.
#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// The PGN file (`-` or none: stdin).
    pub file: Option<String>,
    /// Search each position this long (milliseconds; default 200).
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Search each position to this depth instead.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: Option<i32>,
    /// Best lines searched a position (each one a variation where a move was a mistake).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=5))]
    pub multipv: u64,
    /// The variant of games whose tags name none.
    #[arg(long, default_value = "chess")]
    pub variant: String,
}

/// Reviews every game of the PGN and writes it back annotated on stdout. A game
/// that does not replay is reported and left out; the others are still written.
pub(super) fn run_annotate(vs: &Variants, a: AnnotateArgs) -> Result<(), String> {
    let default_variant = variant(vs, &a.variant)?;
    let (name, text) = match a.file.as_deref() {
        None | Some("-") => {
            let mut t = String::new();
            std::io::stdin()
                .read_to_string(&mut t)
                .map_err(|e| format!("stdin: {e}"))?;
            ("stdin".to_string(), t)
        }
        Some(f) => (
            f.to_string(),
            std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?,
        ),
    };
    let budget = Budget {
        movetime: if a.depth.is_some() {
            None
        } else {
            Some(a.movetime.unwrap_or(200))
        },
        depth: a.depth,
        multipv: a.multipv as usize,
    };
    let games = pgn::read(&text);
    if games.is_empty() {
        return Err(format!("{name}: no game"));
    }
    let progress = Progress::stderr();
    let never = AtomicBool::new(false);
    let mut failed = Vec::new();
    for (gi, mut read) in games.into_iter().enumerate() {
        let no = gi + 1;
        if read.tag("Variant").is_none() && default_variant.name != "chess" {
            read.tags
                .push(("Variant".into(), default_variant.name.clone()));
        }
        let mut game = match read.replay(vs) {
            Ok(g) => g,
            Err(e) => {
                progress.clear();
                eprintln!("error: {name}: game {no}: {e}");
                failed.push(no);
                continue;
            }
        };
        let moves: Vec<_> = game
            .tree
            .mainline()
            .iter()
            .filter_map(|&n| game.tree.node(n).mv)
            .collect();
        let mut engine = engine_for(vs, &game.start.variant().name, game.start, |_| {}, &[])?;
        let total = moves.len() + 1;
        let started = std::time::Instant::now();
        let r = review::review(
            &mut engine,
            &game.start,
            &moves,
            budget,
            &never,
            |i, _, _| {
                progress.show(&progress::annotate_text(
                    no,
                    i + 1,
                    total,
                    started.elapsed().as_secs_f64(),
                ))
            },
        )?;
        review::annotate(&mut game, &r, "lancer annotate");
        progress.clear();
        eprintln!(
            "game {no} ({} vs {}): {}",
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
            r.summary()
        );
        progress.println(pgn::write(&game, pgn::Style::EXPORT).trim_end_matches('\n'));
        progress.println("");
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}: {} game(s) not annotated (game {})",
            failed.len(),
            failed
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}
