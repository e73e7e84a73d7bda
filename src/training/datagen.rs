//! `lancer datagen`: self-play games at a fixed node count from random openings (random
//! setups included), written as quiet positions labelled with the game's result and the
//! search's score, in the data files of [`super::data`].
//!
//! Game `g` of seed `s` depends on nothing else (its own random stream, a cleared
//! engine, a node limit), so a seed gives the same file whatever the thread count, a
//! killed run resumes where its last whole game ends, and files with different seeds
//! add up to a larger set.

use super::data::{self, Header};
use crate::engine::{Engine, Limits};
use crate::progress::Progress;
use crate::rules::start::start_position;
use crate::rules::{Color, MoveList, MoveType, Position, Variant, Variants};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenConfig {
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
        && !pos.is_capture(best)
        && best.move_type() != MoveType::Promotion
        && score.abs() < WIN_SCORE
}

/// A played game: its result (0 Black won, 1 drawn, 2 White won) and its quiet
/// positions with the search's score for White.
type Played = (u8, Vec<(Position, i16)>);

/// Plays game `g`: a random opening, then self-play with `nodes` a move.
fn play(
    engine: &mut Engine,
    v: &'static Variant,
    cfg: &GenConfig,
    g: usize,
) -> Result<Played, String> {
    let mut rng = game_rng(cfg.seed, g);
    let limits = Limits {
        nodes: Some(cfg.nodes),
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
        engine.clear_hash()?;
        engine.set_start(start_position(v, Some(rng.gen()))?);
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
        if r.best.is_some() && r.score.capped(WIN_SCORE).abs() <= OPENING_SCORE {
            break r;
        }
    };
    let mut candidates: Vec<(Position, i16)> = Vec::new();
    let mut r = first;
    let mut decisive = 0usize;
    let mut ply = 0usize;
    let result = loop {
        let pos = *engine.position();
        let Some(best) = r.best else {
            // No move: the rules decide (the search saw the mate or stalemate).
            break engine.game().outcome().map(|o| o.winner);
        };
        // Scores beyond WIN_SCORE (mates among them) count as WIN_SCORE: they are
        // never stored, only counted towards adjudication.
        let mine = r.score.capped(WIN_SCORE);
        let white = if pos.side() == Color::White {
            mine
        } else {
            -mine
        };
        if quiet(&pos, best, mine) {
            candidates.push((pos, white as i16));
        }
        decisive = if mine.abs() >= WIN_SCORE {
            decisive + 1
        } else {
            0
        };
        if decisive >= WIN_PLIES || r.score.is_mate() {
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
        Some(Some(Color::White)) => 2,
        Some(Some(Color::Black)) => 0,
        _ => 1,
    };
    Ok((label, candidates))
}

/// What a run did: games and positions in the file (with those of earlier runs), and
/// the games and positions this run added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub positions: usize,
    pub new_games: usize,
    pub new_positions: usize,
}

/// Runs the generator for variant `v` (one of `vs`) into the data file `path`: a new
/// file, or one an earlier run with the same settings left, which goes on from its last
/// whole game.
pub fn run(
    vs: &Variants,
    v: &'static Variant,
    cfg: &GenConfig,
    path: &str,
) -> Result<Summary, String> {
    let header = Header {
        variant: v.name.clone(),
        seed: cfg.seed,
        nodes: cfg.nodes,
        plies: cfg.plies.min(u16::MAX as usize) as u16,
    };
    let (file, done, old_positions) = data::resume(v, path, &header)?;
    let mut out = std::io::BufWriter::new(file);
    let done = done as usize;
    let next = AtomicUsize::new(done);
    let (tx, rx) = mpsc::channel::<(usize, Result<Played, String>)>();
    let progress = Progress::stderr();
    let start = std::time::Instant::now();
    std::thread::scope(|s| -> Result<Summary, String> {
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
        let (mut written, mut positions) = (done, 0usize);
        let err = |e: std::io::Error| format!("datagen: {path}: {e}");
        for (g, r) in rx {
            pending.insert(g, r?);
            while let Some((result, p)) = pending.remove(&written) {
                out.write_all(&data::game_block(written as u32, result, &p))
                    .map_err(err)?;
                positions += p.len();
                written += 1;
            }
            // Whole games reach the disk as they end, so a killed run loses little.
            out.flush().map_err(err)?;
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            progress.show(&crate::progress::datagen_text(
                written - done,
                cfg.games - done,
                positions,
                secs,
            ));
        }
        out.flush().map_err(err)?;
        progress.clear();
        Ok(Summary {
            games: written,
            positions: old_positions + positions,
            new_games: written - done,
            new_positions: positions,
        })
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
