//! A loaded network and its arithmetic: building and updating accumulators, and the
//! output for the side to move.

use super::kings::Perspective;
use super::{Accumulator, Layout, MAX_GROUPS, QA, QB, SCALE};
use crate::rules::bitboard::{popcount, Bitboard};
use crate::rules::piece::Color;
use crate::rules::{Position, Variant};

/// The largest output, in centipawns, whatever the weights.
pub(super) const MAX_OUTPUT: i64 = 10_000;
/// Beyond this many changed inputs a fresh sum is cheaper than an update.
const MAX_CHANGES: u32 = 24;
/// Most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// The largest output weight of a SCReLU network: a unit (up to [`QA`]) times it
/// fits an i16.
pub const MAX_SCRELU_W2: i16 = 128;
/// Entries of the output bucket table: one per count of pieces on the board, 0 to 64.
pub const OUTPUT_TABLE: usize = 65;

/// What the hidden units do to their sums before the output layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped to 0..=1 (in the file's scale, 0..=[`QA`]).
    Crelu,
    /// Clipped to 0..=1, then squared.
    Screlu,
}

/// A loaded network.
pub struct Net {
    /// What its inputs are.
    pub layout: Layout,
    /// Hidden units per side.
    pub(super) h: usize,
    pub activation: Activation,
    /// The output bucket of each count of pieces on the board.
    pub outputs: [u8; OUTPUT_TABLE],
    /// Input weights, `h` a row, one row a feature ([`Layout::features`] rows).
    pub(super) w1: Vec<i16>,
    pub(super) b1: Vec<i16>,
    /// Output weights, `2h` a bucket, the side to move's `h` first.
    pub(super) w2: Vec<i16>,
    /// Output biases, one a bucket.
    pub(super) b2: Vec<i32>,
    /// The output is added to the hand-made evaluation.
    pub residual: bool,
    /// Where it came from: a built-in network's name or a file's path.
    pub name: String,
    /// Both sides see the inputs alike whatever their kings' squares (no king
    /// buckets, no mirror): an update walks the changed inputs once for both views.
    pub(super) kingless: bool,
}

/// A network's weights as training holds them, the file's scales taken out.
pub struct Unscaled {
    /// Input weights, `h` a row, one row a feature.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Output weights, `2h` a bucket.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

/// The output buckets `n` makes of counts of pieces on the board up to `most`: even
/// shares of the counts from 1 to `most`, fewer pieces in the lower buckets (one bucket:
/// every count in it).
pub fn output_table(n: usize, most: usize) -> [u8; OUTPUT_TABLE] {
    let mut t = [0u8; OUTPUT_TABLE];
    let (n, most) = (n.clamp(1, MAX_OUTPUT_BUCKETS), most.clamp(1, 64));
    for (count, b) in t.iter_mut().enumerate() {
        *b = (count.saturating_sub(1) * n / most).min(n - 1) as u8;
    }
    t
}

impl Net {
    /// Hidden units per side.
    pub fn hidden(&self) -> usize {
        self.h
    }

    /// Output buckets.
    pub fn output_buckets(&self) -> usize {
        self.b2.len()
    }

    /// The weights with the file's scales taken out.
    pub fn unscaled(&self) -> Unscaled {
        let (qa, qb) = (QA as f32, QB as f32);
        Unscaled {
            w1: self.w1.iter().map(|&w| f32::from(w) / qa).collect(),
            b1: self.b1.iter().map(|&w| f32::from(w) / qa).collect(),
            w2: self.w2.iter().map(|&w| f32::from(w) / qb).collect(),
            b2: self.b2.iter().map(|&b| b as f32 / (qa * qb)).collect(),
        }
    }

    /// Whether the network can judge `v`'s positions ([`Layout::covers`]).
    pub fn covers(&self, v: &Variant) -> bool {
        self.layout.covers(v)
    }

    /// Builds `acc` for `pos` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        let target = self.layout.bits(pos);
        for view in [Color::White, Color::Black] {
            self.rebuild(acc, view, self.layout.perspective(pos, view), &target);
        }
        acc.bits = target;
        acc.valid = true;
    }

    /// Builds view `view` of `acc` from scratch for the input bits `target` seen as `p`
    /// says.
    fn rebuild(
        &self,
        acc: &mut Accumulator,
        view: Color,
        p: Perspective,
        target: &[Bitboard; 2 * MAX_GROUPS],
    ) {
        self.sized(|h| {
            let v = &mut acc.v[view.idx()][..h];
            v.copy_from_slice(&self.b1[..h]);
            self.add_rows(v, view, p, &[0; 2 * MAX_GROUPS], target, h);
        });
        acc.persp[view.idx()] = p;
    }

    /// `f` of the network's size, given as a constant for the sizes networks are
    /// trained at, so that the loops `f` inlines have a known length.
    #[inline(always)]
    fn sized<R>(&self, f: impl FnOnce(usize) -> R) -> R {
        match self.h {
            64 => f(64),
            128 => f(128),
            256 => f(256),
            h => f(h),
        }
    }

    /// Changes the sums `v` of view `view` (seen as `p`) from the input bits `from` to
    /// the bits `to`: the rows of inputs that left taken off, those that came added.
    #[inline(always)]
    fn add_rows(
        &self,
        v: &mut [i16],
        view: Color,
        p: Perspective,
        from: &[Bitboard; 2 * MAX_GROUPS],
        to: &[Bitboard; 2 * MAX_GROUPS],
        h: usize,
    ) {
        let n = self.layout.groups.len();
        for i in 0..2 * n {
            let (c, g) = colour_group(i, n);
            for (mut bits, add) in [(from[i] & !to[i], false), (to[i] & !from[i], true)] {
                while bits != 0 {
                    let bit = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    let row = self.layout.feature(view, p, c, g, bit) * h;
                    add_row(&mut v[..h], &self.w1[row..row + h], add);
                }
            }
        }
    }

    /// [`Net::add_rows`] for both views at once, from `acc`'s own bits to `to`, for a
    /// kingless network: each changed input is found once (the update's hot loop).
    #[inline(always)]
    fn add_rows_both(&self, acc: &mut Accumulator, to: &[Bitboard; 2 * MAX_GROUPS], h: usize) {
        let n = self.layout.groups.len();
        for i in 0..2 * n {
            let (c, g) = colour_group(i, n);
            let from = acc.bits[i];
            for (mut bits, add) in [(from & !to[i], false), (to[i] & !from, true)] {
                while bits != 0 {
                    let bit = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    for view in [Color::White, Color::Black] {
                        let row = self.layout.input(view, c, g, bit) * h;
                        add_row(&mut acc.v[view.idx()][..h], &self.w1[row..row + h], add);
                    }
                }
            }
        }
    }

    /// Brings `acc` to `pos`, starting from `from` when that is valid and close
    /// (fewer than [`MAX_CHANGES`] changed inputs), else from its own sums when they
    /// are close, else from scratch. A view whose king changed bucket or half of the
    /// board is built from scratch whatever it starts from.
    pub fn update(&self, pos: &Position, from: Option<&Accumulator>, acc: &mut Accumulator) {
        let target = self.layout.bits(pos);
        let n = 2 * self.layout.groups.len();
        let changes = |a: &Accumulator| -> u32 {
            if !a.valid {
                return u32::MAX;
            }
            a.bits[..n]
                .iter()
                .zip(&target[..n])
                .map(|(x, y)| popcount(x ^ y))
                .sum()
        };
        let own = changes(acc);
        let fresh = match from {
            Some(f) if changes(f) < own.min(MAX_CHANGES + 1) => {
                self.copy(f, acc);
                false
            }
            _ => own > MAX_CHANGES,
        };
        if self.kingless && !fresh {
            self.sized(|h| self.add_rows_both(acc, &target, h));
        } else {
            // A view whose king changed bucket or half is built from scratch.
            for view in [Color::White, Color::Black] {
                let p = self.layout.perspective(pos, view);
                if fresh || acc.persp[view.idx()] != p {
                    self.rebuild(acc, view, p, &target);
                } else {
                    self.sized(|h| {
                        let v = &mut acc.v[view.idx()][..h];
                        self.add_rows(v, view, p, &acc.bits, &target, h)
                    });
                }
            }
        }
        acc.bits[..n].copy_from_slice(&target[..n]);
        acc.valid = true;
    }

    /// Copies what this network uses of `from` into `to`.
    #[inline(always)]
    fn copy(&self, from: &Accumulator, to: &mut Accumulator) {
        let (h, n) = (self.h, 2 * self.layout.groups.len());
        for view in 0..2 {
            to.v[view][..h].copy_from_slice(&from.v[view][..h]);
        }
        to.bits[..n].copy_from_slice(&from.bits[..n]);
        to.persp = from.persp;
        to.valid = from.valid;
    }

    /// The output for `pos`'s side to move, in centipawns, from `pos`'s sums `acc`.
    #[inline(always)]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let count = popcount(pos.occupied()) as usize;
        let bucket = self.outputs[count.min(OUTPUT_TABLE - 1)] as usize;
        let stm = pos.side();
        self.sized(|h| match self.activation {
            Activation::Crelu => self.output_sized::<false>(acc, stm, bucket, h),
            Activation::Screlu => self.output_sized::<true>(acc, stm, bucket, h),
        })
    }

    /// [`Net::output`] for `h`, the network's size, and the activation (`SQUARE`:
    /// SCReLU).
    #[inline(always)]
    fn output_sized<const SQUARE: bool>(
        &self,
        acc: &Accumulator,
        stm: Color,
        bucket: usize,
        h: usize,
    ) -> i32 {
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let mut sum = 0i64;
        for (view, w) in [stm, stm.flip()].into_iter().zip(w2.chunks_exact(h)) {
            // Sums of 64 units in i32, then in i64: a unit times a weight is below
            // 2^23, and a squared unit's below 2^15 times 2^8, as the reader refuses
            // SCReLU output weights beyond [`MAX_SCRELU_W2`]. Whole blocks of 64 have
            // a length the compiler knows.
            let (blocks, rest) = acc.v[view.idx()][..h].as_chunks::<64>();
            let (wblocks, wrest) = w.as_chunks::<64>();
            for (a, w) in blocks.iter().zip(wblocks) {
                sum += i64::from(dot::<SQUARE>(a, w));
            }
            sum += i64::from(dot::<SQUARE>(rest, wrest));
        }
        if SQUARE {
            // Back to the scale of one unit times a weight.
            sum /= i64::from(QA);
        }
        // Bounded: a file's weights may be anything, and no score of theirs may reach
        // the mate range.
        let v = (sum + i64::from(self.b2[bucket])) * i64::from(SCALE) / i64::from(QA * QB);
        v.clamp(-MAX_OUTPUT, MAX_OUTPUT) as i32
    }

    /// The score of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.output(&acc, pos)
    }
}

/// The colour and group of slot `i` of an accumulator's bits, for `n` groups (White's
/// first).
#[inline(always)]
fn colour_group(i: usize, n: usize) -> (Color, usize) {
    if i < n {
        (Color::White, i)
    } else {
        (Color::Black, i - n)
    }
}

/// Adds the input row `w` to the sums `v` (`add`), or takes it off.
#[inline(always)]
fn add_row(v: &mut [i16], w: &[i16], add: bool) {
    for (a, d) in v.iter_mut().zip(w) {
        *a = if add {
            a.wrapping_add(*d)
        } else {
            a.wrapping_sub(*d)
        };
    }
}

/// The sum of units `a` (clipped, squared under SCReLU) times weights `w`, at most 64
/// of them ([`Net::output`] bounds it in i32 so).
#[inline(always)]
fn dot<const SQUARE: bool>(a: &[i16], w: &[i16]) -> i32 {
    let mut part = 0i32;
    for (a, w) in a.iter().zip(w) {
        let c = (*a).clamp(0, QA as i16);
        part += if SQUARE {
            i32::from(c.wrapping_mul(*w)) * i32::from(c)
        } else {
            i32::from(c) * i32::from(*w)
        };
    }
    part
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Net({}, {} groups, {} king buckets, {} hidden, {:?}, {} output buckets)",
            self.name,
            self.layout.groups.len(),
            self.layout.kings.count(),
            self.h,
            self.activation,
            self.output_buckets()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::tests::{random_net, random_shaped};
    use super::super::{write, Shape, HIDDEN};
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};

    /// The sums of view `view` of `pos` added up input by input, as the documented
    /// layout says: the biases and the row of each feature.
    fn sums_by_hand(net: &Net, pos: &Position, view: Color) -> Vec<i16> {
        let (h, l) = (net.h, &net.layout);
        let p = l.perspective(pos, view);
        let bits = l.bits(pos);
        let n = l.groups.len();
        let mut out = net.b1.clone();
        for (i, mut b) in bits.into_iter().take(2 * n).enumerate() {
            let (c, g) = colour_group(i, n);
            while b != 0 {
                let bit = b.trailing_zeros() as u8;
                b &= b - 1;
                let f = l.feature(view, p, c, g, bit);
                for (a, w) in out.iter_mut().zip(&net.w1[f * h..(f + 1) * h]) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        out
    }

    /// The output of `acc` for `pos` worked out in i64 from the documented formula.
    fn output_by_hand(net: &Net, acc: &Accumulator, pos: &Position) -> i32 {
        let h = net.h;
        let b = net.outputs[popcount(pos.occupied()) as usize] as usize;
        let mut sum = 0i64;
        for (k, view) in [pos.side(), pos.side().flip()].into_iter().enumerate() {
            for j in 0..h {
                let c = i64::from(acc.v[view.idx()][j].clamp(0, QA as i16));
                let a = match net.activation {
                    Activation::Crelu => c,
                    Activation::Screlu => c * c,
                };
                sum += a * i64::from(net.w2[b * 2 * h + k * h + j]);
            }
        }
        if net.activation == Activation::Screlu {
            sum /= i64::from(QA);
        }
        let v = (sum + i64::from(net.b2[b])) * i64::from(SCALE) / i64::from(QA * QB);
        v.clamp(-MAX_OUTPUT, MAX_OUTPUT) as i32
    }

    #[test]
    fn updates_from_any_accumulator_match_a_fresh_sum_in_every_variant() {
        let vs = Variants::builtin();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        // Sizes the vector loops take whole and with a remainder, and the largest; each
        // kind of king buckets, output buckets and activation.
        let shapes = [
            (64, "8", 8, Activation::Screlu),
            (100, "none", 1, Activation::Crelu),
            (HIDDEN, "4", 4, Activation::Crelu),
            (7, "m", 2, Activation::Screlu),
        ];
        for (k, v) in vs.all().iter().enumerate() {
            for (h, kings, outputs, act) in [shapes[k % 4], shapes[(k + 1) % 4]] {
                let net =
                    Net::parse(&random_shaped(v, 7, h, kings, outputs, act), "random").unwrap();
                assert_eq!(net.hidden(), h);
                assert!(net.covers(v), "{}", v.name);
                let mut checked = 0;
                let mut turned = 0;
                for _game in 0..8 {
                    let start = v.random_start(&mut rng).unwrap();
                    let mut pos = Position::from_efen(v, &start).unwrap();
                    let mut history: Vec<Accumulator> = vec![Accumulator::default()];
                    net.refresh(&pos, &mut history[0]);
                    for _ply in 0..150 {
                        let mut list = MoveList::new();
                        pos.legal_moves(&mut list);
                        if list.is_empty() {
                            break;
                        }
                        let m = list.as_slice()[rng.gen_range(0..list.len())];
                        pos.do_move(m);
                        let mut fresh = Accumulator::default();
                        net.refresh(&pos, &mut fresh);
                        // The fresh sum is the sum of the position's own features.
                        for view in [Color::White, Color::Black] {
                            assert_eq!(
                                sums_by_hand(&net, &pos, view),
                                fresh.v[view.idx()][..h],
                                "{}",
                                v.name
                            );
                        }
                        if fresh.persp != history.last().unwrap().persp {
                            turned += 1;
                        }
                        // From the position before, from one further back, from
                        // nothing, and in place over a stale sum.
                        let back = history.len().saturating_sub(1 + rng.gen_range(0..6));
                        for from in [history.last(), Some(&history[back]), None] {
                            let mut acc = Accumulator::default();
                            net.update(&pos, from, &mut acc);
                            assert_eq!(acc.v, fresh.v, "{}", v.name);
                            assert_eq!(acc.persp, fresh.persp, "{}", v.name);
                            assert_eq!(net.output(&acc, &pos), net.evaluate(&pos));
                            assert_eq!(net.output(&acc, &pos), output_by_hand(&net, &acc, &pos));
                            checked += 1;
                        }
                        let mut stale = history[back].clone();
                        net.update(&pos, None, &mut stale);
                        assert_eq!(stale.v, fresh.v, "{}", v.name);
                        history.push(fresh);
                        if pos.outcome().is_some() {
                            break;
                        }
                    }
                }
                assert!(checked > 300, "{}: {checked}", v.name);
                // Kings change bucket or half of the board in these games.
                if kings != "none" {
                    assert!(turned > 0, "{} {kings}", v.name);
                }
            }
        }
    }

    #[test]
    fn a_king_move_to_another_bucket_rebuilds_its_side_only() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let net = Net::parse(
            &random_shaped(chess, 9, 64, "8", 4, Activation::Screlu),
            "random",
        )
        .unwrap();
        let l = &net.layout;
        for (efen, mv, white, black) in [
            // g1 to h1: the same bucket (outer files of the first rank), mirrored both.
            ("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "g1h1", None, None),
            // g1 to g2: from the first rank to the second.
            ("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "g1g2", Some((0, 2)), None),
            // e1 to d1: from the right half (mirrored) to the left.
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", Some((1, 1)), None),
            // Black's king from e8 to e7: its second rank, seen from its side.
            ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "e8e7", None, Some((1, 3))),
        ] {
            let mut pos = Position::from_efen(chess, efen).unwrap();
            let before = [Color::White, Color::Black].map(|c| l.perspective(&pos, c));
            let mut acc = Accumulator::default();
            net.refresh(&pos, &mut acc);
            let m = crate::rules::notation::parse_move(&pos, mv).unwrap();
            pos.do_move(m);
            let after = [Color::White, Color::Black].map(|c| l.perspective(&pos, c));
            for (k, want) in [white, black].into_iter().enumerate() {
                match want {
                    None => assert_eq!(after[k].bucket, before[k].bucket, "{efen} {mv}"),
                    Some((from, to)) => {
                        assert_eq!((before[k].bucket, after[k].bucket), (from, to), "{mv}")
                    }
                }
            }
            let mut updated = acc.clone();
            net.update(&pos, Some(&acc), &mut updated);
            let mut fresh = Accumulator::default();
            net.refresh(&pos, &mut fresh);
            assert_eq!(updated.v, fresh.v, "{efen} {mv}");
            assert_eq!(updated.persp, after, "{efen} {mv}");
        }
        // The mirror: a king on e1 sees the board turned, one on d1 does not.
        let e1 = Position::from_efen(chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(l.perspective(&e1, Color::White).mirror);
        assert!(l.perspective(&e1, Color::Black).mirror);
        let d1 = Position::from_efen(chess, "3k4/8/8/8/8/8/8/3K4 w - - 0 1").unwrap();
        assert!(!l.perspective(&d1, Color::White).mirror);
    }

    #[test]
    fn a_smaller_network_scores_as_the_largest_with_the_rest_at_nothing() {
        let vs = Variants::builtin();
        let v = vs.get("royalstandard").unwrap();
        let shape = |hidden| Shape {
            layout: Layout::for_variant(v)
                .unwrap()
                .with_kings(super::super::KingBuckets::preset("4", v.width, v.height).unwrap())
                .unwrap(),
            residual: true,
            activation: Activation::Screlu,
            outputs: output_table(2, 20),
            hidden,
        };
        let h = 8;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let nf = shape(h).layout.features();
        let w1: Vec<i16> = (0..(nf + 1) * h)
            .map(|_| rng.gen_range(-300..300))
            .collect();
        let w2: Vec<i16> = (0..2 * 2 * h).map(|_| rng.gen_range(-100..100)).collect();
        let small = write(
            &shape(h),
            w1.iter().copied(),
            [].into_iter(),
            w2.iter().copied(),
            [99, -99].into_iter(),
        );
        // The same weights spread over the full size, zeros in the units past `h`.
        let pad = |rows: &[i16]| -> Vec<i16> {
            rows.chunks(h)
                .flat_map(|r| r.iter().copied().chain(std::iter::repeat_n(0, HIDDEN - h)))
                .collect()
        };
        let full = write(
            &shape(HIDDEN),
            pad(&w1).into_iter(),
            [].into_iter(),
            pad(&w2).into_iter(),
            [99, -99].into_iter(),
        );
        let (small, full) = (
            Net::parse(&small, "s").unwrap(),
            Net::parse(&full, "f").unwrap(),
        );
        assert!(small.residual);
        let mut pos = Position::from_efen(v, &v.default_start_fen()).unwrap();
        let mut list = MoveList::new();
        for _ in 0..40 {
            assert_eq!(small.evaluate(&pos), full.evaluate(&pos));
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.do_move(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        // A size the build cannot hold is refused.
        let big = write(
            &shape(HIDDEN + 1),
            std::iter::empty(),
            [].into_iter(),
            [].into_iter(),
            [].into_iter(),
        );
        let e = Net::parse(&big, "b").err().unwrap();
        assert!(e.contains("hidden units"), "{e}");
    }

    #[test]
    fn black_sees_the_board_as_white_does_turned_round() {
        // A position and its colour-swapped twin (ranks turned, facings turned, the
        // other side to move) have the same output: the views are symmetric, king
        // buckets and mirrors included.
        let vs = Variants::builtin();
        for (name, efen, twin) in [
            (
                "fullcavalry",
                "4k3/8/8/3L(ne)4/8/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/3l(se)4/8/8/4K3 b - - 0 1",
            ),
            (
                "fullcavalry",
                "1k6/8/8/3L(e)4/8/8/5K2/8 w - - 0 1",
                "8/5k2/8/8/3l(e)4/8/8/1K6 b - - 0 1",
            ),
            (
                "lighthouse",
                "1k2/4/4/1P2/4/4/4/2K1[Nr] w - - 0 1",
                "2k1/4/4/4/1p2/4/4/1K2[Rn] b - - 0 1",
            ),
        ] {
            let v = vs.get(name).unwrap();
            for (kings, act) in [("none", Activation::Crelu), ("8", Activation::Screlu)] {
                let net = Net::parse(&random_shaped(v, 11, 32, kings, 3, act), "random").unwrap();
                let a = Position::from_efen(v, efen).unwrap();
                let b = Position::from_efen(v, twin).unwrap();
                assert_eq!(net.evaluate(&a), net.evaluate(&b), "{name} {kings}");
            }
        }
    }

    #[test]
    fn outputs_stay_out_of_the_mate_range_whatever_the_weights() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let start = Position::from_efen(
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        for (bias, want) in [(i32::MAX, MAX_OUTPUT), (i32::MIN, -MAX_OUTPUT)] {
            let mut b = random_net(chess, 5);
            let n = b.len();
            b[n - 4..].copy_from_slice(&bias.to_le_bytes());
            let net = Net::parse(&b, "x").unwrap();
            assert_eq!(i64::from(net.evaluate(&start)), want);
        }
        // The widest sums of the widest network neither wrap nor reach the mate range:
        // every unit at its ceiling, every output weight at the largest each
        // activation allows (2·256 units of 255 · 32767, or of 255² · 128, pass 2^32).
        for (act, w) in [
            (Activation::Crelu, i16::MAX),
            (Activation::Screlu, MAX_SCRELU_W2),
        ] {
            let shape = Shape {
                layout: Layout::for_variant(chess).unwrap(),
                residual: false,
                activation: act,
                outputs: output_table(1, 32),
                hidden: HIDDEN,
            };
            let nf = shape.layout.features();
            let b = write(
                &shape,
                std::iter::repeat_n(0, nf * HIDDEN),
                std::iter::repeat_n(QA as i16, HIDDEN),
                std::iter::repeat_n(w, 2 * HIDDEN),
                [0].into_iter(),
            );
            let net = Net::parse(&b, "x").unwrap();
            assert_eq!(i64::from(net.evaluate(&start)), MAX_OUTPUT, "{act:?}");
        }
    }
}
