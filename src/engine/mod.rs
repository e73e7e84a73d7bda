//! The facade both protocols call: variants, the game, options, and the search
//! running on its own thread so `stop`, `isready` and `?` are answered at once.

use crate::rules::notation::parse_move;
use crate::rules::variant::Variant;
use crate::rules::{Game, Position, Variants};
use crate::search::{search, Info, Limits, SearchResult, Shared};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Default transposition table size (MB).
pub const DEFAULT_HASH: usize = 64;
/// Largest accepted table size (MB).
pub const MAX_HASH: usize = 65536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;

/// Receives each search iteration's report (with the root position).
pub type InfoSink = Box<dyn FnMut(&Position, &Info) + Send>;
/// Receives the final result (with the root position).
pub type DoneSink = Box<dyn FnOnce(&Position, SearchResult) + Send>;

/// Bounds for a session fed generated input (the fuzz targets in `engine-tests/fuzz`):
/// every search stops after `nodes` nodes and `depth` plies on at most `threads`
/// threads, `go perft` and `bench` go no deeper than `depth`, the hash table is at
/// most `hash_mb`, and no variants file is read. Protocol behaviour is otherwise
/// unchanged. A normal session has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sandbox {
    pub nodes: u64,
    pub depth: i32,
    pub threads: usize,
    pub hash_mb: usize,
}

impl Sandbox {
    /// Small enough that any command line is answered within milliseconds.
    pub const FUZZ: Sandbox = Sandbox {
        nodes: 2000,
        depth: 2,
        threads: 2,
        hash_mb: 1,
    };
}

/// Engine state shared by UCI and XBoard.
pub struct Engine {
    pub variants: Variants,
    /// The variant chosen by the GUI.
    pub variant: &'static Variant,
    pub game: Game,
    pub shared: Arc<Shared>,
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    /// `UCI_AnalyseMode`: the GUI says it is analysing, not playing a game. Kept
    /// for GUIs that read it back; the search does not depend on it.
    pub analyse_mode: bool,
    /// Chess played with Chess960 castling notation (UCI_Chess960).
    pub chess960: bool,
    /// Search features switched off (the `Ablation` option, for self-play measurements).
    pub disabled: u32,
    /// Bounds for generated input (see [`Sandbox`]); `None` normally.
    pub sandbox: Option<Sandbox>,
    stop_requested: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with the built-in variants, playing chess from the start.
    pub fn new() -> Engine {
        Engine::with_variants(Variants::builtin())
    }

    /// An engine with the given variants, playing chess from the start.
    pub fn with_variants(variants: Variants) -> Engine {
        Engine::with_table(variants, DEFAULT_HASH)
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
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            ponder: false,
            analyse_mode: false,
            chess960: false,
            disabled: 0,
            sandbox: None,
            stop_requested: Arc::new(AtomicBool::new(false)),
            worker: None,
        }
    }

    /// The variant positions are built with (chess becomes fischerandom under UCI_Chess960).
    pub fn effective_variant(&self) -> &'static Variant {
        if self.chess960 && self.variant.name == "chess" {
            self.variants.get("fischerandom").unwrap_or(self.variant)
        } else {
            self.variant
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
        let vs = Variants::with_user_file(path).map_err(|e| e.to_string())?;
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

    /// Clears the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.shared.clear();
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Starts a search on its own thread. `on_info` gets each iteration, `on_done` the
    /// result once the search ends (for `infinite`/`ponder`, not before `stop`/`ponderhit`).
    pub fn go(&mut self, mut limits: Limits, mut on_info: InfoSink, on_done: DoneSink) {
        self.stop();
        limits.move_overhead = self.move_overhead;
        limits.disabled = self.disabled;
        if limits.multipv == 0 {
            limits.multipv = self.multipv;
        }
        let mut threads = self.threads;
        if let Some(s) = self.sandbox {
            limits.nodes = Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes)));
            limits.depth = Some(limits.depth.map_or(s.depth, |d| d.min(s.depth)));
            threads = threads.min(s.threads);
        }
        let pos = *self.game.position();
        let keys = self.game.keys().to_vec();
        let shared = Arc::clone(&self.shared);
        let stop_req = Arc::clone(&self.stop_requested);
        stop_req.store(false, Ordering::SeqCst);
        shared.stop.store(false, Ordering::SeqCst);
        shared.pondering.store(limits.ponder, Ordering::SeqCst);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let r = search(&pos, &keys, &limits, &shared, threads, &mut |i| {
                    on_info(&pos, i)
                });
                // UCI: in infinite or ponder mode the answer waits for stop / ponderhit.
                while !stop_req.load(Ordering::SeqCst)
                    && (limits.infinite || shared.pondering.load(Ordering::SeqCst))
                {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                on_done(&pos, r);
            })
            .expect("spawn search thread");
        self.worker = Some(handle);
    }

    /// Stops the search (if any) and waits for it to report.
    pub fn stop(&mut self) {
        self.stop_requested.store(true, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.pondering.store(false, Ordering::SeqCst);
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Asks the search to stop without waiting.
    pub fn request_stop(&self) {
        self.stop_requested.store(true, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the ponder search goes on as a real one.
    pub fn ponderhit(&self) {
        self.shared.pondering.store(false, Ordering::SeqCst);
    }
}
