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
use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::variant::Goal;
use crate::rules::Position;

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

/// What a node of the main search knows once its table entry is read and its
/// position evaluated: what its pruning and its move loop decide by.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: i32,
    pv_node: bool,
    /// Expected to fail high (a cut node).
    cut: bool,
    in_check: bool,
    key: u64,
    tt_hit: Option<TtHit>,
    tt_move: Move,
    /// On a principal variation now or when the table entry was stored.
    tt_pv: bool,
    /// The move a singular search leaves out (none otherwise).
    excluded: Move,
    /// The static evaluation before correction, as the table keeps it.
    raw_eval: i32,
    /// The corrected static evaluation (-INF in check).
    eval: i32,
    /// The evaluation is better than two plies before.
    improving: bool,
}

/// What the move loop knows of one move before searching it.
#[derive(Clone, Copy)]
struct MoveFacts {
    m: Move,
    capture: bool,
    quiet: bool,
    gives_check: bool,
}

impl Worker<'_> {
    /// The bookkeeping of playing `m` from `pos` (to `child`) at `ply`: the key for
    /// repetitions, and the move the histories of the next plies are indexed by.
    /// The caller pops the key once the child is searched.
    #[inline]
    fn push_move(&mut self, pos: &Position, child: &Position, m: Move, ply: usize) {
        self.tt().prefetch(child.key());
        self.push_key(child.key());
        self.heur.played(pos, m, ply);
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
        self.put_buf(slot, buf);
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
        let tt_hit = self.tt().probe(key);
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
                    self.tt().store(
                        key,
                        Record {
                            mv: Move::NONE,
                            score: to_tt(stand, ply),
                            eval: raw,
                            depth: 0,
                            bound: Bound::Lower,
                            pv: pv_node,
                        },
                    );
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
                pos.is_capture(m) || (m.move_type() == MoveType::Promotion && m.kind() == first)
            });
            if v.drops && qd == 0 && self.on(Feature::QsearchDrops) {
                self.add_checking_drops(pos, list);
            }
        }
        let scores = &mut buf.scores;
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let disabled = self.disabled;
        MovePicker::new(&self.heur, ply.min(MAX_PLY), tt_move, false, disabled).score(
            pos,
            list.as_slice(),
            scores,
        );
        let qs_futility = self.params.qs_futility;
        let futility_base = best + qs_futility;
        for m in Picked::new(list.as_mut_slice(), scores) {
            // Futility: a capture (not a promotion, not a check) that cannot bring the
            // eval back to alpha even with the piece it takes, or that does not win
            // material where the eval alone is short of alpha.
            if qs_futility > 0
                && !in_check
                && best > -MATE_BOUND
                && m.move_type() == MoveType::Normal
                && pos.gives_check_fast(m) == Some(false)
            {
                let gain = futility_base + see::captured_value(pos, m);
                if gain <= alpha {
                    best = best.max(gain);
                    continue;
                }
                if futility_base <= alpha && !see_ge(pos, m, 1) {
                    best = best.max(futility_base);
                    continue;
                }
            }
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
            self.tt().prefetch(child.key());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1);
            if self.stopped() {
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
        let r = Record {
            mv: best_move,
            score: to_tt(best, ply),
            eval: raw,
            depth: 0,
            bound,
            pv: pv_node || tt_hit.is_some_and(|h| h.pv),
        };
        self.tt().store(key, r);
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
        self.pv.clear(ply);
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let slot = ply.min(BANK - 1) + BANK * (self.stack[ply].excluded != Move::NONE) as usize;
        let mut buf = self.take_buf(slot);
        let r = self.search_inner(&mut buf, pos, alpha, beta, depth, ply, cut, null_ok);
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
        cut: bool,
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
            cut,
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

    /// Razoring, reverse futility and the null move: a score that ends the node before
    /// its moves are tried.
    fn prune_node(
        &mut self,
        pos: &Position,
        n: &Node,
        alpha: i32,
        beta: i32,
        null_ok: bool,
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
        if null_ok
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
            let s = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !n.cut, false);
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
    fn probcut(&mut self, buf: &mut Buf, pos: &Position, n: &Node, beta: i32) -> Option<i32> {
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
                    !n.cut,
                    true,
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
    fn prune_move(
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
            let s = self.search(pos, sbeta - 1, sbeta, (depth - 1) / 2, ply, n.cut, false);
            self.stack[ply].excluded = Move::NONE;
            self.pv.clear(ply);
            if self.stopped() {
                return Err(0);
            }
            if s < sbeta {
                ext = 1;
                if p.singular_double > 0
                    && !n.pv_node
                    && s < sbeta - p.singular_double
                    && self.stack[ply].doubles < p.singular_doubles
                {
                    ext = 2;
                }
            } else if sbeta >= beta {
                return Err(sbeta);
            } else if tt_score >= beta {
                ext = -p.singular_neg_beta;
            } else if n.cut {
                ext = -p.singular_neg_cut;
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
        (alpha, beta, best): (i32, i32, i32),
        mut new_depth: i32,
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
                !n.pv_node && !n.cut,
                true,
            );
        }
        let p = &self.params;
        let mut r = 0;
        let checks_ok = p.lmr_check != 0 || (!n.in_check && !f.gives_check);
        // A late capture is reduced only where it is not expected to raise alpha (the
        // value taken is looked up only here, for the few moves that get this far).
        let noisy_ok = p.lmr_noisy != 0
            && !f.quiet
            && (n.cut || n.eval + see::captured_value(pos, m) <= alpha);
        if depth >= p.lmr_depth
            && searched >= p.lmr_moves as usize
            && (f.quiet || noisy_ok)
            && checks_ok
            && self.on(Feature::Lmr)
        {
            r = self.lmr(depth, searched);
            r -= n.pv_node as i32;
            r -= p.lmr_ttpv * n.tt_pv as i32;
            r += (!n.pv_node && n.cut) as i32;
            r += !n.improving as i32;
            r -= f.gives_check as i32;
            if f.quiet {
                let killers = self.heur.killers(ply);
                r -= (m == killers[0] || m == killers[1]) as i32;
                r -= self.heur.quiet_score(pos, m, ply) / p.lmr_hist_div;
                r += (p.lmr_ttcapture != 0 && n.tt_move != Move::NONE && pos.is_capture(n.tt_move))
                    as i32;
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
            true,
            true,
        );
        if score > alpha && r > 0 {
            // How far the reduced search beat alpha says how deep to look again.
            let deeper = self.params.lmr_deeper;
            if deeper > 0 {
                new_depth += (score > best + deeper + 2 * new_depth) as i32;
                new_depth -= (score < best + new_depth) as i32;
            }
            score = -self.search(child, -alpha - 1, -alpha, new_depth, ply + 1, !n.cut, true);
        }
        if score > alpha && score < beta {
            score = -self.search(child, -beta, -alpha, new_depth, ply + 1, false, true);
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
        cut: bool,
        null_ok: bool,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        if let Some(score) = self.settled(pos, ply, in_check, &mut alpha, &mut beta) {
            return score;
        }
        // A child reached other than by the move loop (null move, ProbCut) inherits
        // the line's count of double extensions.
        self.stack[ply + 1].doubles = self.stack[ply].doubles;
        let mut n = match self.probe(pos, alpha, beta, depth, ply, cut, in_check) {
            Ok(n) => n,
            Err(score) => return score,
        };
        if let Some(score) = self.prune_node(pos, &n, alpha, beta, null_ok) {
            return score;
        }
        if let Some(score) = self.probcut(buf, pos, &n, beta) {
            return score;
        }
        // Internal iterative reduction: no table move to guide a deep search.
        if n.tt_move == Move::NONE
            && depth >= self.params.iir_depth
            && (n.pv_node || cut)
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
            let capture = pos.is_capture(m);
            // The child is made before pruning only where the check test needs it:
            // most pruned moves are then never played.
            let mut played = None;
            let gives_check = match v.goal {
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
            let f = MoveFacts {
                m,
                capture,
                quiet: !capture && m.move_type() != MoveType::Promotion,
                gives_check,
            };
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
            self.stack[ply + 1].doubles = self.stack[ply].doubles + (ext >= 2) as i32;
            let nodes_before = self.nodes;
            let score = self.search_move(
                &child,
                pos,
                &n,
                &f,
                (alpha, beta, best),
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
