//! Alpha-beta: principal variation search with null move, reductions and pruning, and
//! the quiescence search below it. A node runs in steps: the draws and bounds that
//! need no search, the table probe and the static evaluation, the pruning of the
//! whole node (razoring, reverse futility, null move, ProbCut), then the move loop,
//! where each move may be pruned, extended and searched with reductions.

use super::history::Tried;
use super::movepick::{MovePicker, Picked};
use super::score::*;
use super::see::{self, see_ge};
use super::settings::Feature;
use super::tt::{Bound, Record, TtHit};
use super::worker::{Buf, Worker, BANK};
use crate::rules::moves::*;
use crate::rules::variant::Goal;
use crate::rules::Position;

/// Whether a table score `s` of this bound settles a node searched with the window
/// (alpha, beta).
#[inline]
pub(super) fn tt_cutoff(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

/// What a node of the main search knows once its table entry is read and its
/// position evaluated: what its pruning and its move loop decide by.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) ply: usize,
    pub(super) depth: i32,
    pub(super) pv_node: bool,
    /// What the parent expects of it.
    pub(super) kind: NodeKind,
    pub(super) in_check: bool,
    pub(super) key: u64,
    pub(super) tt_hit: Option<TtHit>,
    pub(super) tt_move: Move,
    /// On a principal variation now or when the table entry was stored.
    pub(super) tt_pv: bool,
    /// The move a singular search leaves out (none otherwise).
    pub(super) excluded: Move,
    /// The static evaluation before correction, as the table keeps it.
    pub(super) raw_eval: i32,
    /// The corrected static evaluation (-INF in check).
    pub(super) eval: i32,
    /// The evaluation is better than two plies before.
    pub(super) improving: bool,
}

impl MoveFacts {
    /// What the move loop knows of `m` in `pos`. The child is made here only where
    /// the check test needs it (into `played`): most pruned moves are never played.
    #[inline]
    fn of(pos: &Position, m: Move, played: &mut Option<Position>) -> MoveFacts {
        let capture = pos.is_capture(m);
        let gives_check = match pos.variant().goal {
            Goal::Checkmate => pos
                .gives_check_fast(m)
                .unwrap_or_else(|| played.insert(pos.after(m)).in_check()),
            Goal::KingCapture => {
                let child = played.insert(pos.after(m));
                child
                    .king_sq(child.side())
                    .is_some_and(|_| child.king_attacked(child.side()))
            }
        };
        MoveFacts {
            m,
            capture,
            quiet: !capture && m.move_type() != MoveType::Promotion,
            gives_check,
        }
    }
}

impl Node {
    /// Expected to fail high.
    #[inline]
    pub(super) fn cut(&self) -> bool {
        self.kind == NodeKind::Cut
    }
}

/// What a node of the main search is expected to be, as its parent says. The
/// window decides whether it is on the principal variation (a mate-distance bound
/// may close a `Pv` node's window); `Pv` and `All` nodes are searched alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// An open window: a node on the principal variation.
    Pv,
    /// A null window, expected to fail high: one move should refute it.
    Cut,
    /// A null window, expected to fail low: every move is tried.
    All,
}

impl NodeKind {
    /// The kind of this node's children searched with a null window.
    #[inline]
    pub(super) fn child(self) -> NodeKind {
        if self == NodeKind::Cut {
            NodeKind::All
        } else {
            NodeKind::Cut
        }
    }

    /// The kind of a search of this node's own position with a null window (the
    /// singular extension's).
    #[inline]
    fn null_window(self) -> NodeKind {
        if self == NodeKind::Cut {
            NodeKind::Cut
        } else {
            NodeKind::All
        }
    }
}

/// What the move loop knows of one move before searching it.
#[derive(Clone, Copy)]
pub(super) struct MoveFacts {
    pub(super) m: Move,
    pub(super) capture: bool,
    pub(super) quiet: bool,
    pub(super) gives_check: bool,
}

impl Worker<'_> {
    /// The bookkeeping of playing `m` from `pos` (to `child`) at `ply`: the key for
    /// repetitions, and the move the histories of the next plies are indexed by.
    /// The caller pops the key once the child is searched.
    #[inline]
    pub(super) fn push_move(&mut self, pos: &Position, child: &Position, m: Move, ply: usize) {
        self.tt().prefetch(child.key());
        self.push_key(child.key());
        self.heur.played(pos, m, ply);
    }

    /// Counts a node and answers what needs no search: a stop, a king already lost,
    /// a king that can be taken now (king-capture variants).
    #[inline]
    pub(super) fn enter(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.should_stop() {
            return Some(0);
        }
        if pos.variant().goal == Goal::KingCapture {
            let us = pos.side();
            if pos.king_sq(us).is_none() {
                return Some(-MATE + ply as i32);
            }
            if ply > 0 && pos.king_attacked(us.flip()) {
                return Some(MATE - ply as i32 - 1);
            }
        }
        None
    }

    /// Searches `pos` at `ply` to `depth` within the window `alpha`..`beta`.
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        self.pv.clear(ply);
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let slot = ply.min(BANK - 1) + BANK * (self.stack[ply].excluded != Move::NONE) as usize;
        let mut buf = self.take_buf(slot);
        let r = self.search_inner(&mut buf, pos, alpha, beta, depth, ply, kind);
        self.put_buf(slot, buf);
        r
    }

    /// What a node below the root settles without a search: a repetition or the
    /// move-count rule's draw, the ply limit; and the window narrowed to the mate
    /// scores still possible (an empty window returns alpha).
    fn settled(
        &mut self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<i32> {
        if ply == 0 {
            return None;
        }
        let v = pos.variant();
        if self.is_repetition(pos) {
            return Some(0);
        }
        if v.n_move_rule > 0
            && pos.halfmove() >= v.n_move_rule
            && (!in_check || pos.legal_move_count() > 0)
        {
            return Some(0);
        }
        if ply >= MAX_PLY {
            return Some(self.static_eval(pos, ply));
        }
        if self.on(Feature::MateDistance) {
            *alpha = (*alpha).max(-MATE + ply as i32);
            *beta = (*beta).min(MATE - ply as i32 - 1);
            if *alpha >= *beta {
                return Some(*alpha);
            }
        }
        None
    }

    /// Reads the table and evaluates the position: the node's facts, or the table's
    /// score when it settles the node.
    #[allow(clippy::too_many_arguments)]
    fn probe(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
        in_check: bool,
    ) -> Result<Node, i32> {
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let excluded = self.stack[ply].excluded;
        let tt_hit = self.tt().probe(key);
        let mut tt_move = Move::NONE;
        if let Some(h) = tt_hit {
            tt_move = h.mv;
            let s = from_tt(h.score, ply);
            if !pv_node
                && ply > 0
                && excluded == Move::NONE
                && self.on(Feature::TtCutoff)
                && h.depth >= depth
                && tt_cutoff(h.bound, s, alpha, beta)
            {
                return Err(s);
            }
        }
        let raw_eval = if in_check {
            0
        } else if let Some(h) = tt_hit {
            h.eval
        } else {
            self.static_eval(pos, ply)
        };
        let eval = if in_check {
            -INF
        } else {
            self.corrected(pos, raw_eval)
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        Ok(Node {
            ply,
            depth,
            pv_node,
            kind,
            in_check,
            key,
            tt_hit,
            tt_move,
            excluded,
            raw_eval,
            eval,
            improving,
            tt_pv: pv_node || tt_hit.is_some_and(|h| h.pv),
        })
    }

    /// The extension of `f` (-1, 0 or 1), or `Err` with the node's score when a
    /// singular search shows that several moves beat beta (multi-cut) or the search
    /// stopped.
    ///
    /// Only a check that does not lose material is extended. Singular extension: when
    /// every other move fails well below the table's score, the table move is the
    /// only good one and is searched deeper; when the table move alone is expected to
    /// beat beta, it is searched less deep.
    fn extension(
        &mut self,
        pos: &Position,
        n: &Node,
        f: &MoveFacts,
        beta: i32,
    ) -> Result<i32, i32> {
        let (ply, depth, m) = (n.ply, n.depth, f.m);
        let p = self.params;
        let mut ext = (f.gives_check
            && ply < 2 * depth as usize + 8
            && self.on(Feature::CheckExtension)
            && see_ge(pos, m, 0)) as i32;
        if let Some(h) = n.tt_hit.filter(|h| {
            ply > 0
                && m == n.tt_move
                && n.excluded == Move::NONE
                && depth >= p.singular_depth
                && self.on(Feature::Singular)
                && h.depth >= depth - p.singular_tt_depth
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && from_tt(h.score, ply).abs() < MATE_BOUND
                && ply < 2 * depth as usize + 8
        }) {
            let tt_score = from_tt(h.score, ply);
            let sbeta = tt_score - p.singular_margin * depth;
            self.stack[ply].excluded = m;
            let kind = n.kind.null_window();
            let s = self.search(pos, sbeta - 1, sbeta, (depth - 1) / 2, ply, kind);
            self.stack[ply].excluded = Move::NONE;
            self.pv.clear(ply);
            if self.stopped() {
                return Err(0);
            }
            if s < sbeta {
                ext = 1;
            } else if sbeta >= beta {
                return Err(sbeta);
            } else if tt_score >= beta {
                ext = -p.singular_neg_beta;
            }
        }
        Ok(ext)
    }

    /// Searches `child`, reached by `f`, at `new_depth`: the first move with the full
    /// window, later ones with a null window and a late-move reduction, searched again
    /// in full when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        child: &Position,
        pos: &Position,
        n: &Node,
        f: &MoveFacts,
        (alpha, beta): (i32, i32),
        new_depth: i32,
        searched: usize,
    ) -> i32 {
        let (ply, depth, m) = (n.ply, n.depth, f.m);
        if searched == 0 {
            return -self.search(
                child,
                -beta,
                -alpha,
                new_depth,
                ply + 1,
                if n.pv_node {
                    NodeKind::Pv
                } else {
                    n.kind.child()
                },
            );
        }
        let p = &self.params;
        let mut r = 0;
        let checks_ok = p.lmr_check != 0 || (!n.in_check && !f.gives_check);
        // A late capture is reduced only where it is not expected to raise alpha (the
        // value taken is looked up only here, for the few moves that get this far).
        let noisy_ok = p.lmr_noisy != 0
            && !f.quiet
            && (n.cut() || n.eval + see::captured_value(pos, m) <= alpha);
        if depth >= p.lmr_depth
            && searched >= p.lmr_moves as usize
            && (f.quiet || noisy_ok)
            && checks_ok
            && self.on(Feature::Lmr)
        {
            r = self.lmr(depth, searched);
            r -= n.pv_node as i32;
            r += (!n.pv_node && n.cut()) as i32;
            r += !n.improving as i32;
            r -= f.gives_check as i32;
            if f.quiet {
                let killers = self.heur.killers(ply);
                r -= (m == killers[0] || m == killers[1]) as i32;
                r -= self.heur.quiet_score(pos, m, ply) / p.lmr_hist_div;
            } else {
                r -= 1;
            }
            r = r.clamp(0, new_depth - 1);
        }
        let mut score = -self.search(
            child,
            -alpha - 1,
            -alpha,
            new_depth - r,
            ply + 1,
            NodeKind::Cut,
        );
        if score > alpha && r > 0 {
            score = -self.search(
                child,
                -alpha - 1,
                -alpha,
                new_depth,
                ply + 1,
                n.kind.child(),
            );
        }
        if score > alpha && score < beta {
            score = -self.search(child, -beta, -alpha, new_depth, ply + 1, NodeKind::Pv);
        }
        score
    }

    /// Generates the node's moves into `list` (at the root: those `searchmoves`
    /// allows and MultiPV has not yet reported); `Err` with the score of a node
    /// without moves.
    fn generate(&self, pos: &Position, list: &mut MoveList, n: &Node) -> Result<(), i32> {
        pos.legal_moves(list);
        if list.is_empty() {
            return Err(if n.in_check { -MATE + n.ply as i32 } else { 0 });
        }
        if n.ply == 0 {
            let sm = &self.limits().searchmoves;
            if !sm.is_empty() {
                list.retain(|m| sm.contains(&m));
            }
            let ex = &self.root.excluded;
            if !ex.is_empty() {
                list.retain(|m| !ex.contains(&m));
            }
            if list.is_empty() {
                return Err(-INF);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn search_inner(
        &mut self,
        buf: &mut Buf,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        if let Some(score) = self.settled(pos, ply, in_check, &mut alpha, &mut beta) {
            return score;
        }
        let mut n = match self.probe(pos, alpha, beta, depth, ply, kind, in_check) {
            Ok(n) => n,
            Err(score) => return score,
        };
        if let Some(score) = self.prune_node(pos, &n, alpha, beta) {
            return score;
        }
        if let Some(score) = self.probcut(buf, pos, &n, beta) {
            return score;
        }
        // Internal iterative reduction: no table move to guide a deep search.
        if n.tt_move == Move::NONE
            && depth >= self.params.iir_depth
            && (n.pv_node || n.cut())
            && self.on(Feature::Iir)
        {
            n.depth -= 1;
        }
        let depth = n.depth;
        let list = &mut buf.list;
        if let Err(score) = self.generate(pos, list, &n) {
            return score;
        }
        let scores = &mut buf.scores;
        let disabled = self.disabled;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let orig_alpha = alpha;
        let mut tried = Tried::new();
        let mut searched = 0;
        let mut picked = Picked::lazy(list.as_mut_slice(), scores, n.tt_move);
        while let Some(m) = picked.next_with(|moves, scores| {
            MovePicker::new(&self.heur, ply, n.tt_move, true, disabled).score(pos, moves, scores)
        }) {
            if m == n.excluded {
                continue;
            }
            let mut played = None;
            let f = MoveFacts::of(pos, m, &mut played);
            let capture = f.capture;
            if best > -MATE_BOUND
                && self.prune_move(pos, &n, &f, alpha, searched, tried.quiet_count())
            {
                continue;
            }
            let child = played.unwrap_or_else(|| pos.after(m));
            let ext = match self.extension(pos, &n, &f, beta) {
                Ok(ext) => ext,
                Err(score) => return score,
            };
            if ply == 0 {
                self.report_root_move(m, searched + 1);
            }
            self.push_move(pos, &child, m, ply);
            let nodes_before = self.nodes;
            let score = self.search_move(
                &child,
                pos,
                &n,
                &f,
                (alpha, beta),
                depth - 1 + ext,
                searched,
            );
            self.pop_key();
            if self.stopped() {
                return 0;
            }
            if ply == 0 {
                self.root.add_nodes(m, self.nodes - nodes_before);
            }
            searched += 1;
            tried.add(m, f.quiet, capture);
            if score > best {
                best = score;
                if score > alpha {
                    if ply == 0 && searched > 1 {
                        self.root.best_changes += 1.0;
                    }
                    best_move = m;
                    alpha = score;
                    self.pv.update(ply, m);
                    if score >= beta {
                        if f.quiet || capture {
                            let bonus = self.stat_bonus(depth);
                            self.heur.update_stats(pos, m, f.quiet, ply, bonus, &tried);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned (cannot happen at the first move) — keep alpha.
            return alpha;
        }
        self.store(pos, &n, best, best_move, orig_alpha, beta);
        best
    }

    /// Stores a searched node's result in the table and corrects the static evaluation
    /// by it (not for a singular search, nor for a root that MultiPV restricted).
    fn store(
        &mut self,
        pos: &Position,
        n: &Node,
        best: i32,
        best_move: Move,
        orig_alpha: i32,
        beta: i32,
    ) {
        if n.excluded != Move::NONE || (n.ply == 0 && !self.root.excluded.is_empty()) {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let r = Record {
            mv: best_move,
            score: to_tt(best, n.ply),
            eval: n.raw_eval,
            depth: n.depth,
            bound,
            pv: n.tt_pv,
        };
        self.tt().store(n.key, r);
        if !n.in_check
            && (best_move == Move::NONE || !pos.is_capture(best_move))
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= n.eval)
            && !(bound == Bound::Upper && best >= n.eval)
        {
            self.update_correction(pos, n.depth, best - n.eval);
        }
    }
}
