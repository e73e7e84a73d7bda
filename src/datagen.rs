//! `lancer datagen`: self-play games at a fixed node count from random openings, written
//! as quiet positions labelled with the game's result, for `lancer tune`.
//!
//! A line is `EFEN | result | score`: the result `1-0`, `0-1` or `1/2-1/2`, and the
//! search's score in centipawns from White's view. Game `g` of seed `s` depends on
//! nothing else (its own random stream, a cleared engine, a node limit), so a seed
//! gives the same file whatever the thread count, and chunks with different seeds add
//! up to a larger set.

use crate::engine::Engine;
use crate::progress::Progress;
use crate::rules::{Color, MoveList, MoveType, Position, Variant, Variants};
use crate::search::is_capture;
use crate::search::{Limits, MATE_BOUND};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies before the game proper (one more on odd draws).
    pub plies: usize,
    /// Seed of the whole run.
    pub seed: u64,
    /// Worker threads (one game each at a time).
    pub threads: usize,
}

/// A game adjudicated as won once the score stays beyond this many centipawns...
const WIN_SCORE: i32 = 1500;
/// ...for this many plies in a row.
const WIN_PLIES: usize = 6;
/// A game adjudicated as drawn after this many plies.
const MAX_PLIES: usize = 400;
/// An opening kept only if the first search scores it within this.
const OPENING_SCORE: i32 = 300;

/// The random stream of game `g` of `seed`: independent of every other game.
fn game_rng(seed: u64, g: usize) -> rand::rngs::StdRng {
    // splitmix64 of (seed, g), so neighbouring games do not share streams.
    let mut z = seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    rand::rngs::StdRng::seed_from_u64(z ^ (z >> 31))
}

/// Whether the position after searching is worth a label: not in check, a quiet best
/// move (captures and promotions would change the material at once), a score far from
/// mate.
fn quiet(pos: &Position, best: crate::rules::Move, score: i32) -> bool {
    !pos.in_check()
        && !is_capture(pos, best)
        && best.move_type() != MoveType::Promotion
        && score.abs() < WIN_SCORE
}

/// Plays game `g`: a random opening, then self-play with `nodes` a move; returns its
/// labelled positions.
fn play(
    engine: &mut Engine,
    v: &'static Variant,
    cfg: &Config,
    g: usize,
) -> Result<Vec<String>, String> {
    let mut rng = game_rng(cfg.seed, g);
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: 1,
        ..Default::default()
    };
    let mut list = MoveList::new();
    // A random opening the first search finds balanced.
    let mut tries = 0;
    let first = loop {
        tries += 1;
        if tries > 1000 {
            return Err(format!("datagen: no balanced opening for game {g}"));
        }
        engine.clear_hash();
        engine.set_start(crate::cli::start_position(v, Some(rng.gen()))?);
        let plies = cfg.plies + rng.gen_range(0..=1);
        let mut ok = true;
        for _ in 0..plies {
            let pos = *engine.position();
            pos.legal_moves(&mut list);
            if list.is_empty() || engine.game().outcome().is_some() {
                ok = false;
                break;
            }
            engine.play(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        if !ok || engine.game().outcome().is_some() {
            continue;
        }
        let r = engine.analyse(limits.clone(), Box::new(|_, _| {}))?;
        if r.best.is_some() && r.score.abs() <= OPENING_SCORE {
            break r;
        }
    };
    let mut candidates: Vec<(String, i32)> = Vec::new();
    let mut r = first;
    let mut decisive = 0usize;
    let mut ply = 0usize;
    let result = loop {
        let pos = *engine.position();
        let Some(best) = r.best else {
            // No move: the rules decide (the search saw the mate or stalemate).
            break engine.game().outcome().map(|o| o.winner);
        };
        let white = if pos.side() == Color::White {
            r.score
        } else {
            -r.score
        };
        if quiet(&pos, best, r.score) {
            candidates.push((pos.efen(), white));
        }
        decisive = if r.score.abs() >= WIN_SCORE {
            decisive + 1
        } else {
            0
        };
        if decisive >= WIN_PLIES || r.score.abs() >= MATE_BOUND {
            break Some(Some(if white > 0 {
                Color::White
            } else {
                Color::Black
            }));
        }
        engine.play(best);
        ply += 1;
        if let Some(o) = engine.game().outcome() {
            break Some(o.winner);
        }
        if ply >= MAX_PLIES {
            break Some(None);
        }
        r = engine.analyse(limits.clone(), Box::new(|_, _| {}))?;
    };
    let label = match result {
        Some(Some(Color::White)) => "1-0",
        Some(Some(Color::Black)) => "0-1",
        _ => "1/2-1/2",
    };
    Ok(candidates
        .into_iter()
        .map(|(efen, s)| format!("{efen} | {label} | {s}"))
        .collect())
}

/// A data line and where it was read: file, line number (from 1), text.
pub type DataLine = (String, usize, String);

/// The lines of `files` that are not empty or `#` comments.
pub fn read_lines(files: &[String]) -> Result<Vec<DataLine>, String> {
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for (i, l) in text.lines().enumerate() {
            if !l.trim().is_empty() && !l.starts_with('#') {
                lines.push((f.clone(), i + 1, l.to_string()));
            }
        }
    }
    Ok(lines)
}

/// Reads an `EFEN | result | score` line of variant `v`: the position, the result for
/// White (1, ½, 0) and the score for White (0 when missing). Errors name the file and
/// line.
pub fn parse_line(
    v: &'static Variant,
    (f, n, l): &DataLine,
) -> Result<(Position, f32, f32), String> {
    let bad = |what: &str| format!("{f}:{n}: {what}");
    let mut parts = l.split('|').map(str::trim);
    let efen = parts.next().unwrap_or("");
    let result = match parts.next() {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => return Err(bad("expected 'EFEN | 1-0|0-1|1/2-1/2 | score'")),
    };
    let score = match parts.next() {
        Some(s) => s
            .parse::<f32>()
            .map_err(|_| bad("the score is not a number"))?,
        None => 0.0,
    };
    let pos = Position::from_efen(v, efen).map_err(|e| bad(&e))?;
    Ok((pos, result, score))
}

/// Runs the generator for variant `v` (one of `vs`), writing lines to `out`; returns
/// (games, positions).
pub fn run(
    vs: &Variants,
    v: &'static Variant,
    cfg: &Config,
    out: &mut dyn Write,
) -> Result<(usize, usize), String> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<Vec<String>, String>)>();
    let progress = Progress::stderr();
    let start = std::time::Instant::now();
    std::thread::scope(|s| -> Result<(usize, usize), String> {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            let mut engine = Engine::with_variants(vs.clone());
            engine.set_variant(&v.name)?;
            engine.set_hash(16)?;
            s.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= cfg.games {
                    break;
                }
                let r = play(&mut engine, v, cfg, g);
                let failed = r.is_err();
                if tx.send((g, r)).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in order, so the file depends on
        // the seed alone.
        let mut pending = BTreeMap::new();
        let (mut written, mut positions) = (0usize, 0usize);
        for (g, r) in rx {
            pending.insert(g, r?);
            while let Some(p) = pending.remove(&written) {
                for l in &p {
                    writeln!(out, "{l}").map_err(|e| format!("datagen: {e}"))?;
                }
                positions += p.len();
                written += 1;
            }
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            progress.show(&crate::progress::datagen_text(
                written, cfg.games, positions, secs,
            ));
        }
        out.flush().map_err(|e| format!("datagen: {e}"))?;
        progress.clear();
        Ok((written, positions))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_streams_differ_and_repeat() {
        let a: u64 = game_rng(1, 0).gen();
        let b: u64 = game_rng(1, 1).gen();
        let c: u64 = game_rng(2, 0).gen();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, game_rng(1, 0).gen::<u64>());
    }
}
