//! Quiescence search: captures (and, in drop variants, checking drops next to the
//! king) until the position is quiet, standing pat on the static evaluation.

use super::alphabeta::tt_cutoff;
use super::movepick::{MovePicker, Picked};
use super::score::*;
use super::see::see_ge;
use super::settings::Feature;
use super::tt::{Bound, Record};
use super::worker::{Buf, Worker, BANK};
use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::variant::Goal;
use crate::rules::Position;

impl Worker<'_> {
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

    /// The moves quiescence tries: every legal move in check; otherwise captures,
    /// promotions to the variant's first promotion piece, and (in drop variants, at
    /// quiescence's first ply) checking drops next to the king.
    fn noisy_moves(&self, pos: &Position, list: &mut MoveList, in_check: bool, qd: u32) {
        if in_check {
            pos.legal_moves(list);
            return;
        }
        let v = pos.variant();
        pos.legal_captures(list);
        let first = v.promotions.first().copied();
        list.retain(|m| {
            pos.is_capture(m) || (m.move_type() == MoveType::Promotion && m.kind() == first)
        });
        if v.drops && qd == 0 && self.on(Feature::QsearchDrops) {
            self.add_checking_drops(pos, list);
        }
    }

    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        qd: u32,
    ) -> i32 {
        let slot = ply.min(BANK - 1);
        let mut buf = self.take_buf(slot);
        let r = self.qsearch_inner(&mut buf, pos, alpha, beta, ply, qd);
        self.put_buf(slot, buf);
        r
    }

    pub(super) fn qsearch_inner(
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
        self.noisy_moves(pos, list, in_check, qd);
        if in_check && list.is_empty() {
            return -MATE + ply as i32;
        }
        let scores = &mut buf.scores;
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let disabled = self.disabled;
        MovePicker::new(&self.heur, ply.min(MAX_PLY), tt_move, false, disabled).score(
            pos,
            list.as_slice(),
            scores,
        );
        for m in Picked::new(list.as_mut_slice(), scores) {
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
}
