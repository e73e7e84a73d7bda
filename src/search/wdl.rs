//! Win/draw/loss chances from a score (`UCI_ShowWDL`), by a model fitted to lancer's
//! own games per variant (the `wdlModel` key of `variants.ini`; the fit is
//! `engine-tests/scripts/wdl_fit.py`).
//!
//! The chance that the side to move wins with score `x` (centipawns) at game ply `p`
//! is `1 / (1 + exp((a - x) / b))`, and that it loses `1 / (1 + exp((a + x) / b))`,
//! with `a = a0 + a1 m + a2 m²` and `b = b0 + b1 m + b2 m²`, `m = min(p, 240) / 64`:
//! `a` is the score that wins half the games, `b` how quickly the chance grows
//! around it (both grow in long games, where self-play draws more).

use super::score::MATE_BOUND;
use crate::rules::variant::Variant;

/// The fitted parameters `[a0, a1, a2, b0, b1, b2]` (see the module text).
pub type WdlModel = [f64; 6];

/// The model of variants that give none: chess's fit at 20,000 nodes a move, from
/// before chess's weights were refitted (chess's own line in `variants.ini` follows
/// the current weights).
pub const DEFAULT_MODEL: WdlModel = [106.1, -34.6, 72.5, 184.8, -103.6, 40.9];

/// The model of `variant`.
pub fn model(variant: &Variant) -> WdlModel {
    variant.wdl_model.unwrap_or(DEFAULT_MODEL)
}

/// Win, draw and loss chances in per mille for the side to move (they add up to
/// 1000) of `score` at game ply `ply`.
pub fn wdl(model: &WdlModel, score: i32, ply: u32) -> [u32; 3] {
    if score.abs() >= MATE_BOUND {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let m = ply.min(240) as f64 / 64.0;
    let a = model[0] + (model[1] + model[2] * m) * m;
    let b = (model[3] + (model[4] + model[5] * m) * m).max(1.0);
    let x = score as f64;
    let chance = |x: f64| 1.0 / (1.0 + ((a - x) / b).exp());
    let w = (1000.0 * chance(x)).round() as u32;
    let l = (1000.0 * chance(-x)).round() as u32;
    // With a ≤ 0 both chances can pass one half; the draw takes what is left.
    let l = l.min(1000 - w.min(1000));
    [w.min(1000), 1000 - w.min(1000) - l, l]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_add_up_are_symmetric_and_grow_with_the_score() {
        for p in [0, 30, 80, 300] {
            let mut last = 0;
            for x in (-2000..=2000).step_by(50) {
                let [w, d, l] = wdl(&DEFAULT_MODEL, x, p);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last);
                last = w;
                let [w2, _, l2] = wdl(&DEFAULT_MODEL, -x, p);
                assert!(w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1);
            }
        }
        assert_eq!(wdl(&DEFAULT_MODEL, MATE_BOUND + 5, 10), [1000, 0, 0]);
        assert_eq!(wdl(&DEFAULT_MODEL, -MATE_BOUND - 5, 10), [0, 0, 1000]);
        // At 0 both sides are alike, and long games draw more (chess self-play).
        let [w, d, l] = wdl(&DEFAULT_MODEL, 0, 20);
        assert!(w == l && d > 0);
        assert!(wdl(&DEFAULT_MODEL, 0, 120)[1] > d);
    }
}
