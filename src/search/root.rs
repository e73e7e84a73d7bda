//! The root: iterative deepening with aspiration windows, MultiPV, time checks
//! between iterations, and Lazy SMP helper threads.

use super::alphabeta::NodeKind;
use super::limits::Limits;
use super::score::*;
use super::settings::{Feature, Settings};
use super::skill;
use super::time;
use super::tt::Bound;
use super::worker::Worker;
use super::{Info, SearchResult, Shared};
use crate::rules::moves::*;
use crate::rules::Position;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// A principal variation found at the root, with its score.
type Line = (i32, Vec<Move>);

/// Runs a search on `pos` (with `history`: keys of earlier positions of the game, the
/// current one last) within `limits`, searching as `settings` say, and reports each
/// completed iteration through `on_info`. The caller clears `shared.stop` first;
/// setting it ends the search.
pub fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    settings: &Settings,
    shared: &Arc<Shared>,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    let own = settings.for_variant(pos.variant());
    let settings = &own;
    // `stop` is cleared by the caller before the search thread starts, so a `stop`
    // that arrives before this line still counts.
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let mut keys = history.to_vec();
    if keys.last() != Some(&pos.key()) {
        keys.push(pos.key());
    }
    let mut root = MoveList::new();
    pos.legal_moves(&mut root);
    if !limits.searchmoves.is_empty() {
        root.retain(|m| limits.searchmoves.contains(&m));
    }
    if root.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: Score::DRAW,
            depth: 0,
            nodes: 0,
        };
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 1)
        .clamp(1, MAX_PLY as i32 - 1);
    let shared = &**shared;
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..settings.threads.max(1) {
            let keys = keys.clone();
            helpers.push(
                std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(s, move || {
                        helper(pos, &keys, limits, settings, shared, id, max_depth, start)
                    })
                    .expect("spawn search thread"),
            );
        }
        let tm = time::TimeManager::new(
            limits,
            settings.move_overhead,
            pos.side(),
            pos.game_ply(),
            settings.params.time_percent,
        );
        let mut w = Worker::new(shared, limits, settings, &keys, true, start, tm.maximum);
        w.use_net_of(pos.variant());
        w.report_to(on_info);
        let mut main = MainSearch {
            w,
            pos,
            limits,
            settings,
            shared,
            tm,
            root_moves: root.len(),
            multipv: 1,
            shown: 1,
            best: None,
            last_lines: Vec::new(),
            prev_score: 0,
            last_best: Move::NONE,
            stable: 0,
            iter_scores: Vec::new(),
            tot_changes: 0.0,
        };
        // A weakened search looks at a few lines and chooses among them (skill.rs); the
        // GUI still sees only the lines it asked for.
        main.shown = settings.multipv.clamp(1, root.len());
        main.multipv = match settings.skill {
            Some(_) => main.shown.max(skill::CANDIDATES).min(root.len()),
            None => main.shown,
        };
        for depth in 1..=max_depth {
            if !main.iteration(depth) {
                break;
            }
        }
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        main.result(root[0])
    })
}

/// A helper thread of Lazy SMP: iterative deepening until the main thread stops,
/// every other thread one ply ahead.
#[allow(clippy::too_many_arguments)]
fn helper(
    pos: &Position,
    keys: &[u64],
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    id: usize,
    max_depth: i32,
    start: Instant,
) {
    let mut w = Worker::new(shared, limits, settings, keys, false, start, u64::MAX);
    w.use_net_of(pos.variant());
    let mut d = 1 + (id as i32 % 2);
    while d <= max_depth && !shared.stop.load(Ordering::Relaxed) {
        w.search(pos, -INF, INF, d, 0, NodeKind::Pv);
        d += 1;
    }
    shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
}

/// The main thread's iterative deepening and what it keeps between iterations.
struct MainSearch<'a> {
    w: Worker<'a>,
    pos: &'a Position,
    limits: &'a Limits,
    settings: &'a Settings,
    shared: &'a Shared,
    tm: time::TimeManager,
    root_moves: usize,
    /// Lines searched, and lines shown to the GUI.
    multipv: usize,
    shown: usize,
    /// Best move, ponder move, score and depth of the last finished iteration.
    best: Option<(Move, Option<Move>, i32, i32)>,
    /// The lines of the last finished iteration (a weakened search picks among them).
    last_lines: Vec<Line>,
    prev_score: i32,
    last_best: Move,
    stable: i32,
    iter_scores: Vec<i32>,
    tot_changes: f64,
}

impl MainSearch<'_> {
    /// Nodes of every thread so far.
    fn total_nodes(&self) -> u64 {
        self.w.nodes + self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Searches the iteration of `depth`: every line of MultiPV, reported to the GUI.
    /// False when the search is over.
    fn iteration(&mut self, depth: i32) -> bool {
        self.w.root.start(depth);
        let mut lines: Vec<Line> = Vec::new();
        for pv_idx in 0..self.multipv {
            let score = self.aspiration(depth, pv_idx);
            let w = &self.w;
            if w.stopped() && (depth > 1 || w.pv.line(0).is_empty()) {
                // A root move that has already beaten the old best move in this
                // unfinished iteration is the better answer.
                let line = w.pv.line(0);
                if let Some(b) = self.best.as_mut().filter(|_| self.multipv == 1) {
                    if !line.is_empty() && line[0] != b.0 {
                        b.0 = line[0];
                        b.1 = line.get(1).copied();
                    }
                }
                break;
            }
            let pv: Vec<Move> = w.pv.line(0).to_vec();
            if pv.is_empty() {
                break;
            }
            if pv_idx == 0 {
                self.prev_score = score;
            }
            self.w.root.excluded.push(pv[0]);
            lines.push((score, pv));
        }
        if lines.is_empty() {
            return false;
        }
        // Later lines can score better than earlier ones (a narrower search found more).
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        let ms = self.report_lines(depth, &lines);
        let (score, pv) = &lines[0];
        let (score, first) = (*score, pv[0]);
        self.best = Some((first, pv.get(1).copied(), score, depth));
        if self.w.stopped() {
            return false;
        }
        if let Some(level) = self.settings.skill {
            // Whole iterations, so that every candidate line is complete; a later
            // one that runs far over the budget is cut and the last whole one used.
            self.last_lines = lines;
            let budget = skill::node_budget(level);
            if self.w.nodes >= budget {
                return false;
            }
            self.w.cap_nodes(budget.saturating_mul(4));
        }
        self.another_iteration(score, first, ms)
    }

    /// Searches the line `pv_idx` at `depth`, in a window around the last score that
    /// widens while the score falls outside it; reports failed windows of long
    /// iterations.
    fn aspiration(&mut self, depth: i32, pv_idx: usize) -> i32 {
        let p = self.settings.params;
        let w = &mut self.w;
        w.seldepth = 0;
        let mut delta = p.asp_delta;
        let (mut a, mut b) = if depth >= p.asp_depth
            && pv_idx == 0
            && self.settings.disabled & Feature::Aspiration as u32 == 0
        {
            (self.prev_score - delta, self.prev_score + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = w.search(self.pos, a, b, depth, 0, NodeKind::Pv);
            if w.stopped() {
                return s;
            }
            let bound = if s <= a {
                Bound::Upper
            } else if s >= b {
                Bound::Lower
            } else {
                return s;
            };
            // Long iterations tell the GUI about the failed window (as Stockfish does).
            let ms = w.elapsed_ms();
            if ms > 1000 && self.multipv == 1 && !w.pv.line(0).is_empty() {
                let nodes = w.nodes + self.shared.nodes.load(Ordering::Relaxed);
                let info = Info {
                    depth,
                    seldepth: w.seldepth as i32,
                    multipv: 1,
                    score: Score(s),
                    bound,
                    nodes,
                    nps: nodes * 1000 / ms.max(1),
                    hashfull: self.shared.tt.hashfull(),
                    time_ms: ms,
                    pv: w.pv.line(0).to_vec(),
                    currmove: None,
                };
                w.emit(&info);
            }
            if bound == Bound::Upper {
                b = (a + b) / 2;
                a = (s - delta).max(-INF);
            } else {
                b = (s + delta).min(INF);
            }
            delta += delta / 2;
        }
    }

    /// Reports the first `shown` of an iteration's lines, best first; returns the
    /// time of the report (ms).
    fn report_lines(&mut self, depth: i32, lines: &[Line]) -> u64 {
        let total_nodes = self.total_nodes();
        let ms = self.w.elapsed_ms();
        for (i, (score, pv)) in lines.iter().enumerate().take(self.shown) {
            let info = Info {
                depth,
                seldepth: self.w.seldepth as i32,
                multipv: i + 1,
                score: Score(*score),
                bound: Bound::Exact,
                nodes: total_nodes,
                nps: total_nodes * 1000 / ms.max(1),
                hashfull: self.shared.tt.hashfull(),
                time_ms: ms,
                pv: pv.clone(),
                currmove: None,
            };
            self.w.emit(&info);
        }
        ms
    }

    /// Whether another iteration is worth its time, after one that found `best`
    /// scoring `score` in `ms`: not after a mate `go mate` asked for, nor with a single legal
    /// move on the clock, nor when time management says the time is spent. A ponder
    /// search goes on where time management would end it, but marks itself to end at
    /// `ponderhit` (as Stockfish's `stopOnPonderhit`): else the iteration running at the
    /// hit, deeper than a search on the clock would have started, runs to the hard limit.
    fn another_iteration(&mut self, score: i32, best: Move, ms: u64) -> bool {
        let limits = self.limits;
        let pondering = self.shared.pondering.load(Ordering::SeqCst);
        if best == self.last_best {
            self.stable += 1;
        } else {
            self.stable = 0;
            self.last_best = best;
        }
        if let Some(m) = limits.mate {
            if score >= MATE - 2 * m as i32 {
                return false;
            }
        }
        if self.root_moves == 1
            && !limits.infinite
            && limits.depth.is_none()
            && limits.time[self.pos.side().idx()].is_some()
        {
            return pondering && self.end_at_ponderhit();
        }
        self.iter_scores.push(score);
        self.tot_changes = self.tot_changes / 2.0 + self.w.root.best_changes;
        if !self.tm.timed() || self.tm.fixed {
            return true;
        }
        let n = self.iter_scores.len();
        let root_nodes = &self.w.root.nodes;
        let total: u64 = root_nodes.iter().map(|e| e.1).sum();
        let best_nodes = root_nodes.iter().find(|e| e.0 == best).map_or(0, |e| e.1);
        let p = time::IterationTrend {
            best_changes: self.tot_changes,
            score,
            prev_score: self.iter_scores[n.saturating_sub(2)],
            older_score: self.iter_scores[n.saturating_sub(4)],
            stable_iterations: self.stable,
            best_share: if total == 0 {
                1.0
            } else {
                best_nodes as f64 / total as f64
            },
        };
        let more = self.tm.another_iteration(ms, &p);
        if more || !pondering {
            return more;
        }
        self.end_at_ponderhit()
    }

    /// Marks a ponder search whose time is spent to end at `ponderhit`; true (another
    /// iteration) while it still ponders. A `ponderhit` that came before the mark was
    /// set did not see it (it reads the mark after clearing `pondering`, this reads
    /// `pondering` after setting the mark), so the search ends here.
    fn end_at_ponderhit(&self) -> bool {
        self.shared.stop_on_ponderhit.store(true, Ordering::SeqCst);
        self.shared.pondering.load(Ordering::SeqCst)
    }

    /// The answer, once every thread has stopped (`fallback` when no iteration
    /// finished); a weakened search picks among its last lines.
    fn result(self, fallback: Move) -> SearchResult {
        let nodes = self.total_nodes();
        let (mut bm, mut pm, mut score, depth) = self.best.unwrap_or((fallback, None, 0, 0));
        if let Some(level) = self.settings.skill.filter(|_| !self.last_lines.is_empty()) {
            let lines = &self.last_lines;
            let (s, pv) = &lines[skill::pick(level, lines, &mut rand::thread_rng())];
            (bm, pm, score) = (pv[0], pv.get(1).copied(), *s);
        }
        SearchResult {
            best: Some(bm),
            ponder: pm,
            score: Score(score),
            depth,
            nodes,
        }
    }
}
