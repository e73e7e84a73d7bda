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

fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Elo difference and its 95% margin, when defined (some games, not all won or all lost).
pub fn elo(r: &Wld) -> Option<(f64, f64)> {
    let n = r.n() as f64;
    let p = r.ratio();
    if r.n() == 0 || p <= 0.0 || p >= 1.0 {
        return None;
    }
    let (w, l, d) = (r.w as f64 / n, r.l as f64 / n, r.d as f64 / n);
    let var = w * (1.0 - p).powi(2) + l * (0.0 - p).powi(2) + d * (0.5 - p).powi(2);
    let sd = (var / n).sqrt();
    let lo = (p - 1.959964 * sd).clamp(1e-9, 1.0 - 1e-9);
    let hi = (p + 1.959964 * sd).clamp(1e-9, 1.0 - 1e-9);
    Some((elo_of(p), (elo_of(hi) - elo_of(lo)) / 2.0))
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

/// Likelihood of superiority (percent).
pub fn los(r: &Wld) -> f64 {
    let (w, l) = (r.w as f64, r.l as f64);
    if w + l == 0.0 {
        return 50.0;
    }
    50.0 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_uneven_scores() {
        let (e, m) = elo(&Wld {
            w: 10,
            l: 10,
            d: 10,
        })
        .unwrap();
        assert!(e.abs() < 1e-9 && m > 50.0 && m < 200.0, "{e} {m}");
        let (e, _) = elo(&Wld {
            w: 30,
            l: 10,
            d: 10,
        })
        .unwrap();
        // 70% is about +147 Elo.
        assert!((e - 147.2).abs() < 1.0, "{e}");
        assert!(elo(&Wld { w: 3, l: 0, d: 0 }).is_none());
        assert!((los(&Wld { w: 5, l: 5, d: 0 }) - 50.0).abs() < 1e-6);
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
}
