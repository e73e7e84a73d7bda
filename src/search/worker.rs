//! A search thread's state: move buffers per ply, heuristics, the PV, the stop checks.

use super::history::{Heuristics, Histories};
use super::limits::Limits;
use super::params::SearchParams;
use super::score::{MATE_BOUND, MAX_PLY};
use super::settings::{Feature, Settings};
use super::tt::Tt;
use super::{Info, Shared};
use crate::eval::evaluate;
use crate::eval::nnue::{Accumulator, Net};
use crate::rules::moves::*;
use crate::rules::Position;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Nodes between polls of the stop flag and the clock (a power of two). At lancer's
/// speed in the slower variants, 1,024 nodes could be 10 ms or more with the cores
/// shared, enough to lose on time at 1+0.01; reading the clock costs far less.
const POLL_NODES: u64 = 256;

/// Buffers of one bank (one per ply).
pub(crate) const BANK: usize = MAX_PLY + 4;

/// A ply's move list and ordering scores, kept between nodes so that no node clears
/// or allocates 8 KB of arrays.
pub(crate) struct Buf {
    pub(crate) list: MoveList,
    pub(crate) scores: [i32; MAX_MOVES],
}

impl Buf {
    fn new() -> Box<Buf> {
        Box::new(Buf {
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
        })
    }
}

/// What the search keeps per ply of the current line.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    /// The move a singular-extension search leaves out.
    pub(crate) excluded: Move,
    /// The corrected static evaluation (-INF in check).
    pub(crate) eval: i32,
    /// The move into this ply was the null move.
    pub(crate) after_null: bool,
}

/// The principal variation of each ply's node.
pub(crate) struct Pv {
    moves: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    len: [usize; MAX_PLY + 2],
}

impl Pv {
    /// Empties the line of `ply`.
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// Makes `m` followed by the line of `ply + 1` the line of `ply`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, m: Move) {
        let cl = self.len[ply + 1];
        let (this, rest) = self.moves.split_at_mut(ply + 1);
        let this = &mut this[ply];
        this[0] = m;
        this[1..=cl].copy_from_slice(&rest[0][..cl]);
        self.len[ply] = cl + 1;
    }

    /// The line of `ply`.
    #[inline]
    pub(crate) fn line(&self, ply: usize) -> &[Move] {
        &self.moves[ply][..self.len[ply]]
    }
}

/// What the root keeps over one iteration.
pub(crate) struct RootState {
    /// Root moves left out (the lines MultiPV has already found).
    pub(crate) excluded: Vec<Move>,
    /// Nodes spent under each root move.
    pub(crate) nodes: Vec<(Move, u64)>,
    /// Best-move changes (main thread), for time management.
    pub(crate) best_changes: f64,
    /// The iteration's depth, for the current-move reports.
    pub(crate) depth: i32,
}

impl RootState {
    /// Starts the iteration of `depth`.
    pub(crate) fn start(&mut self, depth: i32) {
        self.excluded.clear();
        self.nodes.clear();
        self.best_changes = 0.0;
        self.depth = depth;
    }

    /// Counts `spent` nodes under the root move `m`.
    pub(crate) fn add_nodes(&mut self, m: Move, spent: u64) {
        match self.nodes.iter_mut().find(|e| e.0 == m) {
            Some(e) => e.1 += spent,
            None => self.nodes.push((m, spent)),
        }
    }
}

/// When a thread stops: the shared flag, the main thread's time and node limits.
struct StopCheck {
    main: bool,
    start: Instant,
    hard_ms: u64,
    /// Nodes after which the main thread stops (`go nodes`, or a weakened search's
    /// budget).
    node_cap: u64,
    stopped: bool,
}

/// The network in use for the variant, if any, and its accumulators (one per ply).
struct NetEval<'a> {
    net: Option<&'a Net>,
    accs: Vec<Accumulator>,
}

/// A search thread's state.
pub(crate) struct Worker<'a> {
    bufs: Vec<Option<Box<Buf>>>,
    shared: &'a Shared,
    limits: &'a Limits,
    settings: &'a Settings,
    /// The search's parameters and the features switched off, copied from the
    /// settings: every node reads them.
    pub(crate) params: SearchParams,
    pub(crate) disabled: u32,
    /// Late-move reductions by depth and move number, from the parameters.
    lmr: Box<[[u8; 64]; 64]>,
    stop: StopCheck,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    /// Keys of the game's positions and of the current line, for repetitions.
    keys: Vec<u64>,
    pub(crate) heur: Heuristics,
    pub(crate) stack: [Frame; MAX_PLY + 2],
    pub(crate) pv: Pv,
    pub(crate) root: RootState,
    /// Where the main thread reports (iterations, failed windows, the current root
    /// move); helper threads report nothing.
    report: Option<&'a mut (dyn FnMut(&Info) + 'a)>,
    eval: NetEval<'a>,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(
        shared: &'a Shared,
        limits: &'a Limits,
        settings: &'a Settings,
        history_keys: &[u64],
        main: bool,
        start: Instant,
        hard_ms: u64,
    ) -> Worker<'a> {
        let tables = shared
            .histories
            .lock()
            .ok()
            .and_then(|mut h| h.pop())
            .unwrap_or_else(|| Box::new(Histories::new()));
        Worker {
            // Two banks: the second serves a singular search at the same ply. A slot's
            // buffer is made when a node first needs it: a short search touches few
            // plies, and zeroing all 2 MB up front cost most of a 300-node search.
            bufs: (0..2 * BANK).map(|_| None).collect(),
            shared,
            limits,
            settings,
            params: settings.params,
            disabled: settings.disabled,
            lmr: settings.params.lmr_table(),
            stop: StopCheck {
                main,
                start,
                hard_ms,
                node_cap: limits.nodes.unwrap_or(u64::MAX),
                stopped: false,
            },
            nodes: 0,
            seldepth: 0,
            keys: history_keys.to_vec(),
            heur: Heuristics::new(tables),
            stack: [Frame {
                excluded: Move::NONE,
                eval: 0,
                after_null: false,
            }; MAX_PLY + 2],
            pv: Pv {
                moves: Box::new([[Move::NONE; MAX_PLY + 2]; MAX_PLY + 2]),
                len: [0; MAX_PLY + 2],
            },
            root: RootState {
                excluded: Vec::new(),
                nodes: Vec::new(),
                best_changes: 0.0,
                depth: 0,
            },
            report: None,
            eval: NetEval {
                net: None,
                accs: Vec::new(),
            },
        }
    }

    /// Uses the network the settings choose for `v`, if any.
    pub(crate) fn use_net_of(&mut self, v: &crate::rules::Variant) {
        self.eval.net = self.settings.eval.net_for(v);
        if self.eval.net.is_some() && self.eval.accs.is_empty() {
            self.eval.accs = vec![Accumulator::default(); MAX_PLY + 2];
        }
    }

    /// Sends the main thread's reports to `report`.
    pub(crate) fn report_to(&mut self, report: &'a mut (dyn FnMut(&Info) + 'a)) {
        self.report = Some(report);
    }

    /// What the search is asked to do.
    #[inline(always)]
    pub(crate) fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// The shared transposition table.
    #[inline(always)]
    pub(crate) fn tt(&self) -> &'a Tt {
        &self.shared.tt
    }

    /// The late-move reduction of the move numbered `searched` at `depth`.
    #[inline(always)]
    pub(crate) fn lmr(&self, depth: i32, searched: usize) -> i32 {
        self.lmr[(depth.max(0) as usize).min(63)][searched.min(63)] as i32
    }

    /// The static evaluation of `pos`, reached at `ply`, for the side to move: the
    /// hand-made one, plus the network's correction where a network is in use (or the
    /// network's own score, for a whole network), its sums brought up from the ply
    /// before.
    #[inline]
    pub(crate) fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let Some(net) = self.eval.net else {
            return evaluate(pos);
        };
        let ply = ply.min(self.eval.accs.len() - 1);
        let (before, rest) = self.eval.accs.split_at_mut(ply);
        let acc = &mut rest[0];
        net.update(pos, before.last(), acc);
        let v = net.output(acc, pos);
        if net.residual {
            return evaluate(pos) + v;
        }
        // Where no capture or pawn move may come soon the game is heading for a draw.
        let limit = i32::from(pos.variant().n_move_rule);
        if limit == 0 {
            return v;
        }
        let run = i32::from(pos.halfmove()).min(limit);
        v * (2 * limit - run) / (2 * limit)
    }

    /// The static evaluation `raw` corrected by what searches found before.
    #[inline]
    pub(crate) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if !self.on(Feature::Correction) {
            return raw.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let pieces = self.on(Feature::PieceCorrection);
        self.heur.tables().corrected(pos, raw, pieces)
    }

    /// Moves the correction of `pos` toward `diff` (search result less corrected eval).
    #[inline]
    pub(crate) fn update_correction(&mut self, pos: &Position, depth: i32, diff: i32) {
        if self.on(Feature::Correction) {
            let pieces = self.on(Feature::PieceCorrection);
            self.heur
                .tables_mut()
                .update_correction(pos, depth, diff, pieces);
        }
    }

    /// The history bonus of a cutoff at `depth`.
    #[inline]
    pub(crate) fn stat_bonus(&self, depth: i32) -> i32 {
        let p = &self.params;
        (p.hist_bonus_mul * depth - p.hist_bonus_sub).clamp(0, p.hist_bonus_max)
    }

    /// Sends a report to the protocol (main thread only).
    pub(crate) fn emit(&mut self, info: &Info) {
        if let Some(r) = self.report.as_mut() {
            r(info);
        }
    }

    /// Tells the GUI which root move is being searched, as Stockfish does, once the
    /// search has run a second (earlier the lines would only flood the GUI).
    pub(crate) fn report_root_move(&mut self, m: Move, number: usize) {
        if self.report.is_none() {
            return;
        }
        let ms = self.elapsed_ms();
        if ms < 1000 {
            return;
        }
        let info = Info {
            depth: self.root.depth,
            seldepth: 0,
            multipv: 1,
            score: super::score::Score::DRAW,
            bound: super::tt::Bound::None,
            nodes: self.nodes,
            nps: 0,
            hashfull: 0,
            time_ms: ms,
            pv: Vec::new(),
            currmove: Some((m, number)),
        };
        self.emit(&info);
    }

    #[inline]
    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.stop.start.elapsed().as_millis() as u64
    }

    /// Whether the search has been stopped (and is unwinding).
    #[inline(always)]
    pub(crate) fn stopped(&self) -> bool {
        self.stop.stopped
    }

    /// Lowers the node count after which the main thread stops.
    pub(crate) fn cap_nodes(&mut self, cap: u64) {
        self.stop.node_cap = self.stop.node_cap.min(cap);
    }

    /// Polls the stop conditions; true when the search must unwind.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        let st = &mut self.stop;
        if st.stopped {
            return true;
        }
        if st.main && self.nodes >= st.node_cap {
            st.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        if self.nodes & (POLL_NODES - 1) == 0 {
            if self.shared.stop.load(Ordering::Relaxed) {
                st.stopped = true;
                return true;
            }
            if st.main
                && !self.shared.pondering.load(Ordering::Relaxed)
                && st.start.elapsed().as_millis() as u64 >= st.hard_ms
            {
                st.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// Adds a position to the current line (the caller pops it once searched).
    #[inline]
    pub(crate) fn push_key(&mut self, key: u64) {
        self.keys.push(key);
    }

    #[inline]
    pub(crate) fn pop_key(&mut self) {
        self.keys.pop();
    }

    pub(crate) fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.keys.len();
        let span = (pos.halfmove() as usize).min(n.saturating_sub(1));
        let k = pos.key();
        let mut i = 2;
        while i <= span {
            if self.keys[n - 1 - i] == k {
                return true;
            }
            i += 2;
        }
        false
    }

    #[inline(always)]
    pub(crate) fn on(&self, f: Feature) -> bool {
        self.disabled & f as u32 == 0
    }

    /// Takes the buffer of `slot` (a fresh one if it is in use or not yet made);
    /// [`Worker::put_buf`] gives it back.
    pub(crate) fn take_buf(&mut self, slot: usize) -> Box<Buf> {
        self.bufs[slot].take().unwrap_or_else(Buf::new)
    }

    pub(crate) fn put_buf(&mut self, slot: usize, buf: Box<Buf>) {
        self.bufs[slot] = Some(buf);
    }
}

impl Drop for Worker<'_> {
    /// Gives the history tables back for the next search.
    fn drop(&mut self) {
        let hist = self.heur.take_tables();
        if let Ok(mut h) = self.shared.histories.lock() {
            h.push(hist);
        }
    }
}
