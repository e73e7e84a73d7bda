//! Balanced opening positions: random legal plies from a start, kept when a shallow
//! search scores them near equality. `lancer openings` writes them as an EPD file for
//! `lancer match`; the UCI command `genfens` sends them as OpenBench's DATAGEN
//! workloads ask (docs/cli.md and docs/uci.md, "Commands").

use super::{Engine, Strength};
use crate::rules::notation::book;
use crate::rules::start::start_position;
use crate::rules::variant::Variant;
use crate::rules::{MoveList, Position, Variants};
use crate::search::{skill, Limits};
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::HashSet;

/// How the openings are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The fewest and the most random plies played from a start (a number between
    /// them is drawn for each line when they differ).
    pub plies: (usize, usize),
    /// The depth of the search that judges balance.
    pub depth: i32,
    /// A position is kept when that search scores it within this many centipawns.
    pub max_score: i32,
}

/// What `genfens` plays from the start position: 8 or 9 random plies, so that either
/// side may be to move, judged by a depth-4 search within a pawn (100 openings take
/// one to four seconds).
pub const GENFENS_FROM_START: Spec = Spec {
    plies: (8, 9),
    depth: 4,
    max_score: 100,
};

/// What `genfens` plays from a line of a book: 2 or 3 random plies on top of it.
pub const GENFENS_FROM_BOOK: Spec = Spec {
    plies: (2, 3),
    ..GENFENS_FROM_START
};

/// The most openings a sandboxed session (the fuzz targets) makes in one call.
const SANDBOX_MOST: usize = 2;

/// Where each line starts.
pub enum Starts<'a> {
    /// The variant's start position; a random-setup variant draws a setup per line.
    Setup(&'static Variant),
    /// A line of a book, drawn at random for each line.
    Book(&'a Book),
}

/// An opening book: EPD or EFEN lines, read when a line is drawn.
pub struct Book {
    path: String,
    /// The variant its lines are read in, and the one tried second (chess's Chess960
    /// for a book of Chess960 setups, as OpenBench's are).
    variants: (&'static Variant, Option<&'static Variant>),
    /// (line number, text) of every line that is not empty or a comment.
    lines: Vec<(usize, String)>,
}

impl Book {
    /// Reads the book at `path` for variant `v` (a chess book may hold Chess960
    /// positions); an error says why it cannot be used.
    pub fn read(path: &str, v: &'static Variant, variants: &Variants) -> Result<Book, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("book {path}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("book {path}: not a file"));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("book {path}: {e}"))?;
        let lines = book::epd_lines(&String::from_utf8_lossy(&bytes));
        if lines.is_empty() {
            return Err(format!("book {path}: no positions"));
        }
        let second = v.chess960_variant.as_deref().and_then(|n| variants.get(n));
        Ok(Book {
            path: path.to_string(),
            variants: (v, second),
            lines,
        })
    }

    /// The number of lines the book holds.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the book holds no line (never true of a book [`Book::read`] made).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The position of line `i`; an error names the file and line. Lines are read
    /// when drawn, so that a book of millions of lines costs no time to open.
    fn position(&self, i: usize) -> Result<Position, String> {
        let (number, line) = &self.lines[i];
        let (first, second) = self.variants;
        book::epd_position(line, first, second)
            .map_err(|e| format!("book {}:{number}: {e}", self.path))
    }
}

/// The table the openings are searched with (MB): each position's search starts
/// from a cleared table, and a large one would take longer to clear than to search.
const TABLE_MB: usize = 16;

/// Finds `count` distinct balanced openings and hands each to `found` as it is kept;
/// after every position searched, `tried` gets the number found and the number of
/// lines tried. Returns the number found, less than `count` only when `count × 200 +
/// 1000` lines gave too few. The same `rng` state gives the same openings: the engine
/// searches them on one thread, one line, at full strength, with a 16 MB table, from
/// cleared tables (the hash table and the histories, as a new game would). Its game
/// and settings (threads, MultiPV, strength) are as before afterwards, and its table
/// of the size set is made again when next needed.
pub fn generate(
    engine: &mut Engine,
    starts: &Starts,
    count: usize,
    spec: &Spec,
    rng: &mut StdRng,
    found: &mut dyn FnMut(&Position),
    tried: &mut dyn FnMut(usize, usize),
) -> Result<usize, String> {
    let count = match engine.sandbox {
        Some(_) => count.min(SANDBOX_MOST),
        None => count,
    };
    let saved = (
        engine.game.clone(),
        engine.settings.clone(),
        engine.skill_level,
        engine.limit_strength,
    );
    let hash_mb = engine.hash_mb;
    engine.set_hash(TABLE_MB)?;
    engine.clear_hash()?;
    engine.set_threads(1);
    engine.set_multipv(1);
    engine.set_strength(Strength::Level(skill::FULL as i64));
    let result = search_openings(engine, starts, count, spec, rng, found, tried);
    engine.stop();
    (
        engine.game,
        engine.settings,
        engine.skill_level,
        engine.limit_strength,
    ) = saved;
    if engine.hash_mb != hash_mb {
        engine.hash_mb = hash_mb;
        engine.table_pending = true;
    }
    result
}

/// [`generate`]'s loop, on an engine set up for it.
fn search_openings(
    engine: &mut Engine,
    starts: &Starts,
    count: usize,
    spec: &Spec,
    rng: &mut StdRng,
    found: &mut dyn FnMut(&Position),
    tried: &mut dyn FnMut(usize, usize),
) -> Result<usize, String> {
    let limits = Limits {
        depth: Some(spec.depth.clamp(1, 64)),
        ..Default::default()
    };
    let (fewest, most) = (spec.plies.0, spec.plies.1.max(spec.plies.0));
    let most_tries = count.saturating_mul(200).saturating_add(1000);
    let mut seen = HashSet::new();
    let mut list = MoveList::new();
    let mut tries = 0usize;
    while seen.len() < count {
        tries += 1;
        if tries > most_tries {
            break;
        }
        let start = match starts {
            Starts::Setup(v) => start_position(v, Some(rng.gen()))?,
            Starts::Book(book) => book.position(rng.gen_range(0..book.len()))?,
        };
        // Drawn only when there is a choice, so that a fixed number of plies draws
        // exactly what `lancer openings` always drew (its files stay the same).
        let plies = if fewest == most {
            fewest
        } else {
            rng.gen_range(fewest..=most)
        };
        engine.set_start(start);
        let mut ok = true;
        for _ in 0..plies {
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
        if r.score
            .centipawns()
            .is_none_or(|cp| cp.abs() > spec.max_score)
        {
            seen.remove(&pos.key());
        } else {
            found(&pos);
        }
        tried(seen.len(), tries);
    }
    Ok(seen.len())
}
