//! `lancer train`: fits a network ([`crate::eval::nnue`]) to `lancer datagen`
//! positions of one variant, and writes it in the format the engine reads (`EvalFile`,
//! or built in as `src/eval/nnue/<name>.nnue`).
//!
//! The net sees each position from both sides (see [`nnue::Layout`]); its output `o`, in
//! units of [`nnue::SCALE`] centipawns, is by default a correction added to the hand-made
//! evaluation `h` of the same build (`--whole`: the evaluation itself, `h` = 0). It is
//! trained by Adam on the mean squared error between `sigmoid(o + h / SCALE)` and the
//! target: the game's result (weight `lambda`) blended with `sigmoid(score / SCALE)` of
//! the datagen search's score, both from the side to move. Every position also counts
//! seen in a mirror (files turned round, lancers' facings with them; the inputs know
//! nothing of castling, and every other rule is the same in a mirror).
//! Weights are kept in float while training, within the range the i16 file can hold,
//! and rounded when written. A fiftieth of the data (blocks of 200 lines) is held out
//! to show over-fitting, beside the hand-made evaluation's own error on it. A correction
//! belongs to the hand-made weights it was trained over: retrain it when they change.
//! `--init` starts from a network file instead of random weights, so that a new round
//! of data refines what the earlier rounds taught without their data.

use crate::eval::nnue::{self, Layout, HIDDEN, QA, QB};
use crate::rules::piece::Color;
use crate::rules::Variant;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Weight of the game result in the target (the rest: the search's score).
    pub lambda: f32,
    /// Positions per step.
    pub batch: usize,
    /// Seed of the starting weights and the shuffles.
    pub seed: u64,
    /// Also train on every position seen in a mirror.
    pub mirror: bool,
    /// Train a correction to the hand-made evaluation instead of a whole evaluation.
    pub residual: bool,
    /// Train shared weights beside each input's own (see [`factors`]).
    pub factors: bool,
    /// Hidden units per side (1 to [`HIDDEN`]; the file holds this many).
    pub hidden: usize,
    /// Add the inputs of pieces held by a jailer ([`nnue::Group::Held`]).
    pub held: bool,
    /// A network file to start from instead of random weights (a new round of data
    /// then refines it without the data of the rounds before).
    pub init: Option<String>,
}

/// No shared weight.
const NONE: u32 = u32::MAX;

/// The shared weights ("factors") trained beside each input's own, folded into it when
/// the file is written, so that what one position teaches about a kind reaches every
/// square: one weight per side and group (the piece wherever it stands), and one per
/// side, square and kind for lancers and standard-bearers (whatever the facing or the
/// frozen mark). For each input its (up to two) shared rows, numbered after the real
/// inputs, and how many shared rows there are.
fn factors(layout: &Layout) -> (Vec<[u32; 2]>, usize) {
    use nnue::Group;
    let n = layout.groups.len();
    let ninputs = layout.inputs();
    let base = |g: Group| match g {
        Group::Lancer(_) => Some(0),
        Group::Bearer { .. } => Some(1),
        _ => None,
    };
    let mut rows = vec![[NONE; 2]; ninputs];
    for (i, r) in rows.iter_mut().enumerate() {
        let (block, bit) = (i / 64, i % 64);
        let (rel, g) = (block / n, block % n);
        r[0] = (ninputs + block) as u32;
        if let Some(b) = base(layout.groups[g]) {
            r[1] = (ninputs + 2 * n + (rel * 2 + b) * 64 + bit) as u32;
        }
    }
    (rows, 2 * n + 4 * 64)
}

/// The largest weight the i16 file holds after scaling (with room for the sums).
const CLIP: f32 = 1.98;

/// One position: its inputs as White sees it, the side to move and the target.
struct Sample {
    start: u32,
    len: u8,
    white: bool,
    /// Result for the side to move (1, ½, 0).
    result: f32,
    /// The search's score for the side to move, centipawns.
    score: f32,
    /// The hand-made evaluation for the side to move, centipawns (for comparison).
    hand: f32,
}

struct Data {
    inputs: Vec<u16>,
    train: Vec<Sample>,
    valid: Vec<Sample>,
    /// Input of each input in Black's view.
    flip: Vec<u16>,
    ninputs: usize,
    /// The shared rows of each input ([`factors`]), and the rows in all.
    virt: Vec<[u32; 2]>,
    nrows: usize,
    /// What the inputs are.
    layout: Layout,
    /// The network adds to the hand-made evaluation instead of replacing it.
    residual: bool,
    /// Hidden units per side.
    h: usize,
    /// The held-out positions, in `valid`'s order (to judge the written file).
    valid_pos: Vec<crate::rules::Position>,
}

/// The float network.
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Params {
    fn zero(ninputs: usize, h: usize) -> Params {
        Params {
            w1: vec![0.0; ninputs * h],
            b1: vec![0.0; h],
            w2: vec![0.0; 2 * h],
            b2: 0.0,
        }
    }

    fn add(mut self, o: &Params) -> Params {
        for (a, b) in self.w1.iter_mut().zip(&o.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&o.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&o.w2) {
            *a += b;
        }
        self.b2 += o.b2;
        self
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The inputs `cfg` trains for `v`.
fn layout(v: &Variant, cfg: &Config) -> Result<Layout, String> {
    if cfg.held {
        Layout::for_variant_held(v)
    } else {
        Layout::for_variant(v)
    }
    .map_err(|e| format!("train: {e}"))
}

fn load(v: &'static Variant, files: &[String], cfg: &Config) -> Result<Data, String> {
    if !(1..=HIDDEN).contains(&cfg.hidden) {
        return Err(format!(
            "train: {} hidden units (1 to {HIDDEN})",
            cfg.hidden
        ));
    }
    let layout = layout(v, cfg)?;
    let ninputs = layout.inputs();
    let mut flip = vec![0u16; ninputs];
    let mut mirror = vec![0u16; ninputs];
    let n = layout.groups.len();
    for g in 0..n {
        for bit in 0..64u8 {
            for c in [Color::White, Color::Black] {
                let i = layout.input(Color::White, c, g, bit);
                flip[i] = layout.input(Color::Black, c, g, bit) as u16;
                mirror[i] = layout.mirror(i).unwrap_or(i) as u16;
            }
        }
    }
    let (virt, nvirt) = if cfg.factors {
        factors(&layout)
    } else {
        (vec![[NONE; 2]; ninputs], 0)
    };
    let mut d = Data {
        inputs: Vec::new(),
        train: Vec::new(),
        valid: Vec::new(),
        flip,
        ninputs,
        virt,
        nrows: ninputs + nvirt,
        layout: layout.clone(),
        residual: cfg.residual,
        h: cfg.hidden,
        valid_pos: Vec::new(),
    };
    let samples = super::data::read(v, files)?;
    type Parsed = (Vec<u16>, bool, f32, f32, f32);
    let parsed: Vec<Parsed> = samples
        .par_iter()
        .map(|s| {
            let pos = &s.pos;
            let mut ins = Vec::with_capacity(32);
            layout.white_inputs(pos, &mut ins);
            // At most 32 pieces and 64 in hand per kind: far below a u8's count only
            // for sane data, so longer lists are cut rather than wrapped.
            ins.truncate(255);
            let white = pos.side() == Color::White;
            let (r, sc) = if white {
                (s.result, s.score)
            } else {
                (1.0 - s.result, -s.score)
            };
            let hand = crate::eval::evaluate(pos) as f32;
            (ins, white, r, sc, hand)
        })
        .collect();
    for (p, sample) in parsed.into_iter().zip(&samples) {
        let (ins, white, result, score, hand) = p;
        let s = Sample {
            start: d.inputs.len() as u32,
            len: ins.len() as u8,
            white,
            result,
            score,
            hand,
        };
        d.inputs.extend_from_slice(&ins);
        if sample.held_out {
            d.valid.push(s);
            d.valid_pos.push(sample.pos);
        } else {
            if cfg.mirror {
                // The inputs know nothing of castling, so the position seen in a
                // mirror is as good an example.
                let m = Sample {
                    start: d.inputs.len() as u32,
                    ..s
                };
                d.inputs.extend(ins.iter().map(|&i| mirror[i as usize]));
                d.train.push(m);
            }
            d.train.push(s);
        }
    }
    if d.train.is_empty() {
        return Err("train: no positions in the data".into());
    }
    Ok(d)
}

impl Data {
    fn target(s: &Sample, lambda: f32) -> f32 {
        lambda * s.result + (1.0 - lambda) * sigmoid(s.score / nnue::SCALE as f32)
    }

    /// The hidden sums of sample `s` in White's and Black's views.
    fn hidden(&self, p: &Params, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) {
        let h = self.h;
        acc[0][..h].copy_from_slice(&p.b1);
        acc[1][..h].copy_from_slice(&p.b1);
        let ins = &self.inputs[s.start as usize..s.start as usize + s.len as usize];
        for &i in ins {
            for (view, i) in [(0, i as usize), (1, self.flip[i as usize] as usize)] {
                for r in self.rows(i) {
                    let row = &p.w1[r * h..(r + 1) * h];
                    for (a, w) in acc[view].iter_mut().zip(row) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The rows input `i` adds: its own and its shared ones.
    fn rows(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(i).chain(
            self.virt[i]
                .iter()
                .filter(|&&v| v != NONE)
                .map(|&v| v as usize),
        )
    }

    /// The output for sample `s` and its hidden sums (side to move's view first).
    fn forward(&self, p: &Params, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        self.hidden(p, s, acc);
        if !s.white {
            acc.swap(0, 1);
        }
        let mut o = p.b2;
        if self.residual {
            o += s.hand / nnue::SCALE as f32;
        }
        for (a, w) in acc[0].iter().zip(&p.w2[..self.h]) {
            o += a.clamp(0.0, 1.0) * w;
        }
        for (a, w) in acc[1].iter().zip(&p.w2[self.h..]) {
            o += a.clamp(0.0, 1.0) * w;
        }
        o
    }

    /// Mean squared error over `set`.
    fn error(&self, p: &Params, set: &[Sample], lambda: f32) -> f64 {
        let sum: f64 = set
            .par_chunks(4096)
            .map(|c| {
                let mut acc = [[0.0; HIDDEN]; 2];
                c.iter()
                    .map(|s| {
                        let e = sigmoid(self.forward(p, s, &mut acc)) - Self::target(s, lambda);
                        (e * e) as f64
                    })
                    .sum::<f64>()
            })
            .sum();
        // `+ 0.0`: an empty sum is −0.0, which would print as "-0.000000".
        sum / set.len().max(1) as f64 + 0.0
    }

    /// Adds the gradient of sample `s`'s error to `g`.
    fn backward(&self, p: &Params, s: &Sample, lambda: f32, g: &mut Params) {
        let mut acc = [[0.0; HIDDEN]; 2];
        let o = self.forward(p, s, &mut acc);
        let y = sigmoid(o);
        let d = 2.0 * (y - Self::target(s, lambda)) * y * (1.0 - y);
        g.b2 += d;
        let h = self.h;
        let mut dh = [[0.0f32; HIDDEN]; 2];
        for v in 0..2 {
            let w2 = &p.w2[v * h..(v + 1) * h];
            let g2 = &mut g.w2[v * h..(v + 1) * h];
            for j in 0..h {
                let a = acc[v][j];
                g2[j] += d * a.clamp(0.0, 1.0);
                dh[v][j] = if a > 0.0 && a < 1.0 { d * w2[j] } else { 0.0 };
            }
        }
        for j in 0..h {
            g.b1[j] += dh[0][j] + dh[1][j];
        }
        // dh is side to move first; the inputs are listed in White's view.
        let (dw, db) = if s.white { (0, 1) } else { (1, 0) };
        let ins = &self.inputs[s.start as usize..s.start as usize + s.len as usize];
        for &i in ins {
            for (view, i) in [(dw, i as usize), (db, self.flip[i as usize] as usize)] {
                for r in self.rows(i) {
                    let row = &mut g.w1[r * h..(r + 1) * h];
                    for (gw, d) in row.iter_mut().zip(&dh[view]) {
                        *gw += d;
                    }
                }
            }
        }
    }
}

/// Adam's moments.
struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

fn adam_step(w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], lr: f32, clip: f32) {
    for i in 0..w.len() {
        m[i] = 0.9 * m[i] + 0.1 * g[i];
        v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
        w[i] = (w[i] - lr * m[i] / (v[i].sqrt() + 1e-8)).clamp(-clip, clip);
    }
}

impl Adam {
    fn step(&mut self, p: &mut Params, g: &Params, lr: f32) {
        self.t += 1;
        let c = (1.0 - 0.999f32.powi(self.t)).sqrt() / (1.0 - 0.9f32.powi(self.t));
        let lr = lr * c;
        adam_step(&mut p.w1, &g.w1, &mut self.m.w1, &mut self.v.w1, lr, CLIP);
        adam_step(&mut p.b1, &g.b1, &mut self.m.b1, &mut self.v.b1, lr, CLIP);
        adam_step(&mut p.w2, &g.w2, &mut self.m.w2, &mut self.v.w2, lr, CLIP);
        let (mut b2, mut m2, mut v2) = ([p.b2], [self.m.b2], [self.v.b2]);
        adam_step(&mut b2, &[g.b2], &mut m2, &mut v2, lr, 1000.0);
        (p.b2, self.m.b2, self.v.b2) = (b2[0], m2[0], v2[0]);
    }
}

/// The network file of `p` for the data's layout, the shared rows folded into each
/// input's own.
fn write(d: &Data, p: &Params, residual: bool) -> Vec<u8> {
    let q = |x: &f32, s: i32| (x * s as f32).round() as i16;
    let h = d.h;
    let w1 = (0..d.ninputs).flat_map(move |i| {
        (0..h).map(move |j| {
            let w: f32 = d.rows(i).map(|r| p.w1[r * h + j]).sum();
            q(&w.clamp(-CLIP, CLIP), QA)
        })
    });
    nnue::write(
        &d.layout,
        residual,
        h,
        w1,
        p.b1.iter().map(|w| q(w, QA)),
        p.w2.iter().map(|w| q(w, QB)),
        (p.b2 * (QA * QB) as f32).round() as i32,
    )
}

/// Trains a network for `v` on the `files` and returns its file's bytes.
pub fn run(v: &'static Variant, files: &[String], cfg: &Config) -> Result<Vec<u8>, String> {
    let t0 = std::time::Instant::now();
    let init = cfg
        .init
        .as_deref()
        .map(|path| read_init(v, cfg, path))
        .transpose()?;
    let d = load(v, files, cfg)?;
    eprintln!(
        "train {}: {} positions ({} held out), {} inputs, {} hidden, loaded in {:.1}s",
        v.name,
        d.train.len(),
        d.valid.len(),
        d.ninputs,
        d.h,
        t0.elapsed().as_secs_f64()
    );
    let hand: f64 = d
        .valid
        .iter()
        .map(|s| {
            let e = sigmoid(s.hand / nnue::SCALE as f32) - Data::target(s, cfg.lambda);
            (e * e) as f64
        })
        .sum::<f64>()
        / d.valid.len().max(1) as f64;
    eprintln!("the hand-made evaluation's held-out error: {hand:.6}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    let mut p = Params::zero(d.nrows, d.h);
    // The shared rows start at nothing: each input's own weights carry the spread.
    for w in p.w1[..d.ninputs * d.h].iter_mut() {
        *w = rng.gen_range(-0.1..0.1);
    }
    // A correction starts near nothing; a whole evaluation from a spread of weights.
    let a = if cfg.residual { 0.01 } else { 1.0 } / (2.0 * d.h as f32).sqrt();
    for w in p.w2.iter_mut() {
        *w = rng.gen_range(-a..a);
    }
    if let Some(net) = &init {
        start_from(&d, &mut p, net);
        eprintln!("starting from {}", net.name);
    }
    let mut adam = Adam {
        m: Params::zero(d.nrows, d.h),
        v: Params::zero(d.nrows, d.h),
        t: 0,
    };
    let mut order: Vec<usize> = (0..d.train.len()).collect();
    let batch = cfg.batch.max(1);
    // The network of the epoch with the least held-out error is the one written: on
    // little data the later epochs learn the training positions by heart.
    let (mut best, mut best_epoch) = (p.clone(), 0);
    let mut best_err = d.error(&p, &d.valid, cfg.lambda);
    if let Some(net) = &init {
        eprintln!("{}'s held-out error: {best_err:.6}", net.name);
    }
    for epoch in 1..=cfg.epochs {
        // Step decay: the last 40 % of the epochs at a third, the last 15 % at a tenth.
        let at = epoch as f32 / cfg.epochs as f32;
        let lr = cfg.lr
            * if at > 0.85 {
                0.1
            } else if at > 0.6 {
                0.3
            } else {
                1.0
            };
        order.shuffle(&mut rng);
        let mut train_err = 0.0f64;
        for chunk in order.chunks(batch) {
            let parts = rayon::current_num_threads().max(1) * 2;
            let per = chunk.len().div_ceil(parts);
            let g = chunk
                .par_chunks(per)
                .map(|c| {
                    let mut g = Params::zero(d.nrows, d.h);
                    for &i in c {
                        d.backward(&p, &d.train[i], cfg.lambda, &mut g);
                    }
                    g
                })
                .reduce_with(|a, b| a.add(&b))
                .unwrap_or_else(|| Params::zero(d.nrows, d.h));
            let n = chunk.len() as f32;
            let mut g = g;
            g.w1.iter_mut()
                .chain(g.b1.iter_mut())
                .chain(g.w2.iter_mut())
                .for_each(|x| *x /= n);
            g.b2 /= n;
            adam.step(&mut p, &g, lr);
        }
        if epoch % 5 == 0 || epoch == cfg.epochs {
            train_err = d.error(&p, &d.train, cfg.lambda);
        }
        let valid_err = d.error(&p, &d.valid, cfg.lambda);
        if valid_err < best_err {
            (best, best_epoch, best_err) = (p.clone(), epoch, valid_err);
        }
        eprintln!(
            "epoch {epoch}: lr {lr:.5} held-out error {valid_err:.6}{} ({:.0}s)",
            if train_err > 0.0 {
                format!(", training {train_err:.6}")
            } else {
                String::new()
            },
            t0.elapsed().as_secs_f64()
        );
    }
    eprintln!("kept epoch {best_epoch}: held-out error {best_err:.6}");
    let file = write(&d, &best, cfg.residual);
    eprintln!(
        "the written file's held-out error, as the engine reads it: {:.6}",
        file_error(&d, &file, cfg.lambda)?
    );
    Ok(file)
}

/// The network file at `path` to start from: its inputs must be those `cfg` trains
/// for `v`, and it must be a correction or a whole evaluation as the training is.
fn read_init(v: &Variant, cfg: &Config, path: &str) -> Result<nnue::Net, String> {
    let net = nnue::load(path).map_err(|e| format!("train: {e}"))?;
    if net.layout != layout(v, cfg)? {
        return Err(format!(
            "train: {path} has other inputs than this training (another variant's, or \
             with --held where this has none, or the reverse)"
        ));
    }
    if net.hidden() > cfg.hidden {
        return Err(format!(
            "train: {path} has {} hidden units, more than this training's {} (--hidden)",
            net.hidden(),
            cfg.hidden
        ));
    }
    if net.residual != cfg.residual {
        return Err(format!(
            "train: {path} is {}, this training {}",
            if net.residual {
                "a correction"
            } else {
                "a whole evaluation"
            },
            if cfg.residual {
                "a correction (without --whole)"
            } else {
                "a whole evaluation (--whole)"
            }
        ));
    }
    Ok(net)
}

/// Puts `net`'s weights into `p`. The shared rows start at nothing (the file holds them
/// folded into each input's own). A network of fewer units fills the first of each
/// row; the others keep their random start, and a unit's output weight starts small, so
/// the wider network begins about where the file's was and the new units learn.
fn start_from(d: &Data, p: &mut Params, net: &nnue::Net) {
    let (w1, b1, w2, b2) = net.unscaled();
    let (h, nh) = (d.h, net.hidden());
    for (i, row) in w1.chunks_exact(nh).enumerate() {
        p.w1[i * h..i * h + nh].copy_from_slice(row);
    }
    p.w1[d.ninputs * h..].fill(0.0);
    p.b1[..nh].copy_from_slice(&b1);
    p.w2[..nh].copy_from_slice(&w2[..nh]);
    p.w2[h..h + nh].copy_from_slice(&w2[nh..]);
    p.b2 = b2;
}

/// Mean squared error on the held-out positions of the network `file` as the engine
/// runs it (integer weights, clipped sums), to show what rounding the weights costs.
fn file_error(d: &Data, file: &[u8], lambda: f32) -> Result<f64, String> {
    let net = nnue::Net::parse(file, "trained").map_err(|e| format!("train: {e}"))?;
    let sum: f64 = d
        .valid
        .par_iter()
        .zip(&d.valid_pos)
        .map(|(s, pos)| {
            let mut o = net.evaluate(pos) as f32 / nnue::SCALE as f32;
            if d.residual {
                o += s.hand / nnue::SCALE as f32;
            }
            let e = sigmoid(o) - Data::target(s, lambda);
            (e * e) as f64
        })
        .sum();
    Ok(sum / d.valid.len().max(1) as f64)
}
