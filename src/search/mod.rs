//! The searcher: iterative deepening PVS alpha-beta with aspiration windows,
//! quiescence, check extension, null move, late move reductions, futility and
//! reverse futility pruning, killer/history/counter-move ordering, mate-distance
//! pruning, draws by the variant's own rules inside the tree, a shared lock-free
//! transposition table and Lazy SMP threads.

mod alphabeta;

mod history;
pub mod limits;
mod movepick;
pub mod params;
mod prune;
mod qsearch;
mod root;
pub mod score;
pub mod see;
pub mod settings;
pub mod skill;
pub mod time;
pub mod tt;
pub mod wdl;
mod worker;

pub use limits::Limits;
pub use params::SearchParams;
pub use root::search;
pub use score::{uci_score, Score, MATE, MATE_BOUND, MAX_PLY};
pub use settings::{EvalChoice, Feature, Settings};

use crate::rules::moves::Move;
use history::Histories;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Mutex;
use tt::{Bound, Tt};

/// State shared by all search threads and the protocol.
pub struct Shared {
    pub tt: Tt,
    pub stop: AtomicBool,
    /// True while pondering: time limits wait for `ponderhit`.
    pub pondering: AtomicBool,
    /// Set by a ponder search whose time management would have ended it: `ponderhit`
    /// then stops it at once.
    pub stop_on_ponderhit: AtomicBool,
    pub(crate) nodes: AtomicU64,
    /// History tables kept between searches (one per thread that used them), so each
    /// move's search starts from what the game's earlier searches learnt.
    // Boxed: each set of tables is large, and moves in and out of the list.
    #[allow(clippy::vec_box)]
    pub(crate) histories: Mutex<Vec<Box<Histories>>>,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: Tt::new(hash_mb),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            stop_on_ponderhit: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            histories: Mutex::new(Vec::new()),
        }
    }

    /// Forgets everything learnt: the table and the history tables (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        if let Ok(mut h) = self.histories.lock() {
            h.clear();
        }
    }
}

/// One line of search output.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
    /// Set in a current-move report (the root move being searched and its number,
    /// from 1): only `depth` and this mean anything then.
    pub currmove: Option<(Move, usize)>,
}

/// The final answer.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
}
