//! A loaded network and its arithmetic: building and updating accumulators, and the
//! output for the side to move.

use super::{Accumulator, Layout, MAX_GROUPS, QA, QB, SCALE};
use crate::rules::bitboard::{popcount, Bitboard};
use crate::rules::piece::Color;
use crate::rules::{Position, Variant};

/// The largest output, in centipawns, whatever the weights.
pub(super) const MAX_OUTPUT: i64 = 10_000;
/// Beyond this many changed inputs a fresh sum is cheaper than an update.
const MAX_CHANGES: u32 = 24;

/// A loaded network.
pub struct Net {
    /// What its inputs are.
    pub layout: Layout,
    /// Hidden units per side.
    pub(super) h: usize,
    /// Input weights, `h` a row, one row an input.
    pub(super) w1: Vec<i16>,
    pub(super) b1: Vec<i16>,
    /// Output weights, the side to move's `h` first.
    pub(super) w2: Vec<i16>,
    pub(super) b2: i32,
    /// The output is added to the hand-made evaluation.
    pub residual: bool,
    /// Where it came from: a built-in network's name or a file's path.
    pub name: String,
}

impl Net {
    /// Hidden units per side.
    pub fn hidden(&self) -> usize {
        self.h
    }

    /// The weights as training holds them, the file's scales taken out: input weights
    /// ([`Net::hidden`] a row, one row an input), hidden biases, output weights (side to
    /// move's half first) and the output bias.
    pub fn unscaled(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
        let (qa, qb) = (QA as f32, QB as f32);
        (
            self.w1.iter().map(|&w| f32::from(w) / qa).collect(),
            self.b1.iter().map(|&w| f32::from(w) / qa).collect(),
            self.w2.iter().map(|&w| f32::from(w) / qb).collect(),
            self.b2 as f32 / (qa * qb),
        )
    }

    /// Whether the network can judge `v`'s positions ([`Layout::covers`]).
    pub fn covers(&self, v: &Variant) -> bool {
        self.layout.covers(v)
    }

    /// Builds `acc` for `pos` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        self.rebuild(acc, &self.layout.bits(pos));
    }

    /// Builds `acc` from scratch for the input bits `target`.
    fn rebuild(&self, acc: &mut Accumulator, target: &[Bitboard; 2 * MAX_GROUPS]) {
        let h = self.h;
        acc.v[0][..h].copy_from_slice(&self.b1);
        acc.v[1][..h].copy_from_slice(&self.b1);
        acc.bits = [0; 2 * MAX_GROUPS];
        acc.valid = true;
        self.apply(acc, target);
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

    /// Changes `acc` (valid) into the sums of the input bits `target`.
    #[inline(always)]
    fn apply(&self, acc: &mut Accumulator, target: &[Bitboard; 2 * MAX_GROUPS]) {
        self.sized(|h| self.apply_sized(acc, target, h))
    }

    /// [`Net::apply`] for `h`, the network's size.
    #[inline(always)]
    fn apply_sized(&self, acc: &mut Accumulator, target: &[Bitboard; 2 * MAX_GROUPS], h: usize) {
        let n = self.layout.groups.len();
        for i in 0..2 * n {
            let (c, g) = if i < n {
                (Color::White, i)
            } else {
                (Color::Black, i - n)
            };
            for (mut bits, add) in [
                (acc.bits[i] & !target[i], false),
                (target[i] & !acc.bits[i], true),
            ] {
                while bits != 0 {
                    let bit = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    for view in [Color::White, Color::Black] {
                        let row = self.layout.input(view, c, g, bit) * h;
                        let w = &self.w1[row..row + h];
                        for (a, d) in acc.v[view.idx()][..h].iter_mut().zip(w) {
                            *a = if add {
                                a.wrapping_add(*d)
                            } else {
                                a.wrapping_sub(*d)
                            };
                        }
                    }
                }
            }
        }
        acc.bits[..2 * n].copy_from_slice(&target[..2 * n]);
    }

    /// Brings `acc` to `pos`, starting from `from` when that is valid and close
    /// (fewer than [`MAX_CHANGES`] changed inputs), else from scratch.
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
        match from {
            Some(f) if changes(f) < own.min(MAX_CHANGES + 1) => self.copy(f, acc),
            _ if own > MAX_CHANGES => return self.rebuild(acc, &target),
            _ => {}
        }
        self.apply(acc, &target);
    }

    /// Copies what this network uses of `from` into `to`.
    #[inline(always)]
    fn copy(&self, from: &Accumulator, to: &mut Accumulator) {
        let (h, n) = (self.h, 2 * self.layout.groups.len());
        for view in 0..2 {
            to.v[view][..h].copy_from_slice(&from.v[view][..h]);
        }
        to.bits[..n].copy_from_slice(&from.bits[..n]);
        to.valid = from.valid;
    }

    /// The output for side `stm` to move, in centipawns.
    #[inline(always)]
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        self.sized(|h| self.output_sized(acc, stm, h))
    }

    /// [`Net::output`] for `h`, the network's size.
    #[inline(always)]
    fn output_sized(&self, acc: &Accumulator, stm: Color, h: usize) -> i32 {
        let us = &acc.v[stm.idx()][..h];
        let them = &acc.v[stm.flip().idx()][..h];
        let mut sum = 0i32;
        for (a, w) in us.iter().zip(&self.w2[..h]) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        for (a, w) in them.iter().zip(&self.w2[h..]) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        // In i64 and bounded: a file's weights may be anything, and no score of theirs
        // may reach the mate range.
        let v = (i64::from(sum) + i64::from(self.b2)) * i64::from(SCALE) / i64::from(QA * QB);
        v.clamp(-MAX_OUTPUT, MAX_OUTPUT) as i32
    }

    /// The score of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.output(&acc, pos.side())
    }
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Net({}, {} groups, {} hidden)",
            self.name,
            self.layout.groups.len(),
            self.h
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::tests::{random_net, random_net_of};
    use super::super::{write, HIDDEN};
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};

    #[test]
    fn updates_from_any_accumulator_match_a_fresh_sum_in_every_variant() {
        let vs = Variants::builtin();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        // Sizes the vector loops take whole and with a remainder, and the largest.
        for (v, h) in vs
            .all()
            .iter()
            .zip([64, 100, HIDDEN, 7].into_iter().cycle())
        {
            let net = Net::parse(&random_net_of(v, 7, h), "random").unwrap();
            assert_eq!(net.hidden(), h);
            assert!(net.covers(v), "{}", v.name);
            let mut checked = 0;
            for _game in 0..12 {
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
                    // The fresh sum is the sum of the position's own inputs.
                    let mut ins = Vec::new();
                    net.layout.white_inputs(&pos, &mut ins);
                    let mut white = net.b1.clone();
                    for &i in &ins {
                        let row = &net.w1[i as usize * h..(i as usize + 1) * h];
                        for (a, w) in white.iter_mut().zip(row) {
                            *a = a.wrapping_add(*w);
                        }
                    }
                    assert_eq!(white, fresh.v[0][..h], "{}", v.name);
                    // From the position before, from one further back, from nothing,
                    // and in place over a stale sum.
                    let back = history.len().saturating_sub(1 + rng.gen_range(0..6));
                    for from in [history.last(), Some(&history[back]), None] {
                        let mut acc = Accumulator::default();
                        net.update(&pos, from, &mut acc);
                        assert_eq!(acc.v, fresh.v, "{}", v.name);
                        assert_eq!(net.output(&acc, pos.side()), net.evaluate(&pos));
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
            assert!(checked > 500, "{}: {checked}", v.name);
        }
    }

    #[test]
    fn a_smaller_network_scores_as_the_largest_with_the_rest_at_nothing() {
        let vs = Variants::builtin();
        let v = vs.get("royalstandard").unwrap();
        let layout = Layout::for_variant(v).unwrap();
        let h = 8;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let ni = layout.inputs();
        let w1: Vec<i16> = (0..(ni + 1) * h)
            .map(|_| rng.gen_range(-300..300))
            .collect();
        let w2: Vec<i16> = (0..2 * h).map(|_| rng.gen_range(-100..100)).collect();
        let small = write(
            &layout,
            true,
            h,
            w1.iter().copied(),
            [].into_iter(),
            w2.iter().copied(),
            99,
        );
        // The same weights spread over the full size, zeros in the units past `h`.
        let pad = |rows: &[i16]| -> Vec<i16> {
            rows.chunks(h)
                .flat_map(|r| r.iter().copied().chain(std::iter::repeat_n(0, HIDDEN - h)))
                .collect()
        };
        let full = write(
            &layout,
            true,
            HIDDEN,
            pad(&w1).into_iter(),
            [].into_iter(),
            pad(&w2).into_iter(),
            99,
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
            &layout,
            true,
            HIDDEN + 1,
            std::iter::empty(),
            [].into_iter(),
            [].into_iter(),
            0,
        );
        let e = Net::parse(&big, "b").err().unwrap();
        assert!(e.contains("hidden units"), "{e}");
    }

    #[test]
    fn black_sees_the_board_as_white_does_turned_round() {
        // A position and its colour-swapped twin (ranks turned, facings turned, the
        // other side to move) have the same output: the views are symmetric.
        let vs = Variants::builtin();
        for (name, efen, twin) in [
            (
                "fullcavalry",
                "4k3/8/8/3L(ne)4/8/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/3l(se)4/8/8/4K3 b - - 0 1",
            ),
            (
                "lighthouse",
                "1k2/4/4/1P2/4/4/4/2K1[Nr] w - - 0 1",
                "2k1/4/4/4/1p2/4/4/1K2[Rn] b - - 0 1",
            ),
        ] {
            let v = vs.get(name).unwrap();
            let net = Net::parse(&random_net(v, 11), "random").unwrap();
            let a = Position::from_efen(v, efen).unwrap();
            let b = Position::from_efen(v, twin).unwrap();
            assert_eq!(net.evaluate(&a), net.evaluate(&b), "{name}");
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
    }
}
