//! The network file: reading ([`Net::parse`], [`load`]) and writing ([`write`]) the
//! format described in docs/formats.md, Networks.

use super::kings::{KingBuckets, MAX_KING_BUCKETS};
use super::network::{Activation, MAX_OUTPUT_BUCKETS, MAX_SCRELU_W2, OUTPUT_TABLE};
use super::{Group, Layout, Net, HIDDEN, MAGIC, MAX_GROUPS};

/// What a network file says of its network besides the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Its inputs, king buckets included.
    pub layout: Layout,
    /// A correction added to the hand-made evaluation, not the whole of it.
    pub residual: bool,
    pub activation: Activation,
    /// The output bucket of each count of pieces on the board.
    pub outputs: [u8; OUTPUT_TABLE],
    /// Hidden units per side.
    pub hidden: usize,
}

impl Shape {
    /// Output buckets (the largest in the table plus one).
    pub fn output_buckets(&self) -> usize {
        *self.outputs.iter().max().unwrap_or(&0) as usize + 1
    }
}

/// Flag bits of an `LNN3` file.
const RESIDUAL: u16 = 1;
const SCRELU: u16 = 2;
const MIRROR: u16 = 4;

/// The length of an `LNN3` file with `n` groups, `kb` king buckets, `ob` output
/// buckets and `h` hidden units.
pub(super) fn file_len(n: usize, kb: usize, ob: usize, h: usize) -> usize {
    4 + 2
        + 2
        + 2
        + 2 * n
        + 64
        + OUTPUT_TABLE
        + 2
        + 2 * (kb * 2 * n * 64 * h + h + ob * 2 * h)
        + 4 * ob
}

/// The length of an `LNN2` file (no buckets, one output) with `n` groups.
fn file_len_v2(n: usize, h: usize) -> usize {
    4 + 2 + 2 + 2 + 2 * n + 2 + 2 * ((2 * n * 64 + 1 + 2) * h) + 4
}

/// Reads from a network file, each read checked against its end.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> Result<&[u8], String> {
        let s = self
            .b
            .get(self.at..self.at + n)
            .ok_or("network file cut short")?;
        self.at += n;
        Ok(s)
    }

    fn u16(&mut self) -> Result<u16, String> {
        let s = self.bytes(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let s = self.bytes(2 * n)?;
        Ok(s.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, String> {
        let s = self.bytes(4 * n)?;
        Ok(s.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

/// The bytes of an `LNN3` network file (docs/formats.md, Networks) of `shape` with
/// weights already scaled: input weights (a row of `hidden` a feature), hidden biases,
/// output weights (`2·hidden` a bucket) and output biases (one a bucket).
pub fn write(
    shape: &Shape,
    w1: impl Iterator<Item = i16>,
    b1: impl Iterator<Item = i16>,
    w2: impl Iterator<Item = i16>,
    b2: impl Iterator<Item = i32>,
) -> Vec<u8> {
    let l = &shape.layout;
    let mut flags = 0;
    for (on, bit) in [
        (shape.residual, RESIDUAL),
        (shape.activation == Activation::Screlu, SCRELU),
        (l.kings.mirror, MIRROR),
    ] {
        if on {
            flags |= bit;
        }
    }
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&flags.to_le_bytes());
    b.extend([l.width, l.height]);
    b.extend_from_slice(&(l.groups.len() as u16).to_le_bytes());
    for g in &l.groups {
        b.extend(g.encode());
    }
    b.extend_from_slice(&l.kings.table);
    b.extend_from_slice(&shape.outputs);
    b.extend_from_slice(&(shape.hidden as u16).to_le_bytes());
    for w in w1.chain(b1).chain(w2) {
        b.extend_from_slice(&w.to_le_bytes());
    }
    for w in b2 {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b
}

impl Net {
    /// Reads a network file (`LNN3`, or `LNN2` of the networks before king and output
    /// buckets); `name` says where it came from.
    pub fn parse(b: &[u8], name: &str) -> Result<Net, String> {
        let v2 = match b.get(..4) {
            Some(m) if m == MAGIC => false,
            Some(b"LNN2") => true,
            _ => return Err("not a lancer network (no LNN3 or LNN2 header)".into()),
        };
        let mut r = Reader { b, at: 4 };
        let flags = r.u16()?;
        let known = if v2 {
            RESIDUAL
        } else {
            RESIDUAL | SCRELU | MIRROR
        };
        if flags & !known != 0 {
            return Err(format!("network has unknown flags {flags}"));
        }
        let size = r.bytes(2)?;
        let (width, height) = (size[0], size[1]);
        let n = r.u16()? as usize;
        if n == 0 || n > MAX_GROUPS {
            return Err(format!("network has {n} input groups (1 to {MAX_GROUPS})"));
        }
        let mut groups = Vec::with_capacity(n);
        for _ in 0..n {
            let g = r.bytes(2)?;
            groups.push(Group::decode([g[0], g[1]])?);
        }
        let mut layout = Layout::new(groups, width, height)?;
        let mut outputs = [0u8; OUTPUT_TABLE];
        if !v2 {
            let mut table = [0u8; 64];
            table.copy_from_slice(r.bytes(64)?);
            let kings = KingBuckets {
                table,
                mirror: flags & MIRROR != 0,
            };
            layout = layout.with_kings(kings)?;
            outputs.copy_from_slice(r.bytes(OUTPUT_TABLE)?);
        }
        let shape = Shape {
            layout,
            residual: flags & RESIDUAL != 0,
            activation: if flags & SCRELU != 0 {
                Activation::Screlu
            } else {
                Activation::Crelu
            },
            outputs,
            hidden: r.u16()? as usize,
        };
        let (h, ob) = (shape.hidden, shape.output_buckets());
        if !(1..=HIDDEN).contains(&h) {
            return Err(format!(
                "network has {h} hidden units; this build reads 1 to {HIDDEN}"
            ));
        }
        if ob > MAX_OUTPUT_BUCKETS {
            return Err(format!(
                "network has {ob} output buckets (1 to {MAX_OUTPUT_BUCKETS})"
            ));
        }
        let kb = shape.layout.kings.count();
        let len = if v2 {
            file_len_v2(n, h)
        } else {
            file_len(n, kb, ob, h)
        };
        // The length is known now: refuse a short file before reserving its weights.
        if b.len() < len {
            return Err("network file cut short".into());
        }
        if b.len() > len {
            return Err("network file has bytes after its end".into());
        }
        let w1 = r.i16s(shape.layout.features() * h)?;
        let b1 = r.i16s(h)?;
        let w2 = r.i16s(ob * 2 * h)?;
        let b2 = r.i32s(ob)?;
        if shape.activation == Activation::Screlu {
            if let Some(w) = w2.iter().find(|w| w.unsigned_abs() > MAX_SCRELU_W2 as u16) {
                return Err(format!(
                    "network has SCReLU output weight {w}, beyond ±{MAX_SCRELU_W2}"
                ));
            }
        }
        Ok(Net {
            kingless: shape.layout.kings == KingBuckets::NONE,
            layout: shape.layout,
            h,
            activation: shape.activation,
            outputs: shape.outputs,
            w1,
            b1,
            w2,
            b2,
            residual: shape.residual,
            name: name.to_string(),
        })
    }

    /// What the file says of the network besides its weights.
    pub fn shape(&self) -> Shape {
        Shape {
            layout: self.layout.clone(),
            residual: self.residual,
            activation: self.activation,
            outputs: self.outputs,
            hidden: self.h,
        }
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
            f.take(file_len(MAX_GROUPS, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS, HIDDEN) as u64 + 1)
                .read_to_end(&mut b)
        })
        .map_err(|e| format!("{path}: {e}"))?;
    Net::parse(&b, path).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::eval::nnue::{output_table, DEFAULT_HIDDEN};
    use crate::rules::ini::Variants;
    use crate::rules::Variant;
    use rand::{Rng, SeedableRng};

    /// A network file for `v` (the held group included where `v` has jailers) of `h`
    /// units, king buckets `kings` ([`KingBuckets::preset`]), `outputs` output buckets
    /// and activation `a`, with random weights.
    pub(in crate::eval::nnue) fn random_shaped(
        v: &Variant,
        seed: u64,
        h: usize,
        kings: &str,
        outputs: usize,
        a: Activation,
    ) -> Vec<u8> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let kings = KingBuckets::preset(kings, v.width, v.height).unwrap();
        let layout = Layout::for_variant_held(v)
            .unwrap()
            .with_kings(kings)
            .unwrap();
        let n1 = (layout.features() + 1) * h;
        let shape = Shape {
            layout,
            residual: false,
            activation: a,
            outputs: output_table(outputs, 32),
            hidden: h,
        };
        let w1: Vec<i16> = (0..n1).map(|_| rng.gen_range(-300i16..300)).collect();
        let w2: Vec<i16> = (0..outputs * 2 * h)
            .map(|_| rng.gen_range(-100i16..100))
            .collect();
        let b2: Vec<i32> = (0..outputs).map(|_| rng.gen_range(-5000..5000)).collect();
        write(
            &shape,
            w1.into_iter(),
            std::iter::empty(),
            w2.into_iter(),
            b2.into_iter(),
        )
    }

    /// A network of `h` units, no buckets, one output and random weights for `v`'s
    /// inputs.
    pub(in crate::eval::nnue) fn random_net_of(v: &Variant, seed: u64, h: usize) -> Vec<u8> {
        random_shaped(v, seed, h, "none", 1, Activation::Crelu)
    }

    /// A network of [`DEFAULT_HIDDEN`] units and random weights for `v`'s inputs.
    pub(in crate::eval::nnue) fn random_net(v: &Variant, seed: u64) -> Vec<u8> {
        random_net_of(v, seed, DEFAULT_HIDDEN)
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let good = random_net(chess, 1);
        assert!(Net::parse(&good, "x").is_ok());
        let e = Net::parse(b"XXXX", "x").err().unwrap();
        assert!(e.contains("LNN3"), "{e}");
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
        flags[4] = 8;
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
        // The tables after chess's 12 groups: king buckets, then output buckets.
        let (kings, outs) = (10 + 2 * 12, 10 + 2 * 12 + 64);
        // A king bucket only on a square beyond the board (the file would then also
        // be too short for its weights, but the bucket is refused first).
        let mut beyond = random_net(vs.get("lighthouse").unwrap(), 1);
        let lk = 10 + 2 * 10;
        beyond[lk + 7] = 1; // h1, beyond Lighthouse's four files
        let e = Net::parse(&beyond, "x").err().unwrap();
        assert!(e.contains("king bucket 1, which no square"), "{e}");
        let mut many = good.clone();
        many[kings] = MAX_KING_BUCKETS as u8;
        let e = Net::parse(&many, "x").err().unwrap();
        assert!(e.contains("33 king buckets"), "{e}");
        let mut outputs = good.clone();
        outputs[outs + 3] = MAX_OUTPUT_BUCKETS as u8;
        let e = Net::parse(&outputs, "x").err().unwrap();
        assert!(e.contains("17 output buckets"), "{e}");
        // A file with more buckets than its weights fill is cut short.
        let mut more = good.clone();
        more[outs + 3] = 1;
        let e = Net::parse(&more, "x").err().unwrap();
        assert!(e.contains("cut short"), "{e}");
        // SCReLU output weights must fit the engine's sums.
        let sq = random_shaped(chess, 2, 8, "4", 2, Activation::Screlu);
        assert!(Net::parse(&sq, "x").is_ok());
        let mut wide = sq.clone();
        let w2 = wide.len() - 8 - 2 * 2 * 8 * 2;
        wide[w2..w2 + 2].copy_from_slice(&(MAX_SCRELU_W2 + 1).to_le_bytes());
        let e = Net::parse(&wide, "x").err().unwrap();
        assert!(e.contains("SCReLU output weight 129"), "{e}");
        // A mirror needs each group's mirrored twin: lancers facing north, south and
        // east turn into each other upside down, but east has no west in a mirror.
        let l = Layout::new(
            vec![Group::Lancer(0), Group::Lancer(4), Group::Lancer(2)],
            8,
            8,
        )
        .unwrap();
        assert!(l.clone().with_kings(KingBuckets::NONE).is_ok());
        let e = l
            .with_kings(KingBuckets::preset("m", 8, 8).unwrap())
            .unwrap_err();
        assert!(e.contains("mirrors the board but has Lancer(2)"), "{e}");
    }

    #[test]
    fn files_of_the_networks_before_buckets_still_read() {
        // `LNN2`: no king or output buckets; the engine reads it as one of each.
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let layout = Layout::for_variant(chess).unwrap();
        let h = 4;
        let mut b = b"LNN2".to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend([8, 8]);
        b.extend_from_slice(&(layout.groups.len() as u16).to_le_bytes());
        for g in &layout.groups {
            b.extend(g.encode());
        }
        b.extend_from_slice(&(h as u16).to_le_bytes());
        for i in 0..(layout.inputs() + 1 + 2) * h {
            b.extend_from_slice(&((i % 7) as i16 - 3).to_le_bytes());
        }
        b.extend_from_slice(&77i32.to_le_bytes());
        let net = Net::parse(&b, "old").unwrap();
        assert!(net.residual);
        assert_eq!(net.layout.kings.count(), 1);
        assert_eq!(
            (net.output_buckets(), net.activation),
            (1, Activation::Crelu)
        );
        // Written again, it is an `LNN3` file of the same network.
        let u = net.unscaled();
        let again = write(
            &net.shape(),
            u.w1.iter().map(|w| (w * 255.0).round() as i16),
            u.b1.iter().map(|w| (w * 255.0).round() as i16),
            u.w2.iter().map(|w| (w * 64.0).round() as i16),
            [77].into_iter(),
        );
        assert_eq!(&again[..4], MAGIC);
        let net2 = Net::parse(&again, "new").unwrap();
        let pos = crate::rules::Position::from_efen(
            chess,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        )
        .unwrap();
        assert_eq!(net.evaluate(&pos), net2.evaluate(&pos));
        // Old files have no room for the new flags.
        let mut flagged = b.clone();
        flagged[4] = 2;
        assert!(Net::parse(&flagged, "x").err().unwrap().contains("flags"));
    }
}
