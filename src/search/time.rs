//! Time management. From the clock, the increment, moves to go and the move overhead
//! come an *optimum* (the time a move should take) and a *maximum* (the hard limit the
//! search never passes). Between iterations the optimum is scaled by how settled the
//! search is: a best move that keeps changing, a score that falls, or a best move that
//! holds only a small share of the nodes ask for more time; a stable, dominant best move
//! asks for less.

use super::limits::Limits;
use crate::rules::Color;

/// Moves assumed left in the game when the GUI gives no `movestogo`.
const HORIZON: u64 = 50;

/// Time limits of one search, in milliseconds since its start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeManager {
    /// What a move should take before the scaling factors.
    pub optimum: u64,
    /// The hard limit, checked inside the search.
    pub maximum: u64,
    /// `movetime`: spend the whole time, never stop between iterations.
    pub fixed: bool,
}

/// How settled the search is after an iteration; each factor scales the optimum.
#[derive(Clone, Copy, Debug)]
pub struct IterationTrend {
    /// Root best-move changes, decayed by half each iteration.
    pub best_changes: f64,
    /// This iteration's score and those of the previous one and of three iterations ago.
    pub score: i32,
    pub prev_score: i32,
    pub older_score: i32,
    /// Iterations completed since the best move last changed.
    pub stable_iterations: i32,
    /// Share of this iteration's root nodes spent under the best move (0..=1).
    pub best_share: f64,
}

impl TimeManager {
    /// No limit: `infinite`, `depth`, `nodes`, or no clock at all.
    pub const UNTIMED: TimeManager = TimeManager {
        optimum: u64::MAX,
        maximum: u64::MAX,
        fixed: false,
    };

    /// Limits for side `us` at game ply `ply` (0 at the game's first move), with
    /// `overhead` ms kept back from the clock for each move and the usual budget
    /// scaled by `percent` (the `time_percent` parameter: a variant whose games are
    /// short can afford more a move).
    pub fn new(l: &Limits, overhead: u64, us: Color, ply: u32, percent: i32) -> TimeManager {
        if l.infinite {
            return TimeManager::UNTIMED;
        }
        if let Some(mt) = l.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            return TimeManager {
                optimum: t,
                maximum: t,
                fixed: true,
            };
        }
        let Some(time) = l.time[us.idx()] else {
            return TimeManager::UNTIMED;
        };
        let inc = l.inc[us.idx()];
        let mut mtg = l
            .movestogo
            .map_or(HORIZON, |m| (m as u64).clamp(1, HORIZON));
        // A short clock cannot count on many more increments: shorten the horizon.
        if time < 1000 && mtg as f64 / time as f64 > 0.05 {
            mtg = ((time as f64 * 0.05) as u64).max(2).min(mtg);
        }
        // Floating point: a GUI may send any clock up to u64::MAX, and f64 casts back
        // to u64 saturate instead of overflowing.
        let (timef, incf, ovf, mtgf) = (time as f64, inc as f64, overhead as f64, mtg as f64);
        let ply = ply as f64;
        // The percentage scales the budget but not the caps that keep a short clock
        // safe.
        let pct = percent.max(1) as f64 / 100.0;
        let left = (timef + incf * (mtgf - 1.0) - ovf * (2.0 + mtgf)).max(1.0);
        let (opt_scale, max_scale) = if l.movestogo.is_some() {
            (
                ((0.88 + ply / 116.4) / mtgf * pct).min(0.88 * timef / left),
                (1.3 + 0.11 * mtgf).min(6.3),
            )
        } else {
            (
                ((0.0138 + (ply + 3.0).powf(0.45) * 0.0045) * pct).min(0.2 * timef / left),
                (4.0 + ply / 12.0).min(6.6),
            )
        };
        let optimum = (opt_scale * left).max(1.0);
        // With one move to go the whole clock minus a reserve may be spent; otherwise
        // never more than 80 % of what is left on one move.
        let cap = if mtg == 1 { 0.9 } else { 0.8 };
        let maximum = (max_scale * optimum).min(cap * timef - ovf).max(1.0);
        let maximum = (maximum as u64).min(time).max(1);
        TimeManager {
            optimum: (optimum as u64).clamp(1, maximum),
            maximum,
            fixed: false,
        }
    }

    /// Whether the search has a clock to watch.
    pub fn timed(&self) -> bool {
        self.maximum != u64::MAX
    }

    /// Whether to start another iteration after `elapsed` ms: one iteration takes
    /// about as long as all before it, and an unfinished one is mostly wasted.
    pub fn another_iteration(&self, elapsed: u64, p: &IterationTrend) -> bool {
        self.fixed || !self.timed() || (elapsed as f64) < 0.55 * self.scaled_optimum(p) as f64
    }

    /// The time this move may take, given the search's progress so far.
    pub fn scaled_optimum(&self, p: &IterationTrend) -> u64 {
        if self.fixed || !self.timed() {
            return self.maximum;
        }
        let falling = (1.0
            + 0.012 * (p.prev_score - p.score) as f64
            + 0.006 * (p.older_score - p.score) as f64)
            .clamp(0.6, 1.6);
        let stability = 1.15 - 0.035 * p.stable_iterations.clamp(0, 10) as f64;
        let instability = 1.0 + 0.6 * p.best_changes;
        let dominance = (1.5 - p.best_share) * 1.2;
        let t = self.optimum as f64 * falling * stability * instability * dominance;
        (t as u64).min(self.maximum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Move Overhead` option's default.
    const OVERHEAD: u64 = 10;

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time: [Some(time), Some(time)],
            inc: [inc, inc],
            movestogo: mtg,
            ..Default::default()
        }
    }

    #[test]
    fn budgets_fit_the_clock() {
        for (time, inc) in [(1000, 10), (10_000, 100), (60_000, 0), (5, 0), (300, 1000)] {
            for mtg in [None, Some(1), Some(2), Some(40)] {
                for ply in [0, 20, 80, 300] {
                    for pct in [25, 100, 300] {
                        let l = clock(time, inc, mtg);
                        let tm = TimeManager::new(&l, OVERHEAD, Color::White, ply, pct);
                        assert!(
                            1 <= tm.optimum && tm.optimum <= tm.maximum && tm.maximum <= time,
                            "{time}+{inc} {mtg:?} ply {ply} {pct} %: {tm:?}"
                        );
                        if time > 100 {
                            assert!(tm.maximum < time, "{time}+{inc} {mtg:?} {pct} %: {tm:?}");
                        }
                    }
                }
            }
        }
    }

    /// 10+0.1 from the start: a few hundred milliseconds a move, a hard limit well
    /// inside the clock.
    #[test]
    fn ten_seconds_plus_a_tenth() {
        let tm = TimeManager::new(&clock(10_000, 100, None), OVERHEAD, Color::White, 20, 100);
        assert!((200..=600).contains(&tm.optimum), "{tm:?}");
        assert!(tm.maximum >= 3 * tm.optimum && tm.maximum <= 8000, "{tm:?}");
    }

    /// `time_percent` scales the budget of a move, the hard limit with it.
    #[test]
    fn time_percent_scales_the_budget() {
        let l = clock(10_000, 100, None);
        let base = TimeManager::new(&l, OVERHEAD, Color::White, 20, 100);
        let more = TimeManager::new(&l, OVERHEAD, Color::White, 20, 150);
        let less = TimeManager::new(&l, OVERHEAD, Color::White, 20, 50);
        assert!(
            more.optimum.abs_diff(base.optimum * 3 / 2) <= 1,
            "{base:?} {more:?}"
        );
        assert!(
            less.optimum.abs_diff(base.optimum / 2) <= 1,
            "{base:?} {less:?}"
        );
        assert!(less.maximum < base.maximum && base.maximum < more.maximum);
    }

    #[test]
    fn movetime_is_spent_whole() {
        let l = Limits {
            movetime: Some(1000),
            ..Default::default()
        };
        let tm = TimeManager::new(&l, OVERHEAD, Color::Black, 7, 100);
        assert_eq!((tm.optimum, tm.maximum, tm.fixed), (990, 990, true));
        let p = IterationTrend {
            best_changes: 0.0,
            score: 0,
            prev_score: 0,
            older_score: 0,
            stable_iterations: 20,
            best_share: 1.0,
        };
        assert_eq!(tm.scaled_optimum(&p), 990);
    }

    #[test]
    fn unsettled_search_takes_longer() {
        let tm = TimeManager::new(&clock(60_000, 0, None), OVERHEAD, Color::White, 30, 100);
        let settled = IterationTrend {
            best_changes: 0.0,
            score: 20,
            prev_score: 20,
            older_score: 20,
            stable_iterations: 10,
            best_share: 0.95,
        };
        let unsettled = IterationTrend {
            best_changes: 1.5,
            score: -40,
            prev_score: 20,
            older_score: 30,
            stable_iterations: 0,
            best_share: 0.3,
        };
        let (a, b) = (tm.scaled_optimum(&settled), tm.scaled_optimum(&unsettled));
        assert!(
            a < tm.optimum && tm.optimum < b && b <= tm.maximum,
            "{a} {b} {tm:?}"
        );
    }

    /// Found by fuzzing `go`: huge clocks and increments overflowed.
    #[test]
    fn huge_clocks_do_not_overflow() {
        for (time, inc) in [
            (u64::MAX, 0),
            (i64::MAX as u64, i64::MAX as u64),
            (100, u64::MAX),
            (u64::MAX, u64::MAX),
        ] {
            for mtg in [None, Some(1), Some(40)] {
                let tm = TimeManager::new(&clock(time, inc, mtg), OVERHEAD, Color::White, 0, 100);
                assert!(
                    1 <= tm.optimum && tm.optimum <= tm.maximum && tm.maximum <= time,
                    "{time} {inc} {mtg:?}: {tm:?}"
                );
            }
        }
        // A huge clock still leaves most of it unspent on one move.
        let tm = TimeManager::new(&clock(u64::MAX, 0, None), OVERHEAD, Color::White, 0, 100);
        assert!(tm.maximum <= u64::MAX / 5 * 4);
    }
}
