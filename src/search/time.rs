//! Time management: a soft limit (stop between iterations) and a hard limit (stop
//! inside the search), from the clock, increment, moves to go and move overhead.

use super::Limits;
use crate::rules::variant::Variant;
use crate::rules::Color;

/// (soft, hard) milliseconds for this move; `u64::MAX` when the search is untimed.
pub fn budget(l: &Limits, us: Color, _v: &Variant) -> (u64, u64) {
    if l.infinite {
        return (u64::MAX, u64::MAX);
    }
    if let Some(mt) = l.movetime {
        let t = mt.saturating_sub(l.move_overhead).max(1);
        return (t, t);
    }
    let Some(time) = l.time[us.idx()] else {
        return (u64::MAX, u64::MAX);
    };
    let inc = l.inc[us.idx()];
    let avail = time.saturating_sub(l.move_overhead).max(1);
    let mtg = l.movestogo.unwrap_or(30).clamp(1, 50) as u64;
    // Any clock a GUI may send (up to u64::MAX ms) must not overflow: fractions of
    // `avail` and `inc` are taken before anything is added or multiplied.
    let soft = (avail / mtg)
        .saturating_add(inc - inc / 4)
        .min(avail / 2)
        .max(1);
    let hard_cap = if mtg == 1 {
        avail / 10 * 9
    } else {
        avail / 5 * 3
    };
    let hard = soft
        .saturating_mul(4)
        .min(hard_cap)
        .max(soft.min(avail))
        .max(1);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variants;

    #[test]
    fn budgets_fit_the_clock() {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let mut l = Limits {
            time: [Some(1000), Some(1000)],
            inc: [10, 10],
            move_overhead: 10,
            ..Default::default()
        };
        let (s, h) = budget(&l, Color::White, v);
        assert!(s < h && h < 1000, "{s} {h}");
        l.movestogo = Some(1);
        let (_, h) = budget(&l, Color::White, v);
        assert!(h < 1000);
        l.time = [Some(5), Some(5)];
        let (s, h) = budget(&l, Color::White, v);
        assert!(s >= 1 && (1..=5).contains(&h));
    }

    /// Found by fuzzing `go`: huge clocks and increments overflowed.
    #[test]
    fn huge_clocks_do_not_overflow() {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        for (time, inc) in [
            (u64::MAX, 0),
            (i64::MAX as u64, i64::MAX as u64),
            (100, u64::MAX),
            (u64::MAX, u64::MAX),
        ] {
            for mtg in [None, Some(1), Some(40)] {
                let l = Limits {
                    time: [Some(time), Some(time)],
                    inc: [inc, inc],
                    movestogo: mtg,
                    move_overhead: 10,
                    ..Default::default()
                };
                let (s, h) = budget(&l, Color::White, v);
                assert!(
                    1 <= s && s <= h && h <= time,
                    "{time} {inc} {mtg:?}: {s} {h}"
                );
                if mtg == Some(1) && inc == 0 {
                    // With one move to go, the hard limit is 9/10 of the clock.
                    assert_eq!(h, (time - 10) / 10 * 9, "{time}");
                }
            }
        }
        // A huge clock still leaves most of it unspent on one move.
        let l = Limits {
            time: [Some(u64::MAX); 2],
            ..Default::default()
        };
        assert!(budget(&l, Color::White, v).1 <= u64::MAX / 5 * 3);
    }
}
