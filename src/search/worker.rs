//! A search thread's state: move buffers per ply, heuristics, the PV, the stop checks.

use super::eval::evaluate;
use super::eval::nnue::{Accumulator, Net};
use super::history::{Histories, NO_CONT};
use super::limits::{Feature, Limits};
use super::score::MAX_PLY;
use super::{Info, Shared};
use crate::rules::bitboard::Square;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::Position;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A ply's move list and ordering scores, kept between nodes so that no node clears
/// or allocates 8 KB of arrays.
/// Buffers of one bank (one per ply).
pub(crate) const BANK: usize = MAX_PLY + 4;

pub(crate) struct Buf {
    pub(crate) list: MoveList,
    pub(crate) scores: [i32; MAX_MOVES],
}

pub(crate) struct Worker<'a> {
    pub(crate) bufs: Vec<Option<Box<Buf>>>,
    pub(crate) shared: &'a Shared,
    pub(crate) main: bool,
    pub(crate) limits: &'a Limits,
    pub(crate) start: Instant,
    pub(crate) hard_ms: u64,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) keys: Vec<u64>,
    pub(crate) hist: Box<Histories>,
    /// Continuation block of the move made at each ply.
    pub(crate) cont_block: [usize; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply.
    pub(crate) excluded: [Move; MAX_PLY + 2],
    pub(crate) killers: [[Move; 2]; MAX_PLY + 2],
    pub(crate) counters: Box<[[Move; 64]; 2 * NKINDS]>,
    pub(crate) prev: [(Piece, Square); MAX_PLY + 2],
    pub(crate) pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pub(crate) pv_len: [usize; MAX_PLY + 2],
    pub(crate) eval_stack: [i32; MAX_PLY + 2],
    pub(crate) root_excluded: Vec<Move>,
    /// Nodes spent under each root move in the current iteration.
    pub(crate) root_nodes: Vec<(Move, u64)>,
    /// Root best-move changes (main thread), for time management.
    pub(crate) best_changes: f64,
    pub(crate) stopped: bool,
    /// Nodes after which the main thread stops (`go nodes`, or a weakened search's
    /// budget).
    pub(crate) node_cap: u64,
    /// Where the main thread reports (iterations, failed windows, the current root
    /// move); helper threads report nothing.
    pub(crate) report: Option<&'a mut (dyn FnMut(&Info) + 'a)>,
    /// The iteration's depth, for the current-move reports.
    pub(crate) root_depth: i32,
    /// The network in use for the variant, if any.
    pub(crate) net: Option<&'a Net>,
    /// The network's accumulators, one per ply.
    pub(crate) accs: Vec<Accumulator>,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(
        shared: &'a Shared,
        limits: &'a Limits,
        history_keys: &[u64],
        main: bool,
        start: Instant,
        hard_ms: u64,
    ) -> Worker<'a> {
        Worker {
            // Two banks: the second serves a singular search at the same ply.
            bufs: (0..2 * BANK)
                .map(|_| {
                    Some(Box::new(Buf {
                        list: MoveList::new(),
                        scores: [0; MAX_MOVES],
                    }))
                })
                .collect(),
            shared,
            main,
            limits,
            start,
            hard_ms,
            nodes: 0,
            seldepth: 0,
            keys: history_keys.to_vec(),
            hist: shared
                .histories
                .lock()
                .ok()
                .and_then(|mut h| h.pop())
                .unwrap_or_else(|| Box::new(Histories::new())),
            cont_block: [NO_CONT; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            counters: Box::new([[Move::NONE; 64]; 2 * NKINDS]),
            prev: [(NO_PIECE, 0); MAX_PLY + 2],
            pv: Box::new([[Move::NONE; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 2],
            eval_stack: [0; MAX_PLY + 2],
            root_excluded: Vec::new(),
            root_nodes: Vec::new(),
            best_changes: 0.0,
            stopped: false,
            node_cap: limits.nodes.unwrap_or(u64::MAX),
            report: None,
            root_depth: 0,
            net: None,
            accs: Vec::new(),
        }
    }

    /// Uses the network the limits choose for `v`, if any.
    pub(crate) fn use_net_of(&mut self, v: &crate::rules::Variant) {
        self.net = self.limits.eval.net_for(v);
        if self.net.is_some() && self.accs.is_empty() {
            self.accs = vec![Accumulator::default(); MAX_PLY + 2];
        }
    }

    /// The static evaluation of `pos`, reached at `ply`, for the side to move: the
    /// hand-made one, plus the network's correction where a network is in use (or the
    /// network's own score, for a whole network), its sums brought up from the ply
    /// before.
    #[inline]
    pub(crate) fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let Some(net) = self.net else {
            return evaluate(pos);
        };
        let ply = ply.min(self.accs.len() - 1);
        let (before, rest) = self.accs.split_at_mut(ply);
        let acc = &mut rest[0];
        net.update(pos, before.last(), acc);
        let v = net.output(acc, pos.side());
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
            depth: self.root_depth,
            seldepth: 0,
            multipv: 1,
            score: 0,
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
        self.start.elapsed().as_millis() as u64
    }

    /// Polls the stop conditions; true when the search must unwind.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.main && self.nodes >= self.node_cap {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        if self.nodes & 1023 == 0 {
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            if self.main
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.elapsed_ms() >= self.hard_ms
            {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
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
        self.limits.disabled & f as u32 == 0
    }

    pub(crate) fn take_buf(&mut self, slot: usize) -> Box<Buf> {
        self.bufs[slot].take().unwrap_or_else(|| {
            Box::new(Buf {
                list: MoveList::new(),
                scores: [0; MAX_MOVES],
            })
        })
    }
}

impl Drop for Worker<'_> {
    /// Gives the history tables back for the next search.
    fn drop(&mut self) {
        let hist = std::mem::replace(&mut self.hist, Box::new(Histories::empty()));
        if let Ok(mut h) = self.shared.histories.lock() {
            h.push(hist);
        }
    }
}
