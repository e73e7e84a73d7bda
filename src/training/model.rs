//! The float network `lancer train` fits: the engine's network ([`crate::eval::nnue`])
//! with its weights in `f32`, shared rows beside each feature's own ("factors", folded
//! into it when the file is written), and its forward and backward passes over one
//! position.
//!
//! The weights are one flat vector: the rows of the input layer (the features, then
//! the shared rows), the hidden biases, the output weights (`2h` a bucket, the side to
//! move's half first) and the output biases.

use super::optim::sigmoid32;
use crate::eval::nnue::{self, Activation, Group, Layout, Perspective, Shape, HIDDEN, QA, QB};
use crate::rules::piece::Color;
use crate::rules::Position;

/// No shared row.
const NONE: u32 = u32::MAX;
/// Shared rows a feature may have.
const SHARED: usize = 3;

/// The largest input weight or hidden bias the i16 file holds after scaling (with room
/// for the sums).
pub const CLIP1: f32 = 1.98;
/// The largest output weight: a SCReLU network's must fit the engine's bound.
pub fn clip2(a: Activation) -> f32 {
    match a {
        Activation::Crelu => 1.98,
        Activation::Screlu => (nnue::MAX_SCRELU_W2 as f32 - 0.5) / QB as f32,
    }
}

/// One position as the network reads it: its inputs as White sees it (rows of one copy,
/// no bucket), how each side sees the board, who is to move and its output bucket.
#[derive(Clone, Copy)]
pub struct Encoded {
    /// Where its inputs start in the shared list, and how many.
    pub start: u32,
    pub len: u8,
    pub white: bool,
    /// White's view, then Black's.
    pub persp: [Perspective; 2],
    pub bucket: u8,
}

/// The float network and what its rows mean.
pub struct Model {
    pub shape: Shape,
    /// Inputs of one copy ([`Layout::inputs`]) and features of all ([`Layout::features`]).
    pub ninputs: usize,
    pub nfeatures: usize,
    /// Rows of the input layer: features and shared rows.
    pub nrows: usize,
    /// For each input of one copy (seen after the mirror), its shared rows.
    shared: Vec<[u32; SHARED]>,
    /// Each input as Black sees it, and each input in a mirror (itself where the
    /// layout lacks the mirrored group).
    flip: Vec<u32>,
    mirror: Vec<u32>,
    /// The weights, flat (see the module's doc).
    pub w: Vec<f32>,
}

/// Where each part of the flat weights starts.
#[derive(Clone, Copy)]
pub struct Offsets {
    pub b1: usize,
    pub w2: usize,
    pub b2: usize,
    pub end: usize,
}

impl Model {
    /// A model of `shape` with every weight at zero; `factors` adds the shared rows:
    /// one per input whatever the king's bucket (where there are buckets), one per side
    /// and group (the piece wherever it stands), and one per side, square and kind for
    /// lancers and standard-bearers (whatever the facing or the frozen mark).
    pub fn new(shape: Shape, factors: bool) -> Model {
        let l = &shape.layout;
        let (n, ninputs) = (l.groups.len(), l.inputs());
        let nfeatures = l.features();
        let kb = l.kings.count();
        let mut shared = vec![[NONE; SHARED]; ninputs];
        let mut next = nfeatures;
        if factors {
            let per_input = if kb > 1 { ninputs } else { 0 };
            let base = |g: Group| match g {
                Group::Lancer(_) => Some(0),
                Group::Bearer { .. } => Some(1),
                _ => None,
            };
            for (i, r) in shared.iter_mut().enumerate() {
                let (block, bit) = (i / 64, i % 64);
                let (rel, g) = (block / n, block % n);
                if kb > 1 {
                    r[0] = (nfeatures + i) as u32;
                }
                r[1] = (nfeatures + per_input + block) as u32;
                if let Some(b) = base(l.groups[g]) {
                    r[2] = (nfeatures + per_input + 2 * n + (rel * 2 + b) * 64 + bit) as u32;
                }
            }
            next = nfeatures + per_input + 2 * n + 4 * 64;
        }
        let mut flip = vec![0u32; ninputs];
        let mut mirror = vec![0u32; ninputs];
        for g in 0..n {
            for bit in 0..64u8 {
                for c in [Color::White, Color::Black] {
                    let i = l.input(Color::White, c, g, bit);
                    flip[i] = l.input(Color::Black, c, g, bit) as u32;
                    mirror[i] = l.mirror(i).unwrap_or(i) as u32;
                }
            }
        }
        let h = shape.hidden;
        let ob = shape.output_buckets();
        let len = next * h + h + ob * 2 * h + ob;
        Model {
            ninputs,
            nfeatures,
            nrows: next,
            shared,
            flip,
            mirror,
            w: vec![0.0; len],
            shape,
        }
    }

    /// Hidden units per side.
    pub fn h(&self) -> usize {
        self.shape.hidden
    }

    /// Where the parts of the flat weights start.
    pub fn offsets(&self) -> Offsets {
        let h = self.h();
        let b1 = self.nrows * h;
        let w2 = b1 + h;
        let b2 = w2 + self.shape.output_buckets() * 2 * h;
        Offsets {
            b1,
            w2,
            b2,
            end: b2 + self.shape.output_buckets(),
        }
    }

    /// `pos` as the network reads it; its inputs are pushed onto `inputs`.
    pub fn encode(&self, pos: &Position, inputs: &mut Vec<u16>) -> Encoded {
        let l = &self.shape.layout;
        let start = inputs.len();
        l.white_inputs(pos, inputs);
        // At most 32 pieces and 64 in hand per kind: far below a u8's count only for
        // sane data, so longer lists are cut rather than wrapped.
        inputs.truncate(start + 255);
        let count = crate::rules::bitboard::popcount(pos.occupied()) as usize;
        Encoded {
            start: start as u32,
            len: (inputs.len() - start) as u8,
            white: pos.side() == Color::White,
            persp: [
                l.perspective(pos, Color::White),
                l.perspective(pos, Color::Black),
            ],
            bucket: self.shape.outputs[count.min(nnue::OUTPUT_TABLE - 1)],
        }
    }

    /// White's input `i` seen by side `view` (0 White, 1 Black) as `p` says: the
    /// feature's row and its shared rows.
    #[inline(always)]
    fn rows(&self, view: usize, p: Perspective, i: u16) -> [u32; SHARED + 1] {
        let mut j = if view == 0 {
            u32::from(i)
        } else {
            self.flip[i as usize]
        };
        if p.mirror {
            j = self.mirror[j as usize];
        }
        let s = self.shared[j as usize];
        [p.bucket as u32 * self.ninputs as u32 + j, s[0], s[1], s[2]]
    }

    /// The output (in units of [`nnue::SCALE`] centipawns, before the sigmoid) of `e`
    /// with inputs `ins`, and its hidden sums, the side to move's view first.
    pub fn forward(&self, e: &Encoded, ins: &[u16], acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let h = self.h();
        let o = self.offsets();
        let w = &self.w;
        for (k, view) in [usize::from(!e.white), usize::from(e.white)]
            .into_iter()
            .enumerate()
        {
            let a = &mut acc[k][..h];
            a.copy_from_slice(&w[o.b1..o.b1 + h]);
            for &i in ins {
                for r in self.rows(view, e.persp[view], i) {
                    if r != NONE {
                        let row = &w[r as usize * h..(r as usize + 1) * h];
                        for (x, y) in a.iter_mut().zip(row) {
                            *x += y;
                        }
                    }
                }
            }
        }
        let w2 = &w[o.w2 + e.bucket as usize * 2 * h..][..2 * h];
        let mut out = w[o.b2 + e.bucket as usize];
        for k in 0..2 {
            for (a, ww) in acc[k][..h].iter().zip(&w2[k * h..(k + 1) * h]) {
                out += self.act(*a) * ww;
            }
        }
        out
    }

    /// The activation of a hidden sum.
    #[inline(always)]
    fn act(&self, a: f32) -> f32 {
        let c = a.clamp(0.0, 1.0);
        match self.shape.activation {
            Activation::Crelu => c,
            Activation::Screlu => c * c,
        }
    }

    /// The activation's slope at a hidden sum.
    #[inline(always)]
    fn slope(&self, a: f32) -> f32 {
        if a <= 0.0 || a >= 1.0 {
            return 0.0;
        }
        match self.shape.activation {
            Activation::Crelu => 1.0,
            Activation::Screlu => 2.0 * a,
        }
    }

    /// Adds to `g` the gradient of the squared error between `sigmoid(output + base)`
    /// and `target` for `e`; returns the squared error.
    pub fn backward(&self, e: &Encoded, ins: &[u16], base: f32, target: f32, g: &mut [f32]) -> f32 {
        let h = self.h();
        let o = self.offsets();
        let mut acc = [[0.0; HIDDEN]; 2];
        let out = self.forward(e, ins, &mut acc) + base;
        let y = sigmoid32(out);
        let d = 2.0 * (y - target) * y * (1.0 - y);
        let b = e.bucket as usize;
        g[o.b2 + b] += d;
        let w2 = &self.w[o.w2 + b * 2 * h..][..2 * h];
        let g2 = &mut g[o.w2 + b * 2 * h..][..2 * h];
        let mut dh = [[0.0f32; HIDDEN]; 2];
        for k in 0..2 {
            for j in 0..h {
                let a = acc[k][j];
                g2[k * h + j] += d * self.act(a);
                dh[k][j] = d * w2[k * h + j] * self.slope(a);
            }
        }
        for j in 0..h {
            g[o.b1 + j] += dh[0][j] + dh[1][j];
        }
        for (k, view) in [usize::from(!e.white), usize::from(e.white)]
            .into_iter()
            .enumerate()
        {
            for &i in ins {
                for r in self.rows(view, e.persp[view], i) {
                    if r != NONE {
                        let row = &mut g[r as usize * h..(r as usize + 1) * h];
                        for (gw, dd) in row.iter_mut().zip(&dh[k][..h]) {
                            *gw += dd;
                        }
                    }
                }
            }
        }
        (y - target) * (y - target)
    }

    /// The weight of feature `f` (a copy's input in a king bucket) at unit `j`, its
    /// shared rows folded in.
    fn folded(&self, f: usize, j: usize) -> f32 {
        let h = self.h();
        let i = f % self.ninputs;
        let mut w = self.w[f * h + j];
        for r in self.shared[i] {
            if r != NONE {
                w += self.w[r as usize * h + j];
            }
        }
        w
    }

    /// The network file of the model (shared rows folded into each feature's own).
    pub fn file(&self) -> Vec<u8> {
        let q = |x: f32, s: i32, clip: f32| (x.clamp(-clip, clip) * s as f32).round() as i16;
        let (h, o) = (self.h(), self.offsets());
        let c2 = clip2(self.shape.activation);
        let w1 = (0..self.nfeatures)
            .flat_map(move |f| (0..h).map(move |j| q(self.folded(f, j), QA, CLIP1)));
        nnue::write(
            &self.shape,
            w1,
            self.w[o.b1..o.w2].iter().map(|&w| q(w, QA, CLIP1)),
            self.w[o.w2..o.b2].iter().map(|&w| q(w, QB, c2)),
            self.w[o.b2..o.end]
                .iter()
                .map(|&w| (w * (QA * QB) as f32).round() as i32),
        )
    }

    /// Puts `net`'s weights into the model: the same inputs, a network of at most as
    /// many units (the others keep their start, a small output weight), one copy of the
    /// inputs (given to every bucket) or the model's buckets, one output bucket (given
    /// to every bucket) or the model's. The shared rows start at nothing (the file holds
    /// them folded into each feature's own).
    pub fn start_from(&mut self, net: &nnue::Net) -> Result<(), String> {
        let (h, nh) = (self.h(), net.hidden());
        let ns = net.shape();
        let l = &self.shape.layout;
        if ns.layout.groups != l.groups
            || (ns.layout.width, ns.layout.height) != (l.width, l.height)
        {
            return Err(
                "it has other inputs than this training (another variant's, or with \
                 --held where this has none, or the reverse)"
                    .into(),
            );
        }
        if nh > h {
            return Err(format!(
                "it has {nh} hidden units, more than this training's {h} (--hidden)"
            ));
        }
        let kb = ns.layout.kings.count();
        if kb != 1 && ns.layout.kings != l.kings {
            return Err("its king buckets are not this training's (--kings)".into());
        }
        let ob = ns.output_buckets();
        if ob != 1 && ns.outputs != self.shape.outputs {
            return Err("its output buckets are not this training's (--outputs)".into());
        }
        if ns.residual != self.shape.residual || ns.activation != self.shape.activation {
            return Err(format!(
                "it is {}, this training {}",
                describe(&ns),
                describe(&self.shape)
            ));
        }
        let u = net.unscaled();
        let o = self.offsets();
        for f in 0..self.nfeatures {
            let src = if kb == 1 { f % self.ninputs } else { f };
            self.w[f * h..f * h + nh].copy_from_slice(&u.w1[src * nh..(src + 1) * nh]);
        }
        self.w[self.nfeatures * h..o.b1].fill(0.0);
        self.w[o.b1..o.b1 + nh].copy_from_slice(&u.b1);
        for b in 0..self.shape.output_buckets() {
            let sb = if ob == 1 { 0 } else { b };
            let (dst, src) = (o.w2 + b * 2 * h, sb * 2 * nh);
            self.w[dst..dst + nh].copy_from_slice(&u.w2[src..src + nh]);
            self.w[dst + h..dst + h + nh].copy_from_slice(&u.w2[src + nh..src + 2 * nh]);
            self.w[o.b2 + b] = u.b2[sb];
        }
        Ok(())
    }
}

/// "a correction with SCReLU units" and the like, for messages.
fn describe(s: &Shape) -> String {
    format!(
        "{} with {} units",
        if s.residual {
            "a correction (without --whole)"
        } else {
            "a whole evaluation (--whole)"
        },
        match s.activation {
            Activation::Crelu => "clipped ReLU",
            Activation::Screlu => "SCReLU (--screlu)",
        }
    )
}

/// The layout of a model's inputs for `v`: with the held group or without, and the
/// king buckets.
pub fn layout(
    v: &crate::rules::Variant,
    held: bool,
    kings: nnue::KingBuckets,
) -> Result<Layout, String> {
    if held {
        Layout::for_variant_held(v)
    } else {
        Layout::for_variant(v)
    }
    .and_then(|l| l.with_kings(kings))
}
