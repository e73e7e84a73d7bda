//! The facade the protocols and the command line call: variants, the game, options
//! (one table, `options.rs`), and the search running on its own thread so `stop`,
//! `isready` and `?` are answered at once. Its state is private: the game changes
//! through `set_variant`, `set_position`, `set_start`, `play` and `undo`, the options
//! through `set_option` (an option's text) or the typed setters (`set_threads`,
//! `set_multipv`, `set_strength`, ...), which the option table calls too.
//!
//! Two things go to every search, side by side: the [`Limits`] of that one search
//! (what a `go` says) and the engine's [`Settings`] (how it searches: evaluation,
//! parameters, ablation, skill, move overhead, MultiPV, threads; the search's own
//! type, `search::Settings`). The engine holds one `Settings`, changed only when an
//! option changes and passed by reference; `go` copies nothing into the limits.
//!
//! The engine is the one door to the search and the evaluation: the protocols
//! (`protocol/`), the web board (`serve/`), the command line (`cli/`) and the referee
//! import `crate::engine`, never `crate::search` or `crate::eval` (the test
//! `engine-tests/door.rs` fails on such an import, with its file and line). What
//! they need is re-exported or offered here:
//! - a search's input and output: [`Limits`], [`Info`] (with its [`Bound`]),
//!   [`SearchResult`], [`Score`] (what it is: centipawns or a mate, for which side;
//!   UCI's and CECP's forms; how mates are encoded stays in the search);
//! - how it searches: [`Settings`] (read with [`Engine::settings`], changed by the
//!   typed setters or [`Engine::set_option`]), [`Strength`], [`MIN_ELO`]..[`MAX_ELO`],
//!   [`SearchParams`] (the table `lancer params` lists);
//! - judgements of a position: [`wdl`] (win/draw/loss chances by the variant's
//!   model), [`Engine::eval_report`] (the `eval` command's lines);
//! - [`bench`] (`lancer bench`, UCI's `bench`) and [`openings`] (`lancer openings`,
//!   `genfens`).
//!
//! Something else a front end needs of the search or the evaluation is added here
//! (a re-export, or a function of the engine), not imported around the door.

pub mod bench;
mod eval_report;
pub mod openings;
pub mod options;

use crate::rules::notation::parse_move;
use crate::rules::variant::Variant;
use crate::rules::{Game, Move, Position, Variants};
use crate::search::{search, skill, Shared};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

pub use crate::search::skill::{MAX_ELO, MIN_ELO};
pub use crate::search::tt::Bound;
pub use crate::search::{Info, Limits, Score, SearchParams, SearchResult, Settings};

/// Win, draw and loss chances in per mille (they add up to 1000) for the side to
/// move of `score` (centipawns or a mate, its view) at game ply `ply`, by
/// `variant`'s model (`UCI_ShowWDL`; docs/uci.md, Win, draw, loss).
pub fn wdl(variant: &Variant, score: Score, ply: u32) -> [u32; 3] {
    use crate::search::wdl;
    wdl::wdl(&wdl::model(variant), score.raw(), ply)
}

/// Default transposition table size (MB).
pub const DEFAULT_HASH: usize = 64;
/// Largest accepted table size (MB).
pub const MAX_HASH: usize = 65536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most lines of MultiPV.
pub const MAX_MULTIPV: usize = 500;
/// Largest move overhead (ms).
pub const MAX_MOVE_OVERHEAD: u64 = 5000;

/// How strongly the engine plays: the `Skill Level` option, or `UCI_LimitStrength`
/// with `UCI_Elo` (docs/uci.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A skill level from 0 to 20 (20 is full strength; clamped).
    Level(i64),
    /// The level that plays at this Elo (clamped to [`MIN_ELO`]..=[`MAX_ELO`]).
    Elo(i64),
}

/// Receives each search iteration's report (with the root position).
pub type InfoSink = Box<dyn FnMut(&Position, &Info) + Send>;
/// Receives the final result (with the root position).
pub type DoneSink = Box<dyn FnOnce(&Position, SearchResult) + Send>;

/// Bounds for a session fed generated input (the fuzz targets in `engine-tests/fuzz`):
/// every search stops after `nodes` nodes and `depth` plies on at most `threads`
/// threads, `go perft` and `bench` go no deeper than `depth`, `bench` searches only
/// its first `bench` positions, the hash table is at most `hash_mb`, and no variants
/// file is read. With `inline`, a search runs on the thread that calls
/// [`Engine::go`] and has reported its result when `go` returns (an infinite or
/// pondering search's result waits for `stop` or `ponderhit`, as it does on its own
/// thread). Protocol behaviour is otherwise unchanged. A normal session has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sandbox {
    pub nodes: u64,
    pub depth: i32,
    pub threads: usize,
    pub bench: usize,
    pub hash_mb: usize,
    pub inline: bool,
}

impl Sandbox {
    /// Small enough that a fuzz input of many command lines runs in well under a
    /// millisecond: one-ply searches of a few hundred nodes on the caller's thread
    /// (no thread is started per search). A sandboxed `bench` is the same fixed work
    /// whatever the input, so its first position is enough.
    pub const FUZZ: Sandbox = Sandbox {
        nodes: 300,
        depth: 1,
        threads: 1,
        bench: 1,
        hash_mb: 1,
        inline: true,
    };
}

/// What a finished infinite or pondering search waits for before it answers (UCI:
/// `stop`, or `ponderhit` for a pondering one). The search thread sleeps on a
/// condition variable until one of them tells it.
#[derive(Default)]
struct AnswerGate {
    /// `stop` was asked since the search started.
    stopped: Mutex<bool>,
    changed: Condvar,
}

impl AnswerGate {
    fn lock(&self) -> std::sync::MutexGuard<'_, bool> {
        self.stopped.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new search: no `stop` yet.
    fn arm(&self) {
        *self.lock() = false;
    }

    /// `stop`: the answer goes out.
    fn stop(&self) {
        *self.lock() = true;
        self.changed.notify_all();
    }

    /// Something the waiting search reads changed (`ponderhit` cleared `pondering`):
    /// it looks again. Taking the lock orders the change before its next look.
    fn wake(&self) {
        let _held = self.lock();
        self.changed.notify_all();
    }

    /// Waits while the answer must wait: an infinite search until `stop`, a
    /// pondering one until `stop` or `ponderhit`.
    fn wait(&self, infinite: bool, pondering: &AtomicBool) {
        let mut stopped = self.lock();
        while !*stopped && (infinite || pondering.load(Ordering::SeqCst)) {
            stopped = self
                .changed
                .wait(stopped)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// An inline search's result held for `stop` or `ponderhit` (see [`Sandbox`]).
struct Held {
    pos: Position,
    result: SearchResult,
    on_done: DoneSink,
    infinite: bool,
}

/// Engine state shared by UCI, XBoard and the command line.
pub struct Engine {
    variants: Variants,
    /// The variant chosen by the GUI.
    variant: &'static Variant,
    game: Game,
    shared: Arc<Shared>,
    hash_mb: usize,
    /// How the search searches, passed to every search beside its limits.
    settings: Settings,
    ponder: bool,
    /// `UCI_AnalyseMode`: the GUI says it is analysing, not playing a game. Kept
    /// for GUIs that read it back; the search does not depend on it.
    analyse_mode: bool,
    /// Chess played with Chess960 castling notation (UCI_Chess960).
    chess960: bool,
    /// `Skill Level` (0 to 20; 20 is full strength).
    skill_level: i64,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (it overrides `Skill Level`).
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: i64,
    /// `UCI_ShowWDL`: `info` lines carry win/draw/loss chances.
    show_wdl: bool,
    /// Bounds for generated input (see [`Sandbox`]); `None` normally.
    sandbox: Option<Sandbox>,
    /// The result of an inline infinite or pondering search, not yet reported.
    held: Option<Held>,
    /// The table of `hash_mb` is still to be made (see [`Engine::with_variants`]).
    table_pending: bool,
    answer: Arc<AnswerGate>,
    worker: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

/// The built-in variants with the user file at `path` merged over them, each naming
/// weights and a network the build has.
pub fn load_variants(path: &str) -> Result<Variants, String> {
    let vs = Variants::with_user_file(path).map_err(|e| e.to_string())?;
    crate::eval::check_variants(&vs).map_err(|e| format!("{path}: {e}"))?;
    check_search_params(&vs).map_err(|e| format!("{path}: {e}"))?;
    Ok(vs)
}

/// Checks every variant's `searchParams` against the search's table.
fn check_search_params(vs: &Variants) -> Result<(), String> {
    for v in vs.all() {
        SearchParams::default()
            .apply(&v.search_params)
            .map_err(|e| format!("[{}] searchParams: {e}", v.name))?;
    }
    Ok(())
}

impl Engine {
    /// An engine with the built-in variants, playing chess from the start.
    pub fn new() -> Engine {
        Engine::with_variants(Variants::builtin())
    }

    /// An engine with the given variants, playing chess from the start. Its default
    /// table is made when first needed (`isready`, a new game, a search), so a GUI's
    /// `Hash` or `memory` sent before then is the only table ever written: otherwise
    /// every engine's peak memory would be at least the default 64 MB.
    pub fn with_variants(variants: Variants) -> Engine {
        let mut e = Engine::with_table(variants, 1);
        e.hash_mb = DEFAULT_HASH;
        e.table_pending = true;
        e
    }

    /// An engine bounded by `sandbox` from the start (its table is already the
    /// sandbox's size), playing chess from the start.
    pub fn sandboxed(variants: Variants, sandbox: Sandbox) -> Engine {
        let mut e = Engine::with_table(variants, sandbox.hash_mb.clamp(1, MAX_HASH));
        e.sandbox = Some(sandbox);
        e
    }

    fn with_table(variants: Variants, hash_mb: usize) -> Engine {
        let variant = variants.get("chess").expect("chess is built in");
        let start =
            Position::from_efen(variant, &variant.default_start_fen()).expect("start position");
        Engine {
            variants,
            variant,
            game: Game::new(start),
            shared: Arc::new(Shared::new(hash_mb)),
            hash_mb,
            settings: Settings::default(),
            ponder: false,
            analyse_mode: false,
            chess960: false,
            skill_level: skill::FULL as i64,
            limit_strength: false,
            elo: skill::MIN_ELO,
            show_wdl: false,
            sandbox: None,
            held: None,
            table_pending: false,
            answer: Arc::new(AnswerGate::default()),
            worker: None,
        }
    }

    /// The loaded variants.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// The variant chosen (see also [`Engine::effective_variant`]).
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The game: its start, moves and current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// How the engine searches, as its options set it.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets the search threads (the `Threads` option; clamped to 1..=`MAX_THREADS`).
    pub fn set_threads(&mut self, n: usize) {
        self.settings.threads = n.clamp(1, MAX_THREADS);
    }

    /// Sets the lines searched and reported (the `MultiPV` option; clamped to
    /// 1..=`MAX_MULTIPV`).
    pub fn set_multipv(&mut self, n: usize) {
        self.settings.multipv = n.clamp(1, MAX_MULTIPV);
    }

    /// Sets the time kept back from the clock for each move (the `Move Overhead`
    /// option, ms; clamped to `MAX_MOVE_OVERHEAD`).
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.settings.move_overhead = ms.min(MAX_MOVE_OVERHEAD);
    }

    /// Sets how strongly the engine plays: a level sets `Skill Level` and switches
    /// `UCI_LimitStrength` off, an Elo switches it on with that `UCI_Elo`.
    pub fn set_strength(&mut self, s: Strength) {
        match s {
            Strength::Level(l) => {
                self.skill_level = l.clamp(0, skill::FULL as i64);
                self.limit_strength = false;
            }
            Strength::Elo(e) => {
                self.elo = e.clamp(skill::MIN_ELO, skill::MAX_ELO);
                self.limit_strength = true;
            }
        }
        self.update_skill();
    }

    /// Switches off the search features named in `list` (the `Ablation` option's
    /// value: names such as `null,lmr`; empty for none). On error nothing changes.
    pub fn set_ablation(&mut self, list: &str) -> Result<(), String> {
        self.settings.disabled = crate::search::Feature::parse_list(list)?;
        Ok(())
    }

    /// The settings' skill level from the three strength options: `UCI_Elo`'s level
    /// under `UCI_LimitStrength`, else `Skill Level`; `None` at full strength.
    fn update_skill(&mut self) {
        let level = if self.limit_strength {
            skill::level_for_elo(self.elo)
        } else {
            self.skill_level as f64
        };
        self.settings.skill = (level < skill::FULL).then_some(level);
    }

    /// Whether the `UCI_ShowWDL` option is on.
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }

    /// Whether the `Ponder` option is on.
    pub fn ponder(&self) -> bool {
        self.ponder
    }

    /// The table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The sandbox bounds, if any.
    pub fn sandbox(&self) -> Option<Sandbox> {
        self.sandbox
    }

    /// Plays a legal move of the current position.
    pub fn play(&mut self, m: Move) {
        self.game.play(m);
    }

    /// Takes the last move back.
    pub fn undo(&mut self) {
        self.game.undo();
    }

    /// Starts a new game from `start` (a position of the current variant).
    pub fn set_start(&mut self, start: Position) {
        self.game = Game::new(start);
    }

    /// `UCI_Chess960`: chess with Chess960 castling; the game restarts.
    pub fn set_chess960(&mut self, on: bool) {
        self.stop();
        self.chess960 = on;
        self.game = Game::new(self.start_position());
    }

    /// The variant positions are built with (chess becomes fischerandom under UCI_Chess960).
    pub fn effective_variant(&self) -> &'static Variant {
        match &self.variant.chess960_variant {
            Some(name) if self.chess960 => self.variants.get(name).unwrap_or(self.variant),
            _ => self.variant,
        }
    }

    /// The start position of the current variant.
    pub fn start_position(&self) -> Position {
        let v = self.effective_variant();
        Position::from_efen(v, &v.default_start_fen()).unwrap_or_else(|_| *self.game.start())
    }

    /// Switches variant (the game restarts from its start position).
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let v = self
            .variants
            .get(name)
            .ok_or_else(|| format!("unknown variant '{name}'"))?;
        self.stop();
        self.variant = v;
        self.game = Game::new(self.start_position());
        Ok(())
    }

    /// Loads a user variants file merged over the built-in one; on error nothing changes.
    pub fn load_variant_file(&mut self, path: &str) -> Result<(), String> {
        if self.sandbox.is_some() {
            return Err(format!("'{path}': a sandboxed session reads no files"));
        }
        let vs = load_variants(path)?;
        let name = self.variant.name.clone();
        self.variants = vs;
        self.variant = self
            .variants
            .get(&name)
            .or_else(|| self.variants.get("chess"))
            .expect("chess is built in");
        self.game = Game::new(self.start_position());
        Ok(())
    }

    /// Sets the position from an EFEN (or the start) and moves; on error nothing changes.
    pub fn set_position(&mut self, efen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let v = self.effective_variant();
        let start = match efen {
            Some(f) => Position::from_efen(v, f).map_err(|e| format!("bad EFEN: {e}"))?,
            None => self.start_position(),
        };
        let mut g = Game::new(start);
        for (i, t) in moves.iter().enumerate() {
            let m =
                parse_move(g.position(), t).map_err(|e| format!("move {} ('{t}'): {e}", i + 1))?;
            g.play(m);
        }
        self.game = g;
        Ok(())
    }

    /// Resizes the transposition table (clamped to 1..=`MAX_HASH` MB). When the
    /// memory cannot be had, the error says so and the old table stays in use.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        self.table_pending = false;
        let most = self.sandbox.map_or(MAX_HASH, |s| s.hash_mb.min(MAX_HASH));
        let mb = mb.clamp(1, most);
        // The search thread has ended, so the table is normally ours alone; if a
        // handle is still out, the new table goes into fresh shared state.
        let resized = match Arc::get_mut(&mut self.shared) {
            Some(shared) => shared.tt.try_resize(mb),
            None => {
                let mut shared = Shared::new(1);
                shared.tt.try_resize(mb).map(|()| {
                    self.shared = Arc::new(shared);
                })
            }
        };
        resized.map_err(|e| format!("Hash {mb} MB: {e}; the table stays {} MB", self.hash_mb))?;
        self.hash_mb = mb;
        Ok(())
    }

    /// `depth` for `go perft` or `bench`, capped by the sandbox.
    pub fn capped_depth(&self, depth: i32) -> i32 {
        self.sandbox.map_or(depth, |s| depth.min(s.depth))
    }

    /// Makes the table of the size set if that was put off (see
    /// [`Engine::with_variants`]). When the memory cannot be had, the error says so
    /// and the small table in its place stays.
    pub fn ensure_table(&mut self) -> Result<(), String> {
        if !self.table_pending {
            return Ok(());
        }
        let mb = self.hash_mb;
        // What the table is if the default cannot be had.
        self.hash_mb = self.shared.tt.bytes() >> 20;
        self.set_hash(mb)
    }

    /// Clears the transposition table and the history tables (a new game), making
    /// the table first if it was put off; an error as [`Engine::ensure_table`]'s.
    pub fn clear_hash(&mut self) -> Result<(), String> {
        self.stop();
        if self.table_pending {
            // A table still to be made has never been searched with: making it is
            // the clearing.
            return self.ensure_table();
        }
        self.shared.clear();
        Ok(())
    }

    /// Clears the transposition table only; the history tables stay.
    pub fn clear_table(&mut self) {
        self.stop();
        self.shared.tt.clear();
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.held.is_some() || self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Starts a search on its own thread. `on_info` gets each iteration, `on_done` the
    /// result once the search ends (for `infinite`/`ponder`, not before `stop`/`ponderhit`).
    /// An error when no thread can be started for the search.
    pub fn go(
        &mut self,
        mut limits: Limits,
        mut on_info: InfoSink,
        on_done: DoneSink,
    ) -> Result<(), String> {
        self.stop();
        if let Err(e) = self.ensure_table() {
            log::warn!("{e}");
        }
        if let Some(s) = self.sandbox {
            limits.nodes = Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes)));
            limits.depth = Some(limits.depth.map_or(s.depth, |d| d.min(s.depth)));
        }
        // The search's own copy, which a search thread owns (a network is shared, not
        // copied); a sandbox caps its threads.
        let settings = Settings {
            threads: self.sandbox.map_or(self.settings.threads, |s| {
                self.settings.threads.min(s.threads)
            }),
            ..self.settings.clone()
        };
        let pos = *self.game.position();
        let shared = Arc::clone(&self.shared);
        let answer = Arc::clone(&self.answer);
        answer.arm();
        shared.stop.store(false, Ordering::SeqCst);
        shared.pondering.store(limits.ponder, Ordering::SeqCst);
        shared.stop_on_ponderhit.store(false, Ordering::SeqCst);
        if self.sandbox.is_some_and(|s| s.inline) {
            let result = search(
                &pos,
                self.game.keys(),
                &limits,
                &settings,
                &shared,
                &mut |i| on_info(&pos, i),
            );
            let held = Held {
                pos,
                result,
                on_done,
                infinite: limits.infinite,
            };
            // Nothing can stop it or hit the ponder move while it runs here, so the
            // answer waits for exactly what a search thread's would wait for.
            if limits.infinite || limits.ponder {
                self.held = Some(held);
            } else {
                (held.on_done)(&held.pos, held.result);
            }
            return Ok(());
        }
        let keys = self.game.keys().to_vec();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let r = search(&pos, &keys, &limits, &settings, &shared, &mut |i| {
                    on_info(&pos, i)
                });
                answer.wait(limits.infinite, &shared.pondering);
                on_done(&pos, r);
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    /// Searches the current position to `limits` and waits for the result; `on_info`
    /// gets each iteration.
    pub fn analyse(&mut self, limits: Limits, on_info: InfoSink) -> Result<SearchResult, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.go(
            Limits {
                infinite: false,
                ponder: false,
                ..limits
            },
            on_info,
            Box::new(move |_, r| {
                let _ = tx.send(r);
            }),
        )?;
        let r = rx
            .recv()
            .map_err(|_| "the search ended without a result".to_string());
        self.stop();
        r
    }

    /// Waits for a search that ends by itself (a `go` with limits, not `infinite` or
    /// `ponder`) to report; returns at once when none runs.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Stops the search (if any) and waits for it to report.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.pondering.store(false, Ordering::SeqCst);
        self.answer.stop();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
        self.release_held();
    }

    /// Asks the search to stop without waiting (an inline search's held result is
    /// reported now).
    pub fn request_stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.answer.stop();
        self.release_held();
    }

    /// The opponent played the expected move: the ponder search goes on as a real one,
    /// or stops now when its time management has already ended it.
    pub fn ponderhit(&mut self) {
        self.shared.pondering.store(false, Ordering::SeqCst);
        if self.shared.stop_on_ponderhit.load(Ordering::SeqCst) {
            self.shared.stop.store(true, Ordering::SeqCst);
        }
        self.answer.wake();
        if self.held.as_ref().is_some_and(|h| !h.infinite) {
            self.release_held();
        }
    }

    /// Reports an inline search's held result, if any.
    fn release_held(&mut self) {
        if let Some(h) = self.held.take() {
            (h.on_done)(&h.pos, h.result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver};

    #[test]
    fn the_built_in_search_params_are_valid() {
        check_search_params(&Variants::builtin()).unwrap();
    }

    /// A sandboxed engine searching inline, and where its results arrive (with the
    /// thread that reported them).
    fn inline_go(limits: Limits) -> (Engine, Receiver<(std::thread::ThreadId, SearchResult)>) {
        let mut e = Engine::sandboxed(Variants::builtin(), Sandbox::FUZZ);
        let (tx, rx) = channel();
        e.go(
            limits,
            Box::new(|_, _| {}),
            Box::new(move |_, r| {
                let _ = tx.send((std::thread::current().id(), r));
            }),
        )
        .unwrap();
        (e, rx)
    }

    #[test]
    fn an_inline_search_has_reported_when_go_returns() {
        let (e, rx) = inline_go(Limits::default());
        let (thread, r) = rx.try_recv().expect("reported before go returned");
        assert_eq!(thread, std::thread::current().id());
        assert!(r.best.is_some());
        assert!(r.depth <= Sandbox::FUZZ.depth, "depth {}", r.depth);
        assert!(!e.searching());
    }

    #[test]
    fn an_inline_infinite_search_answers_at_stop() {
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (mut e, rx) = inline_go(infinite.clone());
        assert!(rx.try_recv().is_err(), "an infinite search waits for stop");
        assert!(e.searching());
        e.ponderhit();
        assert!(rx.try_recv().is_err(), "ponderhit does not end it");
        e.stop();
        assert!(rx.try_recv().unwrap().1.best.is_some());
        assert!(!e.searching());
        let (mut e, rx) = inline_go(infinite);
        e.request_stop();
        assert!(rx.try_recv().is_ok(), "request_stop reports it too");
    }

    #[test]
    fn an_inline_ponder_search_answers_at_ponderhit() {
        let (mut e, rx) = inline_go(Limits {
            ponder: true,
            ..Limits::default()
        });
        assert!(
            rx.try_recv().is_err(),
            "a ponder search waits for ponderhit"
        );
        e.ponderhit();
        assert!(rx.try_recv().unwrap().1.best.is_some());
        e.stop();
        assert!(rx.try_recv().is_err(), "reported once");
    }

    /// An option's text and the typed setter the web board and the command line
    /// call leave the same settings.
    #[test]
    fn options_and_typed_setters_set_the_same_settings() {
        let (mut a, mut b) = (Engine::new(), Engine::new());
        let same = |a: &Engine, b: &Engine| {
            let (s, t) = (a.settings(), b.settings());
            assert_eq!(
                (s.skill, s.multipv, s.threads, s.move_overhead, s.disabled),
                (t.skill, t.multipv, t.threads, t.move_overhead, t.disabled)
            );
        };
        a.set_option("UCI_LimitStrength", Some("true")).unwrap();
        a.set_option("UCI_Elo", Some("1270")).unwrap();
        b.set_strength(Strength::Elo(1270));
        same(&a, &b);
        assert_eq!(a.settings().skill, Some(10.0));
        a.set_option("UCI_LimitStrength", Some("false")).unwrap();
        a.set_option("Skill Level", Some("3")).unwrap();
        b.set_strength(Strength::Level(3));
        same(&a, &b);
        assert_eq!(a.settings().skill, Some(3.0));
        a.set_option("Skill Level", Some("20")).unwrap();
        b.set_strength(Strength::Level(99));
        same(&a, &b);
        assert_eq!(a.settings().skill, None);
        for (name, value) in [
            ("MultiPV", "4"),
            ("Threads", "3"),
            ("Move Overhead", "99999"),
            ("Ablation", "null,lmr"),
        ] {
            a.set_option(name, Some(value)).unwrap();
        }
        b.set_multipv(4);
        b.set_threads(3);
        b.set_move_overhead(99999);
        b.set_ablation("null,lmr").unwrap();
        same(&a, &b);
        assert_eq!(a.settings().move_overhead, MAX_MOVE_OVERHEAD);
        assert!(b.set_ablation("nul").is_err());
        assert_eq!(
            b.settings().disabled,
            a.settings().disabled,
            "kept on error"
        );
    }

    #[test]
    fn a_sandboxed_bench_keeps_to_the_sandbox() {
        let (nodes, _) = bench::run_in(&Variants::builtin(), 9, Some(Sandbox::FUZZ)).unwrap();
        let most = Sandbox::FUZZ.bench as u64 * Sandbox::FUZZ.nodes;
        assert!(nodes > 0 && nodes <= most, "{nodes} nodes, at most {most}");
    }
}
