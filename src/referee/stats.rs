//! Match statistics as cutechess prints them: Elo difference with a 95% error
//! margin, likelihood of superiority, and the sequential probability ratio test.

/// Wins, losses and draws of the first engine of a pair.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Wld {
    pub w: u32,
    pub l: u32,
    pub d: u32,
}

impl Wld {
    /// Games played.
    pub fn n(&self) -> u32 {
        self.w + self.l + self.d
    }
    /// Score fraction 0..1.
    pub fn ratio(&self) -> f64 {
        if self.n() == 0 {
            return 0.0;
        }
        (self.w as f64 + self.d as f64 / 2.0) / self.n() as f64
    }
}

/// cutechess's `W - L - D  [ratio] games`, as in its `Score of` line.
impl std::fmt::Display for Wld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} - {} - {}  [{:.3}] {}",
            self.w,
            self.l,
            self.d,
            self.ratio(),
            self.n()
        )
    }
}

fn erf(x: f64) -> f64 {
    // Abramowitz-Stegun 7.1.26 (error below 1.5e-7).
    let t = 1.0 / (1.0 + 0.3275911 * x.abs());
    let y = 1.0
        - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
            + 0.254829592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// SPRT settings (Elo bounds of the two hypotheses and error rates).
#[derive(Clone, Copy, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// (lower, upper) log-likelihood bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 over H0 (normal approximation of the trinomial model).
    pub fn llr(&self, r: &Wld) -> f64 {
        let n = r.n() as f64;
        if r.n() == 0 || r.w + r.l == 0 {
            return 0.0;
        }
        let p = r.ratio();
        let (w, l, d) = (r.w as f64 / n, r.l as f64 / n, r.d as f64 / n);
        let var = w * (1.0 - p).powi(2) + l * p.powi(2) + d * (0.5 - p).powi(2);
        if var <= 0.0 {
            return 0.0;
        }
        let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
        let (s0, s1) = (s(self.elo0), s(self.elo1));
        (s1 - s0) * (2.0 * p - s0 - s1) * n / (2.0 * var)
    }
}

/// One engine's results by colour, each from the engine's side.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct PlayerStats {
    pub white: Wld,
    pub black: Wld,
}

impl PlayerStats {
    /// Both colours together.
    pub fn total(&self) -> Wld {
        Wld {
            w: self.white.w + self.black.w,
            l: self.white.l + self.black.l,
            d: self.white.d + self.black.d,
        }
    }
}

/// Elo figures computed as cutechess-cli computes them for its reports, NaN and
/// infinity included (all games won gives `inf +/- nan`), so the numbers a user
/// compares with cutechess's are the same.
#[derive(Clone, Copy, Debug)]
pub struct CuteElo {
    wins: f64,
    losses: f64,
    draws: f64,
    mu: f64,
    stdev: f64,
}

impl CuteElo {
    /// The figures of a score.
    pub fn new(r: &Wld) -> CuteElo {
        let (wins, losses, draws) = (r.w as f64, r.l as f64, r.d as f64);
        let n = wins + losses + draws;
        let (w, l, d) = (wins / n, losses / n, draws / n);
        let mu = w + d / 2.0;
        let dev = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
        CuteElo {
            wins,
            losses,
            draws,
            mu,
            stdev: dev.sqrt() / n.sqrt(),
        }
    }

    fn diff_of(p: f64) -> f64 {
        -400.0 * (1.0 / p - 1.0).log10()
    }

    /// Points per game, 0..1.
    pub fn point_ratio(&self) -> f64 {
        (self.wins * 2.0 + self.draws) / ((self.wins + self.losses + self.draws) * 2.0)
    }

    /// Draws per game.
    pub fn draw_ratio(&self) -> f64 {
        self.draws / (self.wins + self.losses + self.draws)
    }

    /// Elo difference.
    pub fn diff(&self) -> f64 {
        Self::diff_of(self.mu)
    }

    /// Half the 95% confidence interval (cutechess's normal quantile approximation).
    /// Where one end of the interval of the score falls outside 0..1 (a short,
    /// one-sided match: 7-1-2 reaches 1.006), it has no Elo and cutechess prints
    /// `nan`; the other end's distance from the difference is given instead, so the
    /// bar is finite whenever the difference is.
    pub fn error_margin(&self) -> f64 {
        let lo = self.mu + phi_inv(0.025) * self.stdev;
        let hi = self.mu + phi_inv(0.975) * self.stdev;
        let inside = |p: f64| p > 0.0 && p < 1.0;
        match (inside(lo), inside(hi)) {
            (false, true) if self.diff().is_finite() => Self::diff_of(hi) - self.diff(),
            (true, false) if self.diff().is_finite() => self.diff() - Self::diff_of(lo),
            _ => (Self::diff_of(hi) - Self::diff_of(lo)) / 2.0,
        }
    }

    /// Likelihood of superiority (percent).
    pub fn los(&self) -> f64 {
        100.0
            * (0.5
                + 0.5 * erf((self.wins - self.losses) / (2.0 * (self.wins + self.losses)).sqrt()))
    }
}

/// The inverse error function as cutechess approximates it (Winitzki's formula).
fn erf_inv(x: f64) -> f64 {
    let pi = std::f64::consts::PI;
    let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
    let y = (1.0 - x * x).ln();
    let z = 2.0 / (pi * a) + y / 2.0;
    let r = ((z * z - y / a).sqrt() - z).sqrt();
    if x < 0.0 {
        -r
    } else {
        r
    }
}

fn phi_inv(p: f64) -> f64 {
    std::f64::consts::SQRT_2 * erf_inv(2.0 * p - 1.0)
}

/// `x` with `decimals` decimals as Qt writes it (`nan`, `inf`, `-inf`, and no sign
/// on a negative zero: an even score is `0.0` Elo).
pub fn fixed(x: f64, decimals: usize) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// `x` with `digits` significant digits, as C's `%g` (and Qt's `'g'`) write it.
pub fn general(x: f64, digits: i32) -> String {
    if !x.is_finite() {
        return fixed(x, 0);
    }
    if x == 0.0 {
        return "0".into();
    }
    let exp = x.abs().log10().floor() as i32;
    // Rounding may carry into the next power of ten (9.996 -> 10.0).
    let rounded: f64 = format!("{:.*e}", (digits - 1).max(0) as usize, x)
        .parse()
        .unwrap_or(x);
    let exp = if rounded != 0.0 {
        rounded.abs().log10().floor() as i32
    } else {
        exp
    };
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if exp < -4 || exp >= digits {
        let s = format!("{:.*e}", (digits - 1).max(0) as usize, x);
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        format!(
            "{}e{}{:02}",
            trim(m.to_string()),
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    } else {
        trim(format!("{:.*}", (digits - 1 - exp).max(0) as usize, x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_uneven_scores() {
        let e = CuteElo::new(&Wld {
            w: 10,
            l: 10,
            d: 10,
        });
        let (d, m) = (e.diff(), e.error_margin());
        assert!(d.abs() < 1e-9 && m > 50.0 && m < 200.0, "{d} {m}");
        // 70% is about +147 Elo.
        let e = CuteElo::new(&Wld {
            w: 30,
            l: 10,
            d: 10,
        });
        assert!((e.diff() - 147.2).abs() < 1.0, "{}", e.diff());
        assert!((CuteElo::new(&Wld { w: 5, l: 5, d: 0 }).los() - 50.0).abs() < 1e-6);
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
        assert!(
            s.llr(&Wld {
                w: 600,
                l: 400,
                d: 200
            }) > hi
        );
        assert!(
            s.llr(&Wld {
                w: 400,
                l: 600,
                d: 200
            }) < lo
        );
    }

    /// Short, one-sided matches: the bar is a number wherever the difference is
    /// (7-1-2 printed `240.8 +/- nan` before), and the usual case is cutechess's.
    #[test]
    fn one_sided_results_get_a_finite_bar() {
        let bar = |w, l, d| {
            let e = CuteElo::new(&Wld { w, l, d });
            (fixed(e.diff(), 1), fixed(e.error_margin(), 1))
        };
        let (d, m) = bar(7, 1, 2);
        assert_eq!(d, "240.8");
        assert!(
            m.parse::<f64>().is_ok_and(|m| m > 100.0 && m < 300.0),
            "{m}"
        );
        let (d, m) = bar(1, 7, 2);
        assert_eq!(d, "-240.8");
        assert!(
            m.parse::<f64>().is_ok_and(|m| m > 100.0 && m < 300.0),
            "{m}"
        );
        assert_eq!(bar(0, 0, 10), ("0.0".into(), "0.0".into()));
        assert_eq!(bar(10, 0, 0).0, "inf");
        assert_eq!(bar(0, 10, 0).0, "-inf");
        // With both ends inside 0..1 the bar is cutechess's: 30-10-10 is +147.2.
        let e = CuteElo::new(&Wld {
            w: 30,
            l: 10,
            d: 10,
        });
        let lo = e.mu + phi_inv(0.025) * e.stdev;
        let hi = e.mu + phi_inv(0.975) * e.stdev;
        let cute = (CuteElo::diff_of(hi) - CuteElo::diff_of(lo)) / 2.0;
        assert_eq!(e.error_margin(), cute);
        // Every small result whose difference is finite has a finite bar, unless
        // both ends of its interval fall outside 0..1 (1-1-0: no bound either way,
        // `nan` as in cutechess).
        let mut finite = 0;
        for w in 0..=12 {
            for l in 0..=12 {
                for d in 0..=12 {
                    if w + l + d == 0 {
                        continue;
                    }
                    let e = CuteElo::new(&Wld { w, l, d });
                    let lo = e.mu + phi_inv(0.025) * e.stdev;
                    let hi = e.mu + phi_inv(0.975) * e.stdev;
                    let one_end = (lo > 0.0 && lo < 1.0) || (hi > 0.0 && hi < 1.0);
                    if e.diff().is_finite() && one_end {
                        assert!(e.error_margin().is_finite(), "{w}-{l}-{d}");
                        finite += 1;
                    }
                }
            }
        }
        assert!(finite > 2000, "{finite}");
        assert_eq!(bar(1, 1, 0).1, "nan");
    }

    #[test]
    fn cutechess_figures_and_number_formats() {
        let e = CuteElo::new(&Wld { w: 3, l: 0, d: 0 });
        assert_eq!(fixed(e.diff(), 1), "inf");
        assert_eq!(fixed(e.error_margin(), 1), "nan");
        let e = CuteElo::new(&Wld { w: 0, l: 0, d: 4 });
        assert_eq!(
            (fixed(e.diff(), 0), fixed(e.error_margin(), 0)),
            ("0".into(), "0".into())
        );
        assert_eq!(fixed(e.los(), 1), "nan");
        assert_eq!(general(2.944_438_979, 3), "2.94");
        assert_eq!(general(-2.944_438_979, 3), "-2.94");
        assert_eq!(general(0.1234, 3), "0.123");
        assert_eq!(general(12.0, 3), "12");
        assert_eq!(general(9.996, 3), "10");
        assert_eq!(general(1234.5, 3), "1.23e+03");
        assert_eq!(general(0.0, 3), "0");
    }
}
