//! The root: iterative deepening with aspiration windows, MultiPV, time checks
//! between iterations, and Lazy SMP helper threads.

use super::limits::{Feature, Limits};
use super::score::*;
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

/// Runs a search on `pos` (with `history`: keys of earlier positions of the game, the
/// current one last) and reports each completed iteration through `on_info`. The caller
/// clears `shared.stop` first; setting it ends the search.
pub fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    shared: &Arc<Shared>,
    threads: usize,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    // `stop` is cleared by the caller before the search thread starts, so a `stop`
    // that arrives before this line still counts.
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let tm = time::TimeManager::new(limits, pos.side(), pos.game_ply());
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
            score: 0,
            depth: 0,
            nodes: 0,
        };
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 1)
        .clamp(1, MAX_PLY as i32 - 1);
    // A weakened search looks at a few lines and chooses among them (skill.rs); the
    // GUI still sees only the lines it asked for.
    let shown = limits.multipv.clamp(1, root.len());
    let multipv = match limits.skill {
        Some(_) => shown.max(skill::CANDIDATES).min(root.len()),
        None => shown,
    };
    let threads = threads.max(1);
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let keys = keys.clone();
            let shared = &**shared;
            helpers.push(
                std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(shared, limits, &keys, false, start, u64::MAX);
                        w.use_net_of(pos.variant());
                        let mut d = 1 + (id as i32 % 2);
                        while d <= max_depth && !shared.stop.load(Ordering::Relaxed) {
                            w.search(pos, -INF, INF, d, 0, false, false);
                            d += 1;
                        }
                        shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
                    })
                    .expect("spawn search thread"),
            );
        }
        let mut w = Worker::new(shared, limits, &keys, true, start, tm.maximum);
        w.use_net_of(pos.variant());
        w.report = Some(on_info);
        let mut best: Option<(Move, Option<Move>, i32, i32)> = None;
        let mut last_lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let mut prev_score = 0;
        let mut last_best = Move::NONE;
        let mut stable = 0;
        let mut iter_scores: Vec<i32> = Vec::new();
        let mut tot_changes = 0.0;
        for depth in 1..=max_depth {
            w.root_excluded.clear();
            w.root_nodes.clear();
            w.best_changes = 0.0;
            w.root_depth = depth;
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_idx in 0..multipv {
                w.seldepth = 0;
                let mut delta = 30;
                let (mut a, mut b) = if depth >= 5
                    && pv_idx == 0
                    && limits.disabled & Feature::Aspiration as u32 == 0
                {
                    (prev_score - delta, prev_score + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = w.search(pos, a, b, depth, 0, false, false);
                    if w.stopped {
                        break s;
                    }
                    let bound = if s <= a {
                        Bound::Upper
                    } else if s >= b {
                        Bound::Lower
                    } else {
                        break s;
                    };
                    // Long iterations tell the GUI about the failed window (as Stockfish does).
                    let ms = w.elapsed_ms();
                    if ms > 1000 && multipv == 1 && w.pv_len[0] > 0 {
                        let nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
                        let info = Info {
                            depth,
                            seldepth: w.seldepth as i32,
                            multipv: 1,
                            score: s,
                            bound,
                            nodes,
                            nps: nodes * 1000 / ms.max(1),
                            hashfull: shared.tt.hashfull(),
                            time_ms: ms,
                            pv: w.pv[0][..w.pv_len[0]].to_vec(),
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
                };
                if w.stopped && (depth > 1 || w.pv_len[0] == 0) {
                    // A root move that has already beaten the old best move in this
                    // unfinished iteration is the better answer.
                    if let Some(b) = best.as_mut().filter(|_| multipv == 1 && w.pv_len[0] > 0) {
                        if w.pv[0][0] != b.0 {
                            b.0 = w.pv[0][0];
                            b.1 = (w.pv_len[0] > 1).then(|| w.pv[0][1]);
                        }
                    }
                    break;
                }
                let pv: Vec<Move> = w.pv[0][..w.pv_len[0]].to_vec();
                if pv.is_empty() {
                    break;
                }
                if pv_idx == 0 {
                    prev_score = score;
                }
                w.root_excluded.push(pv[0]);
                lines.push((score, pv));
            }
            if lines.is_empty() {
                break;
            }
            // Later lines can score better than earlier ones (a narrower search found more).
            lines.sort_by_key(|l| std::cmp::Reverse(l.0));
            let total_nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
            let ms = w.elapsed_ms();
            for (i, (score, pv)) in lines.iter().enumerate().take(shown) {
                let info = Info {
                    depth,
                    seldepth: w.seldepth as i32,
                    multipv: i + 1,
                    score: *score,
                    bound: Bound::Exact,
                    nodes: total_nodes,
                    nps: total_nodes * 1000 / ms.max(1),
                    hashfull: shared.tt.hashfull(),
                    time_ms: ms,
                    pv: pv.clone(),
                    currmove: None,
                };
                w.emit(&info);
            }
            let (score, pv) = &lines[0];
            best = Some((pv[0], pv.get(1).copied(), *score, depth));
            if w.stopped {
                break;
            }
            if let Some(level) = limits.skill {
                last_lines = lines.clone();
                // Whole iterations, so that every candidate line is complete; a later
                // one that runs far over the budget is cut and the last whole one used.
                let budget = skill::node_budget(level);
                if w.nodes >= budget {
                    break;
                }
                w.node_cap = w.node_cap.min(budget.saturating_mul(4));
            }
            if pv[0] == last_best {
                stable += 1;
            } else {
                stable = 0;
                last_best = pv[0];
            }
            if let Some(m) = limits.mate {
                if *score >= MATE - 2 * m as i32 {
                    break;
                }
            }
            if root.len() == 1
                && !limits.infinite
                && limits.depth.is_none()
                && !shared.pondering.load(Ordering::Relaxed)
                && limits.time[pos.side().idx()].is_some()
            {
                break;
            }
            iter_scores.push(*score);
            tot_changes = tot_changes / 2.0 + w.best_changes;
            if tm.timed() && !tm.fixed && !shared.pondering.load(Ordering::Relaxed) {
                let n = iter_scores.len();
                let total: u64 = w.root_nodes.iter().map(|e| e.1).sum();
                let best_nodes = w
                    .root_nodes
                    .iter()
                    .find(|e| e.0 == pv[0])
                    .map_or(0, |e| e.1);
                let p = time::Progress {
                    best_changes: tot_changes,
                    score: *score,
                    prev_score: iter_scores[n.saturating_sub(2)],
                    older_score: iter_scores[n.saturating_sub(4)],
                    stable_iterations: stable,
                    best_share: if total == 0 {
                        1.0
                    } else {
                        best_nodes as f64 / total as f64
                    },
                };
                if !tm.another_iteration(ms, &p) {
                    break;
                }
            }
        }
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        let nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
        let (mut bm, mut pm, mut score, depth) = best.unwrap_or((root[0], None, 0, 0));
        if let Some(level) = limits.skill.filter(|_| !last_lines.is_empty()) {
            let (s, pv) = &last_lines[skill::pick(level, &last_lines, &mut rand::thread_rng())];
            (bm, pm, score) = (pv[0], pv.get(1).copied(), *s);
        }
        SearchResult {
            best: Some(bm),
            ponder: pm,
            score,
            depth,
            nodes,
        }
    })
}
