//! `lancer train`: fits a network ([`crate::eval::nnue`], as [`super::model`] holds it
//! in float) to `lancer datagen` positions of one variant, and writes it in the format
//! the engine reads (`EvalFile`, or built in as `src/eval/nnue/<name>.nnue`).
//!
//! The net sees each position from both sides (see [`nnue::Layout`]), each side's
//! inputs in the copy of its king's bucket where the layout has buckets (`--kings`),
//! and its output layer in the bucket of the count of pieces on the board
//! (`--outputs`). Its output `o`, in units of [`nnue::SCALE`] centipawns, is by default
//! a correction added to the hand-made evaluation `h` of the same build (`--whole`: the
//! evaluation itself, `h` = 0). It is trained by Adam on the mean squared error between
//! `sigmoid(o + h / SCALE)` and the target: the game's result (weight `lambda`) blended
//! with `sigmoid(score / SCALE)` of the datagen search's score, both from the side to
//! move. Without a mirror in the layout, every position also counts seen in a mirror
//! (files turned round, lancers' facings with them; the inputs know nothing of
//! castling, and every other rule is the same in a mirror); with one, the mirrored
//! position has the same features. Weights are kept in float while training, within
//! the range the i16 file can hold, and rounded when written. One game in fifty is
//! held out ([`super::data::held_out`]) to show over-fitting, beside the hand-made
//! evaluation's own error on it. A correction belongs to the hand-made weights it was
//! trained over: retrain it when they change. `--init` starts from a network file
//! instead of random weights, so that a new round of data refines what the earlier
//! rounds taught without their data.

use super::model::{self, Encoded, Model, CLIP1};
use super::optim::{sigmoid32, Adam};
use super::teacher::{blend, Teacher};
use crate::eval::nnue::{self, KingBuckets, Shape, HIDDEN};
/// The network's activation and default width, as [`TrainConfig`] takes them.
pub use crate::eval::nnue::{Activation, DEFAULT_HIDDEN};
use crate::rules::piece::Color;
use crate::rules::{Position, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
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
    /// Also train on every position seen in a mirror (where the layout has no mirror).
    pub mirror: bool,
    /// Train a correction to the hand-made evaluation instead of a whole evaluation.
    pub residual: bool,
    /// Train shared weights beside each input's own (see [`Model::new`]).
    pub factors: bool,
    /// Hidden units per side (1 to [`HIDDEN`]; the file holds this many).
    pub hidden: usize,
    /// Add the inputs of pieces held by a jailer ([`nnue::Group::Held`]).
    pub held: bool,
    /// The king buckets, by name ([`KingBuckets::preset`]).
    pub kings: String,
    /// Output buckets by the count of pieces on the board.
    pub outputs: usize,
    pub activation: Activation,
    /// A network file to start from instead of random weights (a new round of data
    /// then refines it without the data of the rounds before).
    pub init: Option<String>,
    /// An evaluation to learn from beside the data's labels: `builtin` (the build's
    /// evaluation of the variant, its network included) or a network file (added to
    /// the hand-made evaluation where it is a correction).
    pub teacher: Option<String>,
    /// The teacher's share of the score part of the target.
    pub teacher_weight: f32,
}

/// One training position: its encoding, result and score for the side to move, and
/// the hand-made evaluation for the side to move (centipawns) where it is wanted.
#[derive(Clone, Copy)]
struct Labelled {
    e: Encoded,
    /// Result for the side to move (1, ½, 0).
    result: f32,
    /// The search's score for the side to move, centipawns, blended with the
    /// teacher's where there is one (as expected results: see [`target`]).
    score: f32,
    hand: f32,
}

/// The positions, encoded.
struct Data {
    inputs: Vec<u16>,
    train: Vec<Labelled>,
    valid: Vec<Labelled>,
    /// The held-out positions, in `valid`'s order (to judge the written file).
    valid_pos: Vec<Position>,
}

impl Data {
    fn ins(&self, s: &Labelled) -> &[u16] {
        &self.inputs[s.e.start as usize..s.e.start as usize + s.e.len as usize]
    }
}

fn target(s: &Labelled, lambda: f32) -> f32 {
    lambda * s.result + (1.0 - lambda) * sigmoid32(s.score / nnue::SCALE as f32)
}

/// What the network adds to: the hand-made evaluation for a correction, else nothing.
fn base(m: &Model, s: &Labelled) -> f32 {
    if m.shape.residual {
        s.hand / nnue::SCALE as f32
    } else {
        0.0
    }
}

/// The shape `cfg` trains for `v`.
fn shape(v: &'static Variant, cfg: &TrainConfig) -> Result<Shape, String> {
    if !(1..=HIDDEN).contains(&cfg.hidden) {
        return Err(format!(
            "train: {} hidden units (1 to {HIDDEN})",
            cfg.hidden
        ));
    }
    if !(1..=nnue::MAX_OUTPUT_BUCKETS).contains(&cfg.outputs) {
        return Err(format!(
            "train: {} output buckets (1 to {})",
            cfg.outputs,
            nnue::MAX_OUTPUT_BUCKETS
        ));
    }
    let kings =
        KingBuckets::preset(&cfg.kings, v.width, v.height).map_err(|e| format!("train: {e}"))?;
    let layout = model::layout(v, cfg.held, kings).map_err(|e| format!("train: {e}"))?;
    // The most pieces the board can hold in this variant: its start position's count
    // (no rule makes pieces; drops put back what was taken).
    let start = Position::from_efen(v, &v.default_start_fen())
        .map_err(|e| format!("train: {}: {e}", v.name))?;
    let most = crate::rules::bitboard::popcount(start.occupied()) as usize;
    Ok(Shape {
        layout,
        residual: cfg.residual,
        activation: cfg.activation,
        outputs: nnue::output_table(cfg.outputs, most),
        hidden: cfg.hidden,
    })
}

/// Reads and encodes the positions of `files`, a file at a time.
fn load(
    v: &'static Variant,
    files: &[String],
    m: &Model,
    cfg: &TrainConfig,
    teacher: Option<&Teacher>,
) -> Result<Data, String> {
    let mut d = Data {
        inputs: Vec::new(),
        train: Vec::new(),
        valid: Vec::new(),
        valid_pos: Vec::new(),
    };
    let mirror_too = cfg.mirror && !m.shape.layout.kings.mirror;
    super::data::read_each(v, files, |samples| {
        type Parsed = (
            Vec<u16>,
            Encoded,
            Option<(Vec<u16>, Encoded)>,
            f32,
            f32,
            f32,
        );
        let parsed: Vec<Parsed> = samples
            .par_iter()
            .map(|s| {
                let pos = &s.pos;
                let mut ins = Vec::with_capacity(32);
                let e = m.encode(pos, &mut ins);
                let white = pos.side() == Color::White;
                let (r, mut sc) = if white {
                    (s.result, s.score)
                } else {
                    (1.0 - s.result, -s.score)
                };
                if let Some(t) = teacher {
                    sc = blend(sc, t.judge(pos), cfg.teacher_weight);
                }
                let hand = if m.shape.residual || s.held_out {
                    crate::eval::evaluate(pos) as f32
                } else {
                    0.0
                };
                // The position seen in a mirror: the same encoding with each input
                // turned left to right (the layout has no mirror and one bucket).
                let mirrored = (mirror_too && !s.held_out).then(|| {
                    let l = &m.shape.layout;
                    let mi: Vec<u16> = ins
                        .iter()
                        .map(|&i| l.mirror(i as usize).unwrap_or(i as usize) as u16)
                        .collect();
                    (mi, e)
                });
                (ins, e, mirrored, r, sc, hand)
            })
            .collect();
        for ((ins, e, mirrored, result, score, hand), s) in parsed.into_iter().zip(&samples) {
            let push = |ins: &[u16], e: Encoded, d: &mut Data| -> Labelled {
                let e = Encoded {
                    start: d.inputs.len() as u32,
                    ..e
                };
                d.inputs.extend_from_slice(ins);
                Labelled {
                    e,
                    result,
                    score,
                    hand,
                }
            };
            if s.held_out {
                let l = push(&ins, e, &mut d);
                d.valid.push(l);
                d.valid_pos.push(s.pos);
            } else {
                let l = push(&ins, e, &mut d);
                d.train.push(l);
                if let Some((mi, me)) = mirrored {
                    let l = push(&mi, me, &mut d);
                    d.train.push(l);
                }
            }
        }
    })?;
    if d.train.is_empty() {
        return Err("train: no positions in the data".into());
    }
    Ok(d)
}

/// Mean squared error of the model over `set`.
fn error(m: &Model, d: &Data, set: &[Labelled], lambda: f32) -> f64 {
    let sum: f64 = set
        .par_chunks(4096)
        .map(|c| {
            let mut acc = [[0.0; HIDDEN]; 2];
            c.iter()
                .map(|s| {
                    let o = m.forward(&s.e, d.ins(s), &mut acc) + base(m, s);
                    let e = sigmoid32(o) - target(s, lambda);
                    (e * e) as f64
                })
                .sum::<f64>()
        })
        .sum();
    // `+ 0.0`: an empty sum is −0.0, which would print as "-0.000000".
    sum / set.len().max(1) as f64 + 0.0
}

/// Random starting weights: input rows (not the shared ones, which start at nothing)
/// spread evenly; output weights small for a correction, wider for a whole evaluation.
fn randomise(m: &mut Model, rng: &mut impl Rng) {
    let h = m.h();
    let o = m.offsets();
    for w in m.w[..m.nfeatures * h].iter_mut() {
        *w = rng.gen_range(-0.1..0.1);
    }
    let a = if m.shape.residual { 0.01 } else { 1.0 } / (2.0 * h as f32).sqrt();
    for w in m.w[o.w2..o.b2].iter_mut() {
        *w = rng.gen_range(-a..a);
    }
}

/// Trains a network for `v` on the `files` and returns its file's bytes.
pub fn run(v: &'static Variant, files: &[String], cfg: &TrainConfig) -> Result<Vec<u8>, String> {
    let t0 = std::time::Instant::now();
    let mut m = Model::new(shape(v, cfg)?, cfg.factors);
    let init = cfg
        .init
        .as_deref()
        .map(|path| nnue::load(path).map_err(|e| format!("train: {e}")))
        .transpose()?;
    if let Some(net) = &init {
        // Checked before the data is read: a wrong file fails at once.
        let mut probe = Model::new(m.shape.clone(), false);
        probe
            .start_from(net)
            .map_err(|e| format!("train: {}: {e}", net.name))?;
    }
    let teacher = cfg
        .teacher
        .as_deref()
        .map(|t| Teacher::new(v, t))
        .transpose()?;
    let d = load(v, files, &m, cfg, teacher.as_ref())?;
    let l = &m.shape.layout;
    eprintln!(
        "train {}: {} positions ({} held out), {} inputs x {} king buckets{}, {} hidden ({}), {} output buckets, loaded in {:.1}s",
        v.name,
        d.train.len(),
        d.valid.len(),
        m.ninputs,
        l.kings.count(),
        if l.kings.mirror { " mirrored" } else { "" },
        m.h(),
        match m.shape.activation {
            Activation::Crelu => "clipped ReLU",
            Activation::Screlu => "SCReLU",
        },
        m.shape.output_buckets(),
        t0.elapsed().as_secs_f64()
    );
    let hand: f64 = d
        .valid
        .iter()
        .map(|s| {
            let e = sigmoid32(s.hand / nnue::SCALE as f32) - target(s, cfg.lambda);
            (e * e) as f64
        })
        .sum::<f64>()
        / d.valid.len().max(1) as f64;
    eprintln!("the hand-made evaluation's held-out error: {hand:.6}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    randomise(&mut m, &mut rng);
    if let Some(net) = &init {
        m.start_from(net)
            .map_err(|e| format!("train: {}: {e}", net.name))?;
        eprintln!("starting from {}", net.name);
    }
    let o = m.offsets();
    let mut adam = Adam::<f32>::new(o.end);
    let mut order: Vec<usize> = (0..d.train.len()).collect();
    let threads = rayon::current_num_threads().max(1);
    // One gradient a thread, reused from batch to batch.
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; o.end]).collect();
    // The network of the epoch with the least held-out error is the one written: on
    // little data the later epochs learn the training positions by heart.
    let mut best_err = error(&m, &d, &d.valid, cfg.lambda);
    let (mut best, mut best_epoch) = (m.w.clone(), 0);
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
        let mut train_err = one_epoch(&mut m, &d, &order, cfg, &mut grads, &mut adam, lr);
        train_err /= d.train.len().max(1) as f64;
        let valid_err = error(&m, &d, &d.valid, cfg.lambda);
        if valid_err < best_err {
            (best, best_epoch, best_err) = (m.w.clone(), epoch, valid_err);
        }
        eprintln!(
            "epoch {epoch}: lr {lr:.5} held-out error {valid_err:.6}, training {train_err:.6} ({:.0}s)",
            t0.elapsed().as_secs_f64()
        );
    }
    eprintln!("kept epoch {best_epoch}: held-out error {best_err:.6}");
    m.w = best;
    let file = m.file();
    eprintln!(
        "the written file's held-out error, as the engine reads it: {:.6}",
        file_error(&m, &d, &file, cfg.lambda)?
    );
    Ok(file)
}

/// One pass over the training positions in `order`, a mini-batch at a time (each
/// batch's gradient summed over the threads, then one Adam step); returns the summed
/// training error.
fn one_epoch(
    m: &mut Model,
    d: &Data,
    order: &[usize],
    cfg: &TrainConfig,
    grads: &mut [Vec<f32>],
    adam: &mut Adam<f32>,
    lr: f32,
) -> f64 {
    let o = m.offsets();
    let batch = cfg.batch.max(1);
    let threads = grads.len();
    let c2 = model::clip2(m.shape.activation);
    let mut train_err = 0.0f64;
    for chunk in order.chunks(batch) {
        let per = chunk.len().div_ceil(threads);
        let model = &m;
        let errs: f64 = grads
            .par_iter_mut()
            .zip(chunk.par_chunks(per))
            .map(|(g, c)| {
                g.fill(0.0);
                let mut e = 0.0f64;
                for &i in c {
                    let s = &d.train[i];
                    let t = target(s, cfg.lambda);
                    e += f64::from(model.backward(&s.e, d.ins(s), base(model, s), t, g));
                }
                e
            })
            .sum();
        train_err += errs;
        let (first, rest) = grads.split_at_mut(1);
        let g = &mut first[0];
        // Parts beyond the chunk's own did nothing: the chunk has fewer positions.
        for other in rest
            .iter()
            .take(chunk.len().div_ceil(per).saturating_sub(1))
        {
            for (a, b) in g.iter_mut().zip(other) {
                *a += b;
            }
        }
        let n = chunk.len() as f32;
        g.iter_mut().for_each(|x| *x /= n);
        let c = adam.begin();
        let (w1, rest) = m.w.split_at_mut(o.w2);
        adam.update(w1, &g[..o.w2], 0, lr, CLIP1, c);
        let (w2, b2) = rest.split_at_mut(o.b2 - o.w2);
        adam.update(w2, &g[o.w2..o.b2], o.w2, lr, c2, c);
        adam.update(b2, &g[o.b2..], o.b2, lr, 1000.0, c);
    }
    train_err
}

/// Mean squared error on the held-out positions of the network `file` as the engine
/// runs it (integer weights, clipped sums), to show what rounding the weights costs.
fn file_error(m: &Model, d: &Data, file: &[u8], lambda: f32) -> Result<f64, String> {
    let net = nnue::Net::parse(file, "trained").map_err(|e| format!("train: {e}"))?;
    let sum: f64 = d
        .valid
        .par_iter()
        .zip(&d.valid_pos)
        .map(|(s, pos)| {
            let o = net.evaluate(pos) as f32 / nnue::SCALE as f32 + base(m, s);
            let e = sigmoid32(o) - target(s, lambda);
            (e * e) as f64
        })
        .sum();
    Ok(sum / d.valid.len().max(1) as f64)
}
