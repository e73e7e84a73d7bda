//! Alpha-beta: principal variation search with null move, reductions and pruning, and
//! the quiescence search below it.

use super::history::{cont_block, moved_piece, NO_CONT};
use super::limits::Feature;
use super::movepick::{is_capture, pick};
use super::score::*;
use super::see::see_ge;
use super::tt::Bound;
use super::worker::{Buf, Worker, BANK};
use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::variant::Goal;
use crate::rules::Position;

struct Lmr([[u8; 64]; 64]);

fn lmr_table() -> &'static Lmr {
    static T: std::sync::OnceLock<Lmr> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Lmr(t)
    })
}

/// Whether a table score `s` of this bound settles a node searched with the window
/// (alpha, beta).
#[inline]
fn tt_cutoff(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

impl Worker<'_> {
    /// The bookkeeping of playing `m` from `pos` (to `child`) at `ply`: the key for
    /// repetitions, and the move the histories of the next plies are indexed by.
    /// The caller pops the key once the child is searched.
    #[inline]
    fn push_move(&mut self, pos: &Position, child: &Position, m: Move, ply: usize) {
        self.keys.push(child.key());
        self.cont_block[ply] = cont_block(moved_piece(pos, m), m.to());
        self.prev[ply] = if m.move_type() == MoveType::Drop || m.is_pass() {
            (NO_PIECE, 0)
        } else {
            (pos.piece_at(m.from()), m.to())
        };
    }

    /// Counts a node and answers what needs no search: a stop, a king already lost,
    /// a king that can be taken now (king-capture variants).
    #[inline]
    fn enter(&mut self, pos: &Position, ply: usize) -> Option<i32> {
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

    fn null_allowed(&self, pos: &Position) -> bool {
        let v = pos.variant();
        let us = pos.side();
        let own = pos.pieces(us);
        let pawns_kings =
            pos.kind_bb(Kind::Pawn) | pos.kind_bb(Kind::King) | pos.kind_bb(Kind::Bearer);
        let pieces = popcount(own & !pawns_kings);
        if v.drops {
            let hand: u32 = ALL_KINDS.iter().map(|&k| pos.hand(us, k) as u32).sum();
            return pieces + hand >= 2 && !(hand == 0 && pieces < 2);
        }
        pieces >= 1 && pos.held(us) & pos.pieces_of(us, Kind::King) == 0
    }

    /// Drops next to the enemy king that give check (at most a few): in a drop variant
    /// a quiet-looking position can hide a mate by drops.
    fn add_checking_drops(&self, pos: &Position, list: &mut MoveList) {
        let us = pos.side();
        let Some(ek) = pos.king_sq(us.flip()) else {
            return;
        };
        if !ALL_KINDS.iter().any(|&k| pos.hand(us, k) > 0) {
            return;
        }
        let t = tables();
        let near = (t.king(ek) | t.knight(ek)) & !pos.occupied() & pos.variant().mask;
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        let mut added = 0;
        for &m in all.iter() {
            if m.move_type() == MoveType::Drop && near & bb(m.to()) != 0 && pos.after(m).in_check()
            {
                list.push(m);
                added += 1;
                if added >= 8 {
                    break;
                }
            }
        }
    }

    fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, qd: u32) -> i32 {
        let slot = ply.min(BANK - 1);
        let mut buf = self.take_buf(slot);
        let r = self.qsearch_inner(&mut buf, pos, alpha, beta, ply, qd);
        self.bufs[slot] = Some(buf);
        r
    }

    fn qsearch_inner(
        &mut self,
        buf: &mut Buf,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qd: u32,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let tt_hit = self.shared.tt.probe(key);
        if let Some(h) = tt_hit {
            let s = from_tt(h.score, ply);
            if !pv_node && self.on(Feature::TtCutoff) && tt_cutoff(h.bound, s, alpha, beta) {
                return s;
            }
        }
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut raw = 0;
        if !in_check {
            raw = match tt_hit {
                Some(h) if h.eval.abs() < MATE_BOUND => h.eval,
                _ => self.static_eval(pos, ply),
            };
            let stand = self.corrected(pos, raw);
            if stand >= beta {
                if tt_hit.is_none() {
                    self.shared
                        .tt
                        .store(key, Move::NONE, to_tt(stand, ply), raw, 0, Bound::Lower);
                }
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let list = &mut buf.list;
        if in_check {
            pos.legal_moves(list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            pos.legal_captures(list);
            let first = v.promotions.first().copied();
            list.retain(|m| {
                is_capture(pos, m) || (m.move_type() == MoveType::Promotion && m.kind() == first)
            });
            if v.drops && qd == 0 && self.on(Feature::QsearchDrops) {
                self.add_checking_drops(pos, list);
            }
        }
        let scores = &mut buf.scores;
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        self.order(pos, list, scores, tt_move, ply.min(MAX_PLY), false);
        let n = list.len();
        let moves = list.as_mut_slice();
        for i in 0..n {
            let m = pick(moves, scores, i);
            // Captures that lose material cannot raise a quiet position's score.
            if !in_check
                && m.move_type() != MoveType::Drop
                && best > -MATE_BOUND
                && self.on(Feature::QsearchSee)
                && !see_ge(pos, m, 0)
            {
                continue;
            }
            let child = pos.after(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, to_tt(best, ply), raw, 0, bound);
        best
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let slot = ply.min(BANK - 1) + BANK * (self.excluded[ply] != Move::NONE) as usize;
        let mut buf = self.take_buf(slot);
        let r = self.search_inner(&mut buf, pos, alpha, beta, depth, ply, cut, null_ok);
        self.bufs[slot] = Some(buf);
        r
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
        cut: bool,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        if ply > 0 {
            if self.is_repetition(pos) {
                return 0;
            }
            if v.n_move_rule > 0
                && pos.halfmove() >= v.n_move_rule
                && (!in_check || pos.legal_move_count() > 0)
            {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.static_eval(pos, ply);
            }
            if self.on(Feature::MateDistance) {
                alpha = alpha.max(-MATE + ply as i32);
                beta = beta.min(MATE - ply as i32 - 1);
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        let key = pos.key();
        let excluded = self.excluded[ply];
        let tt_hit = self.shared.tt.probe(key);
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
                return s;
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
        self.eval_stack[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.eval_stack[ply - 2];
        if !pv_node && !in_check && ply > 0 && excluded == Move::NONE {
            // Razoring: far below alpha at low depth, only a capture can save the
            // position, and quiescence says whether one does. (It borrows the second
            // buffer bank: this node holds the first.)
            if self.on(Feature::Pruning)
                && self.on(Feature::Razoring)
                && depth <= 3
                && alpha.abs() < MATE_BOUND
                && eval + 250 + 200 * depth * depth < alpha
            {
                let mut b = self.take_buf(ply.min(BANK - 1) + BANK);
                let v = self.qsearch_inner(&mut b, pos, alpha - 1, alpha, ply, 0);
                self.bufs[ply.min(BANK - 1) + BANK] = Some(b);
                if self.stopped {
                    return 0;
                }
                if v < alpha && v.abs() < MATE_BOUND {
                    return v;
                }
            }
            // Reverse futility: far above beta at low depth.
            if self.on(Feature::Pruning)
                && self.on(Feature::Rfp)
                && depth <= 7
                && eval - 80 * depth + 30 * improving as i32 >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            if null_ok
                && self.on(Feature::NullMove)
                && depth >= 3
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && self.null_allowed(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let child = pos.after(Move::PASS);
                self.keys.push(child.key());
                self.prev[ply] = (NO_PIECE, 0);
                self.cont_block[ply] = NO_CONT;
                let s = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut, false);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // ProbCut: a capture that beats beta by a margin in a shallow search will
        // beat beta in the full one.
        let pc_beta = beta + 200 - 50 * improving as i32;
        if !pv_node
            && !in_check
            && ply > 0
            && excluded == Move::NONE
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && self.on(Feature::Pruning)
            && self.on(Feature::ProbCut)
            && !tt_hit.is_some_and(|h| h.depth >= depth - 3 && from_tt(h.score, ply) < pc_beta)
        {
            let list = &mut buf.list;
            pos.legal_captures(list);
            for i in 0..list.len() {
                let m = list.as_slice()[i];
                if !is_capture(pos, m) || !see_ge(pos, m, pc_beta - eval) {
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
                        depth - 4,
                        ply + 1,
                        !cut,
                        true,
                    );
                }
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= pc_beta {
                    self.shared
                        .tt
                        .store(key, m, to_tt(s, ply), raw_eval, depth - 3, Bound::Lower);
                    return s;
                }
            }
        }
        // Internal iterative reduction: no table move to guide a deep search.
        let depth =
            if tt_move == Move::NONE && depth >= 6 && (pv_node || cut) && self.on(Feature::Iir) {
                depth - 1
            } else {
                depth
            };
        let list = &mut buf.list;
        pos.legal_moves(list);
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if ply == 0 {
            if !self.limits.searchmoves.is_empty() {
                let sm = &self.limits.searchmoves;
                list.retain(|m| sm.contains(&m));
            }
            if !self.root_excluded.is_empty() {
                let ex = &self.root_excluded;
                list.retain(|m| !ex.contains(&m));
            }
            if list.is_empty() {
                return -INF;
            }
        }
        let scores = &mut buf.scores;
        self.order(pos, list, scores, tt_move, ply, true);
        let n = list.len();
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let orig_alpha = alpha;
        let mut tried_quiets: [Move; 64] = [Move::NONE; 64];
        let mut tried_captures: [Move; 32] = [Move::NONE; 32];
        let mut nc = 0;
        let mut nq = 0;
        let mut searched = 0;
        let lmr = lmr_table();
        let moves = list.as_mut_slice();
        for i in 0..n {
            let m = pick(moves, scores, i);
            if m == excluded {
                continue;
            }
            let capture = is_capture(pos, m);
            let quiet = !capture && m.move_type() != MoveType::Promotion;
            let child = pos.after(m);
            let gives_check = match v.goal {
                Goal::Checkmate => child.in_check(),
                Goal::KingCapture => child
                    .king_sq(child.side())
                    .is_some_and(|_| child.king_attacked(child.side())),
            };
            // Late-move and futility pruning of quiet moves; a checking move may mate, so
            // it is always searched.
            if ply > 0
                && quiet
                && !in_check
                && !gives_check
                && best > -MATE_BOUND
                && searched > 0
                && self.on(Feature::Pruning)
            {
                if depth <= 6
                    && nq as i32 > 3 + depth * depth / (2 - improving as i32)
                    && self.on(Feature::Lmp)
                {
                    continue;
                }
                let hist = self.quiet_score(pos, m, ply);
                // A move whose history says it rarely works is not tried near the leaves.
                if depth <= 4 && hist < -2500 * depth && self.on(Feature::HistoryPruning) {
                    continue;
                }
                let lmr_depth =
                    (depth - 1 - lmr.0[(depth as usize).min(63)][searched.min(63)] as i32
                        + hist / 8192)
                        .max(0);
                if lmr_depth <= 6
                    && eval + 100 + 90 * lmr_depth <= alpha
                    && self.on(Feature::Futility)
                {
                    continue;
                }
            }
            // SEE pruning: at low depth a move that loses too much material on its
            // square is not searched. A drop that checks may start a mating attack.
            if ply > 0
                && !in_check
                && best > -MATE_BOUND
                && self.on(Feature::Pruning)
                && self.on(Feature::SeePruning)
                && !(gives_check && m.move_type() == MoveType::Drop)
            {
                if capture || gives_check || !quiet {
                    if depth <= 8 && !see_ge(pos, m, -120 * depth) {
                        continue;
                    }
                } else {
                    let lmr_depth =
                        (depth - 1 - lmr.0[(depth as usize).min(63)][searched.min(63)] as i32)
                            .max(0);
                    if lmr_depth <= 8 && !see_ge(pos, m, -30 * lmr_depth * lmr_depth) {
                        continue;
                    }
                }
            }
            // Only a check that does not lose material is extended.
            let mut ext = (gives_check
                && ply < 2 * depth as usize + 8
                && self.on(Feature::CheckExtension)
                && see_ge(pos, m, 0)) as i32;
            // Singular extension: when every other move fails well below the table's
            // score, the table move is the only good one and is searched deeper. When
            // even without it the position beats beta, several moves refute it
            // (multi-cut); when the table move alone is expected to beat beta, it is
            // searched less deep.
            if let Some(h) = tt_hit.filter(|h| {
                ply > 0
                    && m == tt_move
                    && excluded == Move::NONE
                    && depth >= 8
                    && self.on(Feature::Singular)
                    && h.depth >= depth - 3
                    && matches!(h.bound, Bound::Lower | Bound::Exact)
                    && from_tt(h.score, ply).abs() < MATE_BOUND
                    && ply < 2 * depth as usize + 8
            }) {
                let tt_score = from_tt(h.score, ply);
                let sbeta = tt_score - 2 * depth;
                self.excluded[ply] = m;
                let s = self.search(pos, sbeta - 1, sbeta, (depth - 1) / 2, ply, cut, false);
                self.excluded[ply] = Move::NONE;
                self.pv_len[ply] = 0;
                if self.stopped {
                    return 0;
                }
                if s < sbeta {
                    ext = 1;
                } else if sbeta >= beta {
                    return sbeta;
                } else if tt_score >= beta {
                    ext = -1;
                }
            }
            if ply == 0 {
                self.report_root_move(m, searched + 1);
            }
            let new_depth = depth - 1 + ext;
            self.push_move(pos, &child, m, ply);
            let nodes_before = self.nodes;
            let mut score;
            if searched == 0 {
                score = -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut,
                    true,
                );
            } else {
                let mut r = 0;
                if depth >= 3
                    && searched >= 2
                    && quiet
                    && !in_check
                    && !gives_check
                    && self.on(Feature::Lmr)
                {
                    r = lmr.0[(depth as usize).min(63)][searched.min(63)] as i32;
                    r -= pv_node as i32;
                    r += (!pv_node && cut) as i32;
                    r += !improving as i32;
                    r -= (m == self.killers[ply][0] || m == self.killers[ply][1]) as i32;
                    r -= self.quiet_score(pos, m, ply) / 12000;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    true,
                    true,
                );
                if score > alpha && r > 0 {
                    score =
                        -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, false, true);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if ply == 0 {
                let spent = self.nodes - nodes_before;
                match self.root_nodes.iter_mut().find(|e| e.0 == m) {
                    Some(e) => e.1 += spent,
                    None => self.root_nodes.push((m, spent)),
                }
            }
            searched += 1;
            if quiet && nq < tried_quiets.len() {
                tried_quiets[nq] = m;
                nq += 1;
            } else if capture && nc < tried_captures.len() {
                tried_captures[nc] = m;
                nc += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if ply == 0 && searched > 1 {
                        self.best_changes += 1.0;
                    }
                    best_move = m;
                    alpha = score;
                    self.pv[ply][0] = m;
                    let cl = self.pv_len[ply + 1];
                    for k in 0..cl {
                        self.pv[ply][k + 1] = self.pv[ply + 1][k];
                    }
                    self.pv_len[ply] = cl + 1;
                    if score >= beta {
                        if quiet || capture {
                            self.update_stats(
                                pos,
                                m,
                                quiet,
                                ply,
                                depth,
                                &tried_quiets[..nq],
                                &tried_captures[..nc],
                            );
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
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded == Move::NONE && (ply > 0 || self.root_excluded.is_empty()) {
            self.shared
                .tt
                .store(key, best_move, to_tt(best, ply), raw_eval, depth, bound);
            if !in_check
                && (best_move == Move::NONE || !is_capture(pos, best_move))
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= eval)
                && !(bound == Bound::Upper && best >= eval)
            {
                self.update_correction(pos, depth, best - eval);
            }
        }
        best
    }
}
