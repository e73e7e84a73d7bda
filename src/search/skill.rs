//! Playing below full strength (`Skill Level`, `UCI_LimitStrength` + `UCI_Elo`), so
//! that a person can play these variants against a beatable opponent.
//!
//! A level from 0 to 20 (fractions allowed; 20 is full strength) weakens the search
//! two ways: a node budget that grows by a factor 1.45 a level (64 nodes at level 0,
//! about 75,000 at level 19), and a choice among the best four root moves with a
//! random bonus of up to `12 * (20 - level)` centipawns each (at most 100), so that
//! low levels make the mistakes of a weak player (a piece left hanging, a mate
//! missed) rather than only play shallowly. `UCI_Elo` maps to a level through
//! [`ELO_SCALE`], measured in chess at 10+0.1 (see `docs/uci.md`).

use super::score::MATE_BOUND;
use crate::rules::moves::Move;
use rand::Rng;

/// Full strength.
pub const FULL: f64 = 20.0;

/// Root moves a weakened search considers.
pub const CANDIDATES: usize = 4;

/// (level, Elo) pairs measured in chess at 10+0.1, by level; `UCI_Elo` interpolates
/// between them. Levels 12 and 16 were measured against Fairy-Max 5.0b (taken as
/// 1800) and Sjaak II 1.4.1, the lower levels by self-play steps down from level 12,
/// full strength against Sjaak II; the matches are in `docs/uci.md`.
pub const ELO_SCALE: [(f64, i64); 7] = [
    (0.0, 480),
    (4.0, 680),
    (8.0, 1040),
    (10.0, 1270),
    (12.0, 1590),
    (16.0, 1850),
    (FULL, 2400),
];

/// The lowest and highest `UCI_Elo`.
pub const MIN_ELO: i64 = ELO_SCALE[0].1;
pub const MAX_ELO: i64 = ELO_SCALE[ELO_SCALE.len() - 1].1;

/// How much a search at `level` (0..20) may look at before it answers, in nodes.
pub fn node_budget(level: f64) -> u64 {
    (64.0 * 1.45f64.powf(level.clamp(0.0, FULL))) as u64
}

/// The largest random bonus (centipawns) a candidate move gets at `level`.
pub fn spread(level: f64) -> i32 {
    // Capped: a wider bonus drowns the search, and levels 0 to 4 played alike.
    (12.0 * (FULL - level.clamp(0.0, FULL)))
        .round()
        .min(MAX_SPREAD as f64) as i32
}

/// The widest bonus (centipawns), reached at level 11.7 and below.
pub const MAX_SPREAD: i32 = 100;

/// The level that plays at `elo` (clamped to the scale).
pub fn level_for_elo(elo: i64) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    for w in ELO_SCALE.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) as f64 / (e1 - e0).max(1) as f64;
        }
    }
    FULL
}

/// Picks the line a player of `level` would play from `lines` (best first, scores
/// for the side to move): each score, with mates counted as 10 pawns, gets a random
/// bonus of up to [`spread`]; the highest total wins.
pub fn pick(level: f64, lines: &[(i32, Vec<Move>)], rng: &mut impl Rng) -> usize {
    let spread = spread(level);
    let mut best = (i32::MIN, 0);
    for (i, (score, _)) in lines.iter().enumerate() {
        let s = if score.abs() >= MATE_BOUND {
            1000 * score.signum()
        } else {
            (*score).clamp(-999, 999)
        };
        let v = s + rng.gen_range(0..=spread);
        if v > best.0 {
            best = (v, i);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_monotonic_and_ends_at_full_strength() {
        assert!(ELO_SCALE
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(level_for_elo(MIN_ELO - 500), 0.0);
        assert_eq!(level_for_elo(MAX_ELO + 500), FULL);
        let mut last = -1.0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(25) {
            let l = level_for_elo(elo);
            assert!(l >= last, "{elo}");
            last = l;
        }
        assert!(node_budget(0.0) < node_budget(10.0));
        assert!(spread(0.0) > spread(19.0));
        assert_eq!(spread(FULL), 0);
    }

    #[test]
    fn no_spread_picks_the_best_line_and_a_wide_one_does_not_always() {
        let lines = vec![
            (50, vec![Move::NONE]),
            (20, vec![Move::NONE]),
            (-30, vec![Move::NONE]),
        ];
        let mut rng = rand::thread_rng();
        assert!((0..100).all(|_| pick(FULL, &lines, &mut rng) == 0));
        let picks: Vec<usize> = (0..200).map(|_| pick(0.0, &lines, &mut rng)).collect();
        assert!(picks.iter().any(|&i| i != 0));
    }
}
