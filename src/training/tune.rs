//! `lancer tune`: fits the evaluation's weights to game results (Texel's method).
//!
//! Every position of the data (`lancer datagen` files) is traced once: how often each
//! weight counts in it (White minus Black) and its phase. The evaluation is then a
//! linear function of the weights, and the tuner minimises the mean squared error
//! between `sigmoid(K·eval)` and the target (the game's result, optionally blended with
//! the search's score) by Adam. `K` is fitted first, with the starting weights, and
//! kept. One game in fifty ([`super::data::held_out`]) is held out to show over-fitting,
//! and an optional L2 term pulls the weights towards where they started. The result replaces
//! the variant's section of the weights file the build embeds.

use super::optim::{sigmoid, Adam};
use crate::eval::params::{self, Params, GROUPS, NPARAMS};
use crate::eval::{trace, MgEg};
use crate::rules::Variant;
use rayon::prelude::*;

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Passes of gradient descent over the data.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub lr: f64,
    /// Weight of the game result in the target (the rest: the search's score).
    pub lambda: f64,
    /// Groups of weights to tune (the others stay); empty: all.
    pub terms: Vec<String>,
    /// Use this K instead of fitting it.
    pub k: Option<f64>,
    /// Start from the hand-set weights instead of the file's.
    pub from_hand_set: bool,
    /// Print the error every this many epochs.
    pub report: usize,
    /// L2 pull towards the starting weights: this times the sum of squared changes
    /// (in pawns) is added to the error.
    pub reg: f64,
}

/// One traced position.
struct Traced {
    /// Range of its (weight, count) pairs in [`Data::counts`].
    start: u32,
    len: u16,
    /// Phase / 256: the middlegame share.
    mg: f32,
    /// The share of the n-move counter that has run (it scales the evaluation).
    share: f32,
    /// Result for White (1, ½, 0).
    result: f32,
    /// The search's score for White (centipawns).
    score: f32,
}

/// The traced data set.
struct Data {
    counts: Vec<(u16, i32)>,
    train: Vec<Traced>,
    valid: Vec<Traced>,
}

/// Reads and traces the data files.
fn load(v: &'static Variant, files: &[String]) -> Result<Data, String> {
    let samples = super::data::read(v, files)?;
    if samples.is_empty() {
        return Err("tune: no positions in the data".into());
    }
    type Counted = (Vec<(u16, i32)>, f32, f32);
    let traced: Vec<Counted> = samples
        .par_iter()
        .map(|s| {
            let (n, phase, share) = trace(&s.pos);
            let sparse = (0..NPARAMS)
                .filter(|&i| n[i] != 0)
                .map(|i| (i as u16, n[i]))
                .collect();
            (sparse, phase as f32 / 256.0, share as f32)
        })
        .collect();
    let mut d = Data {
        counts: Vec::new(),
        train: Vec::new(),
        valid: Vec::new(),
    };
    for ((sparse, mg, share), sample) in traced.into_iter().zip(&samples) {
        let s = Traced {
            start: d.counts.len() as u32,
            len: sparse.len() as u16,
            mg,
            share,
            result: sample.result,
            score: sample.score,
        };
        d.counts.extend(sparse);
        if sample.held_out {
            d.valid.push(s);
        } else {
            d.train.push(s);
        }
    }
    Ok(d)
}

const C: usize = params::COUNTER;

impl Data {
    /// The evaluation (White's view) of sample `s` with weights `w` (mg, eg
    /// interleaved), before the counter's scale; and that scale.
    fn eval_parts(&self, s: &Traced, w: &[f64]) -> (f64, f64) {
        let mg = s.mg as f64;
        let mut e = 0.0;
        for &(i, n) in &self.counts[s.start as usize..s.start as usize + s.len as usize] {
            let i = i as usize;
            e += n as f64 * (w[2 * i] * mg + w[2 * i + 1] * (1.0 - mg));
        }
        let scale = 1.0 - (w[2 * C] * mg + w[2 * C + 1] * (1.0 - mg)) * s.share as f64 / 256.0;
        (e, scale)
    }

    /// The evaluation (White's view) of sample `s` with weights `w`.
    fn eval(&self, s: &Traced, w: &[f64]) -> f64 {
        let (e, scale) = self.eval_parts(s, w);
        e * scale
    }

    fn target(s: &Traced, k: f64, lambda: f64) -> f64 {
        lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k * s.score as f64)
    }

    /// Mean squared error over `set`.
    fn error(&self, set: &[Traced], w: &[f64], k: f64, lambda: f64) -> f64 {
        let sum: f64 = set
            .par_iter()
            .map(|s| {
                let d = sigmoid(k * self.eval(s, w)) - Self::target(s, k, lambda);
                d * d
            })
            .sum();
        sum / set.len().max(1) as f64
    }

    /// The gradient of the training error.
    fn gradient(&self, w: &[f64], k: f64, lambda: f64) -> Vec<f64> {
        let g = self
            .train
            .par_chunks(4096)
            .map(|chunk| {
                let mut g = vec![0.0; 2 * NPARAMS];
                for s in chunk {
                    let (e, scale) = self.eval_parts(s, w);
                    let p = sigmoid(k * e * scale);
                    let d = 2.0 * (p - Self::target(s, k, lambda)) * p * (1.0 - p) * k;
                    let mg = s.mg as f64;
                    let range = s.start as usize..s.start as usize + s.len as usize;
                    for &(i, n) in &self.counts[range] {
                        let i = i as usize;
                        g[2 * i] += d * scale * n as f64 * mg;
                        g[2 * i + 1] += d * scale * n as f64 * (1.0 - mg);
                    }
                    let ds = -e * s.share as f64 / 256.0;
                    g[2 * C] += d * ds * mg;
                    g[2 * C + 1] += d * ds * (1.0 - mg);
                }
                g
            })
            .reduce(
                || vec![0.0; 2 * NPARAMS],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            );
        let n = self.train.len().max(1) as f64;
        g.into_iter().map(|x| x / n).collect()
    }
}

/// The K (per centipawn) that best fits the starting weights, by golden-section search
/// on its logarithm.
fn fit_k(d: &Data, w: &[f64], lambda: f64) -> f64 {
    let err = |lk: f64| d.error(&d.train, w, lk.exp(), lambda);
    let (mut a, mut b) = ((1e-4f64).ln(), (0.1f64).ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut e) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fe) = (err(c), err(e));
    for _ in 0..40 {
        if fc < fe {
            b = e;
            e = c;
            fe = fc;
            c = b - r * (b - a);
            fc = err(c);
        } else {
            a = c;
            c = e;
            fc = fe;
            e = a + r * (b - a);
            fe = err(e);
        }
    }
    ((a + b) / 2.0).exp()
}

fn to_vec(p: &Params) -> Vec<f64> {
    p.w.iter()
        .flat_map(|s| [s.mg as f64, s.eg as f64])
        .collect()
}

fn to_params(w: &[f64]) -> Params {
    let mut p = Params {
        w: [MgEg::default(); NPARAMS],
    };
    for i in 0..NPARAMS {
        p.w[i] = MgEg::new(w[2 * i].round() as i32, w[2 * i + 1].round() as i32);
    }
    p
}

/// Tunes variant `v` on `files`; returns the new weights-file text built from
/// `weights_text` (the variant's section replaced). Progress goes to stderr.
pub fn run(
    v: &'static Variant,
    files: &[String],
    weights_text: &str,
    cfg: &TuneConfig,
) -> Result<String, String> {
    for t in &cfg.terms {
        if !GROUPS.contains(&t.as_str()) {
            return Err(format!(
                "tune: unknown term '{t}' (one of {})",
                GROUPS.join(", ")
            ));
        }
    }
    let start = if cfg.from_hand_set {
        params::defaults(v)
    } else {
        params::from_text(v, weights_text)?
    };
    let t0 = std::time::Instant::now();
    let d = load(v, files)?;
    eprintln!(
        "tune {}: {} positions ({} training, {} held out), traced in {:.1}s",
        v.name,
        d.train.len() + d.valid.len(),
        d.train.len(),
        d.valid.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut w = to_vec(&start);
    let w0 = w.clone();
    let k = match cfg.k {
        Some(k) => k,
        None => fit_k(&d, &w, cfg.lambda),
    };
    let free: Vec<bool> = (0..NPARAMS)
        .map(|i| cfg.terms.is_empty() || cfg.terms.iter().any(|t| t == GROUPS[params::group(i)]))
        .collect();
    let report = |epoch: usize, w: &[f64]| {
        eprintln!(
            "epoch {epoch:>5}  error {:.6}  held-out {:.6}",
            d.error(&d.train, w, k, cfg.lambda),
            d.error(&d.valid, w, k, cfg.lambda)
        );
    };
    eprintln!("K = {k:.6} per centipawn");
    report(0, &w);
    let mut adam = Adam::<f64>::new(2 * NPARAMS);
    for epoch in 1..=cfg.epochs {
        let mut g = d.gradient(&w, k, cfg.lambda);
        for j in 0..2 * NPARAMS {
            // A weight not tuned has no gradient, so Adam never moves it.
            g[j] = if free[j / 2] {
                g[j] + 2.0 * cfg.reg * (w[j] - w0[j]) / 1e4
            } else {
                0.0
            };
        }
        let c = adam.begin();
        adam.update(&mut w, &g, 0, cfg.lr, f64::MAX, c);
        if epoch % cfg.report.max(1) == 0 || epoch == cfg.epochs {
            report(epoch, &w);
        }
    }
    let tuned = to_params(&w);
    eprintln!(
        "rounded: error {:.6}  held-out {:.6}  ({:.1}s)",
        d.error(&d.train, &to_vec(&tuned), k, cfg.lambda),
        d.error(&d.valid, &to_vec(&tuned), k, cfg.lambda),
        t0.elapsed().as_secs_f64()
    );
    for i in 0..NPARAMS {
        if tuned.w[i] != start.w[i] {
            eprintln!(
                "  {:<24} {:>5} {:>5}  ->  {:>5} {:>5}",
                params::name(i),
                start.w[i].mg,
                start.w[i].eg,
                tuned.w[i].mg,
                tuned.w[i].eg
            );
        }
    }
    // The section the variant reads (its `weights` key), else one of its own name.
    let name = v.weights.as_deref().unwrap_or(&v.name);
    let section = params::section_text(name, v, &tuned);
    Ok(params::replace_section(weights_text, name, &section))
}
