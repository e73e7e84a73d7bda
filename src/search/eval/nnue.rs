//! A small efficiently updatable network for variants that have one (chess today):
//! (colour, kind, square) inputs seen from each side, a hidden layer of [`HIDDEN`]
//! clipped-ReLU units per side, and one output, the side to move's score in centipawns.
//!
//! The accumulators (the hidden layer before clipping) are not updated inside
//! `do_move`: the search keeps one per ply with the piece bitboards it was built from,
//! and brings the nearest one up to date by the pieces that differ ([`Net::update`]).
//! That works whatever the two positions are, so it can never be stale, and after one
//! move only two to four inputs change.
//!
//! A network is either the whole evaluation or a correction added to the hand-made one
//! (a flag in its file).
//!
//! File format (little-endian): `LNN1`, flags (u16: bit 0, a correction), the kind
//! count `n` (u16) and `n` kind indices (u8), the hidden size (u16, must be
//! [`HIDDEN`]), then the input weights
//! `[2n·64][HIDDEN]` i16, the hidden biases `[HIDDEN]` i16, the output weights
//! `[2·HIDDEN]` i16 (side to move's half first) and the output bias i32. Input weights
//! and biases are scaled by [`QA`], output weights by [`QB`], the output bias by
//! `QA·QB`; the output times [`SCALE`] is centipawns.

use crate::rules::bitboard::{popcount, Bitboard};
use crate::rules::piece::{Color, Kind, NKINDS};
use crate::rules::{Position, Variant};
use std::sync::OnceLock;

/// Hidden units per side.
pub const HIDDEN: usize = 64;
/// Scale of the input layer: the clipped ReLU's ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The largest output, in centipawns, whatever the weights.
const MAX_OUTPUT: i64 = 10_000;
/// Kind slots a network can have.
pub const MAX_SLOTS: usize = 6;
/// Beyond this many changed inputs a fresh sum is cheaper than an update.
const MAX_CHANGES: u32 = 24;

/// A loaded network.
pub struct Net {
    /// The slot of each kind (`u8::MAX`: the network does not know it).
    slot: [u8; NKINDS],
    /// The kinds, slot by slot.
    kinds: Vec<Kind>,
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    w2: [i16; 2 * HIDDEN],
    b2: i32,
    /// The output is added to the hand-made evaluation.
    pub residual: bool,
}

/// One position's hidden sums for both views, and the piece bitboards they were built
/// from (White's slots, then Black's).
#[derive(Clone)]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
    pieces: [Bitboard; 2 * MAX_SLOTS],
    valid: bool,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
            pieces: [0; 2 * MAX_SLOTS],
            valid: false,
        }
    }
}

/// The kinds a network for `v` takes inputs for, in slot order; `None` where no
/// network can judge `v` (a board other than 8x8, hands, more than [`MAX_SLOTS`] kinds).
pub fn network_kinds(v: &Variant) -> Option<Vec<Kind>> {
    let kinds: Vec<Kind> = crate::rules::piece::ALL_KINDS
        .into_iter()
        .filter(|&k| v.has(k))
        .collect();
    (v.width == 8 && v.height == 8 && !v.drops && kinds.len() <= MAX_SLOTS).then_some(kinds)
}

/// The length of a network file with `n` kinds.
fn file_len(n: usize) -> usize {
    4 + 2 + 2 + n + 2 + 2 * ((2 * n * 64 + 1 + 2) * HIDDEN) + 4
}

/// The input of a piece of colour `c`, slot `s`, on `sq`, as side `view` sees it:
/// its own pieces first, and the board turned for Black.
#[inline(always)]
pub fn input(view: Color, c: Color, s: usize, sq: u8, nslots: usize) -> usize {
    let rel = usize::from(c != view);
    let sq = if view == Color::White { sq } else { sq ^ 56 };
    (rel * nslots + s) * 64 + sq as usize
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

impl Net {
    /// Reads a network file.
    pub fn parse(b: &[u8]) -> Result<Net, String> {
        if b.get(..4) != Some(b"LNN1".as_slice()) {
            return Err("not a lancer network (no LNN1 header)".into());
        }
        let mut at = 4;
        let flags = read_u16(b, &mut at)?;
        if flags > 1 {
            return Err(format!("network has unknown flags {flags}"));
        }
        let n = read_u16(b, &mut at)? as usize;
        if n == 0 || n > MAX_SLOTS {
            return Err(format!("network has {n} kinds (1 to {MAX_SLOTS})"));
        }
        let mut slot = [u8::MAX; NKINDS];
        let mut kinds = Vec::with_capacity(n);
        for s in 0..n {
            let k = *b.get(at).ok_or("network file cut short")? as usize;
            at += 1;
            let kind = crate::rules::piece::ALL_KINDS
                .get(k)
                .copied()
                .ok_or_else(|| format!("network names kind {k}, which does not exist"))?;
            if slot[k] != u8::MAX {
                return Err(format!("network names kind {k} twice"));
            }
            slot[k] = s as u8;
            kinds.push(kind);
        }
        let h = read_u16(b, &mut at)? as usize;
        if h != HIDDEN {
            return Err(format!(
                "network has {h} hidden units; this build reads {HIDDEN}"
            ));
        }
        let mut w1 = vec![[0i16; HIDDEN]; 2 * n * 64];
        for row in w1.iter_mut() {
            read_i16s(b, &mut at, row)?;
        }
        let mut b1 = [0i16; HIDDEN];
        read_i16s(b, &mut at, &mut b1)?;
        let mut w2 = [0i16; 2 * HIDDEN];
        read_i16s(b, &mut at, &mut w2)?;
        let s = b.get(at..at + 4).ok_or("network file cut short")?;
        let b2 = i32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        if at + 4 != b.len() {
            return Err("network file has bytes after its end".into());
        }
        Ok(Net {
            slot,
            kinds,
            w1,
            b1,
            w2,
            b2,
            residual: flags & 1 != 0,
        })
    }

    /// Whether the network can judge `v`'s positions: a variant a network can be made
    /// for ([`network_kinds`]), with an input for each of its kinds.
    pub fn covers(&self, v: &Variant) -> bool {
        network_kinds(v).is_some_and(|ks| ks.iter().all(|k| self.slot[k.idx()] != u8::MAX))
    }

    /// The piece bitboards the inputs come from (White's slots, then Black's).
    #[inline(always)]
    fn pieces(&self, pos: &Position) -> [Bitboard; 2 * MAX_SLOTS] {
        let mut p = [0; 2 * MAX_SLOTS];
        let n = self.kinds.len();
        for (s, &k) in self.kinds.iter().enumerate() {
            p[s] = pos.pieces_of(Color::White, k);
            p[n + s] = pos.pieces_of(Color::Black, k);
        }
        p
    }

    /// Builds `acc` for `pos` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        self.rebuild(acc, &self.pieces(pos));
    }

    /// Builds `acc` from scratch for the pieces `target`.
    fn rebuild(&self, acc: &mut Accumulator, target: &[Bitboard; 2 * MAX_SLOTS]) {
        acc.v = [self.b1; 2];
        acc.pieces = [0; 2 * MAX_SLOTS];
        acc.valid = true;
        self.apply(acc, target);
    }

    /// Changes `acc` (valid) into the sums of `target`'s pieces.
    #[inline(always)]
    fn apply(&self, acc: &mut Accumulator, target: &[Bitboard; 2 * MAX_SLOTS]) {
        let n = self.kinds.len();
        for i in 0..2 * n {
            let (c, s) = if i < n {
                (Color::White, i)
            } else {
                (Color::Black, i - n)
            };
            for (mut squares, add) in [
                (acc.pieces[i] & !target[i], false),
                (target[i] & !acc.pieces[i], true),
            ] {
                while squares != 0 {
                    let sq = squares.trailing_zeros() as u8;
                    squares &= squares - 1;
                    for view in [Color::White, Color::Black] {
                        let w = &self.w1[input(view, c, s, sq, n)];
                        for (a, d) in acc.v[view.idx()].iter_mut().zip(w) {
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
        acc.pieces = *target;
    }

    /// Brings `acc` to `pos`, starting from `from` when that is valid and close
    /// (fewer than [`MAX_CHANGES`] changed inputs), else from scratch.
    pub fn update(&self, pos: &Position, from: Option<&Accumulator>, acc: &mut Accumulator) {
        let target = self.pieces(pos);
        let changes = |a: &Accumulator| -> u32 {
            if !a.valid {
                return u32::MAX;
            }
            a.pieces
                .iter()
                .zip(&target)
                .map(|(x, y)| popcount(x ^ y))
                .sum()
        };
        let own = changes(acc);
        match from {
            Some(f) if changes(f) < own.min(MAX_CHANGES + 1) => acc.clone_from(f),
            _ if own > MAX_CHANGES => return self.rebuild(acc, &target),
            _ => {}
        }
        self.apply(acc, &target);
    }

    /// The output for side `stm` to move, in centipawns.
    #[inline(always)]
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        let us = &acc.v[stm.idx()];
        let them = &acc.v[stm.flip().idx()];
        let mut sum = 0i32;
        for (a, w) in us.iter().zip(&self.w2[..HIDDEN]) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        for (a, w) in them.iter().zip(&self.w2[HIDDEN..]) {
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
        write!(f, "Net({:?}, {HIDDEN} hidden)", self.kinds)
    }
}

/// The networks built into the engine, by variant: each a correction to the
/// hand-made evaluation, trained by `lancer train` over the weights built in now.
const BUILTIN: [(&str, &[u8]); 1] = [("chess", include_bytes!("chess.nnue"))];

/// The network built into the engine for variant `v`, if any.
pub fn builtin(v: &Variant) -> Option<&'static Net> {
    static NETS: OnceLock<Vec<Option<Net>>> = OnceLock::new();
    let i = BUILTIN.iter().position(|(name, _)| *name == v.name)?;
    NETS.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(name, b)| match Net::parse(b) {
                Ok(n) => Some(n),
                Err(e) => {
                    log::warn!("built-in network for {name}: {e}");
                    None
                }
            })
            .collect()
    })[i]
        .as_ref()
        .filter(|n| n.covers(v))
}

/// Reads the network file at `path` (the `EvalFile` option).
pub fn load(path: &str) -> Result<Net, String> {
    use std::io::Read;
    // Read no more than the largest network: a device or a huge file is refused, not
    // swallowed.
    let mut b = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(file_len(MAX_SLOTS) as u64 + 1).read_to_end(&mut b))
        .map_err(|e| format!("EvalFile {path}: {e}"))?;
    Net::parse(&b).map_err(|e| format!("EvalFile {path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};

    /// A network of random weights for the six chess kinds.
    fn random_net(seed: u64) -> Vec<u8> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut b = b"LNN1".to_vec();
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&6u16.to_le_bytes());
        b.extend([0u8, 1, 2, 3, 4, 5]);
        b.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
        for _ in 0..(12 * 64 + 1) * HIDDEN {
            b.extend_from_slice(&rng.gen_range(-300i16..300).to_le_bytes());
        }
        for _ in 0..2 * HIDDEN {
            b.extend_from_slice(&rng.gen_range(-100i16..100).to_le_bytes());
        }
        b.extend_from_slice(&1234i32.to_le_bytes());
        b
    }

    #[test]
    fn updates_from_any_accumulator_match_a_fresh_sum() {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let net = Net::parse(&random_net(7)).unwrap();
        assert!(net.covers(v));
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut checked = 0;
        for _game in 0..20 {
            let mut pos = Position::from_efen(
                v,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            )
            .unwrap();
            let mut history: Vec<Accumulator> = vec![Accumulator::default()];
            net.refresh(&pos, &mut history[0]);
            for _ply in 0..120 {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[rng.gen_range(0..list.len())];
                pos.do_move(m);
                let mut fresh = Accumulator::default();
                net.refresh(&pos, &mut fresh);
                // From the position before, from one further back, from nothing,
                // and in place over a stale sum.
                let back = history.len().saturating_sub(1 + rng.gen_range(0..6));
                for from in [history.last(), Some(&history[back]), None] {
                    let mut acc = Accumulator::default();
                    net.update(&pos, from, &mut acc);
                    assert_eq!(acc.v, fresh.v);
                    assert_eq!(net.output(&acc, pos.side()), net.evaluate(&pos));
                    checked += 1;
                }
                let mut stale = history[back].clone();
                net.update(&pos, None, &mut stale);
                assert_eq!(stale.v, fresh.v);
                history.push(fresh);
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = random_net(1);
        assert!(Net::parse(&good).is_ok());
        let e = Net::parse(b"XXXX").err().unwrap();
        assert!(e.contains("LNN1"), "{e}");
        let e = Net::parse(&good[..good.len() - 1]).err().unwrap();
        assert!(e.contains("cut short"), "{e}");
        let mut long = good.clone();
        long.push(0);
        assert!(Net::parse(&long).err().unwrap().contains("after its end"));
        let mut wrong = good.clone();
        wrong[6] = 9;
        assert!(Net::parse(&wrong).err().unwrap().contains("9 kinds"));
        let mut flags = good.clone();
        flags[4] = 2;
        assert!(Net::parse(&flags).err().unwrap().contains("flags"));
        let mut twice = good.clone();
        twice[9] = 0;
        assert!(Net::parse(&twice).err().unwrap().contains("twice"));
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
            let mut b = random_net(5);
            let n = b.len();
            b[n - 4..].copy_from_slice(&bias.to_le_bytes());
            let net = Net::parse(&b).unwrap();
            assert_eq!(i64::from(net.evaluate(&start)), want);
        }
    }

    #[test]
    fn the_built_in_chess_network_loads_and_covers_chess_only() {
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
        for name in [
            "fischerandom",
            "fullcavalry",
            "eightpiece",
            "royalstandard",
            "lighthouse",
        ] {
            assert!(builtin(vs.get(name).unwrap()).is_none(), "{name}");
        }
        // A network for chess's kinds cannot judge a variant with other pieces.
        assert!(!net.covers(vs.get("fullcavalry").unwrap()));
        assert!(!net.covers(vs.get("lighthouse").unwrap()));
        assert!(net.covers(vs.get("fischerandom").unwrap()));
    }
}
