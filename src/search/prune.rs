//! What ends a node or skips a move before it is searched: razoring, reverse
//! futility, the null move, ProbCut, and the move loop's late-move, history,
//! futility and SEE pruning.

use super::alphabeta::{MoveFacts, Node};
use super::score::*;
use super::see::see_ge;
use super::settings::Feature;
use super::tt::{Bound, Record};
use super::worker::{Buf, Worker, BANK};
use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::Position;

impl Worker<'_> {
    fn null_allowed(&self, pos: &Position) -> bool {
        let v = pos.variant();
        let us = pos.side();
        let own = pos.pieces(us);
        let pawns_kings =
            pos.kind_bb(Kind::Pawn) | pos.kind_bb(Kind::King) | pos.kind_bb(Kind::Bearer);
        let pieces = popcount(own & !pawns_kings);
        if v.drops {
            let hand: u32 = ALL_KINDS.iter().map(|&k| pos.hand(us, k) as u32).sum();
            return pieces + hand >= 2;
        }
        pieces >= 1 && pos.held(us) & pos.pieces_of(us, Kind::King) == 0
    }

    /// Razoring, reverse futility and the null move: a score that ends the node before
    /// its moves are tried.
    pub(super) fn prune_node(
        &mut self,
        pos: &Position,
        n: &Node,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if n.pv_node || n.in_check || n.ply == 0 || n.excluded != Move::NONE {
            return None;
        }
        let (ply, depth, eval) = (n.ply, n.depth, n.eval);
        let p = self.params;
        // Razoring: far below alpha at low depth, only a capture can save the
        // position, and quiescence says whether one does. (It borrows the second
        // buffer bank: this node holds the first.)
        if self.on(Feature::Pruning)
            && self.on(Feature::Razoring)
            && depth <= p.razor_depth
            && alpha.abs() < MATE_BOUND
            && eval + p.razor_base + p.razor_depth2 * depth * depth < alpha
        {
            let slot = ply.min(BANK - 1) + BANK;
            let mut b = self.take_buf(slot);
            let v = self.qsearch_inner(&mut b, pos, alpha - 1, alpha, ply, 0);
            self.put_buf(slot, b);
            if self.stopped() {
                return Some(0);
            }
            if v < alpha && v.abs() < MATE_BOUND {
                return Some(v);
            }
        }
        // Reverse futility: far above beta at low depth.
        if self.on(Feature::Pruning)
            && self.on(Feature::Rfp)
            && depth <= p.rfp_depth
            && eval - p.rfp_margin * depth + p.rfp_improving * n.improving as i32 >= beta
            && beta.abs() < MATE_BOUND
        {
            return Some(eval);
        }
        // Not twice in a row: the child of a null move tries none.
        if !self.stack[ply].after_null
            && self.on(Feature::NullMove)
            && depth >= p.nmp_depth
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && self.null_allowed(pos)
        {
            let r = p.nmp_base
                + depth / p.nmp_depth_div
                + ((eval - beta) / p.nmp_eval_div).min(p.nmp_eval_max);
            let child = pos.after(Move::PASS);
            self.tt().prefetch(child.key());
            self.push_key(child.key());
            self.heur.played_null(ply);
            self.stack[ply + 1].after_null = true;
            let s = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, n.kind.child());
            self.stack[ply + 1].after_null = false;
            self.pop_key();
            if self.stopped() {
                return Some(0);
            }
            if s >= beta {
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        None
    }

    /// ProbCut: a capture that beats beta by a margin in a shallow search will beat
    /// beta in the full one.
    pub(super) fn probcut(
        &mut self,
        buf: &mut Buf,
        pos: &Position,
        n: &Node,
        beta: i32,
    ) -> Option<i32> {
        let p = self.params;
        let (ply, depth) = (n.ply, n.depth);
        let pc_beta = beta + p.probcut_margin - p.probcut_improving * n.improving as i32;
        let shallower = depth - (p.probcut_reduction - 1);
        if n.pv_node
            || n.in_check
            || ply == 0
            || n.excluded != Move::NONE
            || depth < p.probcut_depth
            || beta.abs() >= MATE_BOUND
            || !self.on(Feature::Pruning)
            || !self.on(Feature::ProbCut)
            || n.tt_hit
                .is_some_and(|h| h.depth >= shallower && from_tt(h.score, ply) < pc_beta)
        {
            return None;
        }
        let list = &mut buf.list;
        pos.legal_captures(list);
        for i in 0..list.len() {
            let m = list.as_slice()[i];
            if !pos.is_capture(m) || !see_ge(pos, m, pc_beta - n.eval) {
                continue;
            }
            let child = pos.after(m);
            self.push_move(pos, &child, m, ply);
            let mut s = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1, 0);
            if s >= pc_beta {
                s = -self.search(
                    &child,
                    -pc_beta,
                    -pc_beta + 1,
                    depth - p.probcut_reduction,
                    ply + 1,
                    n.kind.child(),
                );
            }
            self.pop_key();
            if self.stopped() {
                return Some(0);
            }
            if s >= pc_beta {
                let r = Record {
                    mv: m,
                    score: to_tt(s, ply),
                    eval: n.raw_eval,
                    depth: shallower,
                    bound: Bound::Lower,
                    pv: n.tt_pv,
                };
                self.tt().store(n.key, r);
                return Some(s);
            }
        }
        None
    }

    /// Whether the move loop skips `f` unsearched: late-move, history and futility
    /// pruning of quiet moves, and SEE pruning. A checking move may mate, so it is
    /// never pruned as a quiet move, and a checking drop never at all.
    pub(super) fn prune_move(
        &self,
        pos: &Position,
        n: &Node,
        f: &MoveFacts,
        alpha: i32,
        searched: usize,
        quiets_tried: usize,
    ) -> bool {
        let (ply, depth, m) = (n.ply, n.depth, f.m);
        let p = &self.params;
        if ply == 0 || n.in_check || !self.on(Feature::Pruning) {
            return false;
        }
        if f.quiet && !f.gives_check && searched > 0 {
            if depth <= p.lmp_depth
                && quiets_tried as i32 > p.lmp_base + depth * depth / (2 - n.improving as i32)
                && self.on(Feature::Lmp)
            {
                return true;
            }
            let hist = self.heur.quiet_score(pos, m, ply);
            // A move whose history says it rarely works is not tried near the leaves.
            if depth <= p.hist_prune_depth
                && hist < -p.hist_prune_margin * depth
                && self.on(Feature::HistoryPruning)
            {
                return true;
            }
            let lmr_depth =
                (depth - 1 - self.lmr(depth, searched) + hist / p.prune_hist_div).max(0);
            if lmr_depth <= p.futility_depth
                && n.eval + p.futility_base + p.futility_margin * lmr_depth <= alpha
                && self.on(Feature::Futility)
            {
                return true;
            }
        }
        // SEE pruning: at low depth a move that loses too much material on its
        // square is not searched. A drop that checks may start a mating attack.
        if !self.on(Feature::SeePruning) || (f.gives_check && m.move_type() == MoveType::Drop) {
            return false;
        }
        if f.capture || f.gives_check || !f.quiet {
            depth <= p.see_noisy_depth && !see_ge(pos, m, -p.see_noisy_margin * depth)
        } else {
            let lmr_depth = (depth - 1 - self.lmr(depth, searched)).max(0);
            lmr_depth <= p.see_quiet_depth
                && !see_ge(pos, m, -p.see_quiet_margin * lmr_depth * lmr_depth)
        }
    }
}
