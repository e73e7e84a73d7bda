//! Small efficiently updatable networks, one per variant that has one: the inputs of
//! [`features`] seen from each side, a hidden layer of clipped-ReLU units per side (its
//! size is the network's own, up to [`HIDDEN`]), and one output, the side to move's
//! score in centipawns.
//!
//! The accumulators (the hidden layer before clipping) are not updated inside
//! `do_move`: the search keeps one per ply with the input bits it was built from, and
//! brings the nearest one up to date by the bits that differ ([`Net::update`]). That
//! works whatever the two positions are and whatever the move was (a lancer's turn, a
//! displacement, a windmill, a drop, a capture into the hand), so it can never be
//! stale, and after one move only a few inputs change.
//!
//! A network is either the whole evaluation or a correction added to the hand-made one
//! (a flag in its file).
//!
//! File format (little-endian; docs/protocols.md, Networks): `LNN2`, flags (u16: bit
//! 0, a correction), the board's width and height (u8 each), the group count `n` (u16)
//! and `n` groups of two bytes ([`Group::encode`]), the hidden size `h` (u16, 1 to
//! [`HIDDEN`]), then the input weights `[2n·64][h]` i16, the hidden biases `[h]` i16,
//! the output weights `[2·h]` i16 (side to move's half first) and the output bias i32.
//! A network runs at its own size: the accumulators have room for [`HIDDEN`] units and
//! a network uses the first `h`. Input weights and biases are scaled by [`QA`], output
//! weights by [`QB`], the output bias by `QA·QB`; the output times [`SCALE`] is
//! centipawns.

pub mod features;

use crate::rules::bitboard::{popcount, Bitboard};
use crate::rules::piece::Color;
use crate::rules::{Position, Variant};
pub use features::{Group, Layout, MAX_GROUPS};
use std::sync::OnceLock;

/// The most hidden units per side a network may have.
pub const HIDDEN: usize = 256;
/// Hidden units per side of a network trained without saying how many.
pub const DEFAULT_HIDDEN: usize = 64;
/// Scale of the input layer: the clipped ReLU's ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The largest output, in centipawns, whatever the weights.
const MAX_OUTPUT: i64 = 10_000;
/// Beyond this many changed inputs a fresh sum is cheaper than an update.
const MAX_CHANGES: u32 = 24;
/// The file's first bytes.
pub const MAGIC: &[u8; 4] = b"LNN2";

/// A loaded network.
pub struct Net {
    /// What its inputs are.
    pub layout: Layout,
    /// Hidden units per side.
    h: usize,
    /// Input weights, `h` a row, one row an input.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Output weights, the side to move's `h` first.
    w2: Vec<i16>,
    b2: i32,
    /// The output is added to the hand-made evaluation.
    pub residual: bool,
    /// Where it came from: a built-in network's name or a file's path.
    pub name: String,
}

/// One position's hidden sums for both views (a network of `h` units uses the first
/// `h`), and the input bits they were built from (White's groups, then Black's).
#[derive(Clone)]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
    bits: [Bitboard; 2 * MAX_GROUPS],
    valid: bool,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
            bits: [0; 2 * MAX_GROUPS],
            valid: false,
        }
    }
}

/// The length of a network file with `n` groups.
fn file_len(n: usize, h: usize) -> usize {
    4 + 2 + 2 + 2 + 2 * n + 2 + 2 * ((2 * n * 64 + 1 + 2) * h) + 4
}

fn read_u16(b: &[u8], at: &mut usize) -> Result<u16, String> {
    let s = b.get(*at..*at + 2).ok_or("network file cut short")?;
    *at += 2;
    Ok(u16::from_le_bytes([s[0], s[1]]))
}

fn read_i16s(b: &[u8], at: &mut usize, out: &mut [i16]) -> Result<(), String> {
    let s = b
        .get(*at..*at + 2 * out.len())
        .ok_or("network file cut short")?;
    for (o, c) in out.iter_mut().zip(s.chunks_exact(2)) {
        *o = i16::from_le_bytes([c[0], c[1]]);
    }
    *at += 2 * out.len();
    Ok(())
}

/// The bytes of a network file (the format above) of `layout` and `hidden` units with
/// weights already scaled.
pub fn write(
    layout: &Layout,
    residual: bool,
    hidden: usize,
    w1: impl Iterator<Item = i16>,
    b1: impl Iterator<Item = i16>,
    w2: impl Iterator<Item = i16>,
    b2: i32,
) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&u16::from(residual).to_le_bytes());
    b.extend([layout.width, layout.height]);
    b.extend_from_slice(&(layout.groups.len() as u16).to_le_bytes());
    for g in &layout.groups {
        b.extend(g.encode());
    }
    b.extend_from_slice(&(hidden as u16).to_le_bytes());
    for w in w1.chain(b1).chain(w2) {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&b2.to_le_bytes());
    b
}

impl Net {
    /// Reads a network file; `name` says where it came from.
    pub fn parse(b: &[u8], name: &str) -> Result<Net, String> {
        if b.get(..4) != Some(MAGIC.as_slice()) {
            return Err("not a lancer network (no LNN2 header)".into());
        }
        let mut at = 4;
        let flags = read_u16(b, &mut at)?;
        if flags > 1 {
            return Err(format!("network has unknown flags {flags}"));
        }
        let size = b.get(at..at + 2).ok_or("network file cut short")?;
        let (width, height) = (size[0], size[1]);
        at += 2;
        let n = read_u16(b, &mut at)? as usize;
        if n == 0 || n > MAX_GROUPS {
            return Err(format!("network has {n} input groups (1 to {MAX_GROUPS})"));
        }
        let mut groups = Vec::with_capacity(n);
        for _ in 0..n {
            let g = b.get(at..at + 2).ok_or("network file cut short")?;
            groups.push(Group::decode([g[0], g[1]])?);
            at += 2;
        }
        let layout = Layout::new(groups, width, height)?;
        let h = read_u16(b, &mut at)? as usize;
        if !(1..=HIDDEN).contains(&h) {
            return Err(format!(
                "network has {h} hidden units; this build reads 1 to {HIDDEN}"
            ));
        }
        // The length is known now: refuse a short file before reserving its weights.
        if b.len() < file_len(n, h) {
            return Err("network file cut short".into());
        }
        let mut w1 = vec![0i16; layout.inputs() * h];
        read_i16s(b, &mut at, &mut w1)?;
        let mut b1 = vec![0i16; h];
        read_i16s(b, &mut at, &mut b1)?;
        let mut w2 = vec![0i16; 2 * h];
        read_i16s(b, &mut at, &mut w2)?;
        let s = b.get(at..at + 4).ok_or("network file cut short")?;
        let b2 = i32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        if at + 4 != b.len() {
            return Err("network file has bytes after its end".into());
        }
        Ok(Net {
            layout,
            h,
            w1,
            b1,
            w2,
            b2,
            residual: flags & 1 != 0,
            name: name.to_string(),
        })
    }

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

/// The networks built into the engine, by the name a variant's `network` key gives:
/// each a correction to the hand-made evaluation, trained by `lancer train` over the
/// weights built in now.
const BUILTIN: [(&str, &[u8]); 5] = [
    ("chess", include_bytes!("chess.nnue")),
    ("fullcavalry", include_bytes!("fullcavalry.nnue")),
    ("eightpiece", include_bytes!("eightpiece.nnue")),
    ("royalstandard", include_bytes!("royalstandard.nnue")),
    ("lighthouse", include_bytes!("lighthouse.nnue")),
];

/// The names of the networks built in.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// The network built in under `name`, if it exists and reads.
fn builtin_named(name: &str) -> Option<&'static Net> {
    static NETS: OnceLock<Vec<Option<Net>>> = OnceLock::new();
    let i = BUILTIN.iter().position(|(n, _)| *n == name)?;
    NETS.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(name, b)| match Net::parse(b, name) {
                Ok(n) => Some(n),
                Err(e) => {
                    log::warn!("built-in network {name}: {e}");
                    None
                }
            })
            .collect()
    })[i]
        .as_ref()
}

/// The built-in network variant `v` names (its `network` key), if it covers `v`.
pub fn builtin(v: &Variant) -> Option<&'static Net> {
    builtin_named(v.network.as_deref()?).filter(|n| n.covers(v))
}

/// Whether variant `v`'s `network` key names a network built in. One that cannot judge
/// `v` (a child with another board or other pieces inherits its parent's key) is
/// simply not used.
pub fn check(v: &Variant) -> Result<(), String> {
    match v.network.as_deref() {
        Some(name) if builtin_named(name).is_none() => Err(format!(
            "[{}]: network '{name}' is not built in ({}, or none)",
            v.name,
            builtin_names().collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(()),
    }
}

/// Reads the network file at `path` (the `EvalFile` option, `lancer train --init`);
/// the error begins with the path.
pub fn load(path: &str) -> Result<Net, String> {
    use std::io::Read;
    // Read no more than the largest network: a device or a huge file is refused, not
    // swallowed.
    let mut b = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            f.take(file_len(MAX_GROUPS, HIDDEN) as u64 + 1)
                .read_to_end(&mut b)
        })
        .map_err(|e| format!("{path}: {e}"))?;
    Net::parse(&b, path).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};

    /// A network of `h` units and random weights for `v`'s inputs, the optional held
    /// group included where `v` has jailers.
    fn random_net_of(v: &Variant, seed: u64, h: usize) -> Vec<u8> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let layout = Layout::for_variant_held(v).unwrap();
        let n1 = (layout.inputs() + 1) * h;
        let w1: Vec<i16> = (0..n1).map(|_| rng.gen_range(-300i16..300)).collect();
        let w2: Vec<i16> = (0..2 * h).map(|_| rng.gen_range(-100i16..100)).collect();
        write(
            &layout,
            false,
            h,
            w1.into_iter(),
            std::iter::empty(),
            w2.into_iter(),
            1234,
        )
    }

    /// A network of [`DEFAULT_HIDDEN`] units and random weights for `v`'s inputs.
    fn random_net(v: &Variant, seed: u64) -> Vec<u8> {
        random_net_of(v, seed, DEFAULT_HIDDEN)
    }

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
    fn bad_files_are_refused_with_a_reason() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let good = random_net(chess, 1);
        assert!(Net::parse(&good, "x").is_ok());
        let e = Net::parse(b"XXXX", "x").err().unwrap();
        assert!(e.contains("LNN2"), "{e}");
        let e = Net::parse(&good[..good.len() - 1], "x").err().unwrap();
        assert!(e.contains("cut short"), "{e}");
        let mut long = good.clone();
        long.push(0);
        assert!(Net::parse(&long, "x")
            .err()
            .unwrap()
            .contains("after its end"));
        let mut wrong = good.clone();
        wrong[8] = 99;
        let e = Net::parse(&wrong, "x").err().unwrap();
        assert!(e.contains("99 input groups"), "{e}");
        let mut flags = good.clone();
        flags[4] = 2;
        assert!(Net::parse(&flags, "x").err().unwrap().contains("flags"));
        let mut twice = good.clone();
        twice[13] = 0;
        assert!(Net::parse(&twice, "x").err().unwrap().contains("twice"));
        let mut board = good.clone();
        board[6] = 9;
        assert!(Net::parse(&board, "x").err().unwrap().contains("9x8"));
        let mut group = good.clone();
        group[10] = 7;
        let e = Net::parse(&group, "x").err().unwrap();
        assert!(e.contains("unknown input group"), "{e}");
        // A network for the lancer variants needs every facing.
        let fc = vs.get("fullcavalry").unwrap();
        let mut facing = random_net(fc, 1);
        let at = 10 + 2 * 5; // the first lancer group (after P N B Q K)
        assert_eq!(facing[at], 1);
        facing[at + 1] = 7; // two groups for north-west, none for north
        let e = Net::parse(&facing, "x").err().unwrap();
        assert!(e.contains("twice"), "{e}");
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

    #[test]
    fn networks_are_found_through_the_variants_inheritance() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let net = builtin(chess).expect("the build has a chess network");
        assert!(net.residual);
        let start = Position::from_efen(
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        // A correction: small beside the material it is added to.
        assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
        // Chess960 and a user variant of chess inherit chess's `network` key.
        let user = Variants::load(&[
            (crate::rules::ini::BUILTIN_INI, "variants.ini"),
            (
                "[mychess : chess]\n[bare : chess]\nnetwork = none\n",
                "user.ini",
            ),
        ])
        .unwrap();
        for name in ["fischerandom", "mychess"] {
            let v = user.get(name).unwrap();
            assert!(std::ptr::eq(builtin(v).unwrap(), net), "{name}");
            check(v).unwrap();
        }
        assert!(builtin(user.get("bare").unwrap()).is_none());
        for v in vs.all() {
            check(v).unwrap_or_else(|e| panic!("{e}"));
            if let Some(n) = builtin(v) {
                assert_eq!(Some(n.name.as_str()), v.network.as_deref());
            }
        }
        // A network for chess's kinds cannot judge a variant with other pieces.
        assert!(!net.covers(vs.get("fullcavalry").unwrap()));
        assert!(!net.covers(vs.get("lighthouse").unwrap()));
        let bad = Variants::load(&[
            (crate::rules::ini::BUILTIN_INI, "variants.ini"),
            (
                "[odd : fullcavalry]\nnetwork = chess\n[gone : chess]\nnetwork = nosuch\n",
                "u.ini",
            ),
        ])
        .unwrap();
        check(bad.get("odd").unwrap()).unwrap();
        let e = check(bad.get("gone").unwrap()).unwrap_err();
        assert!(e.contains("'nosuch' is not built in"), "{e}");
        assert!(builtin(bad.get("odd").unwrap()).is_none());
    }
}
