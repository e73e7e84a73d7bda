//! History heuristics: the butterfly history, killers and counter moves, updated
//! when a quiet move refutes a position.

use super::movepick::hist_idx;
use super::worker::Worker;
use crate::rules::moves::Move;
use crate::rules::Position;

impl Worker<'_> {
    pub(crate) fn update_quiet(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        let us = pos.side().idx();
        let bonus = (depth * depth).min(400);
        let (f, t) = hist_idx(m);
        let h = &mut self.history[us][f][t];
        *h += 32 * bonus - *h * bonus / 512;
        for &q in tried {
            if q != m {
                let (f, t) = hist_idx(q);
                let h = &mut self.history[us][f][t];
                *h -= 32 * bonus + *h * bonus / 512;
            }
        }
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if ply > 0 {
            let (pp, psq) = self.prev[ply - 1];
            if !pp.is_none() {
                self.counters[pp.idx()][psq as usize & 63] = m;
            }
        }
    }
}
